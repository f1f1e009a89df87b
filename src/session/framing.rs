//! The one framer: raw bytes of an event stream → the JSON text of each event.
//!
//! The framing is detected once, from the first bytes (after a byte-order mark and white
//! space): `[` is a JSON array of events, `{` is JSON Lines, a line starting with an SSE
//! field (`data`, `event`, `id`, `retry`) or a `:` comment is SSE (parsed by the
//! `sse-parse` crate, which follows the WHATWG rules); anything else is an
//! `invalid_stream` error rather than a guess. Chunks may split the stream anywhere:
//! inside a frame, a line ending (`\r` | `\n`) or a UTF-8 sequence.
//!
//! Rules, the same on every surface (Rust, CLI, wasm, TS):
//! - line ends are LF, CRLF or a bare CR, mixed freely; a leading byte-order mark is
//!   dropped;
//! - SSE: comments and `retry:` are ignored; `data:` lines of a frame are joined with
//!   `\n`; a frame without data (a keep-alive) is not an event; the `id:` is kept with the
//!   event; a frame with an `event:` name other than `message` is handed on marked with
//!   its name (the session skips it with a diagnostic);
//! - JSON Lines: blank lines are ignored;
//! - at [`Framer::end`], a final frame or line without its terminating blank line or line
//!   end is still an event (the SSE standard would drop it; a recorded log that lost its
//!   last newline should not lose its last event).

use std::collections::VecDeque;

use serde::Serialize;
use sse_parse::SseParser;

use crate::error::MsgError;

/// How events are framed in a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Framing {
    /// Server-Sent Events: each frame's `data` is one event's wire JSON.
    Sse,
    /// One event (wire JSON) per line.
    JsonLines,
    /// One JSON array of events.
    JsonArray,
}

/// One framed event: its JSON text, with the SSE `id:` and `event:` name when it came
/// from an SSE frame.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Frame {
    /// The event's wire JSON (an SSE frame's data, a JSON Lines line, an array element).
    pub data: String,
    /// The SSE last event id at this frame (`id:`), if the stream set one.
    pub sse_id: Option<String>,
    /// The SSE `event:` name when it is not `message` (such a frame is not an AgentScope
    /// event).
    pub sse_event: Option<String>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";
const SSE_FIELDS: [&[u8]; 4] = [b"data", b"event", b"id", b"retry"];

/// Push-based framer: [`Framer::feed`] bytes as they arrive, [`Framer::end`] at the end
/// of the stream, and take the frames (or framing errors, in stream order) with
/// [`Framer::next_frame`].
#[derive(Debug, Default)]
pub struct Framer {
    framing: Option<Framing>,
    /// bytes held before the framing is known
    head: Vec<u8>,
    /// white space before the first significant byte was dropped: a byte-order mark is
    /// only one at the very start of the stream
    past_start: bool,
    sse: Option<SseParser>,
    sse_overflows: u64,
    /// drops over-long `id:` lines before the SSE parser sees them
    ids: IdGuard,
    /// the last event ID an SSE stream starts from (a reconnect's)
    initial_id: String,
    lines: Lines,
    array: ArrayScanner,
    queue: VecDeque<Result<Frame, MsgError>>,
    ended: bool,
    /// the longest frame (0: no cap; see `SessionOptions::max_frame_bytes`)
    max_frame: usize,
}

impl Framer {
    /// A framer that detects the framing from the first bytes.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// A framer that refuses frames longer than `max_frame` bytes (`limit_exceeded`; 0 is
    /// no cap), without holding them whole.
    pub fn with_max_frame(max_frame: usize) -> Framer {
        Framer {
            max_frame,
            ..Framer::default()
        }
    }

    /// The framer of a reconnect: an SSE stream starts from `last_event_id` as the SSE
    /// standard's last event ID buffer (an `EventSource` keeps it across reconnects).
    pub fn with_last_event_id(mut self, last_event_id: Option<&str>) -> Framer {
        self.initial_id = last_event_id.unwrap_or_default().to_owned();
        self
    }

    /// The SSE last event ID buffer (WHATWG: set by every `id:` field at the end of its
    /// block, an empty value resets it, a block without data sets it too), or `None` before
    /// an SSE stream was detected.
    pub fn sse_last_event_id(&self) -> Option<&str> {
        self.sse.as_ref().map(SseParser::last_event_id)
    }

