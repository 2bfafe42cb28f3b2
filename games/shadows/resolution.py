"""Actions outside combat: all or nothing, opposed, counter and assistance (seed 000).

The functions here judge cards already drawn (plain values), so the engine, the odds and
the tests share one reading of the rules; ``draw_all_or_nothing`` is the only one that takes
cards, through the cards port.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.cards_port import Cards
from games.core.engine import RuleError
from games.shadows import deck

FUMBLE = "fumble"
FAILURE = "failure"
SUCCESS = "success"
CRITICAL_SUCCESS = "critical_success"
BANDS = (FUMBLE, FAILURE, SUCCESS, CRITICAL_SUCCESS)
BAND_LABELS = {FUMBLE: "Fumble", FAILURE: "Failure", SUCCESS: "Success",
               CRITICAL_SUCCESS: "Critical Success"}


@dataclass(frozen=True)
class Complexity:
    """One row of the seed's table: "Complexity or Risk | Critical Failure | Failure |
    Success | Critical Success"; ``fumble_top`` is the highest draw value that fumbles."""

    key: str
    label: str
    fumble_top: int
    success: int
    critical: int


# Seed 000, the table under "Success depends on the difficulty of the action":
#   Mundane        draw value of 1    <15  15+  30+
#   Simple         draw value of 1    <20  20+  35+
#   Normal         draw value of 1    <25  25+  40+
#   Difficult      draw value of 1-2  <30  30+  45+
#   Hard           draw value of 1-2  <35  35+  50+
#   Very Hard      draw value of 1-3  <40  40+  60+
#   Extremely Hard draw value of 1-3  <45  45+  65+
#   Absurd         draw value of 1-4  <50  50+  70+
COMPLEXITIES: dict[str, Complexity] = {
    c.key: c
    for c in (
        Complexity("mundane", "Mundane", 1, 15, 30),
        Complexity("simple", "Simple", 1, 20, 35),
        Complexity("normal", "Normal", 1, 25, 40),
        Complexity("difficult", "Difficult", 2, 30, 45),
        Complexity("hard", "Hard", 2, 35, 50),
        Complexity("very_hard", "Very Hard", 3, 40, 60),
        Complexity("extremely_hard", "Extremely Hard", 3, 45, 65),
        Complexity("absurd", "Absurd", 4, 50, 70),
    )
}


def complexity(key: str) -> Complexity:
    try:
        return COMPLEXITIES[key]
    except KeyError:
        raise RuleError(f"No complexity called {key!r}: choose one of "
                        + ", ".join(c.label for c in COMPLEXITIES.values()) + ".") from None


def drawn_value(values: Sequence[int]) -> int:
    """Seed: "If three cards are drawn, then the middle value of the three cards is used,
    otherwise the value of the single card drawn is used"."""
    if len(values) == 1:
        return values[0]
    if len(values) == 3:
        return deck.middle(values)
    raise RuleError("Draw one card or three.")


def earns_extra_card(values: Sequence[int]) -> bool:
    """Seed: "If a single card was used and it is a King, then an additional card is drawn
    and its value added. Likewise, if three cards were drawn and all three cards are face
    cards (they can be any face cards), then an additional card is drawn"."""
    if len(values) == 1:
        return values[0] == deck.KING
    return len(values) == 3 and all(v >= deck.PAGE for v in values)


def earns_major_arcana(values: Sequence[int]) -> bool:
    """Seed: "If the card drawn on a single card draw or the middle value card for a three
    card draw is a Queen, then the character can also draw a card from the Major Arcana"."""
    return drawn_value(values) == deck.QUEEN


def is_fumble(value: int, level: Complexity) -> bool:
    """Seed: "if a one or ace value card is drawn on either a single card-draw or as the
    middle value card ... this indicates a possible fumble ... if the complexity and/or risk
    of the action is difficult or worse, then a fumble may occur on a card draw of higher
    than a 1 (see table below)"."""
    return value <= level.fumble_top


def band(total: int, level: Complexity) -> str:
    """Failure below the Success column, Success from it, Critical Success from its own."""
    if total >= level.critical:
        return CRITICAL_SUCCESS
    if total >= level.success:
        return SUCCESS
    return FAILURE


