"""The Report Card's own sheet at a table (issue 21): what the rules own reads as theirs in a
player's sheet editor, the rules write the Corruption Circles back, and the GM's hand on the
circles counts at once, even in the middle of a check.

Seed: "The player can take 1 Corruption Point to retry the check"; "When all three of the
Corruption Circles are filled, you may gain a new Skill, and fail a new skill".
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.models import Character, Event, SheetRequest
from tabletop.services.base import NotAllowed
from tests.integration.test_report_card_table import (  # noqa: F401 (school is a fixture)
    cid, post, school, snapshot,
)


def field(page: str, key: str) -> tuple[str, str]:
    """The input of sheet field ``key`` and its help line, as the form draws them."""
    tag = re.search(rf'<input[^>]*name="sheet_{key}"[^>]*>', page)
    help_line = re.search(rf'<small class="help" id="id_sheet_{key}_helptext">([^<]*)</small>', page)
    assert tag and help_line, key
    return tag.group(0), help_line.group(1)


def gm_sets_circles(s: dict[str, Any], filled: int) -> None:
    """The GM changes Marieta's Corruption in the sheet editor, as the page posts it."""
    marieta = Character.objects.get(pk=s["marieta"].pk)
    form = {"name": marieta.name, "version": marieta.version, "sheet_corruption": str(filled),
            **{f"sheet_{k}": ("on" if v is True else "" if v is False else v)
               for k, v in marieta.sheet.items() if k != "corruption"}}
    answer = s["clients"]["gm"].post(reverse("character_edit", args=[s["table"].pk, marieta.pk]), form)
    assert answer.status_code == 302, answer.content.decode()[:300]


def corruption(s: dict[str, Any]) -> int:
    return Character.objects.get(pk=s["marieta"].pk).sheet["corruption"]


def test_a_players_sheet_editor_shows_what_the_rules_keep_and_how_it_changes(school) -> None:
    page = school["clients"]["ann"].get(
        reverse("character_edit", args=[school["table"].pk, school["marieta"].pk])).content.decode()
    tag, help_line = field(page, "corruption")
    assert " disabled" in tag and "The rules keep this; the GM can change it." in help_line
    for key in ("a_plus", "f_skill", "major"):  # chosen at its making: asked of the GM since (issue 36)
        tag, help_line = field(page, key)
        assert " disabled" not in tag and "A change waits for the GM" in help_line, key
    for key in ("a_plus", "f_skill"):
        assert "a new one when all three Corruption Circles are filled" in field(page, key)[1]
    assert "each retry of a failed check fills one" in field(page, "corruption")[1]


