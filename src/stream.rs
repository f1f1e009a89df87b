//! Framing of recorded or live event streams: JSON Lines, a JSON array, or SSE (`data:`
//! frames; comments, heartbeats and other fields ignored), detected from the first byte.
//!
//! [`StreamDecoder`] is push-based (feed it chunks as they arrive, across any
//! boundaries) and handles JSON Lines and SSE; [`read_events`] reads a whole
//! [`BufRead`] incrementally and also handles JSON arrays.

use std::io::BufRead;

use serde::de::{self, Deserializer as _, SeqAccess, Visitor};
use serde_json::value::RawValue;
use sse_parse::SseParser;
use thiserror::Error;

use crate::error::MsgError;

/// How events are framed in a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One event (wire JSON) per line.
    JsonLines,
    /// One JSON array of events.
    JsonArray,
    /// Server-Sent Events: each event's `data` is one event's wire JSON.
    Sse,
}

impl Framing {
    /// The framing a stream starting with `byte` (its first byte that is not white
    /// space or a byte-order mark) uses: `[` → JSON array, `{` → JSON Lines, anything
    /// else (`data:`, `:` comment, `id:`, `event:`) → SSE.
    pub fn detect(byte: u8) -> Framing {
        match byte {
            b'[' => Framing::JsonArray,
            b'{' => Framing::JsonLines,
            _ => Framing::Sse,
        }
    }
}

/// A failure while reading a stream: I/O, or the event at 1-based position `index`.
#[derive(Debug, Error)]
pub enum StreamError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Event number `index` (1-based) was rejected.
    #[error("at event {index}: {error}")]
    Event {
        /// 1-based position of the event in the stream.
        index: usize,
        /// Why it was rejected.
        error: MsgError,
    },
}

impl StreamError {
    /// `io`, or the [`MsgError::code`] of the rejected event.
    pub fn code(&self) -> &'static str {
        match self {
            StreamError::Io(_) => "io",
            StreamError::Event { error, .. } => error.code(),
        }
    }
}

/// Push-based decoder for JSON Lines and SSE streams. Bytes go in with
/// [`StreamDecoder::feed`] in chunks of any size; each complete event's JSON text is
/// handed to the callback, in order.
pub struct StreamDecoder {
    framing: Option<Framing>,
    sse: SseParser,
    line: Vec<u8>,
    bom_checked: bool,
    events: usize,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Default for StreamDecoder {
    fn default() -> Self {
        StreamDecoder::new()
    }
}

type OnEvent<'a> = &'a mut dyn FnMut(&str) -> Result<(), MsgError>;

impl StreamDecoder {
    /// A decoder that detects the framing from the first bytes.
    pub fn new() -> StreamDecoder {
        StreamDecoder {
            framing: None,
            sse: SseParser::new(),
            line: Vec::new(),
            bom_checked: false,
            events: 0,
        }
    }

    /// A decoder for a known framing (JSON arrays are not supported here).
    pub fn with_framing(framing: Framing) -> StreamDecoder {
        StreamDecoder {
            framing: Some(framing),
            ..StreamDecoder::new()
        }
    }

    /// The framing detected so far (or given), if any.
    pub fn framing(&self) -> Option<Framing> {
        self.framing
    }

    /// Number of events handed to the callback so far.
    pub fn events(&self) -> usize {
        self.events
    }

    /// Feeds a chunk. Errors: the first event the callback rejects, with its position;
    /// `invalid_json` when the stream is a JSON array (use [`read_events`]).
    pub fn feed(&mut self, chunk: &[u8], on_event: OnEvent<'_>) -> Result<(), StreamError> {
        if self.framing.is_some() {
            return self.feed_framed(chunk, on_event);
        }
        // detect the framing from the first significant byte; a byte-order mark may
        // arrive split across chunks, so hold back a possible partial one
        self.line.extend_from_slice(chunk);
        let mut start = &self.line[..];
        if !self.bom_checked {
            if start.len() < BOM.len() && BOM.starts_with(start) {
                return Ok(());
            }
            self.bom_checked = true;
            start = start.strip_prefix(BOM).unwrap_or(start);
        }
        let Some(at) = start.iter().position(|b| !b.is_ascii_whitespace()) else {
            self.line.clear();
            return Ok(());
        };
        self.framing = Some(Framing::detect(start[at]));
        let rest = start[at..].to_vec();
        self.line.clear();
        self.feed_framed(&rest, on_event)
    }

    fn feed_framed(&mut self, chunk: &[u8], on_event: OnEvent<'_>) -> Result<(), StreamError> {
        match self.framing {
            Some(Framing::Sse) => {
                self.sse.feed(chunk);
                self.drain_sse(on_event)
            }
            Some(Framing::JsonLines) => {
                for piece in chunk.split_inclusive(|&b| b == b'\n') {
                    self.line.extend_from_slice(piece);
                    if piece.ends_with(b"\n") {
                        let line = std::mem::take(&mut self.line);
                        self.emit_line(&line, on_event)?;
                    }
                }
                Ok(())
            }
            Some(Framing::JsonArray) => Err(self.reject(MsgError::InvalidJson(
                "a JSON array of events cannot be fed in chunks; read it with read_events".into(),
            ))),
            None => Ok(()),
        }
    }

