"""Issue 33, Demon City ("Fights that run to their end by themselves"), through the real views:
both NPCs go out, every seat reads that the fight is over, no new round starts, a move against
one who is out is refused and changes nothing, an Injury result stays final, the target lists start
on a standing enemy, and the end of the fight gives back what belongs to it. And the task's dice
that are the Host's to grant.

Seed 003: "At Current Toughness -1 they are out of the fight and roll on the Injury table"; step 8:
"Anyone who is present, out of the fight, still alive, and who needs to roll on the Injury table
because their last roll wasn't conclusive does"; step 9: "If characters are still involved in
Action after all that, start over at 1 above." The decided reading "003, damage belongs to the
fight": "when a fight ends, Current Toughness returns to Base for everyone not out of it; "out of
the fight" ends with the fight for the living. Who went out keeps the Injury result they rolled".
"""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.models import Event, ProcedureState, Role
from games.demon_city.state import current_pools, grouping
from tests.integration.test_demon_city_fights_end import HTMX, Dice, cid, select

OVER = "The fight is over: the players' side stands"
SEATS = ("gm", "ann", "bob", "watcher")


@pytest.fixture
def ward(db):
    """Agnes (Ann's) and Betty (Bob's) against two NPCs of the GM's, Orderly Kemp and Nurse
    Ratch, whose sides are left blank: the opposing side, as the table fills it in."""
    users = get_user_model()
    made = services.table_create(gm=users.objects.create_user("host", password="a long host password"),
                                 name="The Ward", system="demon_city")
    gm = made.members.get(role=Role.GM)
    ann = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    bob = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob")
    watcher = services.membership_join(table=made, user=services.guest_user_create(), role=Role.SPECTATOR,
                                       display_name="Watcher")
    w: dict[str, Any] = {"table": made, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher}
    w["agnes"] = services.character_create(table=made, actor=ann, name="Agnes", sheet={"agility": 2, "toughness": 3})
    w["betty"] = services.character_create(table=made, actor=bob, name="Betty",
                                           sheet={"agility": 5, "toughness": 3, "firearms": 5})
    w["kemp"] = services.character_create(table=made, actor=gm, name="Orderly Kemp", npc=True,
                                          sheet={"agility": 3, "toughness": 1})
    w["ratch"] = services.character_create(table=made, actor=gm, name="Nurse Ratch", npc=True,
                                           sheet={"agility": 4, "toughness": 1})
    w["clients"] = {}
    for key in SEATS:
        w["clients"][key] = Client()
        w["clients"][key].force_login(w[key].user)
    return w


def page(w, who: str) -> str:
    return html.unescape(w["clients"][who].get(reverse("table", args=[w["table"].pk])).content.decode())


def post(w, who: str, move: str, data: dict[str, Any]):
    return w["clients"][who].post(reverse("table_command", args=[w["table"].pk, move]), data, **HTMX)


def state(w) -> dict[str, Any]:
    return ProcedureState.objects.get(table=w["table"]).state


def roll(w, winner: str, after: list[int]) -> None:
    """The GM rolls every Clash: ``winner`` rolls all 9s, everyone else in a Clash all 2s, then
    the dice ``after`` (damage, then the Injury die)."""
    now = state(w)
    pools = current_pools(now)
    dice = [9 if actor == winner else 2 for clash in grouping(now).clashes for actor in clash.actors
            for _ in range(pools[actor].size)]
    services.procedure_command(table=w["table"], actor=w["gm"], command={"type": "roll"}, rng=Dice(dice + after))


def announce(w, who: str, fighter: str, kind: str, target: str | None = None):
    data = {"combatant": cid(w[fighter]), "kind": kind, "description": ""}
    if target:
        data["target"] = cid(w[target])
    return post(w, who, "announce", data)


