# -*- coding: utf-8 -*-
"""A live, offline AgentScope 2.0.11 service for tests and the demo.

Runs the real ``agentscope.app.create_app(...)`` under uvicorn with the
embedded defaults (SQLite storage, in-memory message bus, local workspaces,
no workers), creates a credential of the scripted type and an agent over
its own HTTP API, then prints ONE JSON line on stdout:

    {"urls": ["http://127.0.0.1:PORT"], "agent_id": "...",
     "user_id": "...", "credential_id": "...",
     "chat_model_config": {...}}   (what POST /sessions/ needs)

Everything else goes to stderr. SIGTERM / SIGINT stop it cleanly (exit 0)
and remove its temp folder. Start it with ``scripts/agentscope-service``.

The chat model is the real ``OpenAIChatModel``; only its network client is
replaced by an in-process fake whose ``chat.completions.create`` returns an
async stream of real ``openai`` ``ChatCompletionChunk`` objects, chosen by a
policy keyed by the text of the LAST user message (first word, case
insensitive):

| user text starts with | model turn 1                                      | after the tool result(s)                       |
|-----------------------|---------------------------------------------------|------------------------------------------------|
| `think`               | reasoning_content "Let me think about this."      | -                                              |
|                       | (3 deltas), then text "I thought about it." (2)   |                                                |
| `tool`                | text "Running a tool.", then tool call            | text "Tool said: tool-ok."                     |
|                       | Bash {"command": "echo tool-ok", ...}             |                                                |
|                       | (read-only: runs without asking)                  |                                                |
| `parallel`            | two tool calls in one turn: Bash "echo one",      | text "Both tools ran: one, two."               |
|                       | Bash "echo two" (both run without asking)         |                                                |
| `confirm`             | text "I need to create a file.", then tool call   | text "The Bash call was approved." or          |
|                       | Bash {"command": "touch confirm.txt", ...}: not   | "The Bash call was denied."                    |
|                       | read-only, so REQUIRE_USER_CONFIRM (DEFAULT mode) |                                                |
| `ask`                 | tool call AskUser (external tool, question        | text "You answered: <result output>"           |
|                       | "Which color do you prefer?", options Red/Blue):  |                                                |
|                       | REQUIRE_EXTERNAL_EXECUTION                        |                                                |
| `image`               | tool call ScriptedImage {} whose result is text   | text "Here is the image."                      |
|                       | "A 1x1 PNG:" + a DataBlock image/png (base64)     |                                                |
| `long` / `long N`     | N text deltas (default 2000) "w0 ", "w1 ", ...,   | -                                              |
|                       | AGENTSCOPE_SERVICE_DELAY_MS apart (default 2)     |                                                |
| `fail`                | text deltas "This ", "will ", "fail", then the    | -                                              |
|                       | stream raises RuntimeError("scripted model        |                                                |
|                       | failure"): REPLY_END finished_reason "error"      |                                                |
| `slow`                | 20 text deltas "s0 ", ..., "s19 ",                | -                                              |
|                       | AGENTSCOPE_SERVICE_SLOW_MS apart (default 200)    |                                                |
| `task`                | text "Creating a task.", then tool call           | text "The task is on the list."                |
|                       | TaskCreate {"subject": "Write the report", ...}:  |                                                |
|                       | CUSTOM state_updated (tasks_context holds it)     |                                                |
| `team`                | text "Creating a team.", TeamCreate "Scripted     | text "The team is at work."                    |
|                       | team"; then AgentCreate member "worker" with the  |                                                |
|                       | task "teamwork: create worker.txt": CUSTOM        |                                                |
|                       | team_updated after each                           |                                                |
| `teamwork:` (member)  | Bash "touch worker.txt" (asks: projected onto the | TeamSay "report: the Bash call was approved."  |
|                       | leader as CUSTOM subagent_require_user_confirm)   | (or denied), then "Reported to the leader."    |
| `report:` (leader)    | text "The worker said: <the report>" (the leader  | -                                              |
|                       | is woken by its member's TeamSay)                 |                                                |
| `audio`               | three `delta.audio` chunks (base64 PCM16 24 kHz,  | -                                              |
|                       | transcript "Here is ", "a short ", "beep."): text |                                                |
|                       | deltas + DATA_BLOCK_START/DELTA x3/END audio/wav  |                                                |
| `seeimage`/`describe` | "I received <each attachment of the last user     | -                                              |
|                       | message as the model got it>." in 2 deltas, e.g.  |                                                |
|                       | "image/png (base64, 96 chars)", "an image (url,   |                                                |
|                       | https://…)", "audio/wav (base64, N chars)",       |                                                |
|                       | "application/pdf (base64, N chars, name.pdf)";    |                                                |
|                       | "no attachment" without any                       |                                                |
| `progress`            | tool call ScriptedProgress {"steps": 3}: three    | text "The progress tool finished."             |
|                       | CUSTOM mcp_progress, then result "progress-done"  |                                                |
| anything else         | "You said: <text>" in 4 deltas                    | -                                              |

The keyword is the first whitespace-separated word, case-insensitive
("Tool please" and "tool" both match `tool`; "tools" does not). A team
message (a member's task, a member's report to its leader) reaches the model
as a user message `<team-message from="NAME">\nBODY\n</team-message>`: its
BODY is the text the keyword is taken from.

The session auto-naming call (a forced ``generate_structured_output`` tool
call) is answered with the title ``Chat: <first 40 chars of the text>``.
Texts are deterministic; ids are random.
"""
# pylint: disable=wrong-import-position
import os
import sys

