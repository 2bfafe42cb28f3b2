"""Fights that end (issue 22): an attack marks the target's Health, wounds cost pools, bashing in
the last box calls for a Stamina pull, a character out of the fight takes no turn and no action,
and the Storyteller harms and heals. World of Darkness words are quoted where they decide."""

from __future__ import annotations

import pytest

from games.contract import GM_SEAT, Seat
from games.core.engine import NotYourMove, RuleError
from games.harsh_light import SYSTEM
from games.harsh_light.panel import view
from games.harsh_light.health import AGGRAVATED, BASHING, LETHAL
from tests.unit.harsh_light.conftest import Table, player, sheet

ANN, BOB = player("c1", member=2), player("c2", member=3, name="Bo")


def duel(**bob: object) -> Table:
    """Ann (Strength 3, Dexterity 3, Brawl 2, Firearms 2, a Knife +1) against Bob (Defence 2,
    Stamina 2: Health 7)."""
    return Table(c1=sheet("Ann", strength=3, dexterity=3, skills={"Brawl": 2, "Firearms": 2}, weapon="Knife",
                          weapon_damage=1),
                 c2=sheet("Bob", **bob), c3=sheet("Cal"))


def hit(t: Table, card: int, **attack: object) -> dict:
    return t.pull("c1", [card], attribute="strength", skill="brawl", target="c2", resist="defence", **attack)


def wounds(t: Table, cid: str = "c2") -> dict[str, int]:
    return {k: t.sheets[cid].get(k, 0) for k in (AGGRAVATED, LETHAL, BASHING)}


def test_an_unarmed_hit_deals_its_successes_in_bashing() -> None:
    """Damage "equal to the attack's successes" (issue 22), bashing for fists (the rulebook:
    "most harm from brawling combat, punches, kicks")."""
    t = duel()
    record = hit(t, 9)  # Strength 3 + Brawl 2 - Defence 2 + 9 = 12: two successes
    assert record["successes"] == 2 and record["damage"] == {"points": 2, "kind": BASHING}
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 0, BASHING: 2}  # written back to Bob's sheet
    assert t.lines[-1] == ("Bob takes 2 bashing from Ann's attack (2 successes): "
                           "Health / / · · · · · (2 bashing of 7).")


def test_a_weapon_adds_its_bonus_and_deals_lethal() -> None:
    """"plus a weapon's damage bonus where the sheet gives one"; lethal for weapons (issue 22)."""
    t = duel()
    hit(t, 9, weapon="sheet")
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 3, BASHING: 0}
    assert "(2 successes, Knife +1)" in t.lines[-1]
    t.send({"type": "end_turn"})
    hit(t, 6, damage_bonus=2, damage=AGGRAVATED)  # 1 success + 2, chosen aggravated
    assert wounds(t) == {AGGRAVATED: 3, LETHAL: 3, BASHING: 0}
    assert "+2 for the attack" in t.lines[-1]


def test_a_miss_and_a_dramatic_failure_do_no_harm() -> None:
    t = duel(defence=6)
    record = hit(t, 5)  # 5 - 6 + 5 = 4: no success
    assert record["damage"] is None and "damaged" not in [e["type"] for e in t.log]
    t.send({"type": "end_turn"})
    record = hit(t, 1)  # a pool of -1 and an Ace
    assert record["dramatic"] and wounds(t) == {AGGRAVATED: 0, LETHAL: 0, BASHING: 0}


def test_an_attack_form_s_weapon_must_be_on_the_sheet_and_its_damage_a_kind() -> None:
    t = duel()
    with pytest.raises(RuleError, match="Bob has no weapon on its sheet"):
        t.pull("c2", [5], attribute="strength", target="c1", resist="defence", weapon="sheet")
    with pytest.raises(RuleError, match="Damage is bashing, lethal or aggravated"):
        hit(t, 5, damage="fire")
    with pytest.raises(RuleError, match="A damage bonus is from 0 to 10"):
        hit(t, 5, damage_bonus=11)
    assert wounds(t)[BASHING] == 0 and not [e for e in t.log if e["type"] == "pulled"]


def test_wounds_cost_every_pool() -> None:
    """The rulebook: "-1 -2 -3" as the last boxes fill, on dice pools; "Wound penalties do not
    apply to your character's Defense or other Resistance traits"."""
    t = duel(lethal=5)
    record = t.pull("c2", [5], attribute="wits", action="reflexive")
    assert record["pool"]["parts"] == [["Wits", 2], ["wound penalty", -1]]
    defended = hit(t, 5)
    assert defended["pool"]["parts"][-1] == ["Bob's Defence", -2]  # not lowered by Bob's wounds
    t.send({"type": "extended_start", "combatant": "c2", "attribute": "wits", "needed": 5})
    t.send({"type": "extended_pull", "extended": "x1"}, [5])
    # Ann's hit took a sixth box: -2
    assert t.state["extended"]["x1"]["pulls"][0]["pool"]["parts"][-1] == ["wound penalty", -2]


