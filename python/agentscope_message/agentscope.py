"""Opt-in: agentscope's own ``Msg.append_event`` on this package's reducer.

After ``install()``, ``agentscope.message.Msg.append_event`` folds each event into a
message held in Rust, in amortised constant time per delta, instead of copying the
text so far at every delta (the reference's ``block.text += delta``: 100k deltas take
seconds, 1M minutes). The AgentScope app service (``ChatService``) folds every reply it
streams and stores with ``append_event``, so it then stores the same messages, built in
linear time. Nothing of agentscope is copied or replaced but that one method: the
message stays an agentscope ``Msg``.

How: a message starts on the reference's path, where agentscope's own method applies its
events (for the common ones of a reply, its text, thinking and tool calls, the method's
own statements for that event type without its dispatch, which cost more than they do).
Rust pays where the reference copies: each delta copies its block's text so far, and
finds its block by walking the blocks before it. So a message whose deltas reach a long
block (``_TRACK_CHARS``) or a block far down its content (``_TRACK_BLOCKS``) is tracked,
and goes to Rust once the reference's extra cost since the message was last read reaches
the cost of a round trip (``_PATIENCE`` times it), or at its first delta when its
previous episode between two reads was long enough to pay for one: a short reply never
goes, a message read every few events stays. Going there reads the message once
(``model_dump_json``) into a Rust ``Msg`` and marks the Python object as folding; later
events go to Rust only. The first time anything else reads or writes the object (an
attribute, ``model_dump_json``, ``==``, ``repr``, ``copy``, pickling), the Rust message is
written back into it once (each changed field validated as the model's field; its content
list, blocks and ``usage`` kept and updated in place) and the object is a plain ``Msg``
again, back on the reference's path. A message whose content list, blocks, sources,
outputs or usage something else holds too (a shallow copy, a block the application
keeps) stays there: the reference changes those objects in place.

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

_logger = logging.getLogger("as")  # agentscope's logger (agentscope/_logging.py)

# the agentscope Msg class, its own append_event, and the folding subclass
_base: Any = None
_original: Any = None
_FoldingMsg: Any = None
_to_jsonable: Any = None  # pydantic_core.to_jsonable_python (set by install)
_sources: Any = None  # agentscope's (Base64Source, URLSource) (set by install)
_classes: dict[str, Any] = {}  # a block's or source's `type` → its agentscope class


class _Fold:
    """One message's fold: its Rust message while folding (None on the reference's path),
    what the reference applies itself, and what decides when to fold in Rust."""

    __slots__ = ("native", "busy", "shared", "reads", "events", "debt", "last", "size", "ref")

    def __init__(self) -> None:
        self.native: _native.Msg | None = None
        # its own event is being applied in Rust
        self.busy = False
        # the tool calls whose result blocks are an event's own objects (see _SHARING)
        self.shared: set[str] = set()
        # reads between events (by the application)
        self.reads = 0
        # the events of this episode (since the last read) seen while tracked, and what
        # the reference's path cost beyond Rust's for them (ns, as _reference_delta
        # estimates it)
        self.events = 0
        self.debt = 0.0
        # the events of the previous episode (-1: none yet)
        self.last = -1
        # the size of the message's JSON when last seen whole (0: not yet)
        self.size = 0
        # the message's weak reference (its callback removes the fold)
        self.ref: Any = None


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
    from agentscope import event as e

    global _strings, _hot_results, _Base64Source
    _deltas.update({
        e.TextBlockDeltaEvent: ("TEXT_BLOCK_DELTA", "text", "block_id", "text"),
        e.ThinkingBlockDeltaEvent: ("THINKING_BLOCK_DELTA", "thinking", "block_id", "thinking"),
        e.ToolCallDeltaEvent: ("TOOL_CALL_DELTA", "tool_call", "tool_call_id", "input"),
        e.DataBlockDeltaEvent: ("DATA_BLOCK_DELTA", "data", "block_id", None),
        e.ToolResultTextDeltaEvent: ("TOOL_RESULT_TEXT_DELTA", "tool_result", "tool_call_id", None),
    })
    _hot_results = e.ToolResultTextDeltaEvent
    # the names the reference's own statements use (its module's globals)
    global _ReplyFinishedReason, _Usage, _TextBlock, _ThinkingBlock, _ToolCall
    names = Msg.__dict__["append_event"].__globals__
    _ReplyFinishedReason, _Usage = names["ReplyFinishedReason"], names["Usage"]
    _TextBlock, _ThinkingBlock, _ToolCall = names["TextBlock"], names["ThinkingBlock"], names["ToolCallBlock"]
    for cls, step in (
        (e.ReplyStartEvent, _step_nothing),
        (e.ModelCallStartEvent, _step_nothing),
        (e.ExceedMaxItersEvent, _step_nothing),
        (e.UserInterruptEvent, _step_nothing),
        (e.CustomEvent, _step_custom),
        (e.TextBlockStartEvent, _step_start),
        (e.ThinkingBlockStartEvent, _step_start),
        (e.ToolCallStartEvent, _step_start),
        (e.TextBlockEndEvent, _step_end),
        (e.ThinkingBlockEndEvent, _step_end),
        (e.ToolCallEndEvent, _step_end),
        (e.ReplyEndEvent, _step_reply_end),
        (e.ModelCallEndEvent, _step_usage),
    ):
        _steps[cls] = (step, _kind(cls))
    for name in dir(e):  # every event class's type, for the dispatch
        if isinstance(getattr(e, name), type):
            _kind(getattr(e, name))
    _strings = frozenset((e.TextBlockDeltaEvent, e.ThinkingBlockDeltaEvent, e.ToolCallDeltaEvent))
    _Base64Source = m.Base64Source
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


# ------------------------------------------------------------------ where each event goes
#
# A message starts on the reference's path: agentscope's own append_event applies its
# events (for the common types, the method's own statements for the type without its
# dispatch: the steps below, and for the three string deltas `_find_block`'s scan, then
# `block.text += event.delta`, in `_reference_delta`). Rust pays off where the
# reference copies: each delta copies its block's string (a data delta decodes and encodes
# its block's base64), and `_find_block` walks the blocks before its block; Rust does
# neither, but taking the message in (its JSON written and parsed) and writing it back
# when it is next read cost about two passes over its JSON each way. So a message is
# tracked once one of its deltas costs the reference more than a short reply's do (a block
# of `_TRACK_CHARS` characters, or after `_TRACK_BLOCKS` blocks), and goes to Rust when the
# reference's extra cost in this episode (the events since the message was last read)
# reaches `_PATIENCE` round trips, or at once when the previous episode was long enough
# to pay for one (a message read every few events stays with the reference).
#
# The costs, in ns, as `bench/python_per_event.py --calibrate` measured them on a 2-core
# machine (they move by tens of percent from run to run; the ratios matter): the
# reference's path's delta beyond Rust's, whatever the sizes (Rust's costs a little more)
_C_EVENT = -400.0
# per character of the string the reference copies (`text += delta`; past glibc's mmap
# threshold, 128 KiB, each copy is fresh memory the kernel maps page by page: 0.1 to 0.45
# ns by how far that threshold has moved), per character of base64 it decodes and encodes
# again (a data delta), per block `_find_block` steps over
_C_COPY = 0.033
_C_COPY_MAPPED = 0.2
_C_BASE64 = 6.0
_C_FIND = 130.0
# a round trip (in, then written back): fixed, and per byte of the message's JSON
_C_SWITCH = 60_000.0
_C_BYTE = 8.0
# a message is tracked from a delta to a block of this many characters, or past this many
# blocks, and goes to Rust once its reference's path has cost (or, by its previous
# episode, will cost) this many round trips more than Rust
_TRACK_CHARS = 16384
_TRACK_BLOCKS = 16
_PATIENCE = 1.5

# tests: every message goes to Rust at its first event (what the fold did before it chose)
_EAGER = False

#: Counts (for the tests): events applied in Rust, events applied by the reference's path,
#: messages taken into Rust, messages kept with the reference because something else
#: holds their objects, write-backs.
_stats = {"rust": 0, "reference": 0, "switches": 0, "shared": 0, "write_backs": 0}

# the delta event classes (set by install) → (type, block type, id field, string field):
# the string field None for the two whose reference code the fold does not repeat (a data
# delta, a tool result's text delta), which it only measures
_deltas: dict[type, tuple[str, str, str, str | None]] = {}
# the event classes Rust takes without more checks while a message folds: the three string
# deltas, and a tool result's text delta while no external result shares its blocks
_strings: frozenset = frozenset()
_hot_results: Any = None  # agentscope's ToolResultTextDeltaEvent
_Base64Source: Any = None
_dict_of = object.__getattribute__


def _append_event(self: Any, event: Any) -> Any:
    cls = type(self)
    if cls is _base and not _EAGER:
        spec = _deltas.get(type(event))
        if spec is not None:
            return _reference_delta(self, self.__dict__, event, spec, None)
        step = _steps.get(type(event))
        if step is not None:
            _stats["reference"] += 1
            return step[0](self, event, step[1])
        kind = _kinds.get(type(event))
        if kind is not None and kind != _SHARING:
            _stats["reference"] += 1
            return _original(self, event)
    elif cls is _FoldingMsg:
        fold = _folds.get(id(self))
        if fold is not None:
            native = fold.native
            if native is None:
                # tracked on the reference's path (the class only tells reads)
                spec = _deltas.get(type(event))
                if spec is not None:
                    return _reference_delta(self, _dict_of(self, "__dict__"), event, spec, fold)
            elif type(event) in _strings:
                # a text, thinking or tool call delta: Rust calls nothing of Python for it
                # (no factory: busy stays False)
                with _lock:
                    if fold.native is native:
                        try:
                            outcome = native._append_plain(event)
                        except Exception:
                            outcome = None
                        if outcome == "applied":
                            fold.events += 1
                            _stats["rust"] += 1
                            return self
                        return _outcome(self, fold, native, event, outcome, False)
            elif type(event) is _hot_results and not fold.shared:
                with _lock:
                    if fold.native is native:
                        return _rust(self, fold, native, event)
    return _general(self, event)


def _rust(msg: Any, fold: _Fold, native: Any, event: Any, fresh: bool = False) -> Any:
    """The event applied by Rust to a folding message (the lock held; `fresh`: its first
    event since it was taken in)."""
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
    return _outcome(msg, fold, native, event, outcome, fresh)


def _outcome(msg: Any, fold: _Fold, native: Any, event: Any, outcome: str | None, fresh: bool) -> Any:
    """What follows Rust's answer to an event (None: Rust refused it)."""
    if outcome is None:
        # the reference's own answer: its exception, or its way of applying it
        if fresh:  # (nothing to write back)
            fold.native = None
            object.__setattr__(msg, "__class__", _base)
        else:
            _write_back(msg, read=False)
        _stats["reference"] += 1
        return _original(msg, event)
    fold.events += 1
    _stats["rust"] += 1
    if outcome in _LOGGED:
        _log_skip(event, native.id, outcome)
    return msg


