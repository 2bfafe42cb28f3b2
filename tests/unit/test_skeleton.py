"""Issue 24: one package skeleton every system follows, the same file name for the same role
(docs/adding-a-system.md, "The package skeleton"), and no skeleton of its own beside the core's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parents[2]


SKELETON = ("__init__.py", "system.py", "moves.py", "state.py", "events.py", "errors.py", "narrate.py",
            "panel.py", "sheet.py", "samples.py")
# roles that had other names in some systems: the one name each has now
RENAMED = {"web.py": "moves.py and odds.py", "procedure.py": "the engine's dispatch (games/core/engine.py)",
           "permissions.py": "access.py", "guards.py": "access.py", "actor.py": "access.py",
           "table.py": "panel.py, writeback.py or sheet.py", "secrecy.py": "audiences.py",
           "visibility.py": "audiences.py", "screen.py": "audiences.py", "twin.py": "working.py",
           "unfold.py": "working.py"}
ENGINES = [key for key in registry.PACKAGES if registry.get(key).engine is not None]


@pytest.mark.parametrize("key", ENGINES)
def test_every_system_with_an_engine_follows_the_one_skeleton(key: str) -> None:
    package = ROOT / "games" / key
    names = {p.name for p in package.glob("*.py")}
    missing = [name for name in SKELETON if name not in names]
    assert not missing, f"games/{key} lacks {missing} (docs/adding-a-system.md, the package skeleton)"
    renamed = {name: RENAMED[name] for name in names & set(RENAMED)}
    assert not renamed, f"games/{key}: a role under another name: {renamed}"


@pytest.mark.parametrize("key", ENGINES)
def test_a_system_keeps_no_skeleton_of_its_own(key: str) -> None:
    """One RuleError (the core's), no command list beside the move table, no key or name beside
    the registration's, no private name borrowed from a sibling module."""
    package = ROOT / "games" / key
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                assert node.name != "RuleError", f"{path.name}: its own RuleError (subclass games.core.engine's)"
            if isinstance(node, ast.Assign) and node.col_offset == 0:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assert target.id not in ("KEY", "NAME", "COMMANDS", "APPLY", "APPLIERS", "_APPLY",
                                                 "_REDUCERS"), f"{path.name}: {target.id} beside the registration"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"games.{key}."):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} imports {private} from {node.module}: make a shared helper public"
