"""Per event: agentscope's own Msg.append_event beside the same method after
agentscope_message.agentscope.install(), in one process, interleaved (docs/benchmarks.md,
"Python: per event, every reply size").

    scripts/python-wheel    # prints the venv's python (agentscope 2.0.11)
    <that python> bench/python_per_event.py [--runs 5] [--only text-20,mixed] [--json FILE]

Cases (each a fold into fresh messages, as agentscope's ChatService folds a reply: the
message made at REPLY_START, every later event appended, `model_dump_json()` at the end,
as the service persists it):

* text-N (N = 1, 20, 200, 10k, 100k, 1M): a reply of one text block, TEXT_BLOCK_START,
  N TEXT_BLOCK_DELTA of 8 characters, TEXT_BLOCK_END, REPLY_END (N + 3 events appended).
  The short ones are folded many times per sample (a sample lasts about 50 ms at least);
* mixed: 300 replies of tests/differential's generator (every event type, 17 events
  each on average), new event objects for each sample (the reference keeps some of an
  event's objects in the message);
* read-4MB-dump / read-4MB-content: a message holding a 4 MB text block gets 200 deltas
  of 8 characters, and is read every 50 events: `model_dump_json()`, or its `.content`
  (a UI's re-render).

For each case and run, one sample of the reference and one of install(), one after the
other (their order alternating between runs), after a `gc.collect()`, timed in the
process's CPU time (`time.process_time()`: on a busy machine the wall time also counts
the waits for a CPU); the median of the runs, in µs per event appended. The reference is
quadratic: its 1M sample takes minutes, so 1M runs `--big-runs` times (default 1). Every
case's final messages are checked equal, byte for byte, between the two. The share of
events install() applied in Rust (the rest took the reference's path; read from the
module's `_stats` when it has them) is printed too. Prints a Markdown table; `--json`
writes the samples.
"""

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import agentscope
from agentscope import event as E
from agentscope.message import AssistantMsg, Msg, TextBlock
from pydantic import TypeAdapter

import agentscope_message.agentscope as fold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/differential"))
import differential  # noqa: E402  (the random sequences of the differential test)

import logging  # noqa: E402

logging.disable(logging.CRITICAL)  # the reference logs every skipped event of the mixed replies
EVENT = TypeAdapter(E.AgentEvent)
R = "reply"
POOL = 1000  # distinct delta objects, used in turn (a live stream makes and drops each)
SIZES = (1, 20, 200, 10_000, 100_000, 1_000_000)
MIN_SAMPLE = 0.05  # seconds: the short cases are folded this long per sample, at least


def text_reply(n):
    pool = [E.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="abcdefgh") for _ in range(min(n, POOL))]
    return (
        [E.TextBlockStartEvent(reply_id=R, block_id="b")]
        + [pool[i % POOL] for i in range(n)]
        + [E.TextBlockEndEvent(reply_id=R, block_id="b"), E.ReplyEndEvent(session_id="s", reply_id=R)]
    )


class TextCase:
    """One text reply of n deltas, folded `reps` times per sample (the same events: a
    text reply keeps none of its event objects)."""

    def __init__(self, n):
        self.name = {1_000: "text-1k", 10_000: "text-10k", 100_000: "text-100k", 1_000_000: "text-1M"}.get(n, f"text-{n}")
        self.label = f"1 reply, {n:,} text deltas ({n + 3:,} events)"
        self.events = text_reply(n)
        self.n = n

    def prepare(self, reps):
        return reps

    def run(self, append, reps):
        out = None
        for _ in range(reps):
            msg = AssistantMsg(id=R, name="bot", content=[])
            for event in self.events:
                append(msg, event)
            out = msg.model_dump_json()
        return out, reps * len(self.events)


class MixedCase:
    """300 replies of tests/differential's generator, each from its REPLY_START (a
    raised exception ends a reply, as in the tests)."""

    name = "mixed"

    def __init__(self, count=300, seed=7):
        rng = random.Random(seed)
        self.raw = []
        for k in range(count):
            raw = differential.sequence(rng, k)
            try:
                [EVENT.validate_python(e) for e in raw]
            except Exception:
                continue
            self.raw.append(raw)
        events = sum(len(r) - 1 for r in self.raw)
        self.label = f"{len(self.raw)} mixed replies (every event type, {events / len(self.raw):.0f} events each)"

    def prepare(self, reps):
        return [[[EVENT.validate_python(e) for e in raw] for raw in self.raw] for _ in range(reps)]

    def run(self, append, batches):
        outs, count = [], 0
        for replies in batches:
            for events in replies:
                start = events[0]
                msg = AssistantMsg(id=start.reply_id, name=start.name, content=[])
                for event in events[1:]:
                    count += 1
                    try:
                        append(msg, event)
                    except Exception as e:  # the reference raised: the reply ends here
                        outs.append(type(e).__name__)
                        break
                outs.append(msg.model_dump_json())
        return outs, count


