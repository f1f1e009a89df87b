//! `agentscope_message._native`: the library's `Msg`, reducer and `Session` for Python
//! (PyO3). A thin, mechanical layer, as the wasm binding is (src/wasm/ of the library):
//! messages and events cross as the reference's wire JSON; errors become `MsgError` /
//! `SessionError` exceptions carrying the library's stable `code`. The Python package
//! around it (`agentscope_message/`) adds the factories' keyword arguments, the type
//! stubs and the opt-in AgentScope service fold.

use std::borrow::Cow;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use agentscope_message as core;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A call that may run long (parsing, writing, copying) releases the GIL (`py.detach`)
/// from this many bytes on: of the JSON text or chunk given, of an event's long strings
/// (`delta`, `data`, `url`), of the message written or copied (`weight`). A shorter one
/// keeps it: releasing costs about 0.2 µs, and a thread that gave the GIL up may wait for
/// it to come back as long as Python's switch interval (5 ms) when other threads are
/// busy, which a fold of short events (nearly all of a reply's) must not pay at every
/// event.
const LONG: usize = 64 << 10;

/// A message or session behind a mutex: every call locks it, waiting for the lock
/// detached from the interpreter (`lock_py_attached`: a thread holding the lock while
/// detached and a thread holding the GIL waiting for it cannot deadlock), and keeps it
/// through its detached part, so that another thread's call on the same object waits.
/// A lock left poisoned (a panic while it was held, which nothing here does) is taken
/// over as it is; a call from the thread holding the lock (an id or timestamp factory
/// using the object its own call is changing) is a `RuntimeError`, not a deadlock.
struct Locked<T> {
    value: Mutex<T>,
    /// the `thread_token` of the thread holding the lock, 0 when none
    owner: AtomicU64,
}

/// A number of the calling thread's own, never 0.
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static TOKEN: u64 = NEXT.fetch_add(1, Ordering::Relaxed));
    // (u64::MAX, which no thread gets, for a thread whose locals are being destroyed)
    TOKEN.try_with(|token| *token).unwrap_or(u64::MAX)
}

impl<T> Locked<T> {
    fn new(value: T) -> Locked<T> {
        Locked {
            value: Mutex::new(value),
            owner: AtomicU64::new(0),
        }
    }

    fn lock(&self, py: Python<'_>, what: &str) -> PyResult<Held<'_, T>> {
        let me = thread_token();
        // (only this thread stores its own token, and clears it before unlocking)
        if me != u64::MAX && self.owner.load(Ordering::Relaxed) == me {
            return Err(PyRuntimeError::new_err(format!(
                "this {what} is in use by a call of this thread already (a factory called while it is being changed)"
            )));
        }
        let guard = self.value.lock_py_attached(py).unwrap_or_else(|poisoned| {
            self.value.clear_poison();
            poisoned.into_inner()
        });
        self.owner.store(me, Ordering::Relaxed);
        Ok(Held {
            guard,
            owner: &self.owner,
        })
    }
}

/// A locked value; dereferenced to a plain `&mut T` for a closure given to `py.detach`.
struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    owner: &'a AtomicU64,
}

impl<T> Drop for Held<'_, T> {
    fn drop(&mut self) {
        // (before the guard, a field, unlocks)
        self.owner.store(0, Ordering::Relaxed);
    }
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

/// `f()`, detached from the interpreter when `long` (see `LONG`).
fn detach_if<T: Send>(py: Python<'_>, long: bool, f: impl FnOnce() -> T + Send) -> T {
    if long { py.detach(f) } else { f() }
}

pyo3::create_exception!(
    agentscope_message,
    MsgError,
    PyValueError,
    "A message or event the reference would refuse (or a cap passed); `code` is the stable code (`invalid_event`, `role_violation`, `limit_exceeded`, …)."
);
pyo3::create_exception!(
    agentscope_message,
    SessionError,
    MsgError,
    "An event a Session refused: `code` as MsgError's, `index` its 1-based position, `event_id` and `sse_id` when known."
);

/// `MsgError(message)` with its `code`.
fn msg_error(py: Python<'_>, e: &core::MsgError) -> PyErr {
    let err = MsgError::new_err(e.to_string());
    // (setting an attribute on a fresh exception object cannot fail but for memory)
    let _ = err.value(py).setattr("code", e.code());
    err
}

fn session_error(py: Python<'_>, e: &core::SessionError) -> PyErr {
    let err = SessionError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("code", e.code());
    let _ = value.setattr("index", e.index);
    let _ = value.setattr("event_id", e.event_id.clone());
    let _ = value.setattr("sse_id", e.sse_id.clone());
    err
}

/// Python's `json.loads(text)`: wire JSON to dicts and lists with their key order.
fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Python's `json.dumps(value, allow_nan=False)`; what it cannot write (a key or value
/// JSON has no form for) is `MsgError` with `code`.
fn json_dumps(value: &Bound<'_, PyAny>, code: &'static str) -> PyResult<String> {
    let py = value.py();
    if let Some(key) = non_str_key(value, 0) {
        // json.dumps would write the key 1 as "1", and a dict with both keys as two equal
        // keys, one of them then lost (the reference's pydantic models refuse such a key)
        let err = MsgError::new_err(format!("not JSON: a dict key is not a str ({key})"));
        let _ = err.value(py).setattr("code", code);
        return Err(err);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("allow_nan", false)?;
    match py
        .import("json")?
        .call_method("dumps", (value,), Some(&kwargs))
        .and_then(|text| text.extract::<String>())
    {
        Ok(text) => Ok(text),
        Err(e) => {
            let err = MsgError::new_err(format!("not JSON: {}", e.value(py)));
            let _ = err.value(py).setattr("code", code);
            Err(err)
        }
    }
}

/// The first dict key in `value` (dicts, lists and tuples within it, to the library's
/// depth) that is not a `str`, as its `repr`.
fn non_str_key(value: &Bound<'_, PyAny>, depth: usize) -> Option<String> {
    if depth > core::json::MAX_DEPTH {
        return None;
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        for (key, item) in dict.iter() {
            if key.cast::<PyString>().is_err() {
                return Some(key.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string()));
            }
            if let Some(found) = non_str_key(&item, depth + 1) {
                return Some(found);
            }
        }
    } else if value.cast::<PyList>().is_ok() || value.cast::<PyTuple>().is_ok() {
        for item in value.try_iter().ok()?.flatten() {
            if let Some(found) = non_str_key(&item, depth + 1) {
                return Some(found);
            }
        }
    }
    None
}

