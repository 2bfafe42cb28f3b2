"""The smallest complete system, as docs/adding-a-system.md builds it: its files taken out of the
page (each fenced block that says ``file=<path>``), to be written into a folder and registered
by tests/integration/test_adding_a_system_doc.py.

Run it to count what a new system writes: ``python tests/support/doc_system.py`` prints
``files=<n> lines=<non-blank lines> glue=<lines>``, glue being the lines that are no rule, form,
log line or panel: the registration (system.py), the package's ``__init__``, the move table
(``MOVES = (...)``) and the fold table (``FOLDS = ...``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-system.md"
BLOCK = re.compile(r"^```[a-z]+ file=(?P<path>\S+)\n(?P<body>.*?)^```$", re.M | re.S)


def files(doc: Path = DOC) -> dict[str, str]:
    """Each file the page gives, by its path in the repository."""
    return {m["path"]: m["body"] for m in BLOCK.finditer(doc.read_text())}


def write(into: Path) -> dict[str, Path]:
    """Writes the page's files under ``into`` (``games/nerve/...``, ``templates/games/nerve/...``)."""
    written = {}
    for path, body in files().items():
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body)
        written[path] = target
    return written


def _table(body: str, name: str) -> int:
    """The non-blank lines of the assignment ``name = ...`` (to its closing bracket)."""
    start = body.find(f"\n{name} = ")
    if start < 0:
        return 0
    depth, count = 0, 0
    for line in body[start + 1:].splitlines():
        count += bool(line.strip())
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        if depth <= 0:
            break
    return count


def count() -> dict[str, int]:
    found = files()
    lines = sum(1 for body in found.values() for line in body.splitlines() if line.strip())
    glue = 0
    for path, body in found.items():
        name = path.rsplit("/", 1)[-1]
        if name in ("system.py", "__init__.py"):
            glue += sum(1 for line in body.splitlines() if line.strip())
        elif name == "moves.py":
            glue += _table(body, "MOVES")
        elif name == "events.py":
            glue += _table(body, "FOLDS")
    return {"files": len(found), "lines": lines, "glue": glue}


if __name__ == "__main__":
    counted = count()
    sys.stdout.write(" ".join(f"{k}={v}" for k, v in counted.items()) + "\n")