# ------------------------------------------------------------------ the reference's own steps
#
# On the reference's path, the events of a reply's text, thinking and tool calls (their
# starts and ends, a model call's, the reply's end, and the events it changes nothing for)
# are applied by the statements of agentscope 2.0.11's `Msg.append_event` for their type,
# without the method's dispatch (an import and a `match` over the event types, which cost
# more than the statements). Anything else in them (another reply's event, a block not
# found: the reference's warning) goes to the method itself.


def _step_nothing(self: Any, event: Any, kind: str) -> Any:
    """REPLY_START, MODEL_CALL_START, EXCEED_MAX_ITERS, USER_INTERRUPT: nothing to change."""
    if event.type != kind or event.reply_id != self.id:
        return _original(self, event)
    return self


def _step_custom(self: Any, event: Any, kind: str) -> Any:
    if event.type != kind:
        return _original(self, event)
    return self


def _step_start(self: Any, event: Any, kind: str) -> Any:
    """TEXT_BLOCK_START, THINKING_BLOCK_START, TOOL_CALL_START: a new block."""
    content = self.content
    if event.type != kind or event.reply_id != self.id or type(content) is not list:
        return _original(self, event)
    if kind == "TEXT_BLOCK_START":
        content.append(_TextBlock(id=event.block_id, text=""))
    elif kind == "THINKING_BLOCK_START":
        content.append(_ThinkingBlock(id=event.block_id, thinking=""))
    else:
        content.append(_ToolCall(id=event.tool_call_id, name=event.tool_call_name, input=""))
    return self