    /// A framer for a known framing (no detection).
    pub fn with_framing(framing: Framing) -> Framer {
        let mut framer = Framer::new();
        framer.start(framing);
        framer
    }

    /// The framing detected (or given), once known.
    pub fn framing(&self) -> Option<Framing> {
        self.framing
    }

    /// Feeds a chunk of any size. Bytes after [`Framer::end`] are ignored.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.ended || chunk.is_empty() {
            return;
        }
        if self.framing.is_some() {
            self.feed_framed(chunk);
            return;
        }
        self.head.extend_from_slice(chunk);
        self.detect(false);
    }

    /// Ends the stream: a final frame or line without its terminator is framed; an
    /// unclosed JSON array or an undetectable stream queues an `invalid_stream` error.
    pub fn end(&mut self) {
        if self.ended {
            return;
        }
        if self.framing.is_none() {
            self.detect(true);
        }
        self.ended = true;
        match self.framing {
            Some(Framing::Sse) => {
                // complete a last line and frame that lack their line end / blank line
                self.feed_sse(b"\n\n");
                if let Some(sse) = &mut self.sse {
                    sse.finish();
                    drain_sse(sse, &mut self.queue, self.max_frame, &mut self.sse_overflows);
                }
            }
            Some(Framing::JsonLines) => self.lines.end(&mut self.queue),
            Some(Framing::JsonArray) => self.array.end(&mut self.queue),
            None => {}
        }
    }

    /// The next frame (or framing error), in stream order.
    pub fn next_frame(&mut self) -> Option<Result<Frame, MsgError>> {
        self.queue.pop_front()
    }

    /// Whether [`Framer::end`] was called (or the stream was found unreadable).
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Whether frames are waiting to be taken.
    pub fn has_frames(&self) -> bool {
        !self.queue.is_empty()
    }

    fn start(&mut self, framing: Framing) {
        self.framing = Some(framing);
        let cap = if self.max_frame == 0 {
            usize::MAX
        } else {
            self.max_frame
        };
        match framing {
            // the parser's cap counts field names and the `event:` name too: it is given
            // room for them, and the data itself is held to the cap in `drain_sse`
            Framing::Sse => {
                let parser_cap = cap.saturating_add(SSE_FIELD_ROOM);
                self.sse = Some(SseParser::with_last_event_id(self.initial_id.as_str()).max_buffer(parser_cap));
            }
            Framing::JsonLines => self.lines.max = cap,
            Framing::JsonArray => self.array.max = cap,
        }
    }

    /// Decides the framing from the held bytes once they tell (or at the end).
    fn detect(&mut self, at_end: bool) {
        let head = std::mem::take(&mut self.head);
        let mut start = &head[..];
        if !self.past_start {
            if start.len() < BOM.len() && BOM.starts_with(start) && !at_end {
                self.head = head;
                return;
            }
            start = start.strip_prefix(BOM).unwrap_or(start);
        }
        let Some(at) = start.iter().position(|b| !is_json_space(*b)) else {
            // nothing but white space so far
            self.past_start |= !head.is_empty();
            return;
        };
        let rest = &start[at..];
        let framing = match rest[0] {
            b'[' => Some(Framing::JsonArray),
            b'{' => Some(Framing::JsonLines),
            b':' => Some(Framing::Sse),
            _ => {
                let name_end = rest.iter().position(|&b| b == b':' || b == b'\r' || b == b'\n');
                match name_end {
                    Some(n) if SSE_FIELDS.contains(&&rest[..n]) => Some(Framing::Sse),
                    None if at_end && SSE_FIELDS.contains(&rest) => Some(Framing::Sse),
                    None if !at_end && SSE_FIELDS.iter().any(|f| f.starts_with(rest)) => {
                        self.head = head;
                        return; // maybe a field name split across chunks
                    }
                    _ => None,
                }
            }
        };
        match framing {
            Some(framing) => {
                self.start(framing);
                let rest = rest.to_vec();
                self.feed_framed(&rest);
            }
            None => {
                let shown: String = String::from_utf8_lossy(rest).chars().take(40).collect();
                self.queue.push_back(Err(MsgError::InvalidStream(format!(
                    "cannot tell the framing: the stream starts with {shown:?}, which is neither a JSON \
                     object (JSON Lines), a JSON array nor an SSE field (data:, event:, id:, retry:, :comment)"
                ))));
                self.ended = true;
            }
        }
    }

    fn feed_framed(&mut self, chunk: &[u8]) {
        match self.framing {
            Some(Framing::Sse) => {
                // pieces no longer than the cap: an oversized block then overflows in the
                // piece where it passes the cap, after every event that ended before it
                let piece = if self.max_frame == 0 {
                    chunk.len()
                } else {
                    self.max_frame
                };
                for piece in chunk.chunks(piece.max(1)) {
                    self.feed_sse(piece);
                }
            }
            Some(Framing::JsonLines) => self.lines.feed(chunk, &mut self.queue),
            Some(Framing::JsonArray) => self.array.feed(chunk, &mut self.queue),
            None => {}
        }
    }

    /// Feeds SSE bytes through the id guard to the parser, queueing each frame as soon as
    /// it is complete, so that a refused `id:` line comes after the frames before it
    /// whatever the chunks.
    fn feed_sse(&mut self, bytes: &[u8]) {
        let Some(sse) = &mut self.sse else { return };
        let max_frame = self.max_frame;
        let state = std::cell::RefCell::new((sse, &mut self.queue, &mut self.sse_overflows));
        self.ids.filter(
            bytes,
            |piece| {
                let (sse, queue, overflows) = &mut *state.borrow_mut();
                sse.feed(piece);
                drain_sse(sse, queue, max_frame, overflows);
            },
            || state.borrow_mut().1.push_back(Err(id_too_long())),
        );
        let (sse, queue, overflows) = &mut *state.borrow_mut();
        drain_sse(sse, queue, max_frame, overflows);
    }
}

