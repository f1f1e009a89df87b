//! One streamed delta event held for reuse, for the bindings that fold event objects
//! their host already parsed (the wasm `MsgHandle.appendDelta` / `SessionHandle.applyDelta`).
//!
//! Such a host reads `type`, `reply_id`, the block or tool call id and `delta` off its
//! own object and hands over only what changed since its previous event: a delta's text
//! most of the time. The event built here is the one the decoder would build from that
//! object's wire JSON (the four text deltas: `TEXT_BLOCK_DELTA`, `THINKING_BLOCK_DELTA`,
//! `TOOL_CALL_DELTA`, `TOOL_RESULT_TEXT_DELTA`), up to `id` and `created_at`, which the
//! reducer does not read for a delta (REFERENCE.md §4); the event is then folded by the
//! same `Msg::append_event`. The host keeps to the shapes the decoder's fast path takes
//! (see `fast.rs`): strings for every field, no `null`, empty or absent `metadata`, a
//! `delta` without a lone surrogate; anything else goes through the decoder.

#![cfg_attr(not(feature = "wasm"), allow(dead_code))]

use super::{AgentEvent, TextBlockDeltaEvent, ThinkingBlockDeltaEvent, ToolCallDeltaEvent, ToolResultTextDeltaEvent};
use crate::block::BlockKind;
use crate::delta::Delta;
use crate::json::Map;

/// Which of the four text delta events (the number the bindings pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeltaKind {
    /// `TEXT_BLOCK_DELTA` (0).
    Text,
    /// `THINKING_BLOCK_DELTA` (1).
    Thinking,
    /// `TOOL_CALL_DELTA` (2).
    ToolCall,
    /// `TOOL_RESULT_TEXT_DELTA` (3).
    ToolResultText,
}

impl DeltaKind {
    /// The kind numbered `n` (0–3, as listed), `None` for any other number.
    pub(crate) fn from_u8(n: u8) -> Option<DeltaKind> {
        Some(match n {
            0 => DeltaKind::Text,
            1 => DeltaKind::Thinking,
            2 => DeltaKind::ToolCall,
            3 => DeltaKind::ToolResultText,
            _ => return None,
        })
    }

    /// The kind of block this delta grows.
    pub(crate) fn block_kind(self) -> BlockKind {
        match self {
            DeltaKind::Text => BlockKind::Text,
            DeltaKind::Thinking => BlockKind::Thinking,
            DeltaKind::ToolCall => BlockKind::ToolCall,
            DeltaKind::ToolResultText => BlockKind::ToolResult,
        }
    }
}

/// A delta event whose fields are replaced one by one (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct HotDelta {
    event: AgentEvent,
}

impl Default for HotDelta {
    fn default() -> HotDelta {
        HotDelta::new()
    }
}

impl HotDelta {
    /// A `TEXT_BLOCK_DELTA` with empty strings.
    pub(crate) fn new() -> HotDelta {
        HotDelta {
            event: Self::empty(DeltaKind::Text),
        }
    }

    fn empty(kind: DeltaKind) -> AgentEvent {
        let (id, created_at, metadata, reply_id, delta) = (
            String::new(),
            String::new(),
            Map::new(),
            String::new(),
            Delta::default(),
        );
        match kind {
            DeltaKind::Text => AgentEvent::TextBlockDelta(TextBlockDeltaEvent {
                id,
                created_at,
                metadata,
                reply_id,
                block_id: String::new(),
                delta,
            }),
            DeltaKind::Thinking => AgentEvent::ThinkingBlockDelta(ThinkingBlockDeltaEvent {
                id,
                created_at,
                metadata,
                reply_id,
                block_id: String::new(),
                delta,
            }),
            DeltaKind::ToolCall => AgentEvent::ToolCallDelta(ToolCallDeltaEvent {
                id,
                created_at,
                metadata,
                reply_id,
                tool_call_id: String::new(),
                delta,
            }),
            DeltaKind::ToolResultText => AgentEvent::ToolResultTextDelta(ToolResultTextDeltaEvent {
                id,
                created_at,
                metadata,
                reply_id,
                tool_call_id: String::new(),
                delta,
            }),
        }
    }

