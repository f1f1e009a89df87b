"""The wheel and other threads: long calls release the GIL, a message or session is
locked by each call (another thread's call waits, never sees half an event, never gets
"Already borrowed"), and a delta over its cap is refused before it is copied. No timings
here (docs/benchmarks.md has them): counts, values and memory."""

import json
import subprocess
import sys
import threading
import time

import pytest

from agentscope_message import AssistantMsg, Msg, MsgError, Session
from agentscope_message import _native

R = "reply"
T0 = "2026-01-01T00:00:00.000000"
LONG = 64 << 10  # the binding's threshold for releasing the GIL (python/src/lib.rs)


def delta_event(delta, block="b", kind="TEXT_BLOCK_DELTA", **extra):
    key = "tool_call_id" if kind in ("TOOL_CALL_DELTA", "TOOL_RESULT_TEXT_DELTA") else "block_id"
    return {"id": "e", "created_at": T0, "metadata": {}, "type": kind, "reply_id": R, key: block, "delta": delta, **extra}


def open_msg(*blocks):
    msg = AssistantMsg("bot", [], id=R)
    for block in blocks or ("b",):
        msg.append_event({"id": "s", "created_at": T0, "type": "TEXT_BLOCK_START", "reply_id": R, "block_id": block})
    return msg


def cap_words(payload, cap):
    """The library's own words for a delta over `max_delta_bytes` (src/limits.rs)."""
    return f"a delta would take {payload} bytes, past the cap of {cap} (max_delta_bytes); the event was not applied"


# ---------------------------------------------------------------- (a) the GIL released


class Ticker:
    """A thread counting in a loop with a 1 ms sleep: it counts only while the thread
    that calls the wheel does not hold the GIL (the fixture sets a switch interval of a
    minute, so the interpreter never takes the GIL from a thread: only a call that gives
    it up lets the ticker count, and a call holding it lets it count none)."""

    def __init__(self):
        self.ticks = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.is_set():
            self.ticks += 1
            time.sleep(0.001)

    def during(self, call):
        """(ticks counted while `call()` ran, what it returned)."""
        before = self.ticks
        out = call()
        return self.ticks - before, out


@pytest.fixture
def ticker():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(60)
    t = Ticker()
    t.thread.start()
    try:
        while t.ticks < 3:
            time.sleep(0.001)
        yield t
    finally:
        t.stop.set()
        t.thread.join()
        sys.setswitchinterval(interval)


BIG = 48 << 20


@pytest.fixture(scope="module")
def big_json():
    small = AssistantMsg("bot", [{"type": "text", "text": "TEXT", "id": "t"}], id=R).to_json()
    return small.replace('"TEXT"', '"' + "x" * BIG + '"')


def test_from_json_and_to_json_of_a_48_mib_message_let_other_threads_run(ticker, big_json):
    ticks, msg = ticker.during(lambda: Msg.from_json(big_json))
    assert ticks >= 3
    assert msg.get_text_content() == "x" * BIG
    ticks, text = ticker.during(msg.to_json)
    assert ticks >= 3
    assert text == big_json
    ticks, data = ticker.during(msg.to_dict)
    assert ticks >= 3
    assert data["content"][0]["text"] == "x" * BIG


@pytest.mark.parametrize("form", ["json", "bytes", "dict", "agentscope"])
def test_a_48_mib_delta_lets_other_threads_run(ticker, form):
    delta = "y" * BIG
    event = delta_event(delta)
    if form == "json":
        event = json.dumps(event)
    elif form == "bytes":
        event = json.dumps(event).encode()
    elif form == "agentscope":
        events = pytest.importorskip("agentscope.event")
        event = events.TextBlockDeltaEvent(reply_id=R, block_id="b", delta=delta)
    msg = open_msg()
    ticks, outcome = ticker.during(lambda: msg.append_event(event))
    assert ticks >= 3
    assert outcome == "applied"
    assert msg.get_text_content() == delta


