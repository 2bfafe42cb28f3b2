"""The Major Arcana outside combat: the card a Queen earns, a fumble's guide (drawn to the
GM's hand, shown if the GM chooses), the cards a character holds and spends, and the one card
each carries over when the session ends.

Every Major Arcana card goes back where the rules put it, so the deck never runs dry (the decided
reading: no rule may dead-end for lack of cards): a card spent, or dropped at a session's end,
goes back into the deck, shuffled under a new seal (``cards.shuffle_in``). A guide has done its
work when the GM shows it (it goes back at once; the panel keeps its name and meaning), when
the GM says so unshown (``return_guide``), when its character makes another check (the one it
belongs to is over) or at the session's end, the scene's: it goes back unseen. Should every
card still be held, a Queen earns none (the check says so) and a fumble's guide waits for one
to come back; the check itself is never refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Member
from games.core.cards_port import Cards
from games.core.engine import Args, Event, Turn
from games.shadows import access, deck
from games.shadows import state as st
from games.shadows.errors import NotInHand, WrongStep
from games.shadows.profile import name_of


def _any_left(cards: Cards) -> bool:
    """Whether a Major Arcana card is there to draw (the draw pile, or the discard that refills it)."""
    return bool(cards.left(deck.MAJOR))


def major_for(person: Mapping[str, Any], holder: int, cards: Cards, check_id: int) -> Event | None:
    """Seed: on a Queen "the character can also draw a card from the Major Arcana deck, which
    can be used from a story perspective". It goes to the hand of whoever plays the
    character (the GM for an NPC), and the sheet shows it. None when every card is held."""
    if not _any_left(cards):
        return None
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=holder)
    return {"type": "major_arcana_kept", "check": check_id, "combatant": person["id"],
            "name": person["name"], "card": arcanum.token, "holder": holder}


def guide_for(person: Mapping[str, Any], turn: Turn, cards: Cards, check_id: int, guide_id: int) -> Event:
    """Seed: on a fumble "the skill check automatically fails and the GM draws a Major Arcana
    card, which is then used as a guide as to what the failing results of the attempt are".
    It goes to the GM's hand (the GM's eyes only, until the GM shows it), on a player's move as
    on the GM's (``access.gm_hand``); it waits for the GM's "draw the guide" while every card is
    out."""
    gm = access.gm_hand(turn)
    if gm is None or not _any_left(cards):
        return {"type": "guide_pending", "id": guide_id, "check": check_id, "combatant": person["id"]}
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=gm)
    return {"type": "guide_drawn", "id": guide_id, "check": check_id, "combatant": person["id"],
            "card": arcanum.token, "holder": gm}


def draw_guide(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM draws a fumble's guide that waits (a player's fumble, or every card out then) into
    the GM's own hand: the sender's, since only the GM sends this move."""
    cards = turn.cards
    guide = _find_guide(state, args)
    if guide["card"] is not None:
        raise WrongStep("That guide is already drawn.")
    if not _any_left(cards):
        raise WrongStep("Every Major Arcana card is out (held, or guiding another fumble): put a guide back, "
                        "or draw this one when a card comes back.")
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=turn.member.id)
    return [{"type": "guide_drawn", "id": guide["id"], "check": guide["check"],
             "combatant": guide["combatant"], "card": arcanum.token, "holder": turn.member.id}]