/// Queues the frames the SSE parser completed (and a frame it dropped as too long).
fn drain_sse(sse: &mut SseParser, queue: &mut VecDeque<Result<Frame, MsgError>>, max_frame: usize, seen: &mut u64) {
    // an oversized block was dropped by the parser (it never held it whole)
    if sse.overflows() > *seen {
        *seen = sse.overflows();
        queue.push_back(Err(too_long(max_frame)));
    }
    while let Some(event) = sse.next_event() {
        // a frame without data is a keep-alive (the parser already drops empty ones)
        if json_trim(&event.data).is_empty() {
            continue;
        }
        if max_frame != 0 && event.data.len() > max_frame {
            queue.push_back(Err(too_long(max_frame)));
            continue;
        }
        queue.push_back(Ok(Frame {
            data: event.data,
            sse_id: (!event.id.is_empty()).then_some(event.id),
            sse_event: (event.event != "message").then_some(event.event),
        }));
    }
}

/// JSON Lines: lines end at LF, CRLF or a bare CR.
#[derive(Debug, Default)]
struct Lines {
    line: Vec<u8>,
    max: usize,
    /// the line being read is past `max`: its bytes are dropped until its end
    oversized: bool,
    /// the previous chunk ended with `\r`: a `\n` starting this one belongs to it
    held_cr: bool,
}

impl Lines {
    fn feed(&mut self, mut chunk: &[u8], out: &mut VecDeque<Result<Frame, MsgError>>) {
        if self.held_cr {
            self.held_cr = false;
            chunk = chunk.strip_prefix(b"\n").unwrap_or(chunk);
        }
        while let Some(at) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.take(&chunk[..at]);
            self.emit(out);
            let cr = chunk[at] == b'\r';
            chunk = &chunk[at + 1..];
            if cr {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    Some(_) => {}
                    None => self.held_cr = true,
                }
            }
        }
        self.take(chunk);
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.line.len() + bytes.len() > self.max {
            self.oversized = true;
            self.line = Vec::new();
        }
        if !self.oversized {
            self.line.extend_from_slice(bytes);
        }
    }

    fn end(&mut self, out: &mut VecDeque<Result<Frame, MsgError>>) {
        self.emit(out);
    }

    fn emit(&mut self, out: &mut VecDeque<Result<Frame, MsgError>>) {
        if std::mem::take(&mut self.oversized) {
            return out.push_back(Err(too_long(self.max)));
        }
        let line = std::mem::take(&mut self.line);
        if line.iter().all(|b| is_json_space(*b)) {
            return;
        }
        out.push_back(text_frame(line, "a line"));
    }
}

