"""Passages (NycosRPG) at a table: every command and check posted through the platform's
generic routes as the page's forms post them, each refusal answered inline (4xx) with a clear
message and nothing changed, and every step pushed live to everyone."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.asgi import application
from tabletop.models import Character, Event, ProcedureState, Role

HTMX = {"HTTP_HX_REQUEST": "true"}

# The worked example's duellists (seed 001, "EXAMPLE of Skills and Combat"), as sheet forms send them.
TRAYER = {"skills": "Soldiery (Sword and Shield): 18\nCampfire: 33\nIntimidation: 32",
          "combat_skill": "Soldiery (Sword and Shield)", "defense_skill": "Soldiery (Sword and Shield)",
          "weapon": "Long Blade", "weapon_damage": 3, "armour": "brigantine", "armour_effect": "halve"}
GARBO = {"skills": "Two-Hander: 25", "combat_skill": "Two-Hander", "defense_skill": "Two-Hander",
         "weapon": "flail", "weapon_damage": 3, "armour": "Naturally Armored hide", "armour_effect": "-1"}


class Dice:
    """The platform's rng, scripted: each d100 in turn (the engine rolls nothing else)."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 100) and self.rolls, (a, b, self.rolls)
        return self.rolls.pop(0)


@pytest.fixture
def table(db) -> dict[str, Any]:
    users = get_user_model()
    gm_user = users.objects.create_user("director", password="a long director password")
    made = services.table_create(gm=gm_user, name="The Sinking Ship", system="passages")
    gm = made.members.select_related("user").get(role=Role.GM)
    seat = lambda role, name: services.membership_join(  # noqa: E731
        table=made, user=services.guest_user_create(), role=role, display_name=name)
    ann, bob, watcher = seat(Role.PLAYER, "Ann"), seat(Role.PLAYER, "Bob"), seat(Role.SPECTATOR, "")
    trayer = services.character_create(table=made, actor=ann, name="Trayer", sheet=TRAYER)
    betty = services.character_create(table=made, actor=bob, name="Betty",
                                      sheet={"skills": "Stealth: 40\nBrawl: 30", "fatigue": 100})
    garbo = services.character_create(table=made, actor=gm, name="Garbo", npc=True, sheet=GARBO)
    clients = {}
    for name, member in (("gm", gm), ("ann", ann), ("bob", bob), ("watcher", watcher)):
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(member.user)
    return {"table": made, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher, "trayer": trayer,
            "betty": betty, "garbo": garbo, "clients": clients}


def cid(character: Character) -> str:
    return f"c{character.pk}"


def post(t: dict[str, Any], who: str, command: str, data: dict[str, Any] | None = None, *,
         check: bool = False, rolls: tuple[int, ...] = (), monkeypatch: Any = None) -> Any:
    """Posts a command (or the one-off check) as the page's htmx form does."""
    route = "table_check" if check else "table_command"
    if monkeypatch is not None:
        monkeypatch.setattr("tabletop.actions.system_rng", lambda: Dice(*rolls))
    return t["clients"][who].post(reverse(route, args=[t["table"].pk, command]), data or {}, **HTMX)


def snapshot(t: dict[str, Any]) -> tuple[Any, list[tuple[int, str]], list[dict[str, Any]]]:
    """Everything a refusal must leave alone: the procedure, the log and the sheets."""
    row = ProcedureState.objects.filter(table=t["table"]).first()
    return (row.state if row else None,
            list(Event.objects.filter(table=t["table"]).values_list("seq", "kind")),
            [c.sheet for c in Character.objects.filter(table=t["table"]).order_by("pk")])


def state(t: dict[str, Any]) -> dict[str, Any]:
    return ProcedureState.objects.get(table=t["table"]).state


def page(t: dict[str, Any], who: str) -> str:
    return t["clients"][who].get(reverse("table", args=[t["table"].pk])).content.decode()


def last(t: dict[str, Any], kind: str) -> Event:
    return Event.objects.filter(table=t["table"], kind=f"passages.{kind}").latest("seq")


