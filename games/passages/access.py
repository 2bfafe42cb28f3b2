"""Who may act now, by the rules (the core has already checked who may send the move): a
Persona of the scene, able to act, at the moment the move is for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.passages import state as st
from games.passages.errors import BadValue, CannotAct, NotNow


def require_mode(state: Mapping[str, Any], mode: str) -> None:
    if state["mode"] != mode:
        doing = {st.IDLE: "nothing is under way", st.CONTEST: "a contest is under way",
                 st.COMBAT: "a fight is under way"}[state["mode"]]
        wanted = {st.IDLE: "when nothing else is under way", st.CONTEST: "during a contest",
                  st.COMBAT: "during a fight"}[mode]
        raise NotNow(f"That is only for {wanted}; {doing}.")


def require_able(person: Mapping[str, Any]) -> None:
    """Seed: Unconscious Personae "cannot perform any Actions until revived"; "When your
    Fatigue reaches zero, you cannot continue to take Actions other than rest"."""
    if person.get("unconscious") or person["wounds"] <= 0:
        raise CannotAct(f"{person['name']} is Unconscious and cannot act until revived.")
    if person.get("downed") or person["fatigue"] <= 0:
        raise CannotAct(f"{person['name']} is Downed and may only rest.")


def find(state: Mapping[str, Any], cid: object) -> dict[str, Any]:
    """The Persona ``cid`` of the contest or fight under way."""
    if isinstance(cid, str) and cid in st.in_scene(state):
        person: dict[str, Any] = state["personae"][cid]
        return person
    # the refusal says what the table is doing, in words: never an id, never "scene"
    if state["mode"] == st.IDLE:
        raise BadValue("No contest or fight is under way now: the Director starts one first.")
    under_way = "fight" if state["mode"] == st.COMBAT else "contest"
    known = state["personae"].get(cid) if isinstance(cid, str) else None
    if known is not None:
        raise BadValue(f"{known['name']} is not in the {under_way} under way.")
    raise BadValue(f"That is not a Persona in the {under_way} under way: choose one who is in it.")


def require_turn_open(state: Mapping[str, Any]) -> None:
    """A step of the Turn under way: refused once its Resolution Point left the fight over and
    no new Turn has started."""
    fight = state.get("combat") or {}
    if state["mode"] == st.COMBAT and fight.get("phase") == st.RESOLVED:
        raise NotNow(f"Turn {fight['turn']} is over and no new Turn has started: the fight is over. "
                     "The Director ends it (or starts the next Turn once a side stands again).")