/// A JSON array of events, split into its elements as the bytes arrive: only strings,
/// escapes and bracket depth are tracked; each element is then decoded as an event.
#[derive(Debug, Default)]
struct ArrayScanner {
    opened: bool,
    closed: bool,
    failed: bool,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// a value is expected next (after `[` or `,`)
    expect_value: bool,
    /// the element being read is a complete object, array or string
    complete: bool,
    elements: usize,
    element: Vec<u8>,
    max: usize,
}

impl ArrayScanner {
    fn feed(&mut self, chunk: &[u8], out: &mut VecDeque<Result<Frame, MsgError>>) {
        for &b in chunk {
            if self.failed {
                return;
            }
            self.byte(b, out);
        }
    }

    fn byte(&mut self, b: u8, out: &mut VecDeque<Result<Frame, MsgError>>) {
        if self.closed {
            if !is_json_space(b) {
                self.fail("text after the end of the JSON array", out);
            }
            return;
        }
        if !self.opened {
            match b {
                b'[' => {
                    self.opened = true;
                    self.expect_value = true;
                }
                _ if is_json_space(b) => {}
                _ => self.fail("a JSON array of events must start with `[`", out),
            }
            return;
        }
        if self.depth == 0 && !self.in_string {
            match b {
                _ if is_json_space(b) && self.element.is_empty() => return,
                _ if is_json_space(b) && self.complete => return,
                b',' => {
                    if self.element.is_empty() {
                        return self.fail("expected an event before `,`", out);
                    }
                    self.emit(out);
                    self.expect_value = true;
                    return;
                }
                b']' => {
                    if !self.element.is_empty() {
                        self.emit(out);
                    } else if self.expect_value && self.elements > 0 {
                        return self.fail("expected an event after `,`", out);
                    }
                    self.closed = true;
                    return;
                }
                _ if self.complete => return self.fail("expected `,` or `]` after an event", out),
                _ => {}
            }
        }
        if self.element.len() >= self.max {
            self.failed = true;
            self.element = Vec::new();
            return out.push_back(Err(too_long(self.max)));
        }
        self.element.push(b);
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                self.complete = self.depth == 0;
            }
            return;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                self.complete = self.depth == 0;
            }
            _ => {}
        }
    }

    fn emit(&mut self, out: &mut VecDeque<Result<Frame, MsgError>>) {
        let element = std::mem::take(&mut self.element);
        self.elements += 1;
        self.expect_value = false;
        self.complete = false;
        out.push_back(text_frame(element, "an event"));
    }

    fn end(&mut self, out: &mut VecDeque<Result<Frame, MsgError>>) {
        if self.opened && !self.closed && !self.failed {
            // a complete last event is still an event (as in SSE and JSON Lines)
            if self.complete {
                self.emit(out);
            }
            self.fail("the JSON array of events is not closed with `]`", out);
        }
    }

    fn fail(&mut self, why: &str, out: &mut VecDeque<Result<Frame, MsgError>>) {
        self.failed = true;
        out.push_back(Err(MsgError::InvalidStream(why.to_owned())));
    }
}

fn too_long(max: usize) -> MsgError {
    MsgError::LimitExceeded(format!(
        "a frame is longer than {max} bytes (max_frame_bytes); it is dropped"
    ))
}

/// What an SSE frame may hold besides its data within the parser's cap: field names,
/// line ends and an `event:` name.
const SSE_FIELD_ROOM: usize = 64 << 10;

/// The longest SSE `id:` value kept, in bytes. The parser copies the last event id onto
/// every event after it: a 3 MiB id before 2,000 small frames would be 6 GB.
pub const MAX_SSE_ID_BYTES: usize = 4096;

fn id_too_long() -> MsgError {
    MsgError::LimitExceeded(format!(
        "an SSE id: line is longer than {MAX_SSE_ID_BYTES} bytes; it is ignored (the last event id stays)"
    ))
}

/// What [`IdGuard`] holds of the line the previous chunk ended in.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Open {
    /// at a line start
    #[default]
    None,
    /// its first bytes, held until they tell an `id` field from other lines
    Start,
    /// an `id` field, held until its end while it is short enough
    Id,
    /// another line, already passed on
    Other,
    /// an `id` field past [`MAX_SSE_ID_BYTES`], dropped to its end
    Dropped,
}