def refused(response: Any, status: int, message: str) -> str:
    """A refusal answers its form's notice line, never a page of its own."""
    text = html.unescape(response.content.decode())
    assert response.status_code == status, (response.status_code, text[:300])
    assert message in text, text[:300]
    assert "<html" not in text and re.search(r'id="(passages|check)-notice"', text), text[:300]
    return text


def test_passages_is_on_the_table_for_everyone(table) -> None:
    """Issue 17, "Live at the table": the panel, each Persona's tracks as 20 boxes of 5, its
    skills with DU / DD / Core and the odds of each band; the character cards at a glance."""
    assert registry.get("passages").key == "passages"
    gm, ann, watcher = page(table, "gm"), page(table, "ann"), page(table, "watcher")
    for seen in (gm, ann, watcher):
        assert '<section id="passages-panel" class="rounds passages"' in seen
        assert re.search(r'<h2 id="passages-h">Passages', seen)
        assert seen.count('aria-label="Wounds 100 of 100"') >= 3  # on every sheet in the panel
        assert 'aria-label="Wounds 100 of 100"><span class="box p5">' in seen
    sheet = ann[ann.index('aria-label="A check for Trayer"'):]
    sheet = sheet[: sheet.index("</table>")]
    # Lock-picking-like numbers from Trayer's own sheet: Campfire 33 (DU 66, DD 16; Core 7: DU 14, DD 3)
    assert "check: BASE 33 <span class=\"muted\">DU 66 · DD 16</span>" in sheet
    assert "challenge: Core 7 <span class=\"muted\">DU 14 · DD 3</span>" in sheet
    assert "<td>16%</td><td>17%</td><td>33%</td><td>33%</td><td>1%</td>" in sheet
    card = ann[ann.index(f'id="character-{table["trayer"].pk}"'):]
    card = card[: card.index("</article>")]
    assert "Soldiery (Sword and Shield)" in card and 'aria-label="Fatigue 100 of 100"' in card
    assert "Start a contest" in gm and 'class="gm-only start-tools"' in gm


# The one-off check, outside any contest or fight.


def test_a_player_checks_challenges_and_practises_for_their_own_persona(table, monkeypatch) -> None:
    """Seed, CHECKS: "Use percentile dice to roll against the skill"; the example's bands; a
    CHALLENGE uses "the Skill's Core Value"; "A player may 'practice' any skill, but they will
    automatically succeed ... There is no need to roll dice"."""
    trayer = table["trayer"].pk
    done = post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "check"},
                check=True, rolls=(13,), monkeypatch=monkeypatch)
    assert done.status_code == 200 and 'id="check-notice"' in done.content.decode()
    rolled = last(table, "check_rolled")
    assert rolled.payload["check"]["band"] == "double_down" and rolled.payload["character"] == trayer
    assert rolled.summary == "Trayer checks Campfire (BASE 33): rolls 13, Double Down wild success."
    # the Double Up and Double Down it was judged by unfold under the line (issue 23)
    assert rolled.payload["working"]["steps"][1:] == [
        "Double Up = double 33 = 66; Double Down = half, rounded down = 16", "d100 roll: 13",
        "13 is at most Double Down 16: a Double Down wild success"]
    # a Check or a Challenge is the Director's call ("by choice of the Director"): here, theirs
    post(table, "gm", "check", {"character": trayer, "skill": "campfire", "mode": "check", "call": "challenge"},
         check=True, rolls=(7,), monkeypatch=monkeypatch)
    rolled = last(table, "check_rolled")
    assert rolled.payload["check"]["challenge"] and rolled.payload["check"]["value"] == 7
    assert rolled.payload["check"]["band"] == "success" and "a challenge of Campfire (Core 7 of BASE 33)" in rolled.summary
    post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "practice"},
         check=True, rolls=(), monkeypatch=monkeypatch)
    practised = last(table, "check_rolled")
    assert practised.payload["check"]["roll"] is None and "no roll needed, it succeeds" in practised.summary
    # what a watcher's log says, in plain words: no ids, no band codes
    log = page(table, "watcher")
    assert "Double Down wild success" in log and "double_down" not in log[log.index('id="log"'):]


