//! `Msg`, role validation, the factories and the query helpers (REFERENCE.md §2, §5, §6).
//! The fields a message shares with events (`Role`, `Usage`, `ErrorInfo` …) are
//! [`crate::reply`]'s.

use std::collections::HashMap;

use crate::json::{Map, Value};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::block::{BlockKind, ContentBlock, TextBlock, TextOrBlocks, TextOrData};
use crate::error::MsgError;
use crate::event::AgentEvent;
use crate::factory::{generate_id, generate_timestamp};
use crate::limits::{self, Limits};
use crate::matching::Matching;
use crate::object::{Model, Object, deserialize_model, json_error, without_position};
use crate::recency::Recency;
use crate::reply::{ErrorInfo, ReplyFinishedReason, Role, Usage};
use crate::source::DataSource;

/// A chat message: `{name, content, role, id, metadata, created_at, usage, finished_at,
/// finished_reason, structured_output, error}` on the wire, in that order.
///
/// `content` is reached through [`Msg::content`] / [`Msg::content_mut`] so that the
/// message can keep an index of its blocks by `(type, id)`: a streamed delta finds its
/// block in O(1) instead of scanning the list (the reference scans; the first match wins
/// in both).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Msg {
    /// Speaker name.
    pub name: String,
    content: Vec<ContentBlock>,
    /// Speaker role.
    pub role: Role,
    /// Message id (the `reply_id` of the events that build it).
    pub id: String,
    /// Free-form metadata (key order kept).
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
    pub metadata: Map<String, Value>,
    /// Creation time.
    pub created_at: String,
    /// Summed token usage, or null.
    pub usage: Option<Usage>,
    /// When the reply ended, or null.
    pub finished_at: Option<String>,
    /// Why the reply ended, or null.
    pub finished_reason: Option<ReplyFinishedReason>,
    /// Structured output of the reply, or null.
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown> | null"))]
    pub structured_output: Option<Map<String, Value>>,
    /// The error the reply ended with, or null.
    pub error: Option<ErrorInfo>,
    #[serde(skip)]
    index: BlockIndex,
    #[serde(skip)]
    revisions: Revisions,
    /// the blocks in the order they last changed (see [`Msg::changed_blocks`])
    #[serde(skip)]
    recent: Recency,
    #[serde(skip)]
    limits: Limits,
    /// what the message and each block took in (see [`Limits`]); counted when first
    /// needed, and again after `content_mut`
    #[serde(skip)]
    sizes: Option<Sizes>,
    /// the room its session leaves the message (`SessionOptions::max_session_bytes`)
    #[serde(skip)]
    pub(crate) session_room: Option<usize>,
    /// per tool result (by block position), its base64 data items by id (see
    /// [`Msg::tool_data_item`])
    #[serde(skip)]
    data_items: HashMap<usize, ItemIndex>,
}

/// The first position of each base64 data item id in a tool result's output, over
/// `items[..indexed]` (items are only ever appended).
#[derive(Debug, Clone, Default)]
struct ItemIndex {
    first: HashMap<String, usize>,
    indexed: usize,
}

/// What a message and each of its blocks took in, in bytes (see [`Limits`]).
#[derive(Debug, Clone, Default)]
struct Sizes {
    total: usize,
    blocks: Vec<usize>,
}

/// A streamed string before a delta ([`Msg::tail_mark`]).
#[cfg_attr(not(feature = "wasm"), allow(dead_code))]
pub(crate) struct TailMark {
    /// The block's position.
    pub(crate) block: usize,
    /// Where its streamed string is.
    pub(crate) at: crate::block::TailAt,
    len: usize,
    revision: u64,
}

/// What [`Msg::admit`] let in: the event's bytes and the block it grows.
pub(crate) struct Admitted {
    bytes: usize,
    target: Option<usize>,
    len_before: usize,
    /// the tool calls a confirmation gives suggested rules, and their size
    rules: Vec<(usize, usize)>,
}

/// First and last index of each `(type, id)`, over `content[..indexed]`; extended lazily.
#[derive(Debug, Clone, Default)]
struct BlockIndex {
    positions: HashMap<String, [[u32; 2]; 6]>,
    indexed: usize,
    /// the entry of the id looked up last, while no block was indexed since (the deltas
    /// of a stream name one block after another: most lookups skip the hash)
    last_id: String,
    last: Option<([[u32; 2]; 6], usize)>,
}

/// Change counters: the message's, the one each block last changed at, and the one each
/// block last changed at other than by its streamed text growing at the end.
#[derive(Debug, Clone, Default)]
struct Revisions {
    msg: u64,
    blocks: Vec<u64>,
    rewritten: Vec<u64>,
}

const NONE: u32 = u32::MAX;

