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


def test_one_version_for_the_three_packages_and_its_changelog_section():
    """scripts/release's first check: the crate's version (which the npm package takes)
    is the wheel's, in both its manifests, and CHANGELOG.md has its section."""
    import tomllib

    def version(path):
        text = (ROOT / path).read_text(encoding="utf-8")
        data = tomllib.loads(text)
        return (data.get("package") or data["project"])["version"]

    crate = version("Cargo.toml")
    assert version("python/Cargo.toml") == crate
    assert version("python/pyproject.toml") == crate
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(crate)} ", changelog, re.M)
