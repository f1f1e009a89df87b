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
                if let Some(sse) = &mut self.sse {
                    // complete a last line and frame that lack their line end / blank line
                    sse.feed(b"\n\n");
                    sse.finish();
                }
                self.drain_sse();
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
            Framing::Sse => self.sse = Some(SseParser::with_last_event_id(self.initial_id.as_str()).max_buffer(cap)),
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
        let Some(at) = start.iter().position(|b| !b.is_ascii_whitespace()) else {
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
                    if let Some(sse) = &mut self.sse {
                        sse.feed(piece);
                    }
                    self.drain_sse();
                }
            }
            Some(Framing::JsonLines) => self.lines.feed(chunk, &mut self.queue),
            Some(Framing::JsonArray) => self.array.feed(chunk, &mut self.queue),
            None => {}
        }
    }

    fn drain_sse(&mut self) {
        let Some(sse) = &mut self.sse else { return };
        // an oversized block was dropped by the parser (it never held it whole)
        if sse.overflows() > self.sse_overflows {
            self.sse_overflows = sse.overflows();
            self.queue.push_back(Err(too_long(self.max_frame)));
        }
        while let Some(event) = sse.next_event() {
            // a frame without data is a keep-alive (the parser already drops empty ones)
            if event.data.trim().is_empty() {
                continue;
            }
            self.queue.push_back(Ok(Frame {
                data: event.data,
                sse_id: (!event.id.is_empty()).then_some(event.id),
                sse_event: (event.event != "message").then_some(event.event),
            }));
        }
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
        if line.iter().all(u8::is_ascii_whitespace) {
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
            if !b.is_ascii_whitespace() {
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
                _ if b.is_ascii_whitespace() => {}
                _ => self.fail("a JSON array of events must start with `[`", out),
            }
            return;
        }
        if self.depth == 0 && !self.in_string {
            match b {
                _ if b.is_ascii_whitespace() && self.element.is_empty() => return,
                _ if b.is_ascii_whitespace() && self.complete => return,
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

/// A frame of JSON text (white space around it dropped); `invalid_json` when the bytes are
/// not UTF-8.
fn text_frame(bytes: Vec<u8>, what: &str) -> Result<Frame, MsgError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Frame {
            data: text.trim().to_owned(),
            ..Frame::default()
        }),
        Err(e) => Err(MsgError::InvalidJson(format!(
            "{what} is not UTF-8: {}",
            e.utf8_error()
        ))),
    }
}
