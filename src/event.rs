//! The 28 AgentScope 2.0 events (REFERENCE.md §3) and their wire-JSON decoder.
//!
//! Every event's wire JSON starts with the `EventBase` keys `id`, `created_at`,
//! `metadata`, then `type`, then the event's own fields in declaration order. Missing
//! `id` / `created_at` / `metadata` and defaulted fields are filled on parse.

use std::borrow::Cow;

use crate::json::{Map, Value};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::block::{BlockKind, PermissionRule, TextOrBlocks, ToolCallBlock, ToolResultBlock, ToolResultState};
use crate::delta::Delta;
use crate::error::MsgError;
use crate::factory::{generate_id, generate_timestamp};
use crate::lax::{LaxBool, LaxInt};
use crate::object::{Model, Object, deserialize_model, json_error, without_position};
use crate::reply::{ErrorInfo, ReplyFinishedReason, Role};

mod fast;
mod hot;

#[cfg_attr(not(feature = "wasm"), allow(unused_imports))]
pub(crate) use hot::{DeltaKind, HotDelta};

/// Why a model call ended: `completed` or `interrupted` (`FinishedReason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum FinishedReason {
    /// The call finished.
    #[default]
    Completed,
    /// The call was interrupted.
    Interrupted,
}

crate::enums::wire_enum!(FinishedReason { Completed = "completed", Interrupted = "interrupted" });

/// The user's answer to one tool call of a `REQUIRE_USER_CONFIRM`. Wire: `{confirmed,
/// tool_call, rules}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ConfirmResult {
    /// Whether the call may run (read in pydantic's lax mode: `1`, `"yes"`, …).
    pub confirmed: bool,
    /// The tool call answered (only its `id` is used by the reducer).
    #[serde(serialize_with = "crate::block::tagged_tool_call")]
    pub tool_call: ToolCallBlock,
    /// Rules the user chose to remember, or null.
    #[serde(default)]
    pub rules: Option<Vec<PermissionRule>>,
}

/// `confirmed` is read in pydantic's lax mode ([`crate::lax`]).
impl Model for ConfirmResult {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(ConfirmResult {
            confirmed: object.required::<LaxBool>("confirmed")?.0,
            tool_call: object.required("tool_call")?,
            rules: object.or("rules", Option::default)?,
        })
    }
}

deserialize_model!(ConfirmResult);

macro_rules! count {
    () => { 0usize };
    ($head:ident $($tail:ident)*) => { 1usize + count!($($tail)*) };
}

/// `take!(error, tag, raw, field, Type)` reads a required field of a [`RawEvent`];
/// `take!(error, tag, raw, field, Type, default)` one with a default. See [`read`].
macro_rules! take {
    ($error:ident, $tag:expr, $raw:ident, $field:ident, $fty:ty) => {
        read::<$fty>(&mut $error, $tag, $raw.$field, stringify!($field), None)
    };
    ($error:ident, $tag:expr, $raw:ident, $field:ident, $fty:ty, $default:expr) => {
        read::<$fty>(&mut $error, $tag, $raw.$field, stringify!($field), Some(|| $default))
    };
}

/// The type a field is read as: its own, or (`as LaxInt`) one that reads it in pydantic's
/// lax mode and converts into it.
macro_rules! parse_as {
    ($fty:ty) => {
        $fty
    };
    ($fty:ty, $parse:ty) => {
        $parse
    };
}

/// A field's wire form: as is; (`=> values`) a free-form object with Python's float
/// notation; or (`=> tagged`) a list of blocks each tagged with its `type`, as the
/// reference writes blocks nested in events.
macro_rules! wire {
    ($value:expr) => {
        $value
    };
    ($value:expr, values) => {
        &$value
    };
    ($value:expr, tagged) => {
        crate::block::TaggedList(&$value)
    };
}

