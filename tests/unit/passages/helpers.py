"""Helpers for the Passages engine tests: scripted percentile dice, the worked example's
duellists and a driver that sends commands as the platform does."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

from games.passages import apply, decide, new_state

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


class Scene:
    """Drives the state machine as the platform does: decide, apply, keep the log."""

    def __init__(self) -> None:
        self.state = new_state()
        self.log: list[dict[str, Any]] = []

    def send(self, command: dict[str, Any], *rolls: int, actor: dict[str, Any] | None = None,
             ) -> list[dict[str, Any]]:
        dice = Dice(*rolls)
        events = decide(self.state, {"actor": actor or GM, **command}, dice)
        assert not dice.rolls, f"the engine left scripted dice unused: {dice.rolls}"
        for event in events:
            self.state = apply(self.state, event)
        self.log += events
        return events

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

    def resolve(self) -> list[dict[str, Any]]:
        return self.send({"type": "resolve"})

    # contest shorthands
    def contest(self, *sheets: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
        return self.send({"type": "contest_start", "combatants": list(sheets), **extra})

    def contest_roll(self, who: str, skill: str, die: int) -> list[dict[str, Any]]:
        return self.send({"type": "contest_roll", "combatant": who, "skill": skill}, die)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]

