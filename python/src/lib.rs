//! `agentscope_message._native`: the library's `Msg`, reducer and `Session` for Python
//! (PyO3). A thin, mechanical layer, as the wasm binding is (src/wasm/ of the library):
//! messages and events cross as the reference's wire JSON; errors become `MsgError` /
//! `SessionError` exceptions carrying the library's stable `code`. The Python package
//! around it (`agentscope_message/`) adds the factories' keyword arguments, the type
//! stubs and the opt-in AgentScope service fold.

use agentscope_message as core;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

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

/// A `str` as UTF-8, or `MsgError` with `code` for one with a lone surrogate (which
/// JSON text cannot carry).
fn utf8<'a>(text: &'a Bound<'_, PyString>, code: &'static str) -> PyResult<std::borrow::Cow<'a, str>> {
    text.to_cow().map_err(|_| {
        let err = MsgError::new_err("the text is not UTF-8: it holds a lone surrogate");
        let _ = err.value(text.py()).setattr("code", code);
        err
    })
}

/// What an event given to the binding is: already decoded (an agentscope event read
/// from its attributes), or JSON text for the library's decoder.
enum EventInput {
    Parsed(Box<core::AgentEvent>),
    Text(String),
}

/// An event given as JSON text (`str` or `bytes`), a `dict`, or an agentscope pydantic
/// event (the four text deltas read from their attributes; others from `__dict__`, or
/// `model_dump_json()` when that holds what `py_json` does not write). Raises MsgError
/// (`invalid_json`, `invalid_event`) or TypeError (not an event).
fn event_input(event: &Bound<'_, PyAny>, plain_only: bool) -> PyResult<EventInput> {
    if let Ok(text) = event.cast::<PyString>() {
        return Ok(EventInput::Text(utf8(text, "invalid_json")?.into_owned()));
    }
    if let Ok(bytes) = event.cast::<PyBytes>() {
        return match std::str::from_utf8(bytes.as_bytes()) {
            Ok(text) => Ok(EventInput::Text(text.to_owned())),
            Err(e) => Err(msg_error(
                event.py(),
                &core::MsgError::InvalidJson(format!("the event is not UTF-8: {e}")),
            )),
        };
    }
    if let Ok(dict) = event.cast::<PyDict>() {
        return Ok(EventInput::Text(match py_json(dict.as_any(), false) {
            Some(json) => json,
            None => json_dumps(dict.as_any(), "invalid_event")?,
        }));
    }
    if let Some(parsed) = read_delta(event)? {
        return Ok(EventInput::Parsed(Box::new(parsed)));
    }
    if event.hasattr("model_dump_json")? {
        if let Some(json) = event.getattr("__dict__").ok().and_then(|d| py_json(&d, plain_only)) {
            return Ok(EventInput::Text(json));
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
            Ok(json) => Ok(EventInput::Text(json)),
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

/// `event_input`, decoded.
fn read_event(py: Python<'_>, event: &Bound<'_, PyAny>, plain_only: bool) -> PyResult<core::AgentEvent> {
    match event_input(event, plain_only)? {
        EventInput::Parsed(event) => Ok(*event),
        EventInput::Text(json) => core::AgentEvent::from_json(&json).map_err(|e| msg_error(py, &e)),
    }
}

/// The four text deltas of an agentscope pydantic event (nearly every event of a long
/// reply), read straight from its attributes; `None` for any other event, or one whose
/// metadata is not empty or whose text is not UTF-8 (a lone surrogate), which take the
/// general route.
fn read_delta(event: &Bound<'_, PyAny>) -> PyResult<Option<core::AgentEvent>> {
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
    let text = |name: &Bound<'_, PyString>| -> Option<String> {
        let value = event.getattr(name).ok()?;
        let value = value.cast_into::<PyString>().ok()?;
        value.to_str().ok().map(str::to_owned)
    };
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
        text(pyo3::intern!(py, "delta")),
        empty,
    ) else {
        return Ok(None);
    };
    let metadata = core::json::Map::new();
    let delta = core::Delta::from(delta);
    Ok(Some(match target {
        0 => core::AgentEvent::TextBlockDelta(core::TextBlockDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            block_id: target_id,
            delta,
        }),
        1 => core::AgentEvent::ThinkingBlockDelta(core::ThinkingBlockDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            block_id: target_id,
            delta,
        }),
        2 => core::AgentEvent::ToolCallDelta(core::ToolCallDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            tool_call_id: target_id,
            delta,
        }),
        _ => core::AgentEvent::ToolResultTextDelta(core::ToolResultTextDeltaEvent {
            id,
            created_at,
            metadata,
            reply_id,
            tool_call_id: target_id,
            delta,
        }),
    }))
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
/// far). Serialises to the reference's wire JSON byte for byte.
#[pyclass(module = "agentscope_message", name = "Msg", from_py_object)]
#[derive(Clone)]
struct PyMsg {
    msg: core::Msg,
}