/// A Python value as JSON text, written here (no Python call) for dicts, lists, tuples,
/// strings, ints within 128 bits, floats (NaN and infinities as `null`, as pydantic's
/// `model_dump_json` writes them), bools and None; `None` for anything else or deeper than
/// the library reads (`json::MAX_DEPTH`: a cycle ends there too), for the caller's route
/// through Python. (pythonize would read these too, but with no depth limit: a cycle or
/// a deep value overflows the stack.)
///
/// A string holding a lone surrogate is written as its `\ud800` escape (Python's
/// `json.dumps`), which the library reads as the reference reads it (docs/differences.md
/// #4), unless `plain` (the service's fold, where the reference's own `append_event`
/// takes such an event).
fn py_json(value: &Bound<'_, PyAny>, plain: bool) -> Option<String> {
    let mut out = String::with_capacity(128);
    write_json(value, &mut out, 0, plain).then_some(out)
}

fn write_json(value: &Bound<'_, PyAny>, out: &mut String, depth: usize, plain: bool) -> bool {
    use std::fmt::Write;
    if depth > core::json::MAX_DEPTH {
        return false;
    }
    if value.is_none() {
        out.push_str("null");
    } else if let Ok(b) = value.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if let Ok(s) = value.cast::<PyString>() {
        match s.to_str() {
            // (writing a str into a String cannot fail)
            Ok(s) => {
                let _ = serde_json::to_string(s).map(|quoted| out.push_str(&quoted));
            }
            Err(_) if plain => return false,
            Err(_) => {
                let escaped = value
                    .py()
                    .import("json")
                    .and_then(|json| json.call_method1("dumps", (s,)));
                match escaped.and_then(|e| e.extract::<String>()) {
                    Ok(escaped) => out.push_str(&escaped),
                    Err(_) => return false,
                }
            }
        }
    } else if let Ok(i) = value.cast::<PyInt>() {
        let Ok(i) = i.extract::<i128>() else { return false };
        let _ = write!(out, "{i}");
    } else if let Ok(f) = value.cast::<PyFloat>() {
        match serde_json::to_string(&f.value()) {
            Ok(text) => out.push_str(&text),
            Err(_) => return false,
        }
    } else if let Ok(dict) = value.cast::<PyDict>() {
        out.push('{');
        for (i, (key, item)) in dict.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if key.cast::<PyString>().is_err() || !write_json(&key, out, depth + 1, plain) {
                return false;
            }
            out.push(':');
            if !write_json(&item, out, depth + 1, plain) {
                return false;
            }
        }
        out.push('}');
    } else if value.cast::<PyList>().is_ok() || value.cast::<PyTuple>().is_ok() {
        out.push('[');
        let Ok(items) = value.try_iter() else { return false };
        for (i, item) in items.enumerate() {
            if i > 0 {
                out.push(',');
            }
            match item {
                Ok(item) if write_json(&item, out, depth + 1, plain) => {}
                _ => return false,
            }
        }
        out.push(']');
    } else {
        return false;
    }
    true
}

/// A `str` as UTF-8 (borrowed: Python keeps a str's UTF-8 form), or `MsgError` with
/// `code` for one with a lone surrogate (which JSON text cannot carry).
fn utf8<'a>(text: &'a Bound<'_, PyString>, code: &'static str) -> PyResult<Cow<'a, str>> {
    text.to_cow().map_err(|_| {
        let err = MsgError::new_err("the text is not UTF-8: it holds a lone surrogate");
        let _ = err.value(text.py()).setattr("code", code);
        err
    })
}

/// An event's long strings held apart from it (`EventInput::Split`): the field (`delta`,
/// `data` or `url`) and the str.
type Apart<'py> = Vec<(&'static str, Bound<'py, PyString>)>;

/// What an event given to the binding is.
enum EventInput<'a, 'py> {
    /// Decoded already: an agentscope text delta, read from its attributes.
    Parsed(Box<core::AgentEvent>),
    /// JSON text for the library's decoder: the str's or bytes' own (not copied), or
    /// written from a dict or an agentscope event's fields.
    Text(Cow<'a, str>),
    /// An event decoded without its long strings (`LONG` bytes or more: a delta event's
    /// `delta`, `data` or `url`), which `splice` copies in when it is applied, detached:
    /// an agentscope text delta's, or (`split`) a dict's or an agentscope event's fields'.
    Split(Box<core::AgentEvent>, Apart<'py>),
}

/// An event given as JSON text (`str` or `bytes`), a `dict`, or an agentscope pydantic
/// event (the four text deltas read from their attributes; others from `__dict__`, or
/// `model_dump_json()` when that holds what `py_json` does not write). Raises MsgError
/// (`invalid_json`, `invalid_event`) or TypeError (not an event). `split`: a dict's long
/// strings may be held apart (`Msg`'s fold, where an event decoded from its JSON text
/// and one given decoded are the same; a `Session` keeps a dict's JSON text).
fn event_input<'a, 'py>(event: &'a Bound<'py, PyAny>, plain_only: bool, split: bool) -> PyResult<EventInput<'a, 'py>> {
    if let Ok(text) = event.cast::<PyString>() {
        return Ok(EventInput::Text(utf8(text, "invalid_json")?));
    }
    if let Ok(bytes) = event.cast::<PyBytes>() {
        return match std::str::from_utf8(bytes.as_bytes()) {
            Ok(text) => Ok(EventInput::Text(Cow::Borrowed(text))),
            Err(e) => Err(msg_error(
                event.py(),
                &core::MsgError::InvalidJson(format!("the event is not UTF-8: {e}")),
            )),
        };
    }
    if let Ok(dict) = event.cast::<PyDict>() {
        if let Some(input) = dict_input(dict, false, split)? {
            return Ok(input);
        }
        return Ok(EventInput::Text(Cow::Owned(json_dumps(
            dict.as_any(),
            "invalid_event",
        )?)));
    }
    if let Some(parsed) = read_delta(event)? {
        return Ok(parsed);
    }
    if event.hasattr("model_dump_json")? {
        if let Ok(fields) = event.getattr("__dict__") {
            let input = match fields.cast::<PyDict>() {
                Ok(dict) => dict_input(dict, plain_only, split)?,
                Err(_) => py_json(&fields, plain_only).map(|json| EventInput::Text(Cow::Owned(json))),
            };
            if let Some(input) = input {
                return Ok(input);
            }
        }
        if plain_only {
            let err = MsgError::new_err("the event holds values JSON has no plain form for");
            let _ = err.value(event.py()).setattr("code", "not_plain");
            return Err(err);
        }
        return match event
            .call_method0("model_dump_json")
            .and_then(|j| j.extract::<String>())
        {
            Ok(json) => Ok(EventInput::Text(Cow::Owned(json))),
            Err(e) => {
                let err = MsgError::new_err(format!("the event cannot be written as JSON: {}", e.value(event.py())));
                let _ = err.value(event.py()).setattr("code", "invalid_event");
                err.set_cause(event.py(), Some(e));
                Err(err)
            }
        };
    }
    Err(PyTypeError::new_err(format!(
        "an event is JSON text (str or bytes), a dict or an agentscope event, not {}",
        event.get_type().name()?
    )))
}

/// A dict event (or an agentscope event's `__dict__`) as JSON text (`py_json`); with
/// `split`, its long strings apart when its `type` is a delta event's holding them there
/// (`EventInput::Split`): the event is decoded with `""` in their places, which decodes
/// as the whole does (they are strings, which the decoder takes as they are), so that
/// its error is the whole's. `None` when `py_json` cannot write it.
fn dict_input<'a, 'py>(dict: &Bound<'py, PyDict>, plain: bool, split: bool) -> PyResult<Option<EventInput<'a, 'py>>> {
    let Some((json, apart)) = dict_json(dict, plain, split) else {
        return Ok(None);
    };
    if apart.is_empty() {
        return Ok(Some(EventInput::Text(Cow::Owned(json))));
    }
    let kind = dict.get_item(pyo3::intern!(dict.py(), "type"))?;
    let kind = kind
        .as_ref()
        .and_then(|k| k.cast::<PyString>().ok())
        .and_then(|k| k.to_str().ok());
    let keys = kind.map_or(&[][..], payload_keys);
    if !apart.iter().all(|(key, _)| keys.contains(key)) {
        // (a long `delta`, `data` or `url` of another event: written whole)
        return Ok(py_json(dict.as_any(), plain).map(|json| EventInput::Text(Cow::Owned(json))));
    }
    match core::AgentEvent::from_json(&json) {
        Ok(event) => Ok(Some(EventInput::Split(Box::new(event), apart))),
        Err(e) => Err(msg_error(dict.py(), &e)),
    }
}

/// `py_json` of an event dict; with `split`, each str of `LONG` bytes or more at its
/// keys `delta`, `data` and `url` written as `""` and returned apart.
fn dict_json<'py>(dict: &Bound<'py, PyDict>, plain: bool, split: bool) -> Option<(String, Apart<'py>)> {
    if !split {
        return py_json(dict.as_any(), plain).map(|json| (json, Vec::new()));
    }
    // (as `write_json` writes a dict)
    let mut out = String::with_capacity(128);
    let mut apart = Vec::new();
    out.push('{');
    for (i, (key, item)) in dict.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if key.cast::<PyString>().is_err() || !write_json(&key, &mut out, 1, plain) {
            return None;
        }
        out.push(':');
        if let Some(name) = long_payload(&key, &item) {
            out.push_str("\"\"");
            apart.push((name, item.cast_into::<PyString>().ok()?));
            continue;
        }
        if !write_json(&item, &mut out, 1, plain) {
            return None;
        }
    }
    out.push('}');
    Some((out, apart))
}

