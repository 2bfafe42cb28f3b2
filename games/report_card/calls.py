"""Calling a check: for one character (perhaps helped by another), or for a group.

Seed: "Skill checks are resolved by having the player draw the top card from their decks";
"Multiple Players Making a Skill Check Together"; "One Player Helps Another".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card import sheet as report
from games.report_card.access import is_gm, plays, require_gm
from games.report_card.errors import AlreadyToday, BadInput, NotNow, NotYours
from games.report_card.flow import Event, Step, readings
from games.report_card.rules import rank_of, skill_of, with_skill
from games.report_card.state import name_of

State = Mapping[str, Any]
TASK_LENGTH = 120


def people_of(command: Mapping[str, Any], wanted: list[str]) -> dict[str, dict[str, Any]]:
    """The named characters' Report Cards, checked again (a stored sheet may be hand-edited)."""
    given = command.get("characters") or {}
    people = {}
    for cid in wanted:
        if cid not in given:
            raise BadInput(f"No character {cid!r} at this table.")
        raw = given[cid]
        name = str(raw.get("name") or cid)
        people[cid] = {**report.read(raw, name), "name": name, "player": raw.get("player")}
        if raw.get("deck"):
            people[cid]["deck"] = str(raw["deck"])
    return people


def _task(command: Mapping[str, Any]) -> tuple[str, str]:
    text = " ".join(str(command.get("task") or "").split())
    if not text:
        raise BadInput("Say what the check is for: the Day rule counts checks by what they are for.")
    if len(text) > TASK_LENGTH:
        raise BadInput(f"Say what the check is for in at most {TASK_LENGTH} characters.")
    return text, text.casefold()


def _day_rule(state: State, key: str, repeat: bool) -> None:
    """Seed: "Skill Checks for a specific thing cannot be made more than once per Day. If you
    fail a skill check, it stays failed." and "a Skill Check can only be attempted by one
    player". Reading: the rule counts checks by what they are for, whoever made them; the
    GM's ``repeat`` is the seed's "Unless otherwise specified"."""
    if repeat:
        return
    for entry in state["today"]:
        if entry["key"] == key:
            who = " and ".join(name_of(state, c) for c in entry["by"])
            result = (entry["outcome"] or "under way").replace("_", " ")
            raise AlreadyToday(f"{who} already made the check for '{entry['task']}' today ({result}): it "
                               "cannot be made again until a new Day.")


def _part(person: Mapping[str, Any], cid: str, role: str, skill: str, rank: str, bonus: bool,
          penalty: bool, task: str = "") -> dict[str, Any]:
    faced, note = with_skill(rank, skill, person["a_plus"], person["f_skill"])
    return {"cid": cid, "role": role, "skill": skill, "base_rank": rank, "rank": faced, "note": note,
            "bonus": bool(bonus), "penalty": bool(penalty), "help": None, "task": task,
            "attempts": [], "accepted": False}


def flag(command: Mapping[str, Any], key: str) -> bool:
    return bool(command.get(key))


def _check(state: State, command: Mapping[str, Any], mode: str, task: str, key: str, skill: str,
           rank: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": state["next_check"], "mode": mode, "task": task, "key": key, "skill": skill,
            "rank": rank, "inconsequential": flag(command, "inconsequential"),
            "hold": flag(command, "hold"), "by": str((command.get("actor") or {}).get("name") or ""),
            "parts": parts}


