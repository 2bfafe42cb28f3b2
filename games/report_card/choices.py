"""The steps of an open check and the GM's tools: drawing, choosing a card, retrying, letting a
failure stand, holding the rank, closing the check, a new Day, new skills after three
Corruption Points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card import sheet as report
from games.report_card.access import decides_for, is_gm, open_check, plays, require_gm
from games.report_card.calls import flag, people_of
from games.report_card.errors import BadInput, NotNow, NotYours
from games.report_card.flow import Event, Step
from games.report_card.rules import skill_of
from games.report_card.state import last, may_draw, name_of, next_rank, status, verdict
from games.sheets import SheetError

State = Mapping[str, Any]


def _find(check: Mapping[str, Any], command: Mapping[str, Any], state: State) -> tuple[int, dict[str, Any]]:
    cid = str(command.get("combatant") or "")
    for index, part in enumerate(check["parts"]):
        if part["cid"] == cid:
            return index, part
    raise NotNow(f"{name_of(state, cid)} is not in the check for '{check['task']}'.")


def draw(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: "Skill checks are resolved by having the player draw the top card from their
    decks". The check is called first, so everyone sees the odds before the card comes off;
    then the character's player draws (or the GM, who may draw for anyone, as at a table)."""
    check = open_check(state)
    index, part = _find(check, command, state)
    who = name_of(state, part["cid"])
    if not (plays(actor, state["characters"][part["cid"]]) or is_gm(actor)):
        raise NotYours(f"Only {who}'s player or the GM draws {who}'s card.")
    if not may_draw(check, index):
        if part["attempts"]:
            raise NotNow(f"{who} has drawn already.")
        helper = name_of(state, check["parts"][0]["cid"])
        raise NotNow(f"{who} draws once {helper}'s help is settled.")
    run = Step(state, cards)
    run.draw(index)
    return run.advance()


