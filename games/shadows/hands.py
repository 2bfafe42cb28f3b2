"""A round's hands: the next round, a focus, the deal (from one Minor Arcana or two: decks.py)
and a redeal; and the cards a hand plays (``require_in_hand``, ``play_from_hand``).

Each handler is ``handle(state, args, turn)`` (games/core/engine.py): who may send it the core
has checked; none changes the state it is given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.cards_port import Cards, Destination, UnknownDeck
from games.core.engine import Args, Event, RuleError, Turn
from games.shadows import access, deck, decks
from games.shadows import combat as cb
from games.shadows import state as st
from games.shadows.errors import NotInHand, WrongStep
from games.shadows.profile import npc_flag

# Seed: "discard and be re-dealt up to three cards".
MAX_REDEAL = 3


def require_in_hand(person: Mapping[str, Any], tokens: Sequence[str]) -> None:
    missing = [t for t in tokens if t not in person["hand"]]
    if missing:
        raise NotInHand(f"{deck.names(missing)} {'is' if len(missing) == 1 else 'are'} not in "
                        f"{person['name']}'s hand.")


def play_from_hand(cards: Cards, person: Mapping[str, Any], tokens: Sequence[str], *,
                   to: Destination = "play") -> None:
    """Each card leaves the real hand at the table (its holder's hand pile) face up: laid in
    the play area, or on the discard pile. The table's piles are the hands' truth: a card
    the engine still counts in a hand but the table no longer has there (played, discarded
    or passed with the table's own card tools) is refused, and the platform undoes whatever
    this action had already moved."""
    holder = person.get("holder")
    if not isinstance(holder, int):
        raise NotInHand(f"{person['name']} holds no cards at the table.")
    source = decks.of_hand(person)  # the deck the hand was dealt from
    for token in tokens:
        try:
            cards.play(source, deck.bare(token), holder=holder, to=to)
        except UnknownDeck:
            raise
        except LookupError:
            raise NotInHand(f"{deck.name(token)} is no longer in {person['name']}'s hand at the table "
                            "(it was played, discarded or passed with the card tools).") from None


def new_round(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Each round the GM gathers the Minor Arcana, shuffles, and deals again (seed: "combat
    is handled by the GM shuffling the Minor Arcana and dealing out a number of cards")."""
    fight = st.combat(state)
    if fight["pending"]:
        raise WrongStep("An attack is waiting for its defence; resolve it first.")
    # every hand, the play area and the discard back into the deck (each deck of the fight),
    # shuffled: the table's hands are empty as the engine's are from now on
    for name in decks.of_fight(state):
        turn.cards.gather(name)
    return [{"type": "round_started", "round": fight["round"] + 1, "gathered": True}]


def declare_focus(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: the hands are dealt "based on that player's appropriate combat Attributes for their
    stated focus"; ``focus`` is one of ``combat.FOCI`` (the parser's)."""
    person = st.fighter(state, args["combatant"])
    st.require_standing(person)
    if person["dealt"]:
        raise WrongStep(f"{person['name']}'s cards are dealt: the focus holds for the round.")
    focus = args["focus"]
    return [{"type": "focus_declared", "combatant": person["id"], "focus": focus,
             "size": cb.hand_size(person["attributes"], focus),
             # what the size is counted from, for the line's working: an NPC's, like its size, the GM's
             "hand_from": {a: int(person["attributes"].get(a, 0)) for a in cb.FOCUS_FORMULA[focus]},
             **npc_flag(person)}]


def _room(state: Mapping[str, Any], names: list[str], cards: Cards, *, first: bool) -> dict[str, int]:
    """What each deck could deal: a whole deck at a round's first deal (it is gathered first) or
    for a deck the fight takes up now; else what is left to draw (the discard refills the pile)."""
    used = decks.of_fight(state)
    return {n: decks.DECK_SIZE if first or n not in used else len(cards.left(n)) for n in names}


def _too_big(wanted: int, extra: str = deck.MINOR_2) -> str:
    what = extra.split(" ")[0].lower()
    return (f"These hands take {wanted} cards and would leave fewer than {decks.MIN_LEFT} of the Minor Arcana "
            f"to draw for damage and criticals: bring out a {what} Minor Arcana for this fight (the button "
            "beside the deal), then deal.")


def deal(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM deals each combatant "a number of cards ... based on that player's appropriate
    combat Attributes for their stated focus", face down into its player's hand (the GM's,
    for an NPC). At a round's first deal the whole Minor Arcana comes back into the deck
    (``cards.gather``: from every hand and pile, shuffled under a new seal). Hands that would
    leave fewer than ten cards to draw take a second Minor Arcana, when the table has one; the
    deal waits for it otherwise (decks.py)."""
    cards = turn.cards
    fight = st.combat(state)
    # whoever is down or dead is dealt nothing: it sits the round out (state.standing)
    waiting = [fight["combatants"][cid] for cid in fight["order"]
               if st.standing(fight["combatants"][cid]) and not fight["combatants"][cid]["dealt"]]
    if not waiting:
        raise WrongStep("Every hand is dealt for this round.")
    undecided = [p["name"] for p in waiting if p["focus"] is None]
    if undecided:
        raise WrongStep("Waiting for a focus from " + ", ".join(undecided) + ".")
    holders = [access.holder(turn, person["id"]) for person in waiting]
    first = not any(p["dealt"] for p in fight["combatants"].values())
    sizes = [(p["id"], cb.hand_size(p["attributes"], p["focus"])) for p in waiting]
    names = decks.of_fight(state)
    plan = decks.spread(sizes, _room(state, names, cards, first=first))
    # too big for the decks the fight has: the next Minor Arcana, one at a time, as the table has them
    for extra in (name for name in deck.EXTRA_MINORS if name not in names):
        if plan is not None:
            break
        if not decks.at_table(cards, extra):
            raise RuleError(_too_big(sum(size for _, size in sizes), extra))
        names = [*names, extra]
        plan = decks.spread(sizes, _room(state, names, cards, first=first))
    if plan is None:
        raise RuleError(f"Even two Minor Arcana cannot deal hands of {sum(size for _, size in sizes)} cards "
                        f"and keep {decks.MIN_LEFT} to draw: fewer fighters, or smaller hands, this round.")
    gathered = False
    for name in names:
        # the round's first deal (or a deck the fight takes up now): the GM shuffles the whole deck
        # first, so any card still out (a check's, the last round's) comes back from its hand or pile
        if (first or name not in decks.of_fight(state)) and len(cards.left(name, with_discard=False)) < decks.DECK_SIZE:
            cards.gather(name)
            gathered = True
    events: list[Event] = []
    for person, holder in zip(waiting, holders):
        size = cb.hand_size(person["attributes"], person["focus"])
        source = plan[person["id"]]
        dealt = [c.token for c in cards.draw(source, size, to="hand", holder=holder)] if size else []
        events.append({"type": "hand_dealt", "combatant": person["id"], "name": person["name"], "focus": person["focus"],
                       "count": len(dealt), "holder": holder, "cards": dealt, "gathered": gathered, "deck": source,
                       **npc_flag(person)})  # an NPC's hand size is a figure of its sheet (audiences.py)
        gathered = False
    if names != decks.of_fight(state):
        events[0]["decks"] = names  # the fight takes up the second deck from now on
    return events


def redeal(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: "Each player has the option to have their character forego their first AP of
    action and instead discard and be re-dealt up to three cards". The new cards come from the
    deck the hand was dealt from."""
    person = st.fighter(state, args["combatant"])
    st.require_standing(person)
    if not person["dealt"]:
        raise WrongStep(f"{person['name']} has no hand yet.")
    if person["redealt"] or person["actions"] or person["ap"] != person["ap_max"]:
        raise WrongStep("Only the first AP of the round can be given up to be re-dealt.")
    tokens = list(args["cards"])
    if not 1 <= len(tokens) <= MAX_REDEAL:
        raise RuleError("Discard one to three cards to be re-dealt.")
    require_in_hand(person, tokens)
    st.require_ap(person, 1)
    holder = person["holder"]  # the hand stays with whoever it was dealt to
    drawn = _redrawn(turn.cards, person, tokens, holder)
    return [{"type": "redealt", "combatant": person["id"], "name": person["name"], "count": len(tokens),
             "discarded": tokens,
             "drawn": drawn, "holder": holder}]


def _redrawn(cards: Cards, person: Mapping[str, Any], tokens: Sequence[str], holder: int) -> list[str]:
    """A redeal's new cards, never the ones just given up. Reading: "discard and be re-dealt"
    deals from the cards other than those discarded, so the discarded cards lie face up in the
    play area, set aside, while the new ones come (a short draw pile refills from the older
    discard alone), and only then go onto the discard pile."""
    source = decks.of_hand(person)
    if len(cards.left(source)) < len(tokens):  # before any card moves: a refusal moves nothing
        raise RuleError(f"Fewer than {len(tokens)} cards of the {source} are left to deal besides those "
                        "discarded: discard fewer.")
    play_from_hand(cards, person, tokens)  # face up, set aside: not yet on the discard pile
    drawn = [c.token for c in cards.draw(source, len(tokens), to="hand", holder=holder)]
    cards.discard(source, [deck.bare(t) for t in tokens])
    return drawn