def _step_end(self: Any, event: Any, kind: str) -> Any:
    """TEXT_BLOCK_END, THINKING_BLOCK_END, TOOL_CALL_END: the block's finished_at (and a
    text block's final text)."""
    if event.type != kind or event.reply_id != self.id:
        return _original(self, event)
    if kind == "TEXT_BLOCK_END":
        block = self._find_block("text", event.block_id)
    elif kind == "THINKING_BLOCK_END":
        block = self._find_block("thinking", event.block_id)
    else:
        block = self._find_block("tool_call", event.tool_call_id)
    if block is None:
        return _original(self, event)  # (its warning)
    if kind == "TEXT_BLOCK_END" and event.text is not None:
        block.text = event.text
    block.finished_at = event.created_at
    return self


def _step_reply_end(self: Any, event: Any, kind: str) -> Any:
    if event.type != kind or event.reply_id != self.id:
        return _original(self, event)
    self.finished_at = event.created_at
    self.finished_reason = _ReplyFinishedReason(event.finished_reason)
    self.error = event.error
    return self


def _step_usage(self: Any, event: Any, kind: str) -> Any:
    """MODEL_CALL_END: the call's usage added."""
    if event.type != kind or event.reply_id != self.id:
        return _original(self, event)
    counters = {name: getattr(event, name) for name in _USAGE_COUNTERS}
    self.append_usage(_Usage(**counters))
    return self


