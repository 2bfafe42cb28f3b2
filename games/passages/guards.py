"""What every command handler shares: who sent the command (``Actor``), the guards that
refuse it (not the sender's Persona, not now, not able) and reading its values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.passages import sheet
from games.passages import state as st
from games.passages.errors import BadValue, CannotAct, NotNow, NotYours

Event = dict[str, Any]
MAX_TEXT = 200


@dataclass(frozen=True)
class Actor:
    """Who sent a command, as the platform vouches for it."""

    is_gm: bool = False
    controls: frozenset[str] = frozenset()
    member: int | None = None
    name: str = ""

    @classmethod
    def from_dict(cls, data: object) -> Actor:
        if not isinstance(data, Mapping):
            raise NotYours("A command needs its sender: {'is_gm': bool, 'controls': [ids]}.")
        controls = data.get("controls") or []
        if not isinstance(controls, (list, tuple, set, frozenset)):
            raise NotYours("actor.controls is a list of Persona ids.")
        member = data.get("member")
        return cls(is_gm=bool(data.get("is_gm", False)), controls=frozenset(map(str, controls)),
                   member=member if isinstance(member, int) else None, name=str(data.get("name") or ""))

    def plays(self, cid: str) -> bool:
        """The Director stands in for every Persona, as at a real table; a player only for
        their own."""
        return self.is_gm or cid in self.controls


def require_gm(actor: Actor, what: str) -> None:
    if not actor.is_gm:
        raise NotYours(f"Only the Director can {what}.")


def require_plays(actor: Actor, person: Mapping[str, Any]) -> None:
    if not actor.plays(person["id"]):
        raise NotYours(f"You do not play {person['name']}: nobody rolls for another's Persona.")


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
    if not isinstance(cid, str) or cid not in st.in_scene(state):
        raise BadValue(f"There is no Persona {cid!r} in this scene.")
    person: dict[str, Any] = state["personae"][cid]
    return person


def _text(command: Mapping[str, Any], key: str, default: str = "", limit: int = MAX_TEXT) -> str:
    raw = command.get(key)
    text = " ".join(str(raw).split()) if raw is not None else ""
    if len(text) > limit:
        raise BadValue(f"{key.capitalize()} is at most {limit} characters.")
    return text or default


def _int(command: Mapping[str, Any], key: str, low: int, high: int, label: str,
         default: int | None = None) -> int:
    raw = command.get(key, default)
    if raw in (None, "") and default is not None:
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise BadValue(f"{label} is a whole number from {low} to {high}.")
    return raw


def _sheets(command: Mapping[str, Any], least: int) -> list[dict[str, Any]]:
    raw = command.get("combatants")
    if not isinstance(raw, list) or len(raw) < least:
        raise BadValue(f"Choose at least {least} Personae.")
    people = [sheet.persona(p) for p in raw]
    if len({p["id"] for p in people}) != len(people):
        raise BadValue("The same Persona is listed twice.")
    return people
