"""The README's Python snippets run as they are (with the `chunk` and `db` they leave to
the reader), and say what they claim."""

import re

from conftest import RECORDINGS, ROOT


class Store:
    def __init__(self):
        self.rows = {}

    def store(self, key, value):
        self.rows[key] = value


def snippets():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_readme_snippets_run():
    first, service = snippets()
    db = Store()
    chunk = (RECORDINGS[0] / "events.sse").read_bytes()
    scope = {"chunk": chunk, "db": db}
    exec(compile(first, "README.md", "exec"), scope)
    assert scope["reply"].get_text_content() == "Hello"
    assert scope["stored"].startswith('{"name":"Friday","content":[{"type":"text","text":"Hello"')
    assert len(db.rows) == 1 and next(iter(db.rows.values())).startswith('{"name":')
    import agentscope_message.agentscope as fold

    try:
        exec(compile(service, "README.md", "exec"), {})
        assert fold.installed()
    finally:
        fold.uninstall()


def test_the_agentscope_extra_pins_the_agentscope_these_tests_run_with():
    """`pip install "agentscope-message[agentscope]"` gets the agentscope of the service's
    pins (scripts/service-requirements.txt), the one installed where these tests run."""
    import importlib.metadata
    import tomllib

    project = tomllib.loads((ROOT / "python/pyproject.toml").read_text(encoding="utf-8"))["project"]
    (pin,) = project["optional-dependencies"]["agentscope"]
    lines = (ROOT / "scripts/service-requirements.txt").read_text(encoding="utf-8").splitlines()
    assert [pin] == [line for line in lines if line.startswith("agentscope==")]
    assert pin == "agentscope==" + importlib.metadata.version("agentscope")