fn slot(kind: BlockKind) -> usize {
    match kind {
        BlockKind::Text => 0,
        BlockKind::Thinking => 1,
        BlockKind::Data => 2,
        BlockKind::Hint => 3,
        BlockKind::ToolCall => 4,
        BlockKind::ToolResult => 5,
    }
}

impl PartialEq for Msg {
    fn eq(&self, other: &Msg) -> bool {
        self.name == other.name
            && self.content == other.content
            && self.role == other.role
            && self.id == other.id
            && self.metadata == other.metadata
            && self.created_at == other.created_at
            && self.usage == other.usage
            && self.finished_at == other.finished_at
            && self.finished_reason == other.finished_reason
            && self.structured_output == other.structured_output
            && self.error == other.error
    }
}

/// The content given to a factory: a string (one new [`TextBlock`]) or blocks.
#[derive(Debug, Clone)]
pub enum MsgContent {
    /// Becomes `[TextBlock(text)]` with a generated id.
    Text(String),
    /// Used as is.
    Blocks(Vec<ContentBlock>),
}

impl From<&str> for MsgContent {
    fn from(s: &str) -> MsgContent {
        MsgContent::Text(s.to_owned())
    }
}
impl From<String> for MsgContent {
    fn from(s: String) -> MsgContent {
        MsgContent::Text(s)
    }
}
impl From<Vec<ContentBlock>> for MsgContent {
    fn from(blocks: Vec<ContentBlock>) -> MsgContent {
        MsgContent::Blocks(blocks)
    }
}

/// Reads a message as [`Msg::from_json`] does (the same validation; a refusal is serde's
/// error with the text `"{code}: {message}"`, e.g. `role_violation: …`), from one of
/// serde_json's deserialisers (`from_str`, `from_slice`, `from_reader`, `from_value`; it
/// reads the message's JSON text, so another format's deserialiser is refused, and so is
/// serde's buffered content, inside `#[serde(flatten)]` or an internally tagged or
/// untagged enum: read such a field as a `serde_json::Value` and call
/// [`Msg::from_value`]). So a `#[derive(Deserialize)] struct Row { msg: Msg }`, a
/// `Vec<Msg>` or axum's `Json<Msg>` works.
impl<'de> Deserialize<'de> for Msg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Msg, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        Msg::from_json(raw.get()).map_err(|e| serde::de::Error::custom(format!("{}: {e}", e.code())))
    }
}

/// How deep [`Msg::to_value`] reads the message's own text (a bound on its recursion).
const TO_VALUE_DEPTH: usize = 1000;

/// Optional fields of the factories ([`user_msg`], [`assistant_msg`], [`system_msg`]).
/// An empty `id` or `created_at` means "generate", as in the reference (`id or ...`).
/// Deserialises from the factories' keyword arguments as JSON (unknown keys ignored).
#[derive(Debug, Clone, Default)]
pub struct MsgOptions {
    /// Message id; generated when `None` or empty.
    pub id: Option<String>,
    /// Metadata; `{}` when `None`.
    pub metadata: Option<Map<String, Value>>,
    /// Creation time; now when `None` or empty.
    pub created_at: Option<String>,
    /// End time; for user and system messages it defaults to `created_at`.
    pub finished_at: Option<String>,
    /// Why the reply ended.
    pub finished_reason: Option<ReplyFinishedReason>,
    /// Structured output (assistant messages).
    pub structured_output: Option<Map<String, Value>>,
    /// Token usage (assistant messages).
    pub usage: Option<Usage>,
}

/// Every key is optional; `null` is `None`.
impl Model for MsgOptions {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(MsgOptions {
            id: object.or("id", Option::default)?,
            metadata: object.or("metadata", Option::default)?,
            created_at: object.or("created_at", Option::default)?,
            finished_at: object.or("finished_at", Option::default)?,
            finished_reason: object.or("finished_reason", Option::default)?,
            structured_output: object.or("structured_output", Option::default)?,
            usage: object.or("usage", Option::default)?,
        })
    }
}

deserialize_model!(MsgOptions);

/// `UserMsg(name, content, ...)`: a `user` message; `finished_at` defaults to
/// `created_at`. Errors: [`MsgError::RoleViolation`] for blocks other than text/data.
pub fn user_msg(name: impl Into<String>, content: impl Into<MsgContent>, options: MsgOptions) -> Result<Msg, MsgError> {
    let options = MsgOptions {
        structured_output: None,
        usage: None,
        ..options
    };
    build(name.into(), Role::User, content.into(), options)
}

/// `AssistantMsg(name, content, ...)`: an `assistant` message; `finished_at` stays null
/// unless given. The reference service opens a streamed reply with
/// `assistant_msg(name, vec![], MsgOptions { id: Some(reply_id), .. })`.
pub fn assistant_msg(
    name: impl Into<String>,
    content: impl Into<MsgContent>,
    options: MsgOptions,
) -> Result<Msg, MsgError> {
    build(name.into(), Role::Assistant, content.into(), options)
}

