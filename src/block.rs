//! The six content blocks and their enums (REFERENCE.md §1).
//!
//! Wire JSON: every declared key present (nulls too), in the reference's declaration
//! order, tagged by `type`. Missing `id` / `created_at` are filled from the factories
//! ([`crate::factory`]) when a block is parsed, as pydantic's `default_factory` does.

use crate::json::{Map, Value};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::factory::{generate_id, generate_timestamp};
use crate::object::{Member, Model, Object, deserialize_model, deserialize_tagged, without_position};
use crate::source::DataSource;

fn now_some() -> Option<String> {
    Some(generate_timestamp())
}

/// The `type` of a content block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    /// `text`
    Text,
    /// `thinking`
    Thinking,
    /// `data`
    Data,
    /// `hint`
    Hint,
    /// `tool_call`
    ToolCall,
    /// `tool_result`
    ToolResult,
}

crate::enums::wire_enum!(BlockKind { Text = "text", Thinking = "thinking", Data = "data", Hint = "hint", ToolCall = "tool_call", ToolResult = "tool_result" });

impl BlockKind {
    /// All six kinds, in the order of `ContentBlockTypes`.
    pub const ALL: [BlockKind; 6] = [
        BlockKind::Text,
        BlockKind::Thinking,
        BlockKind::Hint,
        BlockKind::ToolCall,
        BlockKind::ToolResult,
        BlockKind::Data,
    ];

    /// The wire string: `text`, `thinking`, `data`, `hint`, `tool_call`, `tool_result`.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Thinking => "thinking",
            BlockKind::Data => "data",
            BlockKind::Hint => "hint",
            BlockKind::ToolCall => "tool_call",
            BlockKind::ToolResult => "tool_result",
        }
    }

    /// The kind named by a wire string, if any.
    pub fn parse(s: &str) -> Option<BlockKind> {
        BlockKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A block of text. Wire: `{type: "text", text, id, created_at, finished_at}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct TextBlock {
    /// The text.
    pub text: String,
    /// Block id (generated when absent).
    #[serde(default = "generate_id")]
    pub id: String,
    /// When the block was created (ISO 8601 string, not validated).
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When streaming of the block ended, or null.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// A high surrogate held at the end of `text` (see [`crate::delta`]).
    #[serde(skip)]
    pub(crate) pending: Option<u16>,
}

impl TextBlock {
    /// A text block with a generated id and `created_at = now`.
    pub fn new(text: impl Into<String>) -> TextBlock {
        TextBlock::with_id(generate_id(), text)
    }

    /// A text block with the given id and `created_at = now`.
    pub fn with_id(id: impl Into<String>, text: impl Into<String>) -> TextBlock {
        TextBlock {
            text: text.into(),
            id: id.into(),
            created_at: generate_timestamp(),
            finished_at: None,
            pending: None,
        }
    }
}

/// Model reasoning. Wire: `{type: "thinking", thinking, id, created_at, finished_at,
/// ...extras}`; unknown keys (e.g. Anthropic `signature`) are kept after the declared
/// ones (`extra="allow"`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ThinkingBlock {
    /// The reasoning text.
    pub thinking: String,
    /// Block id (generated when absent).
    #[serde(default = "generate_id")]
    pub id: String,
    /// When the block was created.
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When streaming of the block ended, or null.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// Extra keys, in input order.
    #[serde(flatten)]
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
    pub extra: Map<String, Value>,
    #[serde(skip)]
    pub(crate) pending: Option<u16>,
}

/// `extra="allow"`: the declared keys are read as in every block; every other key but
/// `type` (a declared literal in the reference) goes to `extra` in input order (a key
/// given twice keeps its first place and its last value, as in a Python `dict`).
impl Model for ThinkingBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        let declared = ["type", "thinking", "id", "created_at", "finished_at"];
        let mut extra = Map::new();
        for (key, value) in &object.0 {
            if !declared.contains(&key.as_ref()) {
                let value: Value = serde_json::from_str(value.get()).map_err(|e| without_position(&e))?;
                extra.insert(key.clone().into_owned(), value);
            }
        }
        Ok(ThinkingBlock {
            thinking: object.required("thinking")?,
            id: object.or("id", generate_id)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", Option::default)?,
            extra,
            pending: None,
        })
    }
}

