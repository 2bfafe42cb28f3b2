"""Issue 23, every seat unfolds the log: a line whose event keeps an NPC's figures in the GM's part
(its initiative, Willpower, pulls, moves and Dodge, an attack on its Defence, its blow's damage, its
Stamina pull) now unfolds ("How") for the players and the spectators too, with the NPC's figures
said as "the GM's figure", on the page and in the export; the GM reads the whole working, its
private twin. No figure of the NPC's secret sheet reaches anyone else."""

from __future__ import annotations

import json
from typing import Any

from games.harsh_light.audiences import RECKONED_GM
from tabletop.models import Event
from tests.integration.test_harsh_light_enforced import (
    SECRET, export, fight_with_the_revenant, numbers, page, unquoted,
)
from tests.integration.test_harsh_light_story import workings
from tests.integration.test_harsh_light_table import (  # noqa: F401 (hl is a fixture)
    bring_out_deck, cid, hl, last, ok,
)

GM_FIGURE = "the GM's figure"


def rows_of(hl: dict[str, Any], who: str, kind: str) -> list[dict[str, Any]]:
    """The export's lines of ``kind`` whose event keeps a figure of its own line in the GM's part
    (its public payload names which keys: ``gm_figures``; what the move reckoned of the NPC after
    it, ``reckoned_gm``, is no figure of the line)."""
    return [r for r in export(hl, who)["events"]
            if r["kind"] == f"harsh_light.{kind}" and set(r["data"]["event"].get("gm_figures") or ()) - {RECKONED_GM}]


def everyone_unfolds(hl: dict[str, Any], kinds: tuple[str, ...], secret: set[str], words: tuple[str, ...] = ()
                     ) -> None:
    """For each of ``kinds``: the player's and the spectator's export give every line of it a
    working that says the GM's figure, and neither it nor the line holds any of ``secret``
    (numbers) or ``words``; their
    page unfolds it; the GM's export and page hold the whole working, its private twin."""
    for who in ("ann", "watcher"):
        shown = [unquoted(one) for one in workings(page(hl, who))]
        assert [one for one in shown if numbers(one) & secret or any(w in one for w in words)] == [], who
        for kind in kinds:
            rows = rows_of(hl, who, kind)
            assert rows, (who, kind)
            for row in rows:
                assert "private" not in row, (who, kind)
                made = row["data"]["working"]
                assert any(GM_FIGURE in step for step in made["steps"]) and made["rule"], (who, kind, made)
                blob = unquoted(json.dumps(made, ensure_ascii=False)) + " " + row["summary"]
                assert not numbers(blob) & secret and not any(w in blob for w in words), (who, kind, made)
                assert any(all(step in one for step in made["steps"]) for one in shown), (who, kind, made)
    gm_shown = workings(page(hl, "gm"))
    for kind in kinds:
        for row in rows_of(hl, "gm", kind):
            whole = row["private"]["working"]
            if "automatic" not in row["data"]["event"]["gm_figures"]:  # whether a set-up is sure is the GM's
                assert row["data"]["working"]["rule"] == whole["rule"], kind  # the seed's rule is public
            assert not any(GM_FIGURE in step for step in whole["steps"]), (kind, whole)
            assert any(all(step in one for step in whole["steps"]) for one in gm_shown), (kind, whole)


