"""Differential testing against the reference: random but valid AgentScope event
sequences (all 28 types, interleaved blocks, unknown block ids, repeated events, unicode,
base64 split at odd places) reduced by agentscope 2.0.11 and by this crate's CLI, then
compared.

    <python with agentscope==2.0.11> differential.py [--count N] [--seed S] [--cli PATH]

A sequence is one reply (REPLY_START, ... , usually REPLY_END). The reference opens
AssistantMsg(id=reply_id, name=name, content=[]) and calls msg.append_event(ev) per
event, as the chat service does; a raised exception ends the sequence. The CLI
(`agentscope-message replay FILE`) must give the same message, or an error where the
reference raised, at the same event. Values the reference generates (ids, timestamps: its factories
return "GEN-ID" / "GEN-TS" here) may be anything on our side. Prints a JSON summary; exit
1 on any difference.
"""
import argparse
import base64
import json
import logging
import os
import random
import re
import subprocess
import sys
import tempfile
import warnings

from pydantic import TypeAdapter

import agentscope
from agentscope import event as E
from agentscope.message import AssistantMsg

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)  # the reference logs each skipped event
agentscope.set_id_factory(lambda: "GEN-ID")
agentscope.set_timestamp_factory(lambda: "GEN-TS")
EVENT = TypeAdapter(E.AgentEvent)

TEXTS = ["Hello", ", world", " 你好", "🌍", "e\u0301", "", " ", "line\nbreak", "tab\t", "quote\"s",
         "back\\slash", "<b>bold</b>", "**md**", "ß", "ẞ", "👩‍👩‍👧", "\u200b", "a" * 50]
ARGS = ['{"city": ', '"Paris"', "}", "[1, 2", "]", "", "nul", "l}"]
URLS = ["https://example.com/a.png", "HTTPS://Example.COM:443/x y.png", "http://bücher.de/b.png",
        "https://[::1]:8080/p?q=1#f", "https://example.com/%7Euser", "data:image/png;base64,iVBORw0KGgo="]
MEDIA = ["image/png", "image/jpeg", "audio/wav"]


class Gen:
    def __init__(self, rng, k):
        self.rng, self.reply, self.events, self.n = rng, f"reply-{k}", [], 0

    def ev(self, type_, **fields):
        self.n += 1
        e = {"id": f"{self.reply}-e{self.n}", "created_at": f"2026-01-01T00:00:00.{self.n:06d}",
             "metadata": {} if self.rng.random() < 0.9 else {"k": self.rng.choice([1, "v", [True, None]])},
             "type": type_}
        if type_ != "CUSTOM":
            e["reply_id"] = self.reply
        e.update(fields)
        self.events.append(e)
        return e

    def text(self):
        return "".join(self.rng.choice(TEXTS) for _ in range(self.rng.randint(0, 3)))

    def block_id(self, prefix, known):
        # now and then an id that was never started (the event is skipped)
        if known and self.rng.random() < 0.85:
            return self.rng.choice(known)
        return f"{prefix}-{self.rng.randint(0, 9)}"

    def base64_chunks(self):
        raw = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(0, 40)))
        if self.rng.random() < 0.85:
            # whole base64 per chunk
            return [base64.b64encode(raw[i:i + 7]).decode() for i in range(0, len(raw), 7)] or [""]
        # one base64 text split at odd places (the reference may refuse a chunk)
        text = base64.b64encode(raw).decode()
        cuts = sorted(self.rng.sample(range(len(text) + 1), min(3, len(text) + 1)))
        return [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]