/// `SystemMsg(name, content, ...)`: a `system` message; `finished_at` defaults to
/// `created_at`. Errors: [`MsgError::RoleViolation`] for blocks other than text.
pub fn system_msg(
    name: impl Into<String>,
    content: impl Into<MsgContent>,
    options: MsgOptions,
) -> Result<Msg, MsgError> {
    let options = MsgOptions {
        structured_output: None,
        usage: None,
        ..options
    };
    build(name.into(), Role::System, content.into(), options)
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.is_empty())
}

fn build(name: String, role: Role, content: MsgContent, o: MsgOptions) -> Result<Msg, MsgError> {
    let content = match content {
        MsgContent::Text(text) => vec![ContentBlock::Text(TextBlock::new(text))],
        MsgContent::Blocks(blocks) => blocks,
    };
    let id = non_empty(o.id).unwrap_or_else(generate_id);
    let created_at = non_empty(o.created_at).unwrap_or_else(generate_timestamp);
    let finished_at = match (role, o.finished_at) {
        (Role::Assistant, f) => f,
        (_, None) => Some(created_at.clone()),
        (_, f) => f,
    };
    validate_role(role, &content)?;
    let mut msg = Msg::with_parts(name, role, content, id, created_at);
    msg.metadata = o.metadata.unwrap_or_default();
    msg.finished_at = finished_at;
    msg.finished_reason = o.finished_reason;
    msg.structured_output = o.structured_output;
    msg.usage = o.usage;
    Ok(msg)
}

/// Checks the role rules of the reference's `model_validator` (REFERENCE.md §2).
pub fn validate_role(role: Role, content: &[ContentBlock]) -> Result<(), MsgError> {
    let allowed: &[BlockKind] = match role {
        Role::User => &[BlockKind::Text, BlockKind::Data],
        Role::System => &[BlockKind::Text],
        Role::Assistant => return Ok(()),
    };
    if content.iter().all(|b| allowed.contains(&b.kind())) {
        return Ok(());
    }
    Err(MsgError::RoleViolation(match role {
        Role::User => "User message can only contain text blocks or data blocks.",
        _ => "System message can only contain text blocks.",
    }))
}

impl Msg {
    /// A message with a generated id, `created_at = now`, empty metadata and null
    /// optional fields (the pydantic constructor `Msg(name=, content=, role=)`).
    ///
    /// Errors: [`MsgError::RoleViolation`] when `content` breaks the role rules.
    pub fn new(name: impl Into<String>, role: Role, content: Vec<ContentBlock>) -> Result<Msg, MsgError> {
        validate_role(role, &content)?;
        Ok(Msg::with_parts(
            name.into(),
            role,
            content,
            generate_id(),
            generate_timestamp(),
        ))
    }

    fn with_parts(name: String, role: Role, content: Vec<ContentBlock>, id: String, created_at: String) -> Msg {
        let blocks = vec![0; content.len()];
        let mut recent = Recency::default();
        if let Some(last) = content.len().checked_sub(1) {
            recent.touch(last, 0);
        }
        Msg {
            name,
            content,
            role,
            id,
            metadata: Map::new(),
            created_at,
            usage: None,
            finished_at: None,
            finished_reason: None,
            structured_output: None,
            error: None,
            index: BlockIndex::default(),
            revisions: Revisions {
                msg: 0,
                rewritten: blocks.clone(),
                blocks,
            },
            recent,
            limits: Limits::default(),
            sizes: None,
            session_room: None,
            data_items: HashMap::new(),
        }
    }

    /// The content blocks, in order.
    pub fn content(&self) -> &[ContentBlock] {
        &self.content
    }

    /// Mutable access to the content list. Like attribute assignment in the reference it
    /// skips role validation; it marks every block as changed and resets the block index.
    pub fn content_mut(&mut self) -> &mut Vec<ContentBlock> {
        self.index = BlockIndex::default();
        self.sizes = None;
        self.data_items.clear();
        self.recent.clear();
        self.revisions.msg += 1;
        self.revisions.blocks.clear();
        self.revisions.rewritten.clear();
        &mut self.content
    }

    /// The caps on what events may add to this message (see [`Limits`]).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Sets the caps on what events may add to this message from now on (what it holds
    /// already stays).
    pub fn set_limits(&mut self, limits: Limits) -> &mut Msg {
        self.limits = limits;
        self
    }

    /// What the message took in, in bytes: its wire JSON when it was made (or when its
    /// content last changed through [`Msg::content_mut`]) plus every event applied since
    /// (a delta its payload, any other event its wire JSON). [`Limits::max_message_bytes`]
    /// caps it.
    pub fn taken_bytes(&mut self) -> usize {
        self.sizes().total
    }

