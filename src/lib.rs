//! # agentscope-message
//!
//! The AgentScope 2.0 message model and its streaming-event reducer: [`Msg`], the six
//! content blocks, the 28 events ([`AgentEvent`]) and [`Msg::append_event`], faithful to
//! the reference implementation (agentscope 2.0.11, `agentscope.message` /
//! `agentscope.event`) and its wire JSON.
//!
//! ```
//! use agentscope_message::{AgentEvent, Msg, MsgOptions, assistant_msg};
//!
//! let mut msg = assistant_msg("Friday", vec![], MsgOptions {
//!     id: Some("reply-1".into()),
//!     ..MsgOptions::default()
//! })?;
//! for line in [
//!     r#"{"type": "TEXT_BLOCK_START", "reply_id": "reply-1", "block_id": "t1"}"#,
//!     r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply-1", "block_id": "t1", "delta": "Hello"}"#,
//!     r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply-1", "block_id": "t1", "delta": ", world"}"#,
//! ] {
//!     msg.append_event(&AgentEvent::from_json(line)?)?;
//! }
//! assert_eq!(msg.get_text_content("\n").as_deref(), Some("Hello, world"));
//! # Ok::<(), agentscope_message::MsgError>(())
//! ```
//!
//! [`Session`] owns a whole stream: raw bytes in (SSE, JSON Lines or a JSON array, split
//! anywhere), reply messages out, with diagnostics for what it skipped.
//! [`Session::feed_updates`] tells what became of each event ([`Update`]: a reply started,
//! ended with its finished message, an event skipped or refused); with the `stream`
//! feature, `UpdateStream` does so over any async byte stream (a reqwest or hyper body).
//!
//! The crate is plain Rust: no I/O, no JavaScript. Ids and timestamps
//! come from injectable factories ([`set_id_factory`], [`set_timestamp_factory`]).

#![deny(missing_docs)]

mod block;
pub mod delta;
mod enums;
mod error;
mod event;
pub mod factory;
pub mod json;
mod lax;
mod limits;
mod matching;
mod msg;
mod object;
mod outcome;
mod raw;
mod recency;
mod reduce;
mod reply;
pub mod session;
pub mod snapshot;
mod source;
#[cfg(feature = "stream")]
pub mod stream;
#[cfg(test)]
mod tests;
mod url;
#[cfg(feature = "wasm")]
mod wasm;
pub mod wire;

pub use block::{
    BlockKind, ContentBlock, DataBlock, HintBlock, PermissionBehavior, PermissionRule, TextBlock, TextOrBlocks,
    TextOrData, ThinkingBlock, ToolCallBlock, ToolCallState, ToolResultBlock, ToolResultState,
};
pub use delta::Delta;
pub use error::MsgError;
pub use event::*;
pub use factory::{generate_id, generate_timestamp, set_id_factory, set_timestamp_factory};
pub use limits::{
    DEFAULT_MAX_BLOCK_BYTES, DEFAULT_MAX_BLOCKS, DEFAULT_MAX_DELTA_BYTES, DEFAULT_MAX_MESSAGE_BYTES, Limits,
};
pub use matching::{BlockMatch, Matching, ToolCallMatch};
pub use msg::{Msg, MsgContent, MsgOptions, assistant_msg, parse_content, system_msg, user_msg, validate_role};
pub use outcome::{Outcome, Skip};
pub use reply::{ErrorInfo, ErrorType, ReplyFinishedReason, Role, Usage};
pub use session::framing::{Frame, Framer, Framing};
pub use session::{
    DEFAULT_MAX_SESSION_BYTES, Diagnostic, KeptEvent, Session, SessionError, SessionOptions, UnstartedCall, Update,
    UpdateKind,
};
pub use source::{Base64Source, DataSource, URLSource, b64decode};
#[cfg(feature = "stream")]
pub use stream::UpdateStream;
pub use url::{UrlHostToAscii, normalize_url, set_url_host_to_ascii, url_host_to_ascii};