/// `delta`, `data` or `url` when `key` is one of them and `item` a str of `LONG` bytes of
/// UTF-8 or more (one without a UTF-8 form, a lone surrogate in it, is written whole).
fn long_payload(key: &Bound<'_, PyAny>, item: &Bound<'_, PyAny>) -> Option<&'static str> {
    let text = item.cast::<PyString>().ok()?;
    // (fewer than LONG / 4 characters are fewer than LONG bytes: no UTF-8 form is made)
    if text.len().ok()? < LONG / 4 || text.to_str().ok()?.len() < LONG {
        return None;
    }
    match key.cast::<PyString>().ok()?.to_str().ok()? {
        "delta" => Some("delta"),
        "data" => Some("data"),
        "url" => Some("url"),
        _ => None,
    }
}

/// The fields of a delta event's type that `max_delta_bytes` counts (the library's
/// `AgentEvent::delta_bytes`).
fn payload_keys(event_type: &str) -> &'static [&'static str] {
    match event_type {
        "TEXT_BLOCK_DELTA" | "THINKING_BLOCK_DELTA" | "TOOL_CALL_DELTA" | "TOOL_RESULT_TEXT_DELTA" => &["delta"],
        "DATA_BLOCK_DELTA" | "TOOL_RESULT_DATA_DELTA" => &["data", "url"],
        _ => &[],
    }
}

/// Puts a string held apart (`EventInput::Split`) into its event's field: the event as
/// decoded from its whole JSON text (a str without a lone surrogate reads back as it is).
fn splice(event: &mut core::AgentEvent, key: &str, text: &str) {
    use core::AgentEvent as E;
    match (key, event) {
        ("delta", E::TextBlockDelta(e)) => e.delta = text.into(),
        ("delta", E::ThinkingBlockDelta(e)) => e.delta = text.into(),
        ("delta", E::ToolCallDelta(e)) => e.delta = text.into(),
        ("delta", E::ToolResultTextDelta(e)) => e.delta = text.into(),
        ("data", E::DataBlockDelta(e)) => e.data = Some(text.to_owned()),
        ("url", E::DataBlockDelta(e)) => e.url = Some(text.to_owned()),
        ("data", E::ToolResultDataDelta(e)) => e.data = Some(text.to_owned()),
        ("url", E::ToolResultDataDelta(e)) => e.url = Some(text.to_owned()),
        _ => {}
    }
}

/// The strs held apart, as UTF-8 (each was read as such already).
fn apart_texts<'a>(apart: &'a Apart<'_>) -> PyResult<Vec<(&'static str, &'a str)>> {
    apart.iter().map(|(key, text)| Ok((*key, text.to_str()?))).collect()
}

/// The library's refusal of a delta over `max_delta_bytes` (`limits::check` in its
/// `Msg::admit`, the first cap it checks, after the reply id), here before the delta is
/// copied: the same error in the same words. `None` when `event` is not a delta of the
/// message `id` (another reply's is skipped, not refused) or `payload` (the delta's
/// bytes) is within the cap.
fn over_cap(event: &core::AgentEvent, payload: usize, id: &str, limits: core::Limits) -> Option<core::MsgError> {
    let max = limits.max_delta_bytes;
    if max == 0 || payload <= max || event.reply_id() != Some(id) || event.delta_bytes().is_none() {
        return None;
    }
    Some(core::MsgError::LimitExceeded(format!(
        "a delta would take {payload} bytes, past the cap of {max} (max_delta_bytes); the event was not applied"
    )))
}

/// The keys of an event's JSON text that `refuse_text` reads, borrowed from it (a key
/// given twice fails, and the library decides).
#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(rename = "type", borrow)]
    event_type: Cow<'a, str>,
    #[serde(borrow)]
    reply_id: Cow<'a, str>,
    #[serde(borrow, default)]
    delta: Option<&'a RawValue>,
    #[serde(borrow, default)]
    data: Option<&'a RawValue>,
    #[serde(borrow, default)]
    url: Option<&'a RawValue>,
}

