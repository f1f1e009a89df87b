"""`agentscope_message.agentscope.install()`: agentscope's own `Msg.append_event` on the
wheel, giving the reference's messages byte for byte (`model_dump_json()`), events and
ids alike, in one process."""

import contextlib
import copy
import importlib.metadata
import json
import logging
import pickle
import random
import sys
import threading
import time

import pytest
from pydantic import BaseModel, TypeAdapter

import agentscope_message.agentscope as fold
from agentscope import event as E
from agentscope.message import AssistantMsg, Msg, TextBlock
from conftest import CONFORMANCE, RECORDINGS, ROOT

sys.path.insert(0, str(ROOT / "tests/differential"))
EVENT = TypeAdapter(E.AgentEvent)


# how install() chooses between the reference's path and Rust (module constants):
# "default" as shipped (these tests' messages are short: they stay on the reference's
# path); "eager" every message in Rust from its first event (the fold's mechanics on every
# event type); "switching" tracked from the first delta and taken to Rust after about
# three (the switch in the middle of a reply, the episodes, the way back after a read);
# "at a delta" taken to Rust at its first delta (whatever delta that is)
MODES = {
    "default": {},
    "eager": {"_EAGER": True},
    "switching": {"_TRACK_CHARS": 0, "_TRACK_BLOCKS": 0, "_C_EVENT": 1500.0, "_C_SWITCH": 3000.0, "_C_BYTE": 0.0},
    "at a delta": {"_TRACK_CHARS": 0, "_TRACK_BLOCKS": 0, "_C_EVENT": 1500.0, "_C_SWITCH": 0.0, "_C_BYTE": 0.0},
}


