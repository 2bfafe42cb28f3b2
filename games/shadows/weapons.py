"""The campaign's Attack/Weapon table, which the GM edits.

Seed: "The Damage modifiers for the attack or weapon type are detailed in the Attack/Weapon
table that follows (along with the Fumble value for each attack)", and a Major Critical is
"of a type based on the suit" for "the type of critical that the weapon or attack being
used is specified as doing". The seed's own table is not published, so the rows below are
examples for the GM to replace.

As text, one weapon a line:
    name | type | modifier | fumble | critical suit | modern or muscle | AP | material
type is physical, mana or spiritual; modifier D1 D2 L2 H2 L3 H3 M3 or a number; AP (how
many an attack costs, 1 unless the GM says) and material (what vulnerabilities,
resistances and immunities match, e.g. "silver") may be left off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import Args, Event, RuleError, Turn
from games.shadows import deck
from games.shadows.combat import ATTACK_TYPES, MODIFIERS, fixed_modifier

DEFAULT_WEAPONS: list[dict[str, Any]] = [
    {"name": "Unarmed", "type": "physical", "modifier": "L2", "fumble": 2, "critical": "pentacles",
     "modern": False, "ap": 1, "material": ""},
    {"name": "Knife", "type": "physical", "modifier": "D1", "fumble": 3, "critical": "cups",
     "modern": False, "ap": 1, "material": "steel"},
    {"name": "Sword", "type": "physical", "modifier": "H2", "fumble": 3, "critical": "cups",
     "modern": False, "ap": 1, "material": "steel"},
    {"name": "Club", "type": "physical", "modifier": "M3", "fumble": 3, "critical": "swords",
     "modern": False, "ap": 1, "material": "wood"},
    {"name": "Bow", "type": "physical", "modifier": "L3", "fumble": 4, "critical": "cups",
     "modern": False, "ap": 1, "material": "wood"},
    {"name": "Handgun", "type": "physical", "modifier": "D2", "fumble": 3, "critical": "pentacles",
     "modern": True, "ap": 1, "material": "lead"},
    {"name": "Mana bolt", "type": "mana", "modifier": "H3", "fumble": 4, "critical": "wands",
     "modern": False, "ap": 1, "material": "fire"},
    {"name": "Soul lash", "type": "spiritual", "modifier": "M3", "fumble": 4, "critical": "cups",
     "modern": False, "ap": 1, "material": "spirit"},
]

_MAX_WEAPONS = 60


def check_weapon(row: Mapping[str, Any]) -> dict[str, Any]:
    """A weapon row as the engine keeps it; ``RuleError`` names what is wrong."""
    name = str(row.get("name", "")).strip()[:40]
    if not name:
        raise RuleError("A weapon needs a name.")
    kind = str(row.get("type", "physical")).strip().lower()
    if kind not in ATTACK_TYPES:
        raise RuleError(f"{name}: the type is physical, mana or spiritual.")
    modifier = str(row.get("modifier", "0")).strip().upper() or "0"
    if modifier not in MODIFIERS:
        modifier = str(fixed_modifier(modifier))
    try:
        fumble = int(row.get("fumble", 0))
        ap = int(row.get("ap", 1) or 1)
    except (TypeError, ValueError):
        raise RuleError(f"{name}: the fumble value and AP are whole numbers.") from None
    if not 0 <= fumble <= 14:
        raise RuleError(f"{name}: a fumble value is 0 to 14 (a card's value).")
    if not 1 <= ap <= 13:
        raise RuleError(f"{name}: an attack costs 1 to 13 AP.")
    critical = str(row.get("critical", "")).strip().lower()
    critical = {"coins": "pentacles", "staves": "wands", "chalice": "cups"}.get(critical, critical)
    if critical not in deck.SUITS:
        raise RuleError(f"{name}: the critical type is a suit: cups, pentacles, swords or wands.")
    modern = row.get("modern", False)
    if isinstance(modern, str):
        modern = modern.strip().lower() in ("modern", "yes", "true", "1")
    return {"name": name, "type": kind, "modifier": modifier, "fumble": fumble,
            "critical": critical, "modern": bool(modern), "ap": ap,
            "material": str(row.get("material", "") or "").strip().lower()[:40]}


def check_table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    checked = [check_weapon(r) for r in rows]
    if not checked:
        raise RuleError("The weapon table needs at least one weapon.")
    if len(checked) > _MAX_WEAPONS:
        raise RuleError(f"The weapon table holds at most {_MAX_WEAPONS} weapons.")
    names = [w["name"].lower() for w in checked]
    if len(set(names)) != len(names):
        raise RuleError("Two weapons share a name.")
    return checked


def find(table: Sequence[Mapping[str, Any]], name: str) -> dict[str, Any]:
    for row in table:
        if row["name"].lower() == str(name).strip().lower():
            return dict(row)
    raise RuleError(f"No weapon or attack called {name!r} in the campaign's table.")


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(
        f"{w['name']} | {w['type']} | {w['modifier']} | {w['fumble']} | {w['critical']} | "
        f"{'modern' if w['modern'] else 'muscle'} | {w['ap']} | {w['material']}".rstrip(" |")
        for w in rows
    )


def parse_table(text: str) -> list[dict[str, Any]]:
    """The text form back into rows; ``RuleError`` names the line at fault."""
    rows = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if not 6 <= len(parts) <= 8:
            raise RuleError(f"Weapon line {number}: write 'name | type | modifier | fumble | "
                            "critical suit | modern or muscle | AP | material'.")
        keys = ("name", "type", "modifier", "fumble", "critical", "modern", "ap", "material")
        row = dict(zip(keys, parts))
        try:
            rows.append(check_weapon(row))
        except RuleError as exc:
            raise RuleError(f"Weapon line {number}: {exc.message}") from None
    return check_table(rows)


def set_weapons(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's move: the campaign's table, as the parser read it (``parse_table``)."""
    return [{"type": "weapons_set", "weapons": args["weapons"]}]