#[pymethods]
impl PyMsg {
    /// Parses and validates wire JSON, as `Msg.model_validate_json`. Raises `MsgError`
    /// (`invalid_json`, `invalid_msg`, `invalid_role`, `invalid_content`, `invalid_url`,
    /// `role_violation`).
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &Bound<'_, PyAny>) -> PyResult<PyMsg> {
        let text = if let Ok(bytes) = json.cast::<PyBytes>() {
            std::str::from_utf8(bytes.as_bytes())
                .map(std::borrow::Cow::Borrowed)
                .map_err(|e| {
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
        core::Msg::from_json(&text)
            .map(|msg| PyMsg { msg })
            .map_err(|e| msg_error(py, &e))
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
        core::Msg::from_json(&json)
            .map(|msg| PyMsg { msg })
            .map_err(|e| msg_error(py, &e))
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
        let wrap = |e: core::MsgError| msg_error(py, &e);
        let options: core::MsgOptions = serde_json::from_str(options_json)
            .map_err(|e| wrap(core::MsgError::InvalidMsg(format!("options: {e}"))))?;
        let content: core::MsgContent = if content_json.trim_start().starts_with('"') {
            serde_json::from_str::<String>(content_json)
                .map_err(|e| wrap(core::MsgError::InvalidMsg(format!("content: {e}"))))?
                .into()
        } else {
            core::parse_content(content_json).map_err(wrap)?.into()
        };
        let msg = match role {
            "user" => core::user_msg(name, content, options),
            "system" => core::system_msg(name, content, options),
            "assistant" => core::assistant_msg(name, content, options),
            _ => Err(core::MsgError::InvalidRole),
        };
        msg.map(|msg| PyMsg { msg }).map_err(wrap)
    }

    /// Applies one event (`Msg.append_event`): JSON text, a dict or an agentscope event.
    /// Returns `"applied"`, or the code of why it changed nothing (`ignored_type`,
    /// `foreign_reply`, `unknown_block`, …: the reference's silent skips and warnings).
    /// Raises `MsgError` with the message unchanged.
    fn append_event(slf: &Bound<'_, Self>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        PyMsg::append(slf, event, false)
    }

    /// `append_event` of an agentscope event whose fields are all plain JSON values
    /// (`agentscope_message.agentscope`'s fold): one holding other values (a datetime,
    /// bytes, a model: the reference keeps them as they are) raises MsgError `not_plain`.
    fn _append_plain(slf: &Bound<'_, Self>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        PyMsg::append(slf, event, true)
    }

    /// The caps on what events may add, in bytes and blocks (0 is no cap); the defaults
    /// are the library's (`max_delta_bytes` 64 MiB, `max_block_bytes` 256 MiB,
    /// `max_message_bytes` 512 MiB, `max_blocks` 100,000). A cap passed is `MsgError`
    /// `limit_exceeded`.
    #[pyo3(signature = (*, max_delta_bytes=None, max_block_bytes=None, max_message_bytes=None, max_blocks=None))]
    fn set_limits(
        &mut self,
        max_delta_bytes: Option<usize>,
        max_block_bytes: Option<usize>,
        max_message_bytes: Option<usize>,
        max_blocks: Option<usize>,
    ) {
        let mut limits = self.msg.limits();
        limits.max_delta_bytes = max_delta_bytes.unwrap_or(limits.max_delta_bytes);
        limits.max_block_bytes = max_block_bytes.unwrap_or(limits.max_block_bytes);
        limits.max_message_bytes = max_message_bytes.unwrap_or(limits.max_message_bytes);
        limits.max_blocks = max_blocks.unwrap_or(limits.max_blocks);
        self.msg.set_limits(limits);
    }

    /// Compact wire JSON, as the reference's `model_dump_json()`.
    fn to_json(&self) -> String {
        self.msg.to_json()
    }

    /// The message as dicts and lists, `model_dump(mode="json")`'s shape and key order.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &self.msg.to_json())
    }

    /// The message as an agentscope `Msg` (`agentscope.message.Msg.model_validate_json`;
    /// needs agentscope installed).
    fn to_agentscope<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cls = py.import("agentscope.message")?.getattr("Msg")?;
        cls.call_method1("model_validate_json", (self.msg.to_json(),))
    }

