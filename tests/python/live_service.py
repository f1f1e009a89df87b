"""The live AgentScope 2.0.11 service (scripts/agentscope-service) from Python: started,
called over its HTTP API, stopped. For tests/python/test_service.py and
bench/python_fold.py."""

import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Service:
    """A service of its own (a free port), without or with `--fast-fold`; `env` adds to
    the environment (the fast fold's variable is taken out: `fast_fold` decides)."""

    def __init__(self, fast_fold, env=None):
        args = [str(ROOT / "scripts/agentscope-service")] + (["--fast-fold"] if fast_fold else [])
        env = {k: v for k, v in {**os.environ, **(env or {})}.items() if k != "AGENTSCOPE_SERVICE_FAST_FOLD"}
        log = None if os.environ.get("SERVICE_LOG") else subprocess.DEVNULL
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, env=env, text=True)
        self.info = json.loads(self.proc.stdout.readline())
        assert self.info["fast_fold"] is fast_fold
        self.url = self.info["urls"][0]
        self.agent = self.info["agent_id"]

    def call(self, method, path, body=None, timeout=60):
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-User-ID": self.info["user_id"], "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read() or b"null")

    def new_session(self):
        body = {"agent_id": self.agent, "chat_model_config": self.info["chat_model_config"]}
        return self.call("POST", "/sessions/", body)["session_id"]

    def say(self, session, text):
        """POST /chat/ of a user message with `text`."""
        user = {"name": "user", "role": "user", "content": [{"type": "text", "text": text}]}
        self.call("POST", "/chat/", {"agent_id": self.agent, "session_id": session, "input": user})

    def wait(self, session, until, seconds=120, poll=0.05):
        """Waits until the session's status is one of `until` with no run holding it;
        returns (status, its stored messages)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            status = self.call("GET", f"/sessions/{session}/status?agent_id={self.agent}")["status"]
            stored = self.call("GET", f"/sessions/{session}/messages?agent_id={self.agent}&limit=200")
            if status in until and not stored["is_running"]:
                return status, stored["messages"]
            time.sleep(poll)
        raise TimeoutError(f"the session did not reach {until}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)
