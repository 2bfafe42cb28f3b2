"""The procedure's state, and questions asked of it. Plain JSON-able data throughout.

``state``::

    day             the Day (seed: "cannot be made more than once per Day"), from 1
    players_call    whether the GM lets players call checks for their own characters
    check           the open check or None: {id, mode, task, same_as, skill, rank, inconsequential,
                    hold, by, approved, parts} (``approved`` False: a player's call the GM has
                    still to approve) (``same_as``: the earlier check of the Day the GM said it
                    repeats, or None); each part {cid, name, deck, major, corruption, role,
                    skill, base_rank, rank, note, bonus, penalty, help, task, attempts,
                    accepted}; a helper's part also ``helps`` (the cid it helps)
    today           the checks made this Day: {task, check, same_as, by: [cids], names, outcome}
    history         the last closed checks, newest last
    next_check      the next check's id
    clock, conditions, options_set, undo
                    the table's clock, the lasting conditions on characters and the steps the GM
                    may take back: the core's (games/core/clock.py, games/core/engine.py); a
                    night passing starts a new Day (``campaign``)
    step            the last step folded (the engine keeps it)

No character is copied here: a rule reads the sheet as it is now (``turn.characters``). A part
keeps what its check recorded of its character when it was called, as the rules use it later:
the name its lines say, its deck's name (``draws.deck_title``; a draw finds the deck by the
name the character has now, ``flow.Step.deck``, and the part keeps the name it drew under,
which the panel's odds read), its own Major Arcana and its Corruption Circles (which the
check's retries fill, ``retried``).

A check is called first and drawn after: each part's card is drawn by its player (or the GM)
with a ``draw`` move, so everyone sees the odds before the card comes off.

Modes: "single"; "help" (parts: its helpers, then the main check; seed "One Player Helps
Another"); "only_one" and "everyone" (seed "Only One Player Needs to Succeed" and "Every
Player Needs to Succeed"), whose members each draw (in any order) before the result counts,
each perhaps helped (their helpers' parts first). A helper's part has the role "helper" and
``helps``, the member or main check it helps; the GM may add several helpers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import clock as time
from games.report_card.errors import NotNow
from games.report_card.rules import (
    CRITICAL_FAILURE, CRITICAL_SUCCESS, FAILURE, LEVEL, SUCCESS, card_of, easier, edge_of, height, succeeded,
)

MODES = {"single": "a check", "help": "a check with help", "only_one": "only one needs to succeed",
         "everyone": "everyone needs to succeed"}
HISTORY = 10


def new_state() -> dict[str, Any]:
    return {"day": 1, "players_call": False, "check": None, "today": [], "history": [], "next_check": 1}


def open_check(state: Mapping[str, Any]) -> dict[str, Any]:
    if state["check"] is None:
        raise NotNow("No check is open.")
    return state["check"]


def check_by_id(state: Mapping[str, Any], check_id: int) -> dict[str, Any] | None:
    """The check with this id: the open one, or one in the history."""
    if state.get("check") and state["check"]["id"] == check_id:
        return state["check"]
    return next((c for c in state.get("history", []) if c["id"] == check_id), None)


def joined(names: Iterable[str]) -> str:
    """"Marieta", "Marieta and Jo", "Marieta, Jo and Sam"."""
    found = list(names)
    return found[0] if len(found) == 1 else ", ".join(found[:-1]) + " and " + found[-1]


def names(check: Mapping[str, Any], cids: Iterable[str]) -> list[str]:
    """The names these characters had in the check."""
    by_cid = {p["cid"]: p["name"] for p in check["parts"]}
    return [by_cid.get(cid, cid) for cid in cids]


def last(part: Mapping[str, Any]) -> dict[str, Any] | None:
    return part["attempts"][-1] if part["attempts"] else None


def status(part: Mapping[str, Any]) -> str:
    """"waiting" (no card yet), "picking" (two cards, one to keep), "succeeded", "failed"
    (its player may retry or let it stand) or "accepted" (the failure stands)."""
    attempt = last(part)
    if attempt is None:
        return "waiting"
    if attempt["pending"] is not None:
        return "picking"
    if succeeded(attempt["outcome"]):
        return "succeeded"
    return "accepted" if part["accepted"] else "failed"


def kept(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """The card the part's last attempt keeps, once chosen."""
    attempt = last(part)
    if attempt is None or attempt["chosen"] is None:
        return None
    return attempt["draws"][attempt["chosen"]]