    /// The text blocks' text joined by `separator`; `None` when there is no text block.
    #[pyo3(signature = (separator=None))]
    fn get_text_content(&self, separator: Option<&Bound<'_, PyString>>) -> PyResult<Option<String>> {
        let separator = match separator {
            Some(separator) => utf8(separator, "invalid_argument")?,
            None => "\n".into(),
        };
        Ok(self.msg.get_text_content(&separator))
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
        let blocks = self.msg.get_content_blocks(names.as_deref());
        let list = PyList::empty(py);
        for block in blocks {
            list.append(json_loads(py, &core::wire::to_string(block))?)?;
        }
        Ok(list)
    }

    /// Whether the message has a block (of `types`, when given).
    #[pyo3(signature = (types=None))]
    fn has_content_blocks(&self, types: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let types = block_types(types)?;
        let names: Option<Vec<&str>> = types.as_ref().map(|t| t.iter().map(String::as_str).collect());
        Ok(self.msg.has_content_blocks(names.as_deref()))
    }

    #[getter]
    fn id(&self) -> &str {
        &self.msg.id
    }

    #[getter]
    fn name(&self) -> &str {
        &self.msg.name
    }

    #[getter]
    fn role(&self) -> &'static str {
        self.msg.role.as_str()
    }

    #[getter]
    fn created_at(&self) -> &str {
        &self.msg.created_at
    }

    #[getter]
    fn finished_at(&self) -> Option<&str> {
        self.msg.finished_at.as_deref()
    }

    #[getter]
    fn finished_reason(&self) -> Option<String> {
        // (the enum's wire name: its JSON string without the quotes)
        self.msg
            .finished_reason
            .map(|r| core::wire::to_string(&r).trim_matches('"').to_owned())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyMsg>()
            .map(|o| o.borrow().msg.to_json() == self.msg.to_json())
            .unwrap_or(false)
    }

    fn __copy__(&self) -> PyMsg {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMsg {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Msg(id={:?}, name={:?}, role={:?}, blocks={})",
            self.msg.id,
            self.msg.name,
            self.msg.role.as_str(),
            self.msg.content().len()
        )
    }
}

impl PyMsg {
    fn append(slf: &Bound<'_, Self>, event: &Bound<'_, PyAny>, plain_only: bool) -> PyResult<&'static str> {
        let py = slf.py();
        // the event is read (Python code: attributes, model_dump_json) before the message
        // is borrowed, so that another thread may read the message meanwhile
        let event = read_event(py, event, plain_only)?;
        slf.borrow_mut()
            .msg
            .append_event(&event)
            .map(|outcome| outcome.code())
            .map_err(|e| msg_error(py, &e))
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
            out.msg = Some(Py::new(py, PyMsg { msg: *msg })?);
        }
        core::UpdateKind::Refused(error) => {
            out.kind = "refused";
            out.error = Some(session_error(py, &error).into_value(py).into_any());
        }
    }
    Ok(out)
}