macro_rules! events {
    ($(
        $(#[$doc:meta])*
        $variant:ident($name:ident) = $tag:literal {
            $( $(#[$fattr:meta])* $([$default:expr])? $field:ident : $fty:ty $(as $parse:ty)? $(=> $how:ident)? ),* $(,)?
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq)]
            #[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
            pub struct $name {
                /// Event id (generated when absent).
                #[cfg_attr(feature = "wasm", serde(default))]
                pub id: String,
                /// When the event was made (ISO 8601 string, not validated; now when absent).
                #[cfg_attr(feature = "wasm", serde(default))]
                pub created_at: String,
                /// Free-form metadata (key order kept; `{}` when absent).
                #[cfg_attr(feature = "wasm", serde(default), tsify(type = "Record<string, unknown>"))]
                pub metadata: Map<String, Value>,
                $(
                    $(#[$fattr])*
                    $(
                        #[doc = concat!("\n\nDefault when absent: `", stringify!($default), "`.")]
                        #[cfg_attr(feature = "wasm", serde(default))]
                    )?
                    pub $field: $fty,
                )*
            }

            impl $name {
                // Every field is read in order, the first error kept (see `read`): the
                // event is built whole and dropped whole on an error, with no early return
                // between fields (each would need its own drop code: 26 KB of the .wasm).
                fn from_raw(raw: RawEvent<'_>) -> Result<$name, MsgError> {
                    let mut error = None;
                    let event = $name {
                        id: take!(error, $tag, raw, id, String, generate_id()),
                        created_at: take!(error, $tag, raw, created_at, String, generate_timestamp()),
                        metadata: take!(error, $tag, raw, metadata, Map<String, Value>, Map::new()),
                        $( $field: take!(error, $tag, raw, $field, parse_as!($fty $(, $parse)?) $(, $default)?).into(), )*
                    };
                    match error {
                        None => Ok(event),
                        Some(error) => Err(error),
                    }
                }
            }

            impl Serialize for $name {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    let mut s = serializer.serialize_struct($tag, 4 + count!($($field)*))?;
                    s.serialize_field("id", &self.id)?;
                    s.serialize_field("created_at", &self.created_at)?;
                    s.serialize_field("metadata", &self.metadata)?;
                    s.serialize_field("type", $tag)?;
                    $( s.serialize_field(stringify!($field), &wire!(self.$field $(, $how)?))?; )*
                    s.end()
                }
            }

            impl From<$name> for AgentEvent {
                fn from(event: $name) -> AgentEvent {
                    AgentEvent::$variant(event)
                }
            }
        )*

        /// One of the 28 AgentScope events (`AgentEvent`), tagged by `type`. Serialises to
        /// the wire JSON of its variant.
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "wasm", derive(tsify::Tsify), serde(tag = "type"))]
        pub enum AgentEvent {
            $( $(#[$doc])* #[cfg_attr(feature = "wasm", serde(rename = $tag))] $variant($name), )*
        }

        /// The `type` of an event; its wire string is `as_str()` (e.g. `TEXT_BLOCK_DELTA`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum EventType {
            $( $(#[$doc])* $variant, )*
        }

        impl EventType {
            /// All 28 event types.
            pub const ALL: [EventType; count!($($variant)*)] = [$(EventType::$variant),*];

            /// The wire string, e.g. `TEXT_BLOCK_DELTA`.
            pub fn as_str(self) -> &'static str {
                match self { $( EventType::$variant => $tag, )* }
            }

            /// The event type named by a wire string.
            pub fn parse(s: &str) -> Option<EventType> {
                match s { $( $tag => Some(EventType::$variant), )* _ => None }
            }
        }

        impl AgentEvent {
    /// The block a delta event grows: its type and id (a tool call's or result's
    /// `tool_call_id`); `None` for any other event.
    pub(crate) fn delta_block(&self) -> Option<(BlockKind, &str)> {
        Some(match self {
            AgentEvent::TextBlockDelta(e) => (BlockKind::Text, &e.block_id),
            AgentEvent::ThinkingBlockDelta(e) => (BlockKind::Thinking, &e.block_id),
            AgentEvent::DataBlockDelta(e) => (BlockKind::Data, &e.block_id),
            AgentEvent::ToolCallDelta(e) => (BlockKind::ToolCall, &e.tool_call_id),
            AgentEvent::ToolResultTextDelta(e) => (BlockKind::ToolResult, &e.tool_call_id),
            AgentEvent::ToolResultDataDelta(e) => (BlockKind::ToolResult, &e.tool_call_id),
            _ => return None,
        })
    }

            /// The event's `type`.
            pub fn event_type(&self) -> EventType {
                match self { $( AgentEvent::$variant(_) => EventType::$variant, )* }
            }

            /// The event's `id`.
            pub fn id(&self) -> &str {
                match self { $( AgentEvent::$variant(e) => &e.id, )* }
            }

            /// The event's `created_at`.
            pub fn created_at(&self) -> &str {
                match self { $( AgentEvent::$variant(e) => &e.created_at, )* }
            }

            /// The keys of an event type's own fields (not `id`, `created_at`, `metadata`).
            fn fields_of(event_type: EventType) -> &'static [&'static str] {
                match event_type {
                    $( EventType::$variant => &[$(stringify!($field)),*], )*
                }
            }

            fn from_raw(event_type: EventType, raw: RawEvent<'_>) -> Result<AgentEvent, MsgError> {
                match event_type {
                    $( EventType::$variant => $name::from_raw(raw).map(AgentEvent::$variant), )*
                }
            }
        }

        impl Serialize for AgentEvent {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self { $( AgentEvent::$variant(e) => e.serialize(serializer), )* }
            }
        }
    };
}