@dataclass(frozen=True)
class Judged:
    """An all-or-nothing draw judged: the value drawn (single or middle), the extra card's
    value (King / three faces), the total and its band."""

    drawn: int
    extra: int | None
    total: int
    band: str
    queen: bool

    @property
    def fumble(self) -> bool:
        return self.band == FUMBLE


def judge(values: Sequence[int], extra: int | None, modifier: int, level: Complexity) -> Judged:
    """The outcome of an all-or-nothing skill check from the drawn card values.

    A fumble "automatically fails" the skill check, whatever the total (seed). A fumble
    value is never a King nor a face card, so a fumble never earns the extra card.
    ``modifier`` is skill + attribute + assistance + anything else the GM adds."""
    drawn = drawn_value(values)
    queen = drawn == deck.QUEEN
    if is_fumble(drawn, level):
        return Judged(drawn, None, drawn + modifier, FUMBLE, queen)
    if earns_extra_card(values) != (extra is not None):
        raise ValueError("the extra card goes with a single King or three face cards, only")
    total = drawn + (extra or 0) + modifier
    return Judged(drawn, extra, total, band(total, level), queen)


def assistance(helper_skills: Sequence[int]) -> int:
    """Seed: "one-half the second characters' skill being added to the value of the attempt
    by the primary character and one-quarter of the third characters' skill value".

    Reading: halves and quarters round down, as whole-number totals at a table would; at
    most two helpers (the second and third characters)."""
    if len(helper_skills) > 2:
        raise RuleError("At most two others can help: a second and a third character.")
    shares = (2, 4)
    return sum(max(0, skill) // share for skill, share in zip(helper_skills, shares))


@dataclass(frozen=True)
class Drawn:
    """The cards of one all-or-nothing draw, as tokens: the one or three, and the extra."""

    cards: tuple[str, ...]
    extra: str | None

    @property
    def values(self) -> list[int]:
        return [deck.value(t) for t in self.cards]

    @property
    def extra_value(self) -> int | None:
        return deck.value(self.extra) if self.extra else None


def draw_all_or_nothing(cards: Cards, count: int, *, chosen: Sequence[str] = (), source: str = deck.MINOR) -> Drawn:
    """Draws one card or three from the Minor Arcana (``source``: a fight's second deck may serve,
    decks.py) face up (onto its discard pile, where everyone sees them and the deck takes them
    back when it runs out), and the extra card when the draw earns it. ``chosen`` are cards
    already played from a hand instead (a check during a combat round), in which case only the
    extra card comes from the deck."""
    if count not in (1, 3):
        raise RuleError("Draw one card or three: it is decided before drawing.")
    if chosen:
        if len(chosen) != count:
            raise RuleError(f"Play {count} card{'s' if count > 1 else ''} from the hand.")
        tokens = tuple(chosen)
    else:
        tokens = tuple(c.token for c in cards.draw(source, count, to="discard"))
    extra = None
    if earns_extra_card([deck.value(t) for t in tokens]):
        [more] = cards.draw(source, 1, to="discard")
        extra = more.token
    return Drawn(tokens, extra)


def opposed_winner(total_a: int, total_b: int) -> int | None:
    """0 or 1 for the side with the higher total; None on a tie (both draw again)."""
    if total_a == total_b:
        return None
    return 0 if total_a > total_b else 1


def counter_effect(counter_token: str, target_value: int, accepted_suits: Sequence[str]) -> int:
    """What a counter takes off the target's total (seed, Counter Actions): "If their draw is
    of the appropriate suit and the result is higher than the draw of their opponent, then
    the value of the card drawn as the counter action minus the value of the card draw for
    the action being performed by the target ... is subtracted from the ... target's total".

    ``target_value`` is the target's card draw (single or middle); the GM names the suits
    that are appropriate (their "decision ... being final")."""
    c = deck.card(counter_token)
    if c.suit not in accepted_suits or c.value <= target_value:
        return 0
    return c.value - target_value