@contextlib.contextmanager
def mode(name):
    saved = {k: getattr(fold, k) for k in MODES[name]}
    for k, v in MODES[name].items():
        setattr(fold, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(fold, k, v)


@pytest.fixture
def installed():
    """install() with every message in Rust from its first event (the fold's mechanics)."""
    fold.install()
    with mode("eager"):
        yield fold
    fold.uninstall()


@pytest.fixture
def default_install():
    """install() as shipped."""
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


def both(make_events, counting_factories, reply_id="r", name="bot", initial=None, modes=tuple(MODES)):
    """The reference's fold and the installed one, each over its own event objects (the
    reference keeps some of an event's objects in the message, e.g. an external
    execution's result blocks, and later events change them)."""
    return same_with_and_without(
        counting_factories, lambda append: fold_events(make_events(), append, reply_id, name, initial), modes
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


def test_generated_sequences_three_ways(counting_factories):
    """2,000 fresh sequences of differential.py's generator (seeds 60000-61999, in one
    process): agentscope's own append_event, the same calls with install(), and the
    wheel's Msg fed the same events as dicts. install() gives the same bytes or the same
    exception at the same event; the wheel's Msg the same JSON values (its floats are in
    Python's repr notation, docs/python.md) or a MsgError at that event."""
    import differential

    import agentscope_message
    from agentscope_message import _native

    compared = refused = 0
    for seed in range(60000, 62000):
        raw = differential.sequence(random.Random(seed), seed)
        try:
            [EVENT.validate_python(e) for e in raw]
        except Exception:
            continue
        # (the reference's path and Rust from the first event: the switch between them
        # has the 300 sequences above)
        want, got = both(lambda: [EVENT.validate_python(e) for e in raw], counting_factories, raw[0]["reply_id"], raw[0]["name"], modes=("default", "eager"))
        assert got == want, seed
        # the wheel's Msg on agentscope's (counting) factories, as install() sets them
        counting_factories()
        fields = TextBlock.model_fields
        _native._set_factories(fields["id"].default_factory, fields["created_at"].default_factory)
        try:
            # the events as agentscope builds them (the blocks a hint holds get their ids
            # there), in the same order of factory calls as the reference's run
            events = [json.loads(EVENT.validate_python(e).model_dump_json()) for e in raw]
            wheel = agentscope_message.AssistantMsg(raw[0]["name"], [], id=raw[0]["reply_id"])
            wheel_created_at = json.loads(wheel.to_json())["created_at"]
            stop = None
            for i, e in enumerate(events):
                try:
                    wheel.append_event(e)
                except agentscope_message.MsgError:
                    stop = i + 1
                    break
        finally:
            _native._set_factories(None, None)
        reference_json, reference_error = want
        assert (stop is None) == (reference_error is None), seed
        if stop is None:
            mine, theirs = json.loads(wheel.to_json()), json.loads(reference_json)
            # (the message's own created_at: the factory's first call on each side)
            assert mine.pop("created_at") == wheel_created_at and theirs.pop("created_at")
            assert mine == theirs, seed
        else:
            assert stop == reference_error[0], seed
            refused += 1
        compared += 1
    assert compared >= 1900 and refused > 0


def long_reply(n):
    return [E.TextBlockStartEvent(reply_id="r", block_id="b")] + [
        E.TextBlockDeltaEvent(reply_id="r", block_id="b", delta="abcdefgh") for _ in range(n)
    ] + [E.ReplyEndEvent(session_id="s", reply_id="r")]


def test_a_message_is_written_back_when_read(installed):
    msg = AssistantMsg(id="r", name="bot", content=[])
    events = long_reply(3)
    msg.append_event(events[0])
    assert msg.content[0].text == ""  # read: written back, a plain Msg again
    assert type(msg) is Msg
    for e in events[1:3]:
        msg.append_event(e)
    assert type(msg) is not Msg  # folding
    block = msg.content[0]
    assert block.text == "abcdefghabcdefgh" and type(msg) is Msg
    # a block the application holds is changed in place by each event, as the
    # reference's: the message keeps the reference's fold while it is held
    msg.append_event(events[3])
    assert type(msg) is Msg and block.text == "abcdefgh" * 3
    del block
    msg.append_event(events[4])
    assert type(msg) is not Msg  # folding again
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


def stats():
    return dict(fold._stats)


def counted(before):
    return {k: v - before[k] for k, v in fold._stats.items()}


def folded_reply(n, append, read_every=0, initial=""):
    """A reply of one text block of n deltas (after `initial`), read (`model_dump_json`)
    every `read_every` deltas; its JSON and the JSON of each read."""
    msg = AssistantMsg(id="r", name="bot", content=[TextBlock(id="b", text=initial)] if initial else [])
    reads = []
    events = long_reply(n)
    for i, e in enumerate(events if not initial else events[1:-1]):
        append(msg, e)
        if read_every and i % read_every == 0:
            reads.append(msg.model_dump_json())
    return msg.model_dump_json(), reads


def test_a_short_reply_stays_on_the_reference_s_path(default_install, counting_factories):
    counting_factories()
    want = folded_reply(20, reference_append)
    counting_factories()
    before = stats()
    assert folded_reply(20, lambda m, e: m.append_event(e)) == want
    assert counted(before) == {"rust": 0, "reference": 22, "switches": 0, "shared": 0, "write_backs": 0}


def test_a_long_reply_goes_to_rust_once(default_install, counting_factories):
    counting_factories()
    want = folded_reply(10_000, reference_append)
    counting_factories()
    before = stats()
    assert folded_reply(10_000, lambda m, e: m.append_event(e)) == want
    n = counted(before)
    assert (n["switches"], n["write_backs"], n["rust"] + n["reference"]) == (1, 1, 10_002)
    assert n["rust"] > 5000  # most of it: taken in once the text's copies cost enough


def test_a_big_message_read_often_stays_on_the_reference_s_path(default_install, counting_factories):
    """A 1 MB text read every 10 deltas (a live card re-rendered): the round trip through
    Rust would cost more than the reference's copies between two reads."""
    counting_factories()
    want = folded_reply(300, reference_append, read_every=10, initial="x" * (1 << 20))
    counting_factories()
    before = stats()
    assert folded_reply(300, lambda m, e: m.append_event(e), read_every=10, initial="x" * (1 << 20)) == want
    n = counted(before)
    assert (n["switches"], n["rust"], n["reference"]) == (0, 0, 300)


def test_a_big_message_read_now_and_then_goes_to_rust_each_episode(default_install, counting_factories):
    """Read at the first delta, then every 1,000: the second episode goes to Rust once
    the reference's copies have cost 1.5 round trips, each later one at its first delta
    (the previous one was long enough to pay for the round trip)."""
    counting_factories()
    want = folded_reply(5000, reference_append, read_every=1000, initial="x" * (1 << 20))
    counting_factories()
    before = stats()
    assert folded_reply(5000, lambda m, e: m.append_event(e), read_every=1000, initial="x" * (1 << 20)) == want
    n = counted(before)
    assert n["switches"] == n["write_backs"] == 5
    assert 1 < n["reference"] < 200


def test_a_message_read_at_every_event_stays_on_the_reference_s_path(default_install):
    """A message read after each event (a live card re-rendered at every event): no episode
    pays for the round trip, even tracked from its first delta."""
    with mode("switching"):
        msg = AssistantMsg(id="r", name="bot", content=[])
        before = stats()
        for e in long_reply(20)[:-1]:
            msg.append_event(e)
            assert len(msg.content) == 1  # read (nothing kept)
        assert counted(before)["switches"] == 0
        assert type(msg) is Msg and msg.content[0].text == "abcdefgh" * 20


def test_the_switching_mode_takes_the_random_sequences_to_rust(counting_factories):
    """(the tests' "switching" mode does exercise the switch: most sequences go to Rust)"""
    import differential

    rng = random.Random(7)
    fold.install()
    before = stats()
    try:
        with mode("switching"):
            for k in range(100):
                raw = differential.sequence(rng, k)
                try:
                    events = [EVENT.validate_python(e) for e in raw]
                except Exception:
                    continue
                fold_events(events[1:], lambda m, e: m.append_event(e), raw[0]["reply_id"], raw[0]["name"])
    finally:
        fold.uninstall()
    n = counted(before)
    assert n["switches"] > 30 and n["rust"] > 300 and n["reference"] > 300


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


def same_with_and_without(counting_factories, scenario, modes=tuple(MODES)):
    """scenario(append) -> a value, run with the reference's method and with install() in
    each of `modes` (all of MODES by default; each with counting factories); returns [the
    reference's value, the first installed one that differs from it, or the last] (or the
    exception types)."""
    out = []
    for installed in (None, *modes):
        counting_factories()
        if installed:
            fold.install()
        try:
            append = (lambda m, e: m.append_event(e)) if installed else reference_append
            with mode(installed or "default"):
                out.append(scenario(append))
        except Exception as e:  # the same exception type on both sides
            out.append(("raised", type(e).__name__))
        finally:
            fold.uninstall()
    return [out[0], next((got for got in out[1:] if got != out[0]), out[-1])]


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


# ---------------------------------------------------------------- issue 37: nothing lost

# a host the Rust URL parser knows (Unicode 16's Kirat Rai) and pydantic's does not
UNICODE_16_URL = "https://\U00016d43x.example/a.png"


def ev(kind, **fields):
    """An agentscope event with a fixed id and timestamp (the same in both runs)."""
    fields.setdefault("id", f"e-{kind}-{len(fields)}")
    fields.setdefault("created_at", "2026-01-01T00:00:00")
    return EVENT.validate_python({"type": kind, "reply_id": "r", **fields})


@pytest.mark.parametrize("at_first", [True, False], ids=["its-first-delta", "after-a-delta"])
@pytest.mark.parametrize("kind", ["DATA_BLOCK_DELTA", "TOOL_RESULT_DATA_DELTA"])
def test_a_url_the_reference_refuses_is_refused_at_its_event(kind, at_first, counting_factories):
    """The reference raises ValidationError at the event whose URL pydantic refuses and
    keeps what it had; the fold raises there too (before: it took the event, and the next
    read raised, the read after showed no content at all). Also when that event is the
    message's first delta (the one that may take it to Rust)."""

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, ev("TEXT_BLOCK_START", block_id="t"))
        if not at_first:
            append(msg, ev("TEXT_BLOCK_DELTA", block_id="t", delta="kept"))
        if kind == "DATA_BLOCK_DELTA":
            append(msg, ev("DATA_BLOCK_START", block_id="d", media_type="image/png"))
            bad = ev(kind, block_id="d", media_type="image/png", url=UNICODE_16_URL)
        else:
            append(msg, ev("TOOL_RESULT_START", tool_call_id="c", tool_call_name="f"))
            bad = ev(kind, tool_call_id="c", block_id="d", media_type="image/png", url=UNICODE_16_URL)
        try:
            append(msg, bad)
            raised = None
        except Exception as e:
            raised = type(e).__name__
        first, second = msg.model_dump_json(), msg.model_dump_json()
        return raised, first, second

    want, got = same_with_and_without(counting_factories, scenario)
    assert want[0] == "ValidationError" and ('"text":"kept"' in want[1] or at_first) and want[1] == want[2]
    assert got == want


def test_a_url_pydantic_writes_otherwise_is_stored_as_the_reference_stores_it(counting_factories):
    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, ev("DATA_BLOCK_START", block_id="d", media_type="image/png"))
        append(msg, ev("DATA_BLOCK_DELTA", block_id="d", media_type="image/png", url="HTTPS://Example.COM"))
        append(msg, ev("TEXT_BLOCK_START", block_id="t"))
        append(msg, ev("TEXT_BLOCK_DELTA", block_id="t", delta="after"))
        return msg.model_dump_json()

    want, got = same_with_and_without(counting_factories, scenario)
    assert '"url":"https://example.com/"' in want
    assert got == want