    fn sizes(&mut self) -> &mut Sizes {
        if self.sizes.is_none() {
            // the whole message: its name, id and metadata count too
            let total = limits::json_len(&*self);
            let blocks = limits::block_sizes(&self.content);
            self.sizes = Some(Sizes { total, blocks });
        }
        self.sizes.get_or_insert_with(Sizes::default)
    }

    /// Where a delta of the block of `kind` and `id` (found as the reducer finds it, the
    /// newest with `newest`) would append, for a binding to tell afterwards with
    /// [`Msg::appended_exactly`] whether the delta was appended as it is: the block, its
    /// streamed string and that string's length, and the message's revision. `None` for
    /// no such block, or one without a streamed string.
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn tail_mark(&mut self, kind: BlockKind, id: &str, newest: bool) -> Option<TailMark> {
        let i = self.find_block_at(kind, id, newest)?;
        let (at, text) = self.content[i].streamed()?;
        Some(TailMark {
            block: i,
            at,
            len: text.len(),
            revision: self.revision(),
        })
    }

    /// Whether the one change since `mark` was `delta` appended to the marked string (one
    /// revision, the same block and string, exactly `delta` more at its end).
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn appended_exactly(&self, mark: &TailMark, delta: &str) -> bool {
        self.revision() == mark.revision + 1
            && self
                .content
                .get(mark.block)
                .and_then(ContentBlock::streamed)
                .is_some_and(|(at, text)| {
                    at == mark.at && text.len() == mark.len + delta.len() && text.ends_with(delta)
                })
    }

    /// How many more UTF-8 bytes the streamed string of block `i` (see
    /// [`ContentBlock::streamed`]) can take, appended by deltas, with no cap refusing
    /// them and no allocation: the least of what `max_block_bytes`, `max_message_bytes`
    /// and the session's room leave and of the string's spare capacity (first grown, when
    /// it has less, by its length, at least 256 bytes and at most 64 KiB, as a growing
    /// string would; a failed allocation only leaves less room). The
    /// per-delta cap `max_delta_bytes` is not in it. 0 for a block without such a string.
    /// The wasm binding lets its host join deltas up to this room (`MsgHandle.deltaRoom`).
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    pub(crate) fn tail_room(&mut self, i: usize) -> usize {
        let l = self.limits;
        let room = self.session_room;
        let sizes = self.sizes();
        let (total, block) = (sizes.total, sizes.blocks.get(i).copied().unwrap_or(0));
        let left = |have: usize, max: usize| if max == 0 { usize::MAX } else { max.saturating_sub(have) };
        let mut caps = left(block, l.max_block_bytes).min(left(total, l.max_message_bytes));
        if let Some(room) = room {
            caps = caps.min(room.saturating_sub(total));
        }
        let Some(text) = self.content.get_mut(i).and_then(ContentBlock::streamed_mut) else {
            return 0;
        };
        // as a growing string would: up to its length again (256 bytes at least, 64 KiB at most)
        let grow = text.len().clamp(256, 64 << 10);
        let spare = text.capacity() - text.len();
        if spare < grow && caps > spare {
            let _ = text.try_reserve(grow.min(caps));
        }
        caps.min(text.capacity() - text.len())
    }

