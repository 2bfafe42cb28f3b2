"""Demon City at a table: the procedure enforced through the platform, logged and pushed live.

Seed 003: "Whatever entity involved has the lowest Agility ... announces what they plan to
do", then the next slowest, and so on; then the Clashes are rolled.
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.feed import panels
from tabletop.asgi import application
from tabletop.models import Event, ProcedureState, Role
from tabletop.services import ServiceError

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fight(db):
    users = get_user_model()
    gm_user = users.objects.create_user("host", password="a long host password")
    table = services.table_create(gm=gm_user, name="Demon City", system="demon_city")
    gm = table.members.select_related("user").get(role=Role.GM)
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER, display_name="Ann")
    bob = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER, display_name="Bob")
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    alfie = services.character_create(table=table, actor=ann, name="Alfie",
                                      sheet={"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"})
    betty = services.character_create(table=table, actor=bob, name="Betty",
                                      sheet={"agility": 5, "toughness": 2, "firearms": 5, "side": "players"})
    demon = services.character_create(table=table, actor=gm, name="Demon", npc=True,
                                      sheet={"agility": 3, "toughness": 1, "hand_to_hand": 6, "side": "demons"})
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher,
            "alfie": alfie, "betty": betty, "demon": demon}


def command(f, who, rng, **cmd):
    return services.procedure_command(table=f["table"], actor=f[who], command=cmd, rng=rng)


def cid(character) -> str:
    return f"c{character.pk}"


def state_and_log(table) -> tuple:
    row = ProcedureState.objects.filter(table=table).first()
    return (row.state if row else None,
            list(Event.objects.filter(table=table).values_list("seq", "kind")))


def start(f, rng):
    """Starts Action Rounds as the start form does (moves.start): the characters by combatant id,
    their sheets read from the table (the Demon is the GM's NPC)."""
    return command(f, "gm", rng, type="start", combatants=[cid(f[who]) for who in ("alfie", "betty", "demon")])


def test_the_slowest_announces_first_and_nobody_before_their_turn(fight) -> None:
    """Seed: "Second-least Agile creature announces next" - Betty (Agility 5) cannot go
    before Alfie (2) and the Demon (3)."""
    rng = random.Random(1)
    started = start(fight, rng)
    assert "Alfie, Demon, Betty" in started[0].summary
    before = state_and_log(fight["table"])
    with pytest.raises(ServiceError, match="turn"):
        command(fight, "bob", rng, type="announce", combatant=cid(fight["betty"]), kind="shoot",
                target=cid(fight["demon"]))
    assert state_and_log(fight["table"]) == before
    with pytest.raises(ServiceError) as refused:
        command(fight, "bob", rng, type="announce", combatant=cid(fight["betty"]), kind="shoot",
                target=cid(fight["demon"]))
    assert "Alfie" in refused.value.message and "'c" not in refused.value.message


def test_a_player_announces_only_for_their_own_character(fight) -> None:
    rng = random.Random(2)
    start(fight, rng)
    before = state_and_log(fight["table"])
    with pytest.raises(ServiceError):
        command(fight, "bob", rng, type="announce", combatant=cid(fight["alfie"]), kind="melee",
                target=cid(fight["demon"]))
    with pytest.raises(ServiceError):  # NPCs are the GM's
        command(fight, "ann", rng, type="announce", combatant=cid(fight["demon"]), kind="melee",
                target=cid(fight["alfie"]))
    with pytest.raises(ServiceError):  # only the GM starts, rolls and ends
        command(fight, "ann", rng, type="roll")
    with pytest.raises(services.NotAllowed):
        command(fight, "watcher", rng, type="undo")
    assert state_and_log(fight["table"]) == before


def test_a_full_round_is_logged_step_by_step_with_the_panel(fight) -> None:
    rng = random.Random(5)
    start(fight, rng)
    command(fight, "ann", rng, type="announce", combatant=cid(fight["alfie"]), kind="melee",
            target=cid(fight["demon"]), description="punch it")
    command(fight, "gm", rng, type="announce", combatant=cid(fight["demon"]), kind="melee",
            target=cid(fight["alfie"]), description="claws")
    command(fight, "gm", rng, type="adjust_pool", combatant=cid(fight["alfie"]), die="situation",
            change="grant", reason="higher ground")
    command(fight, "bob", rng, type="announce", combatant=cid(fight["betty"]), kind="shoot",
            target=cid(fight["demon"]), description="two in the chest")
    rolled = command(fight, "gm", rng, type="roll")
    kinds = [e.kind for e in rolled]
    assert kinds[0] == "demon_city.dice_collected" and "demon_city.clash_rolled" in kinds
    assert kinds[-1] == "demon_city.round_resolved"
    clash = next(e for e in rolled if e.kind == "demon_city.clash_rolled").payload["event"]
    # every die is public (``rolled``); the pools they were rolled from name the Demon's figures
    assert "rolls" not in clash
    assert set(clash["rolled"]) == {cid(fight["alfie"]), cid(fight["betty"]), cid(fight["demon"])}
    for roll in clash["rolled"].values():
        assert roll["best"] == max(roll["dice"]) and 1 <= len(roll["dice"]) <= 5
    announced = Event.objects.filter(kind="demon_city.announced").order_by("seq")
    assert [e.payload["event"]["action"]["actor"] for e in announced] == [
        cid(fight["alfie"]), cid(fight["demon"]), cid(fight["betty"])]
    for event in announced:  # each is the Demon's or aimed at it: the pool is the GM's part
        assert "pool" not in event.payload["event"]
        pool = event.private["pool"]
        assert 1 <= pool["size"] <= 5 and all(d["reason"] for d in pool["dice"])
    panel = panels.current(rolled[-1].table, None)
    assert panel["phase"] == "resolved" and [o["name"] for o in panel["order"]] == ["Alfie", "Demon", "Betty"]
    assert "higher ground" in json.dumps(Event.objects.get(kind="demon_city.pool_adjusted").payload)
    undone = command(fight, "gm", rng, type="undo")
    assert undone[0].kind == "demon_city.undone" and "undoes" in undone[0].summary


def test_sheets_follow_the_seed_ranges(fight) -> None:
    """Seed: "All character stats are ranked from 0-9 (or possibly more ... if the
    supernatural is involved)"."""
    with pytest.raises(ServiceError, match="0-9"):
        services.character_create(table=fight["table"], actor=fight["ann"], name="Too fast",
                                  sheet={"agility": 12})
    monster = services.character_create(table=fight["table"], actor=fight["gm"], name="Old One",
                                        npc=True, sheet={"agility": 12, "supernatural": "1"})
    assert monster.sheet["agility"] == 12 and monster.sheet["supernatural"] is True


def test_round_commands_over_http(fight) -> None:
    gm, bob, watcher = Client(), Client(), Client()
    gm.force_login(fight["gm"].user)
    bob.force_login(fight["bob"].user)
    watcher.force_login(fight["watcher"].user)
    url = lambda c: reverse("table_command", args=[fight["table"].pk, c])  # noqa: E731
    chars = [fight["alfie"].pk, fight["betty"].pk, fight["demon"].pk]
    assert gm.post(url("start"), {"characters": chars}, **HTMX).status_code == 200
    refused = bob.post(url("announce"), {"combatant": cid(fight["betty"]), "kind": "shoot",
                                         "target": cid(fight["demon"])}, **HTMX)
    assert refused.status_code == 400 and "turn" in refused.content.decode()
    assert watcher.post(url("roll"), **HTMX).status_code == 403
    assert gm.post(url("explode"), **HTMX).status_code == 404
    page = bob.get(reverse("table", args=[fight["table"].pk])).content.decode()
    assert 'id="rounds-panel"' in page and "announces now" in page


def test_the_odds_page_reproduces_the_seed_table() -> None:
    """Seed comments: 1d10 v 1d10 50%, 2d10 68%, 3d10 78%, 4d10 83%, 5d10 87% (ties re-rolled)."""
    page = Client().get(reverse("game_page", args=["demon_city", "odds"])).content.decode()
    for label, value in (("1d10 v 1d10", 50), ("2d10 v 1d10", 68), ("3d10 v 1d10", 78),
                         ("4d10 v 1d10", 83), ("5d10 v 1d10", 87)):
        row = page[page.index(f"<th scope=\"row\">{label}</th>"):]
        row = row[: row.index("</tr>")]
        last_cell = row.split("<td>")[-1].removesuffix("</td>")
        assert round(float(last_cell)) == value, (label, row)
    assert "<svg" in page and "seg-win" in page


@pytest.mark.django_db(transaction=True)
async def test_every_step_reaches_a_spectator_live(fight) -> None:
    client = Client()
    await database_sync_to_async(client.force_login)(fight["watcher"].user)
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{fight['table'].pk}/",
        headers=[(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
                 (b"origin", b"http://127.0.0.1")],
    )
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    rng = random.Random(7)
    run = database_sync_to_async(command)
    await database_sync_to_async(start)(fight, rng)
    await run(fight, "ann", rng, type="announce", combatant=cid(fight["alfie"]), kind="melee", target=cid(fight["demon"]))
    await run(fight, "gm", rng, type="announce", combatant=cid(fight["demon"]), kind="melee", target=cid(fight["alfie"]))
    await run(fight, "bob", rng, type="announce", combatant=cid(fight["betty"]), kind="shoot", target=cid(fight["demon"]))
    await run(fight, "gm", rng, type="roll")
    received = ""
    while "Round 1 resolved" not in received:
        received += (await comm.receive_output(timeout=3)).get("text", "")
    assert "Clash: " in received, received[-3000:]
    assert re.search(r'<section id="rounds-panel"[^>]*hx-swap-oob="true"', received)
    assert received.count("announces") >= 3
    await comm.disconnect()


def test_the_gm_edits_the_injury_table_and_a_new_fight_keeps_it(fight) -> None:
    """Issue 4: the Injury table is "a table the GM can edit", and the UI says it is the table's own."""
    gm, ann = Client(), Client()
    gm.force_login(fight["gm"].user)
    ann.force_login(fight["ann"].user)
    url = reverse("table_command", args=[fight["table"].pk, "set_injury_table"])
    text = "1-4 | Out cold | alive | final | Sleeps it off.\n5-10 | Winded | alive | final | Gets up."
    before = Event.objects.count()
    assert ann.post(url, {"table": text}, **HTMX).status_code == 400
    assert gm.post(url, {"table": "1-3 | Short | alive | final | x"}, **HTMX).status_code == 400
    assert Event.objects.count() == before
    assert gm.post(url, {"table": text}, **HTMX).status_code == 200
    assert Event.objects.filter(kind="demon_city.injury_table_set").count() == 1
    chars = [fight["alfie"].pk, fight["demon"].pk]
    assert gm.post(reverse("table_command", args=[fight["table"].pk, "start"]), {"characters": chars},
                   **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert [row["result"] for row in state["injury_table"]] == ["Out cold", "Winded"]
    page = ann.get(reverse("table", args=[fight["table"].pk])).content.decode()
    assert "the table&#x27;s own Injury table" in page or "the table's own Injury table" in page


def test_the_gm_allows_an_exception_to_one_target_and_sets_a_difficulty(fight) -> None:
    """Seed: an announcement has one target unless "exceptions ... noted"; step 4: an
    unresisted action can need "the Task rules above if necessary" (a difficulty the Host sets)."""
    gm, ann = Client(), Client()
    gm.force_login(fight["gm"].user)
    ann.force_login(fight["ann"].user)
    url = lambda c: reverse("table_command", args=[fight["table"].pk, c])  # noqa: E731
    assert gm.post(url("start"), {"characters": [fight["alfie"].pk, fight["betty"].pk, fight["demon"].pk]},
                   **HTMX).status_code == 200
    two = {"combatant": cid(fight["alfie"]), "kind": "melee", "targets": [cid(fight["demon"]), cid(fight["betty"])]}
    refused = ann.post(url("announce"), two, **HTMX)
    assert refused.status_code == 400
    assert gm.post(url("allow_extra_targets"), {"combatant": cid(fight["alfie"])}, **HTMX).status_code == 200
    page = ann.get(reverse("table", args=[fight["table"].pk])).content.decode()
    assert 'name="targets" multiple' in page
    assert ann.post(url("announce"), {**two, "kind": "other", "targets": []} | {"description": "climb the fence"},
                    **HTMX).status_code == 200
    rng = random.Random(4)
    command(fight, "gm", rng, type="announce", combatant=cid(fight["demon"]), kind="defend")
    command(fight, "bob", rng, type="announce", combatant=cid(fight["betty"]), kind="other", description="run")
    assert gm.post(url("set_difficulty"), {"combatant": cid(fight["alfie"]), "target_number": "6"},
                   **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert state["difficulties"][cid(fight["alfie"])]["target_number"] == 6
    assert ann.post(url("set_difficulty"), {"combatant": cid(fight["alfie"]), "target_number": "1"},
                    **HTMX).status_code == 400


def test_tasks_against_a_number_or_the_hosts_roll(fight) -> None:
    """Seed, Task Resolution: roll against a static number "(roll over it)" or against the
    Host's roll; the higher stat earns the Skill Die and the best die is the roll."""
    ann, bob, gm = Client(), Client(), Client()
    ann.force_login(fight["ann"].user)
    bob.force_login(fight["bob"].user)
    gm.force_login(fight["gm"].user)
    url = reverse("table_check", args=[fight["table"].pk, "task"])
    ok = ann.post(url, {"character": fight["alfie"].pk, "stat": "hand_to_hand", "target_number": "3"}, **HTMX)
    assert ok.status_code == 200
    event = Event.objects.filter(kind="demon_city.task_rolled").latest("seq")
    roll = event.payload["task"]["roll"]
    assert roll["best"] == max(roll["dice"]) and roll["pool"]["size"] == len(roll["dice"]) == 2  # 4 > 3: Skill Die
    assert "Alfie tries Hand-to-Hand 4 against difficulty 3" in event.summary
    before = Event.objects.count()
    assert bob.post(url, {"character": fight["alfie"].pk, "stat": "agility", "target_number": "3"},
                    **HTMX).status_code == 403  # not his character
    assert ann.post(url, {"character": fight["alfie"].pk, "stat": "agility"}, **HTMX).status_code == 400
    assert ann.post(url, {"character": fight["alfie"].pk, "stat": "agility", "target_number": "x"},
                    **HTMX).status_code == 400
    assert ann.post(url, {"character": fight["alfie"].pk, "stat": "flying", "target_number": "3"},
                    **HTMX).status_code == 400
    assert Event.objects.count() == before
    opposed = gm.post(url, {"character": fight["demon"].pk, "stat": "hand_to_hand",
                            "opponent": fight["alfie"].pk, "opponent_stat": "hand_to_hand"}, **HTMX)
    assert opposed.status_code == 200
    event = Event.objects.filter(kind="demon_city.task_rolled").latest("seq")
    # the Demon is the GM's NPC: its rating and pools are the GM's part; its dice everyone's
    assert "rating" not in event.payload["task"] and "roll" not in event.payload["task"]
    assert event.payload["task"]["rolled"]["roll"]["dice"] == event.private["roll"]["dice"]
    assert "6" not in event.summary.split(":")[0] and "Hand-to-Hand 6" in event.private_summary
    task = {**event.payload["task"], **event.private}
    assert task["kind"] == "opposed" and task["roll"]["pool"]["size"] == 2  # 6 > 4: Skill Die
    assert task["other_roll"]["pool"]["size"] == 1
    assert task["roll"]["against"] == task["other_roll"]["best"]


def test_what_a_fight_does_to_toughness_goes_on_the_sheets_and_ends_with_it(fight) -> None:
    """Each change to Current Toughness and injuries goes on the sheet as it happens (issue 22);
    the decided reading "003, damage belongs to the fight": "when a fight ends, Current Toughness
    returns to Base for everyone not out of it", so the end writes that back for the hurt one
    still standing, and no line says an unhurt character "now holds" its own whole Toughness."""
    rng = random.Random(11)
    start(fight, rng)
    row = ProcedureState.objects.get(table=fight["table"])
    alfie = cid(fight["alfie"])
    corrected = command(fight, "gm", rng, type="set_condition", combatant=alfie, field="current_toughness", value=1)
    command(fight, "gm", rng, type="set_condition", combatant=alfie, field="injured", value=True)
    fight["alfie"].refresh_from_db()
    assert fight["alfie"].sheet["current_toughness"] == 1 and fight["alfie"].sheet["injured"] is True
    updated = Event.objects.filter(kind="character.updated", seq__gt=corrected[0].seq).first()
    assert updated.payload["character"]["id"] == fight["alfie"].pk
    assert updated.payload["character"]["sheet"]["current_toughness"] == 1
    ended = command(fight, "gm", rng, type="end")
    assert ended[0].kind == "demon_city.action_rounds_ended"
    assert "Current Toughness returns to Base for Alfie." in ended[0].summary
    [written] = Event.objects.filter(kind="character.updated", seq__gt=ended[0].seq)
    assert written.payload["character"]["id"] == fight["alfie"].pk  # the unhurt are not written
    fight["alfie"].refresh_from_db()
    assert fight["alfie"].sheet["current_toughness"] is None and fight["alfie"].sheet["injured"] is False
    row.refresh_from_db()
    assert row.state["phase"] == "ended"


def _with_skill(f, key: str, skills: str) -> None:
    """Gives a fixture character a GM-added skill, keeping the rest of its sheet."""
    character = f[key]
    services.character_update(character=character, actor=f["gm"], name=character.name,
                              sheet={**character.sheet, "skills": skills})
    character.refresh_from_db()


def test_anything_else_and_a_difficulty_name_the_stat_they_roll(fight) -> None:
    """Issue 13: "The announce form cannot name the stats for an 'other' action, and the
    difficulty form cannot name the stat, so those actions never get a Skill Die and unresisted
    tasks always roll Agility." Seed: "a character with a higher Stat than the Stat they're
    targeting gets to roll an extra die--the Skill Die"; a task by Hyder is rolled "off-Agility
    vs a difficulty number decided by the Host", Agility being only that task's stat."""
    _with_skill(fight, "alfie", "Driving: 6")
    gm, ann, bob = Client(), Client(), Client()
    for client, who in ((gm, "gm"), (ann, "ann"), (bob, "bob")):
        client.force_login(fight[who].user)
    url = lambda c: reverse("table_command", args=[fight["table"].pk, c])  # noqa: E731
    chars = [fight["alfie"].pk, fight["betty"].pk, fight["demon"].pk]
    assert gm.post(url("start"), {"characters": chars}, **HTMX).status_code == 200
    page = ann.get(reverse("table", args=[fight["table"].pk])).content.decode()
    form = page[page.index('id="announce-'):]
    form = form[: form.index("</form>")]
    assert 'name="stat"' in form and '<option value="Driving">Driving</option>' in form
    assert 'name="against"' in form
    alfie, betty, demon = (cid(fight[k]) for k in ("alfie", "betty", "demon"))
    assert ann.post(url("announce"), {"combatant": alfie, "kind": "other", "target": demon,
                                      "description": "run it down", "stat": "Driving",
                                      "against": "agility"}, **HTMX).status_code == 200
    announced = Event.objects.filter(kind="demon_city.announced").latest("seq")
    assert "pool" not in announced.payload["event"]  # its Skill Die's reason names the Demon's Agility
    assert [d["reason"] for d in announced.private["pool"]["dice"] if d["kind"] == "skill"] == [
        "Alfie's Driving 6 > Demon's Agility 3"]
    seen = html.unescape(ann.get(reverse("table", args=[fight["table"].pk])).content.decode())
    assert "Alfie's Driving 6 > Demon's Agility<" in seen  # Alfie's player reads their pool, not the Demon's stat
    command(fight, "gm", random.Random(3), type="announce", combatant=demon, kind="defend")
    # The form sends its "anything else" choices with every kind; a shot ignores them.
    assert bob.post(url("announce"), {"combatant": betty, "kind": "other", "description": "pick the lock",
                                      "stat": "firearms", "against": ""}, **HTMX).status_code == 200
    page = gm.get(reverse("table", args=[fight["table"].pk])).content.decode()
    difficulty = page[page.index('id="difficulty-stat-'):]
    difficulty = difficulty[: difficulty.index("</select>")]
    assert '<option value="firearms" selected>Firearms</option>' in difficulty
    assert gm.post(url("set_difficulty"), {"combatant": betty, "target_number": "4", "stat": "toughness"},
                   **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert state["difficulties"][betty] == {"target_number": 4, "stat": "toughness"}


def test_the_announce_form_s_stat_choices_do_not_refuse_a_fight_action(fight) -> None:
    """The "anything else" selects post with every kind; only an "other" action uses them."""
    ann = Client()
    ann.force_login(fight["ann"].user)
    start(fight, random.Random(2))
    done = ann.post(reverse("table_command", args=[fight["table"].pk, "announce"]),
                    {"combatant": cid(fight["alfie"]), "kind": "melee", "target": cid(fight["demon"]),
                     "stat": "agility", "against": ""}, **HTMX)
    assert done.status_code == 200, done.content.decode()


def test_the_host_marks_a_target_unaware_and_ends_a_grab_from_the_panel(fight) -> None:
    """Issue 13: "set_condition cannot be reached from the table, so the Host cannot mark a
    target unaware, release a grab, or correct a flag." Seed: a task on someone who "doesn't
    know they're there" earns the Distraction Die; "Once a foe is grabbed, actions generally
    target a foe's Toughness" (until the grab ends)."""
    gm = Client()
    gm.force_login(fight["gm"].user)
    start(fight, random.Random(6))
    demon, alfie = cid(fight["demon"]), cid(fight["alfie"])
    table_url = reverse("table", args=[fight["table"].pk])
    set_url = reverse("table_command", args=[fight["table"].pk, "set_condition"])
    page = gm.get(table_url).content.decode()
    mark = f'hx-vals=\'{{"combatant": "{demon}", "field": "unaware", "value": "yes"}}\''
    assert mark in page and f'hx-post="{set_url}"' in page and "Mark Demon unaware" in page
    assert gm.post(set_url, {"combatant": demon, "field": "unaware", "value": "yes"}, **HTMX).status_code == 200
    command(fight, "gm", random.Random(6), type="set_condition", combatant=alfie, field="grabbed", value=True)
    page = gm.get(table_url).content.decode()
    assert "Demon is aware now" in page and "· unaware" in page and "· grabbed" in page
    release = f'hx-vals=\'{{"combatant": "{alfie}", "field": "grabbed", "value": "no"}}\''
    assert release in page and "End the grab on Alfie" in page
    assert gm.post(set_url, {"combatant": alfie, "field": "grabbed", "value": "no"}, **HTMX).status_code == 200
    ended = Event.objects.filter(kind="demon_city.grab_ended").latest("seq")
    assert ended.summary == "The Host ends the grab on Alfie."
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert state["combatants"][demon]["unaware"] is True and state["combatants"][alfie]["grabbed"] is False
    assert "End the grab on Alfie" not in gm.get(table_url).content.decode()
    marked = Event.objects.filter(kind="demon_city.condition_set").order_by("seq").first()
    assert marked.summary == "The Host marks Demon unaware."


def test_a_new_fight_starts_without_the_lost_die_for_old_injuries_unless_the_host_says(fight) -> None:
    """Issue 13: "Keep the injury on the sheet, but start each fight without the fight-only Lost
    Die unless the Host says." Seed: the Lost Die is for "anyone who has taken at least one
    injury during the fight"."""
    services.character_update(character=fight["alfie"], actor=fight["gm"], name="Alfie",
                              sheet={**fight["alfie"].sheet, "injured": True})
    gm = Client()
    gm.force_login(fight["gm"].user)
    url = lambda c: reverse("table_command", args=[fight["table"].pk, c])  # noqa: E731
    page = gm.get(reverse("table", args=[fight["table"].pk])).content.decode()
    assert 'name="injuries_count"' in page and "Injuries from before this fight count" in page
    alfie = cid(fight["alfie"])
    assert gm.post(url("start"), {"characters": [fight["alfie"].pk, fight["demon"].pk]}, **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert state["combatants"][alfie]["injured"] is False
    assert "hurt before the fight" in gm.get(reverse("table", args=[fight["table"].pk])).content.decode()
    assert gm.post(url("end"), **HTMX).status_code == 200
    fight["alfie"].refresh_from_db()
    assert fight["alfie"].sheet["injured"] is True  # the injury stays on the sheet
    assert gm.post(url("start"), {"characters": [fight["alfie"].pk, fight["demon"].pk], "injuries_count": "1"},
                   **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert state["combatants"][alfie]["injured"] is True



def test_a_task_box_takes_two_situation_dice_and_two_lost_dice(fight) -> None:
    """Issue 13: "The task box takes one Situation and one Lost Die; the rule allows two of
    each." Seed: "You can have up to two Situation Dice representing distinct advantages" and
    "the Host may subtract up to two Lost Dice (down to a minumum of one rolled die)". The dice
    are the Host's to grant (issue 33): the GM's box holds them, and rolls Alfie's task with them."""
    gm = Client()
    gm.force_login(fight["gm"].user)
    page = gm.get(reverse("table", args=[fight["table"].pk])).content.decode()
    box = page[page.index('class="task-box"'):]
    box = box[: box.index("</form>")]
    assert box.count('name="situation"') == 2 and box.count('name="lost"') == 2
    url = reverse("table_check", args=[fight["table"].pk, "task"])
    done = gm.post(url, {"character": fight["alfie"].pk, "stat": "agility", "target_number": "5",
                          "situation": ["a head start", "uneven ground for him"],
                          "lost": ["drunk", "in the dark"]}, **HTMX)
    assert done.status_code == 200
    dice = Event.objects.filter(kind="demon_city.task_rolled").latest("seq").payload["task"]["roll"]["pool"]["dice"]
    assert [d["kind"] for d in dice].count("situation") == 2 and [d["kind"] for d in dice].count("lost_misc") == 2
    too_many = gm.post(url, {"character": fight["alfie"].pk, "stat": "agility", "target_number": "5",
                              "situation": ["a", "b", "c"]}, **HTMX)
    assert too_many.status_code == 400 and "more than 2 Situation" in too_many.content.decode()


def test_an_npc_made_with_the_form_s_defaults_opposes_the_players(fight) -> None:
    """Issue 13: "New NPCs default to the players' side ... NPCs default to the opposing side."
    Seed: a tie "between characters on opposing sides" means "nobody's action takes"."""
    gm = Client()
    gm.force_login(fight["gm"].user)
    new = reverse("character_new", args=[fight["table"].pk])
    page = gm.get(new).content.decode()
    side = page[page.index('name="sheet_side"'):]
    assert 'value="players"' not in side[: side.index(">")]  # the form no longer says "players"
    for name, kind in (("Ghoul", "npc"), ("Cassie", "pc")):
        assert gm.post(new, {"name": name, "kind": kind, "sheet_agility": "3", "sheet_toughness": "2"}
                       ).status_code == 302
    ghoul = fight["table"].characters.get(name="Ghoul")
    cassie = fight["table"].characters.get(name="Cassie")
    assert ghoul.sheet["side"] == "" and ghoul.is_npc
    start_url = reverse("table_command", args=[fight["table"].pk, "start"])
    assert gm.post(start_url, {"characters": [ghoul.pk, cassie.pk, fight["demon"].pk]}, **HTMX).status_code == 200
    state = ProcedureState.objects.get(table=fight["table"]).state
    assert {c["name"]: c["side"] for c in state["combatants"].values()} == {
        "Ghoul": "opponents", "Cassie": "players", "Demon": "demons"}


def test_the_panel_shows_own_chances_then_the_dice_actually_rolled(fight) -> None:
    """Issue 13: "Show each announcer their own chance against the side they face"; bug 6:
    "After a round resolves, the panel shows recalculated pools and odds (3d10, new percentages)
    instead of what was actually rolled." Seed, step 6: "Whoever rolls highest in a Clash takes
    their action"."""
    rng = random.Random(8)
    start(fight, rng)
    alfie, betty, demon = (cid(fight[k]) for k in ("alfie", "betty", "demon"))
    command(fight, "ann", rng, type="announce", combatant=alfie, kind="melee", target=demon)
    command(fight, "gm", rng, type="announce", combatant=demon, kind="defend")
    command(fight, "bob", rng, type="announce", combatant=betty, kind="shoot", target=demon)
    watcher = Client()
    watcher.force_login(fight["watcher"].user)
    table_url = reverse("table", args=[fight["table"].pk])
    gm = Client()
    gm.force_login(fight["gm"].user)
    page = gm.get(table_url).content.decode()
    assert re.search(r"Alfie \(\dd10\) against Demon \(\dd10\): wins \d+%", page)
    assert re.search(r"Demon \(\dd10\) against Alfie and Betty \(\dd10\): wins \d+%", page)
    assert "against Betty" not in page  # an ally is never Alfie's opponent
    # the Demon is the GM's NPC: a chance counted from its pool is the GM's (issue 21)
    page = watcher.get(table_url).content.decode()
    assert re.search(r"Alfie \(\dd10\) against Demon: the odds depend on the GM&#x27;s figures", page)
    assert "Demon against Alfie and Betty: the odds depend on the GM&#x27;s figures" in page
    rolled = command(fight, "gm", rng, type="roll")
    clash = next(e for e in rolled if e.kind == "demon_city.clash_rolled").payload["event"]
    page = watcher.get(table_url).content.decode()
    for who, roll in clash["rolled"].items():  # every die is public
        name = {alfie: "Alfie", betty: "Betty", demon: "Demon"}[who]
        # each die drawn as a die, labelled with its number (issue 23, "Dice as dice")
        line = re.search(rf"<li>{name} rolled {len(roll['dice'])}d10: (.*?)</li>", page, re.S)
        assert line is not None and line.group(1).endswith(f"(best {roll['best']})")
        assert re.findall(r'aria-label="(\d+) on a d10', line.group(1)) == [str(d) for d in roll["dice"]]
    assert " wins " not in page and "%" not in page[page.index('id="rounds-panel"'):page.index("Injury table")]


def test_the_gm_s_page_names_the_step_the_undo_takes_back_and_no_other_page_offers_it(fight) -> None:
    """Issue 24: the undo list is the core's ``[{step, what}]``: the GM's panel names the newest
    step (its line as everyone reads it), and the undo, the GM's alone, reaches no other seat."""
    gm, ann = Client(), Client()
    gm.force_login(fight["gm"].user)
    ann.force_login(fight["ann"].user)
    page = reverse("table", args=[fight["table"].pk])
    assert "Undo last step" not in gm.get(page).content.decode()  # nothing to take back yet
    start(fight, random.Random(4))
    command(fight, "ann", random.Random(4), type="announce", combatant=cid(fight["alfie"]), kind="defend")
    shown = html.unescape(gm.get(page).content.decode())
    assert "Undo last step</button>" in shown and "takes back: Alfie announces a defence (2 dice).</span>" in shown
    assert "Undo last step" not in ann.get(page).content.decode()
    command(fight, "gm", random.Random(4), type="undo")
    shown = html.unescape(gm.get(page).content.decode())
    assert "takes back: Action Rounds! Announcing from slowest: Alfie, Demon, Betty.</span>" in shown
