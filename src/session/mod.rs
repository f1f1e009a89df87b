//! [`Session`]: one whole AgentScope event stream, from raw bytes to reply messages.
//!
//! bytes → framing ([`framing`]) → decode ([`crate::AgentEvent`]) → route by `reply_id`
//! → reduce ([`crate::Msg::append_event`]) → messages. The CLI, the wasm package and the
//! demo page all go through it.

pub mod framing;
mod kept;
mod update;

use std::borrow::Cow;
use std::collections::HashMap;

use indexmap::IndexSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::block::{BlockKind, ContentBlock, ToolCallBlock, ToolCallState};
use crate::error::MsgError;
use crate::event::{AgentEvent, Decoded, EventType, decode};
use crate::factory::Factories;
use crate::limits::Limits;
use crate::matching::{BlockMatch, Matching, ToolCallMatch};
use crate::msg::{Msg, MsgOptions, assistant_msg};
use crate::object::{Object, without_position};
use crate::outcome::{Outcome, Skip};
use crate::recency::Recency;
use framing::{Frame, Framer, Framing};
pub use kept::KeptEvent;
#[cfg(feature = "wasm")]
pub(crate) use kept::events_json;
use update::Note;
pub use update::{Update, UpdateKind};

/// How a [`Session`] treats what the reference would skip or repeat, and its one cap.
/// Every option is off by default, which reproduces the reference (agentscope 2.0.11)
/// exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SessionOptions {
    /// Refuse, with a typed error naming the event, what the lenient session skips or only
    /// warns about: a delta or end for a block never started (`unknown_block`), a second
    /// start of a block id (`duplicate_block`), an event after its reply's `REPLY_END`
    /// (`after_end`), a delta for a block after its end (`after_block_end`), a confirmation
    /// asked again for a call already allowed (`asked_again`), an event of a
    /// reply never opened (`unknown_reply`), an unknown event type (`unknown_event_type`), an event of a reply whose `REPLY_START` had an empty
    /// `reply_id` (`foreign_reply`). The session is unchanged by a refused event.
    pub strict: bool,
    /// Skip an event whose `id` was already applied (a resumed stream, a proxy retry),
    /// with a `duplicate` diagnostic. Events without an `id` on the wire are never
    /// deduplicated.
    pub dedup: bool,
    /// Skip, with an `invalid_json` or `invalid_event` diagnostic (the error's text as its
    /// message), a frame that is not JSON or not an AgentScope event, instead of refusing
    /// it: one bad frame then stops no route ([`Session::feed`], [`Session::end`],
    /// [`Session::apply_json`], [`Session::feed_updates`]). Strict sessions too. Off by
    /// default (the reference raises on such an event); a checkpoint names it only when on.
    #[serde(skip_serializing_if = "is_false")]
    pub skip_invalid: bool,
    /// Keep every event that decoded, with what became of it, for
    /// [`Session::take_events`] (a caller that hands each event on, e.g. a chat's
    /// `onEvent`). The caller must take them: they accumulate until taken. Off by
    /// default; a checkpoint names it only when on (the kept events are not in it).
    #[serde(skip_serializing_if = "is_false")]
    pub keep_events: bool,
    /// Which tool call (or result) a repeated tool-call id names: the first (the
    /// reference) or the newest.
    pub tool_call_match: ToolCallMatch,
    /// Which text, thinking or data block a repeated block id names: the first (the
    /// reference) or the newest. With newest, a start of an id whose newest block has
    /// ended opens the next block of that id without a diagnostic (a start while that
    /// block is still open is a `duplicate_block`, and opens a block too).
    pub block_match: BlockMatch,
    /// The longest frame (an SSE event's data, a JSON Lines line, a JSON array element), in
    /// bytes; default [`DEFAULT_MAX_FRAME_BYTES`] (64 MiB); 0 is no cap. A longer one is a
    /// `limit_exceeded` error and is dropped without being held whole in memory; SSE and
    /// JSON Lines streams go on after it, a JSON array stops.
    pub max_frame_bytes: usize,
    /// [`Limits::max_delta_bytes`] of every message of the session (default 64 MiB; 0 is
    /// no cap).
    pub max_delta_bytes: usize,
    /// [`Limits::max_block_bytes`] of every message (default 256 MiB; 0 is no cap).
    pub max_block_bytes: usize,
    /// [`Limits::max_message_bytes`] of every message (default 512 MiB; 0 is no cap).
    pub max_message_bytes: usize,
    /// [`Limits::max_blocks`] of every message (default 100,000; 0 is no cap).
    pub max_blocks: usize,
    /// What all the session's messages take in together ([`Msg::taken_bytes`] summed),
    /// default [`DEFAULT_MAX_SESSION_BYTES`] (1 GiB; 0 is no cap): with the defaults, one
    /// session stays well inside the 4 GiB of a wasm32 memory, its snapshots included.
    pub max_session_bytes: usize,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// How much of a chunk [`Session::feed`] frames before it applies what that completed.
pub(crate) const FEED_PIECE: usize = 64 << 10;

/// The default [`SessionOptions::max_session_bytes`]: 1 GiB.
pub const DEFAULT_MAX_SESSION_BYTES: usize = 1 << 30;

impl SessionOptions {
    /// How events are matched to their blocks.
    pub(crate) fn matching(&self) -> Matching {
        Matching {
            tool_calls: self.tool_call_match,
            blocks: self.block_match,
        }
    }

    /// The caps of each message of the session.
    pub fn limits(&self) -> Limits {
        Limits {
            max_delta_bytes: self.max_delta_bytes,
            max_block_bytes: self.max_block_bytes,
            max_message_bytes: self.max_message_bytes,
            max_blocks: self.max_blocks,
        }
    }
}

/// The default [`SessionOptions::max_frame_bytes`]: 64 MiB (a 48 MB base64 image in one
/// event fits).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 64 << 20;

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            strict: false,
            dedup: false,
            skip_invalid: false,
            keep_events: false,
            tool_call_match: ToolCallMatch::First,
            block_match: BlockMatch::First,
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            max_delta_bytes: crate::limits::DEFAULT_MAX_DELTA_BYTES,
            max_block_bytes: crate::limits::DEFAULT_MAX_BLOCK_BYTES,
            max_message_bytes: crate::limits::DEFAULT_MAX_MESSAGE_BYTES,
            max_blocks: crate::limits::DEFAULT_MAX_BLOCKS,
            max_session_bytes: DEFAULT_MAX_SESSION_BYTES,
        }
    }
}