/// Drops SSE `id:` lines longer than [`MAX_SSE_ID_BYTES`] (with their line end) before the
/// parser sees them; every other byte goes on unchanged and in order, in runs as long as
/// the chunk (a line is only held while it may be an `id` field cut by the chunk's end).
#[derive(Debug, Default)]
struct IdGuard {
    open: Open,
    held: Vec<u8>,
    /// the previous chunk ended with `\r`: a `\n` first is part of that line end
    after_cr: bool,
    /// and that line was dropped (so is the `\n`)
    dropped_cr: bool,
}

/// An `id` line of `body` bytes (its field name included) is too long to keep.
fn id_too_long_line(body: usize) -> bool {
    // "id:", at most one space, the value
    body > MAX_SSE_ID_BYTES + 4
}

impl IdGuard {
    fn filter(&mut self, chunk: &[u8], mut give: impl FnMut(&[u8]), mut refused: impl FnMut()) {
        let mut out = |bytes: &[u8]| {
            if !bytes.is_empty() {
                give(bytes);
            }
        };
        if chunk.is_empty() {
            return;
        }
        let mut i = 0;
        if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
            if !self.dropped_cr {
                out(b"\n");
            }
            i = 1;
        }
        // the line the previous chunk ended in
        if self.open == Open::Start {
            while i < chunk.len() && self.held.len() < 3 && !matches!(chunk[i], b'\n' | b'\r') {
                self.held.push(chunk[i]);
                i += 1;
            }
            if i == chunk.len() && self.held.len() < 3 {
                return; // still cannot tell
            }
            let ends = i < chunk.len() && matches!(chunk[i], b'\n' | b'\r');
            if self.held.starts_with(b"id:") || (ends && self.held == b"id") {
                self.open = Open::Id;
            } else {
                out(&std::mem::take(&mut self.held));
                self.open = Open::Other;
            }
        }
        if self.open != Open::None {
            let rest = &chunk[i..];
            let end = memchr::memchr2(b'\n', b'\r', rest);
            let body = &rest[..end.unwrap_or(rest.len())];
            match self.open {
                Open::Id if id_too_long_line(self.held.len() + body.len()) => {
                    self.held = Vec::new();
                    self.open = Open::Dropped;
                    refused();
                }
                Open::Id => self.held.extend_from_slice(body),
                Open::Other => out(body),
                _ => {}
            }
            let Some(end) = end else { return };
            let line_end = self.line_end(rest, end);
            match self.open {
                Open::Id => {
                    self.held.extend_from_slice(&rest[end..line_end]);
                    out(&std::mem::take(&mut self.held));
                }
                Open::Other => out(&rest[end..line_end]),
                _ => {}
            }
            self.open = Open::None;
            i += line_end;
        }
        // fresh lines: passed on in one run, but for over-long `id` lines and a last line
        // that is (or may be) an `id` field
        let mut run = i;
        while i < chunk.len() {
            let rest = &chunk[i..];
            let end = memchr::memchr2(b'\n', b'\r', rest);
            let body = &rest[..end.unwrap_or(rest.len())];
            let Some(end) = end else {
                // `i`, `id` (maybe the start of `id:`) or an `id:` field: held
                if body.starts_with(b"id:") || b"id".starts_with(body) {
                    out(&chunk[run..i]);
                    run = chunk.len();
                    self.open = if body.starts_with(b"id:") {
                        Open::Id
                    } else {
                        Open::Start
                    };
                    if self.open == Open::Id && id_too_long_line(body.len()) {
                        self.open = Open::Dropped;
                        refused();
                    } else {
                        self.held = body.to_vec();
                    }
                } else {
                    self.open = Open::Other;
                }
                break;
            };
            let is_id = body.starts_with(b"id:") || body == b"id";
            let dropped = is_id && id_too_long_line(body.len());
            if dropped {
                out(&chunk[run..i]);
                refused();
            }
            self.open = if dropped { Open::Dropped } else { Open::Other };
            i += self.line_end(rest, end);
            self.open = Open::None;
            if dropped {
                run = i;
            }
        }
        out(&chunk[run.min(chunk.len())..]);
    }

    /// Past the line end at `rest[end]` (`\r\n` is one; a `\r` last in the chunk may be
    /// the first half of one: remembered).
    fn line_end(&mut self, rest: &[u8], end: usize) -> usize {
        if rest[end] == b'\r' {
            match rest.get(end + 1) {
                Some(b'\n') => return end + 2,
                Some(_) => {}
                None => {
                    self.after_cr = true;
                    self.dropped_cr = self.open == Open::Dropped;
                }
            }
        }
        end + 1
    }
}

