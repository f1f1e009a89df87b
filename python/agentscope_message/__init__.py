"""The AgentScope 2.0 message model and its streaming-event reducer, in Rust.

The same reducer as the agentscope-message Rust crate and npm package: a message
folded here serialises to the reference's (agentscope 2.0.11) wire JSON byte for byte,
in amortised constant time per delta. See the repository's README, "Use it from
Python", and ``agentscope_message.agentscope`` for the AgentScope service's fold.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ._native import Msg, MsgError, Session, SessionError, Update

__all__ = [
    "Msg",
    "MsgError",
    "Session",
    "SessionError",
    "Update",
    "UserMsg",
    "AssistantMsg",
    "SystemMsg",
]


# the optional fields a factory takes (the library's MsgOptions)
_OPTIONS = ("id", "metadata", "created_at", "finished_at", "finished_reason", "structured_output", "usage")


def _create(role: str, name: str, content: Any, options: dict[str, Any]) -> Msg:
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        # as a Python function with these keywords would say
        raise TypeError(f"{role.capitalize()}Msg() got an unexpected keyword argument {unknown[0]!r}")
    if not isinstance(name, str):
        raise TypeError(f"{role.capitalize()}Msg() name must be a str, not {type(name).__name__}")
    if _too_deep(content) or _too_deep(options):
        # (json.dumps refuses it with RecursionError up to CPython 3.12, and writes it on
        # 3.13: refused here the same on every version, past the library's depth)
        error = MsgError("not JSON: nested deeper than 128 levels")
        error.code = "invalid_argument"
        raise error
    key = _non_str_key(content) or _non_str_key(options)
    if key:
        # json.dumps would write the key 1 as "1" (and keep one of 1 and "1")
        error = MsgError(f"not JSON: a dict key is not a str ({key[0]!r})")
        error.code = "invalid_argument"
        raise error
    try:
        content_json = _dumps(content)
        options_json = _dumps(options)
    except (TypeError, ValueError, RecursionError) as e:
        # (RecursionError: nesting deeper than Python's recursion limit)
        error = MsgError(f"not JSON: {e}")
        error.code = "invalid_argument"
        raise error from e
    for what, text in (("content", content_json), ("options", options_json)):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            error = MsgError(f"{what}: a lone surrogate ({text[e.start]!r}) is not text")
            error.code = "invalid_argument"
            raise error from None
    return Msg._create(role, name, content_json, options_json)


def _dumps(value: Any) -> str:
    """`value` as JSON text; NaN and ±Infinity, which JSON has no number for, written
    ``null``, as agentscope 2.0.11's ``model_dump_json`` writes them (and as
    ``Msg.from_dict`` and ``append_event`` of a dict take them)."""
    try:
        return json.dumps(value, allow_nan=False, ensure_ascii=False)
    except ValueError:
        # (the only ValueError left: a float out of JSON's range, as nesting and
        # non-str keys were refused before, and a cycle is nesting without end)
        return json.dumps(_nulled(value), allow_nan=False, ensure_ascii=False)


def _nulled(value: Any) -> Any:
    """`value` with every NaN and ±Infinity float (in dicts, lists and tuples) as None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _nulled(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nulled(item) for item in value]
    return value


def _too_deep(value: Any, depth: int = 0) -> bool:
    """Whether `value` nests dicts, lists and tuples deeper than the library reads (128
    levels, serde_json's own limit)."""
    if depth > 128:
        return True
    if isinstance(value, dict):
        return any(_too_deep(item, depth + 1) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_too_deep(item, depth + 1) for item in value)
    return False


def _non_str_key(value: Any, depth: int = 0) -> tuple[Any, ...]:
    """The first dict key within `value` that is not a str, as a 1-tuple (empty if there
    is none)."""
    if depth > 128:
        return ()
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return (key,)
            found = _non_str_key(item, depth + 1)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for item in value:
            found = _non_str_key(item, depth + 1)
            if found:
                return found
    return ()


def UserMsg(name: str, content: str | list[dict[str, Any]], **options: Any) -> Msg:
    """A user message: ``content`` a string or text and data blocks (as dicts);
    ``options`` the optional fields (``id``, ``metadata``, ``created_at``, …); a float
    NaN or ±Infinity in them is written ``null``, as the reference writes it.
    Raises ``MsgError`` (``role_violation`` for another block type, ``invalid_argument``
    for a value that is not JSON)."""
    return _create("user", name, content, options)


def AssistantMsg(name: str, content: str | list[dict[str, Any]], **options: Any) -> Msg:
    """An assistant message (any block type); see ``UserMsg``."""
    return _create("assistant", name, content, options)


def SystemMsg(name: str, content: str | list[dict[str, Any]], **options: Any) -> Msg:
    """A system message (text blocks only); see ``UserMsg``."""
    return _create("system", name, content, options)