def test_a_one_off_check_refuses_and_changes_nothing(table, monkeypatch) -> None:
    """Issue 17: "nobody rolls for another's Persona, a Downed Persona can only rest"."""
    trayer, betty = table["trayer"].pk, table["betty"].pk
    services.character_update(character=table["betty"], actor=table["gm"], name="Betty",
                              sheet={**table["betty"].sheet, "fatigue": 0})
    shown = page(table, "bob")
    assert 'aria-label="A check for Betty"' not in shown and "Downed: rest only" in shown  # not offered
    before = snapshot(table)
    refused(post(table, "bob", "check", {"character": trayer, "skill": "Campfire"}, check=True,
                 rolls=(50,), monkeypatch=monkeypatch), 403, "You act only for the characters you control")
    refused(post(table, "bob", "check", {"character": betty, "skill": "Stealth"}, check=True,
                 rolls=(50,), monkeypatch=monkeypatch), 400, "Betty is Downed and may only rest")
    refused(post(table, "ann", "check", {"character": trayer, "skill": "Flying"}, check=True,
                 rolls=(50,), monkeypatch=monkeypatch), 400, "Trayer has no skill called")
    refused(post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "guess"}, check=True),
            400, "Roll a check, a challenge or a practice")
    refused(post(table, "ann", "check", {"character": "Trayer", "skill": "Campfire"}, check=True),
            400, "Choose a Persona")
    refused(post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "challenge": "perhaps"},
                 check=True), 400, "Challenge is yes or no")
    spectator = post(table, "watcher", "check", {"character": trayer, "skill": "Campfire"}, check=True)
    assert spectator.status_code == 403
    assert snapshot(table) == before


# A contest.


def start_contest(t: dict[str, Any], *extra: tuple[str, Any]) -> Any:
    data: dict[str, Any] = {"characters": [t["trayer"].pk, t["betty"].pk], "cost": "5"}
    data.update(extra)
    return post(t, "gm", "contest_start", data)


def test_a_contest_to_its_end_through_the_routes(table, monkeypatch) -> None:
    """Seed, CONTESTS: "If the Pursuer succeeds wildly, but the Evader only succeeds partially,
    the Contest continues, but the Evader suffers two Fatigue Ticks"; "Once one succeeds and the
    other fails, the Engagement is over"."""
    trayer, betty = cid(table["trayer"]), cid(table["betty"])
    assert start_contest(table).status_code == 200
    assert last(table, "contest_started").summary == "A contest begins: Trayer, Betty."
    assert "Contest, round 1: waiting for Trayer and Betty to roll" in page(table, "watcher")
    # Trayer's Campfire 33: 10 is a wild success; Betty's Stealth 40: 60 a partial one
    assert post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"},
                rolls=(10,), monkeypatch=monkeypatch).status_code == 200
    assert post(table, "bob", "contest_roll", {"combatant": betty, "skill": "Stealth"},
                rolls=(60,), monkeypatch=monkeypatch).status_code == 200
    judged = last(table, "contest_round")
    assert judged.payload["event"]["ticks"] == {trayer: 0, betty: 2}
    assert judged.summary == ("Contest round 1: Trayer Double Down wild success; Betty Double Up success. "
                              "Betty loses 10 Fatigue (now 90).")
    assert state(table)["personae"][betty]["fatigue"] == 90
    shown = page(table, "bob")
    assert "A contest, round 2" in shown and 'aria-label="Fatigue 90 of 100"' in shown
    # round 2: Trayer's DU against Betty's Blown Roll ends it
    post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(50,), monkeypatch=monkeypatch)
    post(table, "bob", "contest_roll", {"combatant": betty, "skill": "Stealth"}, rolls=(90,), monkeypatch=monkeypatch)
    assert last(table, "contest_ended").summary == "The contest is over: Trayer prevails."
    table["betty"].refresh_from_db()
    assert table["betty"].sheet["fatigue"] == 90  # the sheet keeps what the contest left
    kept = Event.objects.filter(table=table["table"], kind="character.updated").latest("seq")
    assert kept.summary == "Betty's sheet now holds Fatigue 90."  # a contest, not "the fight"
    assert "The contest is over: Trayer prevails." in page(table, "watcher")


