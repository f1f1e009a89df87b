"""`agentscope_message.agentscope.install()`: agentscope's own `Msg.append_event` on the
wheel, giving the reference's messages byte for byte (`model_dump_json()`), events and
ids alike, in one process."""

import copy
import importlib.metadata
import json
import logging
import pickle
import random
import sys

import pytest
from pydantic import BaseModel, TypeAdapter

import agentscope_message.agentscope as fold
from agentscope import event as E
from agentscope.message import AssistantMsg, Msg, TextBlock
from conftest import CONFORMANCE, RECORDINGS, ROOT

sys.path.insert(0, str(ROOT / "tests/differential"))
EVENT = TypeAdapter(E.AgentEvent)


@pytest.fixture
def installed():
    fold.install()
    yield fold
    fold.uninstall()


def reference_append(msg, event):
    """The reference's own append_event, whether or not the fold is installed."""
    return (fold._original or Msg.append_event)(msg, event)


def fold_events(events, append, reply_id, name, initial=None):
    """Folds `events` (pydantic) into a fresh message; returns (model_dump_json, the event
    number that raised and the exception's type, or None)."""
    msg = Msg.model_validate_json(initial) if initial else AssistantMsg(id=reply_id, name=name, content=[])
    for i, event in enumerate(events):
        try:
            append(msg, event)
        except Exception as e:  # the reference raised: the sequence ends here
            return msg.model_dump_json(), (i + 1, type(e).__name__)
    return msg.model_dump_json(), None


def both(make_events, counting_factories, reply_id="r", name="bot", initial=None):
    """The reference's fold and the installed one, each over its own event objects (the
    reference keeps some of an event's objects in the message, e.g. an external
    execution's result blocks, and later events change them)."""
    return same_with_and_without(
        counting_factories, lambda append: fold_events(make_events(), append, reply_id, name, initial)
    )


def test_refuses_an_untested_agentscope(monkeypatch):
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "2.0.12")
    with pytest.raises(RuntimeError, match="2.0.12"):
        fold.install()
    assert not fold.installed()
    fold.install(force=True)
    assert fold.installed()
    fold.uninstall()
    assert Msg.append_event is fold._original or not fold.installed()


@pytest.mark.parametrize("path", CONFORMANCE, ids=[p.stem for p in CONFORMANCE])
def test_conformance_case_byte_for_byte(path, counting_factories):
    case = json.loads(path.read_text(encoding="utf-8"))
    if case.get("kind") in ("construct", "event"):
        pytest.skip("not a fold")
    try:
        [EVENT.validate_python(e) for e in case["events"]]
    except Exception:
        pytest.skip("agentscope cannot build one of its events")
    start = case["events"][0]
    initial = json.dumps(case["initial"]) if case["initial"] is not None else None
    want, got = both(lambda: [EVENT.validate_python(e) for e in case["events"]], counting_factories, start.get("reply_id"), start.get("name"), initial)
    assert got == want


@pytest.mark.parametrize("directory", RECORDINGS, ids=[d.name for d in RECORDINGS])
def test_recording_byte_for_byte(directory, counting_factories):
    lines = (directory / "events.jsonl").read_text(encoding="utf-8").splitlines()
    raw = [json.loads(line) for line in lines if line.strip()]
    # each reply of the recording folded as the service folds it: from its REPLY_START
    replies = {}
    for e in raw:
        if e["type"] == "REPLY_START":
            replies.setdefault(e["reply_id"], (e["name"], []))
        if e.get("reply_id") in replies:
            replies[e["reply_id"]][1].append(e)
    assert replies
    for reply_id, (name, evs) in replies.items():
        want, got = both(lambda: [EVENT.validate_python(e) for e in evs], counting_factories, reply_id, name)
        assert got == want, reply_id


