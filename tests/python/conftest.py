"""Shared helpers of the wheel's tests (tests/python/): the repository's fixtures."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = sorted((ROOT / "tests/fixtures/conformance").glob("*.json"))
RECORDINGS = sorted(p for p in (ROOT / "examples/recordings").iterdir() if p.is_dir())


def null_paths(value, paths):
    """Sets every JSON pointer of `paths` that exists in `value` to None."""
    for pointer in paths:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
        node = value
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.get(part) if isinstance(node, dict) else None
            if node is None:
                break
        last = parts[-1]
        if isinstance(node, dict) and last in node:
            node[last] = None
        elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
            node[int(last)] = None


def null_recording_volatiles(msg):
    """What the reducer makes up itself in a recording (examples/recordings/README.md)."""
    msg["created_at"] = None
    for block in msg["content"]:
        block["created_at"] = None
        if block["type"] == "hint":
            block["finished_at"] = None
        if isinstance(block.get("output"), list):
            for item in block["output"]:
                item["created_at"] = None
                if item["type"] == "text":
                    item["id"] = None
    return msg


def recording_expected(directory):
    want = json.loads((directory / "final_msg.json").read_text(encoding="utf-8"))
    return [null_recording_volatiles(m) for m in (want if isinstance(want, list) else [want])]


def our_code(expected):
    """The error code this port reports for a fixture's `expected_error`."""
    return "base64_after_url" if expected == "reducer_exception" else expected


@pytest.fixture
def counting_factories():
    """agentscope's id and timestamp factories made deterministic (id-0, ts-0, …), reset
    after the test."""
    import agentscope

    def install():
        ids, stamps = iter(range(10**9)), iter(range(10**9))
        agentscope.set_id_factory(lambda: f"id-{next(ids)}")
        agentscope.set_timestamp_factory(lambda: f"ts-{next(stamps)}")

    yield install
    import uuid
    from datetime import datetime

    agentscope.set_id_factory(lambda: uuid.uuid4().hex)
    agentscope.set_timestamp_factory(lambda: datetime.now().isoformat())  # agentscope 2.0.11's defaults