# Keep stdout for the one JSON line: everything that writes to fd 1
# (print, uvicorn, agentscope) goes to stderr from here on.
_JSON_OUT = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr

import argparse
import asyncio
import base64
import contextlib
import json
import logging
import math
import shutil
import signal
import socket
import tempfile
import time
from typing import Any, AsyncIterator, Literal, Type

from pydantic import Field, SecretStr

DELAY_MS = float(os.environ.get("AGENTSCOPE_SERVICE_DELAY_MS", "2"))
SLOW_MS = float(os.environ.get("AGENTSCOPE_SERVICE_SLOW_MS", "200"))
DEBUG = os.environ.get("AGENTSCOPE_SERVICE_DEBUG", "") not in ("", "0")
USER_ID = "test-user"
DOWNLOAD_SECRET = "agentscope-service-download-secret"
MODEL_NAME = "scripted"

# A 1x1 transparent PNG.
TINY_PNG_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA"
    "60e6kgAAAABJRU5ErkJggg=="
)

log = logging.getLogger("agentscope-service")


# ----------------------------------------------------------------------
# The scripted model: real OpenAIChatModel, fake network client
# ----------------------------------------------------------------------


def _text_of(content: Any, keep_reminders: bool = False) -> str:
    """Text of an OpenAI message content, without system reminders."""
    if isinstance(content, str):
        parts = [content]
    elif isinstance(content, list):
        parts = [
            p.get("text", "")
            for p in content
            if isinstance(p, dict) and p.get("type") == "text"
        ]
    else:
        parts = []
    kept = [
        p
        for p in parts
        if keep_reminders
        or not p.lstrip().startswith(("<system-reminder>", "<system-notification>"))
    ]
    return "\n".join(kept).strip()


def _chunk(cid: str, delta: dict | None = None, finish: str | None = None,
           usage: dict | None = None) -> Any:
    """A real openai ChatCompletionChunk, built as if parsed off the wire."""
    from openai.types.chat import ChatCompletionChunk

    data: dict[str, Any] = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": MODEL_NAME,
        "choices": [],
    }
    if delta is not None or finish is not None:
        data["choices"] = [
            {"index": 0, "delta": delta or {}, "finish_reason": finish},
        ]
    if usage is not None:
        data["usage"] = usage
    return ChatCompletionChunk.model_validate(data)