events! {
    /// `REPLY_START`: a reply begins (or continues, after a confirmation).
    ReplyStart(ReplyStartEvent) = "REPLY_START" {
        /// The chat session.
        session_id: String,
        /// The reply (= message id).
        reply_id: String,
        /// Speaker name.
        name: String,
        /// Speaker role (default `assistant`).
        [Role::Assistant] role: Role,
    }
    /// `REPLY_END`: the reply ended.
    ReplyEnd(ReplyEndEvent) = "REPLY_END" {
        /// The chat session.
        session_id: String,
        /// The reply.
        reply_id: String,
        /// Why it ended (default `completed`).
        [Default::default()] finished_reason: ReplyFinishedReason,
        /// The error, or null.
        [Default::default()] error: Option<ErrorInfo>,
    }
    /// `MODEL_CALL_START`: a model call begins.
    ModelCallStart(ModelCallStartEvent) = "MODEL_CALL_START" {
        /// The reply.
        reply_id: String,
        /// The model.
        model_name: String,
    }
    /// `MODEL_CALL_END`: a model call ended, with its token usage.
    ModelCallEnd(ModelCallEndEvent) = "MODEL_CALL_END" {
        /// The reply.
        reply_id: String,
        /// Prompt tokens.
        #[cfg_attr(feature = "wasm", tsify(type = "number"))]
        input_tokens: i128 as LaxInt,
        /// Completion tokens.
        #[cfg_attr(feature = "wasm", tsify(type = "number"))]
        output_tokens: i128 as LaxInt,
        /// Cached prompt tokens read.
        #[cfg_attr(feature = "wasm", tsify(type = "number"))]
        [Default::default()] cache_input_tokens: i128 as LaxInt,
        /// Cached prompt tokens written.
        #[cfg_attr(feature = "wasm", tsify(type = "number"))]
        [Default::default()] cache_creation_input_tokens: i128 as LaxInt,
        /// Why the call ended (ignored by the reducer).
        [Default::default()] finished_reason: FinishedReason,
    }
    /// `TEXT_BLOCK_START`: a text block opens.
    TextBlockStart(TextBlockStartEvent) = "TEXT_BLOCK_START" {
        /// The reply.
        reply_id: String,
        /// The new block's id.
        block_id: String,
    }
    /// `TEXT_BLOCK_DELTA`: text appended to a block.
    TextBlockDelta(TextBlockDeltaEvent) = "TEXT_BLOCK_DELTA" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
        /// The text to append.
        #[cfg_attr(feature = "wasm", tsify(type = "string"))]
        delta: Delta,
    }
    /// `TEXT_BLOCK_END`: a text block closes, optionally with its final text.
    TextBlockEnd(TextBlockEndEvent) = "TEXT_BLOCK_END" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
        /// When not null, replaces the block's text.
        #[cfg_attr(feature = "wasm", tsify(type = "string | null"))]
        [Default::default()] text: Option<Delta>,
    }
    /// `DATA_BLOCK_START`: a data block opens with an empty base64 source.
    DataBlockStart(DataBlockStartEvent) = "DATA_BLOCK_START" {
        /// The reply.
        reply_id: String,
        /// The new block's id.
        block_id: String,
        /// MIME type.
        media_type: String,
        /// File name, or null.
        [Default::default()] name: Option<String>,
    }
    /// `DATA_BLOCK_DELTA`: a base64 chunk (`data`) or a URL (`url`); exactly one is set.
    DataBlockDelta(DataBlockDeltaEvent) = "DATA_BLOCK_DELTA" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
        /// MIME type (ignored for base64 chunks).
        media_type: String,
        /// A base64 chunk, or null.
        [Default::default()] data: Option<String>,
        /// A URL, or null.
        [Default::default()] url: Option<String>,
    }
    /// `DATA_BLOCK_END`: a data block closes.
    DataBlockEnd(DataBlockEndEvent) = "DATA_BLOCK_END" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
    }
    /// `THINKING_BLOCK_START`: a thinking block opens.
    ThinkingBlockStart(ThinkingBlockStartEvent) = "THINKING_BLOCK_START" {
        /// The reply.
        reply_id: String,
        /// The new block's id.
        block_id: String,
    }
    /// `THINKING_BLOCK_DELTA`: reasoning text appended to a block.
    ThinkingBlockDelta(ThinkingBlockDeltaEvent) = "THINKING_BLOCK_DELTA" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
        /// The text to append.
        #[cfg_attr(feature = "wasm", tsify(type = "string"))]
        delta: Delta,
    }
    /// `THINKING_BLOCK_END`: a thinking block closes.
    ThinkingBlockEnd(ThinkingBlockEndEvent) = "THINKING_BLOCK_END" {
        /// The reply.
        reply_id: String,
        /// The block.
        block_id: String,
    }
    /// `HINT_BLOCK`: a whole hint block.
    HintBlock(HintBlockEvent) = "HINT_BLOCK" {
        /// The reply.
        reply_id: String,
        /// The new block's id.
        block_id: String,
        /// Source label, or null.
        [Default::default()] source: Option<String>,
        /// The hint: a string or text/data blocks.
        hint: TextOrBlocks,
    }
    /// `TOOL_CALL_START`: a tool call opens with empty input.
    ToolCallStart(ToolCallStartEvent) = "TOOL_CALL_START" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The tool name.
        tool_call_name: String,
    }
    /// `TOOL_CALL_DELTA`: a piece of the call's raw JSON arguments.
    ToolCallDelta(ToolCallDeltaEvent) = "TOOL_CALL_DELTA" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The text to append to `input`.
        #[cfg_attr(feature = "wasm", tsify(type = "string"))]
        delta: Delta,
    }
    /// `TOOL_CALL_END`: the call's arguments are complete.
    ToolCallEnd(ToolCallEndEvent) = "TOOL_CALL_END" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
    }
    /// `TOOL_RESULT_START`: a running tool result opens with an empty output list.
    ToolResultStart(ToolResultStartEvent) = "TOOL_RESULT_START" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The tool name.
        tool_call_name: String,
    }
    /// `TOOL_RESULT_TEXT_DELTA`: text appended to a tool result's output.
    ToolResultTextDelta(ToolResultTextDeltaEvent) = "TOOL_RESULT_TEXT_DELTA" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The text to append.
        #[cfg_attr(feature = "wasm", tsify(type = "string"))]
        delta: Delta,
    }
    /// `TOOL_RESULT_DATA_DELTA`: a data chunk (`data`) or URL (`url`) for a tool result;
    /// exactly one is set.
    ToolResultDataDelta(ToolResultDataDeltaEvent) = "TOOL_RESULT_DATA_DELTA" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The data block's id (generated when absent).
        [generate_id()] block_id: String,
        /// MIME type.
        media_type: String,
        /// A base64 chunk, or null.
        [Default::default()] data: Option<String>,
        /// A URL, or null.
        [Default::default()] url: Option<String>,
    }
    /// `TOOL_RESULT_END`: a tool result is complete; the call becomes `finished`.
    ToolResultEnd(ToolResultEndEvent) = "TOOL_RESULT_END" {
        /// The reply.
        reply_id: String,
        /// The call id.
        tool_call_id: String,
        /// The result's final state.
        state: ToolResultState,
    }
    /// `EXCEED_MAX_ITERS` (deprecated): the agent hit its iteration limit.
    ExceedMaxIters(ExceedMaxItersEvent) = "EXCEED_MAX_ITERS" {
        /// The reply.
        reply_id: String,
        /// The agent name.
        name: String,
    }
    /// `REQUIRE_USER_CONFIRM`: these calls wait for the user's confirmation.
    RequireUserConfirm(RequireUserConfirmEvent) = "REQUIRE_USER_CONFIRM" {
        /// The reply.
        reply_id: String,
        /// The calls (matched by id; their `suggested_rules` are copied).
        tool_calls: Vec<ToolCallBlock> => tagged,
    }
    /// `REQUIRE_EXTERNAL_EXECUTION`: these calls are to be run by the client.
    RequireExternalExecution(RequireExternalExecutionEvent) = "REQUIRE_EXTERNAL_EXECUTION" {
        /// The reply.
        reply_id: String,
        /// The calls (matched by id).
        tool_calls: Vec<ToolCallBlock> => tagged,
    }
    /// `USER_CONFIRM_RESULT`: the user's answers.
    UserConfirmResult(UserConfirmResultEvent) = "USER_CONFIRM_RESULT" {
        /// The reply.
        reply_id: String,
        /// One answer per call.
        confirm_results: Vec<ConfirmResult>,
    }
    /// `USER_INTERRUPT`: the user interrupted the reply.
    UserInterrupt(UserInterruptEvent) = "USER_INTERRUPT" {
        /// The reply.
        reply_id: String,
    }
    /// `EXTERNAL_EXECUTION_RESULT`: results of externally executed calls.
    ExternalExecutionResult(ExternalExecutionResultEvent) = "EXTERNAL_EXECUTION_RESULT" {
        /// The reply.
        reply_id: String,
        /// The results, appended unless a result with the same id exists.
        execution_results: Vec<ToolResultBlock> => tagged,
    }
    /// `CUSTOM`: an application event; it has no `reply_id` and never changes a message.
    Custom(CustomEvent) = "CUSTOM" {
        /// The event name.
        name: String,
        /// Free-form payload.
        #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
        [Default::default()] value: Map<String, Value> => values,
    }
}

