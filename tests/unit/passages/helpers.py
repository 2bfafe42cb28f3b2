"""Helpers for the Passages engine tests: scripted percentile dice, the worked example's
duellists and a driver that plays each move as the table does: its form through the move's
parser, the sender checked by the core against the Persona it is for, its events folded."""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import replace
from typing import Any

from games.contract import Character, Table
from games.core.rng import Rng
from games.passages.system import ENGINE
from tests.support.engine import OnPlay, Play, member

GM: dict[str, Any] = {"is_gm": True, "controls": [], "member": 1, "name": "Dee"}


def player(*cids: str, member: int = 2) -> dict[str, Any]:
    return {"is_gm": False, "controls": list(cids), "member": member, "name": f"player {member}"}


class Dice:
    """An ``Rng`` whose d100s come from a script; it fails the test if the engine asks for
    anything but a d100, or for more dice than scripted."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 100), f"the engine asked for {a}-{b}, not a d100"
        assert self.rolls, "the script ran out of dice"
        return self.rolls.pop(0)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        raise AssertionError("the engine should roll with randint")

    def random(self) -> float:
        raise AssertionError("the engine should roll with randint")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        raise AssertionError("nothing in Passages is shuffled")

    def choice(self, seq: Sequence[Any]) -> Any:
        raise AssertionError("nothing in Passages is chosen at random")


# The worked example's duellists (seed 001, "EXAMPLE of Skills and Combat").
TRAYER = {"id": "c1", "name": "Trayer", "skills": {"Soldiery (Sword and Shield)": 18, "Campfire": 33,
                                                   "Intimidation": 32},
          "combat_skill": "Soldiery (Sword and Shield)", "defense_skill": "Soldiery (Sword and Shield)",
          "weapon": "Long Blade", "weapon_damage": 3, "armour": "brigantine", "armour_effect": "halve"}
GARBO = {"id": "c2", "name": "Garbo", "skills": {"Two-Hander": 25},
         "combat_skill": "Two-Hander", "defense_skill": "Two-Hander",
         "weapon": "flail", "weapon_damage": 3, "armour": "Naturally Armored hide", "armour_effect": "-1"}


def persona(cid: str, name: str, **sheet: Any) -> dict[str, Any]:
    return {"id": cid, "name": name, "skills": {"Brawl": 30, "Stealth": 40, "Tracking": 26}, **sheet}


def platform_id(cid: str) -> int:
    """The id a form posts for the character whose combatant id is ``cid`` ("c12": 12)."""
    return int(cid.lstrip("c"))


def read_id(raw: object) -> int | None:
    return int(str(raw)) if str(raw).isdigit() else None


def character(sheet: Mapping[str, Any], owner: int | None = None) -> Character:
    """A character at the table from a test's sheet (its ``id``, ``name`` and ``npc`` aside)."""
    cid = str(sheet["id"])
    return Character(id=platform_id(cid), cid=cid, name=str(sheet.get("name", cid)),
                     sheet={k: v for k, v in sheet.items() if k not in ("id", "name", "npc")},
                     owner=owner, is_npc=sheet.get("npc") is True)


def form(command: Mapping[str, Any]) -> dict[str, list[str]]:
    """A move's arguments as the page's form posts them: the Personae a scene begins with by
    their platform ids (``characters``), a yes or a no, numbers as text."""
    posted: dict[str, list[str]] = {}
    for key, raw in command.items():
        if key == "combatants":
            posted["characters"] = [str(platform_id(c["id"] if isinstance(c, Mapping) else c)) for c in raw]
        elif key == "challenge" and isinstance(raw, list):
            posted[key] = [str(platform_id(c)) for c in raw]
        elif isinstance(raw, bool):
            posted[key] = ["yes" if raw else "no"]
        elif raw is not None:
            posted[key] = [str(raw)]
    return posted


class Scene(OnPlay):
    """One table's Passages, played as the platform plays it (the log kept for an undo)."""

    def __init__(self) -> None:
        self.play = Play(ENGINE)
        self.characters: dict[str, Character] = {}

    def send(self, command: Mapping[str, Any], *rolls: int, actor: Mapping[str, Any] | None = None,
             rng: Rng | None = None) -> list[dict[str, Any]]:
        name = str(command["type"])
        args = {k: v for k, v in command.items() if k != "type"}
        sender = member(actor or GM)
        for sheet in args.get("combatants") or ():
            if isinstance(sheet, Mapping):
                known = self.characters.get(str(sheet["id"]))
                self.characters[str(sheet["id"])] = character(sheet, known.owner if known else None)
        for cid in sender.controls if not sender.is_gm else ():
            if cid in self.characters:  # the sender plays them
                self.characters[cid] = replace(self.characters[cid], owner=sender.id)
        move = ENGINE.move(name)
        table = Table(characters=tuple(self.characters.values()), read_id=read_id)
        parsed = move.parse(form(args), table) if move is not None else {}
        dice = rng or Dice(*rolls)
        events = self.play.send(name, parsed, sender, rng=dice, table=self.characters)
        for event in events:  # what the rules put back on the sheets, as the platform does
            for cid, fields in (ENGINE.writeback(event, self.state) if ENGINE.writeback else {}).items():
                if cid in self.characters:
                    known = self.characters[cid]
                    self.characters[cid] = replace(known, sheet={**known.sheet, **fields})
        if rng is None:
            assert not dice.rolls, f"the engine left scripted dice unused: {dice.rolls}"  # type: ignore[attr-defined]
        return events

    def seat(self, sheet: Mapping[str, Any], owner: int | None = None) -> None:
        """A Persona at the table, in no scene."""
        self.characters[str(sheet["id"])] = character(sheet, owner)

    def sheet(self, cid: str) -> Mapping[str, Any]:
        return self.characters[cid].sheet

    def person(self, cid: str) -> dict[str, Any]:
        return self.state["personae"][cid]

    def track(self, cid: str) -> tuple[int, int]:
        return self.person(cid)["wounds"], self.person(cid)["fatigue"]

    # combat shorthands
    def fight(self, *sheets: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "combat_start", "combatants": list(sheets), **extra})

    def attack(self, who: str, target: str, **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "declare", "combatant": who, "stance": "in", "target": target, **extra})

    def out(self, who: str, action: str = "looks on") -> list[dict[str, Any]]:
        return self.send({"type": "declare", "combatant": who, "stance": "out", "action": action})

    def rest(self, who: str) -> list[dict[str, Any]]:
        return self.send({"type": "rest", "combatant": who})

    def roll(self, who: str, die: int) -> list[dict[str, Any]]:
        return self.send({"type": "combat_roll", "combatant": who}, die)

    def exchange(self, a: str, b: str, roll_a: int, roll_b: int) -> list[dict[str, Any]]:
        """A Turn of blows: ``a`` and ``b`` attack each other, roll, and the Resolution Point."""
        self.attack(a, b)
        self.attack(b, a)
        self.roll(a, roll_a)
        self.roll(b, roll_b)
        return self.resolve()

    def resolve(self) -> list[dict[str, Any]]:
        return self.send({"type": "resolve"})

    # contest shorthands
    def contest(self, *sheets: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "contest_start", "combatants": list(sheets), **extra})

    def contest_roll(self, who: str, skill: str, die: int) -> list[dict[str, Any]]:
        return self.send({"type": "contest_roll", "combatant": who, "skill": skill}, die)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