def test_random_sequences_byte_for_byte(counting_factories):
    """300 sequences of differential.py's generator (all 28 types, unknown ids, unicode,
    base64 split at odd places): the same bytes, or the same exception at the same event."""
    import differential

    rng = random.Random(7)
    compared = 0
    for k in range(300):
        raw = differential.sequence(rng, k)
        try:
            [EVENT.validate_python(e) for e in raw]
        except Exception:
            continue
        want, got = both(lambda: [EVENT.validate_python(e) for e in raw], counting_factories, raw[0]["reply_id"], raw[0]["name"])
        assert got == want, k
        compared += 1
    assert compared >= 250


def long_reply(n):
    return [E.TextBlockStartEvent(reply_id="r", block_id="b")] + [
        E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta="abcdefgh") for _ in range(n)
    ] + [E.ReplyEndEvent(session_id="s", reply_id="r")]


def test_a_message_is_written_back_when_read(installed):
    msg = AssistantMsg(id="r", name="bot", content=[])
    events = long_reply(3)
    msg.append_event(events[0])
    block = msg.content[0]  # read: written back, a plain Msg again
    assert type(msg) is Msg
    for e in events[1:3]:
        msg.append_event(e)
    assert type(msg) is not Msg  # folding
    # the block taken out before shows the text of when it was taken until the message is
    # read again; then it is the same object, with the text the message has
    assert block.text == ""
    assert msg.content[0] is block
    assert block.text == "abcdefghabcdefgh"
    assert type(msg) is Msg
    msg.append_event(events[3])
    msg.append_event(events[4])
    assert msg.finished_reason is not None and msg.content[0].text == "abcdefgh" * 3


def test_a_folding_message_behaves_as_a_msg(installed, counting_factories):
    def made():
        counting_factories()
        msg = AssistantMsg(id="r", name="bot", content=[])
        for e in long_reply(5):
            msg.append_event(e)
        return msg

    plain = made()
    assert type(plain).__name__ == "Msg" and type(plain) is not Msg  # folding, named as the class
    want = plain.model_dump_json()  # (plain is written back here)
    assert isinstance(made(), Msg)
    assert made() == plain and plain == made()
    assert copy.deepcopy(made()).model_dump_json() == want
    assert copy.copy(made()).model_dump_json() == want
    assert pickle.loads(pickle.dumps(made())).model_dump_json() == want
    assert repr(made()) == repr(plain)

    class Box(BaseModel):
        msgs: list[Msg]

    assert Box(msgs=[made()]).model_dump_json() == Box(msgs=[plain]).model_dump_json()
    m = made()
    m.name = "renamed"  # a write: written back first, then set
    assert json.loads(m.model_dump_json())["content"][0]["text"] == "abcdefgh" * 5
    assert m.name == "renamed"


def test_a_message_read_at_every_event_goes_back_to_the_reference(installed):
    msg = AssistantMsg(id="r", name="bot", content=[])
    for e in long_reply(20)[:-1]:
        msg.append_event(e)
        _ = msg.content  # a live card re-rendered at every event
    assert fold._folds[id(msg)].reads == fold.MAX_READS + 1
    assert type(msg) is Msg and msg.content[0].text == "abcdefgh" * 20


def test_what_rust_refuses_the_reference_decides(installed, caplog):
    msg = AssistantMsg(id="r", name="bot", content=[])
    msg.append_event(E.DataBlockStartEvent(reply_id="r", block_id="d", media_type="image/png"))
    msg.append_event(E.DataBlockDeltaEvent(reply_id="r", block_id="d", media_type="image/png", url="https://example.com/a.png"))
    # base64 after a URL: the reference's own AttributeError (divergence 1), as before
    with pytest.raises(AttributeError):
        msg.append_event(E.DataBlockDeltaEvent(reply_id="r", block_id="d", media_type="image/png", data="AAAA"))
    # skips are logged as the reference logs them, in its words
    skipped = [
        E.TextBlockDeltaEvent(reply_id="other", block_id="x", delta="y"),
        E.TextBlockDeltaEvent(reply_id="r", block_id="nope", delta="y"),
        E.DataBlockEndEvent(reply_id="r", block_id="nope"),
        E.ToolResultEndEvent(reply_id="r", tool_call_id="nope", state="success"),
    ]
    logs = []
    for append in (reference_append, lambda m, e: m.append_event(e)):
        caplog.clear()
        target = AssistantMsg(id="r", name="bot", content=[])
        with caplog.at_level(logging.WARNING, logger="as"):
            for e in skipped:
                append(target, e)
        logs.append([(r.levelname, r.getMessage()) for r in caplog.records])
    assert len(logs[0]) == 4 and logs[1] == logs[0]