def test_the_gms_hand_on_the_circles_counts_at_once_in_an_open_check(school) -> None:
    """Issue 21: Corruption is the rules' and the GM's. A retry reads the circles on the sheet as
    they are now, not as they were when the check was called."""
    assert post(school, "gm", "call_check", {"character": school["marieta"].pk, "skill": "SCI",
                                             "rank": "impossible", "task": "jump to the Moon"})[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200  # Impossible: it fails
    gm_sets_circles(school, 3)
    before = snapshot(school)
    status, body = post(school, "ann", "retry", {"character": cid(school["marieta"])})
    assert status == 400 and "All three of Marieta&#x27;s Corruption Circles are filled" in body
    assert snapshot(school) == before
    gm_sets_circles(school, 0)
    assert post(school, "ann", "retry", {"character": cid(school["marieta"])})[0] == 200
    assert corruption(school) == 1
    retried = Event.objects.get(table=school["table"], kind="report_card.retried")
    assert retried.summary.startswith("Marieta takes a Corruption Point (1 of 3)")


def test_retries_fill_the_circles_and_the_new_skills_empty_them(school) -> None:
    """The rules write each Corruption Point back on the sheet, and the new A+ and F, chosen on
    the panel, empty the circles."""
    gm_sets_circles(school, 2)
    assert post(school, "gm", "call_check", {"character": school["marieta"].pk, "skill": "SCI",
                                             "rank": "impossible", "task": "eat the Moon", "hold": "on"})[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    assert post(school, "ann", "retry", {"character": cid(school["marieta"])})[0] == 200
    assert corruption(school) == 3
    assert post(school, "ann", "accept", {"character": cid(school["marieta"])})[0] == 200
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert "three circles are filled:" in page and "Empty the circles" in page
    assert post(school, "ann", "rechoose", {"character": cid(school["marieta"]), "a_plus": "SCI",
                                            "f_skill": "LAW"})[0] == 200
    sheet = Character.objects.get(pk=school["marieta"].pk).sheet
    assert (sheet["a_plus"], sheet["f_skill"], sheet["corruption"]) == ("SCI", "LAW", 0)
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert "three circles are filled:" not in page  # the panel reads the sheet as it is now


def test_the_new_a_plus_and_f_are_offered_from_the_sheet_as_it_is_now(school) -> None:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill, and
    fail a new skill". The panel reads the circles on the sheet, not a copy a check once made:
    circles the GM fills by hand before any check offer the choice at once to Marieta's player
    (and to the GM, who may make it for her), to nobody else."""
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert "three circles are filled:" not in page
    gm_sets_circles(school, 3)
    pages = {who: school["clients"][who].get(reverse("table", args=[school["table"].pk])).content.decode()
             for who in ("ann", "bob", "gm", "watcher")}
    assert "Marieta's three circles are filled:" in pages["ann"]
    assert f'name="character" value="{school["marieta"].pk}"' in pages["ann"]
    assert "Marieta's three circles are filled:" in pages["gm"]
    assert all("three circles are filled:" not in pages[who] for who in ("bob", "watcher"))
    assert post(school, "ann", "rechoose", {"character": school["marieta"].pk, "a_plus": "SCI",
                                            "f_skill": "LAW"})[0] == 200
    assert corruption(school) == 0
    page = school["clients"]["ann"].get(reverse("table", args=[school["table"].pk])).content.decode()
    assert "three circles are filled:" not in page


def sheet_form(character: Character, **changes: Any) -> dict[str, Any]:
    """The sheet editor's form as the page posts it, with ``changes`` (a box ticked "on")."""
    sheet = {**character.sheet, **changes}
    return {"name": character.name, "version": character.version,
            **{f"sheet_{k}": ("on" if v is True else "" if v is False else v) for k, v in sheet.items()}}


def test_the_abilities_and_skills_are_chosen_when_the_character_is_made_and_read_only_after(school) -> None:
    """Seed: "They can only choose a Skill if they have at least one of the associated
    Abilities". Abilities a player ticked later would let any A+ pass ("a player ticks all six
    later and any A+ then passes"): once the character is made, the Abilities, the A+ and the F
    are read-only on its player's sheet form, with the line that says why."""
    page = school["clients"]["ann"].get(
        reverse("character_edit", args=[school["table"].pk, school["marieta"].pk])).content.decode()
    for key in ("charming", "fast", "clever", "strong", "wise", "lucky", "a_plus", "f_skill"):
        tag, help_line = field(page, key)  # since issue 36: a change is a request the GM sees and decides
        assert " disabled" not in tag and "A change waits for the GM" in help_line, key
    assert "an A+ skill needs one of its Abilities. Chosen when the character is made; after that only the GM " \
           "changes it." in field(page, "lucky")[1]
    gm_page = school["clients"]["gm"].get(
        reverse("character_edit", args=[school["table"].pk, school["marieta"].pk])).content.decode()
    assert " disabled" not in field(gm_page, "lucky")[0]  # the GM's hand


def test_a_player_who_ticks_all_six_abilities_and_a_new_a_plus_changes_nothing(school) -> None:
    """Seed: "Choose a skill by writing an "A+" next to it" when the character is made; "When all
    three of the Corruption Circles are filled, you may gain a new Skill, and fail a new skill".
    Marieta (Fast and Clever, A+ FREE) posts her sheet with all six Abilities ticked and SHOP (Wise
    / Strong) as her A+: her sheet is as it was."""
    marieta = Character.objects.get(pk=school["marieta"].pk)
    before = dict(marieta.sheet)
    every = {a: True for a in ("charming", "fast", "clever", "strong", "wise", "lucky")}
    answer = school["clients"]["ann"].post(reverse("character_edit", args=[school["table"].pk, marieta.pk]),
                                           sheet_form(marieta, **every, a_plus="SHOP", f_skill="ART"))
    assert answer.status_code == 302  # chosen at its making: the change waits for the GM (issue 36)
    assert Character.objects.get(pk=marieta.pk).sheet == before
    asked = SheetRequest.objects.get(character=marieta, status="open")
    assert asked.sheet == {"charming": True, "strong": True, "wise": True, "lucky": True, "a_plus": "SHOP",
                           "f_skill": "ART"}
    # the GM refuses it: the sheet is as it was; the service under the form files, never saves
    services.request_refuse(table=school["table"], actor=school["gm"], request_id=asked.pk)
    marieta = Character.objects.get(pk=marieta.pk)
    services.character_update(character=marieta, actor=school["ann"], name="Marieta",
                              sheet={**before, "a_plus": "FINAID"}, version=marieta.version)
    assert SheetRequest.objects.get(character=marieta, status="open").sheet == {"a_plus": "FINAID"}
    assert Character.objects.get(pk=marieta.pk).sheet == before


def test_the_gm_may_change_the_abilities_and_the_rechoose_reads_them(school) -> None:
    """The GM may ("changed only by the GM or through the rechoose"); the new A+ after three
    circles still needs one of its Abilities: "They can only choose a Skill if they have at least
    one of the associated Abilities"."""
    marieta = Character.objects.get(pk=school["marieta"].pk)
    answer = school["clients"]["gm"].post(reverse("character_edit", args=[school["table"].pk, marieta.pk]),
                                          sheet_form(marieta, strong=True))
    assert answer.status_code == 302
    assert Character.objects.get(pk=marieta.pk).sheet["strong"] is True
    gm_sets_circles(school, 3)
    status, body = post(school, "ann", "rechoose", {"character": cid(school["marieta"]), "a_plus": "AID",
                                                    "f_skill": "LAW"})
    assert status == 400 and "AID needs a character who is Wise or Charming" in body
    assert post(school, "ann", "rechoose", {"character": cid(school["marieta"]), "a_plus": "SHOP",
                                            "f_skill": "LAW"})[0] == 200  # Strong, by the GM's hand
    sheet = Character.objects.get(pk=marieta.pk).sheet
    assert (sheet["a_plus"], sheet["f_skill"], sheet["corruption"], sheet["wise"]) == ("SHOP", "LAW", 0, False)


def test_a_player_marks_one_a_plus_and_one_f_when_making_the_character(school) -> None:
    """Seed: "A player must choose 1 Skill" and "A player must fail 1 skill": two A+ skills are
    refused when the character is made, and no character is made."""
    url = reverse("character_new", args=[school["table"].pk])
    made = Character.objects.count()
    for a_plus, f_skill, said in (("FREE ART", "GYM", "Only one A+ skill: a player marks exactly one."),
                                  ("FREE", "GYM, LAW", "Only one F skill: a player marks exactly one."),
                                  ("", "GYM", "Choose your A+ skill")):
        answer = school["clients"]["ann"].post(url, {"name": "Rin", "sheet_fast": "on", "sheet_clever": "on",
                                                     "sheet_a_plus": a_plus, "sheet_f_skill": f_skill,
                                                     "sheet_major": "3"})
        assert answer.status_code == 400 and said in html.unescape(answer.content.decode()), a_plus
    assert Character.objects.count() == made
    answer = school["clients"]["ann"].post(url, {"name": "Rin", "sheet_fast": "on", "sheet_a_plus": "FREE",
                                                 "sheet_f_skill": "GYM", "sheet_major": "3"})
    assert answer.status_code == 302 and Character.objects.get(name="Rin").sheet["fast"] is True