/// A skipped or suspicious event, or a `CUSTOM` event, as a caller can read it after the
/// fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// 1-based position of the event in the session (every framed event counts, skipped
    /// ones too).
    pub index: usize,
    /// The stable code ([`Skip::code`]): `unknown_block`, `unknown_reply`, `duplicate`,
    /// `after_end`, `duplicate_block`, `after_block_end`, `unclosed_blocks` (a note on a
    /// `REPLY_END` that left blocks open), `asked_again`, `named_sse_event`, `unknown_event_type`,
    /// `foreign_reply` (the events of a reply whose `REPLY_START` had an empty `reply_id`),
    /// `invalid_json` and `invalid_event` (with [`SessionOptions::skip_invalid`]), `custom`
    /// (a `CUSTOM` event, with its [`Diagnostic::name`] and [`Diagnostic::value`]).
    pub code: &'static str,
    /// What happened, for people.
    pub message: String,
    /// The event's `type`, when it could be read.
    pub event_type: Option<String>,
    /// The event's `id`, when it was on the wire.
    pub event_id: Option<String>,
    /// The event's `reply_id`, when it has one.
    pub reply_id: Option<String>,
    /// The SSE `id:` of the frame, when it came from SSE.
    pub sse_id: Option<String>,
    /// A `CUSTOM` event's `name` (code `custom` only; left out of the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A `CUSTOM` event's `value`, an object (code `custom` only; left out of the JSON
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<crate::json::Value>,
}

/// A tool call a `REQUIRE_USER_CONFIRM` or `REQUIRE_EXTERNAL_EXECUTION` asks about that
/// its reply never started (ag-ui#1168): the reducer skips the ask (`unknown_block`, as
/// the reference does), but the service waits for the answer all the same, so a UI must
/// still show it. Kept until a `USER_CONFIRM_RESULT` (for `confirm`) or an
/// `EXTERNAL_EXECUTION_RESULT` (for `external`) names the call; not kept by a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnstartedCall {
    /// The reply that asked.
    pub reply_id: String,
    /// `confirm` (approve or deny) or `external` (an external executor's result).
    pub kind: &'static str,
    /// The call as the ask gave it (state `asking` or `submitted`).
    pub tool_call: ToolCallBlock,
}

/// An event a [`Session`] refused: its position and ids, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("at event {index}{}: {error}", event_id.as_ref().map(|id| format!(" (id {id})")).unwrap_or_default())]
pub struct SessionError {
    /// 1-based position of the event in the session.
    pub index: usize,
    /// The event's `id`, when it was on the wire.
    pub event_id: Option<String>,
    /// The SSE `id:` of the frame, when it came from SSE.
    pub sse_id: Option<String>,
    /// Why.
    pub error: MsgError,
}

impl SessionError {
    /// The stable code of the error ([`MsgError::code`]).
    pub fn code(&self) -> &'static str {
        self.error.code()
    }
}

/// One reply of the session.
#[derive(Debug, Clone)]
struct Reply {
    msg: Msg,
    ended: bool,
}

/// The ids and position of the event being applied (its id borrowed from the event: it
/// is copied only into an error, a diagnostic or the dedup set).
#[derive(Debug, Default, Clone)]
struct Meta<'a> {
    index: usize,
    event_id: Option<Cow<'a, str>>,
    sse_id: Option<String>,
}

/// Owns a whole event stream: frames raw bytes, decodes events, opens a message per reply
/// and routes each event to it by `reply_id`, and records what it skipped.
///
/// Routing follows the AgentScope chat service: a `REPLY_START` whose `reply_id` has no
/// message opens `AssistantMsg(id=reply_id, name=name, content=[])`; a later
/// `REPLY_START` with the same `reply_id` (after a confirmation or an external execution)
/// continues that message. Every other event goes to the message of its `reply_id`.
///
/// Errors stop at the first refused event and leave the session as it was before it;
/// frames already received after it stay queued and are processed by the next
/// [`Session::feed`] (an empty chunk will do) or [`Session::end`].
///
/// ```
/// use agentscope_message::{Session, SessionOptions};
///
/// let mut session = Session::new(SessionOptions::default());
/// for chunk in [
///     &b"data: {\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\nda"[..],
///     b"ta: {\"type\":\"TEXT_BLOCK_START\",\"reply_id\":\"r1\",\"block_id\":\"b1\"}\n\nevent: ping\ndata: 1\n\n",
/// ] {
///     session.feed(chunk)?; // Err: the first refused event, with its index and ids
/// }
/// session.end()?; // a last frame without its blank line is applied here
/// assert_eq!(session.get("r1").map(|m| m.content().len()), Some(1));
/// assert_eq!(session.diagnostics()[0].code, "named_sse_event");
/// # Ok::<(), agentscope_message::SessionError>(())
/// ```
#[derive(Debug)]
pub struct Session {
    options: SessionOptions,
    framer: Framer,
    replies: Vec<Reply>,
    by_reply: HashMap<String, usize>,
    /// the reply of the last routed event (see `reply_index`)
    last_reply: Option<usize>,
    /// in the order applied (a checkpoint lists them so)
    applied: IndexSet<String>,
    diagnostics: Vec<Diagnostic>,
    /// every event that decoded, with `keep_events` (see `take_events`)
    kept: Vec<KeptEvent>,
    events: usize,
    last_event_id: Option<String>,
    revision: u64,
    /// the only reply events are routed to (see `focus`)
    focus: Option<String>,
    /// what the messages took in together (`Msg::taken_bytes`), once counted
    taken: Option<usize>,
    /// the messages in the order they last changed (see `changed_messages`)
    recent: Recency,
    /// asks about calls never started (see `unstarted_calls`), and what they hold in
    /// bytes (their tool calls' wire JSON, counted in `taken_bytes`)
    unstarted: Vec<UnstartedCall>,
    unstarted_bytes: usize,
    /// the session's own id and timestamp factories (see `set_factories`)
    factories: Option<Factories>,
}

impl Default for Session {
    /// A session with the default options (those of the reference, and the default frame cap).
    fn default() -> Session {
        Session::new(SessionOptions::default())
    }
}

impl Session {
    /// An empty session.
    pub fn new(options: SessionOptions) -> Session {
        Session {
            options,
            framer: Framer::with_max_frame(options.max_frame_bytes),
            replies: Vec::new(),
            by_reply: HashMap::new(),
            last_reply: None,
            applied: IndexSet::new(),
            diagnostics: Vec::new(),
            kept: Vec::new(),
            events: 0,
            last_event_id: None,
            revision: 0,
            focus: None,
            taken: None,
            recent: Recency::default(),
            unstarted: Vec::new(),
            unstarted_bytes: 0,
            factories: None,
        }
    }

