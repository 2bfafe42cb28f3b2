"""Who may act, and when, and reading a command: the checks every Harsh Light command passes
(some only the Storyteller sends, a character is acted for only by its player or the Storyteller,
an instant action waits for its turn), and what a command sends read and checked, with the sheets
it brings read into the state first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.harsh_light import sheet as sh
from games.harsh_light.errors import NotYourCharacter, OutOfTurn, RuleError
from games.harsh_light.events import apply
from games.harsh_light import health
from games.harsh_light.state import name, out, status

Event = dict[str, Any]
Command = Mapping[str, Any]

MAX_LABEL = 80


# Who may act, and when.


def _actor(command: Command) -> Mapping[str, Any]:
    actor = command.get("actor")
    if not isinstance(actor, Mapping):
        raise RuleError("A command needs to say who sends it.")
    return actor


def _is_gm(command: Command) -> bool:
    return bool(_actor(command).get("is_gm"))


def _require_gm(command: Command, what: str) -> None:
    if not _is_gm(command):
        raise RuleError(f"Only the Storyteller can {what}.")


def _require_control(state: Mapping[str, Any], command: Command, cid: str) -> None:
    """The issue: "refused for anyone acting ... for another's character"."""
    actor = _actor(command)
    if actor.get("is_gm") or cid in [str(c) for c in actor.get("controls") or []]:
        return
    raise NotYourCharacter(f"You do not play {name(state, cid)}: only its player or the Storyteller can act for it.")


def _require_turn(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Seed: "In combat, you get one instant action per turn"; the table keeps whose action it is."""
    if not state["combat"] or cid not in state["order"]:
        return
    if state["acting"] != cid:
        raise OutOfTurn(f"It is {name(state, state['acting'])}'s action, not {name(state, cid)}'s: "
                        f"{what} waits for {name(state, cid)}'s turn.")
    if status(state, cid)["acted"]:
        raise OutOfTurn(f"{name(state, cid)} has already taken an instant action this turn.")


def _require_able(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Issue 22: "a character unconscious or dead takes no turn and is not offered actions"; the
    Storyteller still corrects its track (harm, heal, the sheet)."""
    if out(state, cid):
        words = health.state_words(state["characters"][cid])
        raise RuleError(f"{name(state, cid)} is {words}: no {what} until the Storyteller heals it.")


# Reading the command.


def _cid(command: Command, key: str = "combatant") -> str:
    raw = command.get(key)
    if not isinstance(raw, str) or not raw:
        raise RuleError("Choose a character.")
    return raw


def _who(state: Mapping[str, Any], command: Command, cid: Any) -> str:
    """A character's name for a refusal, even one the state has not read yet (from the sheets
    the command brings): never its id."""
    if isinstance(cid, str) and cid in state["characters"]:
        return name(state, cid)
    given = (command.get("sheets") or {}).get(cid) if isinstance(cid, str) else None
    return str((given or {}).get("name") or "that character")


def _int(command: Command, key: str, default: int, low: int, high: int, what: str) -> int:
    raw = command.get(key, default)
    if raw is None or raw == "":
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(f"{what} is a whole number.")
    if not low <= raw <= high:
        raise RuleError(f"{what} is from {low} to {high}.")
    return raw


def _text(command: Command, key: str, default: str = "") -> str:
    raw = command.get(key)
    return str(raw).strip()[:MAX_LABEL] if raw not in (None, "") else default


def _known(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    person = state["characters"].get(cid)
    if person is None:
        raise RuleError(f"{cid!r} is not a character at this table.")
    return dict(person)


def _read_sheets(state: Mapping[str, Any], command: Command, cids: list[str]) -> list[Event]:
    """``sheet_read`` for each named character whose sheet is new or changed."""
    sheets = command.get("sheets") or {}
    events = []
    for cid in dict.fromkeys(cids):
        given = sheets.get(cid)
        if given is None:
            if cid not in state["characters"]:
                raise RuleError(f"{cid!r} is not a character at this table.")
            continue
        # "npc": the platform's own flag (web._sheets): an NPC's figures are the GM's (secrecy.py)
        sheet = {**sh.read(given), "id": cid, "name": str(given.get("name") or cid)[:60], "npc": bool(given.get("npc"))}
        if state["characters"].get(cid) != sheet:
            events.append({"type": "sheet_read", "combatant": cid, "sheet": sheet})
    return events


def _scratch(state: Mapping[str, Any], events: list[Event]) -> Mapping[str, Any]:
    for event in events:
        state = apply(state, event)
    return state
