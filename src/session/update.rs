//! The updates route: [`Session::feed_updates`] and [`Session::end_updates`] tell, event
//! by event, what the session did ([`Update`]), and never stop at a refused event.

use crate::event::{AgentEvent, EventType};
use crate::msg::Msg;
use crate::outcome::{Outcome, Skip};

use super::{Diagnostic, Session, SessionError};

/// What a [`Session`] did with one event of the stream, from [`Session::feed_updates`]
/// or [`Session::end_updates`] (or the `stream` feature's `UpdateStream`), in stream
/// order.
#[derive(Debug, Clone)]
pub struct Update {
    /// 1-based position of the event in the session, as [`Diagnostic::index`] and
    /// [`SessionError::index`] count it (every framed event counts, skipped and refused
    /// ones too); for bytes fed after the end, the count so far.
    pub index: usize,
    /// The event's `reply_id`, when it has one (and it could be read).
    pub reply_id: Option<String>,
    /// The event's `type`, when it could be read (from a frame that did not decode too);
    /// `None` for a type this version does not know (its text is the `unknown_event_type`
    /// diagnostic's `event_type`) and a named SSE frame.
    pub event_type: Option<EventType>,
    /// The event's `id`, when it was on the wire.
    pub event_id: Option<String>,
    /// The SSE `id:` of the frame, when it came from SSE (what
    /// [`Session::last_event_id`] is once the event is handled).
    pub sse_id: Option<String>,
    /// What the session did.
    pub kind: UpdateKind,
    /// What the session noted about the event, also kept in [`Session::diagnostics`]:
    /// the reason of a skip, a warning on an applied event (`after_end`,
    /// `duplicate_block`, …), `unclosed_blocks` on a `REPLY_END`. Empty for most events.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a [`Session`] did with one event ([`Update::kind`]).
#[derive(Debug, Clone)]
pub enum UpdateKind {
    /// The event changed its reply's message (a delta, a block's start or end, …).
    Applied,
    /// The event changed nothing, and why (its [`Diagnostic`], when the session keeps one,
    /// is in [`Update::diagnostics`]; `ignored_type` and `stale` have none). A `CUSTOM`
    /// is [`UpdateKind::Custom`] instead (but a repeated one with `dedup` is
    /// `Skipped(Duplicate)`).
    Skipped(Skip),
    /// A `CUSTOM` event (an application's own event, e.g. the AgentScope service's
    /// `state_updated`): it changes no message, as in the reference; its `custom`
    /// diagnostic is in [`Update::diagnostics`] too.
    Custom {
        /// The event's `name`.
        name: String,
        /// The event's `value` (an object; `{}` when the event had none).
        value: crate::json::Value,
    },
    /// A `REPLY_START` opened the message at `message` (its position in
    /// [`Session::messages`], for [`Session::message`]), or with `continued` went on with
    /// the one the reply already had (after a confirmation or an external execution).
    ReplyStarted {
        /// The message's position in [`Session::messages`].
        message: usize,
        /// A continuation of a reply already opened (or inserted).
        continued: bool,
    },
    /// A `REPLY_END` ended the reply (or, applied after its end, changed it again): the
    /// place to store the finished message. `msg` is the message as the `REPLY_END` left
    /// it; [`Session::message`] at `message` may show more, when a continuation
    /// `REPLY_START` of the same reply came in the same chunk.
    ReplyEnded {
        /// The message's position in [`Session::messages`].
        message: usize,
        /// The message as it was at its `REPLY_END`.
        msg: Box<Msg>,
    },
    /// The session refused the event (and is unchanged by it): a frame that did not
    /// decode (without [`SessionOptions::skip_invalid`](super::SessionOptions::skip_invalid)),
    /// a framing or reducer error, a strict session's refusal, bytes after the end. The
    /// events after it are applied all the same.
    Refused(SessionError),
}

impl Update {
    /// The finished message, when the update is a [`UpdateKind::ReplyEnded`].
    pub fn ended(&self) -> Option<&Msg> {
        match &self.kind {
            UpdateKind::ReplyEnded { msg, .. } => Some(msg),
            _ => None,
        }
    }