impl Model for TextBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(TextBlock {
            text: object.required("text")?,
            id: object.or("id", generate_id)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", Option::default)?,
            pending: None,
        })
    }
}

impl Model for DataBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(DataBlock {
            id: object.or("id", generate_id)?,
            source: object.required("source")?,
            name: object.or("name", Option::default)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", Option::default)?,
        })
    }
}

impl Model for HintBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(HintBlock {
            hint: object.required("hint")?,
            id: object.or("id", generate_id)?,
            source: object.or("source", Option::default)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", now_some)?,
        })
    }
}

impl Model for PermissionRule {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(PermissionRule {
            tool_name: object.required("tool_name")?,
            rule_content: object.required("rule_content")?,
            behavior: object.required("behavior")?,
            source: object.required("source")?,
        })
    }
}

impl Model for ToolCallBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(ToolCallBlock {
            id: object.required("id")?,
            name: object.required("name")?,
            input: object.required("input")?,
            state: object.or("state", ToolCallState::default)?,
            suggested_rules: object.or("suggested_rules", Vec::new)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", Option::default)?,
            pending: None,
        })
    }
}

impl Model for ToolResultBlock {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(ToolResultBlock {
            id: object.required("id")?,
            name: object.required("name")?,
            output: object.required("output")?,
            state: object.or("state", ToolResultState::default)?,
            metadata: object.or("metadata", Map::new)?,
            created_at: object.or("created_at", generate_timestamp)?,
            finished_at: object.or("finished_at", Option::default)?,
        })
    }
}

deserialize_model!(
    TextBlock,
    ThinkingBlock,
    DataBlock,
    HintBlock,
    PermissionRule,
    ToolCallBlock,
    ToolResultBlock
);

impl ThinkingBlock {
    /// A thinking block with the given id, `created_at = now`, no extras.
    pub fn with_id(id: impl Into<String>, thinking: impl Into<String>) -> ThinkingBlock {
        ThinkingBlock {
            thinking: thinking.into(),
            id: id.into(),
            created_at: generate_timestamp(),
            finished_at: None,
            extra: Map::new(),
            pending: None,
        }
    }
}

/// Binary data (image, audio, file). Wire: `{type: "data", id, source, name, created_at,
/// finished_at}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct DataBlock {
    /// Block id (generated when absent).
    #[serde(default = "generate_id")]
    pub id: String,
    /// Inline base64 or a URL.
    pub source: DataSource,
    /// Optional file name.
    #[serde(default)]
    pub name: Option<String>,
    /// When the block was created.
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When streaming of the block ended, or null.
    #[serde(default)]
    pub finished_at: Option<String>,
}

impl DataBlock {
    /// A data block with the given id, source and name, `created_at = now`.
    pub fn with_id(id: impl Into<String>, source: DataSource, name: Option<String>) -> DataBlock {
        DataBlock {
            id: id.into(),
            source,
            name,
            created_at: generate_timestamp(),
            finished_at: None,
        }
    }
}

/// A text or data block: the items of a hint list and of a tool result's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(tag = "type")]
pub enum TextOrData {
    /// `{type: "text", ...}`
    #[serde(rename = "text")]
    Text(TextBlock),
    /// `{type: "data", ...}`
    #[serde(rename = "data")]
    Data(DataBlock),
}

/// A string or a list of text / data blocks (`HintBlock.hint`, `ToolResultBlock.output`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(untagged)]
pub enum TextOrBlocks {
    /// A plain string.
    Text(String),
    /// A list of blocks.
    Blocks(Vec<TextOrData>),
}

/// An empty string.
impl Default for TextOrBlocks {
    fn default() -> TextOrBlocks {
        TextOrBlocks::Text(String::new())
    }
}

/// A hint for the model (e.g. a system reminder). Wire: `{type: "hint", hint, id, source,
/// created_at, finished_at}`; `finished_at` defaults to now, not null.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct HintBlock {
    /// The hint: a string or text/data blocks.
    pub hint: TextOrBlocks,
    /// Block id (generated when absent).
    #[serde(default = "generate_id")]
    pub id: String,
    /// Free-form source label, or null.
    #[serde(default)]
    pub source: Option<String>,
    /// When the block was created.
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When the block was finished (defaults to now).
    #[serde(default = "now_some")]
    pub finished_at: Option<String>,
}

