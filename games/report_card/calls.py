"""Calling a check: for one character (perhaps helped by another), or for a group.

Seed: "Skill checks are resolved by having the player draw the top card from their decks";
"Multiple Players Making a Skill Check Together"; "One Player Helps Another". A called check
draws nothing: the panel shows the odds before the draw, and each part's player draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.report_card.access import may_call
from games.report_card.draws import deck_title
from games.report_card.errors import AlreadyToday, BadInput, NotNow
from games.report_card.state import open_check
from games.report_card.flow import Event
from games.report_card.skills import with_skill
from games.report_card.sheet import read

State = Mapping[str, Any]


def reported(turn: Turn, cid: str) -> dict[str, Any]:
    """A player character's Report Card as it is now, checked again (a stored sheet may predate
    a rule, or be hand-edited), with its name and the deck it draws from."""
    character = turn.character(cid)
    if character is None:
        raise BadInput(f"No character {cid!r} at this table.")
    if character.is_npc:
        raise BadInput(f"{character.name} is an NPC: in Report Card only the players' characters draw "
                       "for checks (the GM decides what an NPC does).")
    return {**read(character.sheet, character.name), "name": character.name, "deck": deck_title(character.name)}


def _not_while_open(state: State) -> None:
    # Reading: one check at a time, as at a table; the GM closes one that lingers.
    if state["check"] is not None:
        raise NotNow(f"The check for '{state['check']['task']}' is still open: settle it or close it first.")


def _day_rule(state: State, same_as: int | None, repeat: bool) -> None:
    """Seed: "Skill Checks for a specific thing cannot be made more than once per Day. If you
    fail a skill check, it stays failed." and "a Skill Check can only be attempted by one
    player". The decided reading 004: the GM says which checks are the same task,
    picking from the Day's earlier checks (``same_as``); the wording of a task decides nothing.
    The GM's ``repeat`` is the seed's "Unless otherwise specified": a low-stakes check that may
    be tried as often as they like."""
    if same_as is None:
        return
    entry = next((e for e in state["today"] if e["check"] == same_as), None)
    if entry is None:
        raise BadInput("That check was not made today: choose one of the Day's earlier checks, or none.")
    if repeat:
        return
    result = (entry["outcome"] or "under way").replace("_", " ")
    raise AlreadyToday(f"{' and '.join(entry['names'])} already made the check for '{entry['task']}' today "
                       f"({result}): it cannot be made again until a new Day.")


def _part(person: Mapping[str, Any], cid: str, role: str, skill: str, rank: str, bonus: bool = False,
          penalty: bool = False, task: str = "") -> dict[str, Any]:
    """One character's part of a check, with what the check records of the character as it is
    called: its name, its deck, its own Major Arcana, its Corruption Circles."""
    faced, note = with_skill(rank, skill, person["a_plus"], person["f_skill"])
    return {"cid": cid, "name": person["name"], "deck": person["deck"], "major": person["major"],
            "corruption": person["corruption"], "role": role, "skill": skill, "base_rank": rank, "rank": faced,
            "note": note, "bonus": bonus, "penalty": penalty, "help": None, "task": task, "attempts": [],
            "accepted": False}


def _check(state: State, args: Mapping[str, Any], turn: Turn, mode: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": state["next_check"], "mode": mode, "task": args["task"], "same_as": args["same_as"],
            "skill": args["skill"], "rank": args["rank"], "inconsequential": args["inconsequential"],
            "hold": args["hold"], "by": turn.member.name, "approved": turn.member.is_gm, "parts": parts}


def _helpers(turn: Turn, helpers: list[dict[str, Any]], drawing: list[str]) -> list[dict[str, Any]]:
    """The helpers' parts, each helping one of ``drawing``. Seed: "One Player Helps Another
    ("Pulling a Lever")". Reading: the GM may let several characters help (each success grants
    Bonus, each failure Penalty, and "Bonus and Penalty cancel one another out, and do not
    stack"), and may let members of a group check be helped; a character helps once per check,
    and never a check it draws for itself."""
    seen: set[str] = set()
    parts = []
    for h in helpers:
        if h["cid"] in drawing:
            raise BadInput("A character cannot help a check they draw for themselves.")
        if h["cid"] in seen:
            raise BadInput("Each helper helps once in a check.")
        seen.add(h["cid"])
        part = _part(reported(turn, h["cid"]), h["cid"], "helper", h["skill"], h["rank"], task=h["task"])
        parts.append({**part, "helps": h["helps"]})
    return parts


def call_check(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """The GM (or the player, if the GM allows) calls a check for one character, perhaps with
    other characters helping. Seed: "Skill checks are resolved by having the player draw the
    top card from their decks"; "One Player Helps Another"."""
    cid, grant = args["character"], args["grant"]
    person = reported(turn, cid)
    _not_while_open(state)
    may_call(state, args, turn.member)
    helpers = _helpers(turn, [{**h, "helps": cid} for h in args["helpers"]], [cid])
    _day_rule(state, args["same_as"], args["repeat"])
    if grant and not args["inconsequential"]:
        # Seed: for an Inconsequential check the GM "can even skip the check itself and grant
        # automatic failure or success".
        raise BadInput("Only an Inconsequential check can be granted without a draw.")
    if grant and helpers:
        raise BadInput("A granted check draws no card, so nobody helps it.")
    parts = [*helpers, _part(person, cid, "main", args["skill"], args["rank"], args["bonus"], args["penalty"])]
    check = _check(state, args, turn, "help" if helpers else "single", parts)
    if grant:  # no card is drawn, so no deck is read and none goes to the discard
        return [{"type": "check_called", "check": check, "by_gm": turn.member.is_gm},
                {"type": "check_closed", "check": check["id"], "task": check["task"], "by": "gm", "outcome": grant,
                 "winners": [cid], "reason": "granted"}]
    return [{"type": "check_called", "check": check, "by_gm": turn.member.is_gm}]


def call_group(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed, "Multiple Players Making a Skill Check Together": everyone draws (each their own
    card, in any order), each against the rank their own A+ or F gives them; a member the GM
    lets another character help draws once the help is settled."""
    cids = args["characters"]
    people = {c: reported(turn, c) for c in cids}
    _not_while_open(state)
    helpers = _helpers(turn, args["helpers"], cids)
    _day_rule(state, args["same_as"], args["repeat"])
    parts = [*helpers, *(_part(people[c], c, "member", args["skill"], args["rank"], c in args["bonus"],
                                c in args["penalty"]) for c in cids)]
    check = _check(state, args, turn, args["mode"], parts)
    return [{"type": "check_called", "check": check, "by_gm": True}]


def approve(state: State, args: dict[str, Any], turn: Turn) -> list[Event]:
    """Issue 26: "when the GM lets players call their own checks, the GM approves the
    difficulty and any Bonus before the draw". The GM sets the difficulty ("Determining the
    Difficulty of a Skill Check" is the GM's) and the Bonus or Penalty (seed: "If the player has
    a significant, concrete advantage ... they get a Bonus"), and the card may then be drawn.
    Refusing is closing the check: it then never counted for the Day."""
    check = open_check(state)
    if check.get("approved") is not False:
        raise NotNow(f"The check for '{check['task']}' needs no approval.")
    [part] = [p for p in check["parts"] if p["role"] == "main"]
    person = reported(turn, part["cid"])
    faced, note = with_skill(args["rank"], part["skill"], person["a_plus"], person["f_skill"])
    return [{"type": "check_approved", "check": check["id"], "rank": args["rank"], "faced": faced, "note": note,
             "bonus": args["bonus"], "penalty": args["penalty"]}]