crate::raw::raw_object! {
    /// Every key any event may have, each kept as raw JSON text. One pass over the event's
    /// text fills it; each event type then converts only its own fields, so a key an event
    /// does not declare never makes it invalid (as in pydantic).
    RawEvent {
        "type" => event_type,
        "id" => id,
        "created_at" => created_at,
        "metadata" => metadata,
        "session_id" => session_id,
        "reply_id" => reply_id,
        "name" => name,
        "role" => role,
        "finished_reason" => finished_reason,
        "error" => error,
        "model_name" => model_name,
        "input_tokens" => input_tokens,
        "output_tokens" => output_tokens,
        "cache_input_tokens" => cache_input_tokens,
        "cache_creation_input_tokens" => cache_creation_input_tokens,
        "block_id" => block_id,
        "delta" => delta,
        "text" => text,
        "media_type" => media_type,
        "data" => data,
        "url" => url,
        "source" => source,
        "hint" => hint,
        "tool_call_id" => tool_call_id,
        "tool_call_name" => tool_call_name,
        "state" => state,
        "tool_calls" => tool_calls,
        "confirm_results" => confirm_results,
        "execution_results" => execution_results,
        "value" => value,
    }
}

/// Converts one raw field of an event. `null` is a value like any other: `None` for an
/// optional field, an error for any other (the reference never reads `null` as "use the
/// default"). An absent field takes its `default`; a required one (`default` is `None`) is
/// an error. The first error goes into `error`; once it is set, fields are no longer
/// converted and each takes `T::default()`, a placeholder dropped with the event (and
/// `default` is not called: it may make an id). Kept out of line: one copy per field type
/// instead of one per field.
#[inline(never)]
fn read<'a, T: Deserialize<'a> + Default>(
    error: &mut Option<MsgError>,
    tag: &str,
    raw: Option<&'a RawValue>,
    name: &str,
    default: Option<fn() -> T>,
) -> T {
    if error.is_some() {
        return T::default();
    }
    let result = match (raw, default) {
        (Some(raw), _) => serde_json::from_str(raw.get()).map_err(|e| field_error(tag, name, &e)),
        (None, Some(default)) => Ok(default()),
        (None, None) => Err(missing_field(tag, name)),
    };
    result.unwrap_or_else(|e| {
        *error = Some(e);
        T::default()
    })
}

