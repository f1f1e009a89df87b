//! Incremental reads of a message for renderers: what changed since the last read, at a
//! cost that grows with the change, not with the size of the changed block.
//!
//! A [`SnapshotReader`] remembers, per block, the revision and the length of the streamed
//! string it last handed out. A block that was only *grown* since then (text appended
//! to `text`, `thinking`, a tool call's `input`, a tool result's last text, bytes
//! appended to a base64 payload; see [`Msg::block_rewritten`]) is described by its new
//! tail; any other change sends the whole block. The reader on the other side keeps the
//! previous objects and rebuilds only what changed (structural sharing).

use crate::json::{Map, Value};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;

use crate::block::{ContentBlock, TextOrBlocks, TextOrData};
use crate::msg::Msg;
use crate::reply::{ErrorInfo, ReplyFinishedReason, Role, Usage};
use crate::source::DataSource;

/// The message's fields, with `content` as `null` so that keys keep their order.
#[derive(Serialize)]
struct Header<'a> {
    name: &'a str,
    content: (),
    role: Role,
    id: &'a str,
    metadata: &'a Map<String, Value>,
    created_at: &'a str,
    usage: &'a Option<Usage>,
    finished_at: &'a Option<String>,
    finished_reason: &'a Option<ReplyFinishedReason>,
    structured_output: &'a Option<Map<String, Value>>,
    error: &'a Option<ErrorInfo>,
}

/// The message's wire JSON with `content: null` (the blocks come separately).
pub fn header_json(m: &Msg) -> String {
    let header = Header {
        name: &m.name,
        content: (),
        role: m.role,
        id: &m.id,
        metadata: &m.metadata,
        created_at: &m.created_at,
        usage: &m.usage,
        finished_at: &m.finished_at,
        finished_reason: &m.finished_reason,
        structured_output: &m.structured_output,
        error: &m.error,
    };
    crate::wire::to_string(&header)
}

/// Where the streamed string of a block is, and its length (bytes) at the last read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Grows {
    /// `text`, `thinking` or `input`, by byte length.
    Field(&'static str, usize),
    /// `source.data` of a data block, by decoded byte length.
    Base64(usize),
    /// `output[i].text` of a tool result, by byte length.
    Output(usize, usize),
    /// Nothing that can grow.
    None,
}

/// What a reader last saw of one block.
#[derive(Debug, Clone, Copy)]
struct Seen {
    revision: u64,
    grows: Grows,
}

/// Hands out the changes of one message since its previous read (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct SnapshotReader {
    revision: Option<u64>,
    blocks: Vec<Seen>,
}

impl SnapshotReader {
    /// A reader that has seen nothing.
    pub fn new() -> SnapshotReader {
        SnapshotReader::default()
    }

    /// Whether `msg` changed since the last [`SnapshotReader::read`].
    pub fn is_stale(&self, msg: &Msg) -> bool {
        self.revision != Some(msg.revision())
    }

