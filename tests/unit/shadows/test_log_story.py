"""The log reads as a story (issue 23): "Ann's Alma strikes the Ghoul with her sword: King of
Cups + Melee 20 against Defence 5 -> 29, Swords deal it in full"; "each line can unfold to show
the arithmetic and the rule it applied (quoting the rule text where the system has it)".

Each rule a working quotes is seed 000's own words, as each test's docstring quotes them."""

from __future__ import annotations

import json

from games.shadows import working as w
from games.shadows.audiences import audience
from games.shadows.narrate import summary
from games.shadows.working import working
from tests.unit.shadows.kit import ANN, GM, Table, ann, character, of_type, stacked, t

# Ann: Melee 20 and Quickness 5 (8 AP, a hand of 8); the Ghoul: an NPC, Quickness 5, protection 2.
ANN_HAND = ["C14", "S13", "S7", "P10", "W1", "S5", "C2", "P2"]
GHOUL_HAND = ["C4", "P6", "W9", "S3", "C5", "P8", "W2", "S7"][:-1] + ["W12"]


def ghoul(**sheet) -> dict:
    return character("c3", "Ghoul", None, npc=True, **{"quickness": 5, "protection": 2, "skills": {"claws": 37},
                                                        "health": 60, "life": 60, **sheet})


def fight(after=(), modifier: str = "L2") -> Table:
    table = Table(stacked(ANN_HAND + GHOUL_HAND + list(after)))
    table.send(GM, "set_weapons", weapons=[{"name": "Sword", "type": "physical", "modifier": modifier,
                                            "fumble": 3, "critical": "cups", "modern": False, "ap": 1,
                                            "material": "steel"}])
    table.fight(ann(skills={"melee": 20}, quickness=5), ghoul())
    return table


def strike(table: Table, card: str, defence=()) -> tuple[dict, dict]:
    [declared] = table.send(ANN, "attack", combatant="c1", target="c3", weapon="Sword", cards=[t(card)],
                            skill="melee")
    [resolved] = of_type(table.send(GM, "defend", combatant="c3", cards=[t(c) for c in defence]),
                         "attack_resolved")
    return declared, resolved


def test_the_issues_attack_reads_as_a_story_and_unfolds_its_sum() -> None:
    """Seed: "Damage is determined by the attacker’s attack value, which is determined by an
    attack card played from the attacker’s hand (players choice) minus their opponents Defense
    value plus the attacker’s attack skill value", and with the attack's own suit "the full
    (positive, after the defensive adjustment) value is applied with a damage modifier". Alma's
    Queen of Swords (13) + Melee 20 = 33 against the Ghoul's Defence 7 -> 26 in full; the face
    card against no face in the defence draws a Minor Critical."""
    table = fight(after=["C3", "W9", "S4"])
    declared, resolved = strike(table, "S13")
    assert summary(declared, table.state) == "Ann attacks Ghoul with Sword: Queen of Swords + Melee 20 = attack 33."
    assert working(declared, table.state).steps == ("Queen of Swords: 13 (the attack card)", "+ Melee 20",
                                                    "= attack 33")
    line = summary(resolved, table.state)
    assert line.startswith("Ann strikes Ghoul with Sword: Queen of Swords + Melee 20 against Defence 7 -> 26, "
                           "Swords deal it in full; L2 adds 3; Minor Critical: Four of Swords +4: 33 damage")
    how = working(resolved, table.state)
    assert how.steps[:8] == (
        "Queen of Swords: 13 (the attack card)", "+ Melee 20", "= attack 33",
        "Defence: Ghoul's own (the GM's figure) = 7", "33 - 7 = 26: a hit",
        "The attack card is of Swords, the attack's own suit: the full 26",
        "+ L2 (draw two cards and use the lower value as the added damage): Three of Cups and Nine of Wands: 3",
        "+ Four of Swords: 4 (a Minor Critical)")
    assert how.steps[-2:] == ("= 33 damage", "Health -33, Life -33")
    assert how.rule == w.CRITICAL and how.source == "Combat Actions"
    assert audience(resolved).private == {}  # public: the working is everyone's, and names no sheet figure