/// The library's refusal (`over_cap`) of a delta event given as JSON text whose payload
/// passes `max_delta_bytes`, found without copying the payload: its length read from the
/// text (escapes counted as the decoder decodes them), the rest of the event decoded with
/// `""` in its place. `None`, for the library to decode the text and decide, for anything
/// else or anything this cannot tell exactly: not a delta event of this message, a
/// payload with a raw control character or (`data`, `url`) a lone surrogate escape, an
/// event that does not decode without its payload.
fn refuse_text(text: &str, id: &str, limits: core::Limits) -> Option<core::MsgError> {
    let max = limits.max_delta_bytes;
    // (a payload is never longer than the text that holds it)
    if max == 0 || text.len() <= max {
        return None;
    }
    let probe: Probe = serde_json::from_str(text).ok()?;
    if probe.reply_id != id {
        return None;
    }
    let mut payload = 0usize;
    let mut spans = Vec::new();
    for &key in payload_keys(&probe.event_type) {
        let raw = match key {
            "delta" => probe.delta,
            "data" => probe.data,
            _ => probe.url,
        };
        // (`null`, or a value the decoder refuses, stays as it is)
        let Some(raw) = raw.map(RawValue::get).filter(|raw| raw.starts_with('"')) else {
            continue;
        };
        payload = payload.saturating_add(string_len(raw, key == "delta")?);
        let start = (raw.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
        spans.push(start..start + raw.len());
    }
    if payload <= max {
        return None;
    }
    spans.sort_by_key(|span| span.start);
    let mut rest = String::with_capacity(128);
    let mut at = 0;
    for span in spans {
        rest.push_str(text.get(at..span.start)?);
        rest.push_str("\"\"");
        at = span.end;
    }
    rest.push_str(text.get(at..)?);
    let event = core::AgentEvent::from_json(&rest).ok()?;
    over_cap(&event, event.delta_bytes()?.saturating_add(payload), id, limits)
}

/// The UTF-8 bytes of the JSON string `raw` (quotes included) once decoded as the
/// library decodes it: a text delta's lone surrogate escape (`lone`) as U+FFFD, a pair
/// as one character. `None` for a raw control character, a bad escape, or a lone
/// surrogate where it is refused (`data`, `url`).
fn string_len(raw: &str, lone: bool) -> Option<usize> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?.as_bytes();
    // most payloads have no escape: one pass the compiler vectorises
    let plain = inner
        .chunks(4096)
        .all(|chunk| !chunk.iter().fold(false, |found, &b| found | (b == b'\\') | (b < 0x20)));
    if plain {
        return Some(inner.len());
    }
    let hex = |at: usize| -> Option<u32> {
        let digits = inner.get(at..at + 4)?;
        digits
            .iter()
            .try_fold(0u32, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
    };
    let (mut n, mut i) = (0usize, 0usize);
    while i < inner.len() {
        match inner[i] {
            b if b < 0x20 => return None,
            b'\\' => {}
            _ => {
                n += 1;
                i += 1;
                continue;
            }
        }
        match inner.get(i + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                n += 1;
                i += 2;
            }
            b'u' => {
                let unit = hex(i + 2)?;
                i += 6;
                let pair = (0xD800..0xDC00).contains(&unit)
                    && inner.get(i..i + 2) == Some(b"\\u")
                    && hex(i + 2).is_some_and(|low| (0xDC00..0xE000).contains(&low));
                if pair {
                    n += 4;
                    i += 6;
                    continue;
                }
                n += match unit {
                    0xD800..0xE000 if !lone => return None,
                    0..0x80 => 1,
                    0x80..0x800 => 2,
                    _ => 3,
                };
            }
            _ => return None,
        }
    }
    Some(n)
}

/// The four text deltas of an agentscope pydantic event (nearly every event of a long
/// reply), read straight from its attributes, the delta held apart when it is long
/// (`LONG`); `None` for any other event, or one whose metadata is not empty or whose text
/// is not UTF-8 (a lone surrogate), which take the general route.
fn read_delta<'a, 'py>(event: &Bound<'py, PyAny>) -> PyResult<Option<EventInput<'a, 'py>>> {
    let py = event.py();
    let Ok(kind) = event.getattr(pyo3::intern!(py, "type")) else {
        return Ok(None);
    };
    let Ok(kind) = kind.cast_into::<PyString>() else {
        return Ok(None);
    };
    let target = match &*kind.to_cow()? {
        "TEXT_BLOCK_DELTA" => 0,
        "THINKING_BLOCK_DELTA" => 1,
        "TOOL_CALL_DELTA" => 2,
        "TOOL_RESULT_TEXT_DELTA" => 3,
        _ => return Ok(None),
    };
    let string = |name: &Bound<'py, PyString>| -> Option<Bound<'py, PyString>> {
        event.getattr(name).ok()?.cast_into::<PyString>().ok()
    };
    let text = |name: &Bound<'py, PyString>| -> Option<String> { string(name)?.to_str().ok().map(str::to_owned) };
    let empty = event
        .getattr(pyo3::intern!(py, "metadata"))
        .ok()
        .and_then(|m| m.cast_into::<PyDict>().ok())
        .is_some_and(|m| m.is_empty());
    let id_name = if target < 2 {
        pyo3::intern!(py, "block_id")
    } else {
        pyo3::intern!(py, "tool_call_id")
    };
    let (Some(id), Some(created_at), Some(reply_id), Some(target_id), Some(delta), true) = (
        text(pyo3::intern!(py, "id")),
        text(pyo3::intern!(py, "created_at")),
        text(pyo3::intern!(py, "reply_id")),
        text(id_name),
        string(pyo3::intern!(py, "delta")),
        empty,
    ) else {
        return Ok(None);
    };
    let Ok(text) = delta.to_str() else {
        return Ok(None);
    };
    let long = text.len() >= LONG;
    let metadata = core::json::Map::new();
    let delta_now = if long {
        core::Delta::default()
    } else {
        core::Delta::from(text)
    };
    let delta = if long { vec![("delta", delta)] } else { Vec::new() };
    let event = match target {
        0 => core::AgentEvent::TextBlockDelta(core::TextBlockDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            block_id: target_id,
            delta: delta_now,
        }),
        1 => core::AgentEvent::ThinkingBlockDelta(core::ThinkingBlockDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            block_id: target_id,
            delta: delta_now,
        }),
        2 => core::AgentEvent::ToolCallDelta(core::ToolCallDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            tool_call_id: target_id,
            delta: delta_now,
        }),
        _ => core::AgentEvent::ToolResultTextDelta(core::ToolResultTextDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            tool_call_id: target_id,
            delta: delta_now,
        }),
    };
    Ok(Some(if delta.is_empty() {
        EventInput::Parsed(Box::new(event))
    } else {
        EventInput::Split(Box::new(event), delta)
    }))
}