// The error builders stay out of line: inlined into each of the ~90 field conversions
// they would take a large share of the .wasm.
#[inline(never)]
fn field_error(tag: &str, name: &str, e: &serde_json::Error) -> MsgError {
    // the position is within the field's own text: drop it
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let why = text.strip_suffix(&suffix).unwrap_or(&text);
    MsgError::InvalidEvent(format!("{tag}: field `{name}`: {why}"))
}

#[inline(never)]
fn missing_field(tag: &str, name: &str) -> MsgError {
    MsgError::InvalidEvent(format!("{tag}: missing field `{name}`"))
}

/// Reads an event as [`AgentEvent::from_json`] does (the same validation and defaults;
/// a refusal is serde's error with the text `"{code}: {message}"`, e.g.
/// `invalid_event: …`), from one of serde_json's deserialisers (`from_str`, `from_slice`,
/// `from_reader`, `from_value`; another format's deserialiser is refused, and so is
/// serde's buffered content, as for [`crate::Msg`]'s).
impl<'de> Deserialize<'de> for AgentEvent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<AgentEvent, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        AgentEvent::from_json(raw.get()).map_err(|e| serde::de::Error::custom(format!("{}: {e}", e.code())))
    }
}

impl AgentEvent {
    /// Parses one event from wire JSON (what the service publishes per SSE frame or JSON
    /// Lines line), like `TypeAdapter(AgentEvent).validate_python(json.loads(s))`.
    /// Missing `id` / `created_at` / `metadata` and defaulted fields are filled (the
    /// factories of [`crate::factory`]); keys an event does not declare are ignored.
    ///
    /// Text deltas may hold lone UTF-16 surrogate escapes (see [`crate::delta`]).
    ///
    /// Errors: `invalid_json` when `json` is not JSON; `invalid_event` when it is not one
    /// of the 28 events (unknown `type`, missing or mistyped field — the message names
    /// it — or not exactly one of `data` / `url`).
    pub fn from_json(json: &str) -> Result<AgentEvent, MsgError> {
        match decode(json)? {
            Decoded::Event { event, .. } => Ok(event),
            Decoded::UnknownType { tag, .. } => Err(MsgError::InvalidEvent(format!("unknown event type {tag:?}"))),
        }
    }