def test_a_contest_refuses_out_of_turn_and_for_anothers_persona(table, monkeypatch) -> None:
    """Each party rolls once a round, for their own Persona; the Director starts, prices and
    ends it ("the Director can modify up or down the cost in Fatigue")."""
    trayer, betty = cid(table["trayer"]), cid(table["betty"])
    before = snapshot(table)
    refused(post(table, "ann", "contest_start", {"characters": [table["trayer"].pk, table["betty"].pk]}),
            400, "Only the GM can start a contest")
    refused(post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(5,),
                 monkeypatch=monkeypatch), 400, "only for during a contest")
    refused(post(table, "gm", "contest_start", {"characters": [table["trayer"].pk]}), 400, "at least two Personae")
    refused(post(table, "gm", "contest_start", {"characters": [table["trayer"].pk, table["betty"].pk],
                                                "cost": "lots"}), 400, "The cost of a tick is a whole number")
    assert snapshot(table) == before
    start_contest(table, ("challenge", [table["betty"].pk]))
    before = snapshot(table)
    refused(post(table, "bob", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(5,),
                 monkeypatch=monkeypatch), 403, "You act only for the characters you control")
    refused(post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Flying"}, rolls=(5,),
                 monkeypatch=monkeypatch), 400, "Trayer has no skill called")
    refused(post(table, "ann", "contest_cost", {"cost": "10"}), 400, "Only the GM can change a tick")
    refused(post(table, "gm", "contest_cost", {"cost": "500"}), 400, "from 0 to 100")
    refused(post(table, "ann", "contest_roll", {"combatant": "c999999", "skill": "Campfire"}), 403,
            "You act only for the characters you control")
    assert post(table, "watcher", "contest_roll", {"combatant": trayer, "skill": "Campfire"}).status_code == 403
    assert snapshot(table) == before
    post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(40,), monkeypatch=monkeypatch)
    before = snapshot(table)
    refused(post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(5,),
                 monkeypatch=monkeypatch), 400, "Trayer has already rolled this round")
    refused(post(table, "ann", "contest_break_off", {"combatant": trayer}), 400, "break off before the next roll")
    assert snapshot(table) == before
    # Betty rolls a challenge (the Director's choice): her Core is 8
    post(table, "bob", "contest_roll", {"combatant": betty, "skill": "Stealth"}, rolls=(8,), monkeypatch=monkeypatch)
    assert last(table, "contest_rolled").payload["event"]["check"]["value"] == 8
    assert post(table, "gm", "contest_cost", {"cost": "10"}).status_code == 200
    assert post(table, "bob", "contest_break_off", {"combatant": betty}).status_code == 200
    assert last(table, "contest_ended").summary == "The contest is over: someone broke off."


# A fight.


def start_fight(t: dict[str, Any], *who: str) -> Any:
    chosen = [t[w].pk for w in (who or ("trayer", "garbo"))]
    return post(t, "gm", "combat_start", {"characters": chosen, "conditions": "a duel on the deck"})


