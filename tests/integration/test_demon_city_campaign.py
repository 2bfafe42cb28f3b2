"""Issue 35, Demon City ("A campaign, not an evening"): "a knocked-out character stays "out of
the fight" after the fight, and every later task is refused until the GM edits three fields".

Played through the real services, with no sheet edited by hand. The decided reading "003, damage
belongs to the fight": "when a fight ends, Current Toughness returns to Base for everyone not
out of it; "out of the fight" ends with the fight for the living. Who went out keeps the Injury
result they rolled until it heals: each row of the Injury table (the GM's to edit) says how long
it takes to heal (a scene, a night, a week, never); the Lost Die for Injury lasts while an
injury does." Seed 003: "At Current Toughness -1 they are out of the fight and roll on the
Injury table".
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tabletop import services
from tabletop.models import Character, Event, Role
from tabletop.services import ServiceError
from tests.integration.test_demon_city_fights_end import Dice  # a scripted Rng, so a test stages a knockout
from tests.support.kit import fold, stored_state


@pytest.fixture
def table(db):
    users = get_user_model()
    made = services.table_create(gm=users.objects.create_user("host", password="a long host password"),
                                 name="Demon City", system="demon_city")
    gm = made.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    agnes = services.character_create(table=made, actor=ann, name="Agnes", sheet={
        "agility": 2, "toughness": 3, "side": "players"})
    demon = services.character_create(table=made, actor=gm, name="Demon", npc=True, sheet={
        "agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"})
    return {"table": made, "gm": gm, "ann": ann, "agnes": agnes, "demon": demon}


def command(t, who: str, rng: Any, **cmd: Any) -> list[Event]:
    return services.procedure_command(table=t["table"], actor=t[who], command=cmd, rng=rng)


def task(t, rng: Any) -> Event:
    """Ann rolls Agnes's Agility 2 against difficulty 1 (a Skill Die), as her task form sends it."""
    return services.check_roll(table=t["table"], actor=t["ann"], check="task",
                               args={"character": t["agnes"].pk, "stat": "agility", "target_number": 1,
                                     "opponent": None, "opponent_stat": "agility", "distracted": False,
                                     "situation": (), "opponent_situation": (), "lost": ()}, rng=rng)


def knockout(t) -> None:
    """Agnes punches the Demon, the Demon claws her: 8 to her 2, its claws do 9 of her 3
    Toughness (the lowest of 9, 9, 9), and she rolls 6 on the Injury table: Knocked out."""
    c = {k: f"c{t[k].pk}" for k in ("agnes", "demon")}
    command(t, "gm", Dice([]), type="start", combatants=[c["agnes"], c["demon"]], injuries_count=False)
    command(t, "ann", Dice([]), type="announce", combatant=c["agnes"], kind="melee", target=c["demon"])
    command(t, "gm", Dice([]), type="announce", combatant=c["demon"], kind="melee", target=c["agnes"])
    rolled = command(t, "gm", Dice([2, 5, 8, 9, 9, 9, 6]), type="roll")
    assert any(e.summary.endswith("rolls 6 on the Injury table: Knocked out.") for e in rolled)


def sheet(t) -> dict[str, Any]:
    return dict(Character.objects.get(pk=t["agnes"].pk).sheet)


def test_after_a_knockout_the_fight_ends_and_a_later_task_is_not_refused(table) -> None:
    """The issue's 24 hand edits over 10 fights: none now. The end of the fight ends "out of the
    fight" for the living; the Injury result stays, with the Lost Die for Injury, until the
    clock heals it ("Knocked out" heals after a scene, by default)."""
    knockout(table)
    with pytest.raises(ServiceError, match="out of the fight"):
        task(table, Dice([5]))  # in the fight, she is out of it
    command(table, "gm", Dice([]), type="end")
    after = sheet(table)
    assert (after["out_of_fight"], after["injury"], after["injured"], after["current_toughness"]) == (
        False, "Knocked out", True, -6)

    rolled = task(table, Dice([7]))  # not refused, and nobody edited a sheet
    dice = rolled.payload["task"]["roll"]["pool"]["dice"]
    assert [d["kind"] for d in dice] == ["base", "skill", "lost_injury"]
    assert dice[-1]["reason"] == "Knocked out, not yet healed" and rolled.payload["task"]["roll"]["pool"]["size"] == 1

    passed = command(table, "gm", Dice([]), type="pass_time", span="scene")
    lines = [e.summary for e in passed]
    assert lines[0] == "The scene ends."
    assert ("Agnes heals: Knocked out is over (it heals after a scene). Current Toughness back to Base; "
            "no more Lost Die for Injury.") in lines
    healed = sheet(table)
    assert (healed["out_of_fight"], healed["injury"], healed["injured"], healed.get("current_toughness")) == (
        False, "", False, None)
    again = task(table, Dice([7, 2]))
    assert [d["kind"] for d in again.payload["task"]["roll"]["pool"]["dice"]] == ["base", "skill"]

    # every change of her sheet was a rule's write-back ("... sheet now holds ..."), none a hand edit
    changes = [e.summary for e in Event.objects.filter(kind="character.updated") if "Agnes" in e.summary]
    assert changes and all(line.startswith("Agnes's sheet now holds ") for line in changes)
    assert fold(table["table"]) == stored_state(table["table"])


def test_time_does_not_pass_in_a_fight_and_the_refusal_changes_nothing(table) -> None:
    """A round is "about 6 seconds of activity" (seed 003): the GM's clock waits for the fight's end."""
    knockout(table)
    before = (Event.objects.count(), stored_state(table["table"]), sheet(table))
    with pytest.raises(ServiceError, match="Time does not pass during Action Rounds"):
        command(table, "gm", Dice([]), type="pass_time", span="week")
    assert (Event.objects.count(), stored_state(table["table"]), sheet(table)) == before


def test_the_gm_takes_a_healing_back_and_the_sheet_holds_the_injury_again(table) -> None:
    """The GM's undo of the clock's step: the sheet holds again what the rules had left on it."""
    knockout(table)
    command(table, "gm", Dice([]), type="end")
    command(table, "gm", Dice([]), type="pass_time", span="night")
    assert sheet(table)["injury"] == ""
    command(table, "gm", Dice([]), type="undo")
    back = sheet(table)
    assert (back["injury"], back["injured"], back["current_toughness"]) == ("Knocked out", True, -6)
    assert fold(table["table"]) == stored_state(table["table"])

