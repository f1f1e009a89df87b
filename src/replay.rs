//! Opening messages from `REPLY_START` and routing events to them by `reply_id`, as the
//! AgentScope chat service does (`app/_service/_chat.py`, REFERENCE.md §4 end).

use std::collections::HashMap;

use crate::error::MsgError;
use crate::event::AgentEvent;
use crate::msg::{Msg, MsgOptions, assistant_msg};

/// Rebuilds the reply messages of an event stream.
///
/// A `REPLY_START` whose `reply_id` has no message yet opens
/// `AssistantMsg(id=reply_id, name=name, content=[])`; a later `REPLY_START` with the
/// same `reply_id` is a continuation (after a confirmation or an external execution) and
/// keeps the message. Every event is then applied with [`Msg::append_event`] to the
/// message of its `reply_id`; events of a reply that has no message are skipped.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    messages: Vec<Msg>,
    by_reply: HashMap<String, usize>,
    all_replies: bool,
}

impl Replay {
    /// An empty replay. With `all_replies` every new `reply_id` opens a message; without
    /// it only the first one does, and events of other replies are skipped.
    pub fn new(all_replies: bool) -> Replay {
        Replay {
            all_replies,
            ..Replay::default()
        }
    }

    /// A replay that applies events to `initial` (events of its `id`).
    pub fn with_initial(initial: Msg, all_replies: bool) -> Replay {
        let mut replay = Replay::new(all_replies);
        replay.by_reply.insert(initial.id.clone(), 0);
        replay.messages.push(initial);
        replay
    }

    /// Applies one event. Errors are those of [`Msg::append_event`]; the messages are
    /// unchanged when it fails.
    pub fn apply(&mut self, event: &AgentEvent) -> Result<(), MsgError> {
        if let AgentEvent::ReplyStart(start) = event {
            let opens = self.all_replies || self.messages.is_empty();
            if opens && !self.by_reply.contains_key(&start.reply_id) {
                let options = MsgOptions {
                    id: Some(start.reply_id.clone()),
                    ..MsgOptions::default()
                };
                let msg = assistant_msg(start.name.clone(), vec![], options)?;
                self.by_reply.insert(start.reply_id.clone(), self.messages.len());
                self.messages.push(msg);
            }
        }
        let Some(&i) = event.reply_id().and_then(|r| self.by_reply.get(r)) else {
            return Ok(());
        };
        if let Some(msg) = self.messages.get_mut(i) {
            msg.append_event(event)?;
        }
        Ok(())
    }

    /// Parses one event from wire JSON ([`AgentEvent::from_json`]) and applies it.
    pub fn apply_json(&mut self, json: &str) -> Result<(), MsgError> {
        self.apply(&AgentEvent::from_json(json)?)
    }

    /// The messages, in order of their first `REPLY_START` (the initial one first).
    pub fn messages(&self) -> &[Msg] {
        &self.messages
    }

    /// The messages, consuming the replay.
    pub fn into_messages(self) -> Vec<Msg> {
        self.messages
    }
}