    /// Checks `event` against the caps before it is applied (`limit_exceeded`, nothing
    /// changed); for the text a delta grows, makes room first, so that memory running out
    /// is that error too rather than a trap.
    pub(crate) fn admit(&mut self, event: &AgentEvent, matching: Matching) -> Result<Admitted, MsgError> {
        let l = self.limits;
        let payload = event.delta_bytes();
        if let Some(p) = payload {
            limits::check(0, p, l.max_delta_bytes, "a delta", "max_delta_bytes")?;
        }
        let bytes = payload.unwrap_or_else(|| limits::json_len(event));
        let pushes = match event {
            AgentEvent::TextBlockStart(_)
            | AgentEvent::ThinkingBlockStart(_)
            | AgentEvent::DataBlockStart(_)
            | AgentEvent::ToolCallStart(_)
            | AgentEvent::ToolResultStart(_)
            | AgentEvent::HintBlock(_) => 1,
            AgentEvent::ExternalExecutionResult(e) => e.execution_results.len(),
            _ => 0,
        };
        let len_before = self.content.len();
        if l.max_blocks != 0 && pushes > 0 && len_before.saturating_add(pushes) > l.max_blocks {
            return Err(MsgError::LimitExceeded(format!(
                "the message would have {} blocks, past the cap of {} (max_blocks); the event was not applied",
                len_before.saturating_add(pushes),
                l.max_blocks
            )));
        }
        let room = self.session_room;
        let total = self.sizes().total;
        limits::check(total, bytes, l.max_message_bytes, "the message", "max_message_bytes")?;
        if let Some(room) = room {
            limits::check(total, bytes, room, "the session", "max_session_bytes")?;
        }
        match event {
            // each result is a block of its own
            AgentEvent::ExternalExecutionResult(e) if pushes > 1 => {
                for result in &e.execution_results {
                    let size = limits::json_len(result);
                    limits::check(0, size, l.max_block_bytes, "a new block", "max_block_bytes")?;
                }
            }
            _ if pushes > 0 => limits::check(0, bytes, l.max_block_bytes, "the new block", "max_block_bytes")?,
            _ => {}
        }
        // the block the event grows: a delta's, a text end's replacing text, a tool
        // result end's metadata
        let target = match (event.delta_block(), event) {
            (Some((kind, id)), _) => self.find_block_at(kind, id, matching.newest(kind)),
            (None, AgentEvent::TextBlockEnd(e)) if e.text.is_some() => {
                self.find_block_at(BlockKind::Text, &e.block_id, matching.newest(BlockKind::Text))
            }
            (None, AgentEvent::ToolResultEnd(e)) => self.find_block_at(
                BlockKind::ToolResult,
                &e.tool_call_id,
                matching.newest(BlockKind::ToolResult),
            ),
            _ => None,
        };
        let newest = matching.newest(BlockKind::ToolCall);
        // the calls a confirmation asks about take its suggested rules in
        let mut rules = Vec::new();
        if let AgentEvent::RequireUserConfirm(e) = event {
            for tc in &e.tool_calls {
                if let Some(j) = self.find_block_at(BlockKind::ToolCall, &tc.id, newest) {
                    let size = limits::json_len(&tc.suggested_rules);
                    let have = self.sizes().blocks.get(j).copied().unwrap_or(0);
                    limits::check(have, size, l.max_block_bytes, "the tool call", "max_block_bytes")?;
                    rules.push((j, size));
                }
            }
        }
        if let Some(i) = target {
            let have = self.sizes().blocks.get(i).copied().unwrap_or(0);
            limits::check(have, bytes, l.max_block_bytes, "the block", "max_block_bytes")?;
            let grown = match (&mut self.content[i], payload) {
                (ContentBlock::Text(b), Some(_)) => Some(&mut b.text),
                (ContentBlock::Thinking(b), Some(_)) => Some(&mut b.thinking),
                (ContentBlock::ToolCall(b), Some(_)) => Some(&mut b.input),
                _ => None,
            };
            if let Some(text) = grown
                && text.try_reserve(bytes).is_err()
            {
                return Err(MsgError::LimitExceeded(format!(
                    "no memory for {bytes} more bytes of a block of {} bytes; the event was not applied",
                    text.len()
                )));
            }
        }
        Ok(Admitted {
            bytes,
            target,
            len_before,
            rules,
        })
    }

    /// Counts what an applied event took in (see [`Msg::admit`]).
    pub(crate) fn account(&mut self, admitted: Admitted) {
        let Some(sizes) = &mut self.sizes else { return };
        sizes.total = sizes.total.saturating_add(admitted.bytes);
        let added = &self.content[admitted.len_before.min(self.content.len())..];
        match added.len() {
            0 => {
                if let Some(size) = admitted.target.and_then(|i| sizes.blocks.get_mut(i)) {
                    *size = size.saturating_add(admitted.bytes);
                }
                for (j, added) in admitted.rules {
                    if let Some(size) = sizes.blocks.get_mut(j) {
                        *size = size.saturating_add(added);
                    }
                }
            }
            1 => sizes.blocks.push(admitted.bytes),
            _ => sizes.blocks.extend(limits::block_sizes(added)),
        }
    }

    /// A counter that grows whenever the message changes (through `append_event`,
    /// `append_usage` or `content_mut`). Field assignments made directly do not count.
    pub fn revision(&self) -> u64 {
        self.revisions.msg
    }

    /// The [`Msg::revision`] at which block `i` last changed (0 for blocks unchanged
    /// since the message was built), or `None` when `i` is out of range. A renderer can
    /// re-encode only the blocks whose revision is newer than the one it last saw.
    pub fn block_revision(&self, i: usize) -> Option<u64> {
        if i >= self.content.len() {
            return None;
        }
        Some(self.revisions.blocks.get(i).copied().unwrap_or(self.revisions.msg))
    }

    /// The [`Msg::revision`] at which block `i` last changed other than by appending to
    /// its streamed text (`text`, `thinking`, a tool call's `input`, a base64 payload, the
    /// last text of a tool result's output). While it is older than a renderer's last read,
    /// the block's strings only grew at their end since then, so the renderer can append
    /// the new tail instead of re-reading the block.
    pub fn block_rewritten(&self, i: usize) -> Option<u64> {
        if i >= self.content.len() {
            return None;
        }
        Some(self.revisions.rewritten.get(i).copied().unwrap_or(self.revisions.msg))
    }

