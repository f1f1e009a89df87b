"""The wheel's Msg: every conformance case of the reference (agentscope 2.0.11), the
factories, the queries, errors and what a rejected event leaves."""

import copy
import json

import pytest

from agentscope_message import AssistantMsg, Msg, MsgError, SystemMsg, UserMsg
from conftest import CONFORMANCE, null_paths, our_code


def test_all_68_cases_are_present():
    assert len(CONFORMANCE) == 68


def open_msg(case):
    if case["initial"] is not None:
        return Msg.from_json(json.dumps(case["initial"]))
    start = case["events"][0]
    return AssistantMsg(start["name"], [], id=start["reply_id"])


def types(key):
    return None if key == "null" else [] if key == "[]" else key.split(",")


@pytest.mark.parametrize("path", CONFORMANCE, ids=[p.stem for p in CONFORMANCE])
def test_conformance(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    if "expected_error" not in case:
        msg = open_msg(case)
        for i, event in enumerate(case["events"]):
            # half as dicts, half as JSON text
            msg.append_event(event if i % 2 else json.dumps(event))
        actual, expected = msg.to_dict(), case["expected"]
        null_paths(actual, case["volatile_paths"])
        null_paths(expected, case["volatile_paths"])
        # same values, same key order
        assert json.dumps(actual) == json.dumps(expected)
        assert json.loads(msg.to_json()) == msg.to_dict()
        q = case["queries"]
        assert msg.get_text_content() == q["get_text_content"]
        assert msg.get_text_content(q["get_text_content_sep"]["separator"]) == q["get_text_content_sep"]["result"]
        for key, want in q["has_content_blocks"].items():
            assert msg.has_content_blocks(types(key)) == want, key
        for key, want in q["get_content_blocks_ids"].items():
            assert [b["id"] for b in msg.get_content_blocks(types(key))] == want, key
        return
    code = our_code(case["expected_error"])
    with pytest.raises(MsgError) as raised:
        if case["kind"] == "construct":
            Msg.from_json(json.dumps(case["initial"]))
        elif case["kind"] == "event":
            AssistantMsg("x", [], id=case["events"][0].get("reply_id", "x")).append_event(case["events"][0])
        else:
            msg = open_msg(case)
            for event in case["events"][:-1]:
                msg.append_event(event)
            before = msg.to_json()
            try:
                msg.append_event(case["events"][-1])
            finally:
                assert msg.to_json() == before, "a rejected event changes nothing"
    assert raised.value.code == code
    if "expected_error_message" in case:
        assert str(raised.value) == case["expected_error_message"]


def test_factories_and_role_rules():
    user = UserMsg("alice", "hi", id="u1", metadata={"k": [1, 2.5]})
    assert [(b["type"], b["text"]) for b in user.to_dict()["content"]] == [("text", "hi")]
    assert (user.id, user.name, user.role) == ("u1", "alice", "user")
    assert user.to_dict()["metadata"] == {"k": [1, 2.5]}
    with pytest.raises(MsgError) as e:
        UserMsg("alice", [{"type": "tool_call", "id": "c", "name": "f", "input": "{}"}])
    assert e.value.code == "role_violation"
    with pytest.raises(MsgError) as e:
        SystemMsg("s", [{"type": "thinking", "thinking": "x"}])
    assert e.value.code == "role_violation"
    # NaN and ±Infinity in free-form values: written null, as agentscope 2.0.11's factories
    # write them (model_dump_json) and as Msg.from_dict takes them (an outside attack found
    # the factories refusing them)
    nan, inf = float("nan"), float("inf")
    user = UserMsg("alice", "hi", metadata={"bad": nan, "deep": [inf, {"x": -inf}], "ok": 1.5})
    assert user.to_dict()["metadata"] == {"bad": None, "deep": [None, {"x": None}], "ok": 1.5}
    reply = AssistantMsg("bot", [], structured_output={"x": -inf})
    assert reply.to_dict()["structured_output"] == {"x": None}
    assert SystemMsg("s", "be brief", metadata={"t": (nan,)}).to_dict()["metadata"] == {"t": [None]}
    from agentscope.message import UserMsg as ReferenceUserMsg

    reference = json.loads(ReferenceUserMsg(name="alice", content="hi", metadata={"bad": nan}).model_dump_json())
    assert UserMsg("alice", "hi", metadata={"bad": nan}).to_dict()["metadata"] == reference["metadata"]
    # a value JSON cannot hold at all is still refused
    with pytest.raises(MsgError) as e:
        UserMsg("alice", "hi", metadata={"bad": object()})
    assert e.value.code == "invalid_argument"
    with pytest.raises(TypeError, match="finshed_at"):
        AssistantMsg("bot", [], finshed_at="T")


def test_a_reply_folded_from_every_input_kind():
    from agentscope.event import TextBlockDeltaEvent, TextBlockStartEvent

    reply = AssistantMsg("bot", [], id="r1")
    assert reply.append_event(TextBlockStartEvent(reply_id="r1", block_id="b1")) == "applied"
    assert reply.append_event('{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"b1","delta":"Hel"}') == "applied"
    assert reply.append_event(b'{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"b1","delta":"lo"}') == "applied"
    assert reply.append_event({"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b1", "delta": ", "}) == "applied"
    assert reply.append_event(TextBlockDeltaEvent(reply_id="r1", block_id="b1", delta="world")) == "applied"
    # a delta with metadata takes the general route, to the same result
    assert reply.append_event(TextBlockDeltaEvent(reply_id="r1", block_id="b1", delta="!", metadata={"a": 1})) == "applied"
    assert reply.get_text_content() == "Hello, world!"
    assert reply.append_event({"type": "TEXT_BLOCK_DELTA", "reply_id": "other", "block_id": "b1", "delta": "x"}) == "foreign_reply"
    assert reply.append_event({"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "nope", "delta": "x"}) == "unknown_block"
    assert reply.append_event({"type": "CUSTOM", "name": "n", "value": {}}) == "ignored_type"
    assert reply.get_text_content() == "Hello, world!"
    with pytest.raises(TypeError):
        reply.append_event(42)
    # a dict JSON has no form for: a typed error, the message unchanged
    before = reply.to_json()
    for bad in ({"type": "CUSTOM", "name": "n", "value": object()}, {"type": "CUSTOM", "name": "n", "value": {"k": 1j}}):
        with pytest.raises(MsgError) as e:
            reply.append_event(bad)
        assert e.value.code == "invalid_event"
    assert reply.to_json() == before
    with pytest.raises(MsgError) as e:
        reply.append_event(b"\xff")
    assert e.value.code == "invalid_json"


def test_to_agentscope_equals_the_reference_message():
    from agentscope.message import Msg as Reference

    reply = AssistantMsg("bot", [{"type": "text", "text": "hi", "id": "b"}], id="r1", metadata={"x": 1e16})
    theirs = reply.to_agentscope()
    assert isinstance(theirs, Reference)
    assert theirs.model_dump(mode="json") == reply.to_dict()
    assert Msg.from_dict(theirs) == reply
    assert Msg.from_dict(reply.to_dict()) == reply


def test_copies_are_independent():
    reply = AssistantMsg("bot", [], id="r1")
    reply.append_event({"type": "TEXT_BLOCK_START", "reply_id": "r1", "block_id": "b1"})
    other = copy.deepcopy(reply)
    other.append_event({"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b1", "delta": "x"})
    assert (reply.get_text_content(), other.get_text_content()) == ("", "x")
    assert reply != other


def test_limits():
    reply = AssistantMsg("bot", [], id="r1")
    reply.set_limits(max_delta_bytes=4)
    reply.append_event({"type": "TEXT_BLOCK_START", "reply_id": "r1", "block_id": "b1"})
    with pytest.raises(MsgError) as e:
        reply.append_event({"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b1", "delta": "12345"})
    assert e.value.code == "limit_exceeded"
    assert reply.get_text_content() == ""


def test_what_json_cannot_carry_is_a_typed_error():
    reply = AssistantMsg("bot", [], id="r1")
    reply.append_event({"type": "TEXT_BLOCK_START", "reply_id": "r1", "block_id": "b"})
    before = reply.to_json()
    cyclic = {"type": "CUSTOM", "name": "n"}
    cyclic["value"] = cyclic
    deep = []
    for _ in range(200_000):
        deep = [deep]
    cases = [
        (cyclic, "invalid_event"),
        ({"type": "CUSTOM", "name": "n", "value": {"d": deep}}, "invalid_event"),
        ('{"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b", "delta": "\ud800"}', "invalid_json"),
        (b'{"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b", "delta": "\xff"}', "invalid_json"),
    ]
    for event, code in cases:
        with pytest.raises(MsgError) as e:
            reply.append_event(event)
        assert e.value.code == code
    with pytest.raises(MsgError) as e:
        Msg.from_dict({"name": "x", "role": "user", "content": [], "metadata": {"d": deep}})
    assert e.value.code == "invalid_msg"
    with pytest.raises(MsgError) as e:
        Msg.from_json('{"name": "\ud800"}')
    assert e.value.code == "invalid_json"
    assert reply.to_json() == before


def test_a_lone_surrogate_in_a_delta_object_is_read_as_its_escape():
    """As JSON text with the escape would be (docs/differences.md #4): a high surrogate
    then its low half join; alone, U+FFFD."""
    from agentscope.event import TextBlockDeltaEvent

    for make in (lambda d: {"type": "TEXT_BLOCK_DELTA", "reply_id": "r1", "block_id": "b", "delta": d},
                 lambda d: TextBlockDeltaEvent(reply_id="r1", block_id="b", delta=d)):
        reply = AssistantMsg("bot", [], id="r1")
        reply.append_event({"type": "TEXT_BLOCK_START", "reply_id": "r1", "block_id": "b"})
        for piece in ("a\ud83c", "\udf0d b", "\udc00"):
            assert reply.append_event(make(piece)) == "applied"
        assert reply.get_text_content() == "a\U0001f30d b\ufffd"
    assert Msg.from_json(reply.to_json().encode()) == reply


def test_a_lone_surrogate_in_an_argument_is_a_msg_error():
    """(Python's str-to-UTF-8 conversion would raise UnicodeEncodeError.)"""
    from agentscope_message import Session

    for make in (UserMsg, AssistantMsg, SystemMsg):
        with pytest.raises(MsgError) as e:
            make("\ud800", "hi")
        assert e.value.code == "invalid_argument"
    # in the content or the options, keys included: the same code, a message naming it
    # (it was invalid_msg, "unexpected end of hex escape": the library's own JSON)
    for call in (
        lambda: AssistantMsg("a", "\ud800"),
        lambda: UserMsg("u", [{"type": "text", "text": "x\udfffy"}]),
        lambda: AssistantMsg("a", [], metadata={"\ud800": 1}),
        lambda: AssistantMsg("a", [], metadata={"k": ["\udc00"]}),
    ):
        with pytest.raises(MsgError) as e:
            call()
        assert e.value.code == "invalid_argument" and "lone surrogate" in str(e.value), str(e.value)
    msg = UserMsg("u", "a")
    with pytest.raises(MsgError) as e:
        msg.get_text_content("\udfff")
    assert e.value.code == "invalid_argument"
    assert msg.get_text_content() == "a" and msg.get_text_content(separator="-") == "a"
    session = Session()
    for call in (lambda: session.get("\ud800"), lambda: session.is_ended("\ud800"), lambda: Session.restore("\ud800")):
        with pytest.raises(MsgError) as e:
            call()
        assert e.value.code == "invalid_argument"


def test_a_value_nested_past_python_s_recursion_limit_is_a_msg_error():
    """(json.dumps raised RecursionError from the factories, where append_event, Session
    and Msg.from_dict refuse the same value with MsgError.)"""
    deep = 1
    for _ in range(5000):
        deep = {"a": deep}
    for call in (lambda: AssistantMsg("a", [], metadata=deep), lambda: UserMsg("u", [{"type": "text", "text": "x", "metadata": deep}])):
        with pytest.raises(MsgError) as e:
            call()
        assert e.value.code == "invalid_argument"


def test_a_dict_key_that_is_not_a_str_is_refused():
    """json.dumps writes the key 1 as "1": {1: "a", "1": "b"} would keep one of the two
    (the reference's pydantic models refuse the int key)."""
    mixed = {1: "a", "1": "b"}
    with pytest.raises(MsgError) as e:
        UserMsg("u", "hi", metadata=mixed)
    assert e.value.code == "invalid_argument" and "1" in str(e.value)
    with pytest.raises(MsgError) as e:
        UserMsg("u", [{"type": "text", "text": "x", "id": "t", "metadata": {"k": [{2: 0}]}}])
    assert e.value.code == "invalid_argument"
    with pytest.raises(MsgError):
        Msg.from_dict({"name": "x", "role": "user", "content": [], "metadata": mixed})
    reply = AssistantMsg("bot", [], id="r1")
    before = reply.to_json()
    with pytest.raises(MsgError) as e:
        reply.append_event({"type": "CUSTOM", "reply_id": "r1", "name": "n", "value": mixed})
    assert e.value.code == "invalid_event"
    assert reply.to_json() == before


def test_float_notation_as_documented():
    """to_json() writes floats as the reference's SSE frames do (Python's repr, json.dumps);
    pydantic's model_dump_json() writes those below 1e-4 otherwise (docs/python.md)."""
    from agentscope.message import AssistantMsg as Reference

    values = {"a": 1e-7, "b": 1e-5, "c": 0.0001, "d": 1.5e300, "e": 1e16, "f": 100000.0, "g": 5e-324}
    ours = AssistantMsg("bot", [], id="r", metadata=values).to_json()
    assert '"metadata":{"a":1e-07,"b":1e-05,"c":0.0001,"d":1.5e+300,"e":1e+16,"f":100000.0,"g":5e-324}' in ours
    theirs = Reference(name="bot", content=[], id="r", metadata=values).model_dump_json()
    assert '"metadata":{"a":1e-7,"b":0.00001,"c":0.0001,"d":1.5e+300,"e":1e+16,"f":100000.0,"g":5e-324}' in theirs
