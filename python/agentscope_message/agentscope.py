"""Opt-in: agentscope's own ``Msg.append_event`` on this package's reducer.

After ``install()``, ``agentscope.message.Msg.append_event`` folds each event into a
message held in Rust, in amortised constant time per delta, instead of copying the
text so far at every delta (the reference's ``block.text += delta``: 100k deltas take
seconds, 1M minutes). The AgentScope app service (``ChatService``) folds every reply it
streams and stores with ``append_event``, so it then stores the same messages, built in
linear time. Nothing of agentscope is copied or replaced but that one method: the
message stays an agentscope ``Msg``.

How: the first ``append_event`` of a message reads it once (``model_dump_json``) into a
Rust ``Msg`` and marks the Python object as folding. Later events go to Rust only. The
first time anything else reads or writes the object (an attribute, ``model_dump_json``,
``==``, ``repr``, ``copy``, pickling), the Rust message is written back into it once
(each changed field validated as the model's field; its content list, blocks and
``usage`` kept and updated in place) and the object is a plain ``Msg`` again; a later event starts over. A message
read between its events more than ``MAX_READS`` times (a live card re-rendered at every
event) stays with the reference's fold, for which that pattern is cheaper.

Exactly the reference's results: an event the Rust reducer refuses (an error, divergences
1, 4 and 5 of docs/differences.md), an event holding values JSON has no plain form for,
an ``EXTERNAL_EXECUTION_RESULT`` and the later events of its calls (the reference puts
the event's own objects into the message and changes them there), and anything that is
not an agentscope event are handed to the reference's own ``append_event`` on the
written-back message, which raises or applies them as it always did. The ids and timestamps the
reducer makes (a tool result's text block, a hint) come from agentscope's own factories
(``agentscope.set_id_factory`` / ``set_timestamp_factory`` apply). Skipped events are
logged on agentscope's logger in the reference's words. docs/python.md has the rest.

Tested with agentscope 2.0.11 only; ``install`` refuses any other version unless
``force=True``.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import sys
import threading
import warnings
import weakref
from typing import Any

from . import _native

#: The agentscope versions the fold was tested with (byte-equal stored messages).
TESTED_VERSIONS = ("2.0.11",)

#: Reads between events after which a message stays with the reference's fold.
MAX_READS = 4

_logger = logging.getLogger("as")  # agentscope's logger (agentscope/_logging.py)

# the agentscope Msg class, its own append_event, and the folding subclass
_base: Any = None
_original: Any = None
_FoldingMsg: Any = None
_to_jsonable: Any = None  # pydantic_core.to_jsonable_python (set by install)
_sources: Any = None  # agentscope's (Base64Source, URLSource) (set by install)
_classes: dict[str, Any] = {}  # a block's or source's `type` → its agentscope class


class _Fold:
    """One message's fold: its Rust message while folding (None once written back), how
    many times it was read between events, and what the reference applies itself."""

    __slots__ = ("native", "reads", "busy", "shared")

    def __init__(self) -> None:
        self.native: _native.Msg | None = None
        self.reads = 0
        # its own event is being applied in Rust
        self.busy = False
        # the tool calls whose result blocks are an event's own objects (see _SHARING)
        self.shared: set[str] = set()


# id(message) → its fold (removed when the message is collected)
_folds: dict[int, _Fold] = {}

# the skips the reference logs a warning for (an event of another reply, a delta or end
# of a block the message does not have)
_LOGGED = ("foreign_reply", "unknown_block")


def install(*, force: bool = False) -> None:
    """Folds every agentscope ``Msg``'s events with this package's reducer (see the
    module's docstring). Idempotent. Raises ``RuntimeError`` when the installed
    agentscope is not one of ``TESTED_VERSIONS`` (unless ``force``), ``ImportError``
    when agentscope is not installed."""
    global _base, _original, _FoldingMsg
    if _base is not None:
        return
    version = importlib.metadata.version("agentscope")
    if version not in TESTED_VERSIONS and not force:
        raise RuntimeError(
            f"agentscope_message.agentscope: agentscope {version} is installed; the fold "
            f"was tested with {', '.join(TESTED_VERSIONS)} (install(force=True) to try it)"
        )
    from agentscope import message as m
    from agentscope.message import Msg, TextBlock
    from pydantic_core import to_jsonable_python

    global _to_jsonable, _sources
    _to_jsonable = to_jsonable_python
    _sources = (m.Base64Source, m.URLSource)
    for cls in (m.TextBlock, m.ThinkingBlock, m.DataBlock, m.HintBlock, m.ToolCallBlock, m.ToolResultBlock, *_sources):
        _classes[str(cls.model_fields["type"].default)] = cls

    # the factories the reference's blocks take their ids and timestamps from (pydantic's
    # public field info of agentscope's TextBlock): agentscope's global ones
    fields = TextBlock.model_fields
    _native._set_factories(fields["id"].default_factory, fields["created_at"].default_factory)
    _base, _original = Msg, Msg.__dict__["append_event"]
    _FoldingMsg = _folding_class(Msg)
    Msg.append_event = _append_event


def uninstall() -> None:
    """Gives ``Msg.append_event`` back to agentscope. Messages still folding are written
    back when next read, as before."""
    global _base, _original
    if _base is None:
        return
    _base.append_event = _original
    _native._set_factories(None, None)
    _base = None


def installed() -> bool:
    """Whether ``install()`` is in effect."""
    return _base is not None


def _folding_class(base: Any) -> Any:
    class _FoldingMsg(base):  # type: ignore[misc, valid-type]
        """An agentscope ``Msg`` whose events are in Rust until it is next read."""

        def __getattribute__(self, name: str) -> Any:
            if name == "append_event" or name == "__class__":
                return object.__getattribute__(self, name)
            if not _write_back(self):
                # read while its own event is being applied (from agentscope's id or
                # timestamp factory): the message as it was before its events in Rust
                return object.__getattribute__(self, name)
            return getattr(self, name)

        def __setattr__(self, name: str, value: Any) -> None:
            if not _write_back(self):
                raise RuntimeError("a message cannot be changed while its own event is being applied")
            setattr(self, name, value)

        def __delattr__(self, name: str) -> None:
            if not _write_back(self):
                raise RuntimeError("a message cannot be changed while its own event is being applied")
            delattr(self, name)

    # named as the class it stands for, module and qualified name included (code that
    # reads `type(msg).__name__`, e.g. agentscope's tracing, sees agentscope's Msg; pickle,
    # which would look the class up by them, meets a plain Msg: reading the object to pickle
    # it writes it back first)
    _FoldingMsg.__module__ = base.__module__
    _FoldingMsg.__qualname__ = base.__qualname__
    _FoldingMsg.__name__ = base.__name__
    return _FoldingMsg


# one fold at a time: a thread that reads a message while another applies its event waits
# for the event (the write-back must not take the Rust message from under it)
_lock = threading.RLock()

# the event types the reference applies by putting the event's own objects into the
# message and changing them there (an external execution's result blocks: it stamps their
# finished_at, then later events of those calls change them again, and the agent holds the
# same objects in its context): they, and the later events of those calls, are applied
# by the reference itself, on the written-back message
_SHARING = "EXTERNAL_EXECUTION_RESULT"
_RESULT_EVENTS = ("TOOL_RESULT_START", "TOOL_RESULT_TEXT_DELTA", "TOOL_RESULT_DATA_DELTA", "TOOL_RESULT_END")


# an event class → its event type (the default of its `type` field), or None for a
# class that is no agentscope event (a dict, str: agentscope's method raises on those)
_kinds: dict[type, str | None] = {}


def _kind(cls: type) -> str | None:
    kind = _kinds.get(cls, "")
    if kind == "":
        field = getattr(cls, "model_fields", {}).get("type") if hasattr(cls, "model_dump_json") else None
        kind = _kinds[cls] = None if field is None else str(field.default)
    return kind


def _append_event(self: Any, event: Any) -> Any:
    base = _base
    cls = type(self)
    kind = _kinds.get(type(event), "")
    if kind == "":
        kind = _kind(type(event))
    if base is None or (cls is not base and cls is not _FoldingMsg) or kind is None:
        # uninstalled meanwhile, an application's subclass of Msg, or not an agentscope
        # event: the reference
        return (_original or cls.__mro__[1].append_event)(self, event)
    with _lock:
        key = id(self)
        fold = _folds.get(key)
        if fold is None:
            fold = _folds[key] = _Fold()
            weakref.finalize(self, _folds.pop, key, None)
        if fold.shared or kind == _SHARING:
            if kind == _SHARING or (kind in _RESULT_EVENTS and getattr(event, "tool_call_id", None) in fold.shared):
                _write_back(self, read=False)
                result = _original(self, event)
                if kind == _SHARING:
                    fold.shared.update(r.id for r in event.execution_results)
                return result
        if kind in _SOURCE_EVENTS and not _source_as_written(event, kind):
            # a source pydantic refuses or writes otherwise than the event gives it (a URL
            # it normalises, or one it refuses: the reference raises ValidationError at
            # this event if it applies it, with the message unchanged): the reference's own
            return _reference(self, event)
        native = fold.native
        fresh = native is None
        if fresh:
            if fold.reads > MAX_READS or _shares_objects(self):
                # read between events too often, or holding objects that something else
                # holds too (a shallow copy, a block the application keeps): the reference
                # changes those objects in place, and so must every event of this message
                return _original(self, event)
            try:
                native = _native.Msg.from_json(base.model_dump_json(self))
            except Exception:  # what Rust does not read as the reference does: the reference
                return _original(self, event)
            native.set_limits(max_delta_bytes=0, max_block_bytes=0, max_message_bytes=0, max_blocks=0)
        fold.busy = True
        try:
            # an event holding values JSON has no plain form for (a datetime, bytes: the
            # reference keeps the objects themselves) is refused here, as any event Rust
            # refuses, and goes to the reference below
            outcome = native._append_plain(event)
        except Exception:
            outcome = None
        finally:
            fold.busy = False
        if outcome is None:
            # the reference's own answer: its exception, or its way of applying it
            if not fresh:
                _write_back(self, read=False)
            return _original(self, event)
        if fresh:
            fold.native = native
            object.__setattr__(self, "__class__", _FoldingMsg)
        if outcome in _LOGGED:
            _log_skip(event, native.id, outcome)
        return self


def _reference(msg: Any, event: Any) -> Any:
    """The event applied by the reference itself, on the written-back message."""
    _write_back(msg, read=False)
    return _original(msg, event)


# the events whose source the reference builds as a pydantic model (Base64Source or
# URLSource: the URL validated and normalised as AnyUrl), when it applies them
_SOURCE_EVENTS = ("DATA_BLOCK_DELTA", "TOOL_RESULT_DATA_DELTA")


def _source_as_written(event: Any, kind: str) -> bool:
    """Whether the source the reference would build from this event is valid and holds
    the event's own values (the URL as given), so that Rust stores what it stores."""
    data, url = getattr(event, "data", None), getattr(event, "url", None)
    if kind == "DATA_BLOCK_DELTA":
        if not url:
            return True  # base64 (Rust decodes and encodes as the reference does) or nothing
    elif data is not None:
        return True  # Base64Source(data, media_type): two plain strings
    try:
        source = _sources[1](url=str(url), media_type=event.media_type)
    except Exception:  # the reference's own error, raised where it raises it
        return False
    return str(source.url) == url


# sys.getrefcount of an object that one container and the list `_shares_objects` builds
# hold (calibrated by the same code, so interpreter versions that count differently agree)
def _counts(objects: list[Any]) -> list[int]:
    return [sys.getrefcount(o) for o in objects]


def _calibrate() -> int:
    owner = [object()]
    return _counts([owner[0]])[0]


_HELD_ONCE = _calibrate()


def _shares_objects(msg: Any) -> bool:
    """Whether any object the reference changes in place when it folds an event into
    `msg` (its content list, the blocks, a tool result's output and its blocks, a data
    block's source, the usage) is held by something other than the message: a shallow
    copy (`copy.copy`, `model_copy()`), another message given the same blocks, or an
    application keeping a block. The Rust fold writes those objects only when the
    message is read, so such a message keeps the reference's fold."""
    state = msg.__dict__
    content = state.get("content")
    objects: list[Any] = [state.get("usage")]
    if isinstance(content, list):
        objects.append(content)
        _mutable(content, objects)
    # (a value that cannot change, a hint block's `source` string, is anyone's to hold:
    # the agent's runtime-state hint gives every reply's hint block the same string)
    objects = [o for o in objects if o is not None and not isinstance(o, _IMMUTABLE)]
    del content
    return any(n > _HELD_ONCE for n in _counts(objects))


_IMMUTABLE = (str, bytes, int, float, tuple, frozenset)


def _mutable(blocks: list[Any], into: list[Any]) -> None:
    """The blocks of `blocks` and what the reference changes in them, appended to `into`."""
    into.extend(blocks)
    into.extend(b.__dict__.get("source") for b in blocks)
    outputs = [b.__dict__.get("output") for b in blocks]
    for output in outputs:
        if isinstance(output, list):
            into.append(output)
            _mutable(output, into)


def _log_skip(event: Any, msg_id: str, outcome: str) -> None:
    """The warning the reference logs for the event it skips, in its words."""
    kind = str(getattr(event, "type", ""))
    if outcome == "foreign_reply":
        _logger.warning(
            "Event %s with reply_id %r does not match message id %r, skipping.",
            event.__class__.__name__,
            getattr(event, "reply_id", None),
            msg_id,
        )
        return
    for prefix, words, attribute in _NOT_FOUND:
        if kind.startswith(prefix) and kind != "TOOL_RESULT_START":
            _logger.warning(words, getattr(event, attribute, None))
            return


# (the reference's own warning for a delta or end of a block it does not find, per block)
_NOT_FOUND = (
    ("TEXT_BLOCK_", "TextBlock %r not found, skipping.", "block_id"),
    ("DATA_BLOCK_", "DataBlock %s not found, skipping.", "block_id"),
    ("THINKING_BLOCK_", "ThinkingBlock %r not found, skipping.", "block_id"),
    ("TOOL_CALL_", "ToolCallBlock %r not found, skipping.", "tool_call_id"),
    ("TOOL_RESULT_", "ToolResultBlock %r not found, skipping.", "tool_call_id"),
)


def _write_back(obj: Any, read: bool = True) -> bool:
    """Writes a folding message's Rust state into the Python object, once, and makes it
    a plain agentscope ``Msg`` again. False (and nothing done) while the message's own
    event is being applied. `read`: an application's read (counted for MAX_READS)."""
    with _lock:
        fold = _folds.get(id(obj))
        if fold is not None and fold.busy:
            return False
        base = _base or type(obj).__mro__[1]
        object.__setattr__(obj, "__class__", base)
        if fold is None or fold.native is None:
            return True
        native, fold.native = fold.native, None
        fold.reads += read
        data = json.loads(native.to_json())
        # each field validated as the model's field (not the whole model: the reference's
        # append_event runs no model validator, so a user message given a tool call by an
        # event stays as it is), all of them before anything is written
        values = [(name, _validated(base, name, data[name])) for name in _CHANGED_BY_EVENTS]
        state = obj.__dict__
        fields_set = obj.__pydantic_fields_set__
        for name, value in values:
            old = state.get(name)
            if name == "content" and isinstance(old, list):
                _update_list(old, value)
            elif _same_model(old, value):
                _update_model(old, value)
            elif not _same_json(old, value):
                state[name] = value
                fields_set.add(name)
                if name == "finished_at":
                    # a REPLY_END sets the three together, as the reference's does
                    fields_set.update(("finished_reason", "error"))
        return True


def _validated(base: Any, name: str, value: Any) -> Any:
    """`value` (JSON from Rust) validated as the field `name` of `base`. Should pydantic
    ever refuse it (the events the fold takes are those the reference validates the same
    way), what it refuses is built without validation, with a RuntimeWarning: nothing
    folded is dropped."""
    adapter = _adapter(base, name)
    try:
        return adapter.validate_python(value)
    except Exception as e:
        if name != "content" or not isinstance(value, list):
            warnings.warn(f"agentscope_message: the folded {name} kept unvalidated ({e})", RuntimeWarning, stacklevel=4)
            return _construct(value)
        blocks = []
        for item in value:
            try:
                blocks.extend(adapter.validate_python([item]))
            except Exception as e:
                warnings.warn(f"agentscope_message: a folded content block kept unvalidated ({e})", RuntimeWarning, stacklevel=4)
                blocks.append(_construct(item))
        return blocks


def _construct(value: Any) -> Any:
    """JSON built into agentscope's blocks and sources without validation
    (`model_construct`), nested ones included."""
    if isinstance(value, list):
        return [_construct(v) for v in value]
    cls = _classes.get(value.get("type")) if isinstance(value, dict) and isinstance(value.get("type"), str) else None
    if cls is None:
        return value
    return cls.model_construct(**{k: _construct(v) if k in _NESTED else v for k, v in value.items()})


# the keys of a block that hold blocks or a source
_NESTED = ("source", "output", "hint")


# the fields append_event can change (the others it never writes)
_CHANGED_BY_EVENTS = ("content", "usage", "finished_at", "finished_reason", "error")
_adapters: dict[str, Any] = {}


def _adapter(base: Any, name: str) -> Any:
    """A pydantic TypeAdapter of the message's field `name` (its type and constraints)."""
    adapter = _adapters.get(name)
    if adapter is None:
        from typing import Annotated

        from pydantic import TypeAdapter

        info = base.model_fields[name]
        annotation = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        adapter = _adapters[name] = TypeAdapter(annotation)
    return adapter


def _same_json(a: Any, b: Any) -> bool:
    """Whether two values have the same JSON form (a datetime the application put in a
    block's metadata and the string Rust gives back are the same value)."""
    try:
        return a is b or _to_jsonable(a) == _to_jsonable(b)
    except Exception:  # what pydantic cannot write: different
        return False


def _same_model(mine: Any, new: Any) -> bool:
    """Whether `mine` (the object the message holds) can take `new`'s fields in place: a
    model of the same class or a subclass of it (an application's own block class), and
    for a block the same id."""
    return (
        mine is not None
        and hasattr(new, "__pydantic_fields_set__")
        and isinstance(mine, type(new))
        and getattr(mine, "id", None) == getattr(new, "id", None)
    )


def _update_model(mine: Any, new: Any) -> None:
    """`new`'s fields into `mine`, in place, those whose JSON form changed."""
    for field, value in new.__dict__.items():
        old = mine.__dict__.get(field)
        if isinstance(old, list) and isinstance(value, list):
            _update_list(old, value)
        elif _same_model(old, value):
            _update_model(old, value)
        elif not _same_json(old, value):
            mine.__dict__[field] = value
            mine.__pydantic_fields_set__.add(field)


def _update_list(old: list[Any], new: list[Any]) -> None:
    """A list (the content, a tool result's output) kept as the same object, and its
    models kept and updated in place (a block the application holds sees the text it now
    has)."""
    for i, item in enumerate(new):
        if i < len(old):
            if _same_model(old[i], item):
                _update_model(old[i], item)
            elif not _same_json(old[i], item):
                old[i] = item
        else:
            old.append(item)
    del old[len(new) :]