    /// Positions of the blocks that changed after revision `since` (blocks added since
    /// then included), in order. A renderer that last read the message at revision `r`
    /// re-reads exactly `changed_blocks(r)`.
    pub fn changed_blocks(&self, since: u64) -> Vec<usize> {
        // the blocks in the order they changed: what changed costs what changed (blocks
        // not tracked yet, after `content_mut`, changed at the message's revision)
        let tracked = self.revisions.blocks.len().min(self.content.len());
        let mut changed: Vec<usize> = self.recent.since(since).into_iter().filter(|&i| i < tracked).collect();
        if self.revisions.msg > since {
            changed.extend(tracked..self.content.len());
        }
        changed
    }

    /// Parses wire JSON and validates it like `Msg.model_validate_json`.
    ///
    /// Errors: `invalid_json` (not JSON), `invalid_msg`, `invalid_role`,
    /// `invalid_content`, `invalid_url`, `role_violation`.
    pub fn from_json(json: &str) -> Result<Msg, MsgError> {
        Msg::read_json(json, true)
    }

    /// [`Msg::from_json`], with the role rules checked or not: a session checkpoint holds
    /// messages as the reducer left them, and the reducer, as the reference's, does not
    /// check the role rules (events may add a tool call to a user message).
    pub(crate) fn read_json(json: &str, check_role: bool) -> Result<Msg, MsgError> {
        let raw: MsgWire = serde_json::from_str(json).map_err(|e| match json_error(json, &e) {
            Some(text) => MsgError::InvalidJson(text),
            // (a position in a value of the wrong type says nothing: "line 1 column 0")
            None => MsgError::InvalidMsg(without_position(&e)),
        })?;
        let wire = raw.fields()?;
        let role = match wire.role.map(|r| serde_json::from_str::<String>(r.get())) {
            Some(Ok(s)) => Role::parse(&s).ok_or(MsgError::InvalidRole)?,
            Some(Err(_)) => return Err(MsgError::InvalidRole),
            None => return Err(MsgError::InvalidMsg("role: Field required".into())),
        };
        let content = match wire.content {
            Some(raw) => parse_content(raw.get())?,
            None => return Err(MsgError::InvalidMsg("content: Field required".into())),
        };
        let name = wire
            .name
            .ok_or_else(|| MsgError::InvalidMsg("name: Field required".into()))?;
        if check_role {
            validate_role(role, &content)?;
        }
        let mut msg = Msg::with_parts(
            name,
            role,
            content,
            wire.id.unwrap_or_else(generate_id),
            wire.created_at.unwrap_or_else(generate_timestamp),
        );
        msg.metadata = wire.metadata;
        msg.usage = wire.usage;
        msg.finished_at = wire.finished_at;
        msg.finished_reason = wire.finished_reason;
        msg.structured_output = wire.structured_output;
        msg.error = wire.error;
        Ok(msg)
    }

    /// Validates a JSON value like `Msg.model_validate(dict)` (see [`Msg::from_json`]): a
    /// [`crate::json::Value`], a `serde_json::Value` (its keys in the order its `Map`
    /// keeps them) or anything else that serialises to a message's JSON.
    pub fn from_value<T: Serialize + ?Sized>(value: &T) -> Result<Msg, MsgError> {
        Msg::from_json(&crate::wire::to_string(value))
    }

    /// Compact wire JSON (`model_dump_json`).
    pub fn to_json(&self) -> String {
        crate::wire::to_string(self)
    }

    /// Wire JSON as a value (`model_dump(mode="json")`): keys in the reference's order,
    /// numbers as [`Msg::to_json`] writes them (`serde_json::to_value(&msg)` gives the
    /// application's own `serde_json::Value` instead, see [`crate::json`]). `Null` only
    /// for a message holding a value nested more than 1,000 levels deep, which only a
    /// program can build (what is read is at most [`crate::json::MAX_DEPTH`] deep).
    pub fn to_value(&self) -> Value {
        crate::json::read(&self.to_json(), TO_VALUE_DEPTH).unwrap_or_default()
    }

    /// `append_usage`: stores `usage` when there is none yet, else adds the four counters
    /// (each saturating at ±2^127; the reducer refuses a sum past that instead).
    pub fn append_usage(&mut self, usage: &Usage) -> &mut Msg {
        self.usage = Some(match self.usage {
            None => *usage,
            Some(u) => Usage {
                input_tokens: u.input_tokens.saturating_add(usage.input_tokens),
                output_tokens: u.output_tokens.saturating_add(usage.output_tokens),
                cache_input_tokens: u.cache_input_tokens.saturating_add(usage.cache_input_tokens),
                cache_creation_input_tokens: u
                    .cache_creation_input_tokens
                    .saturating_add(usage.cache_creation_input_tokens),
            },
        });
        self.revisions.msg += 1;
        self
    }

