//! What applying one event did: [`Outcome`], and the reasons an event is skipped
//! ([`Skip`]), each with a stable code.

use serde::Serialize;

/// What [`crate::Msg::append_event`] or a [`crate::Session`] did with one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The event changed the message (or, in a session, opened or continued a reply).
    Applied,
    /// The event changed nothing, and why.
    Skipped(Skip),
}

impl Outcome {
    /// Whether the event changed something.
    pub fn is_applied(self) -> bool {
        self == Outcome::Applied
    }

    /// `applied`, or the skip's [`Skip::code`].
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Applied => "applied",
            Outcome::Skipped(skip) => skip.code(),
        }
    }
}

/// Why an event was skipped or is suspicious, with a stable [`Skip::code`].
///
/// The reference (agentscope 2.0.11) skips the first four silently (it logs a warning for
/// `foreign_reply` and `unknown_block`); the others come from a [`crate::Session`], which
/// reports `unknown_block` and the session-level ones as [`crate::Diagnostic`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// The event's `reply_id` is not the message's `id`.
    ForeignReply,
    /// A type the reducer ignores by design: `REPLY_START` (on a message), `MODEL_CALL_START`,
    /// `EXCEED_MAX_ITERS`, `USER_INTERRUPT`, `CUSTOM`.
    IgnoredType,
    /// A delta, end or state change for a block (or tool call) that was never started.
    UnknownBlock,
    /// A `USER_CONFIRM_RESULT` for tool calls that are not waiting for a confirmation, or an
    /// `EXTERNAL_EXECUTION_RESULT` whose results are all there already (the usual case:
    /// the service streams the result before it sends this event). Not a diagnostic.
    Stale,
    /// Deduplication: an event whose `id` was already applied.
    Duplicate,
    /// An event of a reply the session never saw a `REPLY_START` for.
    UnknownReply,
    /// An SSE frame whose `event:` name is not `message` (e.g. `ping`, `end`): not an
    /// AgentScope event.
    NamedSseEvent,
    /// An event `type` this version does not know (a newer server's additive event).
    UnknownEventType,
    /// Not a skip but a warning: an event for a reply after its `REPLY_END` (applied, as
    /// the reference does, unless the session is strict).
    AfterEnd,
    /// Not a skip but a warning: a second start of a block id that already exists (the
    /// reference appends a second block; later deltas go to the first).
    DuplicateBlock,
    /// Not a skip but a warning: a delta for a block after its end (`TEXT_BLOCK_END`,
    /// `TOOL_CALL_END`, …; applied, as the reference does, unless the session is strict):
    /// e.g. a `TOOL_CALL_DELTA "}"` after `TOOL_CALL_END` (pydantic-ai#4733).
    AfterBlockEnd,
    /// Not a skip but a note: a `REPLY_END` whose reply left blocks without their end
    /// (a failed run, a lost model stream); they stay as they are, as in the reference.
    /// Never refused.
    UnclosedBlocks,
    /// Not a skip but a warning: a `REQUIRE_USER_CONFIRM` for a tool call the user already
    /// allowed (applied, as the reference does: the call asks again; unless strict).
    AskedAgain,
    /// A frame that is not JSON (`invalid_json`), skipped instead of refused only with
    /// [`crate::SessionOptions::skip_invalid`].
    InvalidJson,
    /// A frame that is JSON but not an AgentScope event (`invalid_event`), skipped
    /// instead of refused only with [`crate::SessionOptions::skip_invalid`].
    InvalidEvent,
    /// A `CUSTOM` event (an application's own event, e.g. the AgentScope service's
    /// `state_updated`): it changes no message (the reducer's `ignored_type`), and a
    /// [`crate::Session`] reports it, with its `name` and `value`, as a `custom`
    /// [`crate::Diagnostic`] and an [`crate::UpdateKind::Custom`]. Never refused.
    Custom,
}

impl Skip {
    /// The stable code: `foreign_reply`, `ignored_type`, `unknown_block`, `stale`,
    /// `duplicate`, `unknown_reply`, `named_sse_event`, `unknown_event_type`, `after_end`,
    /// `duplicate_block`, `after_block_end`, `unclosed_blocks`, `asked_again`,
    /// `invalid_json`, `invalid_event`, `custom`.
    pub fn code(self) -> &'static str {
        match self {
            Skip::ForeignReply => "foreign_reply",
            Skip::IgnoredType => "ignored_type",
            Skip::UnknownBlock => "unknown_block",
            Skip::Stale => "stale",
            Skip::Duplicate => "duplicate",
            Skip::UnknownReply => "unknown_reply",
            Skip::NamedSseEvent => "named_sse_event",
            Skip::UnknownEventType => "unknown_event_type",
            Skip::AfterEnd => "after_end",
            Skip::DuplicateBlock => "duplicate_block",
            Skip::AfterBlockEnd => "after_block_end",
            Skip::UnclosedBlocks => "unclosed_blocks",
            Skip::AskedAgain => "asked_again",
            Skip::InvalidJson => "invalid_json",
            Skip::InvalidEvent => "invalid_event",
            Skip::Custom => "custom",
        }
    }
}