    /// Parses one event from a JSON value (see [`AgentEvent::from_json`]): a
    /// [`crate::json::Value`], a `serde_json::Value` or anything else that serialises to
    /// an event's JSON.
    pub fn from_value<T: Serialize + ?Sized>(value: &T) -> Result<AgentEvent, MsgError> {
        AgentEvent::from_json(&crate::wire::to_string(value))
    }

    /// Compact wire JSON.
    pub fn to_json(&self) -> String {
        crate::wire::to_string(self)
    }

    /// The bytes of UTF-8 a delta event adds, which [`crate::Limits::max_delta_bytes`]
    /// counts: the `delta` of `TEXT_BLOCK_DELTA`, `THINKING_BLOCK_DELTA`, `TOOL_CALL_DELTA`
    /// and `TOOL_RESULT_TEXT_DELTA`; the `data` plus the `url` of `DATA_BLOCK_DELTA` and
    /// `TOOL_RESULT_DATA_DELTA`. `None` for any other event.
    pub fn delta_bytes(&self) -> Option<usize> {
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        Some(match self {
            AgentEvent::TextBlockDelta(e) => e.delta.as_str().len(),
            AgentEvent::ThinkingBlockDelta(e) => e.delta.as_str().len(),
            AgentEvent::ToolCallDelta(e) => e.delta.as_str().len(),
            AgentEvent::ToolResultTextDelta(e) => e.delta.as_str().len(),
            AgentEvent::DataBlockDelta(e) => len(&e.data) + len(&e.url),
            AgentEvent::ToolResultDataDelta(e) => len(&e.data) + len(&e.url),
            _ => return None,
        })
    }

    /// The `reply_id`, or `None` for `CUSTOM`.
    pub fn reply_id(&self) -> Option<&str> {
        Some(match self {
            AgentEvent::Custom(_) => return None,
            AgentEvent::ReplyStart(e) => &e.reply_id,
            AgentEvent::ReplyEnd(e) => &e.reply_id,
            AgentEvent::ModelCallStart(e) => &e.reply_id,
            AgentEvent::ModelCallEnd(e) => &e.reply_id,
            AgentEvent::TextBlockStart(e) => &e.reply_id,
            AgentEvent::TextBlockDelta(e) => &e.reply_id,
            AgentEvent::TextBlockEnd(e) => &e.reply_id,
            AgentEvent::DataBlockStart(e) => &e.reply_id,
            AgentEvent::DataBlockDelta(e) => &e.reply_id,
            AgentEvent::DataBlockEnd(e) => &e.reply_id,
            AgentEvent::ThinkingBlockStart(e) => &e.reply_id,
            AgentEvent::ThinkingBlockDelta(e) => &e.reply_id,
            AgentEvent::ThinkingBlockEnd(e) => &e.reply_id,
            AgentEvent::HintBlock(e) => &e.reply_id,
            AgentEvent::ToolCallStart(e) => &e.reply_id,
            AgentEvent::ToolCallDelta(e) => &e.reply_id,
            AgentEvent::ToolCallEnd(e) => &e.reply_id,
            AgentEvent::ToolResultStart(e) => &e.reply_id,
            AgentEvent::ToolResultTextDelta(e) => &e.reply_id,
            AgentEvent::ToolResultDataDelta(e) => &e.reply_id,
            AgentEvent::ToolResultEnd(e) => &e.reply_id,
            AgentEvent::ExceedMaxIters(e) => &e.reply_id,
            AgentEvent::RequireUserConfirm(e) => &e.reply_id,
            AgentEvent::RequireExternalExecution(e) => &e.reply_id,
            AgentEvent::UserConfirmResult(e) => &e.reply_id,
            AgentEvent::UserInterrupt(e) => &e.reply_id,
            AgentEvent::ExternalExecutionResult(e) => &e.reply_id,
        })
    }
}

/// What [`decode`] read: an event (and whether its `id` was on the wire, or made up), or
/// an event of a type this crate does not know (a newer server's additive event).
// a value returned once per event and matched at once: boxing the event would add an
// allocation per event for nothing
#[allow(clippy::large_enum_variant)]
pub(crate) enum Decoded {
    Event {
        event: AgentEvent,
        had_id: bool,
    },
    UnknownType {
        tag: String,
        id: Option<String>,
        reply_id: Option<String>,
    },
}