/// State of a tool call: `pending`, `asking`, `allowed`, `submitted`, `finished`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum ToolCallState {
    /// Not yet decided.
    #[default]
    Pending,
    /// Waiting for the user's confirmation.
    Asking,
    /// Allowed to run.
    Allowed,
    /// Submitted for external execution.
    Submitted,
    /// Done (ran, denied or invalid).
    Finished,
}

crate::enums::wire_enum!(ToolCallState { Pending = "pending", Asking = "asking", Allowed = "allowed", Submitted = "submitted", Finished = "finished" });

/// State of a tool result: `success`, `error`, `interrupted`, `denied`, `running`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum ToolResultState {
    /// Finished successfully.
    Success,
    /// Failed.
    Error,
    /// Interrupted by the user.
    Interrupted,
    /// Denied by the user or a rule.
    Denied,
    /// Still running.
    #[default]
    Running,
}

crate::enums::wire_enum!(ToolResultState { Success = "success", Error = "error", Interrupted = "interrupted", Denied = "denied", Running = "running" });

/// What a permission rule does: `allow`, `deny`, `ask`, `passthrough`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum PermissionBehavior {
    /// Allow the call.
    Allow,
    /// Deny the call.
    Deny,
    /// Ask the user.
    Ask,
    /// Leave the decision to the next rule.
    Passthrough,
}

crate::enums::wire_enum!(PermissionBehavior { Allow = "allow", Deny = "deny", Ask = "ask", Passthrough = "passthrough" });

/// A permission rule suggested with a tool call. Wire: `{tool_name, rule_content,
/// behavior, source}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct PermissionRule {
    /// The tool the rule applies to.
    pub tool_name: String,
    /// The rule's pattern, or null. Required, though it may be null, as in the reference.
    pub rule_content: Option<String>,
    /// What the rule does.
    pub behavior: PermissionBehavior,
    /// Where the rule comes from.
    pub source: String,
}

/// A tool call. Wire: `{type: "tool_call", id, name, input, state, suggested_rules,
/// created_at, finished_at}`; `input` is the raw JSON string of the arguments, never
/// parsed here (it may be truncated JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ToolCallBlock {
    /// The tool call id (required).
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments as a raw JSON string.
    pub input: String,
    /// The call's state.
    #[serde(default)]
    pub state: ToolCallState,
    /// Rules suggested when asking the user.
    #[serde(default)]
    pub suggested_rules: Vec<PermissionRule>,
    /// When the block was created.
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When streaming of the arguments ended, or null.
    #[serde(default)]
    pub finished_at: Option<String>,
    #[serde(skip)]
    pub(crate) pending: Option<u16>,
}

impl ToolCallBlock {
    /// A pending tool call with the given id, name and input, `created_at = now`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, input: impl Into<String>) -> ToolCallBlock {
        ToolCallBlock {
            id: id.into(),
            name: name.into(),
            input: input.into(),
            state: ToolCallState::Pending,
            suggested_rules: Vec::new(),
            created_at: generate_timestamp(),
            finished_at: None,
            pending: None,
        }
    }
}

/// A tool result. Wire: `{type: "tool_result", id, name, output, state, metadata,
/// created_at, finished_at}`; `id` is the tool call's id.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ToolResultBlock {
    /// The id of the tool call this answers (required).
    pub id: String,
    /// The tool name.
    pub name: String,
    /// A string, or text/data blocks.
    pub output: TextOrBlocks,
    /// The result's state.
    #[serde(default)]
    pub state: ToolResultState,
    /// Free-form metadata (key order kept).
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
    pub metadata: Map<String, Value>,
    /// When the block was created.
    #[serde(default = "generate_timestamp")]
    pub created_at: String,
    /// When the result was finished, or null.
    #[serde(default)]
    pub finished_at: Option<String>,
}

impl ToolResultBlock {
    /// A running result with an empty output list, `created_at = now`.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> ToolResultBlock {
        ToolResultBlock {
            id: id.into(),
            name: name.into(),
            output: TextOrBlocks::Blocks(Vec::new()),
            state: ToolResultState::Running,
            metadata: Map::new(),
            created_at: generate_timestamp(),
            finished_at: None,
        }
    }
}