def test_the_worked_examples_turn_one_through_the_routes(table, monkeypatch) -> None:
    """Seed, "EXAMPLE of Skills and Combat", Turn One: Trayer rolls 42 (+18 = 60 against 25),
    Garbo 80 (+25 = 105 against 18); "At the end of Turn One, Trayer is at 99 Wounds and 94
    Fatigue remaining. Garbo is slightly worse, at 98 Wounds and 93 Fatigue." The Game State,
    the Declarations, the roll-off with each side's chance and the Resolution Point are on the
    panel, and every step is in the log."""
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    assert start_fight(table).status_code == 200
    turn = last(table, "turn_started")
    assert turn.summary == ("Turn 1. Game State: Trayer 100 Wounds / 100 Fatigue; Garbo 100 Wounds / "
                            "100 Fatigue. Conditions: a duel on the deck.")
    shown = page(table, "ann")
    assert "A fight, Turn 1: Declaration" in shown and 'aria-label="Declare Trayer IN"' in shown
    assert re.search(r'<div id="turn-banner" class="turn is-mine"[^>]*>\s*<span class="turn-mine"><strong>Your turn:'
                     r"</strong> declare Trayer IN or OUT of the combat\.", shown)
    assert post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo,
                                          "intent": "to wound", "combat": "Soldiery (Sword and Shield)",
                                          "defense": "Soldiery (Sword and Shield)", "damage": "",
                                          "ranged": ""}).status_code == 200
    assert post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer,
                                         "combat": "Two-Hander", "defense": "Two-Hander"}).status_code == 200
    # Garbo is the Director's NPC: its figures are the Director's line; everyone reads its Intent
    declared = last(table, "declared")
    assert declared.summary == "Garbo is IN: to wound against Trayer."
    assert declared.private_summary == ("Garbo is IN: to wound against Trayer, with Two-Hander 25, "
                                        "defending with Two-Hander 25.")
    shown = page(table, "watcher")
    assert "A fight, Turn 1: the Combat Rolls" in shown
    assert "Chance of a Potential Wound" not in shown and "The odds depend on the Director&#x27;s figures." in shown
    # before anyone rolls, the Director reads the chances counted from Garbo's figures
    assert "Chance of a Potential Wound: Trayer 93%, Garbo 100%." in page(table, "gm")
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    post(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    rolled = last(table, "combat_rolled")
    assert rolled.summary == "Garbo rolls 80 against Trayer's Defense 18: a Potential Wound beating double the Defense."
    assert rolled.private_summary == (
        "Garbo rolls 80 + Two-Hander 25 = 105 against Trayer's Defense 18: "
        "a Potential Wound beating double the Defense.")
    assert last(table, "pairing_resolved").summary.startswith("Roll-off, Trayer and Garbo: both succeed equally")
    assert "Turn 1: the Director calls the Resolution Point" in page(table, "bob")
    assert post(table, "gm", "resolve").status_code == 200
    assert last(table, "resolution_point").summary == \
        "Resolution Point, Turn 1: Trayer 99 Wounds / 94 Fatigue; Garbo 98 Wounds / 93 Fatigue."
    people = state(table)["personae"]
    assert (people[trayer]["wounds"], people[trayer]["fatigue"]) == (99, 94)
    assert (people[garbo]["wounds"], people[garbo]["fatigue"]) == (98, 93)
    shown = page(table, "watcher")
    assert "<caption>Resolution Point, Turn 1</caption>" in shown and "A fight, Turn 2: Declaration" in shown
    assert 'aria-label="Fatigue 94 of 100"' in shown and "<td>100 → 93</td>" in shown
    assert post(table, "gm", "end").status_code == 200
    table["trayer"].refresh_from_db()
    assert (table["trayer"].sheet["wounds"], table["trayer"].sheet["fatigue"]) == (99, 94)


def test_a_fight_refuses_what_the_rules_do_not_allow_and_changes_nothing(table, monkeypatch) -> None:
    """Issue 17: the combat panel is "enforced by the server (nobody rolls for another's Persona,
    a Downed Persona can only rest)"; seed: "When your Fatigue reaches zero, you cannot continue
    to take Actions other than rest"."""
    trayer, betty, garbo = (cid(table[k]) for k in ("trayer", "betty", "garbo"))
    services.character_update(character=table["betty"], actor=table["gm"], name="Betty",
                              sheet={**table["betty"].sheet, "fatigue": 0})
    start_fight(table, "trayer", "betty", "garbo")
    assert "Betty 100 Wounds / 0 Fatigue (Downed)" in last(table, "turn_started").summary
    assert "OUT: rests (Downed: rest only)" in page(table, "bob")  # declared for her at the Game State
    before = snapshot(table)
    # out of turn: nobody rolls before everyone has declared; the Director waits for the rolls
    refused(post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(5,), monkeypatch=monkeypatch),
            400, "Not everyone has declared yet (waiting for Trayer, Garbo)")
    refused(post(table, "gm", "resolve"), 400, "Not everyone has declared yet")
    # for another's Persona, or the Director's
    refused(post(table, "bob", "declare", {"combatant": trayer, "stance": "in", "target": garbo}), 403,
            "You act only for the characters you control")
    refused(post(table, "ann", "declare", {"combatant": garbo, "stance": "in", "target": trayer}), 403,
            "You act only for the characters you control")
    refused(post(table, "ann", "timing", {"combatant": trayer, "modifier": "20"}), 400, "Only the GM can set Timing")
    refused(post(table, "ann", "end"), 400, "Only the GM")
    # a Downed Persona does nothing but rest
    refused(post(table, "bob", "declare", {"combatant": betty, "stance": "in", "target": garbo}), 400,
            "Betty is Downed and may only rest")
    refused(post(table, "bob", "declare", {"combatant": betty, "stance": "out", "action": "hide"}), 400,
            "Betty is Downed and may only rest")
    refused(post(table, "bob", "tend", {"combatant": betty}), 400, "Betty is Downed and may only rest")
    refused(post(table, "bob", "check", {"combatant": betty, "skill": "Stealth"}, rolls=(5,),
                 monkeypatch=monkeypatch), 400, "Betty is Downed and may only rest")
    refused(post(table, "bob", "practice", {"combatant": betty, "skill": "Stealth"}), 400, "Betty is Downed")
    # a malformed form, an unknown value
    refused(post(table, "gm", "timing", {"combatant": trayer, "modifier": "lots"}), 400,
            "A Timing modifier is a whole number")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo, "ranged": "perhaps"}),
            400, "Ranged is yes or no")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo, "damage": "x"}),
            400, "A weapon's damage is a whole number")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "maybe"}), 400, "Declare IN or OUT")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": "c999999"}), 400,
            "That is not a Persona in the fight under way")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": trayer}), 400,
            "Trayer cannot attack themselves")
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo,
                                           "combat": "Archery"}), 400, "Trayer has no skill called")
    refused(post(table, "gm", "correct", {"combatant": trayer, "track": "luck", "value": "5"}), 400,
            "A track is one of")
    refused(post(table, "gm", "correct", {"combatant": trayer, "track": "wounds", "value": "101"}), 400,
            "Wounds is a whole number from 0 to 100")
    refused(post(table, "gm", "combat_start", {"characters": [table["trayer"].pk, table["garbo"].pk]}), 400,
            "only for when nothing else is under way")
    # a spectator does nothing at all
    for command, data in (("declare", {"combatant": trayer, "stance": "out", "action": "x"}), ("resolve", {}),
                          ("undo", {}), ("rest", {"combatant": betty})):
        answer = post(table, "watcher", command, data)
        assert answer.status_code == 403 and "a spectator sees the play but does not act" in answer.content.decode()
    assert snapshot(table) == before
    # what they may do
    assert post(table, "bob", "rest", {"combatant": betty}).status_code == 200
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    # one not Combat Eligible is out of the fight, no target (issue 33)
    refused(post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": betty}), 400,
            "Betty is Downed and cannot be attacked")
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    before = snapshot(table)
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "out", "action": "run"}), 400,
            "declarations are fixed until the next Turn")
    refused(post(table, "gm", "resolve"), 400, "Not every Combat Roll is in (waiting for Trayer, Garbo)")
    refused(post(table, "bob", "combat_roll", {"combatant": betty}, rolls=(5,), monkeypatch=monkeypatch), 400,
            "Betty declared OUT of the combat this Turn")
    assert snapshot(table) == before
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(50,), monkeypatch=monkeypatch)
    refused(post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(50,), monkeypatch=monkeypatch), 400,
            "Trayer has already rolled this Turn")
    refused(post(table, "gm", "timing", {"combatant": trayer, "modifier": "-20"}), 400, "already rolled")


