"""Issue 23 for Report Card, through the page and the export: a check's line reads as a story and
unfolds to its working ("How"): the card against the rank, why it succeeded or failed, in the
seed's words; every event is everyone's, and an NPC, who draws no card, lends no working a figure."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from django.urls import reverse

from tabletop import services
from tabletop.models import Event
from tests.integration.test_report_card_table import (  # noqa: F401 (school is a fixture)
    call, cid, deck_of, on_top, post, school, snapshot,
)

HOW = '<details class="working"><summary>How</summary>'
MEDIUM = "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds."
# Ms Okafor's sheet, the GM's: no other sheet at this table holds SCI, SHOP or the Moon.
OKAFOR = {"charming": "on", "clever": "on", "a_plus": "SCI", "f_skill": "SHOP", "major": "The Moon"}
SECRETS = ("SCI", "SHOP", "Moon", "Okafor")


def page(s: dict[str, Any], who: str) -> str:
    answer = s["clients"][who].get(reverse("table", args=[s["table"].pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def export(s: dict[str, Any], who: str) -> list[dict[str, Any]]:
    answer = s["clients"][who].get(reverse("export", args=[s["table"].pk, "json"]))
    assert answer.status_code == 200
    return json.loads(b"".join(answer.streaming_content))["events"]


def workings(markup: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", " ", m))
            for m in re.findall(r'<details class="working">.*?</details>', markup, re.S)]


def test_a_draw_unfolds_to_the_card_against_the_rank_for_every_seat(school) -> None:
    """Issue 23: "each line can unfold to show the arithmetic and the rule it applied (quoting the
    rule text where the system has it)". Seed: "Medium: Fails on any Minor Arcana <= 9, otherwise
    succeeds." Every card lies face up: the working rides in the public payload, for all."""
    on_top(deck_of(school, school["marieta"]), "tarot:cups:7")
    assert call(school)[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    drawn = Event.objects.get(table=school["table"], kind="report_card.drawn")
    assert drawn.summary == "Marieta draws the Seven of Cups against Medium: failure, not close: it needed a 10 or better."
    made = drawn.payload["working"]
    assert made["steps"] == ["LAW at Medium", "the Seven of Cups: a Minor Arcana of 7",
                             "Medium fails on 9 or less: 7 ≤ 9", "against Medium: failure",
                             "not close: it needed a 10 or better"]
    assert made["rule"] == MEDIUM and made["source"] == "Resolving a Skill Check"
    for who in ("gm", "ann", "bob", "watcher"):
        text = page(school, who)
        assert HOW in text, who
        assert any("7 ≤ 9" in one and MEDIUM in one for one in workings(text)), who
        row = next(r for r in export(school, who) if r["kind"] == "report_card.drawn")
        assert row["data"]["working"] == made, who


def test_an_npc_lends_no_working_a_figure(school) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it". In Report Card an NPC draws
    no card (it has no deck): a check called for one is refused and logs nothing, so no working
    can carry its A+, its F or its Major Arcana; the players' checks unfold as ever."""
    okafor = services.character_create(table=school["table"], actor=school["gm"], name="Ms Okafor", npc=True,
                                       sheet=OKAFOR)
    before = snapshot(school)
    status, text = call(school, character=okafor, skill="SCI", rank="hard")
    assert status == 400 and "in Report Card only the players' characters draw" in html.unescape(text)
    assert snapshot(school) == before
    on_top(deck_of(school, school["marieta"]), "tarot:major:21")
    assert call(school)[0] == 200
    assert post(school, "ann", "draw", {"character": cid(school["marieta"])})[0] == 200
    for who in ("ann", "watcher"):
        shown = workings(page(school, who))
        assert any("The World is always a Critical Success" in one for one in shown), who
        assert not [one for one in shown if any(secret in one for secret in SECRETS)], who
        rows = [json.dumps(r["data"]["working"]) for r in export(school, who) if "working" in r["data"]]
        assert rows and not [one for one in rows if any(secret in one for secret in SECRETS)], who
