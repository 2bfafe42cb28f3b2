"""Issue 22, Demon City ("Fights that end"): a character's own skills in a task, and character
cards that follow Action Rounds live.

Seed 003: "All character stats are ranked from 0-9"; a task is won by "the higher stat" and its
Skill Die; in Action Rounds "the target subtracts that number from their Current Toughness. At
Current Toughness -1 they are out of the fight".
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import MutableSequence, Sequence
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tests.support.grants import granted
from tabletop.feed import panels
from tests.support.frames import panel_as_sent
from tabletop.asgi import application
from tabletop.models import Event, Role
from tabletop.feed.seat import Seat

HTMX = {"HTTP_HX_REQUEST": "true"}


class Dice:
    """An ``Rng`` whose d10s come from a script, so a test stages a hit."""

    def __init__(self, rolls: Sequence[int]) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert self.rolls, "the script ran out of dice"
        return self.rolls.pop(0)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        pass

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]


@pytest.fixture
def table(db):
    users = get_user_model()
    gm_user = users.objects.create_user("host", password="a long host password")
    made = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = made.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    bob = services.membership_join(table=made, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob")
    agnes = services.character_create(table=made, actor=ann, name="Agnes", sheet={
        "agility": 2, "toughness": 3, "skills": "Exorcism: 6", "side": "players"})
    betty = services.character_create(table=made, actor=bob, name="Betty", sheet={
        "agility": 5, "toughness": 2, "firearms": 5, "skills": "Lockpicking: 4", "side": "players"})
    demon = services.character_create(table=made, actor=gm, name="Demon", npc=True, sheet={
        "agility": 3, "toughness": 1, "hand_to_hand": 6, "skills": "Gloomfang Bite: 7", "side": "demons"})
    assert granted(made, gm) == 2  # "other skills are the Host's to grant": the Host grants Exorcism and Lockpicking
    agnes.refresh_from_db()
    betty.refresh_from_db()
    clients = {}
    for key, member in (("gm", gm), ("ann", ann), ("bob", bob)):
        clients[key] = Client()
        clients[key].force_login(member.user)
    return {"table": made, "gm": gm, "ann": ann, "bob": bob, "agnes": agnes, "betty": betty, "demon": demon,
            "clients": clients}


def cid(character) -> str:
    return f"c{character.pk}"


def select(page: str, name: str) -> str:
    at = page.index(f'id="{name}"')
    return html.unescape(page[at: page.index("</select>", at)])


def page_of(t, who: str) -> str:
    return t["clients"][who].get(reverse("table", args=[t["table"].pk])).content.decode()


def test_a_task_offers_and_rolls_the_character_s_own_skills(table) -> None:
    """Issue 22: "a character with "Other skills: Exorcism: 6" cannot use it in a task: the task
    form's "Using" offers only the five built-in stats". Seed: "If the stat number is higher than
    the Target number, the player gets to roll an extra die ... (the "Skill Die")". An NPC's skills
    reach the GM's seat alone (issue 21)."""
    ann, gm = page_of(table, "ann"), page_of(table, "gm")
    using = select(ann, "task-stat")
    assert '<optgroup label="Agnes\'s own skills"><option value="Exorcism">Exorcism</option></optgroup>' in using
    assert "Lockpicking" not in using  # Betty is Bob's to roll for
    assert "Exorcism" in select(page_of(table, "bob"), "task-opponent-stat")  # Agnes's sheet is no secret
    for page in (ann, page_of(table, "bob")):
        assert "Gloomfang" not in page
    assert all(s in select(gm, "task-stat") for s in ("Exorcism", "Lockpicking", "Gloomfang Bite"))
    assert "Gloomfang Bite" in select(gm, "task-opponent-stat")
    # a live redraw of the panel, drawn for Ann's seat, offers the same and nothing of the GM's
    seat = Seat("player", table["ann"].pk)
    redrawn = panel_as_sent("games/demon_city/panel.html#panel", panels.current(table["table"], table["ann"]),
                            seat, table["table"].pk)
    assert 'value="Exorcism"' in redrawn and "Gloomfang" not in redrawn

    url = reverse("table_check", args=[table["table"].pk, "task"])
    done = table["clients"]["ann"].post(url, {"character": table["agnes"].pk, "stat": "Exorcism",
                                              "target_number": "3"}, **HTMX)
    assert done.status_code == 200, done.content.decode()
    event = Event.objects.filter(kind="demon_city.task_rolled").latest("seq")
    assert event.summary.startswith("Agnes tries Exorcism 6 against difficulty 3:")
    assert [d["kind"] for d in event.payload["task"]["roll"]["pool"]["dice"]] == ["base", "skill"]
    before = Event.objects.count()
    long_name = table["clients"]["ann"].post(url, {"character": table["agnes"].pk, "stat": "E" * 201,
                                                   "target_number": "3"}, **HTMX)
    assert long_name.status_code == 400 and "at most 200" in long_name.content.decode()
    assert Event.objects.count() == before


def command(t, who: str, rng: Any, **cmd: Any) -> list[Event]:
    return services.procedure_command(table=t["table"], actor=t[who], command=cmd, rng=rng)


