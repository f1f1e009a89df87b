"""The wheel's Session: every real recording (JSON Lines and SSE) rebuilt equal to the
reference's messages, whole and in odd chunks; updates, options, checkpoints."""

import json
import random

import pytest

from agentscope_message import Msg, MsgError, Session, SessionError
from conftest import RECORDINGS, ROOT, null_recording_volatiles, recording_expected


def test_all_15_recordings_are_present():
    assert len(RECORDINGS) == 15


def stable(messages):
    return [null_recording_volatiles(m.to_dict()) for m in messages]


@pytest.mark.parametrize("directory", RECORDINGS, ids=[d.name for d in RECORDINGS])
@pytest.mark.parametrize("file", ["events.jsonl", "events.sse"])
def test_recording(directory, file):
    data = (directory / file).read_bytes()
    want = recording_expected(directory)
    whole = Session()
    updates = whole.feed(data) + whole.end()
    assert stable(whole.messages()) == want
    assert all(u.kind != "refused" for u in updates)
    ended = [u for u in updates if u.kind == "reply_ended"]
    assert ended and ended[-1].msg is not None
    # in random chunks, bytes and text alike
    rng = random.Random(directory.name)
    chunked, at = Session(), 0
    while at < len(data):
        n = rng.randint(1, 97)
        piece = data[at : at + n]
        chunked.feed(piece)
        at += n
    chunked.end()
    assert stable(chunked.messages()) == want
    # a checkpoint between two events in the middle, restored, goes on to the same end
    sep = b"\n\n" if file.endswith(".sse") else b"\n"
    cut = data.rindex(sep, 0, len(data) // 2) + len(sep)
    half = Session()
    half.feed(data[:cut])
    restored = Session.restore(half.checkpoint())
    restored.feed(data[cut:])
    restored.end()
    assert stable(restored.messages()) == want


SESSION_CASES = json.loads((ROOT / "tests/fixtures/session/cases.json").read_text("utf8"))["cases"]


def subset(actual, expected, at):
    """Where `expected` is not contained in `actual` (objects on the keys given, lists
    element-wise with the same length), or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{at}: got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{at}.{key}: missing"
            found = subset(actual[key], value, f"{at}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{at}: got {actual!r}, want {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            found = subset(a, e, f"{at}[{i}]")
            if found:
                return found
        return None
    return None if actual == expected else f"{at}: got {actual!r}, want {expected!r}"


@pytest.mark.parametrize("case", SESSION_CASES, ids=[c["name"] for c in SESSION_CASES])
def test_session_case(case):
    # (the file Rust, wasm and TS run; fed a byte at a time, so that a feed completes at most
    # one event and the session stops where the others raise: at the first refusal)
    session = Session(**case["options"])
    data = case["stream"].encode("utf8")
    error = None
    for at in range(len(data) + 1):
        updates = session.feed(data[at : at + 1]) if at < len(data) else session.end()
        refused = [u.error for u in updates if u.kind == "refused"]
        if refused:
            error = {"code": refused[0].code, "index": refused[0].index, "event_id": refused[0].event_id}
            break
    got = {"error": error, "messages": [m.to_dict() for m in session.messages()], "diagnostics": session.diagnostics()}
    assert subset(got, {"error": None, **case["expected"]}, case["name"]) is None


def test_updates_say_what_happened():
    s = Session()
    start = {"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "bot", "id": "e1"}
    custom = {"type": "CUSTOM", "name": "state_updated", "value": {"a": [1, 2]}, "id": "e2"}
    bad = "not json"
    end = {"type": "REPLY_END", "session_id": "s", "reply_id": "r", "id": "e3", "created_at": "T"}
    text = "".join(json.dumps(e) + "\n" for e in (start, custom)) + bad + "\n" + json.dumps(end) + "\n"
    updates = s.feed(text)
    assert [u.kind for u in updates] == ["reply_started", "custom", "refused", "reply_ended"]
    assert [u.index for u in updates] == [1, 2, 3, 4]
    assert (updates[1].name, updates[1].value) == ("state_updated", {"a": [1, 2]})
    assert isinstance(updates[2].error, SessionError)
    assert (updates[2].error.code, updates[2].error.index) == ("invalid_json", 3)
    assert updates[3].msg.finished_at == "T"
    assert updates[3].msg.finished_reason == "completed"
    assert s.is_ended("r") and len(s) == 1
    assert s.get("r").to_json() == s.messages()[0].to_json()
    assert s.get("missing") is None


def test_apply_refuses_atomically_and_dedups():
    s = Session(dedup=True, strict=True)
    assert s.apply({"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "b", "id": "1"}) == "applied"
    before = [m.to_json() for m in s.messages()]
    with pytest.raises(SessionError) as e:
        s.apply({"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "nope", "delta": "x", "id": "2"})
    assert (e.value.code, e.value.index, e.value.event_id) == ("unknown_block", 2, "2")
    assert [m.to_json() for m in s.messages()] == before
    assert s.apply({"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "b", "id": "3"}) == "applied"
    assert s.apply({"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "b", "id": "3"}) == "duplicate"


def test_options_are_checked():
    with pytest.raises(MsgError) as e:
        Session(nope=True)
    assert e.value.code == "invalid_argument"
    with pytest.raises(MsgError) as e:
        Session(strict="yes")
    assert e.value.code == "invalid_argument"
    with pytest.raises(MsgError) as e:
        Session(max_blocks=object())
    assert e.value.code == "invalid_argument"
    with pytest.raises(MsgError) as e:
        Session.restore("{}")
    assert e.value.code == "invalid_checkpoint"


def test_keep_events_and_insert():
    s = Session(keep_events=True)
    s.insert(Msg.from_json('{"name":"u","role":"user","content":[{"type":"text","text":"hi"}],"id":"u1"}'))
    s.feed('data: {"type":"REPLY_START","session_id":"s","reply_id":"r","name":"b"}\nid: 7\n\n')
    assert [(i, outcome) for i, outcome, _ in s.take_events()] == [(1, "applied")]
    assert s.take_events() == []
    assert s.last_event_id() == "7"
    assert [m.id for m in s.messages()] == ["u1", "r"]


def test_apply_of_text_goes_through_the_session_s_decoder():
    s = Session()
    with pytest.raises(SessionError) as e:
        s.apply("not json")
    assert (e.value.code, e.value.index) == ("invalid_json", 1)
    lenient = Session(skip_invalid=True)
    assert lenient.apply("not json") == "invalid_json"
    assert [d["code"] for d in lenient.diagnostics()] == ["invalid_json"]
    with pytest.raises(MsgError) as e:
        s.feed("data: \ud800\n\n")
    assert e.value.code == "invalid_stream"


def test_a_session_used_from_another_thread():
    import threading

    s = Session()
    data = (RECORDINGS[0] / "events.jsonl").read_bytes()
    worker = threading.Thread(target=lambda: s.feed(data))
    worker.start()
    worker.join()
    s.end()
    assert [null_recording_volatiles(m.to_dict()) for m in s.messages()] == recording_expected(RECORDINGS[0])