    /// Gives the session its own id and timestamp factories: every id and timestamp the
    /// events it applies fill in (an event's absent `id` or `created_at`, a block the
    /// reducer opens, a reply's `finished_at`) comes from them, on whatever thread the
    /// session runs, instead of from the process-wide ones ([`crate::set_id_factory`],
    /// [`crate::set_timestamp_factory`]; a `None` factory falls back to those). So
    /// deterministic sessions run side by side, in parallel tests too. Not part of a
    /// checkpoint: set them again on a restored session.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use agentscope_message::factory::Factories;
    /// use agentscope_message::{Session, SessionOptions};
    ///
    /// let next = Arc::new(AtomicUsize::new(0));
    /// let mut session = Session::new(SessionOptions::default());
    /// session.set_factories(Factories {
    ///     id: Some(Arc::new(move || format!("id-{}", next.fetch_add(1, Ordering::Relaxed)))),
    ///     timestamp: Some(Arc::new(|| "2026-01-01T00:00:00.000000Z".to_owned())),
    /// });
    /// session.feed(br#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}
    /// {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}
    /// "#)?;
    /// let msg = session.get("r").expect("the reply");
    /// assert_eq!(msg.created_at, "2026-01-01T00:00:00.000000Z");
    /// # Ok::<(), agentscope_message::SessionError>(())
    /// ```
    pub fn set_factories(&mut self, factories: Factories) {
        self.factories = Some(factories);
    }

    /// Runs `f` with the session's own factories in place, if it has them.
    fn scoped<R>(&mut self, f: impl FnOnce(&mut Session) -> R) -> R {
        match self.factories.clone() {
            None => f(self),
            Some(factories) => crate::factory::with_factories(&factories, || f(self)),
        }
    }

    /// The options the session was made with.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Adds a message that events with its `id` as `reply_id` go to (e.g. a stored reply
    /// a resumed stream continues). A message with the same id is replaced; its revisions
    /// start afresh, so a [`SnapshotReader`](crate::snapshot::SnapshotReader) of the
    /// replaced message must be made anew (the wasm binding does so).
    pub fn insert(&mut self, mut msg: Msg) {
        self.revision += 1;
        let existing = self.by_reply.get(&msg.id).copied();
        self.recent.touch(existing.unwrap_or(self.replies.len()), self.revision);
        msg.set_limits(self.options.limits());
        if let Some(taken) = self.taken {
            let replaced = existing.map_or(0, |i| self.replies[i].msg.taken_bytes());
            self.taken = Some(taken.saturating_sub(replaced).saturating_add(msg.taken_bytes()));
        }
        match existing {
            Some(i) => self.replies[i] = Reply { msg, ended: false },
            None => {
                self.by_reply.insert(msg.id.clone(), self.replies.len());
                self.replies.push(Reply { msg, ended: false });
            }
        }
    }

    /// Follows one reply only, as the reference's `Msg.append_event` on one message does
    /// (the CLI's `replay --initial` without `--all`): events of other replies are skipped
    /// with a `foreign_reply` diagnostic (refused when strict) instead of opening their
    /// messages. Not part of a checkpoint.
    pub fn focus(&mut self, reply_id: &str) {
        self.focus = Some(reply_id.to_owned());
    }

    /// Feeds raw bytes of the stream, split anywhere, and applies every event they
    /// complete. Returns how many events were applied.
    ///
    /// Errors: the first event refused (`invalid_json`, `invalid_event`, `invalid_stream`,
    /// a reducer error, or in strict mode a [`Skip`] code), with its position and ids;
    /// `invalid_stream` for bytes fed after [`Session::end`].
    pub fn feed(&mut self, chunk: &[u8]) -> Result<usize, SessionError> {
        self.refuse_after_end(chunk)?;
        if chunk.is_empty() {
            return self.scoped(Session::drain);
        }
        // a large chunk is framed and applied a piece at a time, so that its frames never
        // wait all at once (a 22 MB body in one chunk: 3x the time without); the result is
        // the same, and on an error the rest is framed and waits, as for one piece
        let mut applied = 0;
        let mut pieces = chunk.chunks(FEED_PIECE);
        while let Some(piece) = pieces.next() {
            self.framer.feed(piece);
            match self.scoped(Session::drain) {
                Ok(n) => applied += n,
                Err(e) => {
                    pieces.for_each(|rest| self.framer.feed(rest));
                    return Err(e);
                }
            }
        }
        Ok(applied)
    }