def test_firearms_deal_a_vampire_bashing() -> None:
    """The Requiem: "the undead take bashing damage from firearms ... This does not apply to
    archaic weapons". Our reading: a firearm is an attack pulled with Firearms; a kind chosen on
    the form is taken as chosen (an arrow stays lethal). Not halved."""
    for bob, kind in (({}, LETHAL), ({"blood_potency": 1}, BASHING), ({"vampire": True}, BASHING)):
        t = duel(**bob)
        record = t.pull("c1", [9], attribute="dexterity", skill="firearms", target="c2", resist="defence",
                        attack="ranged", damage_bonus=2)  # 3 + 2 + 9 = 14: three successes, and Defence no part
        assert record["damage"] == {"points": 5, "kind": kind}
    assert "a firearm deals a vampire bashing, as the Requiem has it" in t.lines[-1]
    t = duel(vampire=True)
    t.pull("c1", [9], attribute="dexterity", skill="firearms", target="c2", resist="defence", attack="ranged",
           damage=LETHAL)
    assert wounds(t)[LETHAL] == 3


def fight() -> Table:
    t = duel(bashing=6)
    t.send({"type": "set_order", "order": ["c1", "c2", "c3"]})
    return t


def test_bashing_in_the_last_box_calls_for_a_stamina_pull_and_a_failure_knocks_out() -> None:
    """"Once all your character's Health boxes are full and the rightmost is occupied with a slash,
    begin making Stamina rolls to see if he remains conscious. (Remember that your character's -3
    wound penalty does not apply to these rolls.)" Our reading: a pull of Stamina alone, at once."""
    t = fight()
    t.send({"type": "pull", "combatant": "c1", "attribute": "strength", "skill": "brawl", "target": "c2",
            "resist": "defence"}, [6, 4])  # one success: the last box; then Stamina 2 + 4 = 6
    [stamina] = [e for e in t.log if e["type"] == "consciousness_pulled"]
    assert stamina["record"]["pool"]["parts"] == [["Stamina", 2]] and not stamina["conscious"]
    assert t.sheets["c2"]["unconscious"] is True
    assert t.lines[-1].startswith("Bob pulls Stamina to stay conscious: Four of Spades + pool 2 = 6, no successes")
    assert t.lines[-1].endswith("Bob falls unconscious.")
    # out: no Defence, no action, and the turn passes over him
    assert t.state["people"]["c2"]["defence"] == 0  # Defence as the move left it (reckon.py)
    with pytest.raises(RuleError, match="Bob is unconscious: no Willpower"):
        t.send({"type": "willpower", "combatant": "c2", "use": "resist"}, actor=BOB)
    t.send({"type": "end_turn"})
    assert t.state["acting"] == "c3" and t.lines[-2:] == ["Ann's action is done. Bob acts.",
                                                          "Bob is unconscious: no action. Cal acts."]


def test_a_passed_stamina_pull_acts_and_pulls_again_next_turn() -> None:
    """The rulebook's Stamina roll is made each turn: at the start of Bob's action, once a turn."""
    t2 = fight()
    t2.send({"type": "pull", "combatant": "c1", "attribute": "strength", "skill": "brawl", "target": "c2",
             "resist": "defence"}, [6, 7])  # Stamina 2 + 7 = 9: conscious
    assert not t2.sheets["c2"].get("unconscious")
    t2.send({"type": "end_turn"})  # Bob's turn: pulled already this turn, he acts
    assert t2.state["acting"] == "c2" and [e["type"] for e in t2.log].count("consciousness_pulled") == 1
    assert t2.pull("c2", [5], attribute="wits")["pool"]["parts"][-1] == ["wound penalty", -3]
    t2.send({"type": "end_turn"})
    t2.send({"type": "end_turn"}, [2])  # turn 2: Ann, then Bob's start brings a pull, failed
    t2.send({"type": "end_turn"}, [2])
    assert t2.state["turn"] == 2 and t2.state["acting"] == "c3" and t2.sheets["c2"]["unconscious"]
    assert [e["type"] for e in t2.log].count("consciousness_pulled") == 2


def test_a_vampire_is_never_knocked_out_by_bashing() -> None:
    """The Requiem: "vampires are never knocked unconscious by bashing damage ... any further
    points of bashing damage ... upgrade the least severe of his existing wounds"."""
    t = duel(bashing=6, blood_potency=2)
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    hit(t, 9)
    assert "consciousness_pulled" not in [e["type"] for e in t.log] and not t.sheets["c2"]["unconscious"]
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 1, BASHING: 6}
    t.send({"type": "end_turn"})
    assert t.state["acting"] == "c2"


