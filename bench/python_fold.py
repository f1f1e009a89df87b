"""The Python wheel beside the reference, in one run (docs/benchmarks.md, "Python").

    scripts/python-wheel    # prints the venv's python (agentscope 2.0.11)
    <that python> bench/python_fold.py [--reference-up-to N] [--service] [--out FILE]

In-process, one reply each, events built beforehand as agentscope pydantic events (as
the service has them), the message written out with model_dump_json() at the end (as
the service persists it):

* reference: agentscope 2.0.11's own Msg.append_event;
* fold: the same Msg.append_event after agentscope_message.agentscope.install();
* wheel Msg: agentscope_message.Msg.append_event of the same pydantic events, and of
  the events' JSON text.

Workloads: W1 text deltas of 8 bytes (10k, 100k, 1M); W2 1,000 tool calls x 50
argument deltas; W3 a 10 MiB data block in 64 KiB base64 deltas. The reference is
quadratic (1M: about 20 minutes); `--reference-up-to N` skips its W1 cells above N
deltas. `--service`: the live service (scripts/agentscope-service, pacing 0) folding
one `long N` reply (`--service-deltas`, default 100000), without and with --fast-fold: its CPU time (user + system,
from /proc) and the wall time until the reply is stored. Prints a Markdown table and
writes the figures as JSON (`--out`, default bench/results-python.json).
"""

import argparse
import base64
import gc
import json
import os
import platform
import sys
import time
from pathlib import Path

