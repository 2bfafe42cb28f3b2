"""The Report Card's own sheet at a table (issue 21): what the rules own reads as theirs in a
player's sheet editor, the rules write the Corruption Circles back, and the GM's hand on the
circles counts at once, even in the middle of a check.

Seed: "The player can take 1 Corruption Point to retry the check"; "When all three of the
Corruption Circles are filled, you may gain a new Skill, and fail a new skill".
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from tabletop.models import Character, Event
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
    for key in ("a_plus", "f_skill", "major", "corruption"):
        tag, help_line = field(page, key)
        assert " disabled" in tag and "The rules keep this; the GM can change it." in help_line, key
    for key in ("a_plus", "f_skill"):
        assert "a new one when all three Corruption Circles are filled" in field(page, key)[1]
    assert "each retry of a failed check fills one" in field(page, "corruption")[1]
    assert " disabled" not in field(page, "fast")[0]  # the Abilities stay hers


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
