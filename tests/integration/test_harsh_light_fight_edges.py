"""The edges of a Harsh Light fight (issue 33), through the routes as the page posts them: the
sides and who is out (the incapacitated), a fight over once one side has no one able to act, the
flags that end with it, the target lists, and everyone a simultaneous step waits for told.

The decided reading "All systems, fights": "who is out is the system's to say (... 002
incapacitated ...); the out are not targets of a rule move unless a seed's rule allows it; when
one side has no one able to act, the fight is over."
"""

from __future__ import annotations

import html
import re
from typing import Any

from games.harsh_light import SYSTEM
from tabletop.models import Event
from tests.integration.test_harsh_light_fights import (  # noqa: F401 (hl is a fixture)
    FORM, cid, hl, last, ok, page, post, state,
)

OVER = "The fight is over: the PCs' side stands"


def fight(hl, *order) -> None:
    ok(hl, "gm", "set_order", order=[c.pk for c in order])


def fell(hl, who) -> None:
    """The Storyteller's harm fills the track with lethal: bleeding out (health.py), out."""
    ok(hl, "gm", "harm", combatant=who.pk, points="8", kind="lethal", reason="a fall")


def banner(text: str) -> str:
    found = re.search(r'<div id="turn-banner"[^>]*>(.*?)</div>', text, re.S)
    assert found, text[:500]
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def select(text: str, form_label: str, name: str) -> list[tuple[str, bool]]:
    """The options of select ``name`` in the form labelled ``form_label``: (text, selected)."""
    form = re.search(rf'<form[^>]*aria-label="{re.escape(form_label)}"[^>]*>(.*?)</form>', text, re.S)
    assert form, form_label
    found = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', form.group(1), re.S)
    assert found, name
    return [(re.sub(r"<[^>]+>", "", label).strip(), " selected" in attrs)
            for attrs, label in re.findall(r"<option([^>]*)>(.*?)</option>", found.group(1), re.S)]


def chosen(options: list[tuple[str, bool]]) -> str:
    """What a select submits untouched: its option marked selected, else its first."""
    return next((label for label, on in options if on), options[0][0])


def test_the_system_declares_its_fights_and_the_gm_moves_a_character_to_a_side(hl) -> None:
    """The roster is the turn order; a side is the PCs' or the NPCs' unless the Storyteller moves
    one, and every seat reads the move in the log."""
    assert SYSTEM.fights is not None and SYSTEM.fights.end == "end_combat"
    fight(hl, hl["alfie"], hl["ghoul"], hl["betty"])
    assert 'aria-label="Move a character to a side"' in page(hl, "gm")
    assert 'aria-label="Move a character to a side"' not in page(hl, "ann")
    before = len(Event.objects.filter(table=hl["table"]))
    answer = post(hl, "ann", "set_side", character=hl["betty"].pk, side="Rivals")
    assert answer.status_code == 400 and "Only the GM can move to a side" in html.unescape(answer.content.decode())
    assert len(Event.objects.filter(table=hl["table"])) == before
    ok(hl, "gm", "set_side", character=hl["betty"].pk, side="Rivals")
    moved = last("side_set")
    assert moved.summary == "The GM moves Betty to the Rivals' side." and moved.audience == "everyone"
    for who in ("ann", "bob", "watcher"):
        assert "The GM moves Betty to the Rivals' side." in page(hl, who)
    assert state(hl)["sides"] == {cid(hl["betty"]): "Rivals"}
    # Betty is now Alfie's enemy: Alfie's attack form lists her with the Ghoul, neither an ally
    assert [label for label, _ in select(page(hl, "ann"), "Attack with Alfie", "target")] == ["Ghoul", "Betty"]
    refused = post(hl, "gm", "set_side", character=hl["betty"].pk, side="Rivals")
    assert refused.status_code == 400 and "Betty is already on the Rivals' side." in html.unescape(
        refused.content.decode())


def test_a_fight_over_says_so_to_every_seat_and_no_new_turn_starts_by_itself(hl) -> None:
    """When the Ghoul, the NPCs' one fighter, falls on its own turn, the turn stays where it is
    (before, it passed on to the next and wrapped into a new turn); every seat reads that the
    fight is over, the GM's banner carries "End the fight", and a player's "End the action" is
    refused with the reason."""
    fight(hl, hl["ghoul"], hl["alfie"], hl["betty"])
    assert state(hl)["acting"] == cid(hl["ghoul"])
    fell(hl, hl["ghoul"])
    now = state(hl)
    assert now["acting"] == cid(hl["ghoul"]) and now["turn"] == 1 and now["combat"]
    assert not Event.objects.filter(table=hl["table"], kind="harsh_light.turn_ended").exists()
    for who in ("gm", "ann", "bob", "watcher"):
        assert banner(page(hl, who)).startswith(f"{OVER}.")
    assert 'class="fight-end"' in page(hl, "gm") and "/commands/end_combat/" in page(hl, "gm")
    assert all('class="fight-end"' not in page(hl, who) for who in ("ann", "bob", "watcher"))
    before = (state(hl), Event.objects.filter(table=hl["table"]).count())
    refused = post(hl, "gm", "end_turn")
    assert refused.status_code == 400
    assert f"{OVER}: end the fight rather than pass the turn on." in html.unescape(refused.content.decode())
    assert (state(hl), Event.objects.filter(table=hl["table"]).count()) == before
    ok(hl, "gm", "end_combat")
    assert not state(hl)["combat"] and banner(page(hl, "ann")) == ""


