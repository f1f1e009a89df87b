"""Times the reference (agentscope 2.0.11) on the benchmark's SSE files: the same work as
the native benchmark (benches/wire.rs), from the file's bytes to the final message's JSON.

    <python with agentscope==2.0.11> bench/reference.py [--runs N] FILE.sse ...

Per event: the SSE frame's data, TypeAdapter(AgentEvent).validate_json (what the chat
service's clients do with a frame), a REPLY_START opens AssistantMsg(id=reply_id,
name=name, content=[]), every other event goes to msg.append_event; at the end
msg.model_dump_json(). Prints one JSON line per file: {file, events, runs, median_s}.
"""
import json
import statistics
import sys
import time
import warnings

from pydantic import TypeAdapter

from agentscope import event as E
from agentscope.message import AssistantMsg

warnings.simplefilter("ignore")
EVENT = TypeAdapter(E.AgentEvent)


def replay(text):
    msg, events = None, 0
    for frame in text.split("\n\n"):
        if not frame.startswith("data: "):
            continue
        event = EVENT.validate_json(frame[len("data: "):])
        events += 1
        if isinstance(event, E.ReplyStartEvent):
            if msg is None:
                msg = AssistantMsg(id=event.reply_id, name=event.name, content=[])
            continue
        msg.append_event(event)
    return events, msg.model_dump_json()


def main():
    args = sys.argv[1:]
    runs = 3
    if args[:1] == ["--runs"]:
        runs, args = int(args[1]), args[2:]
    for path in args:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            events, _ = replay(text)
            times.append(time.perf_counter() - start)
        print(json.dumps({"file": path.rsplit("/", 1)[-1], "events": events, "runs": times,
                          "median_s": statistics.median(times)}), flush=True)


if __name__ == "__main__":
    main()
