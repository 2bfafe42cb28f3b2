"""A Passages fight runs to its end by itself (issue 33), through the table's own routes and
pages: who is out (not Combat Eligible) is no target, a fight over at its Resolution Point
starts no new Turn and every seat reads so, the flags of the fight end with it; the forms start
on an enemy and on the best skill; everyone awaited is told; and the defects found in long play
(a correction that Downs a Persona, a Downed party in a contest, the Director's call of a Check
or a Challenge)."""

from __future__ import annotations

import html
import re

from tabletop import services
from tests.integration.test_passages_table import (  # noqa: F401
    Event, cid, last, page, post, refused, start_contest, start_fight, state, table)


def kinds(t) -> list[str]:
    return list(Event.objects.filter(table=t["table"], kind__startswith="passages.").values_list("kind", flat=True))


def banner(shown: str) -> str:
    """The turn banner's words, as a reader reads them."""
    found = shown[shown.index('<div id="turn-banner"'):]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found[: found.index("</div>")])).split()).replace(" .", ".")


def _sheet(t, who: str, **tracks: int) -> None:
    services.character_update(character=t[who], actor=t["gm"], name=t[who].name, sheet={**t[who].sheet, **tracks})


def _duel_to_garbos_fall(t, monkeypatch) -> None:
    """Turn One of the worked example with Garbo at 2 Wounds: both blows land equally, Garbo's
    2 points (3, less 1 for his hide) leave him at 0 Wounds, Unconscious."""
    trayer, garbo = cid(t["trayer"]), cid(t["garbo"])
    _sheet(t, "garbo", wounds=2)
    assert start_fight(t).status_code == 200
    post(t, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(t, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    post(t, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    post(t, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)


def test_a_fight_over_at_its_resolution_point_starts_no_new_turn(table, monkeypatch) -> None:
    """Seed: "Combat Eligibility is the clarification of whether a Persona CAN continue the
    Combat into the next Turn. (Health or Fatigue at or below Zero ...)"; "Persona whose Wounds
    ... fall to zero ... are 'Downed' and 'Unconscious.' Such personae cannot perform any Actions
    until revived." The issue: "the Bandit was Unconscious in Turn 4; the fight ran to Turn 22".
    Once the NPCs' side has no one Combat Eligible, the Turn ends at its Resolution Point, every
    seat reads that the fight is over, and the Director's one step is "End the fight"."""
    _duel_to_garbos_fall(table, monkeypatch)
    assert post(table, "gm", "resolve").status_code == 200
    assert last(table, "resolution_point").summary == \
        "Resolution Point, Turn 1: Trayer 99 Wounds / 94 Fatigue; Garbo 0 Wounds / 0 Fatigue, Unconscious."
    assert kinds(table).count("passages.turn_started") == 1  # no Turn 2 starts by itself
    for who in ("gm", "ann", "bob", "watcher"):
        shown = page(table, who)
        assert "The fight is over: the PCs' side stands." in banner(shown), who
        assert "Your turn" not in banner(shown)
        assert ('class="fight-end"' in shown) == (who == "gm")  # the Director's "End the fight"
    assert re.search(r'<form class="fight-end"[^>]*hx-post="/tables/\d+/commands/end/"[^>]*>'
                     r'<button type="submit">End the fight</button>', page(table, "gm"))
    # nothing carries it on: no new Turn, no Declaration, no roll
    refused(post(table, "gm", "resolve"), 400,
            "The fight is over: the PCs' side stands: end the fight rather than start a new Turn.")
    refused(post(table, "ann", "declare", {"combatant": cid(table["trayer"]), "stance": "out", "action": "bow"}),
            400, "Turn 1 is over and no new Turn has started: the fight is over.")
    refused(post(table, "ann", "rest", {"combatant": cid(table["trayer"])}), 400, "Turn 1 is over")
    assert post(table, "gm", "end").status_code == 200
    assert last(table, "combat_ended").summary == "The fight ends in Turn 1."
    table["garbo"].refresh_from_db()
    assert (table["garbo"].sheet["wounds"], table["garbo"].sheet["fatigue"]) == (0, 0)  # stays Unconscious


def test_a_side_that_stands_again_lets_the_director_start_the_next_turn(table, monkeypatch) -> None:
    """The Director moves a Persona to a side (games/core/fights.py, "set_side"): logged for
    everyone. With Betty turned against Trayer, the fight Garbo's fall ended is on again, and the
    Director, alone, starts its next Turn."""
    trayer, betty, garbo = (cid(table[k]) for k in ("trayer", "betty", "garbo"))
    _sheet(table, "garbo", wounds=2)
    start_fight(table, "trayer", "betty", "garbo")
    # Betty on the PCs' side is no first target of Trayer's: Garbo is
    assert re.search(rf'<select id="target-{trayer}" name="target"><option value="{garbo}">Garbo</option>'
                     rf'<option value="{betty}">Betty</option></select>', page(table, "ann"))
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(table, "bob", "declare", {"combatant": betty, "stance": "out", "action": "watch"})
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    post(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    post(table, "gm", "resolve")
    assert "The fight is over: the PCs' side stands." in banner(page(table, "bob"))
    refused(post(table, "ann", "set_side", {"character": table["betty"].pk, "side": "Bandits"}), 400, "Only the GM")
    refused(post(table, "gm", "set_side", {"character": table["betty"].pk, "side": "PCs"}), 400,
            "Betty is already on the PCs' side.")
    refused(post(table, "gm", "set_side", {"character": table["betty"].pk, "side": "x" * 41}), 400,
            "Name the side, in at most 40 characters")
    assert post(table, "gm", "set_side", {"character": table["betty"].pk, "side": "Bandits"}).status_code == 200
    assert last(table, "side_set").summary == "The Director moves Betty to the Bandits' side."
    watcher = page(table, "watcher")
    assert "The Director moves Betty to the Bandits&#39; side." in watcher
    assert "Turn 1 is over: the Director starts the next Turn." in banner(watcher)
    gm = page(table, "gm")
    assert ">Start Turn 2</button>" in gm and "Your turn:</strong> start the next Turn, or end the fight." in gm
    assert post(table, "gm", "resolve").status_code == 200
    assert kinds(table)[-1] == "passages.turn_started" and state(table)["combat"]["turn"] == 2
    # Trayer's enemy now is Betty; Garbo, Unconscious, is no target at all
    assert re.search(rf'<select id="target-{trayer}" name="target"><option value="{betty}">Betty</option></select>',
                     page(table, "ann"))
    refused(post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo}), 400,
            "Garbo is Unconscious and cannot be attacked.")


def test_the_flags_of_the_fight_end_with_it(table, monkeypatch) -> None:
    """Seed: "Combat Status is a reminder of current Conditions each Persona is dealing with for
    this particular turn"; "the Director adds any changes to the Conditions of the Engagement".
    A Persona's Status, its lasting modifier and hindrance, the Engagement's modifier to every
    Combat Roll and the sides the Director set end with the fight; the tracks stay on the sheets."""
    trayer = cid(table["trayer"])
    _duel_to_garbos_fall(table, monkeypatch)
    post(table, "gm", "set_status", {"combatant": trayer, "status": "on the stairs", "modifier": "10",
                                     "hindered": "yes"})
    post(table, "gm", "set_conditions", {"conditions": "a duel on the deck", "modifier": "-5"})
    post(table, "gm", "set_side", {"character": table["betty"].pk, "side": "Bandits"})
    post(table, "gm", "resolve")
    post(table, "gm", "end")
    after = state(table)
    assert "sides" not in after and after["conditions_modifier"] == 0
    assert {k: after["personae"][trayer][k] for k in ("status", "modifier", "hindered")} == \
        {"status": "", "modifier": 0, "hindered": False}
    assert after["scene_conditions"] == "a duel on the deck"  # the Scene's words stay
    start_fight(table, "trayer", "betty")
    opened = last(table, "turn_started")
    assert "on the stairs" not in opened.summary and "Trayer 99 Wounds / 94 Fatigue" in opened.summary
    assert '<span class="tag">-5 to every Combat Roll</span>' not in page(table, "ann")


def test_a_correction_that_downs_an_attacker_no_longer_holds_the_turn(table, monkeypatch) -> None:
    """Seed: "Persona whose Fatigue reduces by Damage, Consequences, or Results to zero is
    'Downed' and may only make a Resting Action in the next Turn." The issue: after the
    Director's correction leaves a Persona Downed, nothing could resolve ("waiting for A"). Its
    attack lapses: the Turn waits only for the others' Combat Rolls."""
    trayer, betty, garbo = (cid(table[k]) for k in ("trayer", "betty", "garbo"))
    services.character_update(character=table["betty"], actor=table["bob"], name="Betty",
                              sheet={**table["betty"].sheet, "combat_skill": "Brawl", "weapon_damage": 2})
    table["betty"].refresh_from_db()
    start_fight(table, "trayer", "betty", "garbo")
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    assert post(table, "bob", "declare", {"combatant": betty, "stance": "in", "target": garbo}).status_code == 200
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    assert post(table, "gm", "correct", {"combatant": betty, "track": "fatigue", "value": "0"}).status_code == 200
    assert "Turn 1: waiting for the Combat Roll of Trayer and Garbo." in banner(page(table, "watcher"))
    assert "Your turn" not in banner(page(table, "bob"))
    assert "the attack lapses: Betty is Downed" in page(table, "bob")
    refused(post(table, "bob", "combat_roll", {"combatant": betty}, rolls=(50,), monkeypatch=monkeypatch), 400,
            "Betty is Downed and may only rest")
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    post(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    assert post(table, "gm", "resolve").status_code == 200
    point = last(table, "resolution_point").payload["event"]
    rows = {r["combatant"]: r for r in point["rows"]}
    assert rows[betty]["action"] == 0  # she made no Combat Action
    assert state(table)["combat"]["turn"] == 2  # Trayer and Garbo both stand: the fight goes on


def test_a_roll_made_before_its_target_was_downed_still_lands(table, monkeypatch) -> None:
    """Garbo rolled against Trayer; then the Director's correction Downs Trayer, whose own roll
    lapses: Garbo's blow, struck, stands alone ("A Persona can be attacked ... without being
    subject to it") and resolves at the Resolution Point; the fight, over, starts no new Turn."""
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    start_fight(table)
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    post(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    post(table, "gm", "correct", {"combatant": trayer, "track": "fatigue", "value": "0"})
    assert "The fight is over: the NPCs' side stands." in banner(page(table, "ann"))
    shown = page(table, "gm")
    assert "Call the Resolution Point" in shown and "the Resolution Point tallies this Turn" in shown
    assert post(table, "gm", "resolve").status_code == 200
    assert last(table, "pairing_resolved").summary.startswith("Roll-off, Garbo on Trayer: Garbo's attack succeeds.")
    assert last(table, "resolution_point").payload["event"]["rows"][0]["damage"] == 1  # 3, halved by brigantine
    assert kinds(table).count("passages.turn_started") == 1


def test_a_downed_party_does_not_stop_a_contest_round(table, monkeypatch) -> None:
    """Seed: "Contests continue until one party succeeds and the other fails, one or both
    collapse from fatigue, or one breaks off"; "When your Fatigue reaches zero, you cannot
    continue to take Actions other than rest." A party the Director's correction Downs collapses
    out of the contest, and the round is judged among the others; a Downed Persona cannot join."""
    trayer, betty, garbo = (cid(table[k]) for k in ("trayer", "betty", "garbo"))
    dora = services.character_create(table=table["table"], actor=table["gm"], name="Dora", npc=True,
                                     sheet={"skills": "Stealth: 50", "fatigue": 0})
    start_contest(table, ("characters", [table["trayer"].pk, table["betty"].pk, table["garbo"].pk]))
    refused(post(table, "gm", "join", {"characters": [dora.pk]}), 400, "Dora is Downed and may only rest")
    post(table, "ann", "contest_roll", {"combatant": trayer, "skill": "Campfire"}, rolls=(10,), monkeypatch=monkeypatch)
    post(table, "gm", "contest_roll", {"combatant": garbo, "skill": "Two-Hander"}, rolls=(20,), monkeypatch=monkeypatch)
    assert post(table, "gm", "correct", {"combatant": betty, "track": "fatigue", "value": "0"}).status_code == 200
    judged = last(table, "contest_round")
    assert judged.payload["event"]["collapsed"] == [betty]
    assert judged.summary == ("Contest round 1: Trayer Double Down wild success; Garbo Success. "
                              "Garbo loses 5 Fatigue (now 95). Betty collapses.")
    assert state(table)["contest"]["active"] == [trayer, garbo]
    assert "Contest, round 2: waiting for Trayer and Garbo to roll." in banner(page(table, "watcher"))


def test_a_one_off_check_or_challenge_is_the_directors_call(table, monkeypatch) -> None:
    """Seed: "each can be a Check OR a Challenge by choice of the Director"; "CHALLENGES are
    Actions hindered by certain circumstances, or specific Conditions decided on by the
    Director." A player rolls as the Director's call stands (and asks at the table for another);
    the Director calls it roll by roll, or by the Conditions, and the form says which it is."""
    trayer = table["trayer"].pk
    before = kinds(table)
    for data in ({"mode": "challenge"}, {"mode": "check", "call": "challenge"}, {"challenge": "1"}):
        refused(post(table, "ann", "check", {"character": trayer, "skill": "Campfire", **data}, check=True,
                     rolls=(7,), monkeypatch=monkeypatch), 400,
                "Whether a roll is a Check or a Challenge is the Director's choice: it is a Check now")
    assert kinds(table) == before
    ann = page(table, "ann")
    assert "A Check: the Director calls a Challenge when the Conditions hinder." in ann and 'name="call"' not in ann
    assert 'name="call"' in page(table, "gm")
    assert post(table, "gm", "set_conditions", {"conditions": "a storm, the ship sinking", "hinder": "yes"}
                ).status_code == 200
    assert "they hinder: one-off rolls are Challenges" in last(table, "conditions_set").summary
    assert "A Challenge (Core): the Director says the Conditions hinder." in page(table, "ann")
    post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "check"}, check=True,
         rolls=(7,), monkeypatch=monkeypatch)
    rolled = Event.objects.filter(table=table["table"], kind="passages.check_rolled").latest("seq")
    assert rolled.payload["check"]["challenge"] and rolled.payload["check"]["value"] == 7  # Core of 33
    # the Director, for this roll, calls a Check even in the storm
    post(table, "gm", "check", {"character": trayer, "skill": "Campfire", "call": "check"}, check=True,
         rolls=(30,), monkeypatch=monkeypatch)
    rolled = Event.objects.filter(table=table["table"], kind="passages.check_rolled").latest("seq")
    assert not rolled.payload["check"]["challenge"] and rolled.payload["check"]["band"] == "success"


def test_the_forms_start_on_an_enemy_and_the_best_skill_and_a_fight_on_everyone(table) -> None:
    """Issue 33, "Sensible defaults": "A target list starts on a standing enemy, never an ally; a
    skill list on the character's best skill for the action; 'Start a fight' with every present
    character ticked"."""
    gm = page(table, "gm")
    start = gm[gm.index('aria-label="Start a fight"'):]
    start = start[: start.index("</fieldset>")]
    assert start.count('type="checkbox"') == 3 and start.count(" checked>") == 3
    # Trayer: Soldiery 18, Campfire 33, Intimidation 32: a check starts on Campfire
    assert re.search(r'<select id="check-skill-\d+" name="skill"><option value="Soldiery \(Sword and Shield\)">[^<]*'
                     r'</option><option value="Campfire" selected>Campfire \(33\)</option>', page(table, "ann"))
    _sheet(table, "betty", wounds=0)
    start_fight(table, "trayer", "betty", "garbo")
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    # Betty, Unconscious, is on no list; Garbo, the enemy, first
    assert re.search(rf'<select id="target-{trayer}" name="target"><option value="{garbo}">Garbo</option></select>',
                     page(table, "ann"))
    assert re.search(rf'<select id="target-{garbo}" name="target"><option value="{trayer}">Trayer</option></select>',
                     page(table, "gm"))
    post(table, "gm", "end")
    _sheet(table, "betty", wounds=100, fatigue=100)  # revived, the Director's edit
    assert start_contest(table).status_code == 200
    assert re.search(r'<select id="contest-skill-c\d+" name="skill"><option value="Stealth" selected>',
                     page(table, "bob"))


def test_everyone_a_simultaneous_step_awaits_is_told(table, monkeypatch) -> None:
    """Issue 33: "each player a simultaneous step waits for reads 'Your turn' ... and the banner
    names them all": the Declarations, then the Combat Rolls, each seat for its own Persona."""
    trayer, betty, garbo = (cid(table[k]) for k in ("trayer", "betty", "garbo"))
    services.character_update(character=table["betty"], actor=table["bob"], name="Betty",
                              sheet={**table["betty"].sheet, "combat_skill": "Brawl", "weapon_damage": 2})
    start_fight(table, "trayer", "betty", "garbo")
    said = {who: banner(page(table, who)) for who in ("gm", "ann", "bob", "watcher")}
    assert "Your turn: declare Trayer IN or OUT of the combat." in said["ann"]
    assert "Your turn: declare Betty IN or OUT of the combat." in said["bob"]
    assert "Your turn: declare Garbo IN or OUT of the combat." in said["gm"]
    assert "Turn 1: waiting for the Declaration of Trayer, Betty and Garbo." in said["watcher"]
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(table, "bob", "declare", {"combatant": betty, "stance": "in", "target": garbo})
    post(table, "gm", "declare", {"combatant": garbo, "stance": "out", "action": "parley"})
    said = {who: banner(page(table, who)) for who in ("gm", "ann", "bob", "watcher")}
    assert "Your turn: make Trayer's Combat Roll." in said["ann"]
    assert "Your turn: make Betty's Combat Roll." in said["bob"]
    assert "Your turn" not in said["gm"] and "Your turn" not in said["watcher"]
    assert "Turn 1: waiting for the Combat Roll of Trayer and Betty." in said["watcher"]
    panel = state(table)  # the view's turn names both (games/contract.py, Panel)
    from games.passages.panel import _turn
    turn = _turn(panel, {c: p["name"] for c, p in panel["personae"].items()})
    assert turn["waiting"] == [trayer, betty] and set(turn["prompts"]) == {trayer, betty}