from agentscope.event import (
    DataBlockDeltaEvent,
    DataBlockEndEvent,
    DataBlockStartEvent,
    ReplyEndEvent,
    TextBlockDeltaEvent,
    TextBlockEndEvent,
    TextBlockStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from agentscope.message import AssistantMsg, Msg
import agentscope

import agentscope_message
import agentscope_message.agentscope as fold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/python"))
from live_service import Service  # noqa: E402  (the live service, as the tests start it)
R = "reply"


# Deltas come from a pool of 1,000 distinct event objects, used in turn: a live stream
# makes each event and drops it, so a list of a million distinct pydantic objects (about
# 1 GB) would measure the memory's cache misses rather than the fold
POOL = 1000


def w1(n):
    pool = [TextBlockDeltaEvent(reply_id=R, block_id="b", delta="abcdefgh") for _ in range(POOL)]
    return [TextBlockStartEvent(reply_id=R, block_id="b")] + [pool[i % POOL] for i in range(n)] + [
        TextBlockEndEvent(reply_id=R, block_id="b"),
        ReplyEndEvent(session_id="s", reply_id=R),
    ]


def w2(calls=1000, deltas=50):
    events = []
    for c in range(calls):
        events.append(ToolCallStartEvent(reply_id=R, tool_call_id=f"c{c}", tool_call_name="f"))
        events += [ToolCallDeltaEvent(reply_id=R, tool_call_id=f"c{c}", delta='{"k": 1}') for _ in range(deltas)]
        events.append(ToolCallEndEvent(reply_id=R, tool_call_id=f"c{c}"))
    return events + [ReplyEndEvent(session_id="s", reply_id=R)]


def w3(total=10 << 20, chunk=64 << 10):
    piece = base64.b64encode(bytes(range(256)) * (chunk // 256)).decode()
    return (
        [DataBlockStartEvent(reply_id=R, block_id="d", media_type="image/png")]
        + [DataBlockDeltaEvent(reply_id=R, block_id="d", media_type="image/png", data=piece) for _ in range(total // chunk)]
        + [DataBlockEndEvent(reply_id=R, block_id="d"), ReplyEndEvent(session_id="s", reply_id=R)]
    )


def timed(run):
    gc.collect()
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def fold_with(append, events):
    msg = AssistantMsg(id=R, name="bot", content=[])
    for event in events:
        append(msg, event)
    return msg.model_dump_json()


def wheel(events):
    msg = agentscope_message.AssistantMsg("bot", [], id=R)
    for event in events:
        msg.append_event(event)
    return msg.to_json()


def cells(name, events, reference_ok):
    row = {"workload": name, "events": len(events)}
    original = fold._original or Msg.append_event
    if reference_ok:
        row["reference"], want = timed(lambda: fold_with(original, events))
    fold.install()
    try:
        row["fold"], got = timed(lambda: fold_with(lambda m, e: m.append_event(e), events))
    finally:
        fold.uninstall()
    if reference_ok:
        assert got == want, f"{name}: the fold's message differs from the reference's"
    row["wheel_objects"], _ = timed(lambda: wheel(events))
    made = {}
    texts = [made.setdefault(id(e), e.model_dump_json()) for e in events]  # (the pool's texts, shared alike)
    row["wheel_json"], _ = timed(lambda: wheel(texts))
    return row


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cell(fast, n=100_000):
    service = Service(fast, env={"AGENTSCOPE_SERVICE_DELAY_MS": "0"})
    try:
        session = service.new_session()
        before = cpu_seconds(service.proc.pid)
        start = time.perf_counter()
        service.say(session, f"long {n}")
        replies = []
        while not replies:  # (idle before the run took the session, too)
            _, stored = service.wait(session, ("idle",), seconds=3600, poll=0.2)
            replies = [m for m in stored if m["role"] == "assistant" and m["finished_reason"]]
        wall = time.perf_counter() - start
        cpu = cpu_seconds(service.proc.pid) - before
        text = "".join(b.get("text", "") for b in replies[0]["content"] if b["type"] == "text")
        assert text.count(" ") == n, "the stored reply holds every delta"
        return {"cpu": cpu, "wall": wall}
    finally:
        service.stop()


def fmt(seconds):
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s" if seconds < 100 else f"{seconds:.0f} s"


def main():
    # constant ids and timestamps, so that the fold's message can be compared with the
    # reference's byte for byte
    agentscope.set_id_factory(lambda: "id")
    agentscope.set_timestamp_factory(lambda: "2026-01-01T00:00:00")
    p = argparse.ArgumentParser()
    p.add_argument("--reference-up-to", type=int, default=1_000_000)
    p.add_argument("--service", action="store_true")
    p.add_argument("--service-deltas", default="100000", help="the `long N` replies, comma-separated")
    p.add_argument("--out", default=str(ROOT / "bench/results-python.json"))
    a = p.parse_args()
    rows = []
    for n in (10_000, 100_000, 1_000_000):
        rows.append(cells(f"W1 {n // 1000}k text deltas", w1(n), n <= a.reference_up_to))
        print(rows[-1], file=sys.stderr, flush=True)
    rows.append(cells("W2 1000 x 50 tool-argument deltas", w2(), True))
    print(rows[-1], file=sys.stderr, flush=True)
    rows.append(cells("W3 10 MiB base64, 64 KiB deltas", w3(), True))
    print(rows[-1], file=sys.stderr, flush=True)
    sizes = [int(n) for n in a.service_deltas.split(",")]
    service = {(n, fast): service_cell(fast, n) for n in sizes for fast in (False, True)} if a.service else None
    print("| one reply | reference `Msg.append_event` | with `install()` | speed-up | wheel `Msg`, pydantic events | wheel `Msg`, JSON text |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        ref = row.get("reference")
        speedup = f"{ref / row['fold']:.0f}×" if ref else "—"
        print(f"| {row['workload']} | {fmt(ref)} | {fmt(row['fold'])} | {speedup} | {fmt(row['wheel_objects'])} | {fmt(row['wheel_json'])} |")
    if service:
        print()
        print("| live service, one reply | CPU time | until stored |")
        print("|---|---|---|")
        for (n, fast), cell in service.items():
            label = f"`long {n}`, " + ("with `--fast-fold`" if fast else "agentscope 2.0.11")
            print(f"| {label} | {cell['cpu']:.1f} s | {cell['wall']:.1f} s |")
    Path(a.out).write_text(json.dumps({"python": platform.python_version(), "rows": rows, "service": service and [
        {"deltas": n, "fast_fold": fast, **cell} for (n, fast), cell in service.items()]}, indent=1) + "\n")


if __name__ == "__main__":
    main()
