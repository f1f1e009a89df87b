//! The events a [`Session`] keeps for its caller with
//! [`SessionOptions::keep_events`](super::SessionOptions::keep_events): every event that
//! decoded, in stream order, with what became of it ([`Session::take_events`]).

use super::{Session, SessionError};
use crate::outcome::Outcome;

/// One event the session handled, kept with
/// [`SessionOptions::keep_events`](super::SessionOptions::keep_events) and handed out by
/// [`Session::take_events`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptEvent {
    /// 1-based position of the event in the session, as [`super::Diagnostic::index`]
    /// counts it.
    pub index: usize,
    /// `applied`, or the code of the skip ([`Outcome::code`]): `duplicate`,
    /// `unknown_reply`, `ignored_type`, `custom`, ….
    pub outcome: &'static str,
    /// The event's JSON text exactly as it came (an SSE frame's data, a JSON Lines line,
    /// a JSON array element, the text given to [`Session::apply_json`]; for
    /// [`Session::apply`], the event's wire JSON).
    pub json: String,
}

impl Session {
    /// Keeps an event that decoded (with `keep_events`), unless it was refused.
    pub(super) fn keep(&mut self, index: usize, result: &Result<Outcome, SessionError>, json: impl FnOnce() -> String) {
        if let (true, Ok(outcome)) = (self.options.keep_events, result) {
            self.kept.push(KeptEvent {
                index,
                outcome: outcome.code(),
                json: json(),
            });
        }
    }

    /// Takes the events kept since the last call, in stream order (with
    /// [`SessionOptions::keep_events`](super::SessionOptions::keep_events); always empty
    /// without it). Every event that decoded is kept, applied or skipped (a duplicate, a
    /// `CUSTOM`, an event of an unknown reply, …); a refused event, a frame that did not
    /// decode, an unknown event type and a named SSE frame are not. They accumulate until
    /// taken, so a caller that keeps events takes them after each feed. Not part of a
    /// checkpoint.
    ///
    /// ```
    /// use agentscope_message::{Session, SessionOptions};
    ///
    /// let mut session = Session::new(SessionOptions { keep_events: true, ..SessionOptions::default() });
    /// session.feed(b"{\"type\":\"CUSTOM\",\"name\":\"session_updated\",\"value\":{}}\n")?;
    /// let kept = session.take_events();
    /// assert_eq!((kept[0].index, kept[0].outcome), (1, "custom"));
    /// assert_eq!(kept[0].json, "{\"type\":\"CUSTOM\",\"name\":\"session_updated\",\"value\":{}}");
    /// assert!(session.take_events().is_empty());
    /// # Ok::<(), agentscope_message::SessionError>(())
    /// ```
    pub fn take_events(&mut self) -> Vec<KeptEvent> {
        std::mem::take(&mut self.kept)
    }
}

/// Kept events as one JSON array text, `[{"index":1,"outcome":"applied","event":<the
/// event's JSON text, as it came>},…]` (the text decoded as JSON, so it is embedded as
/// is).
#[cfg(feature = "wasm")]
pub(crate) fn events_json(events: &[KeptEvent]) -> String {
    let size: usize = events.iter().map(|e| e.json.len() + 48).sum();
    let mut out = String::with_capacity(size + 2);
    out.push('[');
    for (n, e) in events.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push_str("{\"index\":");
        out.push_str(&e.index.to_string());
        out.push_str(",\"outcome\":\"");
        out.push_str(e.outcome);
        out.push_str("\",\"event\":");
        out.push_str(&e.json);
        out.push('}');
    }
    out.push(']');
    out
}
