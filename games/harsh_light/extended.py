"""Extended and contested actions: an extended action pulled toward the successes it needs, and a
contest between two characters, plain or extended, judged round by round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.harsh_light import pools, secrecy
from games.harsh_light.access import (
    Command, Event, _cid, _int, _known, _read_sheets, _require_able, _require_control, _require_gm, _require_turn,
    _scratch, _text, _who,
)
from games.harsh_light.errors import RuleError
from games.harsh_light.pulls import MAX_NEEDED, _again, _judge, _record, _willpower_event
from games.harsh_light.state import name

# Extended and contested actions.


def _pool_spec(command: Mapping[str, Any], person: Mapping[str, Any]) -> dict[str, Any]:
    spec = {"attribute": _text(command, "attribute"), "skill": _text(command, "skill") or None,
            "modifier": command.get("modifier") or 0, "reason": _text(command, "reason")}
    pools.build(person, spec["attribute"], spec["skill"], modifier=spec["modifier"], reason=spec["reason"])
    return spec


def spec_pool(person: Mapping[str, Any], spec: Mapping[str, Any]) -> pools.Pool:
    return pools.build(person, spec["attribute"], spec["skill"], modifier=spec["modifier"], reason=spec["reason"])


def _next_id(state: Mapping[str, Any], prefix: str) -> str:
    return f"{prefix}{state['next_id']}"


def extended_start(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "The player pulls cards until they have accumulated however many successes are
    needed (perhaps five to pick a simple lock – up to 25 to build something large and/or
    complicated), with each test taking up an appropriate amount of time (examples: a combat
    round for lockpicking, an hour for research, or a day for large-scale construction)".
    The Storyteller names the successes needed and the unit of time."""
    _require_gm(command, "start an extended action")
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_able(scratch, cid, "extended action")
    spec = _pool_spec(command, _known(scratch, cid))
    needed = _int(command, "needed", 5, 1, MAX_NEEDED, "The successes needed")
    unit = _text(command, "unit", "turn")
    return [*events, {"type": "extended_started", "id": _next_id(scratch, "x"), "combatant": cid,
                      "label": _text(command, "label", "an extended action"), "pool": spec,
                      "needed": needed, "unit": unit}]


def _open(state: Mapping[str, Any], kind: str, raw: Any, what: str) -> dict[str, Any]:
    found = state[kind].get(raw) if isinstance(raw, str) else None
    if found is None:
        raise RuleError(f"There is no such {what}.")
    if found["done"]:
        raise RuleError(f"That {what} is over.")
    return dict(found)