class ReadCase:
    """A 4 MB text block, 200 deltas, read every 50 events."""

    def __init__(self, how, size=4 << 20, deltas=200, every=50):
        self.name = f"read-4MB-{how}"
        what = "`model_dump_json()`" if how == "dump" else "`.content`"
        self.label = f"a 4 MB message, {deltas} deltas, {what} every {every} events"
        self.how, self.size, self.deltas, self.every = how, size, deltas, every
        self.events = [E.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="abcdefgh") for _ in range(deltas)]

    def prepare(self, reps):
        # a message of its own per rep (made outside the timing: it is the message so far)
        return [AssistantMsg(id=R, name="bot", content=[TextBlock(id="b", text="x" * self.size)]) for _ in range(reps)]

    def run(self, append, msgs):
        out = []
        for msg in msgs:
            for i, event in enumerate(self.events, 1):
                append(msg, event)
                if i % self.every == 0:
                    if self.how == "dump":
                        out.append(len(msg.model_dump_json()))
                    else:
                        out.append(len(msg.content))
            out.append(msg.model_dump_json())
        return out, len(msgs) * len(self.events)


def sample(case, installed, reps):
    """One timed sample: (seconds, events appended, the output, events in Rust)."""
    prepared = case.prepare(reps)
    if installed:
        fold.install()
        append = _installed_append
    else:
        append = fold._original or Msg.append_event
    stats = getattr(fold, "_stats", None)
    before = dict(stats) if stats is not None else None
    try:
        gc.collect()
        start = time.process_time()
        out, events = case.run(append, prepared)
        seconds = time.process_time() - start
    finally:
        if installed:
            fold.uninstall()
    rust = None
    if installed and stats is not None:
        rust = stats.get("rust", 0) - before.get("rust", 0)
    return seconds, events, out, rust


def _installed_append(msg, event):
    return msg.append_event(event)


def repetitions(case):
    """How many folds of the case make a sample of about MIN_SAMPLE seconds (by the
    reference, which is the slower of the two on short replies)."""
    if isinstance(case, TextCase) and case.n >= 10_000 or isinstance(case, MixedCase):
        return 1
    if isinstance(case, ReadCase):
        return 2
    reps = 1
    while True:
        seconds, _, _, _ = sample(case, False, reps)
        if seconds >= MIN_SAMPLE / 4 or reps > 1 << 20:
            return max(1, int(reps * MIN_SAMPLE / max(seconds, 1e-6)))
        reps *= 4


# ------------------------------------------------------------------ --calibrate
#
# The costs install() weighs to choose between the reference's path and Rust (the `_C_*`
# constants of agentscope_message/agentscope.py), measured on this machine: each the
# median of `--runs` x 15 short loops, CPU time.


def _per_call(fn, n):
    """ns per call of fn() over n calls, CPU time."""
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n * 1e9


def _delta_cost(way, text="", before=0, n=200):
    """ns per TEXT_BLOCK_DELTA of 8 characters to a block holding `text` after `before`
    other blocks: the reference ("reference"), install()'s reference path ("path"), Rust
    ("rust": the message folding already)."""
    blocks = [TextBlock(id=f"o{i}", text="") for i in range(before)] + [TextBlock(id="b", text=text)]
    msg = AssistantMsg(id=R, name="bot", content=blocks)
    del blocks
    event = E.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="abcdefgh")
    if way == "reference":
        append = fold._original or Msg.append_event
        return _per_call(lambda: append(msg, event), n)
    fold.install()
    saved = fold._EAGER
    fold._EAGER = way == "rust"
    try:
        msg.append_event(event)  # (Rust: taken in)
        return _per_call(lambda: msg.append_event(event), n)
    finally:
        fold._EAGER = saved
        fold.uninstall()