/// About how many bytes a message's wire JSON takes, counted up to `LONG` and no
/// further (whether writing or copying it may run long): its strings, 96 bytes a block
/// and (its length is not at hand) `LONG` a base64 source.
fn weight(msg: &core::Msg) -> usize {
    let mut w = Weight(256 + msg.name.len() + msg.id.len());
    w.map(&msg.metadata);
    if let Some(output) = &msg.structured_output {
        w.map(output);
    }
    for block in msg.content() {
        if w.0 >= LONG {
            break;
        }
        w.block(block);
    }
    w.0
}

struct Weight(usize);

impl Weight {
    fn block(&mut self, block: &core::ContentBlock) {
        use core::ContentBlock as B;
        self.0 += 96;
        match block {
            B::Text(b) => self.0 += b.text.len(),
            B::Thinking(b) => {
                self.0 += b.thinking.len();
                self.map(&b.extra);
            }
            B::Data(b) => self.source(&b.source),
            B::Hint(b) => self.output(&b.hint),
            B::ToolCall(b) => self.0 += b.name.len() + b.input.len() + 64 * b.suggested_rules.len(),
            B::ToolResult(b) => {
                self.output(&b.output);
                self.map(&b.metadata);
            }
        }
    }

    fn source(&mut self, source: &core::DataSource) {
        self.0 += match source {
            core::DataSource::Url(u) => u.url.len(),
            core::DataSource::Base64(_) => LONG,
        };
    }

    fn output(&mut self, output: &core::TextOrBlocks) {
        match output {
            core::TextOrBlocks::Text(text) => self.0 += text.len(),
            core::TextOrBlocks::Blocks(items) => {
                for item in items {
                    if self.0 >= LONG {
                        return;
                    }
                    self.0 += 96;
                    match item {
                        core::TextOrData::Text(t) => self.0 += t.text.len(),
                        core::TextOrData::Data(d) => self.source(&d.source),
                    }
                }
            }
        }
    }

    fn map(&mut self, map: &core::json::Map) {
        for (key, value) in map {
            if self.0 >= LONG {
                return;
            }
            self.0 += key.len() + 4;
            self.value(value);
        }
    }

    fn value(&mut self, value: &core::json::Value) {
        use core::json::Value as V;
        match value {
            V::String(s) => self.0 += s.len() + 2,
            V::Array(items) => {
                for item in items {
                    if self.0 >= LONG {
                        return;
                    }
                    self.0 += 1;
                    self.value(item);
                }
            }
            V::Object(map) => self.map(map),
            _ => self.0 += 8,
        }
    }
}

/// A block-type filter: `None`, one type (`"text"`) or a list of types.
fn block_types(types: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(types) = types else { return Ok(None) };
    if types.is_none() {
        return Ok(None);
    }
    if let Ok(one) = types.extract::<String>() {
        return Ok(Some(vec![one]));
    }
    types
        .extract::<Vec<String>>()
        .map(Some)
        .map_err(|_| PyTypeError::new_err("types is None, a block type (str) or a list of block types"))
}

/// One AgentScope message (`Msg`), held in Rust: `append_event` applies an event in
/// place in amortised constant time per delta (the reference's is linear in the text so
/// far). Serialises to the reference's wire JSON byte for byte. Locked by each call
/// (`Locked`); a long one runs detached from the interpreter (`LONG`).
#[pyclass(module = "agentscope_message", name = "Msg", frozen)]
struct PyMsg {
    msg: Locked<core::Msg>,
}