def test_a_fight_with_a_secret_npc_unfolds_for_every_seat(hl) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it ... other seats see its name
    and what the rules make public". The Revenant's initiative, Willpower, attack, move and Dodge,
    Alfie's attacks on its Defence, its contest and extended pulls: each line unfolds for Ann and
    the spectator, without the Revenant's Defence 19, Speed 77, Willpower 18 (17 left), pool 19 or
    any total counted from them; the GM reads those in the whole working."""
    fight_with_the_revenant(hl)
    kinds = ("order_set", "willpower_spent", "pulled", "moved", "dodged", "pull_set_up", "contest_pulled",
             "extended_pulled")
    everyone_unfolds(hl, kinds, SECRET, ("Strength 10", "Brawl 9", "Composure 9", "Dexterity + Composure 19"))
    private = {r["kind"]: r["private"]["working"]["steps"] for r in export(hl, "gm")["events"]
               if "working" in r.get("private", {})}
    assert "Revenant: Dexterity + Composure 19" in " ".join(private["harsh_light.order_set"])
    assert "17 points left" in private["harsh_light.willpower_spent"]
    assert private["harsh_light.moved"] == ["Speed now: 77 steps"]
    assert private["harsh_light.dodged"][0] == "Defence 19 × 2 = 38"
    assert "- Revenant's Defence 19" in private["harsh_light.pull_set_up"]
    assert private["harsh_light.extended_pulled"][:3] == ["Strength 10", "+ Brawl 9", "= pool 19"]
    assert private["harsh_light.contest_pulled"][0] == "Composure 9"
    # Alfie's own pool stays his to see, the Revenant's Defence in it the GM's
    alfie = [r for r in rows_of(hl, "ann", "pulled") if r["data"]["event"]["combatant"] == cid(hl["alfie"])]
    assert alfie and alfie[0]["data"]["working"]["steps"][:2] == [
        f"Strength 4 + Brawl 3 - Revenant's Defence ({GM_FIGURE})", f"= pool: {GM_FIGURE}"]


def test_an_npc_s_blow_unfolds_without_its_pool_or_its_bonus(hl) -> None:
    """Our reading (the seed is silent on damage): "a successful attack deals its successes in damage,
    plus the weapon's bonus and any bonus the attack names". The Revenant's set-up, its pull and the
    damage it deals Betty unfold for everyone; its pool (Strength 10 + Brawl 9 less Betty's
    Defence) and the +4 the GM named are the GM's figures."""
    revenant = fight_with_the_revenant(hl)
    ok(hl, "gm", "set_up_pull", combatant=revenant.pk, attribute="strength", skill="brawl",
       target=hl["betty"].pk, resist="defence", attack="melee", damage_bonus="4")
    ok(hl, "gm", "pull", combatant=cid(revenant), set_up="1")
    blow = last("damaged")
    assert blow.private["weapon"]["extra"] == 4 and "weapon" not in blow.payload["event"]
    everyone_unfolds(hl, ("pull_set_up", "pulled", "damaged"), SECRET, ("+4", "+ 4", "Strength 10", "Brawl 9"))
    whole = blow.private["working"]["steps"]
    assert "+ 4 for the attack" in whole
    shown = blow.payload["working"]["steps"]
    assert shown[1] == f"+ its weapon and any bonus the attack names: {GM_FIGURE}"
    assert shown[2] == f"= {blow.payload['event']['points']} lethal"  # the damage itself is everyone's


def test_an_npc_s_stamina_pull_to_stay_conscious_unfolds_for_everyone(hl) -> None:
    """Our reading of the World of Darkness (the seed is silent): with bashing in the last box, a
    Stamina pull keeps the character conscious. The Ghoul's pull unfolds for everyone; its Stamina
    and total are the GM's."""
    ghoul = hl["ghoul"]
    bring_out_deck(hl)
    ok(hl, "gm", "harm", combatant=ghoul.pk, points="6", kind="bashing")  # Stamina 1 + Size 5: the last box
    pulled = last("consciousness_pulled")
    figures = pulled.private["figures"]
    secret = (f"Stamina {figures['pool']['size']}", f"total {figures['total']}")
    assert pulled.private["working"]["steps"][:2] == ["Stamina 1", "= pool 1"]
    everyone_unfolds(hl, ("consciousness_pulled",), set(), secret)
    assert pulled.payload["working"]["steps"][0] == f"pool: {GM_FIGURE}"
    assert Event.objects.filter(table=hl["table"], kind="harsh_light.consciousness_pulled").count() == 1