def two_rounds(w) -> None:
    """Round 1: Agnes punches Kemp and wins; one damage die of 5 puts him at -4, and his Injury die
    of 4 is "Broken" (final). Round 2: Nurse Ratch claws Agnes first (her lowest of three damage
    dice is 1: Agnes at 2 of 3). Round 3: Betty shoots Ratch: a 6 puts her at -5, an 8 "Battered"."""
    assert post(w, "gm", "start", {"characters": [w[k].pk for k in ("agnes", "betty", "kemp", "ratch")]}
                ).status_code == 200
    assert announce(w, "ann", "agnes", "melee", "kemp").status_code == 200
    assert announce(w, "gm", "kemp", "melee", "agnes").status_code == 200
    assert announce(w, "gm", "ratch", "defend").status_code == 200
    assert announce(w, "bob", "betty", "defend").status_code == 200
    roll(w, cid(w["agnes"]), [5, 4])
    assert state(w)["combatants"][cid(w["kemp"])]["injury"] == "Broken"
    assert post(w, "gm", "next_round", {}).status_code == 200


def test_a_move_against_one_who_is_out_is_refused_and_the_target_starts_on_a_standing_enemy(ward) -> None:
    """The decided reading "All systems, fights": "the out are not targets of a rule move"; issue
    33: "A killed foe stays in the target list" and "Targets default to an ally"."""
    two_rounds(ward)
    targets = select(page(ward, "ann"), f"target-{cid(ward['agnes'])}")
    assert "Orderly Kemp" not in targets  # out of the fight: on no one's list
    options = targets[targets.index("<option"):]
    assert options.startswith(f'<option value="{cid(ward["ratch"])}" selected>Nurse Ratch</option>')
    assert options.index("Nurse Ratch") < options.index("Betty")  # an ally is offered, never first
    before = Event.objects.count()
    for kind in ("melee", "grab", "other"):
        refused = announce(ward, "ann", "agnes", kind, "kemp")
        assert refused.status_code == 400
        assert "Orderly Kemp is out of the fight and cannot be targeted." in html.unescape(refused.content.decode())
    assert Event.objects.count() == before and not state(ward)["actions"]


def test_both_npcs_out_every_seat_reads_the_fight_is_over_and_nothing_starts_by_itself(ward) -> None:
    """Issue 33: "both NPCs were out by round 4, yet rounds went on to round 13; players kept
    hitting the downed Orderly Kemp, and each hit rolled the Injury table again, so a conclusive
    "Broken" became a milder "Battered"."""
    two_rounds(ward)
    assert announce(ward, "ann", "agnes", "melee", "ratch").status_code == 200
    assert announce(ward, "gm", "ratch", "melee", "agnes").status_code == 200
    assert announce(ward, "bob", "betty", "shoot", "ratch").status_code == 200
    roll(ward, cid(ward["ratch"]), [1, 5, 6])  # Ratch acts: Agnes's lowest damage die is 1
    assert post(ward, "gm", "next_round", {}).status_code == 200
    for who, fighter in (("ann", "agnes"), ("gm", "ratch"), ("bob", "betty")):
        kind = "defend" if who == "ann" else ("melee" if who == "gm" else "shoot")
        target = {"gm": "betty", "bob": "ratch"}.get(who)
        assert announce(ward, who, fighter, kind, target).status_code == 200
    roll(ward, cid(ward["betty"]), [6, 8])
    now = state(ward)
    kemp, ratch = now["combatants"][cid(ward["kemp"])], now["combatants"][cid(ward["ratch"])]
    assert (kemp["injury"], ratch["injury"]) == ("Broken", "Battered")
    assert kemp["out_of_fight"] and ratch["out_of_fight"]
    kemp_rolls = [e for e in Event.objects.filter(kind="demon_city.injury_rolled")
                  if e.payload["event"]["combatant"] == cid(ward["kemp"])]
    assert len(kemp_rolls) == 1  # his final "Broken" was never rolled again

    pages = {who: page(ward, who) for who in SEATS}
    for who, text in pages.items():
        assert OVER in text, who
    assert "End the fight" in pages["gm"]
    assert all("End the fight" not in pages[who] for who in ("ann", "bob", "watcher"))
    assert ">Next round<" not in pages["gm"]  # the panel does not dead-end on a refused button

    before = Event.objects.count()
    refused = post(ward, "gm", "next_round", {})
    assert refused.status_code == 400 and "The fight is over" in html.unescape(refused.content.decode())
    assert Event.objects.count() == before and state(ward)["round"] == 3

    # the banner's "End the fight" posts the end: the fight's damage ends with it
    assert post(ward, "gm", "end", {}).status_code == 200
    ended = Event.objects.filter(kind="demon_city.action_rounds_ended").latest("seq")
    assert "Current Toughness returns to Base for Agnes." in ended.summary
    for key in ("agnes", "kemp", "ratch", "betty"):
        ward[key].refresh_from_db()
    assert (ward["agnes"].sheet["current_toughness"], ward["agnes"].sheet["injured"]) == (None, False)
    assert (ward["kemp"].sheet["out_of_fight"], ward["kemp"].sheet["current_toughness"],
            ward["kemp"].sheet["injury"]) == (False, -4, "Broken")
    assert (ward["ratch"].sheet["out_of_fight"], ward["ratch"].sheet["injury"]) == (False, "Battered")
    assert ward["betty"].sheet.get("current_toughness") is None
    assert all(OVER not in page(ward, who) for who in SEATS)