# the token counters a MODEL_CALL_END carries into the message's usage (REFERENCE.md)
_USAGE_COUNTERS = ("input_tokens", "output_tokens", "cache_input_tokens", "cache_creation_input_tokens")


# an event class → (its step, its type) (set by install)
_steps: dict[type, tuple[Any, str]] = {}
_ReplyFinishedReason: Any = None
_Usage: Any = None
_TextBlock: Any = None
_ThinkingBlock: Any = None
_ToolCall: Any = None


def _reference_delta(self: Any, state: dict, event: Any, spec: tuple, fold: _Fold | None) -> Any:
    """A delta on the reference's path (`state`: the message's `__dict__`; `fold`: its
    fold when tracked, else None): applied as the reference applies it, measured, and
    taken to Rust when that pays."""
    kind, block_type, id_field, field = spec
    content = state.get("content")
    if event.type != kind or event.reply_id != state.get("id") or type(content) is not list:
        return _elsewhere(self, event, fold)  # (the reference: a warning, or its error)
    target = getattr(event, id_field)
    at = 0
    for block in content:  # agentscope's Msg._find_block
        if block.type == block_type and block.id == target:
            break
        at += 1
    else:
        return _elsewhere(self, event, fold)  # not found: the reference's warning
    if field is None:
        size = _data_size(block) if block_type == "data" else _result_size(block)
        if size < 0 or (fold is None and size < _TRACK_CHARS and at < _TRACK_BLOCKS):
            return _elsewhere(self, event, fold)
        saving = (_C_BASE64 if block_type == "data" else _copy_cost(size)) * size
    else:
        text = getattr(block, field)
        if type(text) is not str or (block_type == "tool_call" and not isinstance(block, _ToolCall)):
            return _elsewhere(self, event, fold)
        size = len(text)
        if fold is None and size < _TRACK_CHARS and at < _TRACK_BLOCKS:
            # a short reply's delta: the reference's `block.text += event.delta`
            setattr(block, field, text + event.delta)
            _stats["reference"] += 1
            return self
        saving = _copy_cost(size) * size
    saving += _C_EVENT + _C_FIND * at
    size += 300 * len(content)
    with _lock:
        if fold is None:
            fold = _fold_of(self)
        elif fold.native is not None or type(self) is not _FoldingMsg:
            return _general(self, event)  # (another thread took it meanwhile)
        fold.events += 1
        fold.debt += saving
        if _worth_it(fold, saving, size) and (field is not None or _rust_may_take(fold, event, kind)):
            del content, block  # (not held while the message's objects are counted)
            if _switch_in(self, fold):
                return _rust(self, fold, fold.native, event, fresh=True)
            block = _find(state.get("content"), block_type, target)
        if field is None or block is None:
            # the reference's own method, on the message as a plain one (it reads it)
            object.__setattr__(self, "__class__", _base)
            try:
                _stats["reference"] += 1
                return _original(self, event)
            finally:
                if type(self) is _base:
                    object.__setattr__(self, "__class__", _FoldingMsg)
        # the reference's `block.text += event.delta`, the message tracked (its class
        # tells its reads, which end the episode)
        setattr(block, field, text + event.delta)
        _stats["reference"] += 1
        if type(self) is _base:
            object.__setattr__(self, "__class__", _FoldingMsg)
        return self