    fn refused(error: SessionError) -> Update {
        Update {
            index: error.index,
            reply_id: None,
            event_type: None,
            event_id: error.event_id.clone(),
            sse_id: error.sse_id.clone(),
            kind: UpdateKind::Refused(error),
            diagnostics: Vec::new(),
        }
    }
}

/// What the updates route learns of an event while the session applies it.
#[derive(Debug, Default)]
pub(super) struct Note {
    pub(super) event_type: Option<EventType>,
    pub(super) reply_id: Option<String>,
    pub(super) event_id: Option<String>,
    /// a `REPLY_START` of a reply that had a message already
    pub(super) continued: bool,
    /// a `REPLY_END` of a reply that had ended already
    pub(super) ended_before: bool,
    /// a `CUSTOM` event's name and value
    pub(super) custom: Option<(String, crate::json::Value)>,
}

impl Note {
    /// The decoded event's ids and type; `had` whether its reply had a message, `ended`
    /// whether it had ended.
    pub(super) fn event(&mut self, event: &AgentEvent, had_id: bool, had: bool, ended: bool) {
        self.event_type = Some(event.event_type());
        self.reply_id = event.reply_id().map(str::to_owned);
        self.event_id = had_id.then(|| event.id().to_owned());
        self.continued = had && matches!(event, AgentEvent::ReplyStart(_));
        self.ended_before = ended && matches!(event, AgentEvent::ReplyEnd(_));
        if let AgentEvent::Custom(custom) = event {
            self.custom = Some((custom.name.clone(), crate::json::Value::Object(custom.value.clone())));
        }
    }
}

impl Session {
    /// Feeds raw bytes of the stream, split anywhere, like [`Session::feed`], and tells
    /// what became of every event they complete: one [`Update`] per event, in order
    /// (none while a frame is incomplete).
    ///
    /// Unlike `feed`, a refused event stops nothing: it is an [`UpdateKind::Refused`]
    /// update and the events behind it are applied in the same call, so a `REPLY_END`
    /// behind a bad frame is reported at once. A `REPLY_END` and a continuation
    /// `REPLY_START` of the same reply in one chunk give their own updates, the ended
    /// one with the message as it ended. Bytes after [`Session::end`] are one refused
    /// update (`invalid_stream`). [`Session::last_event_id`] covers every event handled,
    /// refused ones included (a resume does not ask for them again).
    ///
    /// ```
    /// use agentscope_message::{Session, SessionOptions, UpdateKind};
    ///
    /// let mut session = Session::new(SessionOptions::default());
    /// let updates = session.feed_updates(concat!(
    ///     "id: 1\ndata: {\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
    ///     "id: 2\ndata: {not json}\n\n",
    ///     "id: 3\ndata: {\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r1\"}\n\n",
    /// ).as_bytes());
    /// assert!(matches!(updates[0].kind, UpdateKind::ReplyStarted { message: 0, continued: false }));
    /// assert!(matches!(&updates[1].kind, UpdateKind::Refused(e) if e.code() == "invalid_json"));
    /// let finished = updates[2].ended().expect("the reply ended");
    /// assert_eq!((finished.id.as_str(), updates[2].sse_id.as_deref()), ("r1", Some("3")));
    /// assert_eq!(session.last_event_id(), Some("3"));
    /// ```
    pub fn feed_updates(&mut self, chunk: &[u8]) -> Vec<Update> {
        let mut updates = Vec::new();
        if let Err(error) = self.refuse_after_end(chunk) {
            updates.push(Update::refused(error));
            return updates;
        }
        if chunk.is_empty() {
            self.scoped(|session| session.drain_updates(&mut updates));
        }
        // a piece at a time, as `feed` (see there)
        for piece in chunk.chunks(super::FEED_PIECE) {
            self.framer.feed(piece);
            self.scoped(|session| session.drain_updates(&mut updates));
        }
        updates
    }

    /// Ends the stream, like [`Session::end`] (a final frame without its blank line or
    /// line end is applied; an unclosed JSON array is a refused `invalid_stream`), and
    /// tells what became of each event it completes (see [`Session::feed_updates`]).
    pub fn end_updates(&mut self) -> Vec<Update> {
        let mut updates = Vec::new();
        self.framer.end();
        self.scoped(|session| session.drain_updates(&mut updates));
        updates
    }

    fn drain_updates(&mut self, updates: &mut Vec<Update>) {
        while let Some(frame) = self.framer.next_frame() {
            self.events = self.events.saturating_add(1);
            let diagnosed = self.diagnostics.len();
            let mut note = Note::default();
            let (sse_id, result) = match frame {
                Ok(frame) => (frame.sse_id.clone(), self.apply_frame(frame, Some(&mut note))),
                Err(error) => (None, self.framing_error(error, Some(&mut note))),
            };
            let update = self.update(note, sse_id, result, diagnosed);
            updates.push(update);
        }
        self.note_framer_id();
    }

    /// The update of the event just handled (event `self.events`).
    fn update(
        &self,
        note: Note,
        sse_id: Option<String>,
        result: Result<Outcome, SessionError>,
        diagnosed: usize,
    ) -> Update {
        let reply = (note.reply_id.as_deref()).and_then(|id| self.by_reply.get(id).copied());
        let (mut event_id, mut sse_id) = (note.event_id, sse_id);
        let kind = match result {
            Err(error) => {
                event_id = event_id.or_else(|| error.event_id.clone());
                sse_id = sse_id.or_else(|| error.sse_id.clone());
                UpdateKind::Refused(error)
            }
            Ok(outcome) => match (note.event_type, reply) {
                (Some(EventType::ReplyStart), Some(message)) if outcome.is_applied() => UpdateKind::ReplyStarted {
                    message,
                    continued: note.continued,
                },
                // a skipped REPLY_END (its message's id is not the reply's) ends the reply too
                (Some(EventType::ReplyEnd), Some(message))
                    if self.replies[message].ended && (outcome.is_applied() || !note.ended_before) =>
                {
                    UpdateKind::ReplyEnded {
                        message,
                        msg: Box::new(self.replies[message].msg.clone()),
                    }
                }
                _ => match (outcome, note.custom) {
                    (Outcome::Skipped(Skip::Custom), Some((name, value))) => UpdateKind::Custom { name, value },
                    (Outcome::Applied, _) => UpdateKind::Applied,
                    (Outcome::Skipped(skip), _) => UpdateKind::Skipped(skip),
                },
            },
        };
        Update {
            index: self.events,
            reply_id: note.reply_id,
            event_type: note.event_type,
            event_id,
            sse_id,
            kind,
            diagnostics: self.diagnostics.get(diagnosed..).unwrap_or_default().to_vec(),
        }
    }
}