class _Script:
    """One model turn: a list of steps (chunk dicts, sleeps, a raise)."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, Any]] = []

    def text(self, *deltas: str, delay_ms: float = 0) -> "_Script":
        for d in deltas:
            if delay_ms:
                self.steps.append(("sleep", delay_ms / 1000))
            self.steps.append(("delta", {"content": d}))
        return self

    def thinking(self, *deltas: str) -> "_Script":
        for d in deltas:
            self.steps.append(("delta", {"reasoning_content": d}))
        return self

    def tool_calls(self, *calls: tuple[str, dict]) -> "_Script":
        for index, (name, args) in enumerate(calls):
            raw = json.dumps(args)
            half = len(raw) // 2
            call_id = f"call_{os.urandom(8).hex()}"
            self.steps.append(("delta", {"tool_calls": [{
                "index": index, "id": call_id, "type": "function",
                "function": {"name": name, "arguments": raw[:half]},
            }]}))
            self.steps.append(("delta", {"tool_calls": [{
                "index": index, "function": {"arguments": raw[half:]},
            }]}))
        return self

    def audio(self, pcm_chunks: list[bytes], transcript: list[str]) -> "_Script":
        """``delta.audio`` chunks as an OpenAI audio-output model streams
        them: base64 PCM16 ``data`` and a ``transcript`` piece each."""
        audio_id = f"audio_{os.urandom(8).hex()}"
        for pcm, words in zip(pcm_chunks, transcript):
            self.steps.append(("delta", {"audio": {
                "id": audio_id,
                "data": base64.b64encode(pcm).decode("ascii"),
                "transcript": words,
            }}))
        return self

    def fail(self, message: str) -> "_Script":
        self.steps.append(("raise", message))
        return self


class _FakeStream:
    """Stands in for ``openai.AsyncStream[ChatCompletionChunk]``."""

    def __init__(self, script: _Script) -> None:
        self._script = script

    async def __aenter__(self) -> "_FakeStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        cid = f"chatcmpl-{os.urandom(8).hex()}"
        finish = "stop"
        n_out = 0
        for kind, value in self._script.steps:
            if kind == "sleep":
                await asyncio.sleep(value)
            elif kind == "raise":
                raise RuntimeError(value)
            else:
                if "tool_calls" in value:
                    finish = "tool_calls"
                n_out += 1
                yield _chunk(cid, value)
        yield _chunk(cid, {}, finish)
        yield _chunk(cid, usage={
            "prompt_tokens": 10,
            "completion_tokens": n_out,
            "total_tokens": 10 + n_out,
        })


def _split(text: str, n: int) -> list[str]:
    """Split ``text`` into ``n`` (roughly equal) non-empty pieces."""
    n = max(1, min(n, len(text)))
    size = -(-len(text) // n)
    return [text[i:i + size] for i in range(0, len(text), size)]


# A tiny mono PCM16 tone (24 kHz, what OpenAI's streamed audio is), cut in
# three chunks. The model prefixes the first with its 44-byte streaming WAV
# header; 44 + 100 and 96 are multiples of 3, so each delta's base64 has no
# padding and the deltas' base64 strings concatenate to the whole WAV's.
AUDIO_PCM = b"".join(
    int(8000 * math.sin(2 * math.pi * 440 * i / 24000)).to_bytes(
        2, "little", signed=True,
    )
    for i in range(50 + 48 + 48)
)
AUDIO_CHUNKS = [AUDIO_PCM[:100], AUDIO_PCM[100:196], AUDIO_PCM[196:]]
AUDIO_TRANSCRIPT = ["Here is ", "a short ", "beep."]

TEAM_NAME = "Scripted team"
TEAM_MEMBER = "worker"
# What the leader's AgentCreate gives the member as its first task (the
# member's model sees it as a user message wrapped in <team-message>).
TEAM_TASK = "teamwork: create worker.txt"


def _unwrap_team_message(text: str) -> str:
    """The body of a ``<team-message from="...">`` hint (a team member's
    first task, or a report to the leader); other text as it is."""
    if text.startswith("<team-message"):
        body = text.split(">", 1)[-1]
        return body.rsplit("</team-message>", 1)[0].strip()
    return text


def _attachments(message: dict) -> list[str]:
    """What a user message carried besides text, as the model received it:
    the media type and source kind / length of each part."""
    seen = []
    content = message.get("content")
    for part in content if isinstance(content, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "image_url":
            url = part["image_url"]["url"]
            if url.startswith("data:"):
                media, _, data = url[5:].partition(";base64,")
                seen.append(f"{media} (base64, {len(data)} chars)")
            else:
                seen.append(f"an image (url, {url})")
        elif kind == "input_audio":
            audio = part["input_audio"]
            seen.append(
                f"audio/{audio['format']} (base64, {len(audio['data'])} chars)",
            )
        elif kind == "file":
            file = part["file"]
            media, _, data = file["file_data"][5:].partition(";base64,")
            seen.append(
                f"{media} (base64, {len(data)} chars, {file['filename']})",
            )
        elif kind not in ("text", None):
            seen.append(f"a {kind} part")
    return seen


def _policy(kwargs: dict) -> _Script:
    """Choose the model turn for one ``chat.completions.create`` call."""
    messages: list[dict] = kwargs.get("messages", [])
    tools = {
        t.get("function", {}).get("name")
        for t in kwargs.get("tools") or []
    }
    last_user = -1
    for i, m in enumerate(messages):
        if (
            m.get("role") == "user"
            # The formatter's own user turns (e.g. the images of a tool
            # result) are named "system-reminder".
            and m.get("name") != "system-reminder"
            and _text_of(m.get("content"))
        ):
            last_user = i
    text = _text_of(messages[last_user].get("content")) if last_user >= 0 else ""
    # a team member's task / report arrives as <team-message from="...">
    text = _unwrap_team_message(text)
    after = messages[last_user + 1:] if last_user >= 0 else []
    results = [
        _text_of(m.get("content"), keep_reminders=True)
        for m in after
        if m.get("role") == "tool"
    ]
    words = text.split()
    key = words[0].lower() if words else ""
    s = _Script()

    # Session auto-naming (forced structured output).
    if "generate_structured_output" in tools:
        opening = text.split("\n\n", 1)[-1].strip()
        return s.tool_calls(
            ("generate_structured_output", {"title": f"Chat: {opening[:40]}"}),
        )

    if key == "think":
        return s.thinking("Let me ", "think about ", "this.").text(
            "I thought ", "about it.",
        )
    if key == "tool":
        if not results:
            return s.text("Running a tool.").tool_calls(
                ("Bash", {"command": "echo tool-ok",
                          "description": "Print tool-ok"}),
            )
        out = "tool-ok" if "tool-ok" in results[-1] else "something else"
        return s.text("Tool said: ", f"{out}.")
    if key == "parallel":
        if not results:
            return s.tool_calls(
                ("Bash", {"command": "echo one", "description": "Print one"}),
                ("Bash", {"command": "echo two", "description": "Print two"}),
            )
        return s.text("Both tools ", "ran: one, two.")
    if key == "confirm":
        if not results:
            return s.text("I need to create a file.").tool_calls(
                ("Bash", {"command": "touch confirm.txt",
                          "description": "Create confirm.txt"}),
            )
        out = results[-1].lower()
        verdict = "denied" if ("denied" in out or "reject" in out) else "approved"
        return s.text("The Bash call ", f"was {verdict}.")
    if key == "ask":
        if not results:
            return s.tool_calls(("AskUser", {"questions": [{
                "question": "Which color do you prefer?",
                "header": "Color",
                "options": [
                    {"label": "Red", "description": "The color red"},
                    {"label": "Blue", "description": "The color blue"},
                ],
            }]}))
        return s.text("You answered: ", results[-1])
    if key == "image":
        if not results:
            return s.tool_calls(("ScriptedImage", {}))
        return s.text("Here is ", "the image.")
    if key == "long":
        n = int(words[1]) if len(words) > 1 and words[1].isdigit() else 2000
        return s.text(*[f"w{i} " for i in range(n)], delay_ms=DELAY_MS)
    if key == "fail":
        return s.text("This ", "will ", "fail").fail("scripted model failure")
    if key == "slow":
        return s.text(*[f"s{i} " for i in range(20)], delay_ms=SLOW_MS)
    if key == "task":
        if not results:
            return s.text("Creating a task.").tool_calls(
                ("TaskCreate", {"subject": "Write the report",
                                "description": "Write the quarterly report."}),
            )
        return s.text("The task ", "is on the list.")
    if key == "team":
        # leader: TeamCreate, then AgentCreate (one member), then a text
        if not results:
            return s.text("Creating a team.").tool_calls(
                ("TeamCreate", {"name": TEAM_NAME,
                                "description": "A team for the scripted tests."}),
            )
        if len(results) == 1:
            return s.tool_calls(("AgentCreate", {
                "name": TEAM_MEMBER,
                "description": "Creates a file when asked.",
                "prompt": TEAM_TASK,
            }))
        return s.text("The team ", "is at work.")
    if key == "teamwork:":
        # the member: a Bash call that asks (REQUIRE_USER_CONFIRM, projected
        # onto the leader), then its report to the leader, then a text
        if not results:
            return s.tool_calls(
                ("Bash", {"command": "touch worker.txt",
                          "description": "Create worker.txt"}),
            )
        if len(results) == 1:
            out = results[-1].lower()
            verdict = "denied" if ("denied" in out or "reject" in out) else "approved"
            return s.tool_calls(("TeamSay", {
                "content": f"report: the Bash call was {verdict}.",
            }))
        return s.text("Reported ", "to the leader.")
    if key == "report:":
        # the leader, woken by its member's TeamSay
        return s.text("The worker ", f"said: {text}")
    if key == "audio":
        return s.audio(AUDIO_CHUNKS, AUDIO_TRANSCRIPT)
    if key in ("seeimage", "describe"):
        seen = _attachments(messages[last_user]) if last_user >= 0 else []
        said = "; ".join(seen) if seen else "no attachment"
        return s.text(*_split(f"I received {said}.", 2))
    if key == "progress":
        if not results:
            return s.tool_calls(("ScriptedProgress", {"steps": 3}))
        return s.text("The progress ", "tool finished.")
    return s.text(*_split(f"You said: {text}", 4))


class _FakeCompletions:
    async def create(self, **kwargs: Any) -> Any:
        if DEBUG:
            log.warning(
                "model request: %s",
                json.dumps(kwargs.get("messages"), ensure_ascii=False)[-3000:],
            )
        if not kwargs.get("stream"):
            raise RuntimeError("the scripted model only streams")
        return _FakeStream(_policy(kwargs))


class _FakeChat:
    completions = _FakeCompletions()


class _FakeClient:
    """Replaces ``openai.AsyncClient``: no network, no key."""

    chat = _FakeChat()


def _scripted_model_class() -> type:
    from agentscope.model import OpenAIChatModel

    class ScriptedOpenAIChatModel(OpenAIChatModel):
        """The real OpenAIChatModel with its network client replaced."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("max_retries", 0)
            super().__init__(*args, **kwargs)
            self.client = _FakeClient()  # type: ignore[assignment]

    return ScriptedOpenAIChatModel