def _data_delta_cost(size, n=20):
    import base64

    msg = AssistantMsg(id=R, name="bot", content=[])
    append = fold._original or Msg.append_event
    append(msg, E.DataBlockStartEvent(reply_id=R, block_id="d", media_type="image/png"))
    piece = base64.b64encode(b"x" * (size // 4 * 3)).decode()
    append(msg, E.DataBlockDeltaEvent(reply_id=R, block_id="d", media_type="image/png", data=piece))
    event = E.DataBlockDeltaEvent(reply_id=R, block_id="d", media_type="image/png", data="AAAA")
    return _per_call(lambda: append(msg, event), n)  # (grows by 4 characters a call)


def _round_trip(size, n=10):
    """ns of taking a message of one text block of `size` characters into Rust and
    writing it back (an event, a read), beyond the reference's event."""
    event = E.TextBlockDeltaEvent(reply_id=R, block_id="b", delta="abcdefgh")
    text = "x" * size

    def once(installed):
        msg = AssistantMsg(id=R, name="bot", content=[TextBlock(id="b", text=text)])
        start = time.process_time()
        if installed:
            msg.append_event(event)
            msg.content  # the read: written back
        else:
            (fold._original or Msg.append_event)(msg, event)
        return time.process_time() - start

    fold.install()
    saved = fold._EAGER
    fold._EAGER = True
    try:
        fold_ns = statistics.median(once(True) for _ in range(n)) * 1e9
    finally:
        fold._EAGER = saved
        fold.uninstall()
    return fold_ns - statistics.median(once(False) for _ in range(n)) * 1e9


def calibrate_costs(runs):
    def median(fn):
        return statistics.median(fn() for _ in range(runs * 15))

    path, rust = median(lambda: _delta_cost("path")), median(lambda: _delta_cost("rust"))
    ref0 = median(lambda: _delta_cost("reference"))
    copy = (median(lambda: _delta_cost("reference", "x" * 65536)) - ref0) / 65536
    mapped = (median(lambda: _delta_cost("reference", "x" * (1 << 20), n=20)) - ref0) / (1 << 20)
    find = (median(lambda: _delta_cost("reference", before=64)) - ref0) / 64
    b64 = (median(lambda: _data_delta_cost(1 << 20)) - median(lambda: _data_delta_cost(64))) / (1 << 20)
    small, big = median(lambda: _round_trip(1000)), median(lambda: _round_trip(1 << 20))
    per_byte = (big - small) / ((1 << 20) - 1000)
    measured = {
        "_C_EVENT": path - rust,
        "_C_COPY": copy,
        "_C_COPY_MAPPED": mapped,
        "_C_FIND": find,
        "_C_BASE64": b64,
        "_C_SWITCH": small - 1000 * per_byte,
        "_C_BYTE": per_byte,
    }
    print(f"a text delta (ns): the reference {ref0:.0f}, install()'s reference path {path:.0f}, Rust {rust:.0f}")
    print()
    print("| constant | measured here | agentscope_message/agentscope.py |")
    print("|---|---|---|")
    for name, value in measured.items():
        print(f"| `{name}` | {value:.3g} | {getattr(fold, name):.3g} |")


def main():
    agentscope.set_id_factory(lambda: "id")
    agentscope.set_timestamp_factory(lambda: "2026-01-01T00:00:00")
    p = argparse.ArgumentParser()
    p.add_argument("--calibrate", action="store_true", help="measure the costs install() weighs, and stop")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--big-runs", type=int, default=1, help="runs of the 1M case")
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--json", default="")
    a = p.parse_args()
    if a.calibrate:
        calibrate_costs(max(1, a.runs // 2))
        return
    cases = [TextCase(n) for n in SIZES] + [MixedCase(), ReadCase("dump"), ReadCase("content")]
    if a.only:
        wanted = a.only.split(",")
        cases = [c for c in cases if c.name in wanted]
    rows = []
    for case in cases:
        reps = repetitions(case)
        runs = a.big_runs if isinstance(case, TextCase) and case.n >= 1_000_000 else a.runs
        ref, ins, shares = [], [], []
        for run in range(runs):
            order = (False, True) if run % 2 == 0 else (True, False)
            outs = {}
            for installed in order:
                seconds, events, out, rust = sample(case, installed, reps)
                (ins if installed else ref).append(seconds / events * 1e6)
                outs[installed] = out
                if installed and rust is not None:
                    shares.append(rust / events)
            assert outs[True] == outs[False], f"{case.name}: install()'s messages differ from the reference's"
        row = {
            "case": case.name,
            "label": case.label,
            "reps": reps,
            "reference_us": ref,
            "install_us": ins,
            "rust_share": shares,
        }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; median of {a.runs} runs (1M: {a.big_runs})")
    print()
    print("| µs per event appended | reference `Msg.append_event` | with `install()` | install() / reference | events in Rust |")
    print("|---|---|---|---|---|")
    for row in rows:
        r, i = statistics.median(row["reference_us"]), statistics.median(row["install_us"])
        share = f"{statistics.median(row['rust_share']) * 100:.0f} %" if row["rust_share"] else "—"
        ratio = i / r
        print(f"| {row['label']} | {fmt(r)} | {fmt(i)} | {ratio:.2f} | {share} |" if ratio >= 0.1 else
              f"| {row['label']} | {fmt(r)} | {fmt(i)} | {ratio:.2g} | {share} |")
    if a.json:
        Path(a.json).write_text(json.dumps({"python": platform.python_version(), "rows": rows}, indent=1) + "\n")


def fmt(us):
    return f"{us:.2f}" if us < 10 else f"{us:.1f}" if us < 100 else f"{us:,.0f}"


if __name__ == "__main__":
    main()
