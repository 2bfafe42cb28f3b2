"""An entity in a Demon City fight (``Combatant``), built from its sheet, and the sheet's fields
described as plain data (``sheet.py`` turns them into the platform's form fields).

Seed: "All character stats are ranked from 0-9 (or possibly more, with no maximum, if
the supernatural is involved), high numbers are good."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from games.core.engine import RuleError

STAT_MAX = 9  # lifted for supernatural entities
# The sheet's fields no fight reads: the experience the GM awards (games/core/growth.py).
NOT_FOUGHT = frozenset({"xp"})
STAT_NAMES = ("agility", "toughness", "hand_to_hand", "firearms", "exotic_weapons")
STAT_LABELS = {
    "agility": "Agility",
    "toughness": "Toughness",
    "hand_to_hand": "Hand-to-Hand",
    "firearms": "Firearms",
    "exotic_weapons": "Exotic Weapons",
}


def _stat(name: str, default: int, help_text: str) -> dict[str, Any]:
    return {"name": name, "label": STAT_LABELS[name], "kind": "int", "default": default,
            "min": 0, "max": STAT_MAX, "uncapped_by": "supernatural", "help": help_text}


# Plain data so a form, a template or the registry can render and validate the sheet
# without importing anything else. ``uncapped_by`` names the bool that lifts ``max``.
SHEET_FIELDS: list[dict[str, Any]] = [
    {"name": "name", "label": "Name", "kind": "str", "default": "", "min": None, "max": None,
     "help": "What the table calls this entity."},
    {"name": "side", "label": "Side", "kind": "str", "default": "", "min": None,
     "max": None, "help": "Entities on the same side break a tie for first at random. Blank: "
                          "the players' side for a player's character, the opposing side for "
                          "an NPC."},
    {"name": "supernatural", "label": "Supernatural", "kind": "bool", "default": False,
     "min": None, "max": None, "help": "Stats may go above 9."},
    _stat("agility", 3, "Speed and coordination; the slowest announces first."),
    _stat("toughness", 3, "Base Toughness: humans run from 0 (frail) to 5 (world-class)."),
    {"name": "current_toughness", "label": "Current Toughness", "kind": "int", "default": None,
     "min": None, "max": None,
     "help": "Empty means equal to Base Toughness; at -1 or below the entity is out of the fight."},
    {"name": "armour", "label": "Armour", "kind": "int", "default": 0, "min": 0, "max": None,
     "help": "Kevlar and the like: added to Base Toughness when rolling damage."},
    _stat("hand_to_hand", 0, "0 means the entity does not have the skill."),
    _stat("firearms", 0, "0 means the entity does not have the skill."),
    _stat("exotic_weapons", 0, "0 means the entity does not have the skill."),
    {"name": "skills", "label": "Other skills", "kind": "stats", "default": {}, "min": 0,
     "max": STAT_MAX, "uncapped_by": "supernatural",
     "help": "Skills the GM adds, one per line as Name: rating, e.g. Driving: 6."},
    {"name": "injured", "label": "Injured", "kind": "bool", "default": False, "min": None,
     "max": None, "help": "Carries an injury. In a fight, an injury taken during that fight "
                          "costs one die; an Injury result not yet healed always does (in a task "
                          "too); a bare injury from before only if the Host says it counts."},
    {"name": "out_of_fight", "label": "Out of the fight", "kind": "bool", "default": False,
     "min": None, "max": None, "help": "Cannot announce or roll. Ends with the fight for the living."},
    {"name": "injury", "label": "Injury", "kind": "str", "default": "", "min": None, "max": None,
     "help": "The last result rolled on the Injury table; a final one stays until it heals."},
]

@dataclass(frozen=True)
class Combatant:
    """One entity in a fight, built from a plain sheet dict plus an ``id``."""

    id: str
    name: str = ""
    side: str = "players"
    supernatural: bool = False
    agility: int = 3
    toughness: int = 3
    current_toughness: int = 3
    armour: int = 0
    hand_to_hand: int = 0
    firearms: int = 0
    exotic_weapons: int = 0
    skills: Mapping[str, int] = field(default_factory=dict)
    injured: bool = False
    out_of_fight: bool = False
    # The last Injury table result (``entry["result"]``), kept on the sheet when the fight ends.
    injury: str = ""
    present: bool = True
    grabbed: bool = False
    # Who holds the grab (ids); empty when the Host marked the grab by hand. The grab ends
    # when every holder is out of the fight, when the target breaks free, or by the Host.
    grabbed_by: tuple[str, ...] = ()
    unaware: bool = False
    dead: bool = False
    injury_pending: bool = False
    injury_round: int = 0
    defended_last_round: bool = False
    defended_this_round: bool = False
    # An injury from before this fight, kept for the sheet: it costs no Lost Die here, since
    # the seed gives that die to "anyone who has taken at least one injury during the fight".
    injured_before: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        """Validate a plain dict (sheet fields, conditions, ``id``); unknown keys are errors, but
        for the sheet's fields no fight reads (``NOT_FOUGHT``: experience), which are left out."""
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in data.items() if k not in NOT_FOUGHT}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(f"Unknown sheet field(s): {', '.join(unknown)}.")
        cid = data.get("id")
        if not isinstance(cid, str) or not cid:
            raise RuleError("A combatant needs a non-empty string id.")
        values = dict(data)
        values["skills"] = dict(values.get("skills") or {})
        if isinstance(values.get("grabbed_by"), list):
            values["grabbed_by"] = tuple(values["grabbed_by"])
        if values.get("current_toughness") is None:
            values["current_toughness"] = values.get("toughness", cls.toughness)
        built = cls(**values)
        built._check()
        return built

    def _check(self) -> None:
        for f in fields(self):
            value, kind = getattr(self, f.name), str(f.type)
            if kind.startswith("Mapping"):
                ok = isinstance(value, Mapping)
            elif kind.startswith("tuple"):
                ok = isinstance(value, tuple) and all(isinstance(v, str) and v for v in value)
            else:
                # bool is an int subclass; a sheet that says True for Agility is a mistake.
                ok = type(value) is {"str": str, "bool": bool, "int": int}[kind]
            if not ok:
                raise RuleError(f"{f.name} must be {kind}, not {value!r}.")
        cap = None if self.supernatural else STAT_MAX
        ratings = {STAT_LABELS[n]: getattr(self, n) for n in STAT_NAMES}
        for key, value in self.skills.items():
            if not isinstance(key, str) or not key or key in STAT_NAMES:
                raise RuleError(f"Skill name {key!r} is empty or shadows a stat.")
            if not isinstance(value, int) or isinstance(value, bool):
                raise RuleError(f"Skill {key} must be a whole number.")
            ratings[key] = value
        for label, value in ratings.items():
            if value < 0 or (cap is not None and value > cap):
                raise RuleError(
                    f"{label} must be 0-9 (higher only for the supernatural), not {value}.")
        if self.armour < 0:
            raise RuleError("Armour cannot be negative.")
        if self.current_toughness > self.toughness:
            raise RuleError("Current Toughness cannot exceed Base Toughness.")

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, which ``from_dict`` reads back unchanged."""
        data = asdict(self)
        data["skills"] = dict(self.skills)
        data["grabbed_by"] = list(self.grabbed_by)
        return data

    def stat(self, name: str) -> int:
        """A rating by name: the fixed stats, then GM-added skills (0 when absent)."""
        if name in STAT_NAMES:
            return int(getattr(self, name))
        return int(self.skills.get(name, 0))

    def has_stat(self, name: str) -> bool:
        return name in STAT_NAMES or name in self.skills

    @property
    def damage_toughness(self) -> int:
        """Seed: "Kevlar and other protection raises your Base Toughness for these purposes"."""
        return self.toughness + self.armour

    def allied_with(self, other: Combatant) -> bool:
        """Same side; a blank side is nobody's side but the entity's own."""
        return self.id == other.id or (bool(self.side) and self.side == other.side)

    @property
    def able(self) -> bool:
        """Can announce and roll: present, in the fight and alive."""
        return self.present and not self.out_of_fight and not self.dead

    def with_changes(self, **changes: Any) -> Combatant:
        """A validated copy with some fields changed."""
        return Combatant.from_dict({**self.to_dict(), **changes})


def derived_values(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Values a sheet page shows but nobody types: built from a sheet dict (id optional)."""
    person = Combatant.from_dict({"id": "sheet", **sheet})
    # Armour counts ("raises your Base Toughness"); "If their Toughness is 0 you still
    # roll one die".
    return {
        "damage_dice": max(1, person.damage_toughness),
        "out_of_fight_at": -1,
        "lost_die_for_injury": person.injured,
    }


def stat_label(name: str) -> str:
    return STAT_LABELS.get(name, name.replace("_", " ").title())


__all__ = [
    "SHEET_FIELDS",
    "STAT_MAX",
    "STAT_NAMES",
    "Combatant",
    "derived_values",
    "stat_label",
]