def test_a_major_critical_unfolds_for_all_and_its_effect_only_in_the_gms_twin() -> None:
    """Seed: "This third card and any additional cards do more than just add additional damage;
    they also add effects indicating a Major Critical", and "I will not be posting the Critical
    Tables": the chain's cards and damage are everyone's working, the effect the GM's twin's."""
    table = fight(after=["C3", "W9", "S12", "C5"])  # L2's two cards, a Knight (Minor), Five of Cups (Major)
    _, resolved = strike(table, "S13")
    effect = resolved["criticals"][0]["effect"]
    assert audience(resolved).private["criticals"][0]["effect"] == effect
    how = working(resolved, table.state)
    assert "+ Five of Cups: 5 (a Major Critical: its effect is on the GM's table)" in how.steps
    assert how.steps[-2:] == ("= 46 damage", "Health -46, Life -46") and how.rule == w.CRITICAL
    assert effect not in json.dumps(how.data()) and "GM's table: Five" not in json.dumps(how.data())
    assert how.private.steps == (*how.steps[:-2], f"The GM's table: Five of Cups: {effect}", *how.steps[-2:])


def test_an_attack_of_the_wrong_suit_does_one_point_and_says_so() -> None:
    """Seed: "If the suit of the attack is not the associated suit ... then if the attack is
    positive it does one point of damage plus the damage modifier for the weapon or attack that
    was used"."""
    table = fight(after=["C3", "W9"], modifier="0")
    _, resolved = strike(table, "P10")
    how = working(resolved, table.state)
    assert "The attack card is not of Swords, the attack's own suit: 1 point" in how.steps
    assert how.rule == w.ONE and how.steps[-1] == "Health -1, Life -1"
    assert "Pentacles are not Swords: 1" in summary(resolved, table.state)


def test_a_miss_says_the_sum_was_not_positive() -> None:
    """Seed: the attack value minus the Defence; "If this is positive, then apply the following
    guidelines for damage dealt"; a dodge card "with Pentacle/Coins suited card values being
    doubled"."""
    table = fight()
    _, resolved = strike(table, "C2", defence=["P8"])  # 2 + 20 = 22 against 7 + Eight of Pentacles doubled
    how = working(resolved, table.state)
    assert how.steps[-2:] == ("Defence: Ghoul's own (the GM's figure) + Eight of Pentacles 16 (Pentacles count double) = 23",
                              "22 - 23 = -1: not positive, a miss")
    assert how.rule == w.ATTACK
    assert summary(resolved, table.state) == "Ann attacks Ghoul with Sword: Two of Cups + Melee 20 against Defence 23: a miss."


def test_an_npcs_attack_and_defence_show_no_figure_of_its_sheet_to_the_table() -> None:
    """Seeds README: an NPC's sheet is the GM's; "other seats see its name and what the rules
    make public (a total, a track) and nothing more". The Ghoul's Claws 37, its Quickness 5 and
    protection 2 stay out of every public line, payload and working; its declared attack (a GM's
    part: its skill) unfolds for everyone with its skill "the GM's figure", the whole sum the
    GM's twin."""
    table = fight(after=["C3", "W9", "S4"])
    _, resolved = strike(table, "S13")
    public = json.dumps(resolved) + summary(resolved, table.state) + json.dumps(working(resolved, table.state).data())
    assert "claws" not in public.lower() and not {"base", "protection"} & set(resolved["defence"])
    table.send(ANN, "end_turn", combatant="c1")
    [declared] = table.send(GM, "attack", combatant="c3", target="c1", weapon="Sword", cards=[t("W12")],
                            skill="claws")
    assert summary(declared, table.state) == "Ghoul attacks Ann with Sword: Knight of Wands (attack 49)."
    seen = audience(declared)
    assert seen.private["skill_value"] == 37  # the GM's part, and so the whole working's
    how = working(declared, table.state)
    assert how.steps == ("Knight of Wands: 12 (the attack card)", "+ its skill (the GM's figure)", "= attack 49")
    assert "claws" not in json.dumps(how.data()).lower() and "37" not in json.dumps(how.data())
    assert how.private.steps == ("Knight of Wands: 12 (the attack card)", "+ Claws 37", "= attack 49")
    [resolved] = of_type(table.send(ANN, "defend", combatant="c1", cards=[]), "attack_resolved")
    public = json.dumps(resolved) + summary(resolved, table.state) + json.dumps(working(resolved, table.state).data())
    assert "claws" not in public.lower() and "37" not in public
    assert "+ its skill (the GM's figure)" in working(resolved, table.state).steps
    assert "Defence: Quickness 5 = 5" in working(resolved, table.state).steps  # Ann's own: the table's


def check(table: Table, who: dict, **args) -> dict:
    base = {"character": who, "skill": "stealth", "attribute": "quickness", "complexity": "normal", "cards": 1}
    return of_type(table.send(GM if who.get("npc") else ANN, "check", **{**base, **args}), "check_made")[0]