def _rust_may_take(fold: _Fold, event: Any, kind: str) -> bool:
    """Whether Rust may apply this data delta or tool result text delta (as `_general`
    decides): not a URL pydantic refuses or writes otherwise, not a result of an external
    execution's call."""
    if kind == "DATA_BLOCK_DELTA":
        return _source_as_written(event, kind)
    return not (fold.shared and getattr(event, "tool_call_id", None) in fold.shared)


def _elsewhere(msg: Any, event: Any, fold: _Fold | None) -> Any:
    """An event `_reference_delta` does not apply itself: the reference's, on a plain
    message; the general way on a tracked one."""
    if fold is None:
        _stats["reference"] += 1
        return _original(msg, event)
    return _general(msg, event)


def _copy_cost(size: int) -> float:
    """ns per character of copying a string of `size` characters."""
    return _C_COPY if size < 131072 else _C_COPY_MAPPED


def _find(content: Any, block_type: str, target: Any) -> Any:
    if type(content) is list:
        for block in content:
            if block.type == block_type and block.id == target:
                return block
    return None


def _data_size(block: Any) -> int:
    """The base64 characters the reference decodes and encodes again at a data delta to
    `block` (-1: not a plain base64 source)."""
    source = block.__dict__.get("source")
    data = getattr(source, "__dict__", {}).get("data") if type(source) is _Base64Source else None
    return len(data) if type(data) is str else -1


def _result_size(block: Any) -> int:
    """The characters the reference copies at a tool result's text delta to `block`."""
    output = block.__dict__.get("output")
    if type(output) is list and output:
        text = getattr(output[-1], "__dict__", {}).get("text")
        return len(text) if type(text) is str else 0
    return 0


def _worth_it(fold: _Fold, saving: float, size: int) -> bool:
    """Whether the tracked message should go to Rust at this event: `saving`, what the
    reference's path costs beyond Rust's for it; `size`, the message's JSON's, estimated."""
    cost = _PATIENCE * (_C_SWITCH + _C_BYTE * max(size, fold.size))
    if fold.last >= 0:
        # as long as the previous episode: what is left of it pays for the round trip,
        # or it is already longer and has cost as much
        left = fold.last - fold.events + 1
        return left * saving >= cost or (left <= 0 and fold.debt >= cost)
    return fold.debt >= cost


def _fold_of(msg: Any) -> _Fold:
    key = id(msg)
    fold = _folds.get(key)
    if fold is None:
        fold = _folds[key] = _Fold()
        fold.ref = weakref.ref(msg, lambda _, key=key: _folds.pop(key, None))
    return fold