def extended_pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """One more pull toward the total: the running total and the pulls so far are kept. In a fight
    each pull is the character's instant action for the turn."""
    action = _open(state, "extended", command.get("extended"), "extended action")
    cid = action["combatant"]
    if command.get("combatant") not in (None, "", cid):
        raise RuleError(f"That extended action is {name(state, cid)}'s.")
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    _require_able(scratch, cid, "pull")
    _require_turn(scratch, cid, "an extended action's pull")
    person = _known(scratch, cid)
    pool = spec_pool(person, action["pool"])
    extra = _int(command, "modifier", 0, -pools.MAX_MODIFIER, pools.MAX_MODIFIER, "A modifier")
    if extra:
        pool = pool.plus(_text(command, "reason") or "this pull", extra)
    if command.get("willpower"):
        events.append(_willpower_event(scratch, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    # Each pull counts successes (1 needed for a pull to count at all), so an automatic success
    # is a pull the player skips for the successes its worst card would give.
    result, tokens = _judge(cards, pool, again=_again(command, person), needed=1,
                            no_pull=bool(command.get("no_pull")))
    gathered = action["gathered"] + (0 if result.dramatic else result.successes)
    record = _record(scratch, cid, "extended", action["label"], pool, result, tokens,
                     number=len(action["pulls"]) + 1, gathered=gathered, of=action["needed"],
                     unit=action["unit"], willpower=bool(command.get("willpower")))
    return [*events, secrecy.pull_event(scratch, {
        "type": "extended_pulled", "id": action["id"], "combatant": cid, "record": record, "gathered": gathered,
        "done": gathered >= action["needed"], "instant_in_combat": scratch["combat"] and cid in scratch["order"]})]


def extended_stop(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "stop an extended action")
    action = _open(state, "extended", command.get("extended"), "extended action")
    return [{"type": "extended_stopped", "id": action["id"], "gathered": action["gathered"]}]


def contest_start(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "Both pull a card, add their pools and compare successes, with the higher number of
    successes winning"; "Some tests are both contested and extended – in those cases, you
    continue pulling until one of the characters reaches the required number of successes".
    ``sides``: two ``{combatant, attribute, skill, modifier, reason}``; ``needed`` 0 for a plain
    contest, or the successes to reach when it is extended too."""
    _require_gm(command, "call a contest")
    sides = command.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, Mapping) for s in sides):
        raise RuleError("A contest has two sides.")
    cids = [_cid(side) for side in sides]
    if cids[0] == cids[1]:
        raise RuleError("A character does not contest itself.")
    events = _read_sheets(state, command, cids)
    scratch = _scratch(state, events)
    for cid in cids:
        _require_able(scratch, cid, "contest")
    specs = [{"combatant": cid, **_pool_spec(side, _known(scratch, cid))} for cid, side in zip(cids, sides)]
    needed = _int(command, "needed", 0, 0, MAX_NEEDED, "The successes to reach")
    return [*events, {"type": "contest_started", "id": _next_id(scratch, "k"), "sides": specs,
                      "needed": needed, "unit": _text(command, "unit", "turn" if needed else ""),
                      "label": _text(command, "label", "a contest"),
                      "supernatural": bool(command.get("supernatural"))}]


def contest_pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """One side's pull in the contest's current round; when both have pulled, the round is
    judged. Our readings, where the seed is silent: a tie in a plain contest is pulled again (no
    side has the higher number); in an extended contest the first to reach the successes wins,
    and if both reach them in the same round the higher running total wins, a tie pulling on.
    Pulls in a contest are reflexive for the turn order: the Storyteller called the contest."""
    contest = _open(state, "contests", command.get("contest"), "contest")
    cid = _cid(command)
    side = next((s for s in contest["sides"] if s["combatant"] == cid), None)
    if side is None:
        raise RuleError(f"{_who(state, command, cid)} is not in that contest.")
    if cid in contest["pulled"]:
        raise RuleError(f"{name(state, cid)} has pulled this round; the other side pulls now.")
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    _require_able(scratch, cid, "pull")
    person = _known(scratch, cid)
    pool = spec_pool(person, side)
    if contest["supernatural"]:
        traits = tuple(t for t in (side["attribute"], side["skill"]) if t)
        bonus = pools.supernatural_bonus(person, traits)
        if bonus:
            pool = pool.plus("Blood Potency", bonus)
    if command.get("willpower"):
        events.append(_willpower_event(scratch, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    result, tokens = _judge(cards, pool, again=_again(command, person), needed=1,
                            no_pull=bool(command.get("no_pull")))
    got = 0 if result.dramatic else result.successes
    record = _record(scratch, cid, "contested", contest["label"], pool, result, tokens,
                     round=contest["round"], willpower=bool(command.get("willpower")))
    events.append(secrecy.pull_event(scratch, {"type": "contest_pulled", "id": contest["id"], "combatant": cid,
                                               "record": record, "counted": got, "instant_in_combat": False}))
    pulled = {**{c: r["successes"] if not r["dramatic"] else 0 for c, r in contest["pulled"].items()}, cid: got}
    if len(pulled) == 2:
        events.append(_judge_round(contest, pulled))
    return events


def _judge_round(contest: Mapping[str, Any], pulled: Mapping[str, int]) -> Event:
    a, b = (s["combatant"] for s in contest["sides"])
    gathered = {c: contest["gathered"][c] + pulled[c] for c in (a, b)}
    winner = None
    if contest["needed"] == 0:
        if pulled[a] != pulled[b]:
            winner = a if pulled[a] > pulled[b] else b
    else:
        reached = [c for c in (a, b) if gathered[c] >= contest["needed"]]
        if len(reached) == 1:
            winner = reached[0]
        elif reached and gathered[a] != gathered[b]:
            winner = a if gathered[a] > gathered[b] else b
    return {"type": "contest_round", "id": contest["id"], "round": contest["round"],
            "successes": dict(pulled), "gathered": gathered, "winner": winner, "done": winner is not None}


def contest_stop(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "stop a contest")
    contest = _open(state, "contests", command.get("contest"), "contest")
    return [{"type": "contest_stopped", "id": contest["id"]}]