def test_the_flags_of_the_fight_end_with_it(hl) -> None:
    """Seed: "You may only spend one Willpower per turn"; a Dodge doubles Defence "until your
    next turn"; "Each attack on an enemy lowers their Defence by 1 until their next action"; "In
    combat, you get one instant action per turn". The fight's end ends its turn: the point of the
    turn, the Dodge, the toll of attacks, the instant action taken, the move and the sides all go
    with it; Health stays as the fight left it."""
    fight(hl, hl["alfie"], hl["ghoul"], hl["betty"])
    ok(hl, "gm", "set_side", character=hl["betty"].pk, side="Rivals")
    ok(hl, "ann", "willpower", combatant=cid(hl["alfie"]), use="resist")
    ok(hl, "ann", "move", combatant=cid(hl["alfie"]))
    ok(hl, "ann", "dodge", combatant=cid(hl["alfie"]))
    mine = state(hl)["status"][cid(hl["alfie"])]
    assert mine["willpower_spent"] and mine["dodging"] and mine["acted"] and mine["moved"]
    fell(hl, hl["ghoul"])
    ok(hl, "gm", "end_combat")
    after = state(hl)
    assert "sides" not in after and not after["combat"] and after["order"] == [] and after["acting"] is None
    for flags in after["status"].values():
        assert not any(flags.values()), flags
    assert after["people"][cid(hl["ghoul"])]["track"]["out"]  # the harm stays
    ok(hl, "ann", "willpower", combatant=cid(hl["alfie"]), use="resist")  # a new turn: a point again


def test_the_out_leave_every_target_list_and_an_attack_on_one_is_refused(hl) -> None:
    """The out are no target of a rule move: the seed gives no rule that lets one be attacked.
    The attack form starts on a standing enemy, never an ally, and the general pull form's list
    names the enemies before the allies; once the Ghoul is out, neither lists it."""
    fight(hl, hl["alfie"], hl["ghoul"], hl["betty"])
    ann = page(hl, "ann")
    attack = select(ann, "Attack with Alfie", "target")
    assert attack == [("Ghoul", False), ("Betty (an ally)", False)] and chosen(attack) == "Ghoul"
    assert [label for label, _ in select(ann, "Set up a pull for Alfie", "target")] == [
        "nobody: a simple pull", "Ghoul", "Betty (an ally)"]
    ghoul_side = select(page(hl, "gm"), "Attack with Ghoul", "target")
    assert chosen(ghoul_side) == "Alfie" and ghoul_side[1] == ("Betty", False)
    fell(hl, hl["ghoul"])
    ann = page(hl, "ann")
    attack = select(ann, "Attack with Alfie", "target")
    assert attack == [("no standing enemy: choose whom", True), ("Betty (an ally)", False)]
    assert "Ghoul" not in [label for label, _ in select(ann, "Set up a pull for Alfie", "target")]
    before = (state(hl), Event.objects.filter(table=hl["table"]).count())
    refused = post(hl, "ann", "set_up_pull", **{**FORM, "target": str(hl["ghoul"].pk), "skill": "brawl"},
                   combatant=hl["alfie"].pk, attribute="strength")
    assert refused.status_code == 400
    assert ("Ghoul is bleeding out and cannot be attacked or pulled against: the Storyteller's harm and healing "
            "still reach them.") in html.unescape(refused.content.decode())
    assert (state(hl), Event.objects.filter(table=hl["table"]).count()) == before


def test_the_attack_form_starts_on_the_best_attack_skill(hl) -> None:
    """"A skill list on the character's best skill for the action": Alfie's Brawl 3 with
    Strength, in melee; the Storyteller sees the Ghoul's (its sheet is the GM's)."""
    fight(hl, hl["alfie"], hl["ghoul"], hl["betty"])
    ann = page(hl, "ann")
    assert chosen(select(ann, "Attack with Alfie", "skill")) == "Brawl"
    assert chosen(select(ann, "Attack with Alfie", "attribute")) == "Strength"
    assert chosen(select(ann, "Attack with Alfie", "attack")) == "in melee"
    assert "Attack with Ghoul" not in ann and "Attack with Ghoul" in page(hl, "gm")
    # the form as it stands makes an attack on the Ghoul with Strength + Brawl
    form = {"combatant": str(hl["alfie"].pk), "resist": "defence", "action": "instant", "target": cid(hl["ghoul"]),
            "attack": "melee", "attribute": "strength", "skill": "brawl", "weapon": "", "modifier": "0",
            "reason": "", "damage_bonus": "0", "damage": ""}
    ok(hl, "ann", "set_up_pull", **form)
    assert last("pull_set_up").summary.startswith("Alfie sets up an attack against Ghoul: pool")


def test_both_sides_of_a_contest_are_told_it_is_their_turn(hl) -> None:
    """A contest's sides pull in either order ("Both pull a card, add their pools and compare
    successes"): Ann's page and Bob's each read "Your turn", each with its own prompt, and the
    others read both names."""
    contest = {"combatant_a": hl["alfie"].pk, "attribute_a": "wits", "combatant_b": hl["betty"].pk,
               "attribute_b": "wits", "label": "a race"}
    ok(hl, "gm", "contest_start", **contest)
    assert banner(page(hl, "ann")) == "Your turn: pull for Alfie in a race."
    assert banner(page(hl, "bob")) == "Your turn: pull for Betty in a race."
    for who in ("gm", "watcher"):
        assert banner(page(hl, who)) == "Alfie pulls in a race; Betty pulls in a race."
    ok(hl, "bob", "contest_pull", contest=next(iter(state(hl)["contests"])), combatant=cid(hl["betty"]))
    assert banner(page(hl, "ann")) == "Your turn: pull for Alfie in a race."
    assert banner(page(hl, "bob")) == "Alfie pulls in a race."
