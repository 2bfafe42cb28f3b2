"""Extended and contested actions: an extended action pulled toward the successes it needs, and a
contest between two characters, plain or extended, judged round by round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError, Turn
from games.harsh_light import audiences, pools, reaction
from games.harsh_light.access import require_able, require_turn
from games.harsh_light.pulls import again_of, judge, record_of, willpower_event
from games.harsh_light.state import dice, in_play, name, person, untrained_penalty

Event = dict[str, Any]
SPEC = ("attribute", "skill", "modifier", "reason")  # a pool as an action keeps it, to build it anew


def spec_pool(sheet: Mapping[str, Any], spec: Mapping[str, Any], untrained: bool = False,
              lasting: tuple[tuple[str, int], ...] = ()) -> pools.Pool:
    """The pool a kept spec (``SPEC``) gives, from the sheet as it stands (``untrained``: the
    table's option, state.untrained_penalty; ``lasting``: its conditions' dice, state.dice)."""
    return pools.build(sheet, spec["attribute"], spec["skill"], modifier=spec["modifier"], reason=spec["reason"],
                       untrained=untrained, lasting=lasting)


def contest_pool(sheet: Mapping[str, Any], contest: Mapping[str, Any], side: Mapping[str, Any],
                 untrained: bool = False, lasting: tuple[tuple[str, int], ...] = ()) -> pools.Pool:
    """A side's pool in a contest, with Blood Potency against a supernatural effect."""
    pool = spec_pool(sheet, side, untrained, lasting)
    if contest["supernatural"]:
        bonus = pools.supernatural_bonus(sheet, tuple(t for t in (side["attribute"], side["skill"]) if t))
        if bonus:
            pool = pool.plus("Blood Potency", bonus)
    return pool


def _spec(args: Mapping[str, Any]) -> dict[str, Any]:
    return {"attribute": args.get("attribute") or "", "skill": args.get("skill") or None,
            "modifier": args.get("modifier") or 0, "reason": args.get("reason") or ""}


def _next_id(state: Mapping[str, Any], prefix: str) -> str:
    return f"{prefix}{state['next_id']}"