#[pymethods]
impl PyMsg {
    /// Parses and validates wire JSON, as `Msg.model_validate_json`. Raises `MsgError`
    /// (`invalid_json`, `invalid_msg`, `invalid_role`, `invalid_content`, `invalid_url`,
    /// `role_violation`).
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &Bound<'_, PyAny>) -> PyResult<PyMsg> {
        let text = if let Ok(bytes) = json.cast::<PyBytes>() {
            std::str::from_utf8(bytes.as_bytes()).map(Cow::Borrowed).map_err(|e| {
                msg_error(
                    py,
                    &core::MsgError::InvalidJson(format!("the message is not UTF-8: {e}")),
                )
            })?
        } else if let Ok(text) = json.cast::<PyString>() {
            utf8(text, "invalid_json")?
        } else {
            return Err(PyTypeError::new_err("a message's JSON is str or bytes"));
        };
        PyMsg::parse(py, &text)
    }

    /// A message from a dict of its fields (`Msg.model_validate`) or from an agentscope
    /// `Msg` (read through its `model_dump_json()`).
    #[staticmethod]
    fn from_dict(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PyMsg> {
        let json = if value.hasattr("model_dump_json")? {
            value.call_method0("model_dump_json")?.extract::<String>()?
        } else {
            match py_json(value, false) {
                Some(json) => json,
                None => json_dumps(value, "invalid_msg")?,
            }
        };
        PyMsg::parse(py, &json)
    }

    /// `UserMsg` / `AssistantMsg` / `SystemMsg` (the package's factories call this):
    /// `content_json` is a JSON string or array of blocks, `options_json` an object of
    /// the optional fields (`id`, `metadata`, `created_at`, …).
    #[staticmethod]
    fn _create(
        py: Python<'_>,
        role: &str,
        name: &Bound<'_, PyString>,
        content_json: &str,
        options_json: &str,
    ) -> PyResult<PyMsg> {
        let name = &*utf8(name, "invalid_argument")?;
        let long = content_json.len() >= LONG;
        let msg = detach_if(py, long, || {
            let options: core::MsgOptions =
                serde_json::from_str(options_json).map_err(|e| core::MsgError::InvalidMsg(format!("options: {e}")))?;
            let content: core::MsgContent = if content_json.trim_start().starts_with('"') {
                serde_json::from_str::<String>(content_json)
                    .map_err(|e| core::MsgError::InvalidMsg(format!("content: {e}")))?
                    .into()
            } else {
                core::parse_content(content_json)?.into()
            };
            match role {
                "user" => core::user_msg(name, content, options),
                "system" => core::system_msg(name, content, options),
                "assistant" => core::assistant_msg(name, content, options),
                _ => Err(core::MsgError::InvalidRole),
            }
        });
        msg.map(PyMsg::new).map_err(|e| msg_error(py, &e))
    }

    /// Applies one event (`Msg.append_event`): JSON text, a dict or an agentscope event.
    /// Returns `"applied"`, or the code of why it changed nothing (`ignored_type`,
    /// `foreign_reply`, `unknown_block`, …: the reference's silent skips and warnings).
    /// Raises `MsgError` with the message unchanged.
    fn append_event(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        self.append(py, event, false)
    }

    /// `append_event` of an agentscope event whose fields are all plain JSON values
    /// (`agentscope_message.agentscope`'s fold): one holding other values (a datetime,
    /// bytes, a model: the reference keeps them as they are) raises MsgError `not_plain`.
    fn _append_plain(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        self.append(py, event, true)
    }

    /// The caps on what events may add, in bytes and blocks (0 is no cap); the defaults
    /// are the library's (`max_delta_bytes` 64 MiB, `max_block_bytes` 256 MiB,
    /// `max_message_bytes` 512 MiB, `max_blocks` 100,000). A cap passed is `MsgError`
    /// `limit_exceeded`.
    #[pyo3(signature = (*, max_delta_bytes=None, max_block_bytes=None, max_message_bytes=None, max_blocks=None))]
    fn set_limits(
        &self,
        py: Python<'_>,
        max_delta_bytes: Option<usize>,
        max_block_bytes: Option<usize>,
        max_message_bytes: Option<usize>,
        max_blocks: Option<usize>,
    ) -> PyResult<()> {
        let mut msg = self.lock(py)?;
        let mut limits = msg.limits();
        limits.max_delta_bytes = max_delta_bytes.unwrap_or(limits.max_delta_bytes);
        limits.max_block_bytes = max_block_bytes.unwrap_or(limits.max_block_bytes);
        limits.max_message_bytes = max_message_bytes.unwrap_or(limits.max_message_bytes);
        limits.max_blocks = max_blocks.unwrap_or(limits.max_blocks);
        msg.set_limits(limits);
        Ok(())
    }

    /// Compact wire JSON, as the reference's `model_dump_json()`.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        self.json(py)
    }

    /// The message as dicts and lists, `model_dump(mode="json")`'s shape and key order.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &self.json(py)?)
    }

    /// The message as an agentscope `Msg` (`agentscope.message.Msg.model_validate_json`;
    /// needs agentscope installed).
    fn to_agentscope<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cls = py.import("agentscope.message")?.getattr("Msg")?;
        cls.call_method1("model_validate_json", (self.json(py)?,))
    }

    /// The text blocks' text joined by `separator`; `None` when there is no text block.
    #[pyo3(signature = (separator=None))]
    fn get_text_content(&self, py: Python<'_>, separator: Option<&Bound<'_, PyString>>) -> PyResult<Option<String>> {
        let separator = match separator {
            Some(separator) => utf8(separator, "invalid_argument")?,
            None => "\n".into(),
        };
        let separator: &str = &separator;
        let msg = self.lock(py)?;
        let msg = &*msg;
        Ok(detach_if(py, weight(msg) >= LONG, || msg.get_text_content(separator)))
    }

    /// The content blocks (as dicts), all of them or those of `types` (a block type or a
    /// list of them).
    #[pyo3(signature = (types=None))]
    fn get_content_blocks<'py>(
        &self,
        py: Python<'py>,
        types: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let types = block_types(types)?;
        let names: Option<Vec<&str>> = types.as_ref().map(|t| t.iter().map(String::as_str).collect());
        let names = names.as_deref();
        let texts = {
            let msg = self.lock(py)?;
            let msg = &*msg;
            detach_if(py, weight(msg) >= LONG, || {
                let blocks = msg.get_content_blocks(names);
                blocks.into_iter().map(core::wire::to_string).collect::<Vec<_>>()
            })
        };
        let list = PyList::empty(py);
        for text in texts {
            list.append(json_loads(py, &text)?)?;
        }
        Ok(list)
    }

    /// Whether the message has a block (of `types`, when given).
    #[pyo3(signature = (types=None))]
    fn has_content_blocks(&self, py: Python<'_>, types: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let types = block_types(types)?;
        let names: Option<Vec<&str>> = types.as_ref().map(|t| t.iter().map(String::as_str).collect());
        Ok(self.lock(py)?.has_content_blocks(names.as_deref()))
    }

    #[getter]
    fn id(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.lock(py)?.id.clone())
    }

    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.lock(py)?.name.clone())
    }

    #[getter]
    fn role(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.lock(py)?.role.as_str())
    }

    #[getter]
    fn created_at(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.lock(py)?.created_at.clone())
    }

    #[getter]
    fn finished_at(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.lock(py)?.finished_at.clone())
    }

    #[getter]
    fn finished_reason(&self, py: Python<'_>) -> PyResult<Option<String>> {
        // (the enum's wire name: its JSON string without the quotes)
        Ok(self
            .lock(py)?
            .finished_reason
            .map(|r| core::wire::to_string(&r).trim_matches('"').to_owned()))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<PyMsg>() else {
            return Ok(false);
        };
        // one message locked at a time (two threads comparing a == b and b == a must not
        // each hold one lock and wait for the other)
        let mine = self.json(py)?;
        Ok(other.get().json(py)? == mine)
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<PyMsg> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<PyMsg> {
        self.copy(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let msg = self.lock(py)?;
        Ok(format!(
            "Msg(id={:?}, name={:?}, role={:?}, blocks={})",
            msg.id,
            msg.name,
            msg.role.as_str(),
            msg.content().len()
        ))
    }
}

impl PyMsg {
    fn new(msg: core::Msg) -> PyMsg {
        PyMsg { msg: Locked::new(msg) }
    }

    fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, core::Msg>> {
        self.msg.lock(py, "Msg")
    }

    /// `Msg::from_json`, detached when the text is long.
    fn parse(py: Python<'_>, text: &str) -> PyResult<PyMsg> {
        detach_if(py, text.len() >= LONG, || core::Msg::from_json(text))
            .map(PyMsg::new)
            .map_err(|e| msg_error(py, &e))
    }

    /// The wire JSON, written detached when the message is long.
    fn json(&self, py: Python<'_>) -> PyResult<String> {
        let msg = self.lock(py)?;
        let msg = &*msg;
        Ok(detach_if(py, weight(msg) >= LONG, || msg.to_json()))
    }

    /// A copy of the message, made detached when it is long.
    fn cloned(&self, py: Python<'_>) -> PyResult<core::Msg> {
        let msg = self.lock(py)?;
        let msg = &*msg;
        Ok(detach_if(py, weight(msg) >= LONG, || msg.clone()))
    }

    fn copy(&self, py: Python<'_>) -> PyResult<PyMsg> {
        self.cloned(py).map(PyMsg::new)
    }

    fn append(&self, py: Python<'_>, event: &Bound<'_, PyAny>, plain_only: bool) -> PyResult<&'static str> {
        // the event is read (Python code: attributes, model_dump_json) and decoded (which
        // may call an id factory) before the message is locked, so that another thread may
        // use the message meanwhile, and the factory too
        let outcome = match event_input(event, plain_only, true)? {
            EventInput::Parsed(event) => self.lock(py)?.append_event(&event),
            EventInput::Text(text) if text.len() < LONG => {
                let event = core::AgentEvent::from_json(&text).map_err(|e| msg_error(py, &e))?;
                self.lock(py)?.append_event(&event)
            }
            EventInput::Text(text) => {
                let text: &str = &text;
                let (id, limits) = {
                    let msg = self.lock(py)?;
                    (msg.id.clone(), msg.limits())
                };
                // a delta over the cap refused before it is copied
                let event = py
                    .detach(|| match refuse_text(text, &id, limits) {
                        Some(refusal) => Err(refusal),
                        None => core::AgentEvent::from_json(text),
                    })
                    .map_err(|e| msg_error(py, &e))?;
                let mut msg = self.lock(py)?;
                let msg = &mut *msg;
                py.detach(|| msg.append_event(&event))
            }
            EventInput::Split(mut event, apart) => {
                let texts = apart_texts(&apart)?;
                let mut msg = self.lock(py)?;
                let given = texts.iter().fold(0usize, |n, (_, text)| n.saturating_add(text.len()));
                let payload = event.delta_bytes().unwrap_or(0).saturating_add(given);
                // a delta over the cap refused before it is copied
                if let Some(refusal) = over_cap(&event, payload, &msg.id, msg.limits()) {
                    return Err(msg_error(py, &refusal));
                }
                let msg = &mut *msg;
                py.detach(|| {
                    for (key, text) in &texts {
                        splice(&mut event, key, text);
                    }
                    msg.append_event(&event)
                })
            }
        };
        outcome.map(|outcome| outcome.code()).map_err(|e| msg_error(py, &e))
    }
}

