"""Contests (seed 001, "CONTESTS"): what one round of independent checks costs and decides
(``judge``), and the moves of a contest at the table (``contest_start``, ``contest_roll``,
``contest_break_off``, ``contest_cost``).

Seed: "both actors (or more than two, if the opposing actions are different enough to
justify it) make their independent Checks as directed." Then: "IF ALL PARTIES FAIL, the
engagement continues, but all actors in the Engagement suffer one Tick of Fatigue. IF ALL
PARTIES have the same level of SUCCESS, the Engagement continues, but no Fatigue is
Suffered. IF ANY PARTY in the Contest rolls a lower level of success (DD over Success over
DU), they suffer one Tick of Fatigue. (2 if DD over DU) but the Engagement continues. Once
one succeeds and the other fails, the Engagement is over."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.engine import Turn
from games.passages import persona, rules, tracks
from games.passages import state as st
from games.passages.access import find, require_able, require_mode
from games.passages.errors import CannotAct, NotNow
from games.passages.events import Event, after
from games.passages.rules import level

CONTINUES, WON = "continues", "won"


@dataclass(frozen=True)
class Round:
    outcome: str  # "continues" or "won"
    ticks: dict[str, int]  # Fatigue ticks each party suffers this round
    winners: tuple[str, ...]  # who won, when the round ends the contest

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "ticks": dict(self.ticks), "winners": list(self.winners)}


def judge(bands: Mapping[str, str]) -> Round:
    """One round: each party's band in, each party's ticks and the outcome out.

    Readings for more than two parties: a party below the best level of success among them
    suffers one tick a level ("2 if DD over DU"); the round ends the contest as soon as some
    succeed while others fail, and those with the best level of success win. The round that
    ends it costs nobody Fatigue (the seed names no cost there; the loss is the contest)."""
    levels = {pid: level(b) for pid, b in bands.items()}
    best = max(levels.values())
    if best == 0:  # everyone failed
        return Round(CONTINUES, dict.fromkeys(levels, 1), ())
    if min(levels.values()) == 0:  # some succeed, some fail
        winners = tuple(pid for pid, lv in levels.items() if lv == best)
        return Round(WON, dict.fromkeys(levels, 0), winners)
    return Round(CONTINUES, {pid: best - lv for pid, lv in levels.items()}, ())


def contest_start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "Contests are Actions opposed by another actor on the stage or Scene. The
    Director determines what is or is not a Contest." Each party's roll "can be a Check OR a
    Challenge by choice of the Director" (``challenge``: the ids rolling challenges); "Magic
    Duels use Magical Resources rather than Fatigue" (``magic``); "the Director can modify up
    or down the cost in Fatigue" (``cost``: points a tick, 5 unless the Director says)."""
    require_mode(state, st.IDLE)
    people = persona.scene_personae(args["combatants"], turn)
    ids = [p["id"] for p in people]
    challenge = [cid for cid in ids if cid in args.get("challenge", ())]
    magic = bool(args.get("magic"))
    for person in people:
        require_able(person)
        if magic and person["magic"] <= 0:
            raise CannotAct(f"{person['name']} has no Magical Resources left to duel with.")
    return [{"type": "contest_started", "personae": people, "challenge": challenge, "magic": magic,
             "cost": args.get("cost", tracks.TICK)}]


def progress(state: Mapping[str, Any]) -> list[Event]:
    """Once every party still in has rolled: the round's Fatigue, and whether it ends."""
    contest_state = state["contest"]
    if len(contest_state["active"]) < 2:
        return []
    # a party Downed or knocked out since the round began (the Director's correction) rolls no
    # more: "one or both collapse from fatigue". The round is judged among the others, and it
    # collapses out of the contest with it; with one party left, the contest is over.
    fallen = [cid for cid in contest_state["active"] if not st.able(state["personae"][cid])]
    active = [cid for cid in contest_state["active"] if cid not in fallen]
    if len(active) < 2:
        return [{"type": "contest_ended", "reason": "collapsed", "winners": active}]
    if st.contest_waiting(state):
        return []
    bands = {cid: contest_state["rolls"][cid]["band"] for cid in active}
    judged = judge(bands)
    resource = "magic" if contest_state["magic"] else "fatigue"
    costs = {cid: tracks.ticks(judged.ticks[cid], contest_state["cost"]) for cid in active}
    left = {cid: tracks.lose(state["personae"][cid][resource], costs[cid]) for cid in active}
    # "Contests continue until one party succeeds and the other fails, one or both collapse
    # from fatigue, or one breaks off the engagement".
    collapsed = fallen + [cid for cid in active if left[cid] == 0 and costs[cid] > 0]
    events: list[Event] = [{"type": "contest_round", "round": contest_state["round"], "bands": bands,
                            "ticks": judged.ticks, "costs": costs, "resource": resource, "after": left,
                            "outcome": judged.outcome, "winners": list(judged.winners),
                            "collapsed": collapsed}]
    standing = [cid for cid in active if cid not in collapsed]
    if judged.outcome == WON:
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
    # the Director's call when the contest began, or a lasting condition that hinders it
    challenge = person["id"] in state["contest"]["challenge"] or st.hindered(state, person["id"])
    result = rules.check(name, base, turn.rng, challenge=challenge)
    rolled: Event = {"type": "contest_rolled", "combatant": person["id"], "round": state["contest"]["round"],
                     "check": result.to_dict()}
    return [rolled, *progress(after(state, rolled))]


def contest_break_off(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: a contest ends when "one breaks off the engagement by changing their Action to a
    non-contested one in a successive Turn": so before rolling in a round, not after."""
    person = _party(state, args, "has rolled this round: break off before the next roll")
    broke: Event = {"type": "contest_broken_off", "combatant": person["id"]}
    now = after(state, broke)
    if len(now["contest"]["active"]) < 2:
        return [broke, {"type": "contest_ended", "reason": "broke_off", "winners": []}]
    return [broke, *progress(now)]


def contest_cost(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "the Director can modify up or down the cost in Fatigue as he or she determines"."""
    require_mode(state, st.CONTEST)
    return [{"type": "contest_cost_set", "cost": args["cost"]}]
