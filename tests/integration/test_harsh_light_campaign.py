"""A Harsh Light campaign through the table's routes (issue 35): the Storyteller moves the clock
on and time heals Health and gives Willpower back on the sheets, with no sheet edited by hand;
time waits for the end of a fight; an NPC's Willpower and a condition kept behind the screen
reach no other seat. The decided reading: "002, Willpower: one point back after a night's rest
... Health heals on the clock as the World of Darkness model already coded reads it (bashing,
lethal, aggravated), not by clicks"."""

from __future__ import annotations

import json
import re
from typing import Any

from django.urls import reverse

from tabletop.models import CardPlacement, Character, Event, PileKind
from tabletop.selectors import combatant_id, events_for, viewer_of
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    bring_out_deck, hl, ok, refused, state, verify_drawn,
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


def page(hl, who: str) -> str:
    return hl["clients"][who].get(reverse("table", args=[hl["table"].pk])).content.decode()


def boxes(text: str) -> list[tuple[str, str]]:
    """The close form's boxes a page draws: (name, value), each belonging to the form "session-close"."""
    return re.findall(r'<input type="checkbox" name="(absent|award)" value="([^"]+)" form="session-close"', text)


def test_the_gm_ticks_who_was_absent_and_who_earns_an_award_at_the_close(hl) -> None:
    """The close form (Clock.closing_fields): "Beats as the World of Darkness games count them (a
    Dramatic Failure, a session's end, a Storyteller's award)". The GM's page lists each player
    character with its boxes, a player's page none; a Beat for the session's end and one for the
    award make two."""
    base = f"/tables/{hl['table'].pk}/sessions"
    gm = hl["clients"]["gm"]
    assert gm.post(f"{base}/open/", HTTP_HX_REQUEST="true").status_code == 200
    alfie, betty = combatant_id(hl["alfie"]), combatant_id(hl["betty"])
    drawn = boxes(page(hl, "gm"))
    assert sorted(drawn) == sorted([("absent", alfie), ("award", alfie), ("absent", betty), ("award", betty)])
    assert combatant_id(hl["ghoul"]) not in dict(drawn).values()  # an NPC gets no Beat
    for who in ("ann", "watcher"):
        assert boxes(page(hl, who)) == [] and "closing-beats" not in page(hl, who)
    # the GM ticks Alfie's award and Betty's absence, and closes the session as the page sends it
    answer = gm.post(f"{base}/close/", {"award": [alfie], "absent": [betty]}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content.decode()
    assert sheet(hl["alfie"])["beats"] == 2 and not sheet(hl["betty"]).get("beats")


def test_the_gm_takes_back_a_pull_its_card_stays_on_the_discard_and_the_sheet_goes_back(hl) -> None:
    """Issue 35: "Undo for every system: the GM takes back the last step, as the others do". The
    GM's page offers it, a player's does not; the Willpower the pull spent is back on the sheet;
    the card it pulled stays on the discard pile, its draw still verified under the deck's seal."""
    deck = bring_out_deck(hl)
    alfie = hl["alfie"]
    assert "Undo last step" not in page(hl, "gm")  # nothing to take back yet
    ok(hl, "ann", "pull", combatant=alfie.pk, attribute="wits", willpower="1")
    assert sheet(alfie)["willpower_points"] == 3
    assert "Undo last step" in page(hl, "gm")
    for who in ("ann", "watcher"):
        assert "Undo last step" not in page(hl, who)
    refused(hl, "ann", "undo", 400, "Only the GM can take back the last step")
    pulled = state(hl)["recent"][-1]["cards"]
    ok(hl, "gm", "undo")
    assert sheet(alfie)["willpower_points"] == 4 and state(hl)["recent"] == []
    assert set(CardPlacement.objects.filter(deck=deck, card_id__in=pulled).values_list("pile__kind", flat=True)) \
        == {PileKind.DISCARD}
    assert CardPlacement.objects.filter(deck=deck).count() == 40
    for event in Event.objects.filter(table=hl["table"], kind="cards.drawn"):
        verify_drawn(event)
    line = Event.objects.filter(table=hl["table"], kind="harsh_light.undone").get().summary
    assert line.startswith("The Storyteller takes back the last step (Alfie spends a Willpower point")
    assert "on the discard pile: a pull made again is a new card" in line  # one card, or two on a 10
    refused(hl, "gm", "undo", 400, "There is no step to take back.")