def test_conditions_too_long_are_refused_not_cut_short(table) -> None:
    """One policy for what is sent (issue 24: the parser is the one check of a submitted value):
    the Director's Conditions longer than 300 characters are refused with a clear message and
    change nothing, as a too long Intent is; never cut short without a word."""
    long = "rain " * 61  # 305 characters
    chosen = [table["trayer"].pk, table["garbo"].pk]
    before = snapshot(table)
    refused(post(table, "gm", "combat_start", {"characters": chosen, "conditions": long}), 400,
            "Conditions is at most 300 characters")
    assert snapshot(table) == before
    start_fight(table)
    before = snapshot(table)
    refused(post(table, "gm", "set_conditions", {"conditions": long}), 400, "Conditions is at most 300 characters")
    assert snapshot(table) == before
    assert post(table, "gm", "set_conditions", {"conditions": "  rain   on the  deck "}).status_code == 200
    assert state(table)["scene_conditions"] == "rain on the deck"


def test_the_director_takes_back_the_last_step(table, monkeypatch) -> None:
    """Not in the seed: a slip of the hand at the table (the wrong target) is taken back by the
    Director; the undo is in the log, and nobody else may."""
    trayer, garbo, betty = cid(table["trayer"]), cid(table["garbo"]), cid(table["betty"])
    start_fight(table, "trayer", "betty", "garbo")
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": betty})
    assert "Undo last step" in page(table, "gm")
    before = snapshot(table)
    refused(post(table, "ann", "undo"), 400, "Only the GM can take back the last step")
    assert snapshot(table) == before
    assert post(table, "gm", "undo").status_code == 200
    assert last(table, "undone").summary == (
        "The Director takes back the last step (Trayer is IN: to wound against Betty, with Soldiery "
        "(Sword and Shield) 18, defending with Soldiery (Sword and Shield) 18).")
    assert trayer not in state(table)["combat"]["declared"]
    assert post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo}).status_code == 200


