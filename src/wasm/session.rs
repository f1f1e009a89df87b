//! `SessionHandle`: the JS-side handle that owns one core `Session` in wasm memory.

use wasm_bindgen::prelude::*;

use super::{js_error, js_session_error};
use crate::event::{DeltaKind, HotDelta};
use crate::snapshot::SnapshotReader;
use crate::{MsgError, Session, SessionOptions};

/// Owns a session in wasm memory; the TS `Session` class wraps it. Bytes go in as they
/// come off the network (no event is parsed in JS); reads hand out only what changed.
#[wasm_bindgen]
pub struct SessionHandle {
    session: Session,
    /// one reader per message, in the session's order
    readers: Vec<SnapshotReader>,
    /// the session revision at the last `readChanges`
    read_at: Option<u64>,
    /// the event `applyDelta` fills in
    hot: HotDelta,
    /// whether the last `applyDelta` / `applyJoined` appended exactly its delta to its
    /// block's string, with no diagnostic (a run of deltas may then join: `deltaRoom`)
    exact: bool,
}

impl SessionHandle {
    fn new(session: Session) -> SessionHandle {
        SessionHandle {
            session,
            readers: Vec::new(),
            read_at: None,
            hot: HotDelta::new(),
            exact: false,
        }
    }
}

#[wasm_bindgen]
impl SessionHandle {
    /// A session with options as JSON text (the core's `SessionOptions`). Throws
    /// `MsgError` (`invalid_argument`) for unknown or mistyped options.
    pub fn create(options_json: &str) -> Result<SessionHandle, JsValue> {
        let options: SessionOptions = serde_json::from_str(options_json)
            .map_err(|e| js_error(&MsgError::InvalidMsg(format!("session options: {e}"))))?;
        Ok(SessionHandle::new(Session::new(options)))
    }

    /// A session from `checkpoint()` text. Throws `MsgError` (`invalid_checkpoint`, …).
    pub fn restore(checkpoint: &str) -> Result<SessionHandle, JsValue> {
        Session::restore(checkpoint)
            .map(SessionHandle::new)
            .map_err(|e| js_error(&e))
    }

    /// Feeds raw bytes; returns the number of events applied. Throws the first refused
    /// event's `MsgError` (with `index`, `eventId`, `sseId`).
    #[wasm_bindgen(js_name = feedBytes)]
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<u32, JsValue> {
        self.session
            .feed(chunk)
            .map(|n| n as u32)
            .map_err(|e| js_session_error(&e))
    }