def test_a_check_unfolds_its_card_what_is_added_and_the_band() -> None:
    """Seed: "To the randomized value of the card draw is added the character’s skill value and
    for that action and the most appropriate Attribute value for that action"; Normal: "<25
    25+ 40+"."""
    table = Table(stacked(["C9"]))
    made = check(table, ann(skills={"stealth": 4}, quickness=8))
    assert summary(made, table.state) == "Ann draws Nine of Cups + Stealth 4 + Quickness 8 on a Normal check: 21, a failure."
    how = working(made, table.state)
    assert how.steps == ("Nine of Cups: 9", "+ Stealth 4", "+ Quickness 8",
                         "= 21 on a Normal check (success 25+, critical success 40+): a failure")
    assert how.rule == w.ADDED and how.source == "All or Nothing Actions"


def test_three_cards_unfold_to_their_middle_value_and_a_king_to_its_extra_card() -> None:
    """Seed: "If three cards are drawn, then the middle value of the three cards is used";
    "If a single card was used and it is a King, then an additional card is drawn and its value
    added"."""
    table = Table(stacked(["C2", "S9", "W12", "C14", "S6"]))
    made = check(table, ann(skills={"stealth": 4}, quickness=8), cards=3)
    how = working(made, table.state)
    assert how.steps[0] == "Two of Cups, Nine of Swords and Knight of Wands: the middle value, 9"
    assert how.rule == f"{w.MIDDLE} {w.ADDED}"
    made = check(table, ann(skills={"stealth": 4}, quickness=8))
    how = working(made, table.state)
    assert how.steps[:2] == ("King of Cups: 14", "+ the King's extra card, Six of Swords: 6")
    assert how.steps[-1].startswith("= 32 on a Normal check") and how.rule == f"{w.KING} {w.ADDED}"


def test_a_fumble_unfolds_to_its_band_and_the_seeds_fumble_rule() -> None:
    """Seed: "if a one or ace value card is drawn ... then this indicates a possible fumble";
    "If this occurs when performing a skill check, the skill check automatically fails"."""
    table = Table(stacked(["C1"]))
    made = check(table, ann(skills={"stealth": 4}, quickness=8))
    how = working(made, table.state)
    assert how.steps == ("Ace of Cups: 1",
                         "1 is in the fumble band of a Normal check (a draw value of 1 or less): a fumble, the check fails")
    assert how.rule == f"{w.FUMBLE} … {w.FUMBLE_CHECK}"


def test_an_npcs_check_names_its_card_and_total_and_keeps_its_figures_the_gms() -> None:
    """Seeds README: an NPC's figures are the GM's: its check's line names the card and the
    total; its skill and attribute go to the GM's part. Everyone unfolds the card and the
    total, what it adds "the GM's figures"; the GM's twin has the sum."""
    table = Table(stacked(["C9"]))
    made = check(table, ghoul(), skill="claws")
    assert summary(made, table.state) == "Ghoul draws Nine of Cups on a Normal check: 51, a critical success."
    seen = audience(made)
    assert seen.private["skill_value"] == 37 and seen.private_audience == "gm"
    assert "(GM: Claws 37, Quickness 5.)" in seen.private_note
    how = working(made, table.state)
    assert how.steps == ("Nine of Cups: 9", "+ its skill and attribute, and any help or GM's modifier (the GM's figures)",
                         "= 51 on a Normal check (success 25+, critical success 40+): a critical success")
    assert how.rule == w.ADDED and [f for f in ("laws", "37", "Quickness") if f in json.dumps(how.data())] == []
    assert how.private.steps[1:3] == ("+ Claws 37", "+ Quickness 5")