def start_and_round_one(t) -> list[Event]:
    """Agnes punches the Demon, the Demon claws Agnes, Betty only defends; the Demon rolls 8 to
    Agnes's 2 and its claws do 9 (the lowest of Agnes's three damage dice): Agnes at -6/3, out."""
    start = reverse("table_command", args=[t["table"].pk, "start"])
    chars = [t[k].pk for k in ("agnes", "betty", "demon")]
    assert t["clients"]["gm"].post(start, {"characters": chars}, **HTMX).status_code == 200
    command(t, "ann", Dice([]), type="announce", combatant=cid(t["agnes"]), kind="melee", target=cid(t["demon"]))
    command(t, "gm", Dice([]), type="announce", combatant=cid(t["demon"]), kind="melee", target=cid(t["agnes"]))
    command(t, "bob", Dice([]), type="announce", combatant=cid(t["betty"]), kind="defend")
    return command(t, "gm", Dice([2, 5, 8, 9, 9, 9, 8]), type="roll")


def lines_after(seq: int) -> list[Event]:
    return list(Event.objects.filter(seq__gt=seq).order_by("seq"))


def test_a_hit_goes_on_the_sheet_at_once_and_the_unhurt_are_never_touched(table) -> None:
    """Issue 22: "they show 3/3 Toughness while the round shows Agnes at -6/3 and out, until the
    GM ends the rounds, which then logs "sheet now holds Current Toughness 4" for the unhurt".
    Seed: "the target subtracts that number from their Current Toughness. At Current Toughness -1
    they are out of the fight"."""
    first = Event.objects.latest("seq").seq
    betty_version = table["betty"].version
    rolled = start_and_round_one(table)
    kinds = [e.kind for e in lines_after(first)]
    hit = kinds.index("demon_city.damage_rolled")
    assert kinds[hit + 1] == "character.updated"  # the card is redrawn as the hit lands
    updated = lines_after(first)[hit + 1]
    assert updated.summary == "Agnes's sheet now holds Current Toughness -6, Injured yes, Out of the fight yes."
    table["agnes"].refresh_from_db()
    assert (table["agnes"].sheet["current_toughness"], table["agnes"].sheet["injured"],
            table["agnes"].sheet["out_of_fight"]) == (-6, True, True)
    assert any("Toughness 3 falls to -6: out of the fight" in e.summary for e in rolled)

    # round 2: Betty shoots the Demon first (9 to its 4); one damage die of 4: the Demon at -3/1
    command(table, "gm", Dice([]), type="next_round")
    command(table, "gm", Dice([]), type="announce", combatant=cid(table["demon"]), kind="melee",
            target=cid(table["betty"]))
    command(table, "bob", Dice([]), type="announce", combatant=cid(table["betty"]), kind="shoot",
            target=cid(table["demon"]))
    second = Event.objects.latest("seq").seq
    command(table, "gm", Dice([3, 4, 6, 9, 4, 8]), type="roll")
    npc_line, injury_line = [e for e in lines_after(second) if e.kind == "character.updated"]
    # the NPC's sheet is the GM's: the others read that it changed, the GM what it holds
    assert npc_line.summary == "The GM's sheet of Demon changes."
    assert npc_line.private_summary == "Demon's sheet now holds Current Toughness -3, Injured yes, Out of the fight yes."
    assert injury_line.private_summary.startswith("Demon's sheet now holds Injury ")
    table["demon"].refresh_from_db()
    assert table["demon"].sheet["current_toughness"] == -3

    ended = command(table, "gm", Dice([]), type="end")
    # the decided reading "003, damage belongs to the fight": "out of the fight" ends with the fight
    # for the living who went out, their Toughness and Injury result stay; Betty is never written
    assert [e.private_summary or e.summary for e in lines_after(ended[0].seq) if e.kind == "character.updated"] == [
        "Agnes's sheet now holds Out of the fight no.", "Demon's sheet now holds Out of the fight no."]
    betty_lines = [e.summary for e in Event.objects.filter(kind="character.updated", seq__gt=first)
                   if "Betty" in e.summary]  # after the GM granted her Lockpicking, no rule wrote her sheet
    assert betty_lines == []
    table["betty"].refresh_from_db()
    assert table["betty"].version == betty_version and table["betty"].sheet.get("current_toughness") is None


def test_an_undone_roll_takes_the_hit_off_the_sheet(table) -> None:
    """The Host's undo ("Undo the last step") of the roll gives Agnes back her Toughness on her
    card as in the round: the sheet holds what the round holds."""
    start_and_round_one(table)
    command(table, "gm", Dice([]), type="undo")
    table["agnes"].refresh_from_db()
    assert (table["agnes"].sheet["current_toughness"], table["agnes"].sheet["injured"],
            table["agnes"].sheet["out_of_fight"]) == (None, False, False)
    undone = Event.objects.filter(kind="character.updated").latest("seq")
    assert undone.summary == ("Agnes's sheet now holds Current Toughness cleared, Injured no, Out of the fight no, "
                              "Injury cleared.")


@pytest.mark.django_db(transaction=True)
async def test_another_player_sees_the_card_follow_the_hit_live(table) -> None:
    """Bob's page redraws Agnes's card, at -6 of 3 and out of the fight, as the hit lands."""
    client = table["clients"]["bob"]
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table['table'].pk}/",
        headers=[(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
                 (b"origin", b"http://127.0.0.1")],
    )
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    await database_sync_to_async(start_and_round_one)(table)
    received = ""
    while "Round 1 resolved" not in received:
        received += (await comm.receive_output(timeout=3)).get("text", "")
    *made, card = re.findall(rf'<article id="character-{table["agnes"].pk}".*?</article>', received, re.S)
    assert "3 / 3" in made[0] and 'hx-swap-oob="true"' in card  # her card when made, then redrawn
    assert "-6 / 3" in card and "Out of the fight" in card and "is-out" in card
    await comm.disconnect()