EDGES = ("bonus", "penalty")


def lasting(state: Mapping[str, Any], cid: object) -> dict[str, list[str]]:
    """The lasting conditions that give ``cid`` a Bonus or a Penalty on every check, by name
    (``{"bonus": [...], "penalty": ["Splinted Leg"]}``): the conditions the GM put on the
    character with the effect "bonus" or "penalty" (games/core/clock.py, ``Clock.effects``).

    Seed: "climbing a wall with a Splinted Leg, they get a 'Penalty' on that check"; a
    condition that lasts is that disadvantage on every check until it ends, so nobody ticks it
    again on each call. Its amount is not read: "Bonus and Penalty cancel one another out, and
    do not stack"."""
    return {key: [str(c.get("name") or "") for c in time.conditions(state, str(cid)) if c.get("effect") == key]
            if time.has(state, cid, key) else [] for key in EDGES}


def edge(part: Mapping[str, Any], lasts: Mapping[str, list[str]] | None = None) -> str | None:
    """The part's Bonus or Penalty, its own, any its helpers granted (``help``: "bonus",
    "penalty", or "both" when one helper succeeded and another failed) and any a lasting
    condition gives (``lasts``: ``lasting``), cancelled as the seed says ("Bonus and Penalty
    cancel one another out, and do not stack")."""
    given, lasts = part["help"], lasts or {}
    return edge_of(part["bonus"] or given in ("bonus", "both") or bool(lasts.get("bonus")),
                   part["penalty"] or given in ("penalty", "both") or bool(lasts.get("penalty")))


def helped(check: Mapping[str, Any], helper: Mapping[str, Any]) -> str:
    """The character a helper helps: the one its check names (``helps``), or, in a check
    called before a helper could help a group, the check's one main part."""
    if helper.get("helps"):
        return str(helper["helps"])
    return next(p["cid"] for p in check["parts"] if p["role"] == "main")