    /// Whether [`Msg::append_usage`] of `usage` stays within 128 bits (the reference's
    /// ints have no bound: a sum past ±2^127 is `limit_exceeded`, not a wrong number).
    pub(crate) fn usage_fits(&self, usage: &Usage) -> bool {
        let Some(u) = self.usage else { return true };
        u.input_tokens.checked_add(usage.input_tokens).is_some()
            && u.output_tokens.checked_add(usage.output_tokens).is_some()
            && u.cache_input_tokens.checked_add(usage.cache_input_tokens).is_some()
            && u.cache_creation_input_tokens
                .checked_add(usage.cache_creation_input_tokens)
                .is_some()
    }

    /// `get_text_content(separator)`: the texts of all `text` blocks joined with
    /// `separator` (the reference's default is `"\n"`); `None` when there is no text
    /// block. Thinking, hint and tool outputs are not included.
    pub fn get_text_content(&self, separator: &str) -> Option<String> {
        let mut texts = self.content.iter().filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        });
        let first = texts.next()?;
        let mut out = first.to_owned();
        for t in texts {
            out.push_str(separator);
            out.push_str(t);
        }
        Some(out)
    }

    /// `get_content_blocks(block_type)`: all blocks for `None`, else the blocks whose
    /// `type` is one of `types` (unknown names match nothing; `[]` gives nothing).
    pub fn get_content_blocks(&self, types: Option<&[&str]>) -> Vec<&ContentBlock> {
        self.content.iter().filter(|b| matches_types(b, types)).collect()
    }

    /// Positions in `content` of the blocks [`Msg::get_content_blocks`] returns.
    pub fn content_block_indices(&self, types: Option<&[&str]>) -> Vec<usize> {
        (0..self.content.len())
            .filter(|&i| matches_types(&self.content[i], types))
            .collect()
    }

    /// `has_content_blocks(block_type)`: whether [`Msg::get_content_blocks`] would be
    /// non-empty.
    pub fn has_content_blocks(&self, types: Option<&[&str]>) -> bool {
        self.content.iter().any(|b| matches_types(b, types))
    }

    /// Index of the first block with this `type` and `id` (the reference's `_find_block`),
    /// or with `newest` the last, O(1) amortised.
    pub(crate) fn find_block_at(&mut self, kind: BlockKind, id: &str, newest: bool) -> Option<usize> {
        let index = &mut self.index;
        while index.indexed < self.content.len() {
            let i = index.indexed;
            let block = &self.content[i];
            if !index.positions.contains_key(block.id()) {
                index.positions.insert(block.id().to_owned(), [[NONE; 2]; 6]);
            }
            if let Some(entry) = index.positions.get_mut(block.id()) {
                let at = u32::try_from(i).unwrap_or(NONE);
                let s = &mut entry[slot(block.kind())];
                if s[0] == NONE {
                    s[0] = at;
                }
                s[1] = at;
            }
            index.indexed += 1;
        }
        let entry = match index.last {
            Some((entry, at)) if at == index.indexed && index.last_id == id => entry,
            _ => {
                let entry = *index.positions.get(id)?;
                index.last_id.clear();
                index.last_id.push_str(id);
                index.last = Some((entry, index.indexed));
                entry
            }
        };
        let found = entry[slot(kind)][usize::from(newest)];
        (found != NONE).then_some(found as usize)
    }

    /// The first base64 data item with `id` in the output of tool result `i` (the merge
    /// target of a `TOOL_RESULT_DATA_DELTA`), by an index extended as items are added (a
    /// search of the whole output per event made n items with new ids O(n²)).
    pub(crate) fn tool_data_item(&mut self, i: usize, id: &str) -> Option<usize> {
        let Some(ContentBlock::ToolResult(result)) = self.content.get(i) else {
            return None;
        };
        let TextOrBlocks::Blocks(items) = &result.output else {
            return None;
        };
        let index = self.data_items.entry(i).or_default();
        while let Some(item) = items.get(index.indexed) {
            if let TextOrData::Data(d) = item
                && matches!(d.source, DataSource::Base64(_))
                && !index.first.contains_key(&d.id)
            {
                index.first.insert(d.id.clone(), index.indexed);
            }
            index.indexed += 1;
        }
        index.first.get(id).copied()
    }

    /// Mutable block `i`, marked as changed.
    pub(crate) fn block_mut(&mut self, i: usize) -> Option<&mut ContentBlock> {
        self.touch(i);
        self.content.get_mut(i)
    }

    /// Appends a block (no role check, like the reference's reducer).
    pub(crate) fn push_block(&mut self, block: ContentBlock) {
        self.content.push(block);
        self.touch(self.content.len() - 1);
    }

    /// Marks the message (and block `i`, if any) as changed and rewritten.
    pub(crate) fn touch(&mut self, i: usize) {
        self.grow(i);
        if let Some(r) = self.revisions.rewritten.get_mut(i) {
            *r = self.revisions.msg;
        }
    }

    /// Marks block `i` as changed only by text appended at the end of its streamed
    /// strings (see [`Msg::block_rewritten`]).
    pub(crate) fn grow(&mut self, i: usize) {
        self.revisions.msg += 1;
        let r = &mut self.revisions;
        if r.blocks.len() < self.content.len() {
            r.blocks.resize(self.content.len(), r.msg);
            r.rewritten.resize(self.content.len(), r.msg);
            self.recent.touch(self.content.len() - 1, r.msg);
        }
        if let Some(b) = r.blocks.get_mut(i) {
            *b = r.msg;
            self.recent.touch(i, r.msg);
        }
    }

    /// Mutable block `i`, marked as changed by growing only (see [`Msg::grow`]).
    pub(crate) fn block_grow(&mut self, i: usize) -> Option<&mut ContentBlock> {
        self.grow(i);
        self.content.get_mut(i)
    }

    /// Marks the message itself as changed (no block).
    pub(crate) fn touch_msg(&mut self) {
        self.revisions.msg += 1;
    }
}