/// [`AgentEvent::from_json`], telling an absent `id` and an unknown `type` apart (what a
/// [`crate::Session`] needs for deduplication and for skipping unknown types).
pub(crate) fn decode(json: &str) -> Result<Decoded, MsgError> {
    match fast::decode(json) {
        Some(decoded) => Ok(decoded),
        None => decode_full(json),
    }
}

/// The full decoder (every event type, every error); [`decode`] tries [`fast::decode`]
/// first.
fn decode_full(json: &str) -> Result<Decoded, MsgError> {
    let raw: RawEvent = serde_json::from_str(json).map_err(|e| {
        if let Some(text) = json_error(json, &e) {
            MsgError::InvalidJson(text)
        } else {
            MsgError::InvalidEvent(format!(
                "an event must be a JSON object with a string `type`: {}",
                without_position(&e)
            ))
        }
    })?;
    let Some(tag) = raw.event_type else {
        let had_id = raw.id.is_some();
        return pick_event(raw).map(|event| Decoded::Event { event, had_id });
    };
    let tag = serde_json::from_str::<Cow<'_, str>>(tag.get())
        .map_err(|e| MsgError::InvalidEvent(format!("an event must be a JSON object with a string `type`: {e}")))?;
    let tag = tag.as_ref();
    let Some(event_type) = EventType::parse(tag) else {
        let text = |raw: Option<&RawValue>| raw.and_then(|r| serde_json::from_str::<String>(r.get()).ok());
        return Ok(Decoded::UnknownType {
            tag: tag.to_owned(),
            id: text(raw.id),
            reply_id: text(raw.reply_id),
        });
    };
    let had_id = raw.id.is_some();
    // fields in declaration order first: a bad `id` is reported before a nested block's
    // wrong `type`, as the reference lists them
    let event = AgentEvent::from_raw(event_type, raw)?;
    check_nested_tags(tag, &raw)?;
    check_one_source(&event)?;
    Ok(Decoded::Event { event, had_id })
}

/// An event without a `type` key, read as pydantic's smart union reads it: among the 28
/// types that validate, the one with the most of its own fields given; the first in
/// declaration order on a tie (`{reply_id, block_id, delta}` is a `TEXT_BLOCK_DELTA`).
fn pick_event(raw: RawEvent<'_>) -> Result<AgentEvent, MsgError> {
    let mut best: Option<(usize, AgentEvent)> = None;
    for event_type in EventType::ALL {
        let given = AgentEvent::fields_of(event_type).iter().filter(|f| raw.has(f)).count();
        if best.as_ref().is_some_and(|(n, _)| *n >= given) {
            continue;
        }
        let Ok(event) = AgentEvent::from_raw(event_type, raw) else {
            continue;
        };
        if check_nested_tags(event_type.as_str(), &raw).is_ok() && check_one_source(&event).is_ok() {
            best = Some((given, event));
        }
    }
    best.map(|(_, event)| event)
        .ok_or_else(|| MsgError::InvalidEvent("missing field `type`, and no event type fits the fields given".into()))
}

/// Blocks nested in events (`tool_calls`, `execution_results`, `confirm_results[].tool_call`)
/// may leave out their `type`, but when it is given it must be the block's own literal:
/// the reference rejects `"type": "text"` or `null` on a tool call there. (A key given
/// twice counts with its last value, as in Python's `json`.)
fn check_nested_tags(event_tag: &str, raw: &RawEvent<'_>) -> Result<(), MsgError> {
    let check = |object: &Object<'_>, want: &str, at: &str| match object.get("type") {
        Some(tag) if serde_json::from_str::<Cow<'_, str>>(tag.get()).ok().as_deref() != Some(want) => {
            Err(MsgError::InvalidEvent(format!(
                "{event_tag}: field `{at}`: `type` should be '{want}', got {}",
                tag.get()
            )))
        }
        _ => Ok(()),
    };
    // shapes that are not lists of objects are reported by the field conversion itself
    fn objects(raw: Option<&RawValue>) -> Vec<Object<'_>> {
        raw.and_then(|r| serde_json::from_str(r.get()).ok()).unwrap_or_default()
    }
    for object in objects(raw.tool_calls) {
        check(&object, "tool_call", "tool_calls")?;
    }
    for object in objects(raw.execution_results) {
        check(&object, "tool_result", "execution_results")?;
    }
    for object in objects(raw.confirm_results) {
        let call = object
            .get("tool_call")
            .and_then(|c| serde_json::from_str::<Object>(c.get()).ok());
        if let Some(call) = call {
            check(&call, "tool_call", "confirm_results.tool_call")?;
        }
    }
    Ok(())
}