/// What a `Session` did with one event (`feed`, `end`): see the type stubs.
#[pyclass(module = "agentscope_message", name = "Update", get_all, frozen)]
struct PyUpdate {
    index: usize,
    reply_id: Option<String>,
    event_type: Option<&'static str>,
    event_id: Option<String>,
    sse_id: Option<String>,
    /// `applied`, `skipped`, `custom`, `reply_started`, `reply_ended`, `refused`
    kind: &'static str,
    /// a skip's code (`skipped`)
    reason: Option<&'static str>,
    /// a `CUSTOM` event's name and value (`custom`)
    name: Option<String>,
    value: Option<Py<PyAny>>,
    /// the message's position in `Session.messages()` (`reply_started`, `reply_ended`)
    message: Option<usize>,
    continued: bool,
    /// the message as its `REPLY_END` left it (`reply_ended`)
    msg: Option<Py<PyMsg>>,
    /// the refusal (`refused`): a `SessionError`
    error: Option<Py<PyAny>>,
    /// the diagnostics noted on the event, as dicts
    diagnostics: Py<PyList>,
}

#[pymethods]
impl PyUpdate {
    fn __repr__(&self) -> String {
        let event_type = self
            .event_type
            .map(|t| format!("{t:?}"))
            .unwrap_or_else(|| "None".into());
        format!(
            "Update(index={}, kind={:?}, event_type={event_type})",
            self.index, self.kind
        )
    }
}

fn update_to_py(py: Python<'_>, update: core::Update) -> PyResult<PyUpdate> {
    let diagnostics = json_loads(py, &core::wire::to_string(&update.diagnostics))?
        .cast_into::<PyList>()
        .map_err(PyErr::from)?
        .unbind();
    let mut out = PyUpdate {
        index: update.index,
        reply_id: update.reply_id,
        event_type: update.event_type.map(|t| t.as_str()),
        event_id: update.event_id,
        sse_id: update.sse_id,
        kind: "applied",
        reason: None,
        name: None,
        value: None,
        message: None,
        continued: false,
        msg: None,
        error: None,
        diagnostics,
    };
    match update.kind {
        core::UpdateKind::Applied => {}
        core::UpdateKind::Skipped(skip) => {
            out.kind = "skipped";
            out.reason = Some(skip.code());
        }
        core::UpdateKind::Custom { name, value } => {
            out.kind = "custom";
            out.name = Some(name);
            out.value = Some(json_loads(py, &core::wire::to_string(&value))?.unbind());
        }
        core::UpdateKind::ReplyStarted { message, continued } => {
            out.kind = "reply_started";
            out.message = Some(message);
            out.continued = continued;
        }
        core::UpdateKind::ReplyEnded { message, msg } => {
            out.kind = "reply_ended";
            out.message = Some(message);
            out.msg = Some(Py::new(py, PyMsg::new(*msg))?);
        }
        core::UpdateKind::Refused(error) => {
            out.kind = "refused";
            out.error = Some(session_error(py, &error).into_value(py).into_any());
        }
    }
    Ok(out)
}

/// Whether copying `messages` may run long (`weight`).
fn long_messages<'m>(messages: impl Iterator<Item = &'m core::Msg>) -> bool {
    let mut total = 0usize;
    for msg in messages {
        total = total.saturating_add(weight(msg));
        if total >= LONG {
            return true;
        }
    }
    false
}

/// A conversation rebuilt from an event stream (SSE, JSON Lines or a JSON array, framed
/// as the bytes show) or from single events: the library's `Session`, with its options,
/// caps, diagnostics and checkpoints (docs/session.md). Locked by each call (`Locked`);
/// a long one runs detached from the interpreter (`LONG`).
#[pyclass(module = "agentscope_message", name = "Session", frozen)]
struct PySession {
    session: Locked<core::Session>,
}

