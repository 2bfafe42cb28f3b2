"""A Harsh Light campaign through the table's routes (issue 35): the Storyteller moves the clock
on and time heals Health and gives Willpower back on the sheets, with no sheet edited by hand;
time waits for the end of a fight; an NPC's Willpower and a condition kept behind the screen
reach no other seat. The decided reading: "002, Willpower: one point back after a night's rest
... Health heals on the clock as the World of Darkness model already coded reads it (bashing,
lethal, aggravated), not by clicks"."""

from __future__ import annotations

import json
from typing import Any

from tabletop.models import Character
from tabletop.selectors import events_for, viewer_of
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    bring_out_deck, hl, ok, refused, state,
)


def sheet(character: Character) -> dict[str, Any]:
    character.refresh_from_db()
    return character.sheet


def test_a_night_heals_and_gives_willpower_back_on_the_sheet(hl) -> None:
    alfie = hl["alfie"]
    ok(hl, "gm", "harm", combatant=alfie.pk, points=3, kind="lethal", reason="a knife")
    ok(hl, "gm", "harm", combatant=alfie.pk, points=2, kind="bashing", reason="a fall")
    ok(hl, "ann", "willpower", combatant=alfie.pk, use="power")
    assert sheet(alfie)["willpower_points"] == 3
    refused(hl, "ann", "pass_time", 400, "Only the GM can move the clock on", span="night")
    ok(hl, "gm", "pass_time", span="night")
    now = sheet(alfie)
    assert (now["bashing"], now["lethal"], now["willpower_points"]) == (0, 3, 4)
    ok(hl, "gm", "pass_time", span="week")
    now = sheet(alfie)
    assert (now["lethal"], state(hl)["rest"]) == (0, {})


def test_time_waits_for_the_end_of_the_fight(hl) -> None:
    bring_out_deck(hl)
    ok(hl, "gm", "set_order", order=[hl["alfie"].pk, hl["betty"].pk])
    refused(hl, "gm", "pass_time", 400, "End the fight before time passes.", span="scene")
    ok(hl, "gm", "end_combat")
    ok(hl, "gm", "pass_time", span="scene")


def test_an_npcs_willpower_and_a_hidden_condition_stay_behind_the_screen(hl) -> None:
    ghoul = hl["ghoul"]
    ghoul.sheet = {**ghoul.sheet, "willpower_points": 1}
    ghoul.save()
    ok(hl, "gm", "add_condition", character=ghoul.pk, name="Frenzied", effect="dice", amount="2")
    ok(hl, "gm", "pass_time", span="night")
    assert sheet(ghoul)["willpower_points"] == 2
    for viewer in ("watcher", "ann"):
        seen = [s.event for s in events_for(viewer_of(hl[viewer]), hl["table"].pk)]
        public = json.dumps([e.payload for e in seen if e.kind.startswith("harsh_light.")])
        assert "Frenzied" not in public and "points_left" not in public
        assert "harsh_light.rested" in [e.kind for e in seen]
    gm = json.dumps([s.event.private for s in events_for(viewer_of(hl["gm"]), hl["table"].pk)
                     if s.event.kind == "harsh_light.rested"])
    assert "points_left" in gm


def test_a_sessions_close_gives_beats_on_the_sheets(hl) -> None:
    """"Beats as the World of Darkness games count them (a Dramatic Failure, a session's end, a
    Storyteller's award); five Beats make an Experience"."""
    base = f"/tables/{hl['table'].pk}/sessions"
    gm = hl["clients"]["gm"]
    assert gm.post(f"{base}/open/", HTTP_HX_REQUEST="true").status_code == 200
    answer = gm.post(f"{base}/close/", {"award": [hl["alfie"].pk], "absent": [hl["betty"].pk]},
                     HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content.decode()
    assert sheet(hl["alfie"])["beats"] == 2 and not sheet(hl["betty"]).get("beats")
    assert not sheet(hl["ghoul"]).get("beats")