_MODEL_CLS: type | None = None


def _get_model_cls() -> type:
    global _MODEL_CLS  # pylint: disable=global-statement
    if _MODEL_CLS is None:
        _MODEL_CLS = _scripted_model_class()
    return _MODEL_CLS


def make_credential_class() -> type:
    from agentscope.credential import CredentialBase

    class ScriptedCredential(CredentialBase):
        """Credential of the offline scripted model (no key needed)."""

        type: Literal["scripted_credential"] = "scripted_credential"
        api_key: SecretStr = Field(default=SecretStr("scripted-no-key"))
        organization: str | None = None
        base_url: str | None = None

        @classmethod
        def get_chat_model_class(cls) -> Type:
            return _get_model_cls()

    return ScriptedCredential


# ----------------------------------------------------------------------
# Extra tools: AskUser (external) and ScriptedImage (image result)
# ----------------------------------------------------------------------


def make_tool_factory() -> Any:
    from agentscope.message import Base64Source, DataBlock, TextBlock
    from agentscope.permission import PermissionBehavior, PermissionDecision
    from agentscope.tool import ToolBase, ToolChunk
    from agentscope.tool._builtin._ask_user import AskUser
    from agentscope.message import ToolResultState

    class _AlwaysPermitted(ToolBase):
        """A read-only tool that never asks."""

        is_read_only = True
        is_concurrency_safe = True

        async def check_permissions(self, tool_input: dict, context: Any) -> Any:
            return PermissionDecision(
                behavior=PermissionBehavior.ALLOW,
                message=f"{self.name} is always permitted.",
            )

    class ScriptedImage(_AlwaysPermitted):
        """Returns a tiny PNG image."""

        name = "ScriptedImage"
        description = "Return a tiny PNG image."
        input_schema = {"type": "object", "properties": {}}

        async def call(self, **kwargs: Any) -> Any:
            return ToolChunk(
                content=[
                    TextBlock(text="A 1x1 PNG:"),
                    DataBlock(
                        source=Base64Source(
                            data=TINY_PNG_B64, media_type="image/png",
                        ),
                        name="pixel.png",
                    ),
                ],
                state=ToolResultState.SUCCESS,
                is_last=True,
            )

    class ScriptedProgress(_AlwaysPermitted):
        """Reports progress the way agentscope's MCP adapter does (an
        intermediate ToolChunk with ``metadata["mcp_progress"]``), then
        returns."""

        name = "ScriptedProgress"
        description = "Report progress in steps, then finish."
        input_schema = {
            "type": "object",
            "properties": {"steps": {"type": "integer"}},
        }

        async def call(self, steps: int = 3, **kwargs: Any) -> Any:
            for i in range(1, steps + 1):
                await asyncio.sleep(0.01)
                yield ToolChunk(
                    content=[],
                    state=ToolResultState.RUNNING,
                    is_last=False,
                    metadata={"mcp_progress": {
                        "progress": i, "total": steps, "message": f"step {i}",
                    }},
                )
            yield ToolChunk(
                content=[TextBlock(text="progress-done")],
                state=ToolResultState.SUCCESS,
                is_last=True,
            )

    async def factory(user_id: str, agent_id: str, session_id: str) -> list:
        return [AskUser(), ScriptedImage(), ScriptedProgress()]

    return factory


