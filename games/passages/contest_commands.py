"""Contests at the table: the ``contest_start``, ``contest_roll``, ``contest_break_off`` and
``contest_cost`` moves, and what a round costs once every party has rolled (its arithmetic is
``contest``'s).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.passages import contest, persona, rules, tracks
from games.passages import state as st
from games.passages.access import find, require_able, require_mode
from games.passages.errors import BadValue, CannotAct, NotNow
from games.passages.events import Event, after


def scene_personae(cids: list[str], turn: Turn) -> list[dict[str, Any]]:
    """The Personae a contest or fight begins with, from the table's sheets as they are now
    (``turn.characters``), each marked an NPC or not as the table says: the event records
    them, the rules' own record of the sheets as the scene began."""
    people = []
    for cid in cids:
        character = turn.character(cid)
        if character is None:
            raise BadValue("One of those Personae is no longer at the table.")
        people.append(persona.persona({**character.combatant, "npc": character.is_npc}))
    return people


def contest_start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "Contests are Actions opposed by another actor on the stage or Scene. The
    Director determines what is or is not a Contest." Each party's roll "can be a Check OR a
    Challenge by choice of the Director" (``challenge``: the ids rolling challenges); "Magic
    Duels use Magical Resources rather than Fatigue" (``magic``); "the Director can modify up
    or down the cost in Fatigue" (``cost``: points a tick, 5 unless the Director says)."""
    require_mode(state, st.IDLE)
    people = scene_personae(args["combatants"], turn)
    ids = [p["id"] for p in people]
    challenge = [cid for cid in ids if cid in args.get("challenge", ())]
    magic = bool(args.get("magic"))
    for person in people:
        require_able(person)
        if magic and person["magic"] <= 0:
            raise CannotAct(f"{person['name']} has no Magical Resources left to duel with.")
    return [{"type": "contest_started", "personae": people, "challenge": challenge, "magic": magic,
             "cost": args.get("cost", tracks.TICK)}]


def _contest_progress(state: Mapping[str, Any]) -> list[Event]:
    """Once every party still in has rolled: the round's Fatigue, and whether it ends."""
    contest_state = state["contest"]
    active = list(contest_state["active"])
    if len(active) < 2 or st.contest_waiting(state):
        return []
    bands = {cid: contest_state["rolls"][cid]["band"] for cid in active}
    judged = contest.judge(bands)
    resource = "magic" if contest_state["magic"] else "fatigue"
    costs = {cid: tracks.ticks(judged.ticks[cid], contest_state["cost"]) for cid in active}
    left = {cid: tracks.lose(state["personae"][cid][resource], costs[cid]) for cid in active}
    # "Contests continue until one party succeeds and the other fails, one or both collapse
    # from fatigue, or one breaks off the engagement".
    collapsed = [cid for cid in active if left[cid] == 0 and costs[cid] > 0]
    events: list[Event] = [{"type": "contest_round", "round": contest_state["round"], "bands": bands,
                            "ticks": judged.ticks, "costs": costs, "resource": resource, "after": left,
                            "outcome": judged.outcome, "winners": list(judged.winners),
                            "collapsed": collapsed}]
    standing = [cid for cid in active if cid not in collapsed]
    if judged.outcome == contest.WON:
        events.append({"type": "contest_ended", "reason": "won", "winners": list(judged.winners)})
    elif len(standing) < 2:
        events.append({"type": "contest_ended", "reason": "collapsed", "winners": standing})
    return events


def _party(state: Mapping[str, Any], args: Mapping[str, Any], rolled: str) -> dict[str, Any]:
    """A party still in the contest that has not rolled this round (``rolled``: the refusal
    when it has)."""
    require_mode(state, st.CONTEST)
    person = find(state, args.get("combatant"))
    if person["id"] not in state["contest"]["active"]:
        raise NotNow(f"{person['name']} is out of this contest.")
    if person["id"] in state["contest"]["rolls"]:
        raise NotNow(f"{person['name']} {rolled}.")
    return person


def contest_roll(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A party makes its check (or challenge) for this round of the contest."""
    assert turn.rng is not None
    person = _party(state, args, "has already rolled this round")
    require_able(person)
    name, base = persona.skill(person, args.get("skill"))
    challenge = person["id"] in state["contest"]["challenge"]
    result = rules.check(name, base, turn.rng, challenge=challenge)
    rolled: Event = {"type": "contest_rolled", "combatant": person["id"], "round": state["contest"]["round"],
                     "check": result.to_dict()}
    return [rolled, *_contest_progress(after(state, rolled))]


def contest_break_off(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: a contest ends when "one breaks off the engagement by changing their Action to a
    non-contested one in a successive Turn": so before rolling in a round, not after."""
    person = _party(state, args, "has rolled this round: break off before the next roll")
    broke: Event = {"type": "contest_broken_off", "combatant": person["id"]}
    now = after(state, broke)
    if len(now["contest"]["active"]) < 2:
        return [broke, {"type": "contest_ended", "reason": "broke_off", "winners": []}]
    return [broke, *_contest_progress(now)]


def contest_cost(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "the Director can modify up or down the cost in Fatigue as he or she determines"."""
    require_mode(state, st.CONTEST)
    return [{"type": "contest_cost_set", "cost": args["cost"]}]
