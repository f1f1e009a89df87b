"""The live AgentScope 2.0.11 service (scripts/agentscope-service: the real create_app
with a scripted model) run twice, without and with `--fast-fold`, through the same
conversation (every scripted policy that makes a reply, a confirmation, an external
result, an interrupted reply): the messages it stores are equal, but for the ids and
timestamps it makes up (random on both sides), which are compared by where they occur."""

import json
import os
import re
import time

import pytest

from live_service import Service

# what the service makes up: 32-hex ids, 16-hex tool-call ids and timestamps
HEX = re.compile(r"\b(?:call_)?[0-9a-f]{16,32}\b")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")


def converse(service):
    """The same conversation on `service`; returns the stored messages of its sessions."""
    agent = service.agent
    stored = []
    session = service.new_session()

    def say(text, until=("idle",)):
        service.say(session, text)
        time.sleep(0.1)
        return service.wait(session, until)

    def answer(event, until=("idle",)):
        service.call("POST", "/chat/", {"agent_id": agent, "session_id": session, "input": event})
        time.sleep(0.1)
        return service.wait(session, until)

    for text in ("hello", "think", "tool", "parallel", "long 3000", "image", "fail", "audio", "progress"):
        say(text)
    status, messages = say("confirm", ("awaiting_permission",))
    reply = messages[-1]
    call = next(b for b in reply["content"] if b["type"] == "tool_call" and b["state"] == "asking")
    answer({"type": "USER_CONFIRM_RESULT", "reply_id": reply["id"], "confirm_results": [{"confirmed": True, "tool_call": call}]})
    status, messages = say("ask", ("awaiting_external_result",))
    reply = messages[-1]
    call = next(b for b in reply["content"] if b["type"] == "tool_call" and b["state"] == "submitted")
    answers = [{"question": "Which color do you prefer?", "selected": ["Blue"]}]  # AskUser's metadata
    result = {"type": "tool_result", "id": call["id"], "name": call["name"], "output": "Blue", "state": "success", "metadata": {"answers": answers}}
    answer({"type": "EXTERNAL_EXECUTION_RESULT", "reply_id": reply["id"], "execution_results": [result]})
    # a parked reply interrupted
    say("confirm", ("awaiting_permission",))
    service.call("POST", f"/sessions/{session}/interrupt?agent_id={agent}")
    _, messages = service.wait(session, ("idle",))
    stored.append(messages)
    return stored


def normalised(value):
    """The stored messages with each made-up id and timestamp replaced by its order of
    first appearance (so equal structure gives equal text)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    seen = {}

    def name(kind):
        return lambda m: seen.setdefault(m.group(0), f"<{kind}{len(seen)}>")

    text = HEX.sub(name("id"), text)
    return STAMP.sub("<time>", text)


@pytest.mark.skipif(os.environ.get("AGENTSCOPE_MESSAGE_SKIP_SERVICE") == "1", reason="asked to skip")
def test_the_service_stores_the_same_messages_with_the_fast_fold():
    results = {}
    for fast in (False, True):
        service = Service(fast)
        try:
            results[fast] = converse(service)
        finally:
            service.stop()
    plain, fast = results[False], results[True]
    # the conversation really ran: 12 replies (9 policies, confirm, ask, confirm interrupted), with text, a tool result, audio and a confirmation
    # (a reply long enough to go to Rust mid-way: the next test, and the byte-for-byte
    # tests of tests/python/test_agentscope.py in every mode of the switch)
    replies = [m for m in plain[0] if m["role"] == "assistant"]
    assert len(replies) == 12
    assert any(b["type"] == "data" for m in replies for b in m["content"])
    assert sum(1 for m in replies if m["finished_reason"] == "interrupted") == 1
    assert normalised(fast) == normalised(plain)


@pytest.mark.skipif(os.environ.get("AGENTSCOPE_MESSAGE_SKIP_SERVICE") == "1", reason="asked to skip")
def test_the_service_s_long_reply_folds_in_rust(tmp_path):
    """The service folding its replies with install(): a `long 2000` reply (11 KB of
    text) stays on the reference's path (cheaper there); a `long 20000` one (129 KB) goes
    to Rust once its text's copies cost more than the round trip, and nothing of the reply
    the service holds keeps it with the reference (each of its events counted in the
    service process: AGENTSCOPE_SERVICE_FOLD_STATS)."""
    path = tmp_path / "stats.json"
    counts = {}
    for n in (2000, 20000):
        service = Service(True, env={"AGENTSCOPE_SERVICE_FOLD_STATS": str(path), "AGENTSCOPE_SERVICE_DELAY_MS": "0"})
        try:
            session = service.new_session()
            service.say(session, f"long {n}")
            time.sleep(0.1)
            _, messages = service.wait(session, ("idle",))
        finally:
            service.stop()
        reply = [m for m in messages if m["role"] == "assistant"][-1]
        text = "".join(b["text"] for b in reply["content"] if b["type"] == "text")
        assert text == "".join(f"w{i} " for i in range(n))  # every delta stored
        counts[n] = json.loads(path.read_text())
    # the reply's events after its REPLY_START: a hint, the text block's start, its
    # deltas, its end, the model call's end, the reply's end
    assert counts[2000] == {"rust": 0, "reference": 2006, "switches": 0, "shared": 0, "write_backs": 0}
    big = counts[20000]
    assert (big["switches"], big["shared"], big["write_backs"], big["rust"] + big["reference"]) == (1, 0, 1, 20006)
    assert big["rust"] > 15000
