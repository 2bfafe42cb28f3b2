"""Passages' recovery at the table (issue 27): outside a fight the Director corrects a sheet, a
player rests their Persona and tends another's, each through the page's forms, the sheets
keeping what the rules leave."""

from __future__ import annotations

from typing import Any

from tabletop.models import Character
from tests.integration.test_passages_table import cid, last, page, post, refused, table  # noqa: F401


def sheet(t: dict[str, Any], who: str) -> dict[str, Any]:
    return Character.objects.get(pk=t[who].pk).sheet


def test_a_rest_and_a_tending_between_fights(table, monkeypatch) -> None:  # noqa: F811
    """Seed: "Recovery of Fatigue occurs when the Persona rests, exits the Scene, or has some
    Effect restore it"; "Wounds must be tended for the individual to regain so Fatigue and Wound
    Ticks"."""
    betty = cid(table["betty"])
    for track, value in (("wounds", 70), ("untended", 20), ("fatigue", 0)):
        assert post(table, "gm", "correct", {"combatant": betty, "track": track, "value": value}).status_code == 200
    assert (sheet(table, "betty")["fatigue"], sheet(table, "betty")["untended"]) == (0, 20)
    assert "The Director sets Betty's Fatigue from 100 to 0." in last(table, "track_corrected").summary
    bob = page(table, "bob")
    assert "Rest <span class=\"visually-hidden\">Betty</span>" in bob
    assert "Rest <span class=\"visually-hidden\">Betty</span>" not in page(table, "watcher")
    refused(post(table, "ann", "rest", {"combatant": betty}), 403, "You act only for the characters you control")
    assert post(table, "bob", "rest", {"combatant": betty}).status_code == 200
    assert sheet(table, "betty")["fatigue"] == 80, "held back by 20 untended points"
    done = post(table, "ann", "tend", {"combatant": cid(table["trayer"]), "patient": betty, "skill": "Campfire"},
                rolls=(20,), monkeypatch=monkeypatch)
    assert done.status_code == 200
    assert sheet(table, "betty")["untended"] == 0 and sheet(table, "trayer")["fatigue"] == 95
    assert "Trayer tends Betty's wounds." in last(table, "tended").summary
