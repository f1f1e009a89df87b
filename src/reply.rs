//! What a reply says of itself besides its blocks, shared by the message ([`crate::Msg`])
//! and the events that build it: who speaks ([`Role`]), its token [`Usage`], why it ended
//! ([`ReplyFinishedReason`]) and with what error ([`ErrorInfo`], [`ErrorType`])
//! (REFERENCE.md §2).

use serde::Serialize;

use crate::lax::LaxInt;
use crate::object::{Model, Object, deserialize_model};

/// Who speaks: `user`, `assistant` or `system`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A person; content may hold text and data blocks only.
    User,
    /// The agent; content may hold any block.
    #[default]
    Assistant,
    /// A system prompt; content may hold text blocks only.
    System,
}

crate::enums::wire_enum!(Role { User = "user", Assistant = "assistant", System = "system" });

impl Role {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Role> {
        [Role::User, Role::Assistant, Role::System]
            .into_iter()
            .find(|r| r.as_str() == s)
    }
}

/// Token usage, summed over the model calls of a reply. Wire: `{input_tokens,
/// output_tokens, cache_input_tokens, cache_creation_input_tokens}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Usage {
    /// Prompt tokens.
    #[cfg_attr(feature = "wasm", tsify(type = "number"))]
    pub input_tokens: i128,
    /// Completion tokens.
    #[cfg_attr(feature = "wasm", tsify(type = "number"))]
    pub output_tokens: i128,
    /// Prompt tokens read from the provider's cache.
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "number"))]
    pub cache_input_tokens: i128,
    /// Prompt tokens written to the provider's cache.
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "number"))]
    pub cache_creation_input_tokens: i128,
}

/// Why a reply ended: `completed`, `interrupted`, `exceed_max_iters`, `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum ReplyFinishedReason {
    /// The agent finished normally.
    #[default]
    Completed,
    /// The user interrupted the reply.
    Interrupted,
    /// The agent hit its iteration limit.
    ExceedMaxIters,
    /// The reply failed; see `Msg.error`.
    Error,
}

crate::enums::wire_enum!(ReplyFinishedReason { Completed = "completed", Interrupted = "interrupted", ExceedMaxIters = "exceed_max_iters", Error = "error" });

/// Category of a reply error: `authentication`, `permission`, `rate_limit`,
/// `invalid_request`, `upstream`, `connection`, `internal`, `setup`, `unknown`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ErrorType {
    Authentication,
    Permission,
    RateLimit,
    InvalidRequest,
    Upstream,
    Connection,
    Internal,
    Setup,
    #[default]
    Unknown,
}

crate::enums::wire_enum!(ErrorType { Authentication = "authentication", Permission = "permission", RateLimit = "rate_limit", InvalidRequest = "invalid_request", Upstream = "upstream", Connection = "connection", Internal = "internal", Setup = "setup", Unknown = "unknown" });

/// The error a reply ended with. Wire: `{type, message}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ErrorInfo {
    /// The category (default `unknown`).
    #[serde(rename = "type", default)]
    pub error_type: ErrorType,
    /// Human-readable text.
    pub message: String,
}

/// Token counts are read in pydantic's lax mode ([`crate::lax`]).
impl Model for Usage {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(Usage {
            input_tokens: object.required::<LaxInt>("input_tokens")?.0,
            output_tokens: object.required::<LaxInt>("output_tokens")?.0,
            cache_input_tokens: object.or("cache_input_tokens", LaxInt::default)?.0,
            cache_creation_input_tokens: object.or("cache_creation_input_tokens", LaxInt::default)?.0,
        })
    }
}

impl Model for ErrorInfo {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(ErrorInfo {
            error_type: object.or("type", ErrorType::default)?,
            message: object.required("message")?,
        })
    }
}

deserialize_model!(Usage, ErrorInfo);