    /// The kind held now.
    pub(crate) fn kind(&self) -> DeltaKind {
        match &self.event {
            AgentEvent::ThinkingBlockDelta(_) => DeltaKind::Thinking,
            AgentEvent::ToolCallDelta(_) => DeltaKind::ToolCall,
            AgentEvent::ToolResultTextDelta(_) => DeltaKind::ToolResultText,
            _ => DeltaKind::Text,
        }
    }

    /// The parts of the event: `(id, reply_id, target id, delta)` (always `Some`: only
    /// the four kinds are ever held).
    fn parts(&mut self) -> Option<Parts<'_>> {
        Some(match &mut self.event {
            AgentEvent::TextBlockDelta(e) => (&mut e.id, &mut e.reply_id, &mut e.block_id, &mut e.delta),
            AgentEvent::ThinkingBlockDelta(e) => (&mut e.id, &mut e.reply_id, &mut e.block_id, &mut e.delta),
            AgentEvent::ToolCallDelta(e) => (&mut e.id, &mut e.reply_id, &mut e.tool_call_id, &mut e.delta),
            AgentEvent::ToolResultTextDelta(e) => (&mut e.id, &mut e.reply_id, &mut e.tool_call_id, &mut e.delta),
            _ => return None,
        })
    }

    /// Sets the kind (the reply and target ids are kept across a change of kind).
    pub(crate) fn set_kind(&mut self, kind: DeltaKind) {
        if kind == self.kind() {
            return;
        }
        let mut next = HotDelta {
            event: Self::empty(kind),
        };
        if let (Some((id, reply, target, _)), Some((nid, nreply, ntarget, _))) = (self.parts(), next.parts()) {
            std::mem::swap(id, nid);
            std::mem::swap(reply, nreply);
            std::mem::swap(target, ntarget);
        }
        *self = next;
    }

    /// The event held now (with the last delta given).
    pub(crate) fn event(&self) -> &AgentEvent {
        &self.event
    }

    /// The block id (`block_id`, or `tool_call_id`).
    pub(crate) fn target(&self) -> &str {
        match &self.event {
            AgentEvent::TextBlockDelta(e) => &e.block_id,
            AgentEvent::ThinkingBlockDelta(e) => &e.block_id,
            AgentEvent::ToolCallDelta(e) => &e.tool_call_id,
            AgentEvent::ToolResultTextDelta(e) => &e.tool_call_id,
            _ => "",
        }
    }

    /// Sets the `reply_id`.
    pub(crate) fn set_reply_id(&mut self, reply_id: &str) {
        if let Some((_, reply, _, _)) = self.parts() {
            reply.clear();
            reply.push_str(reply_id);
        }
    }

    /// Sets the block id (`block_id`, or `tool_call_id` for a tool call or result).
    pub(crate) fn set_target(&mut self, target: &str) {
        if let Some((_, _, t, _)) = self.parts() {
            t.clear();
            t.push_str(target);
        }
    }

    /// Sets the event `id` (only a `Session` reads it: deduplication, errors).
    pub(crate) fn set_id(&mut self, event_id: &str) {
        if let Some((id, _, _, _)) = self.parts() {
            id.clear();
            id.push_str(event_id);
        }
    }

    /// The event with `delta` as its text.
    pub(crate) fn with_delta(&mut self, delta: &str) -> &AgentEvent {
        if let Some((_, _, _, d)) = self.parts() {
            d.set(delta);
        }
        &self.event
    }
}

/// `(id, reply_id, target id, delta)` of a held event.
type Parts<'a> = (&'a mut String, &'a mut String, &'a mut String, &'a mut Delta);