def sequence(rng, k):
    g = Gen(rng, k)
    g.ev("REPLY_START", session_id="s", name=rng.choice(["Friday", "助手"]), role="assistant")
    texts, thinks, datas, calls, results = [], [], [], [], []
    for _ in range(rng.randint(1, 14)):
        op = rng.randrange(14)
        if op == 0:
            b = f"t{len(texts)}"
            texts.append(b)
            g.ev("TEXT_BLOCK_START", block_id=b)
            for _ in range(rng.randint(0, 4)):
                g.ev("TEXT_BLOCK_DELTA", block_id=g.block_id("t", texts), delta=g.text())
            if rng.random() < 0.8:
                g.ev("TEXT_BLOCK_END", block_id=b, text=rng.choice([None, None, g.text()]))
        elif op == 1:
            b = f"th{len(thinks)}"
            thinks.append(b)
            g.ev("THINKING_BLOCK_START", block_id=b)
            for _ in range(rng.randint(0, 3)):
                g.ev("THINKING_BLOCK_DELTA", block_id=g.block_id("th", thinks), delta=g.text())
            g.ev("THINKING_BLOCK_END", block_id=g.block_id("th", thinks))
        elif op == 2:
            b = f"d{len(datas)}"
            datas.append(b)
            g.ev("DATA_BLOCK_START", block_id=b, media_type=rng.choice(MEDIA), name=rng.choice([None, "f.png"]))
            if rng.random() < 0.3:
                g.ev("DATA_BLOCK_DELTA", block_id=b, media_type=rng.choice(MEDIA), data=None, url=rng.choice(URLS))
            else:
                for chunk in g.base64_chunks():
                    g.ev("DATA_BLOCK_DELTA", block_id=g.block_id("d", datas), media_type=rng.choice(MEDIA),
                         data=chunk, url=None)
            g.ev("DATA_BLOCK_END", block_id=b)
        elif op == 3:
            hint = g.text() if rng.random() < 0.6 else [{"type": "text", "text": g.text()}]
            g.ev("HINT_BLOCK", block_id=f"h{g.n}", source=rng.choice([None, "system"]), hint=hint)
        elif op in (4, 5):
            c = f"call-{rng.randint(0, 5)}"  # ids repeat now and then
            calls.append(c)
            g.ev("TOOL_CALL_START", tool_call_id=c, tool_call_name=rng.choice(["search", "get_weather"]))
            for _ in range(rng.randint(0, 3)):
                g.ev("TOOL_CALL_DELTA", tool_call_id=g.block_id("call", calls), delta=rng.choice(ARGS))
            g.ev("TOOL_CALL_END", tool_call_id=c)
        elif op == 6 and calls:
            c = rng.choice(calls)
            results.append(c)
            g.ev("TOOL_RESULT_START", tool_call_id=c, tool_call_name="search")
            for _ in range(rng.randint(0, 4)):
                if rng.random() < 0.6:
                    g.ev("TOOL_RESULT_TEXT_DELTA", tool_call_id=c, delta=g.text())
                elif rng.random() < 0.7:
                    for chunk in g.base64_chunks()[:2]:
                        g.ev("TOOL_RESULT_DATA_DELTA", tool_call_id=c, block_id=rng.choice(["img", "img2"]),
                             media_type=rng.choice(MEDIA), data=chunk, url=None)
                else:
                    g.ev("TOOL_RESULT_DATA_DELTA", tool_call_id=c, block_id="u", media_type="image/png",
                         data=None, url=rng.choice(URLS))
            g.ev("TOOL_RESULT_END", tool_call_id=c, state=rng.choice(["success", "error", "interrupted"]))
        elif op == 7 and calls:
            asked = rng.sample(calls, min(len(calls), rng.randint(1, 2))) + ([] if rng.random() < 0.8 else ["nope"])
            tool_calls = [{"type": "tool_call", "id": c, "name": "search", "input": "{}",
                           "suggested_rules": rng.choice([[], None])} for c in asked]
            g.ev("REQUIRE_USER_CONFIRM", tool_calls=[{k: v for k, v in t.items() if v is not None} for t in tool_calls])
            answers = [{"confirmed": rng.random() < 0.5, "tool_call": {"type": "tool_call", "id": c, "name": "search",
                        "input": "{}"}, "rules": None} for c in asked]
            g.ev("USER_CONFIRM_RESULT", confirm_results=answers)
        elif op == 8 and calls:
            asked = rng.sample(calls, min(len(calls), rng.randint(1, 2)))
            g.ev("REQUIRE_EXTERNAL_EXECUTION",
                 tool_calls=[{"type": "tool_call", "id": c, "name": "search", "input": "{}"} for c in asked])
            g.ev("REPLY_START", session_id="s", name="Friday", role="assistant")
            g.ev("EXTERNAL_EXECUTION_RESULT", execution_results=[
                {"type": "tool_result", "id": c, "name": "search", "output": rng.choice([g.text(), [
                    {"type": "text", "text": g.text()}]]), "state": rng.choice(["success", "error"])}
                for c in asked + ([asked[0]] if rng.random() < 0.2 else [])])
        elif op == 9:
            g.ev("MODEL_CALL_START", model_name="m")
            g.ev("MODEL_CALL_END", input_tokens=rng.randint(0, 10 ** 6), output_tokens=rng.randint(0, 999),
                 cache_input_tokens=rng.randint(0, 5), cache_creation_input_tokens=0,
                 finished_reason=rng.choice(["completed", "interrupted"]))
        elif op == 10:
            g.ev("CUSTOM", name="progress", value={"n": rng.randint(0, 9), "f": rng.choice([0.5, 1.25, 3.0])})
        elif op == 11:
            g.ev(rng.choice(["EXCEED_MAX_ITERS", "USER_INTERRUPT"]), **({"name": "Friday"} if rng.random() < 0.5 else {}))
        elif op == 12 and g.events:
            # an event sent again (a retry), same id
            g.events.append(json.loads(json.dumps(rng.choice(g.events[1:] or g.events))))
    if rng.random() < 0.9:
        g.ev("REPLY_END", session_id="s", finished_reason=rng.choice(["completed", "completed", "interrupted"]),
             error=None)
    # EXCEED_MAX_ITERS needs its name; USER_INTERRUPT has none
    for e in g.events:
        if e["type"] == "EXCEED_MAX_ITERS":
            e.setdefault("name", "Friday")
        if e["type"] == "USER_INTERRUPT":
            e.pop("name", None)
    return g.events