def helpers_of(check: Mapping[str, Any], part: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The parts that help this one (seed: "One Player Helps Another"); none for a helper."""
    if part["role"] == "helper":
        return []
    return [h for h in check["parts"] if h["role"] == "helper" and helped(check, h) == part["cid"]]


def help_given(check: Mapping[str, Any], part: Mapping[str, Any]) -> str | None:
    """What the part's helpers grant once each has succeeded or let the failure stand: a Bonus
    for each success, a Penalty for each failure (seed: "grant the player making the check
    Bonus ... grant the player making the check Penalty"), so "bonus", "penalty" or "both"
    (which cancel); None while one is unsettled, or with no helper."""
    found = [status(h) for h in helpers_of(check, part)]
    if not found or any(s not in ("succeeded", "accepted") for s in found):
        return None
    grants = {"bonus" if s == "succeeded" else "penalty" for s in found}
    return grants.pop() if len(grants) == 1 else "both"


def next_rank(check: Mapping[str, Any], part: Mapping[str, Any]) -> str:
    """The rank of the part's next draw: its own at first, then one easier per retry unless the
    GM holds it."""
    previous = last(part)
    if previous is None:
        return str(part["rank"])
    return str(previous["rank"]) if check["hold"] else easier(previous["rank"])


def final(check: Mapping[str, Any], part: Mapping[str, Any]) -> bool:
    """Whether the part's failure is final, no retry to be bought: a Critical Failure in a
    check everyone needs to succeed at. Seed: "If any player gets a Critical Failure, they fail
    for everyone" and "once the card is drawn, the results are final"; the decided reading 004:
    "no retry buys it off"."""
    attempt = last(part)
    return (check["mode"] == "everyone" and attempt is not None and attempt["pending"] is None
            and attempt["outcome"] == CRITICAL_FAILURE)


def may_draw(check: Mapping[str, Any], index: int) -> bool:
    """Whether part ``index`` may draw its first card now: every part of a group at once, and
    every helper; a part that is helped once all its helpers are settled.

    Reading: a helper's draw is a check like any other ("they succeed at whatever they're
    doing"), so a failed helper may retry before the help is known; the helped part draws with
    the Bonus or Penalty it earns once each helper has succeeded or let the failure stand."""
    part = check["parts"][index]
    if part["attempts"] or check.get("approved") is False:  # a player's call waits for the GM
        return False
    return all(status(h) in ("succeeded", "accepted") for h in helpers_of(check, part))


def drawable(check: Mapping[str, Any]) -> list[int]:
    """The parts that may draw their first card now, in the check's order."""
    return [i for i in range(len(check["parts"])) if may_draw(check, i)]


def coming_edge(check: Mapping[str, Any], part: Mapping[str, Any],
                lasts: Mapping[str, list[str]] | None = None) -> str | None:
    """The Bonus or Penalty of the part's next draw: once its help is settled, with what the
    help earns (``help_given``), and with its character's lasting conditions (``lasts``), as
    ``flow`` draws it."""
    if part["help"] is None and not part["attempts"]:
        given = help_given(check, part)
        if given is not None:
            return edge({**part, "help": given}, lasts)
    return edge(part, lasts)


def standing(part: Mapping[str, Any]) -> tuple[int, int]:
    """How much a part succeeded: its outcome, then the height of its card. Seed: "whichever
    player draws the highest card succeeds 'the most'"."""
    card = kept(part)
    assert card is not None
    return LEVEL[card["outcome"]], height(card_of(card["card"]).card)


def verdict(check: Mapping[str, Any], *, closing: bool = False) -> dict[str, Any] | None:
    """The check's result once it is settled, else None: ``{outcome, winners, reason}``.

    Reading: a group's failure waits, like a single check's, for each failed member to retry
    (a Corruption Point, as the seed's "The player can take 1 Corruption Point to retry the
    check" allows any player who fails) or to let it stand; a success closes it at once.

    ``closing``: the GM ends the check, so every failure stands."""
    if any(status(p) in ("waiting", "picking") for p in check["parts"]):
        return None
    # a helper's result is only the Bonus or Penalty it granted: the check's result is its
    # main part's, or its members'
    parts = [p for p in check["parts"] if p["role"] != "helper"]
    states = [status(p) for p in parts]
    stands = [s == "accepted" or (closing and s == "failed") for s in states]
    mode = check["mode"]
    if mode in ("single", "help"):
        main = parts[-1]
        if states[-1] == "succeeded" or stands[-1]:
            return {"outcome": last(main)["outcome"], "winners": [main["cid"]], "reason": ""}  # type: ignore[index]
        return None
    outcomes = {p["cid"]: last(p)["outcome"] for p in parts}  # type: ignore[index]
    if mode == "only_one":
        winners = [p for p in parts if states[parts.index(p)] == "succeeded"]
        if winners:
            # the result keeps the best card's word: won on the Sun, it is a Critical Success
            top = max(standing(p) for p in winners)
            best = [p for p in winners if standing(p) == top]
            return {"outcome": last(best[0])["outcome"], "winners": [p["cid"] for p in best],  # type: ignore[index]
                    "reason": "highest"}
        return {"outcome": FAILURE, "winners": [], "reason": "nobody"} if all(stands) else None
    # "everyone": "only two players need to succeed at the check. If any player gets a
    # Critical Success, they succeed for everyone. If any player gets a Critical Failure, they
    # fail for everyone." Reading: a Critical Success and a Critical Failure together resolve
    # as the Critical Success, as on a single card "The Critical Success conditions fire
    # before the Critical Failure conditions".
    # The decided reading 004: a Critical Failure fails the task for everyone
    # at once, and no retry buys it off (``final``): the check closes once every card is down.
    crits = [cid for cid, o in outcomes.items() if o == CRITICAL_SUCCESS]
    if crits:
        return {"outcome": CRITICAL_SUCCESS, "winners": crits, "reason": "critical_success"}
    fumbles = [cid for cid, o in outcomes.items() if o == CRITICAL_FAILURE]
    if fumbles:
        return {"outcome": CRITICAL_FAILURE, "winners": fumbles, "reason": "critical_failure"}
    made = [cid for cid, o in outcomes.items() if succeeded(o)]
    if len(made) >= 2:
        return {"outcome": SUCCESS, "winners": made, "reason": "two"}
    if not all(s == "succeeded" or stood for s, stood in zip(states, stands, strict=True)):
        return None  # someone may still retry
    return {"outcome": FAILURE, "winners": [], "reason": "fewer_than_two"}