def show_guide(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM "chooses whether to show it" (issue 16): shown, it is public with its meaning."""
    guide = _find_guide(state, args)
    if guide["card"] is None:
        raise WrongStep("Draw the guide first.")
    if guide["shown"]:
        raise WrongStep("That guide is already shown.")
    turn.cards.shuffle_in(deck.MAJOR, [deck.bare(guide["card"])])  # shown, its work is done
    return [{"type": "guide_shown", "id": guide["id"], "combatant": guide["combatant"],
             "card": guide["card"], "meaning": deck.meaning(guide["card"]), "returned": True}]


def return_guide(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM is done with a guide without showing it: back into the Major Arcana, unseen."""
    guide = _find_guide(state, args)
    if guide["card"] is None or guide["shown"]:
        raise WrongStep("That guide is not in the GM's hand.")
    return guides_back(turn.cards, [guide])


def guides_back(cards: Cards, guides: list[Mapping[str, Any]]) -> list[Event]:
    """Guides drawn and not shown, back into the Major Arcana unseen (the GM's hand is shown to
    nobody, and the shuffle hides where they went)."""
    out = [g for g in guides if g["card"] is not None and not g["shown"]]
    if out:
        cards.shuffle_in(deck.MAJOR, [deck.bare(g["card"]) for g in out])
    return [{"type": "guide_returned", "id": g["id"], "combatant": g["combatant"]} for g in out]


def _find_guide(state: Mapping[str, Any], args: Args) -> dict[str, Any]:
    """The guide ``args`` names (its id), or the last one when it names none."""
    wanted = args.get("guide")
    guides = state["guides"]
    if wanted in (None, "") and guides:
        return guides[-1]
    for guide in guides:
        if str(guide["id"]) == str(wanted):
            return guide
    raise WrongStep("No such fumble guide.")


def spend_arcana(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: "Characters can choose to use the meaning of a Major Arcana card at any time to
    influence the environment or story as Fate or Destiny intervening on their behalf ...
    based off of the standard or inverted (players choice) meaning ... pending GM's approval"."""
    cid = str(args["combatant"])
    name = name_of(state, turn, cid)
    token = str(args.get("card") or "")
    held = state["held"].get(cid, [])
    match = next((t for t in held if deck.bare(t) == deck.bare(token)), None)
    if match is None:
        raise NotInHand(f"{name} does not hold that Major Arcana card.")
    if any(deck.bare(s["card"]) == deck.bare(match) for s in (state.get("spending") or {}).values()):
        raise WrongStep(f"{name} has called on that card already: it waits for the GM.")
    flipped = bool(args.get("reversed"))
    # it stays in the hand until the GM approves (then back into the deck) or refuses it
    return [{"type": "arcana_spent", "id": st.new_id(state), "combatant": cid, "name": name, "card": match,
             "reversed": flipped, "meaning": deck.meaning(deck.bare(match), flipped), "pending": True}]


def judge_spend(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's word on a fate card called on: approved, its effect applies and the card, spent,
    goes back into the Major Arcana shuffled under a new seal; refused, it stays in the hand."""
    spend = (state.get("spending") or {}).get(str(args.get("spend") or ""))
    if spend is None:
        raise WrongStep("No fate card is waiting for the GM's approval.")
    approved = bool(args.get("approve"))
    if approved:
        turn.cards.shuffle_in(deck.MAJOR, [deck.bare(spend["card"])])
    return [{"type": "arcana_approved" if approved else "arcana_refused", "spend": spend["id"],
             "combatant": spend["combatant"], "name": spend["name"], "card": spend["card"],
             "reversed": spend["reversed"], "meaning": spend["meaning"]}]


def end_session(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session". ``keep`` maps a character to the one card it keeps (if any). The session's close
    (``Clock.closing``, campaign.py): the platform runs it when the GM closes a session."""
    cards = turn.cards
    keep = args.get("keep") or {}
    kept: dict[str, str] = {}
    for cid, token in keep.items():
        if not token:
            continue
        held = state["held"].get(str(cid), [])
        match = next((t for t in held if deck.bare(t) == deck.bare(str(token))), None)
        if match is None:
            raise NotInHand(f"{state['names'].get(str(cid), cid)} does not hold that card.")
        kept[str(cid)] = match
    # a fate card still waiting for the GM's word is dropped with the rest, unless kept
    dropped = {cid: [t for t in held if t != kept.get(cid)] for cid, held in state["held"].items()}
    back = [deck.bare(t) for cards_of in dropped.values() for t in cards_of]
    if back:
        cards.shuffle_in(deck.MAJOR, back)
    # the scene is over: every guide still in the GM's hand goes back too
    returned = guides_back(cards, state["guides"])
    return [*returned, {"type": "session_ended", "kept": kept, "dropped": {c: d for c, d in dropped.items() if d}}]