def test_lethal_in_the_last_box_bleeds_out_until_tended_or_dead() -> None:
    """"If your mortal character's Health chart is filled with X's, he's on death's door ... Each
    minute thereafter in which your character receives no medical attention ... One Health box
    currently marked with an X is upgraded ... Once all boxes are filled with asterisks, he's
    dead." Our reading: the Storyteller marks each minute (one lethal on that full track)."""
    t = duel(lethal=5)
    hit(t, 6, weapon="sheet")  # one success and the Knife's +1
    assert t.lines[-1].endswith("(7 lethal of 7), -3 to pools and Speed; bleeding out.")
    with pytest.raises(RuleError, match="Bob is bleeding out: no pull"):
        t.pull("c2", [5], attribute="wits", actor=BOB)
    t.send({"type": "harm", "combatant": "c2", "points": 1, "kind": LETHAL,
            "reason": "a minute bleeding out, untended"})
    assert wounds(t) == {AGGRAVATED: 1, LETHAL: 6, BASHING: 0}
    assert t.lines[-1].startswith("The Storyteller deals Bob 1 lethal (a minute bleeding out, untended): Health ✱ X")
    t.send({"type": "harm", "combatant": "c2", "points": 6, "kind": LETHAL})
    assert t.lines[-1].endswith("; dead.")
    with pytest.raises(RuleError, match="Bob is dead: no more harm to do"):
        t.send({"type": "harm", "combatant": "c2", "points": 1})
    t.send({"type": "heal", "combatant": "c2", "points": 1, "kind": AGGRAVATED})  # the Storyteller corrects it
    assert wounds(t)[AGGRAVATED] == 6 and "dead" not in t.lines[-1]


def test_a_vampire_full_of_lethal_falls_into_torpor() -> None:
    t = duel(lethal=6, vampire=True)
    hit(t, 9, weapon="sheet")
    assert t.lines[-1].endswith("; in torpor.")


def test_the_storyteller_heals_the_least_severe_first_and_wakes_the_unconscious() -> None:
    """"Your character's least severe injury (that in the rightmost box) is recovered first";
    our reading: healing that empties the last box wakes an unconscious character."""
    t = duel(lethal=2, bashing=5, unconscious=True)
    with pytest.raises(NotYourMove, match="Only the GM can heal"):  # the core's refusal
        t.send({"type": "heal", "combatant": "c2", "points": 1}, actor=BOB)
    with pytest.raises(NotYourMove, match="Only the GM can deal harm"):
        t.send({"type": "harm", "combatant": "c1", "points": 1}, actor=BOB)
    with pytest.raises(RuleError, match="Bob has no aggravated wounds to heal"):
        t.send({"type": "heal", "combatant": "c2", "points": 1, "kind": AGGRAVATED})
    t.send({"type": "heal", "combatant": "c2", "points": 2})
    assert wounds(t) == {AGGRAVATED: 0, LETHAL: 2, BASHING: 3} and t.sheets["c2"]["unconscious"] is False
    assert t.lines[-1] == ("The Storyteller heals 2 boxes of Bob's wounds: Health X X / / / · · "
                           "(2 lethal, 3 bashing of 7), -1 to pools and Speed. Bob comes to.")


def test_whoever_is_out_takes_no_turn_and_a_fight_nobody_can_act_in_ends() -> None:
    """Issue 22: "a character unconscious or dead takes no turn and is not offered actions"."""
    t = Table(c1=sheet("Ann"), c2=sheet("Bob", unconscious=True, bashing=7), c3=sheet("Cal"))
    t.send({"type": "set_order", "order": ["c2", "c1", "c3"]})
    assert t.state["acting"] == "c1" and t.lines[-1] == "Bob is unconscious: no action. Ann acts."
    t.send({"type": "harm", "combatant": "c1", "points": 7, "kind": LETHAL})  # the one acting falls
    assert t.state["acting"] == "c3" and t.lines[-1] == "Ann is bleeding out: no action. Cal acts."
    with pytest.raises(RuleError, match="Ann is bleeding out: no Dodge"):
        t.send({"type": "dodge", "combatant": "c1"})
    t.send({"type": "harm", "combatant": "c3", "points": 7, "kind": AGGRAVATED})
    assert not t.state["combat"]
    assert t.lines[-1] == "The fight is over, nobody in the fight can act: the turn order is put away."