def pick(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: with Bonus the player uses "whichever of the two cards they would prefer"; with
    Penalty "whichever card the GM decides is the worse of the two"."""
    check = open_check(state)
    index, part = _find(check, command, state)
    who = name_of(state, part["cid"])
    attempt = last(part)
    if attempt is None or attempt["pending"] is None:
        raise NotNow(f"{who} has no card to choose.")
    if attempt["pending"] == "player" and not decides_for(actor, state["characters"][part["cid"]]):
        raise NotYours(f"With a Bonus, {who}'s player chooses which card to keep.")
    if attempt["pending"] == "gm" and not is_gm(actor):
        raise NotYours("With a Penalty, the GM chooses the worse card.")
    chosen = command.get("index")
    if command.get("card") is not None:
        tokens = [d["card"] for d in attempt["draws"]]
        chosen = tokens.index(command["card"]) if command["card"] in tokens else None
    try:
        chosen = int(chosen)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        chosen = -1
    if chosen not in range(len(attempt["draws"])):
        raise BadInput("Choose one of the two cards drawn.")
    run = Step(state, cards)
    run.pick({"type": "picked", "check": check["id"], "part": index, "cid": part["cid"], "index": chosen,
              "by": attempt["pending"], "outcome": attempt["draws"][chosen]["outcome"]})
    return run.advance()


def _failed(state: State, command: Mapping[str, Any]) -> tuple[dict[str, Any], int, dict[str, Any], str]:
    check = open_check(state)
    index, part = _find(check, command, state)
    who = name_of(state, part["cid"])
    found = status(part)
    if found != "failed":
        raise NotNow({"waiting": f"{who} has not drawn yet.", "picking": f"{who}'s card is still to be chosen.",
                      "succeeded": f"{who} succeeded: there is nothing to retry.",
                      "accepted": f"{who} already let the failure stand."}[found])
    return check, index, part, who


def _on_the_sheet(state: State, command: Mapping[str, Any], cid: str) -> dict[str, Any]:
    """The character as the check knows it, with the Corruption its sheet holds now: the GM may
    have filled or emptied circles by hand since the check was called (the rules' own retries
    and new skills write it back there)."""
    person = dict(state["characters"][cid])
    given = (command.get("characters") or {}).get(cid)
    if given is not None:
        person["corruption"] = people_of(command, [cid])[cid]["corruption"]
    return person


def retry(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: "The player can take 1 Corruption Point to retry the check. Each time the player
    attempts to re-try the check, it becomes one step easier", unless "At the GM's discretion,
    a check can remain at its current difficulty level during a retry"."""
    check, index, part, who = _failed(state, command)
    person = _on_the_sheet(state, command, part["cid"])
    if not decides_for(actor, person):
        raise NotYours(f"Only {who}'s player decides to retry: it costs {who} a Corruption Point.")
    # Reading: there are three circles and no fourth; with all three filled the player first
    # takes the new A+ and F the seed offers, which empties them.
    if person["corruption"] >= report.CIRCLES:
        raise NotNow(f"All three of {who}'s Corruption Circles are filled: choose a new A+ and F first.")
    run = Step(state, cards)
    run.emit({"type": "retried", "check": check["id"], "part": index, "cid": part["cid"],
              "corruption": person["corruption"] + 1, "rank": next_rank(check, part), "held": bool(check["hold"])})
    run.draw(index, retry=True)
    return run.advance()


def accept(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """The failure stands. Seed: "If you fail a skill check, it stays failed."."""
    check, index, part, who = _failed(state, command)
    if not (plays(actor, state["characters"][part["cid"]]) or is_gm(actor)):
        raise NotYours(f"Only {who}'s player or the GM can let the failure stand.")
    run = Step(state, cards)
    run.emit({"type": "accepted", "check": check["id"], "part": index, "cid": part["cid"]})
    return run.advance()


def hold(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: "jumping from the Moon to the Earth is Impossible and no matter how many times a
    player tries to accomplish it, it will remain Impossible"."""
    require_gm(actor, "hold a check's rank")
    check = open_check(state)
    return [{"type": "hold_set", "check": check["id"], "hold": flag(command, "hold")}]


def close(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """The GM ends the open check: every failure stands, an unchosen card leaves it unsettled.
    Its cards go to their decks' discard piles, as when the rules close it."""
    require_gm(actor, "close a check")
    check = open_check(state)
    result = verdict(check, closing=True) or {"outcome": None, "winners": [], "reason": "unsettled"}
    run = Step(state, cards)
    run.close(result, "gm")
    return run.events


def new_day(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: "You can't go back and try again (until a Day has passed)"."""
    require_gm(actor, "start a new Day")
    return [{"type": "day_started", "day": state["day"] + 1}]


def allow_player_calls(state: State, command: Mapping[str, Any], actor: Mapping[str, Any],
                       cards: Cards | None) -> list[Event]:
    require_gm(actor, "let players call checks")
    return [{"type": "player_calls_set", "allowed": flag(command, "allowed")}]


def rechoose(state: State, command: Mapping[str, Any], actor: Mapping[str, Any], cards: Cards | None) -> list[Event]:
    """Seed: "When all three of the Corruption Circles are filled, you may gain a new Skill,
    and fail a new skill". The circles then empty (issue 14). Keeping the same A+ or F is
    allowed: "may"."""
    cid = str(command.get("combatant") or "")
    fresh = people_of(command, [cid])[cid] if cid in (command.get("characters") or {}) else None
    person = fresh or state["characters"].get(cid)
    if person is None:
        raise BadInput(f"No character {cid!r} at this table.")
    who = person["name"]
    if not (plays(actor, person) or is_gm(actor)):
        raise NotYours(f"Only {who}'s player or the GM chooses {who}'s new skills.")
    filled = person["corruption"]  # the sheet's, which every retry writes back
    if filled < report.CIRCLES:
        raise NotNow(f"{who} chooses a new A+ and F when all three Corruption Circles are filled "
                     f"({filled} of 3 now).")
    a_plus, f_skill = skill_of(command.get("a_plus")), skill_of(command.get("f_skill"))
    try:
        report.check_skills(person, a_plus, f_skill)
    except SheetError as exc:
        raise BadInput(exc.message) from None
    after = {**person, "a_plus": a_plus, "f_skill": f_skill, "corruption": 0}
    return [{"type": "skills_rechosen", "cid": cid, "person": after}]