@pytest.mark.parametrize("command", [c.name for c in registry.get("passages").commands])
def test_every_command_is_reachable_and_answers_its_notice(table, command: str) -> None:
    """Every registered command has its route; in a fight, each either runs or is refused
    inline (never a 500, never a page of its own)."""
    start_fight(table)
    data = {"combatant": cid(table["trayer"]), "characters": [table["trayer"].pk, table["garbo"].pk],
            "skill": "Campfire", "stance": "out", "action": "watch", "modifier": "5", "track": "fatigue",
            "value": "90", "cost": "5", "conditions": "rain"}
    answer = table["clients"]["gm"].post(reverse("table_command", args=[table["table"].pk, command]), data, **HTMX)
    assert answer.status_code in (200, 400), answer.content[:300]
    assert 'id="passages-notice"' in answer.content.decode()


def test_the_gm_is_prompted_for_an_npc_and_everyone_else_reads_whose_move_it_is(table) -> None:
    """The banner (games/contract.py, Panel "turn"): "Your turn" for everyone whose input the
    step waits for (issue 23: not only the first of a round of declarations), the GM for a
    Persona nobody plays; everyone else reads whose Declaration is awaited."""
    start_fight(table)
    both = {who: page(table, who) for who in ("gm", "ann", "bob", "watcher")}
    assert "<span class=\"turn-mine\"><strong>Your turn:</strong> declare Trayer IN or OUT of the combat.</span>" \
        in both["ann"]
    assert "<span class=\"turn-mine\"><strong>Your turn:</strong> declare Garbo IN or OUT of the combat.</span>" \
        in both["gm"]  # Garbo, the NPC, waits for the Director at the same time
    for who in ("bob", "watcher"):
        assert '<span class="turn-other">Turn 1: waiting for the Declaration of Trayer and Garbo.</span>' in both[who]
        assert "turn-mine" not in both[who]
    post(table, "ann", "declare", {"combatant": cid(table["trayer"]), "stance": "out", "action": "watch"})
    gm, ann = page(table, "gm"), page(table, "ann")
    assert "<span class=\"turn-mine\"><strong>Your turn:</strong> declare Garbo IN or OUT of the combat.</span>" in gm
    assert '<span class="turn-other">Turn 1: waiting for the Declaration of Garbo.</span>' in ann