    /// Ends the stream: a last line without a newline is decoded; an SSE event not
    /// terminated by a blank line is dropped, as the SSE standard says.
    pub fn finish(&mut self, on_event: OnEvent<'_>) -> Result<(), StreamError> {
        match self.framing {
            Some(Framing::Sse) => {
                self.sse.finish();
                self.drain_sse(on_event)
            }
            Some(Framing::JsonLines) => {
                let line = std::mem::take(&mut self.line);
                self.emit_line(&line, on_event)
            }
            _ => Ok(()),
        }
    }

    fn drain_sse(&mut self, on_event: OnEvent<'_>) -> Result<(), StreamError> {
        while let Some(event) = self.sse.next_event() {
            // an event with an empty `data` is a keep-alive, not an AgentScope event
            if !event.data.trim().is_empty() {
                self.emit(&event.data, on_event)?;
            }
        }
        Ok(())
    }

    fn emit_line(&mut self, line: &[u8], on_event: OnEvent<'_>) -> Result<(), StreamError> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        match std::str::from_utf8(line) {
            Ok(text) => self.emit(text.trim(), on_event),
            Err(e) => Err(self.reject(MsgError::InvalidJson(format!("line is not UTF-8: {e}")))),
        }
    }

    fn emit(&mut self, json: &str, on_event: OnEvent<'_>) -> Result<(), StreamError> {
        self.events += 1;
        on_event(json).map_err(|error| StreamError::Event {
            index: self.events,
            error,
        })
    }

    fn reject(&mut self, error: MsgError) -> StreamError {
        self.events += 1;
        StreamError::Event {
            index: self.events,
            error,
        }
    }
}

/// Reads a whole stream incrementally, detecting its framing, and hands each event's JSON
/// text to `on_event`. Returns the number of events.
///
/// Errors: I/O errors; the first event `on_event` rejects, with its 1-based position; a
/// JSON array that is not well-formed (`invalid_json`).
pub fn read_events<R: BufRead>(
    mut reader: R,
    mut on_event: impl FnMut(&str) -> Result<(), MsgError>,
) -> Result<usize, StreamError> {
    // skip a byte-order mark and leading white space, however the reads split them
    let mut bom = 0;
    let first = loop {
        let Some(&b) = reader.fill_buf()?.first() else {
            return Ok(0);
        };
        if bom < BOM.len() && b == BOM[bom] {
            bom += 1;
        } else if b.is_ascii_whitespace() {
            bom = BOM.len();
        } else {
            break b;
        }
        reader.consume(1);
    };
    let framing = Framing::detect(first);
    if framing == Framing::JsonArray {
        return read_array(reader, on_event);
    }
    let mut decoder = StreamDecoder::with_framing(framing);
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            decoder.finish(&mut on_event)?;
            return Ok(decoder.events());
        }
        let len = chunk.len();
        decoder.feed(chunk, &mut on_event)?;
        reader.consume(len);
    }
}

fn read_array<R: BufRead>(
    reader: R,
    mut on_event: impl FnMut(&str) -> Result<(), MsgError>,
) -> Result<usize, StreamError> {
    struct Events<'a, F> {
        on_event: &'a mut F,
        count: &'a mut usize,
        rejected: &'a mut Option<MsgError>,
    }
    impl<'de, F: FnMut(&str) -> Result<(), MsgError>> Visitor<'de> for Events<'_, F> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON array of events")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(raw) = seq.next_element::<Box<RawValue>>()? {
                *self.count += 1;
                if let Err(e) = (self.on_event)(raw.get()) {
                    *self.rejected = Some(e);
                    return Err(de::Error::custom("event rejected"));
                }
            }
            Ok(())
        }
    }
    let (mut count, mut rejected) = (0, None);
    let mut de = serde_json::Deserializer::from_reader(reader);
    let result = de
        .deserialize_seq(Events {
            on_event: &mut on_event,
            count: &mut count,
            rejected: &mut rejected,
        })
        .and_then(|()| de.end());
    match result {
        Ok(()) => Ok(count),
        Err(e) => match rejected {
            Some(error) => Err(StreamError::Event { index: count, error }),
            None => Err(array_error(e, count)),
        },
    }
}

fn array_error(e: serde_json::Error, count: usize) -> StreamError {
    if e.is_io() {
        return StreamError::Io(e.into());
    }
    StreamError::Event {
        index: count + 1,
        error: MsgError::InvalidJson(e.to_string()),
    }
}