/// A conversation rebuilt from an event stream (SSE, JSON Lines or a JSON array, framed
/// as the bytes show) or from single events: the library's `Session`, with its options,
/// caps, diagnostics and checkpoints (docs/session.md).
#[pyclass(module = "agentscope_message", name = "Session")]
struct PySession {
    session: core::Session,
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
        Ok(PySession {
            session: core::Session::new(options),
        })
    }

    /// A session as its `checkpoint()` left it.
    #[staticmethod]
    fn restore(py: Python<'_>, checkpoint: &Bound<'_, PyString>) -> PyResult<PySession> {
        core::Session::restore(&utf8(checkpoint, "invalid_argument")?)
            .map(|session| PySession { session })
            .map_err(|e| msg_error(py, &e))
    }

    /// Feeds a chunk of the stream (bytes or str, cut anywhere) and returns what was
    /// done with each event it completed, in order. Never raises for a bad event: a
    /// refused one is an update of kind `refused`, and the events after it go on.
    fn feed(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Vec<PyUpdate>> {
        let updates = if let Ok(text) = chunk.cast::<PyString>() {
            self.session.feed_updates(utf8(text, "invalid_stream")?.as_bytes())
        } else if let Ok(bytes) = chunk.cast::<PyBytes>() {
            self.session.feed_updates(bytes.as_bytes())
        } else {
            return Err(PyTypeError::new_err("a chunk is bytes or str"));
        };
        updates.into_iter().map(|u| update_to_py(py, u)).collect()
    }

    /// Ends the stream: frames what is left (a last line without its newline) and
    /// returns its updates.
    fn end(&mut self, py: Python<'_>) -> PyResult<Vec<PyUpdate>> {
        let updates = self.session.end_updates();
        updates.into_iter().map(|u| update_to_py(py, u)).collect()
    }

    /// Applies one event (JSON text, dict or agentscope event) and returns `"applied"`
    /// or the skip's code. Raises `SessionError` with the session unchanged.
    fn apply(&mut self, py: Python<'_>, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        // JSON text goes through the session's own decoder (`apply_json`), so that a frame
        // that does not decode is a SessionError with its index, or with `skip_invalid` a
        // diagnostic, as on every route
        let applied = match event_input(event, false)? {
            EventInput::Parsed(event) => self.session.apply(&event),
            EventInput::Text(json) => self.session.apply_json(&json),
        };
        applied.map(|outcome| outcome.code()).map_err(|e| session_error(py, &e))
    }

    /// Adds a message the session did not see streamed (history), as a copy.
    fn insert(&mut self, msg: &PyMsg) {
        self.session.insert(msg.msg.clone());
    }

    /// The messages, in the order their replies started (copies).
    fn messages(&self) -> Vec<PyMsg> {
        self.session.messages().map(|msg| PyMsg { msg: msg.clone() }).collect()
    }

    /// The message of `reply_id` (a copy), or `None`.
    fn get(&self, reply_id: &Bound<'_, PyString>) -> PyResult<Option<PyMsg>> {
        let reply_id = utf8(reply_id, "invalid_argument")?;
        Ok(self.session.get(&reply_id).map(|msg| PyMsg { msg: msg.clone() }))
    }

    /// Whether the reply of `reply_id` has ended.
    fn is_ended(&self, reply_id: &Bound<'_, PyString>) -> PyResult<bool> {
        Ok(self.session.is_ended(&utf8(reply_id, "invalid_argument")?))
    }

    /// Every diagnostic so far, as dicts (`code`, `message`, `index`, …).
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &core::wire::to_string(self.session.diagnostics()))
    }

    /// With `keep_events`: the events since the last call, as `(index, outcome, json)`.
    fn take_events(&mut self) -> Vec<(usize, &'static str, String)> {
        self.session
            .take_events()
            .into_iter()
            .map(|e| (e.index, e.outcome, e.json))
            .collect()
    }

    /// The SSE `id:` of the last event handled, for `Last-Event-ID`.
    fn last_event_id(&self) -> Option<String> {
        self.session.last_event_id().map(str::to_owned)
    }

    /// The session as JSON text, for `Session.restore`.
    fn checkpoint(&self) -> String {
        self.session.checkpoint()
    }

    fn __len__(&self) -> usize {
        self.session.len()
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