def test_an_unconscious_character_has_no_defence_and_is_no_target() -> None:
    """Our reading: the World of Darkness gives no Defence to one who cannot move (the panel
    shows Defence 0); and the decided reading: the out are no target of a rule move unless a rule
    of the seed allows it (the seed gives none), so the attack is refused and nothing is drawn."""
    t = duel(unconscious=True, bashing=7)
    t.send({"type": "harm", "combatant": "c3", "points": 1, "kind": BASHING})  # a move: the rules reckon Bob
    assert t.state["people"].get("c2", {}).get("defence", 0) == 0
    before = (len(t.log), dict(t.state["status"]))
    with pytest.raises(RuleError, match=r"^Bob is unconscious and cannot be attacked or pulled against: "
                                        r"the Storyteller's harm and healing still reach them\.$"):
        hit(t, 2)
    with pytest.raises(RuleError, match="Bob is unconscious and cannot be attacked"):
        t.send({"type": "set_up_pull", "combatant": "c1", "attribute": "wits", "target": "c2", "resist": "composure"})
    assert (len(t.log), dict(t.state["status"])) == before and t.drawn == []
    t.send({"type": "harm", "combatant": "c2", "points": 1, "kind": LETHAL})  # the Storyteller's harm reaches him
    assert wounds(t)[LETHAL] == 1


def test_every_seat_sees_health_an_npc_s_too_and_none_of_its_other_figures() -> None:
    """Issue 22: "Health is harm everyone watches, so show an NPC's Health track to all while
    keeping its other figures the GM's"."""
    t = Table(c1=sheet("Ann", skills={"Brawl": 2}), c2={**sheet("Ghoul", stamina=3, lethal=6), "npc": True})
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    for seat in (Seat("player", member=2, controls=frozenset({"c1"}), hidden=frozenset({"c2"})),
                 Seat("spectator", hidden=frozenset({"c2"})), GM_SEAT):
        ghoul = next(p for p in view(t.state, seat)["order"] if p["id"] == "c2")
        assert ghoul["health"]["words"] == "6 lethal of 8" and ghoul["health"]["penalty"] == -1
        assert [b["mark"] for b in ghoul["health"]["boxes"]] == ["X"] * 6 + ["", ""]
        assert ("defence" in ghoul) == seat.is_gm and ghoul["figures"] == seat.is_gm
    assert view(t.state, GM_SEAT)["out_ids"] == []
    t.send({"type": "harm", "combatant": "c2", "points": 2, "kind": LETHAL})
    seen = view(t.state, Seat("spectator", hidden=frozenset({"c2"})))
    ghoul = next(p for p in seen["order"] if p["id"] == "c2")
    assert seen["out_ids"] == ["c2"] and ghoul["out"] and ghoul["health"]["state"] == "bleeding out"
    assert ghoul["health"]["bleeding"]  # the Storyteller's "a minute untended" button


def test_the_card_shows_health_and_an_npc_s_card_keeps_only_the_harm() -> None:
    """The character card (GameSystem.glance), and what others see of an NPC's (npc_glance)."""
    seen = SYSTEM.glance({**sheet("Ghoul", stamina=3, blood_potency=2, weapon="Cleaver", weapon_damage=2),
                          "bashing": 7, "unconscious": True})
    assert seen.tracks[0] == ("Health", 1, 8) and seen.out
    assert ("Health", "/ / / / / / / ·") in seen.stats and ("Weapon", "Cleaver +2") in seen.stats
    assert seen.tags[:2] == ("Wounded: -2 to pools and Speed", "Unconscious") and "Blood Potency 2" in seen.tags
    shown = SYSTEM.npc_glance(seen)
    assert shown.tracks == (("Health", 1, 8),) and shown.stats == (("Health", "/ / / / / / / ·"),)
    assert shown.tags == ("Wounded: -2 to pools and Speed", "Unconscious") and shown.out


def test_a_foe_who_falls_as_its_turn_comes_ends_the_fight_and_the_turn_stays() -> None:
    """The decided reading: "when one side has no one able to act, the fight is over"; issue 33:
    no new Turn starts by itself. The Ghoul, the NPCs' one fighter, fails its Stamina pull as its
    action begins ("begin making Stamina rolls to see if he remains conscious"): the turn stays on
    it, no new turn begins, and ending the action is refused until the Storyteller ends the fight."""
    t = Table(c1=sheet("Ann"), c2={**sheet("Ghoul", bashing=7), "npc": True})
    t.send({"type": "set_order", "order": ["c1", "c2"]})
    t.send({"type": "end_turn"}, [2])  # Stamina 2 + 2 = 4: no success
    assert t.sheets["c2"]["unconscious"] is True
    assert t.state["acting"] == "c2" and t.state["turn"] == 1 and t.state["combat"]
    assert t.lines[-1].endswith("Ghoul falls unconscious.")
    with pytest.raises(RuleError, match=r"^The fight is over: the PCs' side stands: end the fight rather than "
                                        r"pass the turn on\.$"):
        t.send({"type": "end_turn"})
    t.send({"type": "end_combat"})
    assert not t.state["combat"] and "sides" not in t.state
