"""The steps of an open check and the GM's tools: drawing, choosing a card, retrying, letting a
failure stand, holding the rank, closing the check, a new Day, new skills after three
Corruption Points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.engine import Turn
from games.report_card import sheet as report
from games.report_card.access import may_pick, may_retry
from games.report_card.calls import reported
from games.report_card.campaign import CLOCK
from games.report_card.errors import BadInput, NotNow
from games.report_card.flow import Event, Step
from games.report_card.state import (
    final, helpers_of, joined, last, may_draw, next_rank, open_check, status, verdict,
)
from games.sheets import SheetError

State = Mapping[str, Any]


def _find(state: State, turn: Turn, cid: str) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """The open check, and the character's part in it."""
    check = open_check(state)
    for index, part in enumerate(check["parts"]):
        if part["cid"] == cid:
            return check, index, part
    character = turn.character(cid)
    raise NotNow(f"{character.name if character else cid} is not in the check for '{check['task']}'.")


def draw(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks". The check is called first, so everyone sees the odds before the card comes off;
    then the character's player draws (or the GM, who may draw for anyone, as at a table)."""
    check, index, part = _find(state, turn, args["character"])
    if not may_draw(check, index):
        if part["attempts"]:
            raise NotNow(f"{part['name']} has drawn already.")
        if check.get("approved") is False:
            raise NotNow("The GM approves the difficulty and any Bonus of this check before the card is drawn.")
        helpers = joined(h["name"] for h in helpers_of(check, part))
        raise NotNow(f"{part['name']} draws once {helpers}'s help is settled.")
    run = Step(state, turn)
    run.draw(index)
    return run.advance()


def pick(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: with Bonus the player uses "whichever of the two cards they would prefer"; with
    Penalty "whichever card the GM decides is the worse of the two"."""
    check, index, part = _find(state, turn, args["character"])
    attempt = last(part)
    if attempt is None or attempt["pending"] is None:
        raise NotNow(f"{part['name']} has no card to choose.")
    may_pick(attempt["pending"], turn.member, turn.character(part["cid"]), part["name"])
    chosen = args["index"]
    if chosen not in range(len(attempt["draws"])):
        raise BadInput("Choose one of the two cards drawn.")
    run = Step(state, turn)
    run.pick({"type": "picked", "check": check["id"], "part": index, "cid": part["cid"], "index": chosen,
              "by": attempt["pending"], "outcome": attempt["draws"][chosen]["outcome"]})
    return run.advance()


def _failed(state: State, turn: Turn, cid: str) -> tuple[dict[str, Any], int, dict[str, Any]]:
    check, index, part = _find(state, turn, cid)
    who, found = part["name"], status(part)
    if found != "failed":
        raise NotNow({"waiting": f"{who} has not drawn yet.", "picking": f"{who}'s card is still to be chosen.",
                      "succeeded": f"{who} succeeded: there is nothing to retry.",
                      "accepted": f"{who} already let the failure stand."}[found])
    return check, index, part


def retry(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "The player can take 1 Corruption Point to retry the check. Each time the player
    attempts to re-try the check, it becomes one step easier", unless "At the GM's discretion,
    a check can remain at its current difficulty level during a retry".

    The circles counted are the sheet's as it is now: the GM may have filled or emptied them by
    hand since the check was called (the rules' own retries and new skills write them back)."""
    check, index, part = _failed(state, turn, args["character"])
    who = part["name"]
    if final(check, part):
        raise NotNow(f"{who}'s Critical Failure fails the check for everyone, and no retry buys it off: "
                     "once the card is drawn, the results are final.")
    may_retry(turn.member, turn.character(part["cid"]), who)
    filled = reported(turn, part["cid"])["corruption"]
    # Reading: there are three circles and no fourth; with all three filled the player first
    # takes the new A+ and F the seed offers, which empties them.
    if filled >= report.CIRCLES:
        raise NotNow(f"All three of {who}'s Corruption Circles are filled: choose a new A+ and F first.")
    run = Step(state, turn)
    run.emit({"type": "retried", "check": check["id"], "part": index, "cid": part["cid"],
              "corruption": filled + 1, "rank": next_rank(check, part), "held": bool(check["hold"])})
    run.draw(index, retry=True)
    return run.advance()


def accept(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """The failure stands. Seed: "If you fail a skill check, it stays failed."."""
    check, index, part = _failed(state, turn, args["character"])
    run = Step(state, turn)
    run.emit({"type": "accepted", "check": check["id"], "part": index, "cid": part["cid"]})
    return run.advance()


def hold(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "jumping from the Moon to the Earth is Impossible and no matter how many times a
    player tries to accomplish it, it will remain Impossible"."""
    return [{"type": "hold_set", "check": open_check(state)["id"], "hold": args["hold"]}]


def close(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """The GM ends the open check: every failure stands, an unchosen card leaves it unsettled.
    Its cards go to their decks' discard piles, as when the rules close it."""
    check = open_check(state)
    unsettled = "unapproved" if check.get("approved") is False else "unsettled"
    result = verdict(check, closing=True) or {"outcome": None, "winners": [], "reason": unsettled}
    run = Step(state, turn)
    run.close(result, "gm")
    return run.events


def new_day(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "You can't go back and try again (until a Day has passed)". A Day passes as a
    night does on the table's clock: the same events as the GM's "A night passes" (the clock
    moves, what lasted the night ends, a new Day begins), so the clock and the Day agree."""
    return time.passing(CLOCK, state, {"span": time.NIGHT}, turn)


def allow_player_calls(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    return [{"type": "player_calls_set", "allowed": args["allowed"]}]


def rechoose(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill,
    and fail a new skill". The circles then empty (issue 14). Keeping the same A+ or F is
    allowed: "may". The circles counted are the sheet's, which every retry writes back."""
    person = reported(turn, args["character"])
    who, filled = person["name"], person["corruption"]
    if filled < report.CIRCLES:
        raise NotNow(f"{who} chooses a new A+ and F when all three Corruption Circles are filled "
                     f"({filled} of 3 now).")
    try:
        report.check_skills(person, args["a_plus"], args["f_skill"])
    except SheetError as exc:
        raise BadInput(exc.message) from None
    # ``was``: the Report Card as it stood, for the GM's undo (campaign.settle)
    return [{"type": "skills_rechosen", "cid": args["character"], "name": who, "a_plus": args["a_plus"],
             "f_skill": args["f_skill"],
             "was": {"a_plus": person["a_plus"], "f_skill": person["f_skill"], "corruption": filled}}]