    /// The changes since the last read, as JSON text:
    /// `{"header": {...message fields, "content": null}, "count": <blocks>, "changes":
    /// [change, ...]}`, where a change is `[i, block]` (the whole block `i`, wire JSON) or
    /// `[i, path, keep, tail]`: the string at `path` inside block `i` (e.g. `["text"]`,
    /// `["source", "data"]`, `["output", 2, "text"]`) is its previous value cut to `keep`
    /// UTF-16 units (`null`: kept whole) followed by `tail`.
    pub fn read(&mut self, msg: &Msg) -> String {
        let mut out = String::from("{\"header\":");
        out.push_str(&header_json(msg));
        out.push_str(",\"count\":");
        out.push_str(&msg.content().len().to_string());
        out.push_str(",\"changes\":[");
        let since = self.revision;
        self.blocks.truncate(msg.content().len());
        let changed = match since {
            Some(r) => msg.changed_blocks(r),
            None => (0..msg.content().len()).collect(),
        };
        for (n, i) in changed.into_iter().enumerate() {
            if n > 0 {
                out.push(',');
            }
            let block = &msg.content()[i];
            let revision = msg.block_revision(i).unwrap_or_default();
            let grows = grows(block);
            let seen = self.blocks.get(i).copied();
            let grown_only = match (since, seen) {
                (Some(r), Some(seen)) => msg.block_rewritten(i).is_some_and(|w| w <= r) && seen.revision <= r,
                _ => false,
            };
            let tail = match (grown_only, seen) {
                (true, Some(seen)) => tail(block, seen.grows, grows),
                _ => None,
            };
            match tail {
                Some(change) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(',');
                    out.push_str(&change);
                    out.push(']');
                }
                None => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(',');
                    out.push_str(&crate::wire::to_string(block));
                    out.push(']');
                }
            }
            let seen = Seen { revision, grows };
            match self.blocks.get_mut(i) {
                Some(slot) => *slot = seen,
                None => {
                    // blocks are only appended: positions up to `i` were handed out
                    self.blocks.resize(
                        i,
                        Seen {
                            revision,
                            grows: Grows::None,
                        },
                    );
                    self.blocks.push(seen);
                }
            }
        }
        out.push_str("]}");
        self.revision = Some(msg.revision());
        out
    }
}

/// The streamed string of a block and its current length.
fn grows(block: &ContentBlock) -> Grows {
    match block {
        ContentBlock::Text(b) => Grows::Field("text", b.text.len()),
        ContentBlock::Thinking(b) => Grows::Field("thinking", b.thinking.len()),
        ContentBlock::ToolCall(b) => Grows::Field("input", b.input.len()),
        ContentBlock::Data(b) => match &b.source {
            DataSource::Base64(src) => src.held_bytes().map_or(Grows::None, |bytes| Grows::Base64(bytes.len())),
            DataSource::Url(_) => Grows::None,
        },
        ContentBlock::ToolResult(b) => match &b.output {
            TextOrBlocks::Blocks(items) => match items.last() {
                Some(TextOrData::Text(t)) => Grows::Output(items.len() - 1, t.text.len()),
                _ => Grows::None,
            },
            TextOrBlocks::Text(_) => Grows::None,
        },
        ContentBlock::Hint(_) => Grows::None,
    }
}

/// `path, keep, tail` (JSON) for a block that only grew from `before` to `now`.
fn tail(block: &ContentBlock, before: Grows, now: Grows) -> Option<String> {
    let text = |s: &str, from: usize| -> Option<String> {
        let tail = s.get(from..)?;
        Some(serde_json::to_string(tail).unwrap_or_default())
    };
    match (block, before, now) {
        (ContentBlock::Text(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some(format!("[\"text\"],null,{}", text(&b.text, old)?))
        }
        (ContentBlock::Thinking(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some(format!("[\"thinking\"],null,{}", text(&b.thinking, old)?))
        }
        (ContentBlock::ToolCall(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some(format!("[\"input\"],null,{}", text(&b.input, old)?))
        }
        (ContentBlock::ToolResult(b), Grows::Output(j, old), Grows::Output(k, _)) if j == k => match &b.output {
            TextOrBlocks::Blocks(items) => match items.get(j) {
                Some(TextOrData::Text(t)) => Some(format!("[\"output\",{j},\"text\"],null,{}", text(&t.text, old)?)),
                _ => None,
            },
            TextOrBlocks::Text(_) => None,
        },
        (ContentBlock::Data(b), Grows::Base64(old), Grows::Base64(new)) if new >= old => {
            let DataSource::Base64(src) = &b.source else {
                return None;
            };
            let bytes = src.held_bytes()?;
            // whole 3-byte groups encode to the same 4 characters: keep those
            let whole = old / 3 * 3;
            let keep = whole / 3 * 4;
            let tail = STANDARD.encode(bytes.get(whole..)?);
            Some(format!("[\"source\",\"data\"],{keep},\"{tail}\""))
        }
        _ => None,
    }
}