    /// Frames raw bytes without applying their events (see the core's `Session::push`):
    /// the TS layer hands a large chunk in pieces, then applies with `feedBytes`.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.session.push(chunk).map_err(|e| js_session_error(&e))
    }

    /// Frames text (its UTF-8 bytes) without applying (see `pushBytes`).
    #[wasm_bindgen(js_name = pushText)]
    pub fn push_text(&mut self, chunk: &str) -> Result<(), JsValue> {
        self.push_bytes(chunk.as_bytes())
    }

    /// What the session's messages took in together, in bytes (`Session::taken_bytes`).
    #[wasm_bindgen(js_name = takenBytes)]
    pub fn taken_bytes(&mut self) -> f64 {
        self.session.taken_bytes() as f64
    }

    /// Feeds text (its UTF-8 bytes).
    #[wasm_bindgen(js_name = feedText)]
    pub fn feed_text(&mut self, chunk: &str) -> Result<u32, JsValue> {
        self.feed_bytes(chunk.as_bytes())
    }

    /// Ends the stream (a final frame without its blank line is applied).
    pub fn end(&mut self) -> Result<u32, JsValue> {
        self.session.end().map(|n| n as u32).map_err(|e| js_session_error(&e))
    }

    /// Applies one event (wire JSON text); returns `applied` or the skip code.
    #[wasm_bindgen(js_name = applyJSON)]
    pub fn apply_json(&mut self, json: &str) -> Result<String, JsValue> {
        self.session
            .apply_json(json)
            .map(|outcome| outcome.code().to_owned())
            .map_err(|e| js_session_error(&e))
    }

    /// Applies one of the four text delta events given by its parts (as `MsgHandle.appendDelta`:
    /// `kind` 0–3, `reply_id` / `target_id` `undefined` keep the previous call's); `id` is
    /// the event's own id (`undefined`: none, never deduplicated). Returns `applied` or
    /// the skip code as `applyJSON` does, except `true` for `applied` (no string made per
    /// event), or `undefined` with the option `keep_events` (the event's text is needed:
    /// use `applyJSON`). Throws as `applyJSON`.
    #[wasm_bindgen(js_name = applyDelta)]
    pub fn apply_delta(
        &mut self,
        kind: u8,
        reply_id: Option<String>,
        target_id: Option<String>,
        id: Option<String>,
        delta: &str,
    ) -> Result<JsValue, JsValue> {
        let kind = DeltaKind::from_u8(kind)
            .ok_or_else(|| js_error(&MsgError::InvalidEvent(format!("no delta kind {kind}"))))?;
        self.hot.set_kind(kind);
        if let Some(reply_id) = reply_id {
            self.hot.set_reply_id(&reply_id);
        }
        if let Some(target_id) = target_id {
            self.hot.set_target(&target_id);
        }
        self.hot.set_id(id.as_deref().unwrap_or(""));
        self.apply_hot(delta, None, id.is_some())
    }

    /// Applies `text`, `count` deltas the TS layer joined (each within the per-delta cap,
    /// together within `deltaRoom()`), to the block of the last `applyDelta`, as one event
    /// counted `count` times. Returns as `applyDelta`.
    #[wasm_bindgen(js_name = applyJoined)]
    pub fn apply_joined(&mut self, text: &str, count: u32) -> Result<JsValue, JsValue> {
        self.hot.set_id("");
        self.apply_hot(text, Some(count), false)
    }

    /// The per-delta cap (`max_delta_bytes`, 0: none) and whether the session
    /// deduplicates (`dedup`), for the TS layer's runs of joined deltas (an event with an
    /// `id` of a deduplicating session is never joined: its id must be recorded).
    #[wasm_bindgen(js_name = joinRules)]
    pub fn join_rules(&self) -> Vec<f64> {
        let o = self.session.options();
        vec![o.max_delta_bytes as f64, if o.dedup { 1.0 } else { 0.0 }]
    }

    /// The UTF-8 bytes the block of the last `applyDelta` may take in further deltas with
    /// nothing refusing them and nothing to report (see the core's `Msg::tail_room`), when
    /// that call appended exactly its delta with no diagnostic; else 0.
    #[wasm_bindgen(js_name = deltaRoom)]
    pub fn delta_room(&mut self) -> f64 {
        if !self.exact {
            return 0.0;
        }
        let kind = self.hot.kind().block_kind();
        let (Some(reply_id), target) = (self.hot.event().reply_id(), self.hot.target()) else {
            return 0.0;
        };
        let Some((msg, matching)) = self.session.reply_msg(reply_id) else {
            return 0.0;
        };
        match msg.find_block_at(kind, target, matching.newest(kind)) {
            Some(i) => msg.tail_room(i) as f64,
            None => 0.0,
        }
    }

    fn apply_hot(&mut self, delta: &str, joined: Option<u32>, had_id: bool) -> Result<JsValue, JsValue> {
        self.exact = false;
        let kind = self.hot.kind().block_kind();
        // the block the delta grows, as the reducer finds it, and its string's length
        let (reply_id, target) = (self.hot.event().reply_id().unwrap_or_default(), self.hot.target());
        let mark = (self.session.reply_msg(reply_id))
            .and_then(|(msg, matching)| msg.tail_mark(kind, target, matching.newest(kind)));
        let diagnostics = self.session.diagnostics().len();
        let event = self.hot.with_delta(delta);
        let result = match joined {
            None => self.session.apply_parts(event, had_id),
            Some(count) => self.session.apply_joined(event, count),
        };
        let outcome = match result {
            None => return Ok(JsValue::UNDEFINED),
            Some(Err(e)) => return Err(js_session_error(&e)),
            Some(Ok(outcome)) => outcome,
        };
        if outcome != crate::Outcome::Applied {
            return Ok(outcome.code().into());
        }
        if let Some(mark) = mark
            && self.session.diagnostics().len() == diagnostics
            && let Some(reply_id) = self.hot.event().reply_id()
            && let Some((msg, _)) = self.session.reply_msg(reply_id)
        {
            self.exact = msg.appended_exactly(&mark, delta);
        }
        Ok(JsValue::TRUE)
    }

    /// Adds (or replaces) a message that events with its id as `reply_id` go to (see the
    /// core's `Session::insert`). Throws `MsgError` for text that is not a valid message.
    pub fn insert(&mut self, msg_json: &str) -> Result<(), JsValue> {
        let msg = crate::Msg::from_json(msg_json).map_err(|e| js_error(&e))?;
        let id = msg.id.clone();
        self.session.insert(msg);
        // a replaced message starts its revisions afresh: its reader must read it whole
        if let Some(i) = self.session.messages().position(|m| m.id == id)
            && let Some(reader) = self.readers.get_mut(i)
        {
            *reader = SnapshotReader::new();
        }
        Ok(())
    }

    /// Whether the reply's last `REPLY_START` was followed by its `REPLY_END` (false for
    /// an unknown reply and for a message added with `insert`).
    #[wasm_bindgen(js_name = isEnded)]
    pub fn is_ended(&self, reply_id: &str) -> bool {
        self.session.is_ended(reply_id)
    }

    /// A new connection's bytes follow (see the core's `Session::restart_stream`).
    #[wasm_bindgen(js_name = restartStream)]
    pub fn restart_stream(&mut self) {
        self.session.restart_stream();
    }

    /// A counter that grows whenever a message changes.
    pub fn revision(&self) -> f64 {
        self.session.revision() as f64
    }

    /// The diagnostics from position `from` on, as a JSON array.
    #[wasm_bindgen(js_name = diagnosticsJSON)]
    pub fn diagnostics_json(&self, from: usize) -> String {
        let all = self.session.diagnostics();
        crate::wire::to_string(all.get(from..).unwrap_or_default())
    }

    /// Number of diagnostics held.
    #[wasm_bindgen(js_name = diagnosticCount)]
    pub fn diagnostic_count(&self) -> usize {
        self.session.diagnostics().len()
    }

    /// Drops the diagnostics held (after the TS layer has read them).
    #[wasm_bindgen(js_name = clearDiagnostics)]
    pub fn clear_diagnostics(&mut self) {
        self.session.take_diagnostics();
    }

    /// Takes the events kept (option `keep_events`) since the last call, as one JSON array
    /// text: `[{"index":1,"outcome":"applied","event":<the event's JSON text, as it
    /// came>},…]` (see the core's `Session::take_events`).
    #[wasm_bindgen(js_name = takeEventsJSON)]
    pub fn take_events_json(&mut self) -> String {
        crate::session::events_json(&self.session.take_events())
    }

    /// The checkpoint JSON text.
    pub fn checkpoint(&self) -> String {
        self.session.checkpoint()
    }

    /// The SSE id of the last event handled, or `undefined`.
    #[wasm_bindgen(js_name = lastEventId)]
    pub fn last_event_id(&self) -> Option<String> {
        self.session.last_event_id().map(str::to_owned)
    }

    /// `sse`, `json_lines`, `json_array`, or `undefined` before the first bytes.
    pub fn framing(&self) -> Option<String> {
        let framing = self.session.framing()?;
        serde_json::to_value(framing).ok()?.as_str().map(str::to_owned)
    }

    /// Number of events seen.
    pub fn events(&self) -> f64 {
        self.session.events() as f64
    }

    /// The changes since the previous call, as JSON text: `{"count": <messages>,
    /// "messages": [[i, <message changes>], ...], "unstarted": [[reply_id, kind,
    /// tool_call], ...]}` with a message's changes as the core's `SnapshotReader::read`
    /// writes them (unchanged messages are left out) and every `Session::unstarted_calls`.
    /// Throws `MsgError` (`limit_exceeded`) when a string of it would be longer than a JS
    /// string may be, or there is no memory for it: nothing is read then (the next call
    /// hands out the same changes, and messages read whole again).
    #[wasm_bindgen(js_name = readChanges)]
    pub fn read_changes(&mut self) -> Result<String, JsValue> {
        let count = self.session.len();
        self.readers.resize_with(count, SnapshotReader::new);
        // only the messages changed since the last read are looked at
        let changed = match self.read_at {
            Some(since) => self.session.changed_messages(since),
            None => (0..count).collect(),
        };
        let mut out = Vec::new();
        let mut read = Vec::new();
        match self.write_changes(count, changed, &mut out, &mut read) {
            Ok(()) => {
                self.read_at = Some(self.session.revision());
                String::from_utf8(out).map_err(|_| js_error(&MsgError::LimitExceeded("snapshot text".into())))
            }
            Err(e) => {
                // the messages read before the refusal were never handed out
                for i in read {
                    self.readers[i] = SnapshotReader::new();
                }
                Err(js_error(&e))
            }
        }
    }

    /// The text of `read_changes`; `read` gets the messages whose readers moved on.
    fn write_changes(
        &mut self,
        count: usize,
        changed: Vec<usize>,
        out: &mut Vec<u8>,
        read: &mut Vec<usize>,
    ) -> Result<(), MsgError> {
        let push = crate::snapshot::try_push;
        push(out, format!("{{\"count\":{count},\"messages\":[").as_bytes())?;
        for i in changed {
            let (Some(msg), Some(reader)) = (self.session.message(i), self.readers.get_mut(i)) else {
                continue;
            };
            if !reader.is_stale(msg) {
                continue;
            }
            push(out, if read.is_empty() { b"[" } else { b",[" })?;
            push(out, format!("{i},").as_bytes())?;
            reader.read_into(msg, out, crate::snapshot::MAX_JS_STRING)?;
            read.push(i);
            push(out, b"]")?;
        }
        // the asks about calls never started: few, and sent whole
        push(out, b"],\"unstarted\":[")?;
        for (n, u) in self.session.unstarted_calls().iter().enumerate() {
            if n > 0 {
                push(out, b",")?;
            }
            let block = crate::ContentBlock::ToolCall(u.tool_call.clone());
            push(out, crate::wire::to_string(&(&u.reply_id, u.kind, &block)).as_bytes())?;
        }
        push(out, b"]}")
    }

    /// Message `i` as wire JSON text (`undefined` when out of range).
    #[wasm_bindgen(js_name = messageJSON)]
    pub fn message_json(&self, i: usize) -> Option<String> {
        self.session.message(i).map(|m| m.to_json())
    }
}

/// The JSON text of every AgentScope event in a whole stream (SSE, JSON Lines or a JSON
/// array, detected as a `Session` does; SSE frames named other than `message` left out).
/// Throws `MsgError` (`invalid_stream`, `invalid_json`) for a stream that cannot be framed.
#[wasm_bindgen(js_name = splitEvents)]
pub fn split_events(stream: &[u8]) -> Result<Vec<String>, JsValue> {
    let mut framer = crate::Framer::new();
    framer.feed(stream);
    framer.end();
    let mut events = Vec::new();
    while let Some(frame) = framer.next_frame() {
        let frame = frame.map_err(|e| js_error(&e))?;
        if frame.sse_event.is_none() {
            events.push(frame.data);
        }
    }
    Ok(events)
}
