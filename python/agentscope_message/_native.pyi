"""Type stubs of the Rust module (python/src/lib.rs)."""

from collections.abc import Callable
from typing import Any, Literal, final

Json = Any
BlockType = Literal["text", "thinking", "data", "hint", "tool_call", "tool_result"]
EventInput = str | bytes | dict[str, Any] | Any  # JSON text, a dict, or an agentscope event

class MsgError(ValueError):
    """A message or event the reference would refuse, or a cap passed."""

    #: the stable code: invalid_json, invalid_event, invalid_msg, invalid_role,
    #: invalid_content, invalid_url, invalid_base64, role_violation, base64_after_url,
    #: limit_exceeded, invalid_argument, invalid_checkpoint, …
    code: str

class SessionError(MsgError):
    """An event a Session refused."""

    #: 1-based position of the event in the session
    index: int
    event_id: str | None
    sse_id: str | None

@final
class Msg:
    """One AgentScope message, held in Rust. Serialises to the reference's wire JSON
    (agentscope 2.0.11 ``model_dump_json()``) byte for byte, floats as its SSE frames
    write them (Python's ``repr``: ``1e-07`` where pydantic writes ``1e-7``, ``1e-05``
    where it writes ``0.00001``; docs/python.md).

    Usable from any thread: each call locks the message (a call from another thread
    waits for it); a long one (64 KiB or more of text, event or message) releases the
    GIL meanwhile (docs/python.md, "Threads"). A call on the message from a factory
    called by its own event raises RuntimeError."""

    @staticmethod
    def from_json(json: str | bytes) -> Msg:
        """``Msg.model_validate_json`` (without the GIL from 64 KiB of text). Raises
        MsgError."""
    @staticmethod
    def from_dict(value: dict[str, Any] | Any) -> Msg:
        """``Msg.model_validate`` of a dict, or an agentscope ``Msg``. Raises MsgError."""
    @staticmethod
    def _create(role: str, name: str, content_json: str, options_json: str) -> Msg: ...
    def append_event(self, event: EventInput) -> str:
        """Applies one event in place; returns ``"applied"`` or the skip's code
        (``ignored_type``, ``foreign_reply``, ``unknown_block``, …). Raises MsgError
        (the message unchanged) or TypeError (not an event). An event of 64 KiB or more
        (its JSON text, or a dict's or agentscope event's delta, data or url) is decoded
        and applied without the GIL, its Python values read first; a delta past
        ``max_delta_bytes`` is refused before it is copied."""
    def _append_plain(self, event: Any) -> str: ...
    def set_limits(
        self,
        *,
        max_delta_bytes: int | None = None,
        max_block_bytes: int | None = None,
        max_message_bytes: int | None = None,
        max_blocks: int | None = None,
    ) -> None:
        """Caps on what events may add, in bytes and blocks; 0 is no cap. Past one,
        MsgError ``limit_exceeded``, the message unchanged; a delta past
        ``max_delta_bytes`` is refused before it is copied."""
    def to_json(self) -> str:
        """Compact wire JSON (``model_dump_json()``; floats below 1e-4 in Python's
        ``repr`` notation, see the class). Written without the GIL for a message of
        about 64 KiB or more."""
    def to_dict(self) -> dict[str, Json]:
        """``model_dump(mode="json")``: dicts and lists in the reference's key order
        (its JSON written without the GIL from about 64 KiB, the dicts built with it)."""
    def to_agentscope(self) -> Any:
        """An ``agentscope.message.Msg`` (needs agentscope installed)."""
    def get_text_content(self, separator: str = "\n") -> str | None: ...
    def get_content_blocks(self, types: BlockType | list[BlockType] | None = None) -> list[dict[str, Json]]: ...
    def has_content_blocks(self, types: BlockType | list[BlockType] | None = None) -> bool: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> Literal["user", "assistant", "system"]: ...
    @property
    def created_at(self) -> str: ...
    @property
    def finished_at(self) -> str | None: ...
    @property
    def finished_reason(self) -> Literal["completed", "interrupted", "exceed_max_iters", "error"] | None: ...
    def __copy__(self) -> Msg: ...
    def __deepcopy__(self, memo: Any) -> Msg: ...

@final
class Update:
    """What a Session did with one event."""

    index: int
    reply_id: str | None
    event_type: str | None
    event_id: str | None
    sse_id: str | None
    kind: Literal["applied", "skipped", "custom", "reply_started", "reply_ended", "refused"]
    #: a skip's code (kind "skipped")
    reason: str | None
    #: a CUSTOM event's name and value (kind "custom")
    name: str | None
    value: dict[str, Json] | None
    #: the message's position in Session.messages() (reply_started, reply_ended)
    message: int | None
    #: a continuation REPLY_START (after a confirmation or an external execution)
    continued: bool
    #: the message as its REPLY_END left it (kind "reply_ended")
    msg: Msg | None
    #: the refusal (kind "refused")
    error: SessionError | None
    #: what the session noted about the event (code, message, index, …)
    diagnostics: list[dict[str, Json]]

@final
class Session:
    """A conversation rebuilt from an event stream (SSE, JSON Lines or a JSON array) or
    single events. Options as the Rust SessionOptions (docs/session.md); unknown ones
    raise MsgError ``invalid_argument``.

    Usable from any thread: each call locks the session; ``feed`` of 64 KiB or more,
    ``apply`` of an event of 64 KiB or more, ``end``, ``checkpoint``, ``restore`` and
    copies of long messages release the GIL meanwhile (docs/python.md, "Threads")."""

    def __init__(
        self,
        *,
        strict: bool = False,
        dedup: bool = False,
        skip_invalid: bool = False,
        keep_events: bool = False,
        tool_call_match: Literal["first", "newest"] = "first",
        block_match: Literal["first", "newest"] = "first",
        max_frame_bytes: int = ...,
        max_delta_bytes: int = ...,
        max_block_bytes: int = ...,
        max_message_bytes: int = ...,
        max_blocks: int = ...,
        max_session_bytes: int = ...,
    ) -> None: ...
    @staticmethod
    def restore(checkpoint: str) -> Session: ...
    def feed(self, chunk: bytes | str) -> list[Update]:
        """What each event the chunk completes did (never raises for a bad event). The
        chunk is not copied; from 64 KiB on it is read without the GIL."""
    def end(self) -> list[Update]:
        """Frames what is left (a last line without its newline); without the GIL."""
    def apply(self, event: EventInput) -> str: ...
    def insert(self, msg: Msg) -> None: ...
    def messages(self) -> list[Msg]: ...
    def get(self, reply_id: str) -> Msg | None: ...
    def is_ended(self, reply_id: str) -> bool: ...
    def diagnostics(self) -> list[dict[str, Json]]: ...
    def take_events(self) -> list[tuple[int, str, str]]: ...
    def last_event_id(self) -> str | None: ...
    def checkpoint(self) -> str:
        """The session as JSON text, for ``Session.restore``; written without the GIL."""
    def __len__(self) -> int: ...

def _set_factories(id_factory: Callable[..., Any] | None = None, timestamp_factory: Callable[..., Any] | None = None) -> None: ...