/// `DATA_BLOCK_DELTA` / `TOOL_RESULT_DATA_DELTA`: exactly one of `data` and `url`.
fn check_one_source(event: &AgentEvent) -> Result<(), MsgError> {
    let (tag, data, url) = match event {
        AgentEvent::DataBlockDelta(e) => ("DATA_BLOCK_DELTA", &e.data, &e.url),
        AgentEvent::ToolResultDataDelta(e) => ("TOOL_RESULT_DATA_DELTA", &e.data, &e.url),
        _ => return Ok(()),
    };
    if data.is_some() == url.is_some() {
        return Err(MsgError::InvalidEvent(format!(
            "{tag}: Exactly one of `data` or `url` must be provided."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(json: &str) -> String {
        match AgentEvent::from_json(json) {
            Err(MsgError::InvalidEvent(why)) => why,
            other => panic!("expected invalid_event, got {other:?}"),
        }
    }

    const CALL: &str = r#""id": "c", "name": "t", "input": "{}""#;

    #[test]
    fn nested_blocks_keep_their_own_type() {
        let event =
            |calls: &str| format!(r#"{{"type": "REQUIRE_USER_CONFIRM", "reply_id": "r", "tool_calls": [{calls}]}}"#);
        // absent or right: accepted
        assert!(AgentEvent::from_json(&event(&format!("{{{CALL}}}"))).is_ok());
        assert!(AgentEvent::from_json(&event(&format!(r#"{{"type": "tool_call", {CALL}}}"#))).is_ok());
        // an escaped spelling of the right literal is the right literal
        assert!(AgentEvent::from_json(&event(&format!(r#"{{"type": "tool\u005fcall", {CALL}}}"#))).is_ok());
        // wrong, null, or not a string: refused, naming the field and the value as given
        assert_eq!(
            error_of(&event(&format!(r#"{{{CALL}}}, {{"type": "text", {CALL}}}"#))),
            r#"REQUIRE_USER_CONFIRM: field `tool_calls`: `type` should be 'tool_call', got "text""#
        );
        assert_eq!(
            error_of(&event(&format!(r#"{{"type": null, {CALL}}}"#))),
            "REQUIRE_USER_CONFIRM: field `tool_calls`: `type` should be 'tool_call', got null"
        );
        // a key given twice counts with its last value
        assert!(AgentEvent::from_json(&event(&format!(r#"{{"type": "text", "type": "tool_call", {CALL}}}"#))).is_ok());
        assert!(
            error_of(&event(&format!(r#"{{"type": "tool_call", "type": "text", {CALL}}}"#))).contains("got \"text\"")
        );
    }

    #[test]
    fn fields_before_the_nested_blocks_are_reported_first() {
        let calls = r#""tool_calls": [{"type": "text", "id": "c", "name": "n", "input": "{}"}]"#;
        assert_eq!(
            error_of(&format!(
                r#"{{"type": "REQUIRE_USER_CONFIRM", "id": 3, "reply_id": "r", {calls}}}"#
            )),
            "REQUIRE_USER_CONFIRM: field `id`: invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            error_of(&format!(
                r#"{{"type": "REQUIRE_USER_CONFIRM", "reply_id": 3, {calls}}}"#
            )),
            "REQUIRE_USER_CONFIRM: field `reply_id`: invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            error_of(&format!(
                r#"{{"type": "REQUIRE_USER_CONFIRM", "reply_id": "r", {calls}}}"#
            )),
            r#"REQUIRE_USER_CONFIRM: field `tool_calls`: `type` should be 'tool_call', got "text""#
        );
    }

    #[test]
    fn nested_results_and_confirmed_calls_are_checked_too() {
        let results = r#"{"type": "EXTERNAL_EXECUTION_RESULT", "reply_id": "r", "execution_results": [{"type": "tool_call", "id": "c", "name": "t", "output": "x", "state": "success"}]}"#;
        assert_eq!(
            error_of(results),
            r#"EXTERNAL_EXECUTION_RESULT: field `execution_results`: `type` should be 'tool_result', got "tool_call""#
        );
        let confirm = |tag: &str| {
            format!(
                r#"{{"type": "USER_CONFIRM_RESULT", "reply_id": "r", "confirm_results": [{{"confirmed": true, "tool_call": {{{tag}{CALL}}}}}]}}"#
            )
        };
        assert!(AgentEvent::from_json(&confirm("")).is_ok());
        assert!(AgentEvent::from_json(&confirm(r#""type": "tool_call", "#)).is_ok());
        assert_eq!(
            error_of(&confirm(r#""type": "data", "#)),
            r#"USER_CONFIRM_RESULT: field `confirm_results.tool_call`: `type` should be 'tool_call', got "data""#
        );
    }
}