# ----------------------------------------------------------------------
# Server
# ----------------------------------------------------------------------


def _log_config(level: str) -> dict:
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(levelname)s %(name)s: %(message)s"}},
        "handlers": {"stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "stream": "ext://sys.stderr",
        }},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
        },
    }


async def _setup(base: str) -> dict:
    """Create the credential and the agent over HTTP, as a client would."""
    import httpx

    headers = {"X-User-ID": USER_ID}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30,
                                 trust_env=False) as client:
        r = await client.post("/credential/", json={"data": {
            "type": "scripted_credential", "name": "Scripted (offline)",
        }})
        r.raise_for_status()
        credential_id = r.json()["credential_id"]
        r = await client.post("/agent/", json={
            "name": "Scripted",
            "system_prompt": "You're a helpful assistant.",
        })
        r.raise_for_status()
        agent_id = r.json()["agent_id"]
    return {
        "urls": [base],
        "agent_id": agent_id,
        "user_id": USER_ID,
        "credential_id": credential_id,
        # what POST /sessions/ needs for the scripted model (a session's own setting)
        "chat_model_config": {
            "type": "scripted_credential", "credential_id": credential_id,
            "model": "scripted", "parameters": {},
        },
    }


class _EndStreamsOnShutdown:
    """ASGI wrapper: on shutdown, end open SSE responses (clean EOF for the
    client) instead of letting uvicorn wait for them and then cancel them."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.shutdown = asyncio.Event()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].endswith("/stream"):
            await self.app(scope, receive, send)
            return
        started = False
        finished = False

        async def _send(message: dict) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            if message["type"] == "http.response.body" and not message.get(
                "more_body", False,
            ):
                finished = True
            await send(message)

        task = asyncio.ensure_future(self.app(scope, receive, _send))
        stop = asyncio.ensure_future(self.shutdown.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if task.done():
            task.result()
            return
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        if started and not finished:
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"",
                            "more_body": False})


async def _main(args: argparse.Namespace, tmp: str) -> int:
    import uvicorn
    from agentscope.app import create_app
    from agentscope.app.message_bus import InMemoryMessageBus, RedisMessageBus
    from agentscope.app.storage import AsyncSQLAlchemyStorage, RedisStorage
    from agentscope.app.workspace_manager import LocalWorkspaceManager

    workspaces = args.workspaces or os.path.join(tmp, "ws")
    os.makedirs(workspaces, exist_ok=True)
    if args.redis_port:
        # one instance of several: the storage and the message bus both on Redis
        storage: Any = RedisStorage(host="127.0.0.1", port=args.redis_port, db=0)
        bus: Any = RedisMessageBus(host="127.0.0.1", port=args.redis_port, db=0)
    else:
        storage = AsyncSQLAlchemyStorage(
            f"sqlite+aiosqlite:///{os.path.join(tmp, 'db.sqlite')}",
        )
        bus = InMemoryMessageBus()
    app = create_app(
        storage=storage,
        message_bus=bus,
        workspace_manager=LocalWorkspaceManager(basedir=workspaces),
        enable_index_worker=False,
        enable_channel_worker=False,
        enable_scheduler=False,
        extra_credentials=[make_credential_class()],
        extra_agent_tools=make_tool_factory(),
        download_secret=DOWNLOAD_SECRET,
    )

    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    port = sock.getsockname()[1]

    asgi = _EndStreamsOnShutdown(app)

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            asgi.shutdown.set()
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self):  # type: ignore[override]
            # Like uvicorn's, minus re-raising the signal after shutdown,
            # so the temp folder is removed and the exit code is 0.
            sigs = (signal.SIGINT, signal.SIGTERM)
            old = {s: signal.signal(s, self.handle_exit) for s in sigs}
            try:
                yield
            finally:
                for s, h in old.items():
                    signal.signal(s, h)

    level = os.environ.get("AGENTSCOPE_SERVICE_LOG", "warning")
    server = _Server(uvicorn.Config(
        asgi,
        log_config=_log_config(level),
        log_level=level,
        access_log=level in ("debug", "info"),
        timeout_graceful_shutdown=2,
        lifespan="on",
    ))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            await task
            return 1
        await asyncio.sleep(0.02)

    host = f"[{args.host}]" if ":" in args.host else args.host
    try:
        if args.no_setup:  # an instance of --redis: the supervisor sets up
            info = {"urls": [f"http://{host}:{port}"], "pid": os.getpid()}
        else:
            info = await _setup(f"http://{host}:{port}")
            info["pids"] = [os.getpid()]
    except Exception:  # pylint: disable=broad-except
        if server.should_exit:  # stopped by a signal while setting up
            await task
            return 0
        log.exception("setup failed")
        server.should_exit = True
        await task
        return 1
    info["fast_fold"] = _fast_fold()
    _JSON_OUT.write(json.dumps(info) + "\n")
    _JSON_OUT.flush()
    await task
    return 0


# ----------------------------------------------------------------------
# --redis: Redis and several instances on it, supervised
# ----------------------------------------------------------------------


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In a child, before exec: SIGKILL it when this process dies (Linux
    prctl PR_SET_PDEATHSIG), so no Redis or instance outlives a killed
    supervisor."""
    import ctypes

    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start_redis(tmp: str) -> tuple[Any, int]:
    """Debian's redis-server on a free loopback port, its data in ``tmp``
    (no snapshots, no append-only file): not the system's service."""
    import subprocess

    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(binary):
        raise RuntimeError(
            "redis-server not found (scripts/setup installs Debian's redis-server)",
        )
    folder = os.path.join(tmp, "redis")
    os.makedirs(folder, exist_ok=True)
    for _ in range(5):
        port = _free_port("127.0.0.1")
        proc = subprocess.Popen(  # pylint: disable=consider-using-with
            [binary, "--port", str(port), "--bind", "127.0.0.1",
             "--dir", folder, "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--logfile", "", "--loglevel", "warning"],
            stdin=subprocess.DEVNULL, stdout=2, stderr=2,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + 10
        while proc.poll() is None and time.monotonic() < deadline:
            if _redis_ping(port):
                return proc, port
            time.sleep(0.05)
        proc.kill()
        proc.wait()
    raise RuntimeError("redis-server did not start")


def _supervise(args: argparse.Namespace, tmp: str, stop: Any) -> int:
    """Redis, then ``args.instances`` service instances on it (bus and
    storage), set up through the first; prints the JSON line with every
    instance's URL and pid; on SIGTERM / SIGINT stops them all."""
    import subprocess
    import threading

    redis_proc, redis_port = _start_redis(tmp)
    children: list[Any] = []
    try:
        for i in range(args.instances):
            port = args.port + i if args.port else 0
            children.append(subprocess.Popen(  # pylint: disable=consider-using-with
                [sys.executable, "-u", os.path.abspath(__file__), "--instance",
                 "--redis-port", str(redis_port), "--host", args.host,
                 "--port", str(port), "--workspaces", os.path.join(tmp, "ws")],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=2,
                preexec_fn=_die_with_parent,
            ))
        lines: list[Any] = [None] * len(children)

        def _read(i: int) -> None:
            line = children[i].stdout.readline()
            lines[i] = json.loads(line) if line.strip() else None

        readers = [threading.Thread(target=_read, args=(i,), daemon=True)
                   for i in range(len(children))]
        for r in readers:
            r.start()
        deadline = time.monotonic() + 180
        while any(r.is_alive() for r in readers):
            if stop.is_set():
                return 0
            if time.monotonic() > deadline:
                raise RuntimeError("the instances did not start in 180 s")
            time.sleep(0.05)
        if any(line is None for line in lines):
            raise RuntimeError("an instance exited before it was ready")
        urls = [line["urls"][0] for line in lines]
        info = asyncio.run(_setup(urls[0]))
        info["urls"] = urls
        info["pids"] = [line["pid"] for line in lines]
        info["redis"] = {"host": "127.0.0.1", "port": redis_port,
                         "pid": redis_proc.pid}
        info["fast_fold"] = _fast_fold()
        _JSON_OUT.write(json.dumps(info) + "\n")
        _JSON_OUT.flush()
        while not stop.wait(0.2):
            if redis_proc.poll() is not None:
                log.error("redis-server exited (%s)", redis_proc.returncode)
                return 1
            # an instance that exits (a test kills one) leaves the others up;
            # poll() reaps it (no zombie)
            for child in children:
                child.poll()
        return 0
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        redis_proc.terminate()
        try:
            redis_proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            redis_proc.kill()
            redis_proc.wait()


def _write_fold_stats() -> None:
    """AGENTSCOPE_SERVICE_FOLD_STATS=FILE: the fold's counts (events applied in Rust and
    by the reference's path, messages taken into Rust, kept with the reference because
    something else holds their objects) written to FILE as JSON when the service stops
    (tests/python/test_service.py)."""
    path = os.environ.get("AGENTSCOPE_SERVICE_FOLD_STATS")
    module = sys.modules.get("agentscope_message.agentscope")
    if path and module is not None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(module._stats, f)


def _fast_fold() -> bool:
    """Whether agentscope's Msg.append_event is agentscope-message's (--fast-fold)."""
    module = sys.modules.get("agentscope_message.agentscope")
    return module is not None and module.installed()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0,
                        help="port to listen on (0 = a free port); with "
                             "--redis, instance i listens on PORT + i")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--redis", action="store_true",
                        help="start Redis (Debian's redis-server, a free "
                             "loopback port) and --instances service "
                             "instances on it (storage and message bus)")
    parser.add_argument("--instances", type=int, default=2,
                        help="how many instances --redis starts (default 2)")
    parser.add_argument("--redis-port", type=int, default=0,
                        help="one instance on the Redis at 127.0.0.1:PORT")
    parser.add_argument("--instance", dest="no_setup", action="store_true",
                        help=argparse.SUPPRESS)
    parser.add_argument("--workspaces", default="", help=argparse.SUPPRESS)
    parser.add_argument("--fast-fold", action="store_true",
                        help="fold replies with agentscope-message's reducer "
                             "(agentscope_message.agentscope.install(); also "
                             "AGENTSCOPE_SERVICE_FAST_FOLD=1, which --redis "
                             "instances inherit)")
    args = parser.parse_args()
    if args.fast_fold or os.environ.get("AGENTSCOPE_SERVICE_FAST_FOLD") == "1":
        # the wheel's opt-in call (scripts/python-wheel installs it in this venv)
        os.environ["AGENTSCOPE_SERVICE_FAST_FOLD"] = "1"
        import agentscope_message.agentscope

        agentscope_message.agentscope.install()
    if args.redis and args.instances < 1:
        parser.error("--instances must be at least 1")
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    # Until uvicorn takes the signals over (and after it gives them back),
    # SIGTERM / SIGINT unwind through the ``finally`` below.
    def _interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    # an instance of --redis keeps nothing of its own (the supervisor's folder holds
    # the workspaces), so a killed one leaves nothing behind
    tmp = "" if args.no_setup else tempfile.mkdtemp(prefix="agentscope-service-")
    if args.redis:
        import threading

        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        try:
            return _supervise(args, tmp, stop)
        except Exception as e:  # pylint: disable=broad-except
            log.error("agentscope-service --redis: %s", e)
            return 1
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        return asyncio.run(_main(args, tmp))
    except KeyboardInterrupt:
        return 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        _write_fold_stats()


if __name__ == "__main__":
    sys.exit(main())
