"""Issue 23 for Harsh Light, through the page and the export: a line reads as a story and unfolds
to its working ("How"); a public event's working is everyone's, and an NPC's figures reach nobody
but the GM through a working (an event holding them unfolds for the others with "the GM's figure"
in their place: test_harsh_light_twins.py)."""

from __future__ import annotations

import html
import json
import re

from games.harsh_light import working as w
from tests.integration.test_harsh_light_enforced import (
    SECRET, export, fight_with_the_revenant, numbers, page, unquoted,
)
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    bring_out_deck, cid, hl, last, ok,
)

HOW = '<details class="working"><summary>How</summary>'


def workings(markup: str) -> list[str]:
    """The text of every folded working on a page."""
    return [html.unescape(re.sub(r"<[^>]+>", " ", m))
            for m in re.findall(r'<details class="working">.*?</details>', markup, re.S)]


def test_a_public_pull_unfolds_to_its_arithmetic_for_every_seat(hl) -> None:
    """Issue 23: "each line can unfold to show the arithmetic and the rule it applied (quoting the rule
    text where the system has it)". Seed: "When you pull a card and add your pool, you get your first
    success at a total of eight ..., and every three points above eight is another success." Alfie's
    pull names no NPC: its working rides in the public payload, for the player, the spectator and
    the GM alike, on the page and in the export."""
    bring_out_deck(hl)
    ok(hl, "ann", "pull", combatant=cid(hl["alfie"]), attribute="intelligence", skill="academics")
    pulled = last("pulled")
    record = pulled.payload["event"]["record"]
    assert pulled.summary.startswith("Alfie pulls Intelligence + Academics: ")
    assert f" + pool 6 = {record['total']}, " in pulled.summary
    made = pulled.payload["working"]
    assert made["steps"][:3] == ["Intelligence 3", "+ Academics 3", "= pool 6"]
    assert made["rule"] in (w.SUCCESSES, w.AGAIN + " " + w.SUCCESSES)
    for who in ("gm", "ann", "bob", "watcher"):
        text = page(hl, who)
        assert HOW in text, who
        assert any("Intelligence 3" in one and "= pool 6" in one and "Basic Rules" in one for one in workings(text))
        row = next(r for r in export(hl, who)["events"] if r["kind"] == "harsh_light.pulled")
        assert row["data"]["working"]["steps"] == made["steps"], who


def test_a_working_shows_a_player_and_a_spectator_no_figure_of_an_npc(hl) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it ... other seats see its name
    and what the rules make public (a total, a track) and nothing more." No working a player or the
    spectator reads names a figure of the Revenant's: a public event's (its wounds, the contest's
    successes), nor the public one of an event that holds its figures (test_harsh_light_twins.py).
    The GM reads the Revenant's pool in the private twin."""
    fight_with_the_revenant(hl)
    for who in ("ann", "watcher"):
        shown = workings(page(hl, who))
        assert shown, who  # the players' own pulls unfold
        assert [one for one in shown if numbers(unquoted(one)) & SECRET] == [], who
        rows = [r for r in export(hl, who)["events"] if "working" in r["data"]]
        assert rows and all(not numbers(unquoted(json.dumps(r["data"]["working"], ensure_ascii=False))) & SECRET
                            for r in rows), who
    gm = workings(page(hl, "gm"))
    assert any("Strength 10" in one and "+ Brawl 9" in one and "= pool 19" in one for one in gm)
    private = [r["private"]["working"] for r in export(hl, "gm")["events"]
               if "working" in r.get("private", {})]
    assert any("= pool 19" in made["steps"] for made in private)