def call_check(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """The GM (or the player, if the GM allows) calls a check for one character, perhaps with
    another character helping. Seed: "Skill checks are resolved by having the player draw the
    top card from their decks"; "One Player Helps Another"."""
    # Reading: one check at a time, as at a table; the GM closes one that lingers.
    if state["check"] is not None:
        raise NotNow(f"The check for '{state['check']['task']}' is still open: settle it or close it first.")
    cid = str(command.get("combatant") or "")
    helper = str(command.get("helper") or "")
    if helper and helper == cid:
        raise BadInput("A character cannot help their own check.")
    people = people_of(command, [cid] + ([helper] if helper else []))
    # Reading: a player the GM lets call checks calls them for their own character only; what
    # the seed leaves "at the GM's discretion" (holding the rank, a repeat within the Day,
    # granting without a draw) and bringing in another player's character stay the GM's.
    if not is_gm(actor):
        if not state["players_call"]:
            raise NotYours("Only the GM calls checks at this table (the GM can let players call their own).")
        if not plays(actor, people[cid]):
            raise NotYours("You call checks only for your own character.")
        for option, what in (("helper", "add a helper"), ("repeat", "repeat a check within a Day"),
                             ("hold", "hold the rank on a retry"), ("grant", "grant a check without a draw")):
            if command.get(option):
                raise NotYours(f"Only the GM can {what}.")
    skill, rank = skill_of(command.get("skill")), rank_of(command.get("rank"))
    task, key = _task(command)
    _day_rule(state, key, flag(command, "repeat"))
    grant = str(command.get("grant") or "")
    if grant not in ("", "success", "failure"):
        raise BadInput("A granted check is a success or a failure.")
    if grant and not flag(command, "inconsequential"):
        # Seed: for an Inconsequential check the GM "can even skip the check itself and grant
        # automatic failure or success".
        raise BadInput("Only an Inconsequential check can be granted without a draw.")
    if grant and helper:
        raise BadInput("A granted check draws no card, so nobody helps it.")
    parts = []
    mode = "single"
    if helper:
        mode = "help"
        helper_task = " ".join(str(command.get("helper_task") or "").split())[:TASK_LENGTH]
        parts.append(_part(people[helper], helper, "helper", skill_of(command.get("helper_skill")),
                           rank_of(command.get("helper_rank")), False, False, helper_task))
    parts.append(_part(people[cid], cid, "main", skill, rank, flag(command, "bonus"), flag(command, "penalty")))
    run = Step(state, cards)
    check = _check(state, command, mode, task, key, skill, rank, parts)
    run.emit({"type": "check_called", "check": check, "characters": people, "by_gm": is_gm(actor),
              "decks": {} if grant else _readings(state, people, check, cards)})
    if grant:  # no card was drawn, so none goes to the discard
        run.close({"outcome": grant, "winners": [cid], "reason": "granted"}, "gm")
    return run.events


def call_group(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed, "Multiple Players Making a Skill Check Together": everyone draws (each their own
    card, in any order), each against the rank their own A+ or F gives them."""
    require_gm(actor, "call a group check")
    if state["check"] is not None:
        raise NotNow(f"The check for '{state['check']['task']}' is still open: settle it or close it first.")
    mode = str(command.get("mode") or "")
    if mode not in ("only_one", "everyone"):
        raise BadInput("A group check is 'only one needs to succeed' or 'everyone needs to succeed'.")
    cids = list(dict.fromkeys(str(c) for c in command.get("combatants") or ()))
    if len(cids) < 2:
        raise BadInput("A group check needs at least two characters.")
    people = people_of(command, cids)
    skill, rank = skill_of(command.get("skill")), rank_of(command.get("rank"))
    task, key = _task(command)
    _day_rule(state, key, flag(command, "repeat"))
    bonus, penalty = set(command.get("bonus") or ()), set(command.get("penalty") or ())
    parts = [_part(people[c], c, "member", skill, rank, c in bonus, c in penalty) for c in cids]
    check = _check(state, command, mode, task, key, skill, rank, parts)
    return [{"type": "check_called", "check": check, "characters": people, "by_gm": True,
             "decks": _readings(state, people, check, cards)}]


def _readings(state: State, people: Mapping[str, Any], check: Mapping[str, Any],
              cards: Cards | None) -> dict[str, Any]:
    """Each deck the check draws from, read as it is called: the odds before the first draw."""
    return readings({**state, "characters": {**state["characters"], **people}}, cards, check)
