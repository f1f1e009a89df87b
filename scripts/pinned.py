"""Exits 0 when every `name==version` line of the requirement files given (comments and
blank lines aside) is installed at that version in the running Python, else 1. The
version checks of scripts/agentscope-service and scripts/python-wheel."""

import importlib.metadata
import sys

for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, _, version = line.partition("==")
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            sys.exit(1)
        if installed != version:
            sys.exit(1)