def test_a_value_that_cannot_be_written_back_is_kept(installed, counting_factories, monkeypatch):
    """If pydantic ever refused what Rust folded, the write-back keeps every block (built
    without validation) rather than dropping the content."""
    counting_factories()
    msg = AssistantMsg(id="r", name="bot", content=[])
    msg.append_event(ev("TEXT_BLOCK_START", block_id="t"))
    msg.append_event(ev("TEXT_BLOCK_DELTA", block_id="t", delta="folded"))
    adapter = fold._adapter(Msg, "content")

    class Refusing:
        def validate_python(self, value):
            return adapter.validate_python([{"type": "nonsense"}])  # raises ValidationError

    monkeypatch.setitem(fold._adapters, "content", Refusing())
    with pytest.warns(RuntimeWarning, match="content"):
        content = msg.content
    assert [(type(b).__name__, b.id, b.text) for b in content] == [("TextBlock", "t", "folded")]
    monkeypatch.undo()
    assert json.loads(msg.model_dump_json())["content"][0]["text"] == "folded"


def shared_scenario(copier, order):
    """A message with a text block; a copy made by `copier` (sharing what it shares);
    events folded into both; read in `order`."""

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, ev("TEXT_BLOCK_START", block_id="b"))
        append(msg, ev("TEXT_BLOCK_DELTA", block_id="b", delta="ab"))
        other = copier(msg)
        append(other, ev("TEXT_BLOCK_DELTA", block_id="b", delta="CC", id="c1"))
        append(msg, ev("TEXT_BLOCK_DELTA", block_id="b", delta="MM", id="m1"))
        append(other, ev("MODEL_CALL_END", input_tokens=1, output_tokens=2, id="u1"))
        append(msg, ev("MODEL_CALL_END", input_tokens=3, output_tokens=4, id="u2"))
        first, second = (msg, other) if order == "msg" else (other, msg)
        a = first.model_dump_json()
        append(second, ev("TEXT_BLOCK_DELTA", block_id="b", delta="ZZ", id="z1"))
        b = second.model_dump_json()
        return a, b, msg.model_dump_json(), other.model_dump_json()

    return scenario


