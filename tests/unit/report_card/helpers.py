"""Report Card test helpers: short card names, Report Cards and actors."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": 1, "name": "Gail"}


def player(member: int, *cids: str, name: str = "") -> dict[str, Any]:
    return {"is_gm": False, "controls": list(cids), "member": member, "name": name or f"member {member}"}


def card(name: str) -> str:
    """A Tarot card id from a short name: "7S" Seven of Swords, "KC" King of Cups,
    "PW" Page of Wands, "AP" Ace of Pentacles, "M10" the Wheel of Fortune."""
    if name.startswith("M"):
        return f"tarot:major:{int(name[1:])}"
    suits = {"C": "cups", "P": "pentacles", "S": "swords", "W": "wands"}
    value = {"A": 1, "P": 11, "N": 12, "Q": 13, "K": 14}.get(name[:-1]) or int(name[:-1])
    return f"tarot:{suits[name[-1]]}:{value}"


def report(name: str, member: int | None, *, abilities: Iterable[str] = ("fast", "clever"),
           a_plus: str = "FREE", f_skill: str = "GYM", corruption: int = 0, major: int = 17) -> dict[str, Any]:
    """A character as a command carries it: the sheet, its name and its player's member id."""
    sheet = {a: a in abilities for a in ("charming", "fast", "clever", "strong", "wise", "lucky")}
    return {**sheet, "a_plus": a_plus, "f_skill": f_skill, "corruption": corruption, "major": major,
            "name": name, "player": member}
