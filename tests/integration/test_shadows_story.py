"""Shadows' log reads as a story at the table (issue 23): each line unfolds ("How") to its
arithmetic and seed 000's rule, for whoever reads the whole event; a working about an NPC whose
sheet is secret gives the players and the spectator no figure of that sheet, in the page or the
log's export.

Seeds README: an NPC's sheet is the GM's; "other seats see its name and what the rules make
public (a total, a track) and nothing more"."""

from __future__ import annotations

import html
from typing import Any

from django.urls import reverse

from games.shadows import working as w
from tabletop import services
from tabletop.models import Event
from tests.integration.test_shadows_table import (  # noqa: F401 (sh is a fixture)
    ALMA, BLADE, cid, ok, sh, stack,
)

SEATS = ("gm", "ann", "bob", "watcher")
HOW = '<details class="working"><summary>How</summary>'
# The Wight's sheet, the GM's: Rends 17, Quickness 7 and protection 3 (its Defence against a blade 10).
WIGHT_FIGURES = ("Rends", "rends", "Quickness 7", "protection 3", "+ 17", "17 =", "= 17", '"base": 7', '"protection": 3')


def read(sh: dict[str, Any], who: str) -> str:
    """All that a seat gets of the table: its page and the log's export, as text."""
    client, table = sh["clients"][who], sh["table"].pk
    page = client.get(reverse("table", args=[table])).content.decode()
    export = b"".join(client.get(reverse("export", args=[table, "json"])).streaming_content).decode()
    return html.unescape(page) + export.encode().decode("unicode_escape")


def test_a_public_check_unfolds_to_its_working_for_every_seat(sh) -> None:
    """Seed: "To the randomized value of the card draw is added the character’s skill value and
    for that action and the most appropriate Attribute value for that action": Alma's Nine of
    Cups + Stealth 4 + Quickness 9 = 22 on a Normal check, a failure, for all to unfold."""
    stack(sh, ["C9"])
    ok(sh, "ann", "prepare_check", character=sh["alma"].pk, skill="stealth", attribute="quickness", complexity="normal")
    ok(sh, "ann", "check", combatant=cid(sh["alma"]), prepared="1", cards="1")
    made = Event.objects.get(table=sh["table"], kind="shadows.check_made")
    assert made.summary == "Alma draws Nine of Cups + Stealth 4 + Quickness 9 on a Normal check: 22, a failure."
    assert made.payload["working"]["rule"] == w.ADDED
    for who in SEATS:
        text = read(sh, who)
        assert HOW in text and "<li>Nine of Cups: 9</li>" in text and "<li>+ Stealth 4</li>" in text, who
        assert "= 22 on a Normal check (success 25+, critical success 40+): a failure" in text, who
        assert w.ADDED in text and "All or Nothing Actions" in text, who


def test_an_attack_on_a_secret_npc_unfolds_for_all_with_no_figure_of_its_sheet(sh) -> None:
    """Alma's Knight of Swords + Melee 6 = 18 against the Wight's Defence 10 -> 8, Swords in full,
    and a Minor Critical: every seat unfolds it, and reads the Wight's Defence as a total ("the
    GM's figure" for its own part). The Wight's attack back (its Rends 17 in the event's GM
    part) unfolds for everyone with its skill "the GM's figure", the GM's twin with Rends 17;
    its resolution, public, names its cards and value only."""
    wight = services.character_create(
        table=sh["table"], actor=sh["gm"], name="Wight", npc=True,
        sheet={"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2, "quickness": 7,
               "protection": 3, "health": 40, "skills": "Rends: 17"})
    alma, ghost = cid(sh["alma"]), cid(wight)
    ok(sh, "gm", "set_weapons", table=BLADE)
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, wight.pk])
    ok(sh, "ann", "declare_focus", combatant=alma, focus="physical")
    ok(sh, "gm", "declare_focus", combatant=ghost, focus="physical")
    stack(sh, ALMA + ["C4", "P8", "W2", "S7", "S3"])
    ok(sh, "gm", "deal")
    ok(sh, "ann", "attack", combatant=alma, target=ghost, weapon="Blade", skill="melee", cards=["tarot:swords:12"])
    ok(sh, "gm", "defend", combatant=ghost, cards=[])
    struck = Event.objects.get(table=sh["table"], kind="shadows.attack_resolved")
    assert struck.summary == ("Alma strikes Wight with Blade: Knight of Swords + Melee 6 against Defence 10 -> 8, "
                              "Swords deal it in full; Minor Critical: Three of Swords +3: 11 damage "
                              "(Health -11, Life -11).")
    assert struck.payload["working"]["rule"] == w.CRITICAL
    ok(sh, "gm", "attack", combatant=ghost, target=alma, weapon="Blade", skill="rends", cards=["tarot:cups:4"])
    ok(sh, "ann", "defend", combatant=alma, cards=[])
    declared = Event.objects.filter(table=sh["table"], kind="shadows.attack_declared").last()
    assert declared.payload["working"]["steps"] == ["Four of Cups: 4 (the attack card)", "+ its skill (the GM's figure)",
                                                    "= attack 21"]
    assert "+ Rends 17" in declared.private["working"]["steps"]
    gm = read(sh, "gm")
    assert "<li>+ Rends 17</li>" in gm
    for who in ("ann", "bob", "watcher"):
        text = read(sh, who)
        assert "<li>= attack 18</li>" in text and "<li>18 - 10 = 8: a hit</li>" in text, who
        assert "<li>Defence: Wight's own (the GM's figure) = 10</li>" in text, who
        assert "<li>+ its skill (the GM's figure)</li>" in text and "<li>= attack 21</li>" in text, who
        assert [f for f in WIGHT_FIGURES if f in text] == [], who