def test_a_subclass_keeps_the_reference(installed):
    class Mine(Msg):
        pass

    msg = Mine(id="r", name="bot", role="assistant", content=[])
    for e in long_reply(2):
        msg.append_event(e)
    assert type(msg) is Mine and msg.content[0].text == "abcdefgh" * 2


def test_ids_and_timestamps_come_from_agentscope(installed, counting_factories):
    counting_factories()
    msg = AssistantMsg(id="r", name="bot", content=[])  # ts-0
    # the event: id-0, ts-1; its block: ts-2
    msg.append_event(E.ToolResultStartEvent(reply_id="r", tool_call_id="c", tool_call_name="f"))
    # the event: id-1, ts-3; the text block the reducer makes: id-2, ts-4
    msg.append_event(E.ToolResultTextDeltaEvent(reply_id="r", tool_call_id="c", delta="out"))
    # the event: id-3, ts-5; the hint: ts-6 (its finished_at too), ts-7 made and dropped
    msg.append_event(E.HintBlockEvent(reply_id="r", block_id="h", hint="x"))
    out = msg.content[0].output[0]
    assert isinstance(out, TextBlock) and (out.id, out.created_at) == ("id-2", "ts-4")
    assert msg.content[0].created_at == "ts-2"
    assert (msg.content[1].created_at, msg.content[1].finished_at) == ("ts-6", "ts-6")
    assert E.TextBlockStartEvent(reply_id="r", block_id="b").id == "id-4"


def same_with_and_without(counting_factories, scenario):
    """scenario(append) -> a value, run with the reference's method and the installed one
    (each with counting factories); returns both values (or the exception types)."""
    out = []
    for installed in (False, True):
        counting_factories()
        if installed:
            fold.install()
        try:
            append = (lambda m, e: m.append_event(e)) if installed else reference_append
            out.append(scenario(append))
        except Exception as e:  # the same exception type on both sides
            out.append(("raised", type(e).__name__))
        finally:
            fold.uninstall()
    return out


def test_an_external_result_is_the_reference_s_own(counting_factories):
    """The reference puts the event's result blocks themselves into the message, stamps
    them, and later events of those calls change them: the event published after it (the
    service publishes it after applying it) and the agent's context (which holds the same
    objects) see that."""
    from agentscope.message import ToolResultBlock

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, E.TextBlockStartEvent(reply_id="r", block_id="t"))
        append(msg, E.ToolCallStartEvent(reply_id="r", tool_call_id="c", tool_call_name="f"))
        event = E.ExternalExecutionResultEvent(reply_id="r", execution_results=[ToolResultBlock(id="c", name="f", output="42")])
        append(msg, event)
        published = json.dumps(event.model_dump(mode="json"))
        context = event.execution_results[0]  # the agent keeps this object
        append(msg, E.ToolResultTextDeltaEvent(reply_id="r", tool_call_id="c", delta="!"))
        append(msg, E.ToolResultEndEvent(reply_id="r", tool_call_id="c", state="success"))
        for _ in range(3):
            append(msg, E.TextBlockDeltaEvent(reply_id="r", block_id="t", delta="ok"))
        return published, context.model_dump_json(), msg.model_dump_json()

    want, got = same_with_and_without(counting_factories, scenario)
    assert '"finished_at": "ts-' in want[0] and '"state":"success"' in want[1]
    assert got == want


