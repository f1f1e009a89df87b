//! `MsgHandle`: the JS-side handle that owns one `Msg` in wasm memory.

use wasm_bindgen::prelude::*;

use super::js_error;
use crate::event::{DeltaKind, HotDelta};
use crate::snapshot::{SnapshotReader, TailAt};
use crate::{AgentEvent, Msg, MsgContent, MsgOptions, assistant_msg, parse_content, system_msg, user_msg};

/// Owns one message in wasm memory; the TS `Msg` class wraps it. Events go in as wire
/// JSON text and are applied in place, so streaming never copies the message across the
/// boundary; reads hand out wire JSON per block, with revision counters so that the TS
/// layer re-reads only the blocks that changed.
#[wasm_bindgen]
pub struct MsgHandle {
    msg: Msg,
    reader: SnapshotReader,
    hot: HotDelta,
}

impl MsgHandle {
    fn new(msg: Msg) -> MsgHandle {
        MsgHandle {
            msg,
            reader: SnapshotReader::new(),
            hot: HotDelta::new(),
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

    /// Applies one of the four text delta events given by its parts, as `appendEvent` would
    /// apply its wire JSON: `kind` 0 `TEXT_BLOCK_DELTA`, 1 `THINKING_BLOCK_DELTA`, 2
    /// `TOOL_CALL_DELTA`, 3 `TOOL_RESULT_TEXT_DELTA`; `reply_id` and `target_id` (the
    /// `block_id` or `tool_call_id`) `undefined` keep the previous call's (see the core's
    /// `HotDelta`: only the delta crosses per event). The TS layer calls it only for an
    /// event of the decoder's fast-path shape. Returns -1 when the message did not change
    /// (skipped), -2 when it changed otherwise than below, and `4 * i + at` when the change
    /// is exactly `delta` appended to block `i`'s streamed string (`at`: 0 `text`, 1
    /// `thinking`, 2 `input`, 3 the last output's `text`); with `mark_read` that change is
    /// then also marked read when it is all `readChanges` would hand out (else -2).
    /// Throws `MsgError` as `appendEvent`; the message is then unchanged.
    #[wasm_bindgen(js_name = appendDelta)]
    pub fn append_delta(
        &mut self,
        kind: u8,
        reply_id: Option<String>,
        target_id: Option<String>,
        delta: &str,
        mark_read: bool,
    ) -> Result<i32, JsValue> {
        let kind = DeltaKind::from_u8(kind)
            .ok_or_else(|| js_error(&crate::MsgError::InvalidEvent(format!("no delta kind {kind}"))))?;
        self.hot.set_kind(kind);
        if let Some(reply_id) = reply_id {
            self.hot.set_reply_id(&reply_id);
        }
        if let Some(target_id) = target_id {
            self.hot.set_target(&target_id);
        }
        self.append_hot(delta, mark_read)
    }

    /// Appends `text`, deltas the TS layer joined (each already within the per-delta cap,
    /// together within `deltaRoom()`), as one more delta to the block of the last
    /// `appendDelta`; returns as `appendDelta`. The per-delta cap is not applied to the
    /// joined text.
    #[wasm_bindgen(js_name = appendJoined)]
    pub fn append_joined(&mut self, text: &str, mark_read: bool) -> Result<i32, JsValue> {
        let limits = self.msg.limits();
        self.msg.set_limits(crate::Limits {
            max_delta_bytes: 0,
            ..limits
        });
        let result = self.append_hot(text, mark_read);
        self.msg.set_limits(limits);
        result
    }

    /// The UTF-8 bytes the block of the last `appendDelta` may take in further deltas
    /// with nothing refusing them (the core's `Msg::tail_room`), when that call returned
    /// a block (else 0).
    #[wasm_bindgen(js_name = deltaRoom)]
    pub fn delta_room(&mut self) -> f64 {
        let kind = self.hot.kind().block_kind();
        match self.msg.find_block_at(kind, self.hot.target(), false) {
            Some(i) => self.msg.tail_room(i) as f64,
            None => 0.0,
        }
    }

    fn append_hot(&mut self, delta: &str, mark_read: bool) -> Result<i32, JsValue> {
        let revision = self.msg.revision();
        let kind = self.hot.kind().block_kind();
        let mark = self.msg.tail_mark(kind, self.hot.target(), false);
        self.msg
            .append_event(self.hot.with_delta(delta))
            .map_err(|e| js_error(&e))?;
        if self.msg.revision() == revision {
            return Ok(-1);
        }
        let Some(mark) = mark.filter(|mark| self.msg.appended_exactly(mark, delta)) else {
            return Ok(-2);
        };
        if mark_read && self.reader.read_tail(&self.msg, delta).is_none() {
            return Ok(-2);
        }
        let at = match mark.at {
            TailAt::Text => 0,
            TailAt::Thinking => 1,
            TailAt::Input => 2,
            TailAt::Output(_) => 3,
        };
        Ok(i32::try_from(mark.block)
            .ok()
            .and_then(|i| i.checked_mul(4))
            .map_or(-2, |i| i + at))
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