/// Whether `b` is white space JSON allows around a value (RFC 8259 §2: space, tab, LF, CR;
/// not form feed or vertical tab, which `JSON.parse` and Python's `json.loads` refuse).
fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `text` without the white space JSON allows around a value ([`is_json_space`]); other
/// white space, such as U+00A0 or a form feed, stays and is refused by the decoder, as
/// `JSON.parse` and Python's `json.loads` refuse it.
fn json_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii() && is_json_space(c as u8))
}

/// A frame of JSON text (white space around it dropped); `invalid_json` when the bytes are
/// not UTF-8.
fn text_frame(bytes: Vec<u8>, what: &str) -> Result<Frame, MsgError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Frame {
            data: json_trim(&text).to_owned(),
            ..Frame::default()
        }),
        Err(e) => Err(MsgError::InvalidJson(format!(
            "{what} is not UTF-8: {}",
            e.utf8_error()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{IdGuard, MAX_SSE_ID_BYTES};

    /// What the guard must give: the input without its over-long `id` lines (CR LF, CR
    /// and LF each end a line; the line end goes with its line).
    fn expected(input: &[u8]) -> (Vec<u8>, usize) {
        let (mut out, mut dropped, mut i) = (Vec::new(), 0, 0);
        while i < input.len() {
            let end = input[i..].iter().position(|&b| b == b'\n' || b == b'\r').map(|e| i + e);
            let body_end = end.unwrap_or(input.len());
            let mut next = end.map_or(input.len(), |e| e + 1);
            if end.is_some_and(|e| input[e] == b'\r' && input.get(e + 1) == Some(&b'\n')) {
                next += 1;
            }
            let body = &input[i..body_end];
            if (body.starts_with(b"id:") || body == b"id") && body.len() > MAX_SSE_ID_BYTES + 4 {
                dropped += 1;
            } else {
                out.extend_from_slice(&input[i..next]);
            }
            i = next;
        }
        (out, dropped)
    }

    fn run(chunks: &[&[u8]]) -> (Vec<u8>, usize) {
        let (mut guard, mut out, mut dropped) = (IdGuard::default(), Vec::new(), 0);
        // the stream's end comes as a line end (as `Framer::end` gives it)
        for chunk in chunks.iter().chain([&&b"\n"[..]]) {
            guard.filter(chunk, |b| out.extend_from_slice(b), || dropped += 1);
        }
        (out, dropped)
    }

    #[test]
    fn only_over_long_id_lines_are_dropped_wherever_the_chunks_split() {
        let long = "x".repeat(MAX_SSE_ID_BYTES + 1);
        let fits = "y".repeat(MAX_SSE_ID_BYTES);
        let inputs = [
            format!("id: {long}\ndata: {{}}\n\nid: 7\ndata: {{}}\n\n"),
            format!("data: a\r\nid:{long}xy\r\n\r\nid: {fits}\r\ndata: b\r\rid\r\ni\nidx: {long}\n"),
            format!("id: {long}\rdata: c\n\n:comment\nid\nid:\nid: {fits}"),
            format!("id: {long}"),
        ];
        for input in &inputs {
            let input = input.as_bytes();
            let want = expected(&[input, b"\n"].concat());
            assert!(want.1 >= 1, "the input has a long id line");
            assert_eq!(run(&[input]), want);
            for at in 0..=input.len() {
                assert_eq!(run(&[&input[..at], &input[at..]]), want, "split at {at}");
            }
            // a few three-way splits around the line ends
            for at in (0..input.len()).filter(|&i| matches!(input[i], b'\n' | b'\r' | b':')) {
                for b in [at.saturating_sub(2), at, at + 1, at + 2] {
                    let (x, y) = (b.min(at), b.max(at).min(input.len()));
                    assert_eq!(run(&[&input[..x], &input[x..y], &input[y..]]), want, "splits {x} {y}");
                }
            }
            // one byte at a time
            let bytes: Vec<&[u8]> = input.chunks(1).collect();
            assert_eq!(run(&bytes), want);
        }
    }
}