    /// Frames a chunk without applying its events: they wait for the next
    /// [`Session::feed`] (an empty chunk will do) or [`Session::end`], which applies them
    /// in order. A caller with one large chunk hands it in pieces this way (the wasm
    /// binding does, so a 200 MiB string is never copied in whole), keeping `feed`'s
    /// result and error for the whole chunk. Errors: `invalid_stream` after the end.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), SessionError> {
        self.refuse_after_end(chunk)?;
        self.framer.feed(chunk);
        Ok(())
    }

    /// `invalid_stream` for bytes after the end.
    pub(crate) fn refuse_after_end(&self, chunk: &[u8]) -> Result<(), SessionError> {
        if self.framer.is_ended() && !chunk.is_empty() {
            let error = MsgError::InvalidStream(
                "the stream has ended; a new stream starts with restart_stream() (restartStream() in JS)".into(),
            );
            return Err(self.error(Meta::default(), error));
        }
        Ok(())
    }

    /// Ends the stream: a final frame without its blank line (or line end) is applied;
    /// an unclosed JSON array is an `invalid_stream` error.
    pub fn end(&mut self) -> Result<usize, SessionError> {
        self.framer.end();
        self.scoped(Session::drain)
    }

    /// Starts a new stream on the same session (a reconnect): drops what the previous
    /// connection left of an unfinished frame and detects the framing again from the next
    /// bytes. Messages, ended replies, applied event ids and the last SSE id are kept.
    /// Frames already complete but not yet applied (after a refused event) are dropped too.
    pub fn restart_stream(&mut self) {
        self.framer =
            Framer::with_max_frame(self.options.max_frame_bytes).with_last_event_id(self.last_event_id.as_deref());
    }

    /// The framing detected from the first bytes, once known.
    pub fn framing(&self) -> Option<Framing> {
        self.framer.framing()
    }

    fn drain(&mut self) -> Result<usize, SessionError> {
        let mut applied = 0;
        while let Some(frame) = self.framer.next_frame() {
            self.events = self.events.saturating_add(1); // (a checkpoint may say anything)
            let outcome = match frame {
                Ok(frame) => self.apply_frame(frame, None),
                Err(error) => self.framing_error(error, None),
            };
            match outcome {
                Ok(outcome) => applied += usize::from(outcome.is_applied()),
                Err(e) => return Err(e),
            }
        }
        self.note_framer_id();
        Ok(applied)
    }

    /// Every frame handled: the last event id is the SSE parser's, as WHATWG keeps it (an
    /// empty `id:` resets it, an `id:` in a block without data sets it).
    fn note_framer_id(&mut self) {
        if let Some(id) = self.framer.sse_last_event_id() {
            self.last_event_id = (!id.is_empty()).then(|| id.to_owned());
        }
    }

    fn error(&self, meta: Meta, error: MsgError) -> SessionError {
        SessionError {
            index: if meta.index == 0 { self.events } else { meta.index },
            event_id: meta.event_id.map(Cow::into_owned),
            sse_id: meta.sse_id,
            error,
        }
    }

    /// Applies a frame; `note`, on the updates route, learns the event's ids and type.
    fn apply_frame(&mut self, frame: Frame, note: Option<&mut Note>) -> Result<Outcome, SessionError> {
        let meta = Meta {
            index: self.events,
            event_id: None,
            sse_id: frame.sse_id,
        };
        if let Some(name) = frame.sse_event {
            let message = format!("an SSE frame named {name:?} is not an AgentScope event");
            self.diagnose(&meta, Skip::NamedSseEvent, message, None, None);
            self.note_sse_id(&meta);
            return Ok(Outcome::Skipped(Skip::NamedSseEvent));
        }
        match decode(&frame.data) {
            Ok(decoded) => {
                let (index, event) = (meta.index, matches!(decoded, Decoded::Event { .. }));
                let result = self.apply_decoded(decoded, meta, note);
                if event {
                    self.keep(index, &result, || frame.data);
                }
                result
            }
            Err(e) => self.undecodable(&frame.data, meta, e, note),
        }
    }

    /// What the framer refused (`invalid_stream`, `limit_exceeded`, `invalid_json` for a
    /// JSON Lines line or array element that is not UTF-8): as a frame that did not
    /// decode, with no text to read ids from.
    fn framing_error(&mut self, error: MsgError, note: Option<&mut Note>) -> Result<Outcome, SessionError> {
        let meta = Meta {
            index: self.events,
            ..Meta::default()
        };
        self.undecodable("", meta, error, note)
    }

    /// A frame that did not decode: refused, or with [`SessionOptions::skip_invalid`]
    /// skipped (`invalid_json`, `invalid_event`).
    fn undecodable(
        &mut self,
        json: &str,
        mut meta: Meta,
        error: MsgError,
        note: Option<&mut Note>,
    ) -> Result<Outcome, SessionError> {
        let skip = match error {
            MsgError::InvalidJson(_) => Some(Skip::InvalidJson),
            MsgError::InvalidEvent(_) => Some(Skip::InvalidEvent),
            _ => None,
        };
        let fields = Fields::of(json);
        meta.event_id = fields.id.map(Cow::Owned);
        if let Some(note) = note {
            note.event_id = meta.event_id.as_deref().map(str::to_owned);
            note.reply_id = fields.reply_id.clone();
            note.event_type = fields.event_type.as_deref().and_then(EventType::parse);
        }
        match skip {
            Some(skip) if self.options.skip_invalid => {
                self.diagnose(&meta, skip, error.to_string(), fields.event_type, fields.reply_id);
                self.note_sse_id(&meta);
                Ok(Outcome::Skipped(skip))
            }
            _ => Err(self.error(meta, error)),
        }
    }

    /// Applies one event (its `id` counts as given, for deduplication).
    pub fn apply(&mut self, event: &AgentEvent) -> Result<Outcome, SessionError> {
        self.scoped(|session| session.apply_now(event))
    }

    fn apply_now(&mut self, event: &AgentEvent) -> Result<Outcome, SessionError> {
        self.events = self.events.saturating_add(1);
        let meta = Meta {
            index: self.events,
            event_id: Some(Cow::Borrowed(event.id())),
            sse_id: None,
        };
        let result = self.route(event, meta);
        self.keep(self.events, &result, || event.to_json());
        result
    }

    /// [`Session::apply`] for an event a binding built from parts (the wasm
    /// `SessionHandle.applyDelta`): `had_id` tells whether the event had an `id` of its
    /// own (one without is never deduplicated, as in [`Session::apply_json`]). With
    /// `keep_events` the event's text is not at hand: `None`, nothing done.
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn apply_parts(&mut self, event: &AgentEvent, had_id: bool) -> Option<Result<Outcome, SessionError>> {
        if self.options.keep_events {
            return None;
        }
        Some(self.scoped(|session| {
            session.events = session.events.saturating_add(1);
            let meta = Meta {
                index: session.events,
                event_id: had_id.then(|| Cow::Borrowed(event.id())),
                sse_id: None,
            };
            session.route(event, meta)
        }))
    }

    /// The message of reply `reply_id` and the matching its events use, for the wasm
    /// binding's run of joined deltas (`SessionHandle.applyDelta` / `applyJoined`).
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn reply_msg(&mut self, reply_id: &str) -> Option<(&mut Msg, Matching)> {
        let i = self.reply_index(reply_id)?;
        let matching = self.options.matching();
        Some((&mut self.replies[i].msg, matching))
    }

    /// [`Session::apply_parts`] for `count` deltas of one block joined into one event
    /// (each within the per-delta cap when it was joined, which is not applied to the
    /// joined text); the session counts `count` events.
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn apply_joined(&mut self, event: &AgentEvent, count: u32) -> Option<Result<Outcome, SessionError>> {
        let reply_id = event.reply_id()?;
        let (msg, _) = self.reply_msg(reply_id)?;
        let limits = msg.limits();
        msg.set_limits(Limits {
            max_delta_bytes: 0,
            ..limits
        });
        self.events = self.events.saturating_add(count.saturating_sub(1) as usize);
        let result = self.apply_parts(event, false);
        if let Some((msg, _)) = self.reply_msg(reply_id) {
            msg.set_limits(limits);
        }
        result
    }

    /// Parses one event from wire JSON and applies it (an absent `id` is never
    /// deduplicated; an unknown `type` is skipped with a diagnostic, or refused when
    /// strict).
    pub fn apply_json(&mut self, json: &str) -> Result<Outcome, SessionError> {
        self.scoped(|session| session.apply_json_now(json))
    }

    fn apply_json_now(&mut self, json: &str) -> Result<Outcome, SessionError> {
        self.events = self.events.saturating_add(1);
        let meta = Meta {
            index: self.events,
            ..Meta::default()
        };
        match decode(json) {
            Ok(decoded) => {
                let event = matches!(decoded, Decoded::Event { .. });
                let result = self.apply_decoded(decoded, meta, None);
                if event {
                    self.keep(self.events, &result, || json.to_owned());
                }
                result
            }
            Err(e) => self.undecodable(json, meta, e, None),
        }
    }

    fn apply_decoded(
        &mut self,
        decoded: Decoded,
        mut meta: Meta,
        note: Option<&mut Note>,
    ) -> Result<Outcome, SessionError> {
        match decoded {
            Decoded::Event { event, had_id } => {
                if let Some(note) = note {
                    let reply = event.reply_id().and_then(|id| self.by_reply.get(id));
                    note.event(
                        &event,
                        had_id,
                        reply.is_some(),
                        reply.is_some_and(|&i| self.replies[i].ended),
                    );
                }
                let meta = Meta {
                    index: meta.index,
                    event_id: had_id.then(|| Cow::Borrowed(event.id())),
                    sse_id: meta.sse_id,
                };
                self.route(&event, meta)
            }
            Decoded::UnknownType { tag, id, reply_id } => {
                if let Some(note) = note {
                    note.event_id = id.clone();
                    note.reply_id = reply_id.clone();
                }
                meta.event_id = id.map(Cow::Owned);
                let message = format!("unknown event type {tag:?}");
                if self.options.strict {
                    return Err(self.error(meta, MsgError::Strict(Skip::UnknownEventType, message)));
                }
                self.diagnose(&meta, Skip::UnknownEventType, message, Some(tag), reply_id);
                self.note_sse_id(&meta);
                Ok(Outcome::Skipped(Skip::UnknownEventType))
            }
        }
    }

    fn route(&mut self, event: &AgentEvent, meta: Meta) -> Result<Outcome, SessionError> {
        if self.options.dedup
            && let Some(id) = meta.event_id.as_deref().filter(|id| self.applied.contains(*id))
        {
            let message = format!("event {id} was already applied");
            let (event_type, reply_id) = (event.event_type().as_str(), event.reply_id().map(str::to_owned));
            self.diagnose(&meta, Skip::Duplicate, message, Some(event_type.into()), reply_id);
            self.note_sse_id(&meta);
            return Ok(Outcome::Skipped(Skip::Duplicate));
        }
        let (outcome, changed) = self.route_to_reply(event, &meta)?;
        if self.options.dedup
            && let Some(id) = &meta.event_id
        {
            self.applied.insert(id.clone().into_owned());
        }
        self.note_sse_id(&meta);
        if let Some(i) = changed {
            self.revision += 1;
            self.recent.touch(i, self.revision);
        }
        Ok(outcome)
    }

    /// Remembers the frame's SSE id (a frame without one keeps the previous id, as the
    /// SSE standard's last event ID does).
    fn note_sse_id(&mut self, meta: &Meta) {
        if let Some(id) = &meta.sse_id {
            self.last_event_id = Some(id.clone());
        }
    }

    /// Routes an event to its reply; also tells whether a message changed (a continuation
    /// `REPLY_START` is applied but changes no message).
    fn route_to_reply(&mut self, event: &AgentEvent, meta: &Meta) -> Result<(Outcome, Option<usize>), SessionError> {
        let event_type = event.event_type().as_str();
        let Some(reply_id) = event.reply_id() else {
            // CUSTOM: it changes no message (the reducer ignores it), and is reported
            if let AgentEvent::Custom(custom) = event {
                let message = format!("CUSTOM event {:?}", custom.name);
                self.diagnose(meta, Skip::Custom, message, Some(event_type.into()), None);
                if let Some(d) = self.diagnostics.last_mut() {
                    d.name = Some(custom.name.clone());
                    d.value = Some(crate::json::Value::Object(custom.value.clone()));
                }
                return Ok((Outcome::Skipped(Skip::Custom), None));
            }
            return Ok((Outcome::Skipped(Skip::IgnoredType), None));
        };
        let strict = self.options.strict;
        let warn = |this: &mut Session, skip: Skip, message: String| -> Result<(), SessionError> {
            if strict {
                return Err(this.error(meta.clone(), MsgError::Strict(skip, message)));
            }
            this.diagnose(meta, skip, message, Some(event_type.into()), Some(reply_id.into()));
            Ok(())
        };
        if let Some(focus) = &self.focus
            && focus != reply_id
        {
            let message = format!("{event_type} of reply {reply_id}, not of the reply {focus} this session follows");
            warn(self, Skip::ForeignReply, message)?;
            return Ok((Outcome::Skipped(Skip::ForeignReply), None));
        }
        if let AgentEvent::ReplyStart(start) = event {
            match self.by_reply.get(reply_id) {
                Some(&i) => {
                    self.replies[i].ended = false; // a continuation
                    return Ok((Outcome::Applied, None));
                }
                None => {
                    let options = MsgOptions {
                        id: Some(reply_id.to_owned()),
                        ..MsgOptions::default()
                    };
                    let mut msg =
                        assistant_msg(start.name.clone(), vec![], options).map_err(|e| self.error(meta.clone(), e))?;
                    msg.set_limits(self.options.limits());
                    // the new message counts its wire JSON (its name and id) against the caps
                    let size = msg.taken_bytes();
                    let total = self.taken_bytes();
                    let (l, max) = (self.options.limits(), self.options.max_session_bytes);
                    crate::limits::check(0, size, l.max_message_bytes, "the new message", "max_message_bytes")
                        .and_then(|()| crate::limits::check(total, size, max, "the session", "max_session_bytes"))
                        .map_err(|e| self.error(meta.clone(), e))?;
                    self.taken = Some(total.saturating_add(size));
                    self.by_reply.insert(reply_id.to_owned(), self.replies.len());
                    self.replies.push(Reply { msg, ended: false });
                }
            }
            return Ok((Outcome::Applied, Some(self.replies.len() - 1)));
        }
        let Some(i) = self.reply_index(reply_id) else {
            warn(
                self,
                Skip::UnknownReply,
                format!("{event_type} for reply {reply_id}, which was never opened by a REPLY_START"),
            )?;
            return Ok((Outcome::Skipped(Skip::UnknownReply), None));
        };
        // warnings are checked before the event is applied (strict refuses it then) and
        // recorded only once it is applied (a rejected event leaves no trace but its error)
        let mut warnings = Vec::new();
        if self.replies[i].ended {
            warnings.push((
                Skip::AfterEnd,
                format!("{event_type} after the REPLY_END of reply {reply_id}"),
            ));
        }
        let matching = self.options.matching();
        if let Some((kind, id)) = started_block(event) {
            let newest = matching.newest(kind);
            let msg = &mut self.replies[i].msg;
            let duplicate = match msg.find_block_at(kind, id, newest) {
                None => false,
                // with tool_call_match newest a repeated tool-call id is a new call
                Some(_) if newest && matches!(kind, BlockKind::ToolCall | BlockKind::ToolResult) => false,
                // with block_match newest a start after the end of the id's newest block
                // opens the next one
                Some(at) => !(newest && block_ended(&msg.content()[at])),
            };
            if duplicate {
                let message = format!("{event_type} starts {} block {id:?} a second time", kind.as_str());
                warnings.push((Skip::DuplicateBlock, message));
            }
        }
        if let Some((kind, id)) = event.delta_block() {
            let newest = matching.newest(kind);
            let msg = &mut self.replies[i].msg;
            if let Some(at) = msg.find_block_at(kind, id, newest)
                && block_ended(&msg.content()[at])
            {
                let message = format!("{event_type} after the end of {} block {id:?}", kind.as_str());
                warnings.push((Skip::AfterBlockEnd, message));
            }
        }
        if let AgentEvent::RequireUserConfirm(e) = event {
            let newest = matching.newest(BlockKind::ToolCall);
            let msg = &mut self.replies[i].msg;
            let mut allowed = Vec::new();
            for tc in &e.tool_calls {
                if let Some(at) = msg.find_block_at(BlockKind::ToolCall, &tc.id, newest)
                    && let ContentBlock::ToolCall(call) = &msg.content()[at]
                    && call.state == ToolCallState::Allowed
                {
                    allowed.push(tc.id.as_str());
                }
            }
            if !allowed.is_empty() {
                let calls = tool_calls(allowed.into_iter());
                warnings.push((
                    Skip::AskedAgain,
                    format!("{event_type} asks again about {calls}, already allowed"),
                ));
            }
        }
        if strict && let Some((skip, message)) = warnings.first() {
            return Err(self.error(meta.clone(), MsgError::Strict(*skip, message.clone())));
        }
        let before = self.replies[i].msg.revision();
        // the room the other messages leave this one (max_session_bytes)
        let total = self.taken_bytes();
        let max = self.options.max_session_bytes;
        let msg = &mut self.replies[i].msg;
        let others = total.saturating_sub(msg.taken_bytes());
        msg.session_room = (max != 0).then(|| max.saturating_sub(others));
        let outcome = msg.append_event_with(event, matching);
        let taken = others.saturating_add(msg.taken_bytes());
        self.taken = Some(taken);
        let outcome = outcome.map_err(|e| self.error(meta.clone(), e))?;
        let changed = self.replies[i].msg.revision() != before;
        // a skipped event changed nothing, so refusing it now leaves the message as it was
        match outcome {
            Outcome::Skipped(skip @ Skip::UnknownBlock) => warn(self, skip, skip_message(event_type, event))?,
            // only when a REPLY_START had an empty `reply_id`: its message got a made-up id
            // (`id or uuid`, as in the reference), which the reply's events do not name
            Outcome::Skipped(skip @ Skip::ForeignReply) => {
                let id = self.replies[i].msg.id.clone();
                let message = format!("{event_type} for reply {reply_id:?}, whose message was given the id {id:?}");
                warn(self, skip, message)?;
            }
            _ => {}
        }
        for (skip, message) in warnings {
            warn(self, skip, message)?;
        }
        // (past every refusal: a refused event leaves no trace)
        let changed = self.note_unstarted(i, event) || changed;
        if matches!(event, AgentEvent::ReplyEnd(_)) {
            self.replies[i].ended = true;
            // blocks the reply left open (a failed run, a lost model stream) stay as they
            // are, as in the reference, and are named (not refused: the reply did end)
            if let Some(message) = unclosed_blocks(&self.replies[i].msg) {
                self.diagnose(
                    meta,
                    Skip::UnclosedBlocks,
                    message,
                    Some(event_type.into()),
                    Some(reply_id.into()),
                );
            }
        }
        Ok((outcome, changed.then_some(i)))
    }

    /// Keeps [`UnstartedCall`]s up to date with an applied event of reply `i`; whether
    /// they changed.
    fn note_unstarted(&mut self, i: usize, event: &AgentEvent) -> bool {
        let (kind, asked, answered): (&'static str, &[ToolCallBlock], Vec<&str>) = match event {
            AgentEvent::RequireUserConfirm(e) => ("confirm", &e.tool_calls, Vec::new()),
            AgentEvent::RequireExternalExecution(e) => ("external", &e.tool_calls, Vec::new()),
            AgentEvent::UserConfirmResult(e) => (
                "confirm",
                &[],
                e.confirm_results.iter().map(|r| r.tool_call.id.as_str()).collect(),
            ),
            AgentEvent::ExternalExecutionResult(e) => (
                "external",
                &[],
                e.execution_results.iter().map(|r| r.id.as_str()).collect(),
            ),
            _ => return false,
        };
        let reply_id = &self.replies[i].msg.id;
        let before = self.unstarted.len();
        let mut freed = 0;
        self.unstarted.retain(|u| {
            let gone = u.kind == kind && &u.reply_id == reply_id && answered.contains(&u.tool_call.id.as_str());
            if gone {
                freed += crate::limits::json_len(&u.tool_call);
            }
            !gone
        });
        let mut changed = self.unstarted.len() != before;
        self.count_unstarted(0, freed);
        for tc in asked {
            if self.replies[i]
                .msg
                .find_block_at(BlockKind::ToolCall, &tc.id, false)
                .is_some()
            {
                // the call exists now: the ask was applied to it
                let reply_id = &self.replies[i].msg.id;
                if let Some(at) = (self.unstarted.iter())
                    .position(|u| u.kind == kind && &u.reply_id == reply_id && u.tool_call.id == tc.id)
                {
                    let gone = self.unstarted.remove(at);
                    self.count_unstarted(0, crate::limits::json_len(&gone.tool_call));
                    changed = true;
                }
                continue;
            }
            let mut tool_call = tc.clone();
            tool_call.state = if kind == "confirm" {
                ToolCallState::Asking
            } else {
                ToolCallState::Submitted
            };
            let reply_id = self.replies[i].msg.id.clone();
            let unstarted = UnstartedCall {
                reply_id,
                kind,
                tool_call,
            };
            let size = crate::limits::json_len(&unstarted.tool_call);
            let same = (self.unstarted.iter_mut())
                .find(|u| u.kind == kind && u.reply_id == unstarted.reply_id && u.tool_call.id == tc.id);
            let replaced = match same {
                Some(same) => crate::limits::json_len(&std::mem::replace(same, unstarted).tool_call),
                None => {
                    self.unstarted.push(unstarted);
                    0
                }
            };
            self.count_unstarted(size, replaced);
            changed = true;
        }
        changed
    }

    /// Counts `added` bytes of unstarted calls in, `removed` out (the ask was checked
    /// against the caps as the event it came in).
    fn count_unstarted(&mut self, added: usize, removed: usize) {
        self.unstarted_bytes = self.unstarted_bytes.saturating_add(added).saturating_sub(removed);
        if let Some(taken) = self.taken {
            self.taken = Some(taken.saturating_add(added).saturating_sub(removed));
        }
    }

    /// The tool calls asked about (`REQUIRE_USER_CONFIRM`, `REQUIRE_EXTERNAL_EXECUTION`)
    /// that their reply never started, still waiting for an answer (see [`UnstartedCall`]).
    pub fn unstarted_calls(&self) -> &[UnstartedCall] {
        &self.unstarted
    }

    /// The reply's position: the previous event's reply is checked first (consecutive
    /// events nearly always share one), which spares hashing the id.
    fn reply_index(&mut self, reply_id: &str) -> Option<usize> {
        let last = self
            .last_reply
            .filter(|&i| self.replies.get(i).is_some_and(|r| r.msg.id == reply_id));
        let found = last.or_else(|| self.by_reply.get(reply_id).copied());
        self.last_reply = found.or(self.last_reply);
        found
    }

    fn diagnose(
        &mut self,
        meta: &Meta,
        skip: Skip,
        message: String,
        event_type: Option<String>,
        reply_id: Option<String>,
    ) {
        self.diagnostics.push(Diagnostic {
            index: meta.index,
            code: skip.code(),
            message,
            event_type,
            event_id: meta.event_id.as_deref().map(str::to_owned),
            reply_id,
            sse_id: meta.sse_id.clone(),
            name: None,
            value: None,
        });
    }

    /// The reply messages, in order of their first `REPLY_START` (inserted ones first).
    pub fn messages(&self) -> impl ExactSizeIterator<Item = &Msg> {
        self.replies.iter().map(|r| &r.msg)
    }

    /// The reply messages, consuming the session.
    pub fn into_messages(self) -> Vec<Msg> {
        self.replies.into_iter().map(|r| r.msg).collect()
    }

    /// The message of a reply.
    pub fn get(&self, reply_id: &str) -> Option<&Msg> {
        self.by_reply.get(reply_id).map(|&i| &self.replies[i].msg)
    }

    /// The message at position `i` (order of [`Session::messages`]).
    pub fn message(&self, i: usize) -> Option<&Msg> {
        self.replies.get(i).map(|r| &r.msg)
    }

    /// What the session's messages took in together ([`Msg::taken_bytes`] summed, and the
    /// tool calls of [`Session::unstarted_calls`]), which
    /// [`SessionOptions::max_session_bytes`] caps.
    pub fn taken_bytes(&mut self) -> usize {
        if let Some(taken) = self.taken {
            return taken;
        }
        let taken = self.replies.iter_mut().map(|r| r.msg.taken_bytes()).sum::<usize>() + self.unstarted_bytes;
        self.taken = Some(taken);
        taken
    }

    /// Number of reply messages.
    pub fn len(&self) -> usize {
        self.replies.len()
    }

    /// Whether the session has no message yet.
    pub fn is_empty(&self) -> bool {
        self.replies.is_empty()
    }

    /// Whether a reply has seen its `REPLY_END` (and no continuation since).
    pub fn is_ended(&self, reply_id: &str) -> bool {
        self.by_reply.get(reply_id).is_some_and(|&i| self.replies[i].ended)
    }

    /// What the session skipped or warned about so far, in order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Takes the diagnostics collected so far (a long-running stream's caller drains
    /// them so they do not grow without bound).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Number of events seen (framed or applied), skipped and refused ones included.
    pub fn events(&self) -> usize {
        self.events
    }

    /// The SSE `id:` of the last event handled: what to send as `Last-Event-ID` to resume.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// A counter that grows whenever a message of the session changes.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Positions (in [`Session::messages`]) of the messages that changed after session
    /// revision `since` (messages added since then included), in order; it costs what
    /// changed, not the number of messages.
    pub fn changed_messages(&self, since: u64) -> Vec<usize> {
        self.recent.since(since)
    }

    /// The session as JSON text: its options, its messages (wire JSON), which replies
    /// ended, the ids of the events applied (with `dedup`) and the last SSE id. Restore it
    /// with [`Session::restore`]; with `dedup`, replaying the stream from any earlier
    /// point then gives the same messages. Frames not yet complete are not included.
    ///
    /// ```
    /// use agentscope_message::{Session, SessionOptions};
    ///
    /// let stream = concat!(
    ///     "id: 1\ndata: {\"id\":\"e1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"Friday\"}\n\n",
    ///     "id: 2\ndata: {\"id\":\"e2\",\"type\":\"TEXT_BLOCK_START\",\"reply_id\":\"r\",\"block_id\":\"t\"}\n\n",
    ///     "id: 3\ndata: {\"id\":\"e3\",\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r\",\"block_id\":\"t\",\"delta\":\"Hi\"}\n\n",
    /// );
    /// let mut session = Session::new(SessionOptions { dedup: true, ..SessionOptions::default() });
    /// session.feed(stream.as_bytes())?;
    /// let saved = session.checkpoint(); // store it; the process may stop here
    ///
    /// let mut again = Session::restore(&saved)?;
    /// assert_eq!(again.last_event_id(), Some("3")); // resume with `Last-Event-ID: 3`
    /// again.feed(stream.as_bytes())?; // a server that resends from the start: skipped (dedup)
    /// assert_eq!(again.get("r").and_then(|m| m.get_text_content("")).as_deref(), Some("Hi"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn checkpoint(&self) -> String {
        let checkpoint = CheckpointOut {
            format: CHECKPOINT_FORMAT,
            options: self.options,
            messages: self.replies.iter().map(|r| &r.msg).collect(),
            ended: self
                .replies
                .iter()
                .filter(|r| r.ended)
                .map(|r| r.msg.id.as_str())
                .collect(),
            applied: self.applied.iter().collect(),
            events: self.events,
            last_event_id: self.last_event_id.as_deref(),
        };
        crate::wire::to_string(&checkpoint)
    }

    /// A session from [`Session::checkpoint`] text, with the options it was taken with.
    ///
    /// Errors: `invalid_checkpoint` (not a checkpoint), or the message's validation error.
    pub fn restore(json: &str) -> Result<Session, MsgError> {
        let bad = |e: String| MsgError::InvalidCheckpoint(format!("not a session checkpoint: {e}"));
        let object: Object = serde_json::from_str(json).map_err(|e| {
            bad(if e.is_syntax() || e.is_eof() {
                e.to_string()
            } else {
                without_position(&e)
            })
        })?;
        let c = CheckpointIn::from_object(&object).map_err(bad)?;
        if c.format != CHECKPOINT_FORMAT {
            return Err(bad(format!("format {:?}", c.format)));
        }
        // an SSE id never holds a line end or NUL (a `Last-Event-ID` header could not carry it)
        if let Some(id) = &c.last_event_id
            && id.contains(['\r', '\n', '\0'])
        {
            return Err(bad(format!("last_event_id {id:?} holds a line end or NUL")));
        }
        // nor is it longer than the framer keeps (it is copied onto every event after it)
        if let Some(id) = &c.last_event_id
            && id.len() > framing::MAX_SSE_ID_BYTES
        {
            let max = framing::MAX_SSE_ID_BYTES;
            return Err(bad(format!(
                "last_event_id of {} bytes, past the {max} an SSE id may have",
                id.len()
            )));
        }
        let mut session = Session::new(c.options);
        for raw in c.messages {
            let msg = Msg::read_json(raw.get(), false)?;
            // two messages of one reply would collapse into one
            if session.by_reply.contains_key(&msg.id) {
                return Err(bad(format!("two messages with the id {:?}", msg.id)));
            }
            session.insert(msg);
        }
        for id in c.ended {
            if let Some(&i) = session.by_reply.get(&id) {
                session.replies[i].ended = true;
            }
        }
        session.applied = c.applied.into_iter().collect();
        session.events = c.events;
        // an empty id is no id (the SSE standard's reset), as a live session holds it
        session.last_event_id = c.last_event_id.filter(|id| !id.is_empty());
        session.restart_stream(); // an SSE stream goes on from the restored last event id
        Ok(session)
    }
}