#[pymethods]
impl PySession {
    /// A session; keyword options as `SessionOptions` (docs/session.md): `strict`,
    /// `dedup`, `skip_invalid`, `keep_events`, `tool_call_match` / `block_match`
    /// (`"first"` / `"newest"`), `max_frame_bytes`, `max_delta_bytes`,
    /// `max_block_bytes`, `max_message_bytes`, `max_blocks`, `max_session_bytes`. An
    /// unknown option or a wrong type is `MsgError` `invalid_argument`.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<PySession> {
        let options: core::SessionOptions = match options {
            None => core::SessionOptions::default(),
            Some(dict) => {
                let json = json_dumps(dict.as_any(), "invalid_argument")?;
                serde_json::from_str(&json).map_err(|e| {
                    // (serde's words without its position in the JSON made of the keywords)
                    let text = e.to_string();
                    let text = text.split(" at line ").next().unwrap_or_default();
                    let err = MsgError::new_err(format!("Session options: {text}"));
                    let _ = err.value(py).setattr("code", "invalid_argument");
                    err
                })?
            }
        };
        Ok(PySession::wrap(core::Session::new(options)))
    }

    /// A session as its `checkpoint()` left it.
    #[staticmethod]
    fn restore(py: Python<'_>, checkpoint: &Bound<'_, PyString>) -> PyResult<PySession> {
        let text = utf8(checkpoint, "invalid_argument")?;
        let text: &str = &text;
        detach_if(py, text.len() >= LONG, || core::Session::restore(text))
            .map(PySession::wrap)
            .map_err(|e| msg_error(py, &e))
    }

    /// Feeds a chunk of the stream (bytes or str, cut anywhere) and returns what was
    /// done with each event it completed, in order. Never raises for a bad event: a
    /// refused one is an update of kind `refused`, and the events after it go on.
    fn feed(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Vec<PyUpdate>> {
        // the chunk's own bytes, not copied (a str's UTF-8 form is Python's)
        let text;
        let bytes: &[u8] = if let Ok(chunk) = chunk.cast::<PyString>() {
            text = utf8(chunk, "invalid_stream")?;
            text.as_bytes()
        } else if let Ok(chunk) = chunk.cast::<PyBytes>() {
            chunk.as_bytes()
        } else {
            return Err(PyTypeError::new_err("a chunk is bytes or str"));
        };
        let updates = {
            let mut session = self.lock(py)?;
            let session = &mut *session;
            detach_if(py, bytes.len() >= LONG, || session.feed_updates(bytes))
        };
        updates.into_iter().map(|u| update_to_py(py, u)).collect()
    }

    /// Ends the stream: frames what is left (a last line without its newline) and
    /// returns its updates.
    fn end(&self, py: Python<'_>) -> PyResult<Vec<PyUpdate>> {
        let updates = {
            let mut session = self.lock(py)?;
            let session = &mut *session;
            // (what is left may be a whole long frame: detached, once a stream)
            py.detach(|| session.end_updates())
        };
        updates.into_iter().map(|u| update_to_py(py, u)).collect()
    }

    /// Applies one event (JSON text, dict or agentscope event) and returns `"applied"`
    /// or the skip's code. Raises `SessionError` with the session unchanged.
    fn apply(&self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        // JSON text goes through the session's own decoder (`apply_json`), so that a frame
        // that does not decode is a SessionError with its index, or with `skip_invalid` a
        // diagnostic, as on every route (a dict too: no `split`)
        let input = event_input(event, false, false)?;
        let applied = match input {
            EventInput::Parsed(event) => self.lock(py)?.apply(&event),
            EventInput::Text(json) => {
                let json: &str = &json;
                let mut session = self.lock(py)?;
                let session = &mut *session;
                detach_if(py, json.len() >= LONG, || session.apply_json(json))
            }
            EventInput::Split(mut event, apart) => {
                let texts = apart_texts(&apart)?;
                let mut session = self.lock(py)?;
                let session = &mut *session;
                py.detach(|| {
                    for (key, text) in &texts {
                        splice(&mut event, key, text);
                    }
                    session.apply(&event)
                })
            }
        };
        applied.map(|outcome| outcome.code()).map_err(|e| session_error(py, &e))
    }

    /// Adds a message the session did not see streamed (history), as a copy.
    fn insert(&self, py: Python<'_>, msg: &Bound<'_, PyMsg>) -> PyResult<()> {
        // (one lock at a time: the message's, then the session's)
        let msg = msg.get().cloned(py)?;
        let long = weight(&msg) >= LONG;
        let mut session = self.lock(py)?;
        let session = &mut *session;
        detach_if(py, long, || session.insert(msg));
        Ok(())
    }

    /// The messages, in the order their replies started (copies).
    fn messages(&self, py: Python<'_>) -> PyResult<Vec<PyMsg>> {
        let session = self.lock(py)?;
        let session = &*session;
        let messages = detach_if(py, long_messages(session.messages()), || {
            session.messages().cloned().collect::<Vec<_>>()
        });
        Ok(messages.into_iter().map(PyMsg::new).collect())
    }

    /// The message of `reply_id` (a copy), or `None`.
    fn get(&self, py: Python<'_>, reply_id: &Bound<'_, PyString>) -> PyResult<Option<PyMsg>> {
        let reply_id = utf8(reply_id, "invalid_argument")?;
        let session = self.lock(py)?;
        let Some(msg) = session.get(&reply_id) else {
            return Ok(None);
        };
        Ok(Some(PyMsg::new(detach_if(py, weight(msg) >= LONG, || msg.clone()))))
    }

    /// Whether the reply of `reply_id` has ended.
    fn is_ended(&self, py: Python<'_>, reply_id: &Bound<'_, PyString>) -> PyResult<bool> {
        let reply_id = utf8(reply_id, "invalid_argument")?;
        Ok(self.lock(py)?.is_ended(&reply_id))
    }

    /// Every diagnostic so far, as dicts (`code`, `message`, `index`, …).
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = core::wire::to_string(self.lock(py)?.diagnostics());
        json_loads(py, &text)
    }

    /// With `keep_events`: the events since the last call, as `(index, outcome, json)`.
    fn take_events(&self, py: Python<'_>) -> PyResult<Vec<(usize, &'static str, String)>> {
        let events = self.lock(py)?.take_events();
        Ok(events.into_iter().map(|e| (e.index, e.outcome, e.json)).collect())
    }

    /// The SSE `id:` of the last event handled, for `Last-Event-ID`.
    fn last_event_id(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.lock(py)?.last_event_id().map(str::to_owned))
    }

    /// The session as JSON text, for `Session.restore`.
    fn checkpoint(&self, py: Python<'_>) -> PyResult<String> {
        let session = self.lock(py)?;
        let session = &*session;
        // (every message written: detached, as it is rarely called)
        Ok(py.detach(|| session.checkpoint()))
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.len())
    }
}

impl PySession {
    fn wrap(session: core::Session) -> PySession {
        PySession {
            session: Locked::new(session),
        }
    }

    fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, core::Session>> {
        self.session.lock(py, "Session")
    }
}

/// A factory the library calls for each id or timestamp the reducer makes (a text block
/// of a tool result, a hint's timestamps): a Python callable returning `str`. A callable
/// that raises or returns something else leaves the library's own default for that call.
fn python_factory(callable: Option<Py<PyAny>>, fallback: fn() -> String) -> Option<core::factory::Factory> {
    let callable = callable?;
    Some(std::sync::Arc::new(move || {
        Python::attach(|py| callable.call0(py).and_then(|v| v.extract::<String>(py)).ok()).unwrap_or_else(fallback)
    }))
}

/// Sets (or, with `None`, resets) the ids and timestamps the reducer makes, for every
/// message of the process (`agentscope_message.agentscope.install` points them at
/// agentscope's own factories).
#[pyfunction]
#[pyo3(signature = (id_factory=None, timestamp_factory=None))]
fn _set_factories(id_factory: Option<Py<PyAny>>, timestamp_factory: Option<Py<PyAny>>) {
    core::set_id_factory(python_factory(id_factory, default_id));
    core::set_timestamp_factory(python_factory(timestamp_factory, default_timestamp));
}

/// The library's own defaults (src/factory.rs): a uuid4 in hex, an RFC 3339 UTC time
/// with microseconds.
fn default_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

fn default_timestamp() -> String {
    humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyMsg>()?;
    m.add_class::<PySession>()?;
    m.add_class::<PyUpdate>()?;
    m.add_function(wrap_pyfunction!(_set_factories, m)?)?;
    m.add("MsgError", py.get_type::<MsgError>())?;
    m.add("SessionError", py.get_type::<SessionError>())?;
    Ok(())
}