def _switch_in(msg: Any, fold: _Fold) -> bool:
    """The message read into a Rust message (fold.native), the object made a folding
    message; False (the reference's path kept) when something else holds its objects or
    Rust does not read it as the reference does. The lock held."""
    object.__setattr__(msg, "__class__", _base)  # (was tracked: not a read)
    if _shares_objects(msg):
        # a shallow copy, a block the application keeps: the reference changes those
        # objects in place, and so must every event of this message while that lasts
        _stats["shared"] += 1
        fold.debt = 0.0
        return False
    try:
        text = _base.model_dump_json(msg)
        native = _native.Msg.from_json(text)
    except Exception:  # what Rust does not read as the reference does: the reference
        fold.debt = 0.0
        return False
    native.set_limits(max_delta_bytes=0, max_block_bytes=0, max_message_bytes=0, max_blocks=0)
    fold.native, fold.size = native, len(text)
    object.__setattr__(msg, "__class__", _FoldingMsg)
    _stats["switches"] += 1
    return True


def _general(self: Any, event: Any) -> Any:
    """Every event the paths above do not take: the reference's, Rust's for a folding
    message, what the reference must apply itself."""
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
        fold = _folds.get(id(self))
        if cls is _FoldingMsg and (fold is None or fold.native is None):
            # tracked on the reference's path: the event as on a plain message
            object.__setattr__(self, "__class__", base)
            try:
                return _general(self, event)
            finally:
                if fold is not None:
                    fold.events += 1
                    if type(self) is base:
                        object.__setattr__(self, "__class__", _FoldingMsg)
        native = fold.native if fold is not None else None
        if kind == _SHARING or (fold is not None and fold.shared and kind in _RESULT_EVENTS and getattr(event, "tool_call_id", None) in fold.shared):
            _write_back(self, read=False)
            _stats["reference"] += 1
            result = _original(self, event)
            if kind == _SHARING:
                _fold_of(self).shared.update(r.id for r in event.execution_results)
            return result
        if native is None and not _EAGER:
            _stats["reference"] += 1
            return _original(self, event)
        if kind in _SOURCE_EVENTS and not _source_as_written(event, kind):
            # a source pydantic refuses or writes otherwise than the event gives it (a URL
            # it normalises, or one it refuses: the reference raises ValidationError at
            # this event if it applies it, with the message unchanged): the reference's own
            return _reference(self, event)
        if native is None:
            # (_EAGER) every message to Rust at its first event
            fold = fold or _fold_of(self)
            if not _switch_in(self, fold):
                _stats["reference"] += 1
                return _original(self, event)
            return _rust(self, fold, fold.native, event, fresh=True)
        return _rust(self, fold, native, event)


def _reference(msg: Any, event: Any) -> Any:
    """The event applied by the reference itself, on the written-back message."""
    _write_back(msg, read=False)
    _stats["reference"] += 1
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
    event is being applied. `read`: an application's read (it ends the episode: see
    _worth_it)."""
    with _lock:
        fold = _folds.get(id(obj))
        if fold is not None and fold.busy:
            return False
        base = _base or type(obj).__mro__[1]
        if fold is not None and read:
            fold.reads += 1
            fold.last, fold.events, fold.debt = fold.events, 0, 0.0
        if fold is None or fold.native is None:
            object.__setattr__(obj, "__class__", base)
            return True
        # the message stays a folding one until its state is written: another thread's
        # event meanwhile (to_json below lets other threads run) sees a folding message
        # whose Rust state is gone and waits for this lock, then applies it to the state
        # written here; made plain first, it took the reference's path and applied its
        # delta to the text as it was before the episode, losing the episode's deltas
        try:
            native, fold.native = fold.native, None
            _stats["write_backs"] += 1
            text = native.to_json()
            fold.size = len(text)
            data = json.loads(text)
            # each field validated as the model's field (not the whole model: the
            # reference's append_event runs no model validator, so a user message given a
            # tool call by an event stays as it is), all of them before anything is written
            values = [(name, _validated(base, name, data[name])) for name in _CHANGED_BY_EVENTS]
            # (read past the class's hook, which would write back again)
            _write_state(_dict_of(obj, "__dict__"), _dict_of(obj, "__pydantic_fields_set__"), values)
        finally:
            object.__setattr__(obj, "__class__", base)
        return True


def _write_state(state: dict, fields_set: set, values: list) -> None:
    """The fields of a message written back from Rust into its `__dict__` (its objects
    kept and changed where they can be: a reader holding a block sees its events)."""
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