def test_odd_values_in_events(counting_factories):
    """Values the library does not write itself (bytes, dates, a cycle, nesting past 128
    levels) go through pydantic or the reference: never a crash, the reference's result."""
    import datetime

    deep = []
    for _ in range(5000):
        deep = [deep]
    cyclic = []
    cyclic.append(cyclic)
    for value in (b"hi", datetime.date(2026, 1, 2), (1, 2), deep, cyclic):

        def scenario(append):
            msg = AssistantMsg(id="r", name="bot", content=[])
            append(msg, E.ToolResultStartEvent(reply_id="r", tool_call_id="c", tool_call_name="f"))
            append(msg, E.ToolResultEndEvent(reply_id="r", tool_call_id="c", state="success", metadata={"v": value}))
            append(msg, E.ToolResultTextDeltaEvent(reply_id="r", tool_call_id="c", delta="after"))
            return msg.model_dump_json()

        want, got = same_with_and_without(counting_factories, scenario)
        assert got == want, repr(value)[:40]


def test_not_an_agentscope_event_is_the_reference_s_error(installed):
    msg = AssistantMsg(id="r", name="bot", content=[])
    for event in ({"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "b"}, '{"type": "TEXT_BLOCK_START"}'):
        with pytest.raises(AttributeError):
            msg.append_event(event)
    assert msg.content == []


def test_a_thread_reading_while_another_folds(counting_factories):
    import threading

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, E.TextBlockStartEvent(reply_id="r", block_id="b"))
        done = threading.Event()

        def read():
            while not done.is_set():
                _ = msg.id

        reader = threading.Thread(target=read)
        reader.start()
        try:
            for _ in range(5000):
                append(msg, E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta="x"))
        finally:
            done.set()
            reader.join()
        return msg.model_dump_json()

    want, got = same_with_and_without(counting_factories, scenario)
    assert '"text":"' + "x" * 5000 + '"' in want
    assert got == want


def test_a_read_from_agentscope_s_own_factory_loses_nothing(counting_factories):
    import agentscope

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        counter = iter(range(100))
        # an id factory that reads the message being folded (a log line, say)
        agentscope.set_id_factory(lambda: f"id-{next(counter)}-{len(msg.content)}")
        append(msg, E.TextBlockStartEvent(reply_id="r", block_id="b"))
        append(msg, E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta="hello"))
        append(msg, E.ToolResultStartEvent(reply_id="r", tool_call_id="c", tool_call_name="f"))
        append(msg, E.ToolResultTextDeltaEvent(reply_id="r", tool_call_id="c", delta="out"))
        append(msg, E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta=" world"))
        return json.loads(msg.model_dump_json())["content"][0]["text"], len(msg.content)

    want, got = same_with_and_without(counting_factories, scenario)
    assert want == ("hello world", 2)
    assert got == want


def test_what_the_message_holds_stays_the_same_objects(installed, counting_factories):
    """usage, the blocks (an application's block class too) and untouched values keep
    their objects across a write-back, as the reference's in-place changes keep them."""
    import datetime

    class MyText(TextBlock):
        note: str = "mine"

    counting_factories()
    when = datetime.datetime(2026, 1, 2, 3, 4, 5)
    msg = AssistantMsg(id="r", name="bot", content=[MyText(id="b", text="a")], metadata={})
    msg.append_event(E.ModelCallEndEvent(reply_id="r", input_tokens=1, output_tokens=1))
    usage = msg.usage
    msg.append_event(E.ToolResultStartEvent(reply_id="r", tool_call_id="c", tool_call_name="f"))
    msg.append_event(E.ToolResultEndEvent(reply_id="r", tool_call_id="c", state="success", metadata={"when": when}))
    block, result = msg.content
    msg.append_event(E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta="b"))
    msg.append_event(E.ModelCallEndEvent(reply_id="r", input_tokens=10, output_tokens=1))
    assert msg.usage is usage and usage.input_tokens == 11
    assert msg.content[0] is block and type(block) is MyText and block.text == "ab" and block.note == "mine"
    assert msg.content[1] is result and result.metadata["when"] is when
