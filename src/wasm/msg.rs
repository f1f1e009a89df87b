//! `MsgHandle`: the JS-side handle that owns one `Msg` in wasm memory.

use wasm_bindgen::prelude::*;

use super::js_error;
use crate::snapshot::SnapshotReader;
use crate::{AgentEvent, Msg, MsgContent, MsgOptions, assistant_msg, parse_content, system_msg, user_msg};

/// Owns one message in wasm memory; the TS `Msg` class wraps it. Events go in as wire
/// JSON text and are applied in place, so streaming never copies the message across the
/// boundary; reads hand out wire JSON per block, with revision counters so that the TS
/// layer re-reads only the blocks that changed.
#[wasm_bindgen]
pub struct MsgHandle {
    msg: Msg,
    reader: SnapshotReader,
}

impl MsgHandle {
    fn new(msg: Msg) -> MsgHandle {
        MsgHandle {
            msg,
            reader: SnapshotReader::new(),
        }
    }
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
        msg.map(MsgHandle::new).map_err(|e| js_error(&e))
    }

    /// Parses and validates a message from wire JSON (`Msg.model_validate_json`).
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(json: &str) -> Result<MsgHandle, JsValue> {
        Msg::from_json(json).map(MsgHandle::new).map_err(|e| js_error(&e))
    }

    /// Applies one event given as wire JSON text; the message is unchanged on error.
    #[wasm_bindgen(js_name = appendEvent)]
    pub fn append_event(&mut self, event_json: &str) -> Result<(), JsValue> {
        let event = AgentEvent::from_json(event_json).map_err(|e| js_error(&e))?;
        self.msg.append_event(&event).map(|_| ()).map_err(|e| js_error(&e))
    }

    /// Sets the caps on what events may add (the core's `Limits`, in its field order:
    /// `max_delta_bytes`, `max_block_bytes`, `max_message_bytes`, `max_blocks`; 0 is no
    /// cap). The TS layer checks the values.
    #[wasm_bindgen(js_name = setLimits)]
    pub fn set_limits(&mut self, max_delta_bytes: u32, max_block_bytes: u32, max_message_bytes: u32, max_blocks: u32) {
        self.msg.set_limits(crate::Limits {
            max_delta_bytes: max_delta_bytes as usize,
            max_block_bytes: max_block_bytes as usize,
            max_message_bytes: max_message_bytes as usize,
            max_blocks: max_blocks as usize,
        });
    }

    /// The caps, in the order `setLimits` takes them.
    pub fn limits(&self) -> Vec<u32> {
        let l = self.msg.limits();
        [l.max_delta_bytes, l.max_block_bytes, l.max_message_bytes, l.max_blocks]
            .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
            .to_vec()
    }

    /// What the message took in, in bytes (the core's `Msg::taken_bytes`).
    #[wasm_bindgen(js_name = takenBytes)]
    pub fn taken_bytes(&mut self) -> f64 {
        self.msg.taken_bytes() as f64
    }

    /// The message's revision counter (grows on every change).
    pub fn revision(&self) -> f64 {
        self.msg.revision() as f64
    }

    /// The changes since the previous call, as JSON text (see the core's
    /// `SnapshotReader::read`): the header, the block count, and per changed block the
    /// whole block or the tail appended to its streamed string.
    #[wasm_bindgen(js_name = readChanges)]
    /// Throws `MsgError` (`limit_exceeded`) when a string of it would be longer than a JS
    /// string may be, or there is no memory for it; the next call reads the same changes.
    pub fn read_changes(&mut self) -> Result<String, JsValue> {
        (self.reader)
            .read(&self.msg, crate::snapshot::MAX_JS_STRING)
            .map_err(|e| js_error(&e))
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
        MsgHandle::new(self.msg.clone())
    }
}
