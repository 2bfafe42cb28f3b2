"""Armour against Damage Types (seed 001, "Damage in Combat"): "Armor can Increase, Decrease,
Halve, or Double the damage, based on its characteristics", and in the worked example "The
Damage that Trayer did to Garbo compares against the Damage Type of the Urgluch's Armor".

How a sheet writes it: one or more entries separated by ";", each an optional Damage Type and
a colon, then one or more effects in order, joined by a comma or "then": ``halve``, ``-1``,
``halve, then -1``, ``Slashing: halve; Shattering: -1; none``. An entry with no type is the
armour's effect on every type no entry names (none when it has no such entry). Reading: the
effects apply in the order written (the example's brigantine "halves the weapon damage (Damage
numbers round down)"), and damage never goes below 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.passages.errors import BadValue

NONE, INCREASE, DECREASE, HALVE, DOUBLE = "none", "increase", "decrease", "halve", "double"
_STEP = re.compile(r"^(?:(none)|(halve|half)|(double)|([+-])\s*(\d{1,2})|(increase|decrease)\s+(?:by\s+)?(\d{1,2}))$",
                   re.IGNORECASE)
_TYPE = re.compile(r"^[A-Za-z][A-Za-z -]{0,19}$")
_THEN = re.compile(r",|\bthen\b", re.IGNORECASE)
MAX_ENTRIES = 8
FORMAT = "Armour is none, halve, double, +N or -N (several in order: 'halve, then -1'), per Damage Type " \
         "as 'Slashing: halve; Shattering: -1'"


@dataclass(frozen=True)
class Step:
    kind: str = NONE
    amount: int = 0

    @property
    def label(self) -> str:
        return {INCREASE: f"+{self.amount}", DECREASE: f"-{self.amount}"}.get(self.kind, self.kind)

    def apply(self, damage: int) -> int:
        if self.kind == INCREASE:
            return damage + self.amount
        if self.kind == DECREASE:
            return max(0, damage - self.amount)
        if self.kind == HALVE:
            return damage // 2
        if self.kind == DOUBLE:
            return damage * 2
        return damage


def damage_type(text: object) -> str:
    """A Damage Type as the rules compare it: its words, each capitalised ("Slashing")."""
    return " ".join(w.capitalize() for w in str(text or "").split())


@dataclass(frozen=True)
class Armour:
    """Its effect on every type no entry names (``default``), and on each named type."""

    default: tuple[Step, ...] = ()
    by_type: tuple[tuple[str, tuple[Step, ...]], ...] = ()

    def steps(self, dtype: object = "") -> tuple[Step, ...]:
        wanted = damage_type(dtype)
        return next((steps for name, steps in self.by_type if name == wanted), self.default)

    def apply(self, damage: int, dtype: object = "") -> int:
        for step in self.steps(dtype):
            damage = step.apply(damage)
        return max(0, damage)

    def effect(self, dtype: object = "") -> str:
        """What it does to this type, as the log says it ("halve, then -1"; "none")."""
        return _said(self.steps(dtype))

    @property
    def label(self) -> str:
        """The armour as the sheet keeps it (its entries in the order written)."""
        entries = [f"{name}: {_said(steps)}" for name, steps in self.by_type]
        if self.default or not entries:
            entries.append(_said(self.default))
        return "; ".join(entries)


def _said(steps: tuple[Step, ...]) -> str:
    return ", then ".join(s.label for s in steps) or NONE


def _steps(text: str) -> tuple[Step, ...]:
    steps = []
    parts = [p.strip() for p in _THEN.split(text) if p.strip()]
    for part in parts or [""]:
        match = _STEP.match(part)
        if match is None:
            raise BadValue(f"{FORMAT}, not {text.strip()[:30]!r}.")
        _, halve, double, sign, n, word, m = match.groups()
        if halve:
            steps.append(Step(HALVE))
        elif double:
            steps.append(Step(DOUBLE))
        elif sign:
            steps.append(Step(INCREASE if sign == "+" else DECREASE, int(n)))
        elif word:
            steps.append(Step(INCREASE if word.lower() == "increase" else DECREASE, int(m)))
    return tuple(s for s in steps if s.kind != NONE)


def parse_armour(text: object) -> Armour:
    """Armour's effect as a sheet writes it (the module's format), or ``BadValue``."""
    entries = [e.strip() for e in str(text or "").split(";") if e.strip()] or ["none"]
    if len(entries) > MAX_ENTRIES:
        raise BadValue(f"Armour has at most {MAX_ENTRIES} entries.")
    default: tuple[Step, ...] = ()
    by_type: dict[str, tuple[Step, ...]] = {}
    for entry in entries:
        name, colon, effect = entry.rpartition(":")
        if not colon:
            default = _steps(entry)
            continue
        if not _TYPE.match(name.strip()):
            raise BadValue(f"{FORMAT}, not {entry[:30]!r}.")
        by_type[damage_type(name)] = _steps(effect)
    return Armour(default=default, by_type=tuple(by_type.items()))
