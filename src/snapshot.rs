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
use crate::error::MsgError;
use crate::msg::Msg;
use crate::reply::{ErrorInfo, ReplyFinishedReason, Role, Usage};
use crate::source::DataSource;
use crate::wire::Out;

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
    crate::wire::to_string(&Header::of(m))
}

impl<'a> Header<'a> {
    fn of(m: &'a Msg) -> Header<'a> {
        Header {
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
        }
    }
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

pub use crate::block::TailAt;

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
    ///
    /// Appended to `out`. `max_string` is the longest string, in UTF-16 units, the reader
    /// on the other side can hold ([`MAX_JS_STRING`] for JS; `usize::MAX` for none): the
    /// text written, and every streamed string it rebuilds (`old + tail`). Errors:
    /// `limit_exceeded` when one would be longer, or when there is no memory for the text
    /// (every allocation of the read may fail: in wasm, running out of memory here is that
    /// error, not a trap); `out` and the reader are then as they were, so the next read
    /// hands out the same changes.
    pub fn read_into(&mut self, msg: &Msg, out: &mut Vec<u8>, max_string: usize) -> Result<(), MsgError> {
        let start = out.len();
        let result = self.write(msg, out, max_string);
        if result.is_err() {
            out.truncate(start);
            out.shrink_to_fit();
        }
        result
    }

    /// [`SnapshotReader::read_into`] a text of its own.
    pub fn read(&mut self, msg: &Msg, max_string: usize) -> Result<String, MsgError> {
        let mut out = Vec::new();
        self.read_into(msg, &mut out, max_string)?;
        String::from_utf8(out).map_err(no_room)
    }

    /// Marks one appended `tail` as read, when it is all that changed since the last read:
    /// the message is one revision past that read, only block `i` changed, and only by
    /// `tail` appended at the end of its streamed string. Returns `i` and where the string
    /// is; `None` (nothing marked) otherwise, and the next [`SnapshotReader::read`] hands
    /// the change out as usual. A host that appended `tail` itself to its copy of the
    /// block (`agentscope-message/compat`'s in-place fold) then needs no read.
    pub fn read_tail(&mut self, msg: &Msg, tail: &str) -> Option<(usize, TailAt)> {
        let since = self.revision?;
        if msg.revision() != since.checked_add(1)? || self.blocks.len() != msg.content().len() {
            return None;
        }
        let changed = msg.changed_blocks(since);
        let [i] = changed[..] else { return None };
        let before = *self.blocks.get(i)?;
        if before.revision > since || msg.block_rewritten(i).is_none_or(|w| w > since) {
            return None;
        }
        let block = &msg.content()[i];
        let (at, grown) = block.streamed()?;
        let old = match (at, before.grows) {
            (TailAt::Output(j), Grows::Output(k, old)) if j == k => old,
            (TailAt::Text | TailAt::Thinking | TailAt::Input, Grows::Field(_, old)) => old,
            _ => return None,
        };
        let now = grows(block);
        if grown.get(old..)? != tail {
            return None;
        }
        self.blocks[i] = Seen {
            revision: msg.block_revision(i)?,
            grows: now,
        };
        self.revision = Some(msg.revision());
        Some((i, at))
    }

    fn write(&mut self, msg: &Msg, out: &mut Vec<u8>, max_string: usize) -> Result<(), MsgError> {
        let since = self.revision;
        let changed = match since {
            Some(r) => msg.changed_blocks(r),
            None => (0..msg.content().len()).collect(),
        };
        // every string a change rebuilds fits on the other side, checked before anything
        // is written (a block of 1 GiB is refused without a copy of it)
        for &i in &changed {
            let block = &msg.content()[i];
            if let Some(units) = streamed_units(block, max_string)
                && units > max_string
            {
                return Err(MsgError::LimitExceeded(format!(
                    "a snapshot of {} block {i} of message {:?} would hold a string of {units} UTF-16 units, \
                     past the {max_string} a JS string may have; the message is unchanged, read it in parts (toJSONString is not limited)",
                    block.kind().as_str(),
                    msg.id
                )));
            }
        }
        // a text of more than 3 bytes per UTF-16 unit allowed cannot fit
        let limit = out
            .len()
            .saturating_add(max_string.saturating_mul(3))
            .saturating_add(1 << 16);
        let mut w = Out {
            buf: out,
            limit: Some(limit),
        };
        let start = w.buf.len();
        let mut seen = Vec::with_capacity(changed.len());
        put(&mut w, b"{\"header\":")?;
        crate::wire::write(&mut w, &Header::of(msg)).map_err(no_room)?;
        put(
            &mut w,
            format!(",\"count\":{},\"changes\":[", msg.content().len()).as_bytes(),
        )?;
        for (n, i) in changed.into_iter().enumerate() {
            if n > 0 {
                put(&mut w, b",")?;
            }
            let block = &msg.content()[i];
            let revision = msg.block_revision(i).unwrap_or_default();
            let grows = grows(block);
            let before = self.blocks.get(i).copied();
            let grown_only = match (since, before) {
                (Some(r), Some(before)) => msg.block_rewritten(i).is_some_and(|w| w <= r) && before.revision <= r,
                _ => false,
            };
            put(&mut w, format!("[{i},").as_bytes())?;
            let tail = match (grown_only, before) {
                (true, Some(before)) => tail(block, before.grows, grows),
                _ => None,
            };
            match tail {
                Some((path, keep, text)) => {
                    put(&mut w, path.as_bytes())?;
                    put(&mut w, keep.as_bytes())?;
                    crate::wire::write(&mut w, text.as_ref()).map_err(no_room)?;
                }
                None => crate::wire::write(&mut w, block).map_err(no_room)?,
            }
            put(&mut w, b"]")?;
            seen.push((i, Seen { revision, grows }));
        }
        put(&mut w, b"]}")?;
        let written = &w.buf[start..];
        // UTF-16 units are at most the UTF-8 bytes: counted only past the bound
        if written.len() > max_string {
            let units = utf16_units(written);
            if units > max_string {
                return Err(MsgError::LimitExceeded(format!(
                    "a snapshot of message {:?} would be a text of {units} UTF-16 units, past the {max_string} a JS string may have",
                    msg.id
                )));
            }
        }
        // the read went through: the reader moves on
        self.blocks.truncate(msg.content().len());
        for (i, s) in seen {
            match self.blocks.get_mut(i) {
                Some(slot) => *slot = s,
                None => {
                    // blocks are only appended: positions up to `i` were handed out
                    let filler = Seen {
                        revision: s.revision,
                        grows: Grows::None,
                    };
                    self.blocks.resize(i, filler);
                    self.blocks.push(s);
                }
            }
        }
        self.revision = Some(msg.revision());
        Ok(())
    }
}

/// The longest string a JS engine holds, in UTF-16 units: V8's (node, Chromium, Deno,
/// Bun's JavaScriptCore and SpiderMonkey hold more), 2^29 − 24.
pub const MAX_JS_STRING: usize = (1 << 29) - 24;

/// The length in UTF-16 units of a block's streamed string (text, thinking, tool-call
/// input, a tool result's last text, a base64 payload), counted only when its UTF-8
/// bytes are past `max` (UTF-16 units are at most the bytes); `None` when it has none.
fn streamed_units(block: &ContentBlock, max: usize) -> Option<usize> {
    let units = |s: &str| {
        if s.len() <= max {
            s.len()
        } else {
            s.encode_utf16().count()
        }
    };
    Some(match block {
        ContentBlock::Text(b) => units(&b.text),
        ContentBlock::Thinking(b) => units(&b.thinking),
        ContentBlock::ToolCall(b) => units(&b.input),
        ContentBlock::Data(b) => match &b.source {
            DataSource::Base64(src) => src.held_bytes().map_or(0, |bytes| bytes.len().div_ceil(3) * 4),
            DataSource::Url(_) => return None,
        },
        ContentBlock::ToolResult(b) => match &b.output {
            TextOrBlocks::Blocks(items) => match items.last() {
                Some(TextOrData::Text(t)) => units(&t.text),
                _ => return None,
            },
            TextOrBlocks::Text(t) => units(t),
        },
        ContentBlock::Hint(_) => return None,
    })
}

/// Appends `bytes` to `out`, `limit_exceeded` when there is no memory for them (a text
/// around a read's, which must not abort when a read almost filled the memory).
#[cfg(feature = "wasm")]
pub(crate) fn try_push(out: &mut Vec<u8>, bytes: &[u8]) -> Result<(), MsgError> {
    let mut out = Out {
        buf: out,
        limit: Some(usize::MAX),
    };
    put(&mut out, bytes)
}

fn put(out: &mut Out<'_>, bytes: &[u8]) -> Result<(), MsgError> {
    std::io::Write::write_all(out, bytes).map_err(no_room)
}

/// The UTF-16 length of UTF-8 text: a unit per character, two for one of 4 bytes.
fn utf16_units(utf8: &[u8]) -> usize {
    utf8.iter()
        .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// `limit_exceeded` for a read that found no memory for its text.
fn no_room<E>(_: E) -> MsgError {
    MsgError::LimitExceeded("no memory for the snapshot's text; the messages are unchanged".into())
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

/// `path,` and `keep,` (JSON, each with its comma) and the tail for a block that only
/// grew from `before` to `now`.
fn tail(block: &ContentBlock, before: Grows, now: Grows) -> Option<(String, String, std::borrow::Cow<'_, str>)> {
    let null = || "null,".to_owned();
    let field = |name: &str| format!("[\"{name}\"],");
    match (block, before, now) {
        (ContentBlock::Text(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some((field("text"), null(), b.text.get(old..)?.into()))
        }
        (ContentBlock::Thinking(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some((field("thinking"), null(), b.thinking.get(old..)?.into()))
        }
        (ContentBlock::ToolCall(b), Grows::Field(_, old), Grows::Field(..)) => {
            Some((field("input"), null(), b.input.get(old..)?.into()))
        }
        (ContentBlock::ToolResult(b), Grows::Output(j, old), Grows::Output(k, _)) if j == k => match &b.output {
            TextOrBlocks::Blocks(items) => match items.get(j) {
                Some(TextOrData::Text(t)) => {
                    Some((format!("[\"output\",{j},\"text\"],"), null(), t.text.get(old..)?.into()))
                }
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
            Some(("[\"source\",\"data\"],".to_owned(), format!("{keep},"), tail.into()))
        }
        _ => None,
    }
}