/// One block of a message's `content`, tagged by `type` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(tag = "type")]
pub enum ContentBlock {
    /// `text`
    #[serde(rename = "text")]
    Text(TextBlock),
    /// `thinking`
    #[serde(rename = "thinking")]
    Thinking(ThinkingBlock),
    /// `data`
    #[serde(rename = "data")]
    Data(DataBlock),
    /// `hint`
    #[serde(rename = "hint")]
    Hint(HintBlock),
    /// `tool_call`
    #[serde(rename = "tool_call")]
    ToolCall(ToolCallBlock),
    /// `tool_result`
    #[serde(rename = "tool_result")]
    ToolResult(ToolResultBlock),
}

impl ContentBlock {
    /// The block's `type`.
    pub fn kind(&self) -> BlockKind {
        match self {
            ContentBlock::Text(_) => BlockKind::Text,
            ContentBlock::Thinking(_) => BlockKind::Thinking,
            ContentBlock::Data(_) => BlockKind::Data,
            ContentBlock::Hint(_) => BlockKind::Hint,
            ContentBlock::ToolCall(_) => BlockKind::ToolCall,
            ContentBlock::ToolResult(_) => BlockKind::ToolResult,
        }
    }

    /// The block's `id`.
    pub fn id(&self) -> &str {
        match self {
            ContentBlock::Text(b) => &b.id,
            ContentBlock::Thinking(b) => &b.id,
            ContentBlock::Data(b) => &b.id,
            ContentBlock::Hint(b) => &b.id,
            ContentBlock::ToolCall(b) => &b.id,
            ContentBlock::ToolResult(b) => &b.id,
        }
    }
}

const TEXT: Member = ("text", &["text", "id", "created_at", "finished_at"]);
const DATA: Member = ("data", &["id", "source*", "name", "created_at", "finished_at"]);

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const MEMBERS: [Member; 6] = [
            TEXT,
            ("thinking", &["thinking", "id", "created_at", "finished_at"]),
            ("hint", &["hint", "id", "source", "created_at", "finished_at"]),
            (
                "tool_call",
                &[
                    "id",
                    "name",
                    "input",
                    "state",
                    "suggested_rules",
                    "created_at",
                    "finished_at",
                ],
            ),
            (
                "tool_result",
                &["id", "name", "output", "state", "metadata", "created_at", "finished_at"],
            ),
            DATA,
        ];
        deserialize_tagged(
            deserializer,
            "one of 'text', 'thinking', 'data', 'hint', 'tool_call', 'tool_result'",
            &MEMBERS,
            |kind, object| {
                Some(match kind {
                    "text" => TextBlock::from_object(object).map(ContentBlock::Text),
                    "thinking" => ThinkingBlock::from_object(object).map(ContentBlock::Thinking),
                    "data" => DataBlock::from_object(object).map(ContentBlock::Data),
                    "hint" => HintBlock::from_object(object).map(ContentBlock::Hint),
                    "tool_call" => ToolCallBlock::from_object(object).map(ContentBlock::ToolCall),
                    "tool_result" => ToolResultBlock::from_object(object).map(ContentBlock::ToolResult),
                    _ => return None,
                })
            },
        )
    }
}

impl<'de> Deserialize<'de> for TextOrData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_tagged(deserializer, "'text' or 'data'", &[TEXT, DATA], |kind, object| {
            Some(match kind {
                "text" => TextBlock::from_object(object).map(TextOrData::Text),
                "data" => DataBlock::from_object(object).map(TextOrData::Data),
                _ => return None,
            })
        })
    }
}

impl<'de> Deserialize<'de> for TextOrBlocks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let json = raw.get();
        let result = if json.starts_with('"') {
            serde_json::from_str(json).map(TextOrBlocks::Text)
        } else {
            serde_json::from_str(json).map(TextOrBlocks::Blocks)
        };
        result.map_err(|e| {
            D::Error::custom(format!(
                "a string or a list of text/data blocks: {}",
                without_position(&e)
            ))
        })
    }
}

