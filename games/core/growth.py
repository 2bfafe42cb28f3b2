"""How characters grow, in the platform's words (the decided readings "advancement" for every
system, issue 36): what a purchase costs and what it is paid from.

A system with a ``Growth`` keeps what a character has to spend in one sheet field its rules keep
(``pool``: Shadows', Demon City's and Report Card's experience the GM awards, Harsh Light's
Experiences). A player buys by asking for the sheet they want (a request, tabletop/services/
requests.py); ``price(before, after, state)`` says what that change costs, line by line, at the
table's option costs (the clock's options, in ``state``), or raises ``SheetError`` naming what
cannot be bought that way. The GM's approval takes the cost from the pool with the change, in
one logged step. ``kinds`` are the system's own event types (without the ``<key>.`` prefix) that
are growth (experience awarded, a Beat, a rise approved): with the approvals, a character's
growth history. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Sheet = Mapping[str, Any]


@dataclass(frozen=True)
class Price:
    """What a change costs: ``cost`` in the pool's unit, and a line for each thing bought
    ("Agility 4 → 5: 5 XP"). A change that buys nothing costs 0 with no lines."""

    cost: int
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Growth:
    pool: str  # the sheet field a purchase is paid from (kept by the rules: SheetField rules "kept")
    unit: str  # what the pool counts, as the screen says it ("XP", "Experiences")
    price: Callable[[Sheet, Sheet, Mapping[str, Any]], Price]
    kinds: tuple[str, ...] = ()
