"""The pull, seed 002 ("Basic Rules"): one card valued 1-10 plus a pool of Attribute + Skill.

Everything here is arithmetic on card values: no state, no deck. ``resolve`` judges a pull
from the values already drawn, so the state machine, the odds and the tests share one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIRST_SUCCESS = 8  # "you get your first success at a total of eight"
STEP = 3  # "every three points above eight is another success"
EXCEPTIONAL = 5  # "a total of 5 or more successes (20+ on your test)"
AGAIN_VALUES = (10, 9, 8)  # "A pull of 10 (or, with certain powers and/or equipment, even 8 or 9)"
LOWEST_CARD, HIGHEST_CARD = 1, 10


def successes(total: int) -> int:
    """Seed: "you get your first success at a total of eight ..., and every three points above
    eight is another success": 8 is 1, 11 is 2, 14 is 3, 17 is 4, 20 is 5, and on."""
    if total < FIRST_SUCCESS:
        return 0
    return 1 + (total - FIRST_SUCCESS) // STEP


def total_for(wanted: int) -> int:
    """The lowest total that gives ``wanted`` successes (8, 11, 14, ...); 0 successes need none."""
    if wanted <= 0:
        return -(10**9)
    return FIRST_SUCCESS + STEP * (wanted - 1)


def check_again(again: int) -> int:
    if again not in AGAIN_VALUES:
        raise ValueError(f"'again' is 10, 9 or 8, not {again!r}.")
    return again


def pulls_second(first: int, again: int = 10) -> bool:
    """Seed: a pull of 10 ("or ... even 8 or 9") "allows you pull a second card". Only the first
    card does: "Pulling a second 10 in a row doesn't let you keep adding"."""
    return first >= check_again(again)


def is_automatic(pool: int, needed: int = 1) -> bool:
    """Seed: "If something only takes a single success to achieve, and your pool is 7 or above,
    then you will accomplish the task automatically, without needing to pull a card ... This
    continues on if you need two successes and your pool is 10". The lowest card is 1, so the
    pool alone reaches what is needed when pool + 1 gives the successes needed."""
    return needed >= 1 and successes(pool + LOWEST_CARD) >= needed


def guaranteed(pool: int) -> int:
    """The successes the worst pull (an Ace) would give: what an automatic success is worth
    when the player takes it without pulling (our reading; see ``resolve``)."""
    return successes(pool + LOWEST_CARD)


def is_dramatic(pool: int, first: int) -> bool:
    """Seed: "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!"."""
    return pool <= 0 and first == LOWEST_CARD


@dataclass(frozen=True)
class Result:
    """One pull judged: ``values`` are the cards' values (none when the player took an
    automatic success without pulling)."""

    pool: int
    values: tuple[int, ...]
    again: int
    needed: int
    total: int
    successes: int
    dramatic: bool
    exceptional: bool
    automatic: bool  # the pool alone reached what was needed
    succeeded: bool

    @property
    def pulled(self) -> bool:
        return bool(self.values)

    @property
    def again_used(self) -> bool:
        return len(self.values) == 2

    def rules(self) -> list[str]:
        """The rules that decided, as the panel and the log name them."""
        named = []
        if self.automatic:
            named.append("automatic success")
        if self.again_used:
            named.append(f"{again_word(self.again)}-again")
        if self.dramatic:
            named.append("dramatic failure")
        if self.exceptional:
            named.append("exceptional success")
        return named

    def to_dict(self) -> dict[str, object]:
        return {
            "pool": self.pool, "values": list(self.values), "again": self.again,
            "needed": self.needed, "total": self.total, "successes": self.successes,
            "dramatic": self.dramatic, "exceptional": self.exceptional,
            "automatic": self.automatic, "succeeded": self.succeeded, "rules": self.rules(),
        }


def again_word(again: int) -> str:
    return {10: "ten", 9: "nine", 8: "eight"}[again]


def resolve(pool: int, values: Sequence[int], *, again: int = 10, needed: int = 1) -> Result:
    """Judge a pull of ``values`` (one card, or two when the first was ``again`` or more).

    With no values the player took an automatic success without pulling; it is worth what
    the worst card would have given (``guaranteed``): the Storyteller grants no more than the
    pool is sure of. ``needed`` is the successes the task takes (1 for most, seed: "most tasks
    only requiring a single success to accomplish, but some requiring more").
    """
    check_again(again)
    if needed < 1:
        raise ValueError("A task needs at least one success.")
    values = tuple(values)
    automatic = is_automatic(pool, needed)
    if not values:
        if not automatic:
            raise ValueError("Without a pull the pool must reach what is needed on its own.")
        got = guaranteed(pool)
        return Result(pool, (), again, needed, pool, got, False, got >= EXCEPTIONAL, True, True)
    if any(not LOWEST_CARD <= v <= HIGHEST_CARD for v in values):
        raise ValueError("A Harsh Light card is valued 1 to 10.")
    wants_second = pulls_second(values[0], again)
    if len(values) != (2 if wants_second else 1):
        raise ValueError("A pull is one card, and a second only when the first is the 'again' value or more.")
    total = pool + sum(values)
    got = successes(total)
    dramatic = is_dramatic(pool, values[0])
    return Result(pool, values, again, needed, total, got, dramatic, got >= EXCEPTIONAL, automatic,
                  got >= needed and not dramatic)
