//! The one error type of the crate, [`MsgError`], with stable codes.

use thiserror::Error;

use crate::outcome::Skip;

/// Every way building a [`crate::Msg`], parsing an event or applying one can fail.
///
/// `Display` carries the reference's message text where agentscope 2.0.11 has one
/// (REFERENCE.md §2 "Role validation", §4 DATA_BLOCK_DELTA). [`MsgError::code`] is a
/// stable, machine-readable string that the CLI prints as `error[<code>]` and the
/// JavaScript binding exposes as `MsgError.code`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MsgError {
    /// A block type that the message's role does not allow (`user`: text and data;
    /// `system`: text). The text is the reference's `ValueError` message.
    #[error("{0}")]
    RoleViolation(&'static str),
    /// `role` is not one of `user`, `assistant`, `system`.
    #[error("Input should be 'user', 'assistant' or 'system'")]
    InvalidRole,
    /// `content` is not a list, or a block in it is malformed or of an unknown type.
    #[error("{0}")]
    InvalidContent(String),
    /// Any other field of a message has the wrong shape (e.g. `name` missing).
    #[error("{0}")]
    InvalidMsg(String),
    /// An event does not parse as one of the 28 AgentScope events; the text names the
    /// offending field.
    #[error("{0}")]
    InvalidEvent(String),
    /// Input that is not JSON at all (or not the JSON value expected).
    #[error("{0}")]
    InvalidJson(String),
    /// A base64 payload that Python's non-validating `b64decode` rejects; the text is
    /// Python's `binascii.Error` message.
    #[error("{0}")]
    InvalidBase64(String),
    /// A URL that pydantic's `AnyUrl` (the WHATWG parser of the `url` crate) rejects.
    #[error("Input should be a valid URL, {0}")]
    InvalidUrl(String),
    /// A base64 `DATA_BLOCK_DELTA` arrived for a data block whose source is already a URL.
    /// The reference crashes here with `AttributeError`; this port refuses the event.
    #[error("data block {0:?} already has a URL source; a base64 delta cannot be appended to it")]
    Base64AfterUrl(String),
    /// A stream (CLI or replay) held no `REPLY_START` to open a message from.
    #[error("no REPLY_START in the stream and no initial message to apply events to")]
    NoReply,
    /// A stream whose framing cannot be told (neither SSE, JSON Lines nor a JSON array), or
    /// a malformed JSON array of events.
    #[error("{0}")]
    InvalidStream(String),
    /// A strict [`crate::Session`] refused an event the lenient one would skip or only
    /// warn about; the code is the [`Skip::code`] (`unknown_block`, `unknown_reply`,
    /// `after_end`, `duplicate_block`, `after_block_end`, `unknown_event_type`).
    #[error("{1}")]
    Strict(Skip, String),
    /// A checkpoint that [`crate::Session::restore`] cannot read.
    #[error("{0}")]
    InvalidCheckpoint(String),
    /// Input past a configured cap (`SessionOptions::max_frame_bytes`, the [`crate::Limits`]
    /// of a message, `SessionOptions::max_session_bytes`), or no memory left for it: the
    /// frame or event is dropped, nothing else changes.
    #[error("{0}")]
    LimitExceeded(String),
}

impl MsgError {
    /// The stable code of this error: `role_violation`, `invalid_role`, `invalid_content`,
    /// `invalid_msg`, `invalid_event`, `invalid_json`, `invalid_base64`, `invalid_url`,
    /// `base64_after_url`, `no_reply`, `invalid_stream`, `invalid_checkpoint`,
    /// `limit_exceeded`, or for a
    /// strict session's refusal the [`Skip::code`].
    pub fn code(&self) -> &'static str {
        match self {
            MsgError::RoleViolation(_) => "role_violation",
            MsgError::InvalidRole => "invalid_role",
            MsgError::InvalidContent(_) => "invalid_content",
            MsgError::InvalidMsg(_) => "invalid_msg",
            MsgError::InvalidEvent(_) => "invalid_event",
            MsgError::InvalidJson(_) => "invalid_json",
            MsgError::InvalidBase64(_) => "invalid_base64",
            MsgError::InvalidUrl(_) => "invalid_url",
            MsgError::Base64AfterUrl(_) => "base64_after_url",
            MsgError::NoReply => "no_reply",
            MsgError::InvalidStream(_) => "invalid_stream",
            MsgError::Strict(skip, _) => skip.code(),
            MsgError::InvalidCheckpoint(_) => "invalid_checkpoint",
            MsgError::LimitExceeded(_) => "limit_exceeded",
        }
    }
}