COPIERS = {
    "copy.copy": copy.copy,
    "model_copy": lambda m: m.model_copy(),
    "copy.deepcopy": copy.deepcopy,
    "pickle": lambda m: pickle.loads(pickle.dumps(m)),
    "model_copy(deep=True)": lambda m: m.model_copy(deep=True),
    "a new Msg holding the same blocks": lambda m: AssistantMsg(id="r", name="bot", content=m.content),
}


@pytest.mark.parametrize("order", ["msg", "other"])
@pytest.mark.parametrize("copier", list(COPIERS), ids=list(COPIERS))
def test_copies_keep_their_events(copier, order, counting_factories):
    """A shallow copy shares its blocks with the message: the reference folds both copies'
    events into the same objects (abCCMM in both); so does the fold (before: abCC, the
    message's own delta lost). Deep copies and pickles are independent in both."""
    want, got = same_with_and_without(counting_factories, shared_scenario(COPIERS[copier], order))
    assert got == want
    if copier in ("copy.copy", "model_copy", "a new Msg holding the same blocks"):
        assert '"text":"abCCMMZZ"' in want[2] and '"text":"abCCMMZZ"' in want[3]


def test_a_block_the_application_holds_sees_the_events(counting_factories):
    """An application holding a block (a UI's view of it) reads it without reading the
    message: the reference's in-place changes show there, and so do the fold's."""

    def scenario(append):
        msg = AssistantMsg(id="r", name="bot", content=[])
        append(msg, ev("TEXT_BLOCK_START", block_id="b"))
        append(msg, ev("TOOL_RESULT_START", tool_call_id="c", tool_call_name="f"))
        append(msg, ev("TOOL_RESULT_TEXT_DELTA", tool_call_id="c", delta="x", id="x1"))
        append(msg, ev("MODEL_CALL_END", input_tokens=1, output_tokens=1, id="u1"))
        text, result = msg.content
        output, usage = result.output, msg.usage
        seen = []
        for i in range(3):
            append(msg, ev("TEXT_BLOCK_DELTA", block_id="b", delta=str(i), id=f"t{i}"))
            append(msg, ev("TOOL_RESULT_TEXT_DELTA", tool_call_id="c", delta=str(i), id=f"r{i}"))
            append(msg, ev("MODEL_CALL_END", input_tokens=1, output_tokens=1, id=f"u{i + 2}"))
            seen.append((text.text, output[-1].text if isinstance(output, list) else output, usage.input_tokens))
        return seen, msg.model_dump_json()

    want, got = same_with_and_without(counting_factories, scenario)
    assert want[0][-1][0] == "012"
    assert got == want