const CHECKPOINT_FORMAT: &str = "agentscope-message.session/1";

#[derive(Serialize)]
struct CheckpointOut<'a> {
    format: &'static str,
    options: SessionOptions,
    messages: Vec<&'a Msg>,
    ended: Vec<&'a str>,
    applied: Vec<&'a String>,
    events: usize,
    last_event_id: Option<&'a str>,
}

struct CheckpointIn<'a> {
    format: String,
    options: SessionOptions,
    messages: Vec<&'a serde_json::value::RawValue>,
    ended: Vec<String>,
    applied: Vec<String>,
    events: usize,
    last_event_id: Option<String>,
}

impl<'a> CheckpointIn<'a> {
    fn from_object(object: &'a Object<'_>) -> Result<Self, String> {
        Ok(CheckpointIn {
            format: object.required("format")?,
            options: object.required("options")?,
            messages: object.required("messages")?,
            ended: object.required("ended")?,
            applied: object.required("applied")?,
            events: object.required("events")?,
            last_event_id: object.or("last_event_id", Option::default)?,
        })
    }
}

/// The `id`, `reply_id` and `type` of an event that failed to decode, those that can be
/// read (for its error or diagnostic).
#[derive(Default)]
struct Fields {
    id: Option<String>,
    reply_id: Option<String>,
    event_type: Option<String>,
}