def extended_start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "The player pulls cards until they have accumulated however many successes are
    needed (perhaps five to pick a simple lock – up to 25 to build something large and/or
    complicated), with each test taking up an appropriate amount of time (examples: a combat
    round for lockpicking, an hour for research, or a day for large-scale construction)".
    The Storyteller names the successes needed and the unit of time, and may set (the decided reading,
    decided: "the text is silent on failure") a ``limit`` of pulls, after which it fails, and
    whether a Dramatic Failure loses the successes gathered (``lose``). Default: neither."""
    view = in_play(state, turn)
    cid = args["combatant"]
    person(view, cid)
    require_able(view, cid, "extended action")
    return [{"type": "extended_started", "id": _next_id(view, "x"), "combatant": cid,
             "label": args.get("label") or "an extended action", "pool": _spec(args),
             "needed": args.get("needed") or 5, "unit": args.get("unit") or "turn",
             "limit": args.get("limit") or 0, "lose": bool(args.get("lose"))}]


def _open(state: Mapping[str, Any], kind: str, raw: Any, what: str) -> dict[str, Any]:
    found = state[kind].get(raw) if isinstance(raw, str) else None
    if found is None:
        raise RuleError(f"There is no such {what}.")
    if found["done"]:
        raise RuleError(f"That {what} is over.")
    return dict(found)


def extended_pull(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """One more pull toward the total: the running total and the pulls so far are kept. In a fight
    each pull is the character's instant action for the turn. The action is its character's: a
    player names that character (the core checks they play it); the Storyteller may leave it out."""
    assert turn.cards is not None
    action = _open(state, "extended", args.get("extended"), "extended action")
    view = in_play(state, turn)
    reaction.require_none(view, "the extended action's pull")
    cid = action["combatant"]
    if args.get("combatant") not in (None, cid):
        raise RuleError(f"That extended action is {name(view, cid)}'s.")
    require_able(view, cid, "pull")
    require_turn(view, cid, "an extended action's pull")
    sheet = person(view, cid)
    pool = spec_pool(sheet, action["pool"], untrained_penalty(view), dice(view, cid))
    if args.get("modifier"):
        pool = pool.plus(args.get("reason") or "this pull", args["modifier"])
    events = []
    if args.get("willpower"):
        events.append(willpower_event(view, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    # Each pull counts successes (1 needed for a pull to count at all), so an automatic success
    # is a pull the player skips for the successes its worst card would give.
    result, tokens = judge(turn.cards, pool, again=again_of(args, sheet), needed=1, no_pull=bool(args.get("no_pull")))
    lost = result.dramatic and bool(action.get("lose"))  # the Storyteller's choice when it began
    gathered = 0 if lost else action["gathered"] + (0 if result.dramatic else result.successes)
    number = len(action["pulls"]) + 1
    failed = gathered < action["needed"] and bool(action.get("limit")) and number >= action["limit"]
    record = record_of(view, cid, "extended", action["label"], pool, result, tokens,
                       number=number, gathered=gathered, of=action["needed"],
                       unit=action["unit"], willpower=bool(args.get("willpower")))
    return [*events, audiences.pull_event(view, {
        "type": "extended_pulled", "id": action["id"], "combatant": cid, "record": record, "gathered": gathered,
        "lost": lost, "failed": failed,
        "done": gathered >= action["needed"], "instant_in_combat": view["combat"]})]


def extended_stop(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    action = _open(state, "extended", args.get("extended"), "extended action")
    return [{"type": "extended_stopped", "id": action["id"], "gathered": action["gathered"]}]


def contest_start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "Both pull a card, add their pools and compare successes, with the higher number of
    successes winning"; "Some tests are both contested and extended – in those cases, you
    continue pulling until one of the characters reaches the required number of successes".
    ``sides``: two ``{combatant, attribute, skill, modifier, reason}``; ``needed`` 0 for a plain
    contest, or the successes to reach when it is extended too."""
    view = in_play(state, turn)
    sides = [{"combatant": side["combatant"], **_spec(side)} for side in args["sides"]]
    for side in sides:
        person(view, side["combatant"])
        require_able(view, side["combatant"], "contest")
    needed = args.get("needed") or 0
    return [{"type": "contest_started", "id": _next_id(view, "k"), "sides": sides, "needed": needed,
             "unit": args.get("unit") or ("turn" if needed else ""), "label": args.get("label") or "a contest",
             "supernatural": bool(args.get("supernatural"))}]


def contest_pull(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """One side's pull in the contest's current round; when both have pulled, the round is
    judged. Our readings, where the seed is silent: a tie in a plain contest is pulled again (no
    side has the higher number); in an extended contest the first to reach the successes wins,
    and if both reach them in the same round the higher running total wins, a tie pulling on.
    Pulls in a contest are reflexive for the turn order: the Storyteller called the contest."""
    assert turn.cards is not None
    contest = _open(state, "contests", args.get("contest"), "contest")
    view = in_play(state, turn)
    reaction.require_none(view, "a contest's pull")
    cid = args["combatant"]
    side = next((s for s in contest["sides"] if s["combatant"] == cid), None)
    if side is None:
        raise RuleError(f"{name(view, cid)} is not in that contest.")
    if cid in contest["pulled"]:
        raise RuleError(f"{name(view, cid)} has pulled this round; the other side pulls now.")
    require_able(view, cid, "pull")
    sheet = person(view, cid)
    pool = contest_pool(sheet, contest, side, untrained_penalty(view), dice(view, cid))
    if args.get("modifier"):  # this pull's own, as a simple pull's
        pool = pool.plus(args.get("reason") or "this pull", args["modifier"])
    events = []
    if args.get("willpower"):
        events.append(willpower_event(view, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    result, tokens = judge(turn.cards, pool, again=again_of(args, sheet), needed=1, no_pull=bool(args.get("no_pull")))
    got = 0 if result.dramatic else result.successes
    record = record_of(view, cid, "contested", contest["label"], pool, result, tokens,
                       round=contest["round"], willpower=bool(args.get("willpower")))
    events.append(audiences.pull_event(view, {"type": "contest_pulled", "id": contest["id"], "combatant": cid,
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


def contest_stop(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    contest = _open(state, "contests", args.get("contest"), "contest")
    return [{"type": "contest_stopped", "id": contest["id"]}]
