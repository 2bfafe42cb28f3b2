"""Which Minor Arcana a rule takes its cards from: the one deck, or two for a fight too big for one.

Seeds README, decided reading for 000: "a rule that needs a card when the draw pile is empty
reshuffles the discard under a new seal (hands stay in hands); when hands would leave fewer
than ten cards to draw, the GM is offered a second Minor Arcana for that fight, and the odds
follow the real cards."

Readings:
- Cards played in a round go to the discard once the action they serve is done (an attack when
  it resolves, a dodge with it, a check's card at once), so an empty draw pile refills.
- A deal that would leave fewer than ``MIN_LEFT`` cards to draw waits for a second Minor Arcana
  (``deck.MINOR_2``, a rule deck the GM brings out with the panel's button); with it the fight
  uses both for every round until it ends. Each hand comes whole from one deck (the hands are
  spread so that the most cards are left in each), so no hand holds one card twice and a
  hand's cards are played and re-dealt from its own deck; a card the rules draw face up
  (damage, a critical, a fumble, a check) comes from the deck with the most cards left.
- The odds of a dodge count the cards that may lie in the defender's hand: its own deck's cards
  not face up this round (``state.unseen_by``), two decks holding two of each card.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from games.core.cards_port import Cards, UnknownDeck
from games.shadows import deck
from games.shadows.combat import hand_size
from games.shadows.state import standing

MIN_LEFT = 10
DECK_SIZE = 56


def of_fight(state: Mapping[str, Any]) -> list[str]:
    """The Minor Arcana decks the fight under way deals from (the one deck outside a fight)."""
    return list(((state.get("combat") or {}).get("decks")) or [deck.MINOR])


def of_hand(person: Mapping[str, Any]) -> str:
    """The deck a combatant's hand was dealt from."""
    return str(person.get("deck") or deck.MINOR)


def for_rules(state: Mapping[str, Any], cards: Cards) -> str:
    """The deck a rule's face-up card comes from: the fight's one deck, or of its two the one
    with the most cards left to draw (the first on a tie)."""
    decks = of_fight(state)
    if len(decks) == 1:
        return decks[0]
    return most_left(decks, lambda d: len(cards.left(d)))


def most_left(names: Sequence[str], left: Callable[[str], int]) -> str:
    """Of ``names``, the deck with the most cards a draw could give (``left``: its draw pile and
    its discard, which refills it), the first on a tie: the rules' deck (``for_rules``), and the
    one the odds of their draw are counted from (panel.py)."""
    return max(names, key=lambda d: (left(d), -list(names).index(d)))


def at_table(cards: Cards, name: str) -> bool:
    try:
        cards.left(name)
    except UnknownDeck:
        return False
    return True


def spread(sizes: Sequence[tuple[str, int]], room: Mapping[str, int]) -> dict[str, str] | None:
    """Each hand (combatant id, size) onto a deck of ``room`` (the cards each could deal), the
    biggest hands first, each onto the deck with the most room left (the first on a tie); None
    when a hand does not fit or fewer than ``MIN_LEFT`` cards would be left to draw."""
    left = dict(room)
    order = list(room)
    out: dict[str, str] = {}
    for cid, size in sorted(sizes, key=lambda item: -item[1]):
        if not size:
            out[cid] = order[0]
            continue
        best = max(order, key=lambda d: (left[d], -order.index(d)))
        if left[best] < size:
            return None
        out[cid] = best
        left[best] -= size
    return out if sum(left.values()) >= MIN_LEFT else None


def cards_wanted(fight: Mapping[str, Any]) -> int:
    """The cards the hands of the focused fighters take this round (dealt, or to deal: not to
    whoever has fallen since)."""
    return sum(hand_size(p["attributes"], p["focus"]) for p in fight["combatants"].values()
               if p["focus"] and (p["dealt"] or standing(p)))


def next_needed(fight: Mapping[str, Any], at_table: Collection[str] = ()) -> str | None:
    """The next Minor Arcana (``deck.EXTRA_MINORS``, in order) the hands declared need and the
    table has not brought out (``at_table``): those the fight deals from, and the others at the
    table, cannot hold them whole, one hand to a deck, and leave ``MIN_LEFT`` to draw (the panel
    offers it to the GM); None when they fit."""
    sizes = [(cid, hand_size(p["attributes"], p["focus"])) for cid, p in fight["combatants"].items()
             if p["focus"] and (p["dealt"] or standing(p))]
    used = list(dict.fromkeys([*(fight.get("decks") or [deck.MINOR]),
                               *(n for n in deck.EXTRA_MINORS if n in at_table)]))
    if spread(sizes, {name: DECK_SIZE for name in used}) is not None:
        return None
    return next((name for name in deck.EXTRA_MINORS if name not in used), None)