def reference(events):
    start = events[0]
    msg = AssistantMsg(id=start["reply_id"], name=start["name"], content=[])
    for i, e in enumerate(events):
        try:
            msg.append_event(EVENT.validate_python(e))
        except Exception as exc:  # the sequence ends at the refused event
            return {"error": type(exc).__name__, "at": i + 1}
    return {"msg": msg.model_dump(mode="json")}


def ours(cli, events):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))
        path = f.name
    try:
        r = subprocess.run([cli, "replay", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        at = re.search(r"at event (\d+)", r.stderr)
        return {"error": r.stderr.strip(), "at": int(at.group(1)) if at else None}
    return {"msg": json.loads(r.stdout)}


def same(ref, got, path="$"):
    """Differences between the reference's value and ours; generated values match anything."""
    if ref in ("GEN-ID", "GEN-TS") and isinstance(got, str):
        return []
    if isinstance(ref, dict) and isinstance(got, dict):
        if list(ref) != list(got):
            return [f"{path}: keys {list(ref)} != {list(got)}"]
        return [d for k in ref for d in same(ref[k], got[k], f"{path}.{k}")]
    if isinstance(ref, list) and isinstance(got, list):
        if len(ref) != len(got):
            return [f"{path}: {len(ref)} items != {len(got)}"]
        return [d for i, (a, b) in enumerate(zip(ref, got)) for d in same(a, b, f"{path}[{i}]")]
    if ref != got or type(ref) is not type(got):
        return [f"{path}: {ref!r} != {got!r}"]
    return []


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cli", default=os.path.join(os.path.dirname(__file__), "../../target/release/agentscope-message"))
    a = p.parse_args()
    rng = random.Random(a.seed)
    counts = {"sequences": 0, "events": 0, "equal": 0, "both_refused": 0, "different": 0}
    failures = []
    for k in range(a.count):
        events = sequence(rng, k)
        ref, got = reference(events), ours(a.cli, events)
        counts["sequences"] += 1
        counts["events"] += len(events)
        if "error" in ref or "error" in got:
            # both refuse, and at the same event
            if "error" in ref and "error" in got and ref["at"] == got["at"]:
                counts["both_refused"] += 1
                continue
            diffs = [f"reference: {ref.get('error') or 'ok'} at {ref.get('at')}; ours: {got.get('error') or 'ok'}"]
        else:
            diffs = same(ref["msg"], got["msg"])
            if not diffs:
                counts["equal"] += 1
                continue
        counts["different"] += 1
        failures.append({"sequence": k, "differences": diffs[:5], "events": events})
    print(json.dumps({**counts, "seed": a.seed, "first_differences": [
        {"sequence": f["sequence"], "differences": f["differences"]} for f in failures[:5]]}, ensure_ascii=False, indent=1))
    if failures:
        with open(os.path.join(tempfile.gettempdir(), "differential-failures.json"), "w", encoding="utf-8") as f:
            json.dump(failures, f, ensure_ascii=False, indent=1)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
