"""Issue 24: one skeleton every system follows, the same name for the same role
(docs/adding-a-system.md, "The package skeleton"), and no skeleton of its own beside the core's.
Issue 34: a system may be one package or one module, its roles named the same either way: a
package gives each role its file, defining the role's name; a module defines every role's name
at its top level (the test-only High Card, tests/support/high_card.py)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

import games
from games import registry
from tests.support import doc_system

ROOT = Path(__file__).resolve().parents[2]

# Each role: the file that holds it in a package, and the top-level name that carries it
# (a module's own or the file's). ``errors.py`` carries its role in a RuleError subclass.
ROLES = {
    "system.py": "SYSTEM", "moves.py": "MOVES", "state.py": "new_state", "events.py": "FOLDS",
    "errors.py": "RuleError", "narrate.py": "summary", "panel.py": "view", "sheet.py": "SHEET",
    "samples.py": "SAMPLES",
}
SKELETON = ("__init__.py", *ROLES)
# roles that had other names in some systems: the one name each has now
RENAMED = {"web.py": "moves.py and odds.py", "procedure.py": "the engine's dispatch (games/core/engine.py)",
           "permissions.py": "access.py", "guards.py": "access.py", "actor.py": "access.py",
           "table.py": "panel.py, writeback.py or sheet.py", "secrecy.py": "audiences.py",
           "visibility.py": "audiences.py", "screen.py": "audiences.py", "twin.py": "working.py",
           "unfold.py": "working.py", "card.py": "sheet.py"}
ENGINES = [key for key in registry.PACKAGES if registry.get(key).engine is not None]
# Systems that live only in the tests and the docs, one of each shape.
ONE_MODULE = ROOT / "tests" / "support" / "high_card.py"


def defined(source: str) -> set[str]:
    """The names a module defines at its top level; ``"RuleError"`` when it defines a subclass of it."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef) and any(
                    getattr(base, "id", getattr(base, "attr", None)) == "RuleError" for base in node.bases):
                names.add("RuleError")
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def roles_missing(files: Mapping[str, str]) -> list[str]:
    """What a system lacks of the skeleton: ``files`` maps each of its file names to its text.
    One file ending ``.py`` and not named ``__init__.py`` is a one-module system."""
    if len(files) == 1 and "__init__.py" not in files:
        [source] = files.values()
        names = defined(source)
        return [f"{name} ({role.removesuffix('.py')})" for role, name in ROLES.items() if name not in names]
    missing = [name for name in SKELETON if name not in files]
    return missing + [f"{role}: {name}" for role, name in ROLES.items()
                      if role in files and name not in defined(files[role])]


def package_files(key: str) -> dict[str, str]:
    """A registered system's files: its package's, or its one module's."""
    module = ROOT / "games" / f"{key}.py"
    if module.is_file():
        return {module.name: module.read_text()}
    return {p.name: p.read_text() for p in (ROOT / "games" / key).glob("*.py")}


@pytest.mark.parametrize("key", ENGINES)
def test_every_system_with_an_engine_follows_the_one_skeleton(key: str) -> None:
    files = package_files(key)
    missing = roles_missing(files)
    assert not missing, f"games/{key} lacks {missing} (docs/adding-a-system.md, the package skeleton)"
    renamed = {name: RENAMED[name] for name in set(files) & set(RENAMED)}
    assert not renamed, f"games/{key}: a role under another name: {renamed}"


def test_a_system_in_one_module_names_every_role_at_its_top() -> None:
    assert roles_missing({ONE_MODULE.name: ONE_MODULE.read_text()}) == []


def test_the_registry_loads_a_system_in_one_module_as_it_loads_a_package(tmp_path, monkeypatch) -> None:
    (tmp_path / "high_card.py").write_text(ONE_MODULE.read_text())
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "PACKAGES", (*registry.PACKAGES, "high_card"))
    try:
        loaded = registry._load()
    finally:
        sys.modules.pop("games.high_card", None)
    assert list(loaded) == list(registry.PACKAGES) and loaded["high_card"].name == "High Card"


def test_the_page_s_system_is_a_package_of_the_skeleton() -> None:
    page = {path.rsplit("/", 1)[-1]: body for path, body in doc_system.files().items()
            if path.startswith("games/nerve/")}
    assert roles_missing(page) == []


def test_a_role_left_out_is_named_in_either_shape() -> None:
    one = ONE_MODULE.read_text().replace("\nFOLDS = ", "\nTHE_FOLDS = ")
    assert roles_missing({"high_card.py": one}) == ["FOLDS (events)"]
    module = ROOT / "games" / "demon_city"
    files = {p.name: p.read_text() for p in module.glob("*.py") if p.name != "samples.py"}
    files["panel.py"] = files["panel.py"].replace("\ndef view(", "\ndef seat_view(")
    assert roles_missing(files) == ["samples.py", "panel.py: view"]
    files["errors.py"] = "class NotNow(Exception):\n    pass\n"
    assert "errors.py: RuleError" in roles_missing(files)


@pytest.mark.parametrize("key", ENGINES)
def test_a_system_keeps_no_skeleton_of_its_own(key: str) -> None:
    """One RuleError (the core's), no command list beside the move table, no key or name beside
    the registration's, no private name borrowed from a sibling module."""
    module = ROOT / "games" / f"{key}.py"
    paths = [module] if module.is_file() else sorted((ROOT / "games" / key).glob("*.py"))
    for path in paths:
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
