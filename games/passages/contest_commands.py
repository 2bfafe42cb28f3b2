"""Contests at the table: the ``contest_start``, ``contest_roll``, ``contest_break_off`` and
``contest_cost`` commands, and what a round costs once every party has rolled (its
arithmetic is ``contest``'s).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.rng import Rng
from games.passages import contest, rules, sheet, tracks
from games.passages import state as st
from games.passages.errors import CannotAct, NotNow
from games.passages.events import apply
from games.passages.guards import (Actor, Event, _int, _sheets, find, require_able, require_gm, require_mode,
                                   require_plays)


def contest_start(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                  rng: Rng) -> list[Event]:
    """Seed: "Contests are Actions opposed by another actor on the stage or Scene. The
    Director determines what is or is not a Contest." Each party's roll "can be a Check OR a
    Challenge by choice of the Director" (``challenge``: the ids rolling challenges); "Magic
    Duels use Magical Resources rather than Fatigue" (``magic``); "the Director can modify up
    or down the cost in Fatigue" (``cost``: points a tick, 5 unless the Director says)."""
    require_gm(actor, "start a contest")
    require_mode(state, st.IDLE)
    people = _sheets(command, 2)
    ids = [p["id"] for p in people]
    raw = command.get("challenge") or []
    challenge = ids if raw is True else [cid for cid in ids if cid in raw] if isinstance(raw, list) else []
    magic = bool(command.get("magic"))
    cost = _int(command, "cost", 0, tracks.FULL, "The cost of a tick", tracks.TICK)
    for person in people:
        require_able(person)
        if magic and person["magic"] <= 0:
            raise CannotAct(f"{person['name']} has no Magical Resources left to duel with.")
    return [{"type": "contest_started", "personae": people, "challenge": challenge, "magic": magic,
             "cost": cost}]


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
    after = {cid: tracks.lose(state["personae"][cid][resource], costs[cid]) for cid in active}
    # "Contests continue until one party succeeds and the other fails, one or both collapse
    # from fatigue, or one breaks off the engagement".
    collapsed = [cid for cid in active if after[cid] == 0 and costs[cid] > 0]
    events: list[Event] = [{"type": "contest_round", "round": contest_state["round"], "bands": bands,
                            "ticks": judged.ticks, "costs": costs, "resource": resource, "after": after,
                            "outcome": judged.outcome, "winners": list(judged.winners),
                            "collapsed": collapsed}]
    standing = [cid for cid in active if cid not in collapsed]
    if judged.outcome == contest.WON:
        events.append({"type": "contest_ended", "reason": "won", "winners": list(judged.winners)})
    elif len(standing) < 2:
        events.append({"type": "contest_ended", "reason": "collapsed", "winners": standing})
    return events


def contest_roll(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                 rng: Rng) -> list[Event]:
    """A party makes its check (or challenge) for this round of the contest."""
    require_mode(state, st.CONTEST)
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    if person["id"] not in state["contest"]["active"]:
        raise NotNow(f"{person['name']} is out of this contest.")
    if person["id"] in state["contest"]["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this round.")
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    challenge = person["id"] in state["contest"]["challenge"]
    result = rules.check(name, base, rng, challenge=challenge)
    rolled: Event = {"type": "contest_rolled", "combatant": person["id"], "round": state["contest"]["round"],
                     "check": result.to_dict()}
    return [rolled, *_contest_progress(apply(state, rolled))]


def contest_break_off(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                      rng: Rng) -> list[Event]:
    """Seed: a contest ends when "one breaks off the engagement by changing their Action to a
    non-contested one in a successive Turn": so before rolling in a round, not after."""
    require_mode(state, st.CONTEST)
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    if person["id"] not in state["contest"]["active"]:
        raise NotNow(f"{person['name']} is out of this contest.")
    if person["id"] in state["contest"]["rolls"]:
        raise NotNow(f"{person['name']} has rolled this round: break off before the next roll.")
    broke: Event = {"type": "contest_broken_off", "combatant": person["id"]}
    after = apply(state, broke)
    if len(after["contest"]["active"]) < 2:
        return [broke, {"type": "contest_ended", "reason": "broke_off", "winners": []}]
    return [broke, *_contest_progress(after)]


def contest_cost(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                 rng: Rng) -> list[Event]:
    """Seed: "the Director can modify up or down the cost in Fatigue as he or she determines"."""
    require_gm(actor, "change what a tick costs")
    require_mode(state, st.CONTEST)
    return [{"type": "contest_cost_set", "cost": _int(command, "cost", 0, tracks.FULL, "The cost of a tick")}]