def test_a_hint_s_source_string_held_elsewhere_is_no_shared_object(installed):
    """agentscope's agent gives every reply's hint block the same `source` string (its
    runtime-state injection's label, held by its config and its events): a string cannot
    change, so the message still goes to Rust after a read (before: kept with the
    reference for the rest of the reply, in the live service every reply)."""
    from agentscope.message import HintBlock

    label = '{"label": "System", "sublabel": "Runtime State"}'
    held = [label] * 3  # held elsewhere
    # the hint block as the reference makes it: HintBlock(source=event.source, ...)
    msg = AssistantMsg(id="r", name="bot", content=[HintBlock(id="h", source=label, hint="state")])
    assert msg.content[0].source is label and len(held) == 3
    before = stats()
    msg.append_event(ev("TEXT_BLOCK_START", block_id="t"))
    assert type(msg) is not Msg and counted(before)["switches"] == 1


def test_a_folding_message_s_class_reads_as_agentscope_s(installed):
    msg = AssistantMsg(id="r", name="bot", content=[])
    msg.append_event(ev("TEXT_BLOCK_START", block_id="b"))
    cls = type(msg)
    assert cls is not Msg  # still folding
    assert (cls.__name__, cls.__qualname__, cls.__module__) == (Msg.__name__, Msg.__qualname__, Msg.__module__)
    assert pickle.loads(pickle.dumps(msg)).model_dump_json() == msg.model_dump_json()


@pytest.mark.parametrize("name", ["default", "switching", "at a delta"])
def test_a_thread_reading_a_message_another_folds_loses_no_delta(name):
    """One thread folds text deltas into an agentscope Msg, another only reads it
    (`model_dump_json`, `copy.copy`), with the interpreter switching threads every 10 µs:
    every delta is kept, in order, and no read is shorter than the one before. (Found by
    an attack: a read's write-back made the message plain before its Rust state was
    written, and the writer applied its delta to the text as it was before the episode,
    losing the episode's deltas.)"""
    N = 20000
    fold.install()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        with mode(name):
            msg = Msg(name="a", role="assistant", content=[], id="r1")
            msg.append_event(E.TextBlockStartEvent(reply_id="r1", block_id="t1"))
            msg.append_event(E.TextBlockDeltaEvent(reply_id="r1", block_id="t1", delta="p" * 20000))
            done, lengths, errors = threading.Event(), [], []

            def read():
                try:
                    while not done.is_set():
                        # (now and then: a message read at every event stays with the
                        # reference; between reads it goes to Rust, and a read writes
                        # its 100 KB back, the GIL released meanwhile)
                        time.sleep(0.0005)
                        lengths.append(len(json.loads(msg.model_dump_json())["content"][0]["text"]))
                        copy.copy(msg)
                except Exception as e:  # what the test is about: none
                    errors.append(repr(e))

            reader = threading.Thread(target=read)
            reader.start()
            try:
                for i in range(N):
                    msg.append_event(E.TextBlockDeltaEvent(reply_id="r1", block_id="t1", delta=f"<{i}>"))
                    # a read every 500 deltas at least (in Rust 20,000 deltas can be over
                    # before the reader has had 3 turns)
                    while len(lengths) < i // 500 and reader.is_alive():
                        time.sleep(0.0002)
            finally:
                done.set()
                reader.join()
            assert errors == []
            text = msg.content[0].text
            want = "p" * 20000 + "".join(f"<{i}>" for i in range(N))
            lost = [i for i in range(N) if f"<{i}>" not in text]
            assert text == want, f"{len(lost)} deltas lost, {lost[:3]} … {lost[-3:]}"
            assert len(lengths) >= 20 and lengths == sorted(lengths), lengths[:5]
    finally:
        sys.setswitchinterval(interval)
        fold.uninstall()
