"""The wheel and other Python threads (docs/benchmarks.md, "Python: other threads").

    scripts/python-wheel    # prints the venv's python
    <that python> bench/python_threads.py [--runs 3]

A ticker thread counts in a loop (`time.sleep(0.001)`, about 900 ticks a second when it
runs freely); each long call is timed, and the ticks counted while it runs, from the
calling thread: a call that holds the GIL lets no tick through. Then the time to refuse
a 64 MiB delta over a 1 MiB cap (`set_limits(max_delta_bytes=…)`), as JSON text (str,
bytes), a dict and an agentscope event (when agentscope is installed), and the time per
event of small events (20-event replies of JSON text and of dicts, and 100k text deltas
as JSON text), the fold's hot path. Best of `--runs`. Prints a Markdown table.
"""

import argparse
import gc
import json
import threading
import time

from agentscope_message import AssistantMsg, Msg, MsgError, Session

R = "reply"
T0 = "2026-01-01T00:00:00.000000"
ticks = 0


def ticker(stop):
    global ticks
    while not stop.is_set():
        ticks += 1
        time.sleep(0.001)


def delta_event(delta, **extra):
    return {"id": "e", "created_at": T0, "metadata": {}, "type": "TEXT_BLOCK_DELTA", "reply_id": R, "block_id": "b", "delta": delta, **extra}


def open_msg():
    msg = AssistantMsg("bot", [], id=R)
    msg.append_event({"type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "b"})
    return msg


def timed(run, runs):
    """(best seconds, ticks during that run)."""
    best = None
    for _ in range(runs):
        gc.collect()
        before, start = ticks, time.perf_counter()
        try:
            run()
        except MsgError as e:
            assert e.code == "limit_exceeded", e.code
        took, got = time.perf_counter() - start, ticks - before
        if best is None or took < best[0]:
            best = (took, got)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    stop = threading.Event()
    thread = threading.Thread(target=ticker, args=(stop,), daemon=True)
    thread.start()
    time.sleep(0.05)

    before = ticks
    time.sleep(0.5)
    free = (ticks - before) / 0.5
    rows = []
    big = "x" * (48 << 20)
    text = AssistantMsg("bot", [{"type": "text", "text": big, "id": "t"}], id=R).to_json()
    held = Msg.from_json(text)
    rows.append(("`Msg.from_json`, 48 MiB", *timed(lambda: Msg.from_json(text), runs)))
    rows.append(("`msg.to_json()`, 48 MiB", *timed(held.to_json, runs)))
    rows.append(("`msg.to_dict()`, 48 MiB", *timed(held.to_dict, runs)))
    delta_json = json.dumps(delta_event("y" * (48 << 20)))
    rows.append(("`append_event`, a 48 MiB delta as JSON text", *timed(lambda: open_msg().append_event(delta_json), runs)))
    chunk = (
        "data: " + json.dumps({"id": "e0", "created_at": T0, "metadata": {}, "type": "REPLY_START", "session_id": "s", "reply_id": R, "name": "bot", "role": "assistant"})
        + "\n\ndata: " + json.dumps({"id": "e1", "created_at": T0, "metadata": {}, "type": "TEXT_BLOCK_START", "reply_id": R, "block_id": "b"})
        + "\n\ndata: " + delta_json + "\n\n"
    ).encode()
    rows.append(("`Session.feed`, a 48 MiB SSE chunk", *timed(lambda: Session().feed(chunk), runs)))

    refused = []
    over = "z" * (64 << 20)
    forms = [("JSON text (str)", json.dumps(delta_event(over)))]
    forms.append(("JSON text (bytes)", forms[0][1].encode()))
    forms.append(("dict", delta_event(over)))
    try:
        from agentscope.event import TextBlockDeltaEvent

        forms.append(("agentscope event", TextBlockDeltaEvent(reply_id=R, block_id="b", delta=over)))
    except ImportError:
        pass
    for name, event in forms:
        msg = open_msg()
        msg.set_limits(max_delta_bytes=1 << 20)
        before = msg.to_json()
        took, got = timed(lambda: msg.append_event(event), runs)
        assert msg.to_json() == before
        refused.append((f"refusing a 64 MiB delta over a 1 MiB cap, {name}", took, got))
    stop.set()
    thread.join()

    small = []
    reply = [json.dumps(delta_event(f"word {i} ", id=f"e{i}")) for i in range(20)]
    dicts = [json.loads(e) for e in reply]
    n = 5000

    def replies(events):
        for _ in range(n):
            msg = open_msg()
            for event in events:
                msg.append_event(event)

    took, _ = timed(lambda: replies(reply), runs)
    small.append(("a 20-delta reply, JSON text: per event", took / (n * 20)))
    took, _ = timed(lambda: replies(dicts), runs)
    small.append(("a 20-delta reply, dicts: per event", took / (n * 20)))
    deltas = [json.dumps(delta_event("abcdefgh", id=f"e{i}")) for i in range(1000)]

    def long_reply():
        msg = open_msg()
        for i in range(100_000):
            msg.append_event(deltas[i % 1000])

    took, _ = timed(long_reply, runs)
    small.append(("100k text deltas, JSON text: per event", took / 100_000))

    print(f"(the ticker alone: {free:.0f} ticks a second)")
    print()
    print("| call | time | ticks of the other thread meanwhile |")
    print("|---|---|---|")
    for name, took, got in rows + refused:
        shown = f"{took * 1000:.0f} ms" if took >= 0.01 else f"{took * 1000:.2f} ms"
        print(f"| {name} | {shown} | {got} |")
    print()
    print("| small events | µs |")
    print("|---|---|")
    for name, took in small:
        print(f"| {name} | {took * 1e6:.2f} |")


if __name__ == "__main__":
    main()