def test_session_feed_of_a_16_mib_chunk_lets_other_threads_run(ticker):
    frames = [
        {"id": "e0", "created_at": T0, "metadata": {}, "type": "REPLY_START", "session_id": "s", "reply_id": R, "name": "bot", "role": "assistant"},
        {"id": "e1", "created_at": T0, "metadata": {}, "type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "b"},
        {**delta_event("z" * (BIG // 3)), "id": "e2"},
    ]
    chunk = "".join(f"data: {json.dumps(f)}\n\n" for f in frames).encode()
    session = Session()
    ticks, updates = ticker.during(lambda: session.feed(chunk))
    assert ticks >= 3
    assert [u.kind for u in updates] == ["reply_started", "applied", "applied"]
    ticks, checkpoint = ticker.during(session.checkpoint)
    assert ticks >= 3
    ticks, restored = ticker.during(lambda: Session.restore(checkpoint))
    assert ticks >= 3
    # (its copies are made without the GIL too, but a copy takes a few milliseconds: the
    # ticker may not tick thrice meanwhile)
    assert restored.messages()[0].get_text_content() == "z" * (BIG // 3)


# --------------------------------------------------------------- (b) one message, two threads


@pytest.fixture
def slow_timestamps():
    """A timestamp factory that gives the GIL up (a sleep) while the reducer calls it, as
    a factory in Python may: under the message's lock, another thread runs meanwhile."""

    def stamp():
        time.sleep(0.0002)
        return T0

    _native._set_factories(None, stamp)
    yield
    _native._set_factories(None, None)


def test_a_thread_appending_while_another_reads(slow_timestamps):
    blocks, want = [], []
    for b in range(30):
        pieces = [f"{b}.{i} " for i in range(20)] + ["L" * (LONG + b)] * (b % 7 == 0)
        blocks.append((f"b{b}", pieces))
        want.append("".join(pieces))
    want = "\n".join(want)
    msg = AssistantMsg("bot", [], id=R)
    done, reading, errors, reads = threading.Event(), threading.Event(), [], [0]

    def read():
        try:
            while not done.is_set():
                try:
                    text = msg.get_text_content() or ""
                    wire = json.loads(msg.to_json())
                except Exception as e:  # what the test is about: none
                    errors.append(repr(e))
                    return
                # never half an event: every read is the final text up to some event
                if not want.startswith(text) or wire["id"] != R:
                    errors.append(f"a read of {len(text)} characters is no prefix")
                    return
                reads[0] += 1
                reading.set()
        finally:
            reading.set()

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for b, (block, pieces) in enumerate(blocks):
            if b == 1:
                reading.wait(60)  # (the reader under way, whatever the scheduler does)
            # (a start makes the block's timestamp: the factory, under the lock)
            assert msg.append_event({"type": "TEXT_BLOCK_START", "reply_id": R, "block_id": block}) == "applied"
            for piece in pieces:
                event = delta_event(piece, block)
                assert msg.append_event(json.dumps(event) if len(piece) < 100 else event) == "applied"
    finally:
        done.set()
        reader.join()
    assert errors == []
    assert reads[0] > 0
    assert msg.get_text_content() == want


def test_two_threads_appending_to_one_message():
    msg = open_msg("a", "b")
    n = 3000

    def append(block):
        for i in range(n):
            msg.append_event(json.dumps(delta_event(f"{i},", block)))

    threads = [threading.Thread(target=append, args=(b,)) for b in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    text = "".join(f"{i}," for i in range(n))
    assert msg.get_text_content() == f"{text}\n{text}"


def test_a_factory_using_the_message_of_its_own_event_gets_an_error_not_a_deadlock():
    msg = AssistantMsg("bot", [], id=R)
    seen = []

    def stamp():
        try:
            msg.to_json()
        except RuntimeError as e:
            seen.append(str(e))
        return T0

    _native._set_factories(None, stamp)
    try:
        assert msg.append_event({"type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "b"}) == "applied"
    finally:
        _native._set_factories(None, None)
    # the factory's own call failed; the event was applied, with the factory's value
    assert len(seen) == 1
    assert msg.to_dict()["content"][0]["created_at"] == T0


# ------------------------------------------------------- (c) a cap checked before the copy


def test_the_refusal_s_words_are_the_library_s():
    """A short event goes to the library as it is, which refuses it in its own words:
    those the binding uses when it refuses a long one before copying it."""
    msg = open_msg()
    msg.set_limits(max_delta_bytes=10)
    with pytest.raises(MsgError) as e:
        msg.append_event(json.dumps(delta_event("é" * 6)))
    assert e.value.code == "limit_exceeded"
    assert str(e.value) == cap_words(12, 10)


OVER = 64 << 20
CAP = 1 << 20


@pytest.fixture(scope="module")
def over_cap_text():
    return "".join(['{"id": "e", "created_at": "', T0, '", "type": "TEXT_BLOCK_DELTA", "reply_id": "', R, '", "block_id": "b", "delta": "', "z" * OVER, '"}'])


@pytest.mark.parametrize("form", ["json", "bytes", "dict", "agentscope"])
def test_a_64_mib_delta_over_its_cap_is_refused_and_the_message_unchanged(form, over_cap_text):
    event = over_cap_text
    if form == "bytes":
        event = over_cap_text.encode()
    elif form == "dict":
        event = json.loads(over_cap_text)
    elif form == "agentscope":
        events = pytest.importorskip("agentscope.event")
        event = events.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="z" * OVER)
    msg = open_msg()
    msg.append_event(json.dumps(delta_event("kept")))
    msg.set_limits(max_delta_bytes=CAP)
    before = msg.to_json()
    with pytest.raises(MsgError) as e:
        msg.append_event(event)
    assert e.value.code == "limit_exceeded"
    assert str(e.value) == cap_words(OVER, CAP)
    assert msg.to_json() == before
    # and what fits still goes in
    assert msg.append_event(json.dumps(delta_event("z" * CAP))) == "applied"


COPIES = r"""
import json, sys
from agentscope_message import AssistantMsg


def peak():
    # this process's peak resident memory in KiB: its own memory's (ru_maxrss would start
    # from the parent's)
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith("VmHWM:")).split()[1])


form, over = sys.argv[1], 64 << 20
msg = AssistantMsg("bot", [], id="r")
msg.append_event({"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "b"})
msg.set_limits(max_delta_bytes=1 << 20)
text = "".join(['{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "', "z" * over, '"}'])
event = {"str": lambda: text, "bytes": lambda: text.encode(), "dict": lambda: json.loads(text)}[form]()
del text
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak reset to the memory held now
except OSError:
    pass
before = peak()
try:
    msg.append_event(event)
except ValueError as e:
    assert e.code == "limit_exceeded", e.code
print(peak() - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("form", ["str", "bytes", "dict"])
def test_a_delta_over_its_cap_is_not_copied(form):
    """The process's peak memory does not grow while a 64 MiB delta is refused: it was
    not copied (a copy adds 64 MiB to the peak, reset before the call to the memory the
    process holds then)."""
    out = subprocess.run([sys.executable, "-c", COPIES, form], capture_output=True, text=True, check=True)
    assert int(out.stdout) < 16 << 10  # KiB


# (payload, its bytes once decoded): escapes, a pair, lone surrogates (U+FFFD: 3 bytes)
ESCAPED = [
    ("plain", "a" * LONG, LONG),
    ("escapes", '\\n\\"\\\\\\/\\t' * (LONG // 4), 5 * (LONG // 4)),
    ("unicode", "\\u00e9\\u4e2d\\u0041" * (LONG // 8), 6 * (LONG // 8)),
    ("utf8", "é中" * (LONG // 4), 5 * (LONG // 4)),
    ("pair", "\\ud83c\\udf0d" * (LONG // 8), 4 * (LONG // 8)),
    ("lone", "\\ud83cx\\udf0d\\ud800\\ud801" * (LONG // 8), 13 * (LONG // 8)),
]


@pytest.mark.parametrize("name,raw,size", ESCAPED, ids=[e[0] for e in ESCAPED])
def test_a_long_delta_s_bytes_are_counted_as_the_decoder_counts_them(name, raw, size):
    text = '{"type": "TEXT_BLOCK_DELTA", "reply_id": "%s", "block_id": "b", "delta": "%s"}' % (R, raw)
    msg = open_msg()
    msg.set_limits(max_delta_bytes=size - 1)
    with pytest.raises(MsgError) as e:
        msg.append_event(text)
    assert str(e.value) == cap_words(size, size - 1)
    # the library, past its cap by one byte less, takes it whole: the same count
    msg.set_limits(max_delta_bytes=size)
    assert msg.append_event(text) == "applied"
    assert len(msg.get_text_content().encode()) == size


def outcome(call):
    try:
        return call()
    except MsgError as e:
        return (e.code, str(e))


# Long events over the cap, each as the library answers it: "free" as it does without a
# cap (an error or a skip before the cap, or no delta), or refused with the bytes given
DEFER = [
    ("control character", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": "b", "delta": "a\tb%s"}', "free"),
    ("bad escape", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": "b", "delta": "\\x%s"}', "free"),
    ("foreign reply", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "other", "block_id": "b", "delta": "%s"}', "free"),
    ("no block id", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "delta": "%s"}', "free"),
    ("block id a number", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": 1, "delta": "%s"}', "free"),
    ("a delta of null", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": "b", "delta": null, "x": "%s"}', "free"),
    ("data with a lone surrogate", '{"type": "DATA_BLOCK_DELTA", "reply_id": "reply", "block_id": "d", "media_type": "image/png", "data": "\\ud800%s"}', "free"),
    ("data and url", '{"type": "DATA_BLOCK_DELTA", "reply_id": "reply", "block_id": "d", "media_type": "image/png", "data": "QUFB", "url": "https://a.example/%s"}', "free"),
    ("not a delta event", '{"type": "TEXT_BLOCK_START", "reply_id": "reply", "block_id": "c", "delta": "%s"}', "free"),
    ("unknown block", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": "nope", "delta": "%s"}', 2 * LONG),
    ("no type", '{"reply_id": "reply", "block_id": "b", "delta": "%s"}', 2 * LONG),
    ("given twice", '{"type": "TEXT_BLOCK_DELTA", "reply_id": "reply", "block_id": "b", "delta": "x", "delta": "%s"}', 2 * LONG),
    ("data", '{"type": "DATA_BLOCK_DELTA", "reply_id": "reply", "block_id": "d", "media_type": "image/png", "data": "%s"}', 2 * LONG),
    ("url", '{"type": "TOOL_RESULT_DATA_DELTA", "reply_id": "reply", "tool_call_id": "t", "media_type": "image/png", "url": "https://a.example/%s"}', 18 + 2 * LONG),
    ("thinking", '{"type": "THINKING_BLOCK_DELTA", "reply_id": "reply", "block_id": "b", "delta": "%s"}', 2 * LONG),
]


def outcome(call):
    try:
        return call()
    except MsgError as e:
        return (e.code, str(e))


def answers(event):
    """(without a cap, with one of LONG bytes, the message unchanged by the second)."""

    def fresh(cap):
        msg = open_msg()
        msg.append_event({"type": "DATA_BLOCK_START", "reply_id": R, "block_id": "d", "media_type": "image/png"})
        msg.set_limits(max_delta_bytes=cap)
        return msg

    free = outcome(lambda: fresh(0).append_event(event))
    capped = fresh(LONG)
    before = capped.to_json()
    got = outcome(lambda: capped.append_event(event))
    return free, got, got == "applied" or capped.to_json() == before


@pytest.mark.parametrize("name,text,want", DEFER, ids=[d[0] for d in DEFER])
def test_a_long_event_over_the_cap_is_answered_as_the_library_answers_it(name, text, want):
    text = text % ("A" * (2 * LONG))
    forms = [text, text.encode()]
    try:
        forms.append(json.loads(text))
    except ValueError:
        pass
    for event in forms:
        free, got, unchanged = answers(event)
        assert got == (free if want == "free" else ("limit_exceeded", cap_words(want, LONG))), type(event)
        assert unchanged


@pytest.fixture
def fixed_factories():
    """The ids and timestamps the reducer makes, the same at every call."""
    _native._set_factories(lambda: "id", lambda: T0)
    yield
    _native._set_factories(None, None)


def test_long_strings_of_every_delta_event_fold_as_their_json_text(fixed_factories):
    """The long strings of a dict or an agentscope event are held apart and copied in
    when the event is applied: the message is the one the events' JSON text makes."""
    data = "QUJD" * (LONG // 2)
    events = [
        {"type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "t"},
        {"type": "TEXT_BLOCK_DELTA", "reply_id": R, "block_id": "t", "delta": "é🌍\n\x00" * LONG},
        {"type": "TEXT_BLOCK_DELTA", "reply_id": R, "block_id": "t", "delta": "\ud83c" + "a" * LONG + "\ud83c"},
        {"type": "TEXT_BLOCK_DELTA", "reply_id": R, "block_id": "t", "delta": "\udf0d" + "a" * LONG},
        {"type": "THINKING_BLOCK_START", "reply_id": R, "block_id": "k"},
        {"type": "THINKING_BLOCK_DELTA", "reply_id": R, "block_id": "k", "delta": "k" * LONG, "metadata": {"a": 1}},
        {"type": "TOOL_CALL_START", "reply_id": R, "tool_call_id": "c", "tool_call_name": "f"},
        {"type": "TOOL_CALL_DELTA", "reply_id": R, "tool_call_id": "c", "delta": '{"a": "' + "c" * LONG + '"}'},
        {"type": "DATA_BLOCK_START", "reply_id": R, "block_id": "d", "media_type": "image/png"},
        {"type": "DATA_BLOCK_DELTA", "reply_id": R, "block_id": "d", "media_type": "image/png", "data": data},
        {"type": "DATA_BLOCK_DELTA", "reply_id": R, "block_id": "d", "media_type": "image/png", "data": data, "url": None},
        {"type": "DATA_BLOCK_START", "reply_id": R, "block_id": "u", "media_type": "image/png"},
        {"type": "DATA_BLOCK_DELTA", "reply_id": R, "block_id": "u", "media_type": "image/png", "url": "https://a.example/" + "u" * LONG},
        {"type": "TOOL_RESULT_START", "reply_id": R, "tool_call_id": "c", "tool_call_name": "f"},
        {"type": "TOOL_RESULT_TEXT_DELTA", "reply_id": R, "tool_call_id": "c", "delta": "r" * LONG},
        {"type": "TOOL_RESULT_DATA_DELTA", "reply_id": R, "tool_call_id": "c", "media_type": "image/png", "data": data},
        {"type": "TOOL_RESULT_DATA_DELTA", "reply_id": R, "tool_call_id": "c", "media_type": "image/png", "url": "https://b.example/" + "v" * LONG},
        {"type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "x", "delta": "not a field of a start" * LONG},
        {"type": "TEXT_BLOCK_DELTA", "reply_id": "other", "block_id": "t", "delta": "o" * LONG},
    ]
    for i, event in enumerate(events):
        event.update(id=f"e{i}", created_at=T0)

    def folded(form):
        msg = AssistantMsg("bot", [], id=R, created_at=T0)
        outcomes = [msg.append_event(form(event)) for event in events]
        return outcomes, msg.to_json()

    want = folded(json.dumps)
    assert want[0][-2:] == ["applied", "foreign_reply"]
    assert folded(lambda event: event) == want
    assert folded(lambda event: json.dumps(event).encode()) == want
    session = Session()
    session.insert(AssistantMsg("bot", [], id=R, created_at=T0))
    assert [session.apply(event) for event in events[:-1]] == want[0][:-1]
    assert session.messages()[0].to_json() == want[1]


def test_a_long_agentscope_delta_folds_as_its_json_text(fixed_factories):
    events = pytest.importorskip("agentscope.event")
    long = "é🌍" * LONG
    deltas = [
        events.TextBlockDeltaEvent(reply_id=R, block_id="b", delta=long),
        events.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="short"),
        events.TextBlockDeltaEvent(reply_id="other", block_id="b", delta=long),
    ]
    by_object, by_text = open_msg(), open_msg()
    assert [by_object.append_event(e) for e in deltas] == ["applied", "applied", "foreign_reply"]
    assert [by_text.append_event(e.model_dump_json()) for e in deltas] == ["applied", "applied", "foreign_reply"]
    assert by_object.to_json() == by_text.to_json()
    session = Session()
    session.insert(open_msg())
    assert session.apply(deltas[0]) == "applied"
    assert session.messages()[0].get_text_content() == long