def test_the_task_s_situation_and_distraction_dice_are_the_host_s_to_grant(ward) -> None:
    """Seed: "If a task targets someone who is distracted ... the perpetrator also gets an extra
    die (the Distraction Die)"; "If a task has some other outside factor introduced that makes it
    more likely one side will win ... then that side gets another d10"; and "the Host may subtract
    up to two Lost Dice": the Host judges the situation. Issue 33: "a player asked for two
    Situation Dice and a Distraction Die and got them"."""
    url = reverse("table_check", args=[ward["table"].pk, "task"])
    ann = ward["clients"]["ann"]
    box = page(ward, "ann")
    box = box[box.index('class="task-box"'):]
    box = box[: box.index("</form>")]
    assert 'name="situation"' not in box and 'name="distracted"' not in box
    assert "Situation Dice, the Distraction Die and Lost Dice are the Host's to grant" in box
    before = Event.objects.count()
    for extra in ({"situation": ["a head start", "uneven ground"]}, {"distracted": "1"}, {"lost": ["drunk"]}):
        refused = ann.post(url, {"character": ward["agnes"].pk, "stat": "agility", "opponent": ward["kemp"].pk,
                                 **extra}, **HTMX)
        assert refused.status_code == 400 and "the Host's to grant" in html.unescape(refused.content.decode())
    assert Event.objects.count() == before
    # the player's plain task is rolled; the GM's, with the opponent's Situation Die, too
    assert ann.post(url, {"character": ward["agnes"].pk, "stat": "agility", "target_number": "3"},
                    **HTMX).status_code == 200
    gm_box = page(ward, "gm")
    assert gm_box.count('name="opponent_situation"') == 2
    done = ward["clients"]["gm"].post(url, {"character": ward["agnes"].pk, "stat": "agility",
                                            "opponent": ward["betty"].pk, "opponent_stat": "agility",
                                            "opponent_situation": ["Betty has the high ground"]}, **HTMX)
    assert done.status_code == 200
    task = Event.objects.filter(kind="demon_city.task_rolled").latest("seq").payload["task"]
    assert [d["kind"] for d in task["other_roll"]["pool"]["dice"]] == ["base", "skill", "situation"]


def test_a_character_cannot_be_its_own_opponent(ward) -> None:
    """Seed: "If two characters ... are competing at a task ... whichever has the higher stat gets
    to roll an extra die": a contest needs two."""
    url = reverse("table_check", args=[ward["table"].pk, "task"])
    before = Event.objects.count()
    refused = ward["clients"]["ann"].post(url, {"character": ward["agnes"].pk, "stat": "agility",
                                                "opponent": ward["agnes"].pk}, **HTMX)
    assert refused.status_code == 400
    assert "Agnes cannot be their own opponent" in html.unescape(refused.content.decode())
    assert Event.objects.count() == before