/// Blocks written on their own (nested in an event, outside a message's `content`) with
/// their `type` tag first, as the reference writes every block: each is written as the
/// [`ContentBlock`] it would be (a copy, so that no second serialiser is compiled in).
pub(crate) struct TaggedList<'a, T>(pub &'a Vec<T>);

impl<T: Clone + Into<ContentBlock>> Serialize for TaggedList<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|block| block.clone().into()))
    }
}

impl From<ToolCallBlock> for ContentBlock {
    fn from(block: ToolCallBlock) -> ContentBlock {
        ContentBlock::ToolCall(block)
    }
}

impl From<ToolResultBlock> for ContentBlock {
    fn from(block: ToolResultBlock) -> ContentBlock {
        ContentBlock::ToolResult(block)
    }
}

/// `serialize_with` for a tool call nested in an event.
pub(crate) fn tagged_tool_call<S: serde::Serializer>(block: &ToolCallBlock, serializer: S) -> Result<S::Ok, S::Error> {
    ContentBlock::ToolCall(block.clone()).serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thinking(json: &str) -> Result<ThinkingBlock, String> {
        serde_json::from_str::<ThinkingBlock>(json).map_err(|e| without_position(&e))
    }

    #[test]
    fn thinking_keeps_unknown_keys_in_input_order() {
        let block = thinking(r#"{"z": 1, "thinking": "a", "signature": "s", "id": "i", "created_at": "t", "finished_at": null, "a": {"b": [1, 2.5]}, "z": 2}"#).unwrap();
        assert_eq!(
            (block.thinking.as_str(), block.id.as_str(), block.created_at.as_str()),
            ("a", "i", "t")
        );
        assert_eq!(block.finished_at, None);
        // a key given twice keeps its first place and its last value
        assert_eq!(
            serde_json::to_string(&block.extra).unwrap(),
            r#"{"z":2,"signature":"s","a":{"b":[1,2.5]}}"#
        );
        assert_eq!(
            serde_json::to_string(&ContentBlock::Thinking(block)).unwrap(),
            r#"{"type":"thinking","thinking":"a","id":"i","created_at":"t","finished_at":null,"z":2,"signature":"s","a":{"b":[1,2.5]}}"#
        );
    }

    #[test]
    fn thinking_fills_defaults_and_refuses_bad_fields() {
        let block = thinking(r#"{"thinking": "a"}"#).unwrap();
        assert!(!block.id.is_empty()); // made up
        assert!(!block.created_at.is_empty());
        assert!(block.extra.is_empty());
        assert_eq!(thinking(r#"{"id": "i"}"#).unwrap_err(), "missing field `thinking`");
        // a key given twice counts with its last value, as in Python's `json`
        assert_eq!(thinking(r#"{"thinking": "a", "thinking": "b"}"#).unwrap().thinking, "b");
        assert_eq!(
            thinking(r#"{"thinking": 5}"#).unwrap_err(),
            "invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            thinking(r#"{"thinking": "a", "id": null}"#).unwrap_err(),
            "invalid type: null, expected a string"
        );
        assert_eq!(
            thinking(r#"{"thinking": "a", "finished_at": 7}"#).unwrap_err(),
            "invalid type: integer `7`, expected a string"
        );
    }

    fn block(json: &str) -> Result<ContentBlock, String> {
        serde_json::from_str::<ContentBlock>(json).map_err(|e| without_position(&e))
    }

    #[test]
    fn blocks_are_json_objects_read_as_pydantic_reads_them() {
        // a list is not a model (serde alone would read `["text"]` as a text block)
        for json in [r#"["text"]"#, r#"["hi", "i", "t", null]"#, r#""text""#, "null"] {
            assert!(block(json).unwrap_err().contains("expected a JSON object"), "{json}");
        }
        let source = r#"{"type": "data", "id": "d", "source": ["base64", "aGk=", "image/png"]}"#;
        assert!(block(source).unwrap_err().contains("expected a JSON object"));
        // every block and source: a key given twice counts with its last value
        let ContentBlock::Text(text) = block(r#"{"type": "text", "text": "a", "id": "i", "text": "b"}"#).unwrap()
        else {
            panic!("a text block")
        };
        assert_eq!((text.text.as_str(), text.id.as_str()), ("b", "i"));
        let data =
            r#"{"type": "data", "source": {"type": "url", "url": "x", "media_type": "a", "url": "https://e.com"}}"#;
        let ContentBlock::Data(data) = block(data).unwrap() else {
            panic!("a data block")
        };
        assert_eq!(
            data.source,
            DataSource::Url(crate::source::URLSource::new("https://e.com/", "a").unwrap())
        );
        // fields in declaration order: the first error is the first declared field's
        assert_eq!(
            block(r#"{"type": "tool_call", "input": 1, "name": 2, "id": "c"}"#).unwrap_err(),
            "invalid type: integer `2`, expected a string"
        );
        assert_eq!(
            block(r#"{"type": "tool_call", "name": "n", "input": "{}"}"#).unwrap_err(),
            "missing field `id`"
        );
        // `type` is declared: never one of a thinking block's extra keys
        let ContentBlock::Thinking(thinking) = block(r#"{"type": "thinking", "thinking": "t", "s": 1}"#).unwrap()
        else {
            panic!("a thinking block")
        };
        assert_eq!(serde_json::to_string(&thinking.extra).unwrap(), r#"{"s":1}"#);
    }

    #[test]
    fn a_nested_source_counts_its_own_fields_once() {
        // five fields of a tool result against a data block's id + source (url, media_type)
        // + name: a tie, which the first member in declaration order wins (the reference
        // picks the tool result); an unknown or repeated key of the source does not count
        for source in [
            r#"{"url": "https://e.com", "media_type": "m", "zzz": 1}"#,
            r#"{"url": "https://e.com", "media_type": "m", "url": "https://e.com"}"#,
        ] {
            let json = format!(
                r#"{{"id": "c1", "name": "n", "output": "o", "state": "success", "metadata": {{}}, "source": {source}}}"#
            );
            assert_eq!(block(&json).unwrap().kind(), BlockKind::ToolResult, "{json}");
        }
        let data = r#"{"id": "d", "name": "n", "source": {"url": "https://e.com", "media_type": "m"}}"#;
        assert_eq!(block(data).unwrap().kind(), BlockKind::Data);
    }
}

/// Where the streamed string a [`crate::snapshot::SnapshotReader::read_tail`] marked is in its block
/// (the text a delta appends to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TailAt {
    /// `text` of a text block.
    Text,
    /// `thinking` of a thinking block.
    Thinking,
    /// `input` of a tool call.
    Input,
    /// `output[j].text` of a tool result (its last output block).
    Output(usize),
}

impl ContentBlock {
    /// The streamed string of a block (where a text delta appends: `text`, `thinking`, a
    /// tool call's `input`, the text of a tool result's last output item) and where it is;
    /// `None` for a block without one (a data or hint block, a tool result whose last output
    /// is not text).
    pub(crate) fn streamed(&self) -> Option<(TailAt, &str)> {
        Some(match self {
            ContentBlock::Text(b) => (TailAt::Text, &b.text),
            ContentBlock::Thinking(b) => (TailAt::Thinking, &b.thinking),
            ContentBlock::ToolCall(b) => (TailAt::Input, &b.input),
            ContentBlock::ToolResult(b) => match &b.output {
                TextOrBlocks::Blocks(items) => match items.last() {
                    Some(TextOrData::Text(t)) => (TailAt::Output(items.len() - 1), &t.text),
                    _ => return None,
                },
                TextOrBlocks::Text(_) => return None,
            },
            ContentBlock::Data(_) | ContentBlock::Hint(_) => return None,
        })
    }

    /// [`ContentBlock::streamed`], to grow it.
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn streamed_mut(&mut self) -> Option<&mut String> {
        Some(match self {
            ContentBlock::Text(b) => &mut b.text,
            ContentBlock::Thinking(b) => &mut b.thinking,
            ContentBlock::ToolCall(b) => &mut b.input,
            ContentBlock::ToolResult(b) => match &mut b.output {
                TextOrBlocks::Blocks(items) => match items.last_mut() {
                    Some(TextOrData::Text(t)) => &mut t.text,
                    _ => return None,
                },
                TextOrBlocks::Text(_) => return None,
            },
            ContentBlock::Data(_) | ContentBlock::Hint(_) => return None,
        })
    }
}
