//! `MsgHandle`: the JS-side handle that owns one `Msg` in wasm memory.

use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::js_error;
use crate::{
    AgentEvent, ErrorInfo, Msg, MsgContent, MsgOptions, ReplyFinishedReason, Role, Usage, assistant_msg, parse_content,
    system_msg, user_msg,
};

/// Owns one message in wasm memory; the TS `Msg` class wraps it. Events go in as wire
/// JSON text and are applied in place, so streaming never copies the message across the
/// boundary; reads hand out wire JSON per block, with revision counters so that the TS
/// layer re-reads only the blocks that changed.
#[wasm_bindgen]
pub struct MsgHandle {
    msg: Msg,
}

/// The message's fields, with `content` as a placeholder so that keys keep their order.
#[derive(Serialize)]
struct Header<'a> {
    name: &'a str,
    content: (),
    role: Role,
    id: &'a str,
    metadata: &'a Map<String, Value>,
    created_at: &'a str,
    usage: &'a Option<Usage>,
    finished_at: &'a Option<String>,
    finished_reason: &'a Option<ReplyFinishedReason>,
    structured_output: &'a Option<Map<String, Value>>,
    error: &'a Option<ErrorInfo>,
}

fn invalid(what: &str, e: impl std::fmt::Display) -> JsValue {
    js_error(&crate::MsgError::InvalidMsg(format!("{what}: {e}")))
}

/// `null` / `undefined` → all blocks; a string → one type; an array of strings → those.
fn block_types(types: &JsValue) -> Option<Vec<String>> {
    if types.is_null() || types.is_undefined() {
        return None;
    }
    if let Some(t) = types.as_string() {
        return Some(vec![t]);
    }
    let array: &js_sys::Array = types.dyn_ref()?;
    Some(array.iter().filter_map(|t| t.as_string()).collect())
}

#[wasm_bindgen]
impl MsgHandle {
    /// `UserMsg` / `AssistantMsg` / `SystemMsg`: `role` is `user`, `assistant` or
    /// `system`; `content_json` a JSON string or array of blocks; `options_json` an
    /// object of the optional fields. Throws `MsgError` (`role_violation`, …).
    pub fn create(role: &str, name: &str, content_json: &str, options_json: &str) -> Result<MsgHandle, JsValue> {
        let options: MsgOptions = serde_json::from_str(options_json).map_err(|e| invalid("options", e))?;
        let content: MsgContent = if content_json.trim_start().starts_with('"') {
            serde_json::from_str::<String>(content_json)
                .map_err(|e| invalid("content", e))?
                .into()
        } else {
            parse_content(content_json).map_err(|e| js_error(&e))?.into()
        };
        let msg = match role {
            "user" => user_msg(name, content, options),
            "system" => system_msg(name, content, options),
            "assistant" => assistant_msg(name, content, options),
            _ => Err(crate::MsgError::InvalidRole),
        };
        msg.map(|msg| MsgHandle { msg }).map_err(|e| js_error(&e))
    }

    /// Parses and validates a message from wire JSON (`Msg.model_validate_json`).
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(json: &str) -> Result<MsgHandle, JsValue> {
        Msg::from_json(json)
            .map(|msg| MsgHandle { msg })
            .map_err(|e| js_error(&e))
    }

    /// Applies one event given as wire JSON text; the message is unchanged on error.
    #[wasm_bindgen(js_name = appendEvent)]
    pub fn append_event(&mut self, event_json: &str) -> Result<(), JsValue> {
        let event = AgentEvent::from_json(event_json).map_err(|e| js_error(&e))?;
        self.msg.append_event(&event).map(|_| ()).map_err(|e| js_error(&e))
    }

    /// The message's revision counter (grows on every change).
    pub fn revision(&self) -> f64 {
        self.msg.revision() as f64
    }

    /// Number of content blocks.
    #[wasm_bindgen(js_name = blockCount)]
    pub fn block_count(&self) -> usize {
        self.msg.content().len()
    }

    /// Positions of the blocks that changed after revision `since` (new blocks included);
    /// every block when `since` is negative (never read).
    #[wasm_bindgen(js_name = changedBlocks)]
    pub fn changed_blocks(&self, since: f64) -> Vec<u32> {
        let changed = if since < 0.0 {
            (0..self.msg.content().len()).collect()
        } else {
            self.msg.changed_blocks(since as u64)
        };
        changed.into_iter().filter_map(|i| u32::try_from(i).ok()).collect()
    }

    /// Block `i` as wire JSON text (`undefined` when out of range).
    #[wasm_bindgen(js_name = blockJSON)]
    pub fn block_json(&self, i: usize) -> Option<String> {
        let block = self.msg.content().get(i)?;
        serde_json::to_string(block).ok()
    }

    /// The message's fields as wire JSON text, with `content: null` as a placeholder.
    #[wasm_bindgen(js_name = headerJSON)]
    pub fn header_json(&self) -> String {
        let m = &self.msg;
        let header = Header {
            name: &m.name,
            content: (),
            role: m.role,
            id: &m.id,
            metadata: &m.metadata,
            created_at: &m.created_at,
            usage: &m.usage,
            finished_at: &m.finished_at,
            finished_reason: &m.finished_reason,
            structured_output: &m.structured_output,
            error: &m.error,
        };
        serde_json::to_string(&header).unwrap_or_default()
    }

    /// The whole message as wire JSON text.
    #[wasm_bindgen(js_name = toJSONString)]
    pub fn to_json_string(&self) -> String {
        self.msg.to_json()
    }

    /// `get_text_content(separator)`; `undefined` when there is no text block.
    #[wasm_bindgen(js_name = getTextContent)]
    pub fn get_text_content(&self, separator: &str) -> Option<String> {
        self.msg.get_text_content(separator)
    }

    /// Positions of the blocks `get_content_blocks(types)` returns.
    #[wasm_bindgen(js_name = contentBlockIndices)]
    pub fn content_block_indices(&self, types: JsValue) -> Vec<u32> {
        let types = block_types(&types);
        let refs: Option<Vec<&str>> = types.as_ref().map(|t| t.iter().map(String::as_str).collect());
        let indices = self.msg.content_block_indices(refs.as_deref());
        indices.into_iter().filter_map(|i| u32::try_from(i).ok()).collect()
    }

    /// `has_content_blocks(types)`.
    #[wasm_bindgen(js_name = hasContentBlocks)]
    pub fn has_content_blocks(&self, types: JsValue) -> bool {
        let types = block_types(&types);
        let refs: Option<Vec<&str>> = types.as_ref().map(|t| t.iter().map(String::as_str).collect());
        self.msg.has_content_blocks(refs.as_deref())
    }

    /// A deep copy in a new handle.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_handle(&self) -> MsgHandle {
        MsgHandle { msg: self.msg.clone() }
    }
}
