"""Exact odds before drawing, for the player deciding how to act.

``all_or_nothing(modifier, complexity, cards=1)``: the chance of each band of an
all-or-nothing skill check drawn from a fresh 56-card Minor Arcana, without replacement,
the King / three-face-cards extra card included (seed 000, "All or Nothing Actions").
Counted exactly over every ordered draw (integers, then one division), so the four chances
are exact up to the final float conversion; ``all_or_nothing_exact`` keeps ``Fraction``s.

``attack_through(card, skill, defence, ...)``: given the attack card chosen from the hand,
the chance the attack's value beats the Defence, so that damage gets through (seed, "If
this is positive, then apply the following guidelines for damage dealt").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from games.shadows import deck
from games.shadows.combat import defence_card_value
from games.shadows.resolution import (
    COMPLEXITIES, CRITICAL_SUCCESS, FAILURE, FUMBLE, SUCCESS, band, complexity as complexity_of,
    earns_extra_card, is_fumble,
)

# A fresh Minor Arcana: Ace (1) to King (14), four of each.
_FRESH = {v: 4 for v in range(1, 15)}


@dataclass(frozen=True)
class AllOrNothingOdds:
    """Mutually exclusive chances, summing to 1."""

    fumble: float
    failure: float
    success: float
    critical_success: float


@dataclass(frozen=True)
class ExactOdds:
    fumble: Fraction
    failure: Fraction
    success: Fraction
    critical_success: Fraction

    def as_floats(self) -> AllOrNothingOdds:
        return AllOrNothingOdds(float(self.fumble), float(self.failure), float(self.success),
                                float(self.critical_success))


def all_or_nothing(modifier: int, complexity: str, *, cards: int = 1,
                   left: tuple[int, ...] | None = None) -> AllOrNothingOdds:
    """Chances of Fumble, Failure, Success and Critical Success for a skill check whose
    skill + attribute (+ assistance, + anything else) is ``modifier``; ``complexity`` is one
    of mundane simple normal difficult hard very_hard extremely_hard absurd; ``cards`` is
    1 (a single card) or 3 (the middle of three). ``left``: how many cards of each value (Ace
    to King) the draw may come from (``composition``), a fresh deck when None."""
    return all_or_nothing_exact(modifier, complexity, cards=cards, left=left).as_floats()


def composition(tokens: Iterable[str]) -> tuple[int, ...] | None:
    """How many Minor Arcana cards of each value, Ace to King, ``tokens`` hold; None (a fresh
    deck: the rules reshuffle the discard in) when too few are left for a draw and its extra card."""
    counts = Counter(deck.value(t) for t in tokens if deck.is_minor(t))
    found = tuple(counts.get(v, 0) for v in range(1, 15))
    return found if sum(found) >= 4 else None


@lru_cache(maxsize=512)
def all_or_nothing_exact(modifier: int, complexity: str, *, cards: int = 1,
                         left: tuple[int, ...] | None = None) -> ExactOdds:
    if complexity not in COMPLEXITIES:
        raise ValueError(f"complexity is one of {', '.join(COMPLEXITIES)}")
    if cards not in (1, 3):
        raise ValueError("cards is 1 or 3")
    level = complexity_of(complexity)
    tally = {FUMBLE: 0, FAILURE: 0, SUCCESS: 0, CRITICAL_SUCCESS: 0}
    left = dict(_FRESH) if left is None else {v: n for v, n in zip(range(1, 15), left)}
    # Every ordered draw of ``cards`` values, weighted by how many ordered card sequences
    # give it; the extra card (when earned) is one more draw from what is left. Weights are
    # scaled to the common denominator 56 * 55 * ... over ``cards`` + 1 draws.
    hands = _ordered(left, cards)
    remaining = sum(left.values()) - cards
    for values, ways in hands:
        drawn = values[0] if cards == 1 else deck.middle(values)
        if is_fumble(drawn, level):
            tally[FUMBLE] += ways * remaining
        elif earns_extra_card(values):
            after = Counter(left)
            after.subtract(values)
            for extra, n in after.items():
                if n > 0:
                    tally[band(drawn + extra + modifier, level)] += ways * n
        else:
            tally[band(drawn + modifier, level)] += ways * remaining
    whole = sum(tally.values())
    return ExactOdds(*(Fraction(tally[k], whole) for k in (FUMBLE, FAILURE, SUCCESS, CRITICAL_SUCCESS)))


def _ordered(left: dict[int, int], n: int) -> list[tuple[tuple[int, ...], int]]:
    """Every ordered sequence of ``n`` values drawn without replacement, with the number of
    ordered card sequences that give it."""
    if n == 0:
        return [((), 1)]
    out = []
    for v, count in left.items():
        if count <= 0:
            continue
        rest = {**left, v: count - 1}
        for tail, ways in _ordered(rest, n - 1):
            out.append(((v, *tail), count * ways))
    return out


@dataclass(frozen=True)
class AttackOdds:
    """``hit``: the chance the attack value beats the Defence (damage gets through)."""

    hit: float
    attack: int
    defence: int
    defence_cards: int


def attack_through(
    cards: Sequence[str] | str,
    skill: int,
    defence: int,
    *,
    modifier: int = 0,
    defender_hand: int = 0,
    defence_cards: int = 0,
    unseen: Iterable[str] | None = None,
) -> AttackOdds:
    """The chance an attack with ``cards`` (the card chosen from the hand, or every card of
    the action) gets through a Defence of ``defence`` before any dodge or parry card.

    Seed: damage is "an attack card played from the attacker's hand ... minus their
    opponents Defense value plus the attacker's attack skill value. If this is positive"
    damage is dealt. The defender may add up to ``defence_cards`` cards from a hand of
    ``defender_hand`` cards (Pentacles doubled); as the attacker cannot see that hand, the
    odds take it as ``defender_hand`` cards dealt at random from ``unseen`` (by default the
    Minor Arcana less the attack cards) and assume the defender plays their best
    ``defence_cards`` of them, which is the worst case for the attacker."""
    chosen = [cards] if isinstance(cards, str) else list(cards)
    attack = sum(deck.value(t) for t in chosen) + skill + modifier
    k = min(defence_cards, defender_hand)
    if k <= 0:
        return AttackOdds(float(attack > defence), attack, defence, 0)
    pool = list(unseen) if unseen is not None else [t for t in deck.minor_tokens()
                                                     if t not in {deck.bare(c) for c in chosen}]
    if defender_hand > len(pool):
        raise ValueError("the defender's hand is larger than the cards unseen")
    best = best_defence_distribution(pool, defender_hand, k)
    total = comb(len(pool), defender_hand)
    through = sum(ways for extra, ways in best.items() if attack - (defence + extra) > 0)
    return AttackOdds(float(Fraction(through, total)), attack, defence, k)


def best_defence_distribution(pool: Sequence[str], hand: int, k: int) -> dict[int, int]:
    """For a hand of ``hand`` cards dealt from ``pool``: how many hands give each sum of the
    ``k`` best defence values (Pentacles doubled). Counts over unordered hands."""
    counts = Counter(defence_card_value(t) for t in pool)
    return dict(_best_defence(tuple(sorted(counts.items())), hand, k))


@lru_cache(maxsize=256)
def _best_defence(pool: tuple[tuple[int, int], ...], hand: int, k: int) -> tuple[tuple[int, int], ...]:
    """How many hands of ``hand`` cards, dealt from a pool holding ``count`` cards of each
    defence ``value`` (``pool``: (value, count) pairs), give each sum of their ``k`` best."""
    by_value = dict(pool)
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}  # (cards in hand, best taken, sum)
    for v in sorted(by_value, reverse=True):
        c = by_value[v]
        nxt: dict[tuple[int, int, int], int] = {}
        for (n, t, s), ways in states.items():
            for j in range(0, min(c, hand - n) + 1):
                take = min(j, k - t)
                key = (n + j, t + take, s + v * take)
                nxt[key] = nxt.get(key, 0) + ways * comb(c, j)
        states = nxt
    out: dict[int, int] = {}
    for (n, _t, s), ways in states.items():
        if n == hand:
            out[s] = out.get(s, 0) + ways
    return tuple(sorted(out.items()))


def through_by_value(bonus: int, defence: int, *, defender_hand: int = 0, defence_cards: int = 0,
                     unseen: Iterable[str] | None = None) -> dict[int, float]:
    """For an attack card of each value (Ace 1 .. King 14), played alone: the chance that the
    attack (card + ``bonus``: skill, off focus, the GM's modifier) beats a Defence of
    ``defence`` and the best ``defence_cards`` dodge or parry cards of a hand of
    ``defender_hand`` dealt from ``unseen`` (Pentacles doubled), so that damage gets through.
    The same reading as ``attack_through``: the defender plays their best cards."""
    k = min(defence_cards, defender_hand)
    if k <= 0:
        return {v: float(v + bonus > defence) for v in range(1, 15)}
    pool_cards = list(unseen) if unseen is not None else deck.minor_tokens()
    if defender_hand > len(pool_cards):
        raise ValueError("the defender's hand is larger than the cards unseen")
    dist = best_defence_distribution(pool_cards, defender_hand, k)
    total = comb(len(pool_cards), defender_hand)
    return {v: float(Fraction(sum(w for extra, w in dist.items() if v + bonus - (defence + extra) > 0), total))
            for v in range(1, 15)}


@dataclass(frozen=True)
class OpposedOdds:
    """The chance each side of an opposed action wins (summing to 1)."""

    first: float
    second: float


def opposed(first: int, second: int) -> OpposedOdds:
    """The chance each side of an opposed action wins, given each side's skill + attribute
    (+ help, + the GM's): ``opposed_exact`` as floats."""
    won = opposed_exact(first - second)
    return OpposedOdds(float(won), float(1 - won))


@lru_cache(maxsize=256)
def opposed_exact(lead: int) -> Fraction:
    """The exact chance the first side wins when its skill + attribute is ``lead`` more than
    the second's. Seed: "each drawing a single card from the Minor Arcana deck and adding
    their appropriate skill and attribute ... with the higher result being successful. If
    this results in a tie, then both sides draw an additional card, continuing to do so
    until one side succeeds."

    Counted over every draw of a fresh deck, the first side drawing first, a King drawing
    another card that is added (the same basic mechanic, games/shadows/contests.py). After a
    tie the totals are level and both draw alike from the same deck, so either wins the
    rest with the same chance, one half: swapping the two sides' cards maps each draw onto
    one the other side wins, equally likely. So the chance is P(win) + P(tie) / 2, exactly.
    (The table stops after 20 ties in a row, which no table will see.) Counters declared
    against a side are not counted: they depend on cards yet to be drawn by others."""
    won = tie = Fraction(0)
    for worth_a, p_a, left in _draws(dict(_FRESH), 56):
        for worth_b, p_b, _ in _draws(left, sum(left.values())):
            p = p_a * p_b
            if lead + worth_a > worth_b:
                won += p
            elif lead + worth_a == worth_b:
                tie += p
    return won + tie / 2


def _draws(left: dict[int, int], size: int) -> list[tuple[int, Fraction, dict[int, int]]]:
    """Each way one side's draw can go from a deck of ``size`` cards holding ``left`` (value:
    count): what it is worth, its chance, and the deck after it. A King draws another card
    and adds it ("if a single card was used and it is a King")."""
    out = []
    for v, n in left.items():
        if n <= 0:
            continue
        after = {**left, v: n - 1}
        p = Fraction(n, size)
        if v != deck.KING:
            out.append((v, p, after))
            continue
        for extra, m in after.items():
            if m > 0:
                out.append((v + extra, p * Fraction(m, size - 1), {**after, extra: m - 1}))
    return out