impl Fields {
    fn of(json: &str) -> Fields {
        let Ok(object) = serde_json::from_str::<Object>(json) else {
            return Fields::default();
        };
        let text = |key: &str| object.field::<String>(key).ok().flatten();
        Fields {
            id: text("id"),
            reply_id: text("reply_id"),
            event_type: text("type"),
        }
    }
}

/// The block a `*_START` event opens: its kind and id.
fn started_block(event: &AgentEvent) -> Option<(BlockKind, &str)> {
    Some(match event {
        AgentEvent::TextBlockStart(e) => (BlockKind::Text, &e.block_id),
        AgentEvent::ThinkingBlockStart(e) => (BlockKind::Thinking, &e.block_id),
        AgentEvent::DataBlockStart(e) => (BlockKind::Data, &e.block_id),
        AgentEvent::ToolCallStart(e) => (BlockKind::ToolCall, &e.tool_call_id),
        AgentEvent::ToolResultStart(e) => (BlockKind::ToolResult, &e.tool_call_id),
        _ => return None,
    })
}

/// `REPLY_END of a reply whose blocks never ended: text "t1", tool_call "c1"`, when some
/// did not (hints have no end).
fn unclosed_blocks(msg: &Msg) -> Option<String> {
    let open: Vec<String> = (msg.content().iter())
        .filter(|b| !matches!(b, crate::ContentBlock::Hint(_)) && !block_ended(b))
        .map(|b| format!("{} {:?}", b.kind().as_str(), b.id()))
        .collect();
    (!open.is_empty()).then(|| format!("REPLY_END of a reply whose blocks never ended: {}", open.join(", ")))
}

