"""The system seam as layout rules: nothing under tabletop/ names a game
system or imports one's package, so adding a system edits no platform file but its
registration line; and nothing under games/ imports Django, so every engine runs without
a database."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parents[2]
# The platform may use what games/ shares with every system, never a system's own package.
SHARED = {"core", "registry", "contract", "sheets", "forms"}
# The demo command makes a Freeform table on purpose; migrations are history.
EXEMPT = {Path("tabletop/management/commands/demo.py")}


def platform_modules() -> Iterator[Path]:
    for path in sorted((ROOT / "tabletop").rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative not in EXEMPT and "migrations" not in relative.parts:
            yield relative


def platform_templates() -> Iterator[Path]:
    yield from (p.relative_to(ROOT) for p in sorted((ROOT / "templates" / "tabletop").rglob("*.html")))
    yield from (p.relative_to(ROOT) for p in sorted((ROOT / "jinja2" / "log").rglob("*.html"))
                if "games" not in p.relative_to(ROOT / "jinja2" / "log").parts)


def imported(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, ``from a import b`` giving ``a.b`` too."""
    for node in ast.walk(ast.parse((ROOT / path).read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def system_names() -> re.Pattern[str]:
    """Every system key, as written in code or in a URL."""
    keys = set(registry.SYSTEMS) | set(registry.PACKAGES)
    spelled = keys | {k.replace("_", "-") for k in keys}
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(map(re.escape, spelled))) + r")(?![A-Za-z0-9_])")


@pytest.mark.parametrize("path", list(platform_modules()), ids=str)
def test_no_platform_module_imports_a_system_package(path: Path) -> None:
    for module in imported(path):
        parts = module.split(".")
        if parts[0] == "games" and len(parts) > 1:
            assert parts[1] in SHARED, f"{path} imports {module}: go through games.registry"


@pytest.mark.parametrize("path", [*platform_modules(), *platform_templates()], ids=str)
def test_no_platform_file_names_a_system(path: Path) -> None:
    found = system_names().findall((ROOT / path).read_text())
    assert not found, f"{path} names {sorted(set(found))}: take it from the system's registration"


def test_the_rules_would_catch_a_system_named_on_the_platform() -> None:
    assert system_names().search('path("odds/demon-city/")')
    assert system_names().search('system="freeform"')
    assert not system_names().search("a freeformish word, shadowside")


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT) for p in (ROOT / "games").rglob("*.py")), ids=str)
def test_nothing_under_games_imports_django_or_the_platform(path: Path) -> None:
    for module in imported(path):
        top = module.split(".")[0]
        assert top not in {"django", "channels", "daphne", "tabletop"}, f"{path} imports {module}"


def test_each_listed_package_is_a_system_package_or_module_with_its_key() -> None:
    for package in registry.PACKAGES:
        assert (ROOT / "games" / package / "__init__.py").is_file() != (ROOT / "games" / f"{package}.py").is_file()
        assert registry.get(package).key == package


def _module_name(path: Path) -> str:
    name = ".".join(path.with_suffix("").parts)
    return name.removesuffix(".__init__")


def _imports_at_load(path: Path, modules: set[str]) -> set[str]:
    """The platform modules ``path`` imports when it loads: its top-level imports (not those
    inside functions, nor those under ``if TYPE_CHECKING``)."""
    found = set()
    for node in ast.parse((ROOT / path).read_text(), str(path)).body:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in modules else node.module)
    return found - {_module_name(path)}


def test_the_platform_s_modules_import_each_other_in_no_circle() -> None:
    """Issue 12: "Break the import circle (liveness -> services -> broadcast -> rendering ->
    selectors -> liveness)": data flows one way, and so do imports."""
    relative = [p.relative_to(ROOT) for p in (ROOT / "tabletop").rglob("*.py") if "migrations" not in p.parts]
    paths = {_module_name(path): path for path in relative}
    graph = {name: _imports_at_load(path, set(paths)) for name, path in paths.items()}
    assert graph["tabletop.live.liveness"]  # the walk sees imports at all
    done: set[str] = set()

    def walk(name: str, trail: list[str]) -> None:
        for dep in sorted(graph[name]):
            assert dep not in trail, " -> ".join(trail[trail.index(dep):] + [dep])
            if dep not in done:
                walk(dep, trail + [dep])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            walk(name, [name])


def test_the_live_feed_never_imports_the_serving_package() -> None:
    """Issue 28: "the consumer writes to a sink that serving.install() may replace, so live/
    never imports serving/": serving/ is how a process serves (installed by tabletop.asgi,
    named in settings), and live/ knows only its seams (live/sink.py, live/liveness.py's hooks)."""
    for path in sorted((ROOT / "tabletop" / "live").glob("*.py")):
        assert not [m for m in imported(path) if m.startswith("tabletop.serving")], path.name



def test_the_platform_s_top_level_is_grouped() -> None:
    """Issue 34: "`tabletop/` grouped (scenes, cards, ...) to at most 20 entries at its top": the
    feed, forms, selectors, services, views, the socket and the server each one folder."""
    entries = sorted(p.name for p in (ROOT / "tabletop").iterdir() if p.name != "__pycache__")
    assert len(entries) <= 20, entries
    for folder in ("feed", "forms", "selectors", "services", "views", "live", "serving"):
        assert (ROOT / "tabletop" / folder / "__init__.py").is_file(), folder


def test_the_feed_decides_what_a_seat_sees_and_nothing_outside_it_does() -> None:
    """Issue 34: "One seat's view: what a seat may see and use is computed in one place": the
    readings, the private part and the page's seat rules are defined in tabletop/feed/seat.py and
    nowhere else in the platform."""
    names = {"reading_for", "private_part", "readings_needed", "may", "acts", "controls", "owns", "deals", "draws"}
    defined: dict[str, list[Path]] = {}
    filters = Path("tabletop/templatetags/seat_tags.py")  # the templates' names for the same rules
    for path in platform_modules():
        if path == filters:
            continue
        for node in ast.parse((ROOT / path).read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                defined.setdefault(node.name, []).append(path)
    seat = Path("tabletop/feed/seat.py")
    assert {name: paths for name, paths in defined.items() if paths != [seat]} == {}
    assert set(defined) == names