def test_the_odds_page(table) -> None:
    """Issue 17, Odds: "the exact chance of each band for that BASE (and as a challenge)"; the
    seed's example BASE 26: DD 13 or below, Success 14-26, DU 27-52, Blown 53-99, 100 Critical."""
    shown = Client().get(reverse("game_page", args=["passages", "odds"]), {"base": "26"}).content.decode()
    row = shown[shown.index("<th scope=\"row\">Check</th>"):]
    row = row[: row.index("</tr>")]
    assert "BASE 26 (DU 52, DD 13)" in row and "<td>13%</td><td>13%</td><td>26%</td><td>47%</td><td>1%</td>" in row
    assert "Core 6 (DU 12, DD 3)" in shown
    assert shown.count("<svg class=\"band-chart\"") == 2 and 'class="seg-double_down"' in shown
    assert "First lands a Potential Wound</th><td>93.0%" in shown


@pytest.mark.django_db(transaction=True)
async def test_every_step_reaches_a_spectator_live(table, monkeypatch) -> None:
    """Issue 17: "Every roll, band and track change live for everyone, spectators included"."""
    client = Client()
    await database_sync_to_async(client.force_login)(table["watcher"].user)
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table['table'].pk}/",
        headers=[(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
                 (b"origin", b"http://127.0.0.1")],
    )
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({"type": "resume", "after": 0}))
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    send = database_sync_to_async(post)
    await database_sync_to_async(start_fight)(table)
    await send(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    await send(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    await send(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    await send(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    await send(table, "gm", "resolve")
    received = ""
    # the log lines, live or replayed; the panel comes with the last, or after a replay's lines
    while "Resolution Point, Turn 1" not in received or 'aria-label="Fatigue 94 of 100"' not in received:
        received += (await comm.receive_output(timeout=3)).get("text", "")
    assert "Trayer rolls 42 + Soldiery (Sword and Shield) 18 = 60" in received
    assert re.search(r'<section id="passages-panel"[^>]*hx-swap-oob="true"', received)
    assert 'aria-label="Fatigue 94 of 100"' in received and 'id="turn-banner"' in received
    await comm.disconnect()


def test_the_director_sees_only_the_npcs_controls_and_stands_in_from_the_tools(table, monkeypatch) -> None:
    """A player's controls are the player's: the Director's page draws them hidden (the seat's
    CSS), and offers a compact stand-in under the Director's tools for a player away."""
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    start_fight(table)
    gm = page(table, "gm")
    assert 'body[data-seat="gm"] .passages .act:not([data-controller=""]) { display: none; }' in gm
    assert f'<div class="controller-only act" data-controller="{table["ann"].pk}" id="declare-{trayer}-t1-' in gm
    assert f'<div class="controller-only act" data-controller="" id="declare-{garbo}-t1-' in gm
    assert 'aria-label="Stand in: Declare Trayer IN"' in gm and 'aria-label="Stand in: Declare Garbo IN"' not in gm
    assert post(table, "gm", "declare", {"combatant": trayer, "stance": "in", "target": garbo}).status_code == 200
    post(table, "gm", "declare", {"combatant": garbo, "stance": "out", "action": "growls"})
    assert "Stand in: Combat Roll for Trayer" in page(table, "gm")
    post(table, "gm", "combat_roll", {"combatant": trayer}, rolls=(60,), monkeypatch=monkeypatch)
    assert last(table, "combat_rolled").summary.startswith("Trayer rolls 60 + Soldiery")



def test_the_persona_form_says_how_skills_are_written(table) -> None:
    """The sheet form gives the system's own help for its skills (a BASE of 1-95), not a
    rating of another game's."""
    shown = table["clients"]["ann"].get(reverse("character_new", args=[table["table"].pk])).content.decode()
    assert "One per line, &#x27;Skill: BASE&#x27;, each BASE 1-95 (95 is Mastered)" in shown
    assert "Driving: 6" not in shown