/// Whether a block's end came (its `finished_at` is set by its END event).
fn block_ended(block: &crate::ContentBlock) -> bool {
    use crate::ContentBlock;
    match block {
        ContentBlock::Text(b) => b.finished_at.is_some(),
        ContentBlock::Thinking(b) => b.finished_at.is_some(),
        ContentBlock::Data(b) => b.finished_at.is_some(),
        ContentBlock::ToolCall(b) => b.finished_at.is_some(),
        ContentBlock::ToolResult(b) => b.finished_at.is_some(),
        ContentBlock::Hint(_) => false,
    }
}

fn skip_message(event_type: &str, event: &AgentEvent) -> String {
    let target = block_target(event);
    format!("{event_type} for {target}, which was never started (expected its start first)")
}

/// `tool calls "a", "b"`.
fn tool_calls<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let ids: Vec<String> = ids.map(|id| format!("{id:?}")).collect();
    format!("tool call{} {}", if ids.len() == 1 { "" } else { "s" }, ids.join(", "))
}

/// How an event names its block, for messages.
fn block_target(event: &AgentEvent) -> String {
    match event {
        AgentEvent::TextBlockDelta(e) => format!("text block {:?}", e.block_id),
        AgentEvent::TextBlockEnd(e) => format!("text block {:?}", e.block_id),
        AgentEvent::ThinkingBlockDelta(e) => format!("thinking block {:?}", e.block_id),
        AgentEvent::ThinkingBlockEnd(e) => format!("thinking block {:?}", e.block_id),
        AgentEvent::DataBlockDelta(e) => format!("data block {:?}", e.block_id),
        AgentEvent::DataBlockEnd(e) => format!("data block {:?}", e.block_id),
        AgentEvent::ToolCallDelta(e) => format!("tool call {:?}", e.tool_call_id),
        AgentEvent::ToolCallEnd(e) => format!("tool call {:?}", e.tool_call_id),
        AgentEvent::ToolResultTextDelta(e) => format!("tool result {:?}", e.tool_call_id),
        AgentEvent::ToolResultDataDelta(e) => format!("tool result {:?}", e.tool_call_id),
        AgentEvent::ToolResultEnd(e) => format!("tool result {:?}", e.tool_call_id),
        // the calls asked about, by id (a UI can then say which call it cannot show)
        AgentEvent::RequireUserConfirm(e) => tool_calls(e.tool_calls.iter().map(|c| c.id.as_str())),
        AgentEvent::RequireExternalExecution(e) => tool_calls(e.tool_calls.iter().map(|c| c.id.as_str())),
        AgentEvent::UserConfirmResult(e) => tool_calls(e.confirm_results.iter().map(|r| r.tool_call.id.as_str())),
        _ => "tool calls".to_owned(),
    }
}