fn matches_types(block: &ContentBlock, types: Option<&[&str]>) -> bool {
    match types {
        None => true,
        Some(types) => types.contains(&block.kind().as_str()),
    }
}

/// Parses a `content` list of wire-JSON blocks (no role check).
///
/// Errors: `invalid_content` (not a list, unknown block type, malformed block; the
/// message names the position and field), `invalid_url`.
pub fn parse_content(json: &str) -> Result<Vec<ContentBlock>, MsgError> {
    let items: Vec<&RawValue> =
        serde_json::from_str(json).map_err(|_| MsgError::InvalidContent("Input should be a valid list".into()))?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| parse_block(i, item.get()))
        .collect()
}

/// Parses one content block (its `type` is read by `ContentBlock`'s own deserialiser),
/// naming its position on error.
fn parse_block(i: usize, json: &str) -> Result<ContentBlock, MsgError> {
    serde_json::from_str(json).map_err(|e| {
        let text = without_position(&e);
        match text.strip_prefix("Input should be a valid URL, ") {
            Some(url) => MsgError::InvalidUrl(url.to_owned()),
            None => MsgError::InvalidContent(format!("content.{i}: {text}")),
        }
    })
}

crate::raw::raw_object! {
    /// A message's wire JSON, each key kept raw; [`MsgWire::fields`] converts them.
    MsgWire {
        "name" => name,
        "content" => content,
        "role" => role,
        "id" => id,
        "metadata" => metadata,
        "created_at" => created_at,
        "usage" => usage,
        "finished_at" => finished_at,
        "finished_reason" => finished_reason,
        "structured_output" => structured_output,
        "error" => error,
    }
}

/// The converted fields of [`MsgWire`] (`content` and `role` stay raw, checked first).
struct MsgFields<'a> {
    name: Option<String>,
    content: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    id: Option<String>,
    metadata: Map<String, Value>,
    created_at: Option<String>,
    usage: Option<Usage>,
    finished_at: Option<String>,
    finished_reason: Option<ReplyFinishedReason>,
    structured_output: Option<Map<String, Value>>,
    error: Option<ErrorInfo>,
}

/// One field of a message: `None` when absent; `null` is a value (an error unless the
/// field is optional).
fn msg_field<'a, T: Deserialize<'a>>(raw: Option<&'a RawValue>, name: &str) -> Result<Option<T>, MsgError> {
    raw.map(|r| {
        serde_json::from_str(r.get()).map_err(|e| MsgError::InvalidMsg(format!("{name}: {}", without_position(&e))))
    })
    .transpose()
}

impl<'a> MsgWire<'a> {
    fn fields(self) -> Result<MsgFields<'a>, MsgError> {
        Ok(MsgFields {
            name: msg_field(self.name, "name")?,
            content: self.content,
            role: self.role,
            id: msg_field(self.id, "id")?,
            metadata: msg_field(self.metadata, "metadata")?.unwrap_or_default(),
            created_at: msg_field(self.created_at, "created_at")?,
            usage: msg_field::<Option<Usage>>(self.usage, "usage")?.flatten(),
            finished_at: msg_field::<Option<String>>(self.finished_at, "finished_at")?.flatten(),
            finished_reason: msg_field::<Option<ReplyFinishedReason>>(self.finished_reason, "finished_reason")?
                .flatten(),
            structured_output: msg_field::<Option<Map<String, Value>>>(self.structured_output, "structured_output")?
                .flatten(),
            error: msg_field::<Option<ErrorInfo>>(self.error, "error")?.flatten(),
        })
    }
}