def test_an_opposed_action_unfolds_each_side_and_an_npc_side_makes_it_the_gms() -> None:
    """Seed: "each drawing a single card from the Minor Arcana deck and adding their
    appropriate skill and attribute ... with the higher result being successful". Against an
    NPC, the sides (its skill and attribute) are the GM's part: everyone unfolds each side's
    cards and total, the NPC's additions "the GM's figures"; the GM's twin has them."""
    table = Table(stacked(["C9", "S3", "W5", "P4"]))
    alma = {"character": ann(skills={"chess": 3}, mind=5), "skill": "chess", "attribute": "mind"}
    [made] = of_type(table.send(GM, "opposed", sides=[alma, {"character": ghoul(mind=4), "skill": "",
                                                               "attribute": "mind"}]), "opposed_resolved")
    assert summary(made, table.state) == "Opposed: Ann draws Nine of Cups for 17, Ghoul draws Three of Swords for 7. Ann wins."
    how = working(made, table.state)
    assert how.steps == ("Ann: Nine of Cups + Chess and Mind 8 = 17",
                         "Ghoul: Three of Swords + its skill and attribute (the GM's figures) = 7",
                         "Ann is higher and wins")
    assert how.private.steps == ("Ann: Nine of Cups + Chess and Mind 8 = 17", "Ghoul: Three of Swords + Mind 4 = 7",
                                 "Ann is higher and wins")
    assert how.rule == w.OPPOSED and audience(made).private["sides"][1]["modifier"] == 4
    assert made["shown_sides"][1] == {"name": "Ghoul", "npc": True}  # what everyone reads of the NPC side
    bob = {"character": character("c2", "Bob", 3, skills={"chess": 1}, mind=6), "skill": "chess", "attribute": "mind"}
    [made] = of_type(table.send(GM, "opposed", sides=[alma, bob]), "opposed_resolved")
    assert audience(made).private == {}  # two players' sides: everyone's, working and all


def test_a_multi_draw_unfolds_each_draw_from_the_event_alone() -> None:
    """Seed: "Then multiple separate draws are made, with each draw indicating who is in the lead
    for that portion of time". What a side adds is not in the draw's event: the working says
    "with skill and attribute" and gives the totals, the lead and the score."""
    table = Table(stacked(["C9", "S3"]))
    sides = [{"character": ann(skills={"chess": 3}, mind=5), "skill": "chess", "attribute": "mind"},
             {"character": ghoul(mind=4, skills={"chess": 9}), "skill": "chess", "attribute": "mind"}]
    [started] = table.send(GM, "contest_start", sides=sides, mode="draws", draws=3, scoring="wins")
    assert audience(started).private["sides"][1]["modifier"] == 13  # the Ghoul's Chess and Mind: the GM's
    [drawn] = table.send(GM, "contest_draw", contest=started["id"])
    assert summary(drawn, table.state) == ("Draw 1: Ann's Nine of Cups makes 17 against Ghoul's Three of Swords "
                                           "makes 16; Ann leads.")
    how = working(drawn, table.state)
    assert how.steps == ("Ann: Nine of Cups, with skill and attribute: 17",
                         "Ghoul: Three of Swords, with skill and attribute: 16",
                         "Ann leads this draw", "Score: Ann 1, Ghoul 0")
    assert how.rule == w.MULTI and "13" not in " ".join(how.steps)


def test_a_focus_unfolds_to_the_hand_it_deals_and_an_npcs_stays_the_gms() -> None:
    """Seed: "Physical (physical attacks, movement, physical skills, etc): Body + 1/2xPhysical";
    the half rounds up (a reading, as for AP). Ann: Body 3 + half of Physical 3 (2) = 5 cards;
    the Ghoul's figures, like its hand's size, are the GM's part: everyone unfolds the formula,
    the GM's twin the figures."""
    table = Table()
    table.send(GM, "start_combat", combatants=[ann(body=3, physical=3), ghoul(body=6, physical=5)])
    [mine] = table.send(ANN, "declare_focus", combatant="c1", focus="physical")
    how = working(mine, table.state)
    assert how.steps == ("Body 3", "+ half of Physical 3, rounded up: 2", "= 5 cards for the round")
    assert how.rule == w.HANDS["physical"] and audience(mine).private == {}
    [its] = table.send(GM, "declare_focus", combatant="c3", focus="physical")
    assert audience(its).private == {"size": 9, "hand_from": {"body": 6, "physical": 5}}
    how = working(its, table.state)
    assert how.steps == ("Body + half of Physical, rounded up: the GM's figures",
                         "= its hand for the round (the GM's figure)")
    assert how.rule == w.HANDS["physical"] and how.private.steps[-1] == "= 9 cards for the round"


def test_a_fumbled_check_says_it_came_with_the_help_it_spent() -> None:
    """Seed 000: assistance is "added to the value of the attempt by the primary character"; the
    GM's approval is spent on the check it counts on, so a fumbled one's line says it had help
    (the line read the same as a check without it)."""
    from games.shadows.story import check_line

    event = {"name": "Alma", "complexity": "normal", "from_hand": False, "cards": ["tarot:cups:1"], "count": 1,
             "drawn": "Ace of Cups", "extra": None, "band": "fumble", "assistance": 4}
    assert check_line(event).startswith("Alma draws ") and " with help on a" in check_line(event)
    assert "a fumble!" in check_line(event)
    assert " with help" not in check_line({**event, "assistance": 0})
