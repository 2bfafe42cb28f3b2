"""Issue 24: "docs/adding-a-system.md shows the smallest complete system under the new contract".
The page's files are taken out of it (tests/support/doc_system.py), registered as the package
``games.nerve`` with the page's template, and played as every system is: random play from each
seat's own panel, the log folding back into the state, no hidden byte reaching a seat (the
difficulty a test is called at, a sample NPC's notes), and every hostile form refused."""

from __future__ import annotations

import copy
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

import games
from games import registry
from tabletop.models import Event
from tests.integration.test_contract_kit import HOSTILE, bytes_of, campaign
from tests.support import doc_system
from tests.support.kit import SENTINEL, controls_in, fold, make_table, snapshot, stored_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def nerve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.GameSystem]:
    doc_system.write(tmp_path)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path / "games")])
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], tmp_path / "templates"]
    try:
        system = registry.check_registration(importlib.import_module("games.nerve").SYSTEM)
        monkeypatch.setitem(registry.SYSTEMS, "nerve", system)
        with override_settings(TEMPLATES=templates):
            yield system
    finally:
        for name in [n for n in sys.modules if n == "games.nerve" or n.startswith("games.nerve.")]:
            del sys.modules[name]


def test_the_page_gives_a_whole_package_and_its_template() -> None:
    paths = set(doc_system.files())
    assert {f"games/nerve/{name}.py" for name in ("__init__", "system", "moves", "state", "events", "errors",
                                                   "narrate", "panel", "sheet", "samples")} <= paths
    assert "templates/games/nerve/panel.html" in paths
    counted = doc_system.count()
    assert counted["files"] == len(paths) and 0 < counted["glue"] < counted["lines"]


def test_the_smallest_system_plays_from_every_seat_and_keeps_its_secrets(nerve) -> None:
    kt = make_table("nerve", "doc")
    done, offered, events = campaign(kt, seed=24, steps=90)
    assert done["call"] >= 3 and done["roll"] >= 3, dict(done)
    assert "gm:undo" in offered and not any(name.endswith(":undo") for name in offered if not name.startswith("gm"))
    assert fold(kt.table) == stored_state(kt.table), "the log does not fold back into the state"
    called = Event.objects.filter(table=kt.table, kind="nerve.called")
    assert called.exists() and all("difficulty" not in e.payload["event"] for e in called)
    seen = {seat.name: bytes_of(kt, seat, events) for seat in kt.seats}
    assert SENTINEL in seen["gm"]
    for seat in (*kt.players, kt.watcher):
        assert SENTINEL not in seen[seat.name], f"{seat.name} received the Warden's notes"
    # a test called and not yet rolled: its difficulty is in the GM's bytes alone
    gm = kt.gm
    if json.loads(json.dumps(stored_state(kt.table)))["test"] is None:
        ash = next(c for c in kt.table.characters.all() if not c.is_npc)
        answer = gm.client.post(reverse("table_command", args=[kt.table.pk, "call"]),
                                {"character": ash.pk, "difficulty": "11"}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
    pending = stored_state(kt.table)["test"]
    marker = f"against {pending['difficulty']}"
    assert marker in kt.panel_html(gm)
    for seat in (*kt.players, kt.watcher):
        assert marker not in kt.panel_html(seat)


def test_every_hostile_form_is_refused_and_changes_nothing(nerve) -> None:
    kt = make_table("nerve", "doc-fuzz")
    for seat in (kt.gm, *kt.players):
        for control in controls_in(kt.panel_html(kt.gm), kt.table.pk):
            for bad in HOSTILE:
                data = {f.name: bad for f in control.fields} or {"character": bad}
                before = snapshot(kt.table)
                answer = seat.client.post(control.url, data, HTTP_HX_REQUEST="true")
                assert answer.status_code < 500
                if answer.status_code >= 400:
                    assert snapshot(kt.table) == before
    watcher = kt.watcher.client.post(reverse("table_command", args=[kt.table.pk, "call"]),
                                     {"character": "1", "difficulty": "8"}, HTTP_HX_REQUEST="true")
    assert watcher.status_code in (403, 404)
