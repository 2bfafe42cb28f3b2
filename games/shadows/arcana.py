"""The Major Arcana outside combat: the card a Queen earns, a fumble's guide (drawn to the
GM's hand, shown if the GM chooses), the cards a character holds and spends, and the one card
each carries over when the session ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import deck
from games.shadows.actor import Actor, Command, Event
from games.shadows.errors import NotInHand, RuleError, WrongStep


def _major_for(state: Mapping[str, Any], person: Mapping[str, Any], holder: int, cards: Cards,
               check_id: int) -> Event:
    """Seed: on a Queen "the character can also draw a card from the Major Arcana deck, which
    can be used from a story perspective". It goes to the hand of whoever plays the
    character (the GM for an NPC), and the sheet shows it."""
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=holder)
    return {"type": "major_arcana_kept", "check": check_id, "combatant": person["id"],
            "name": person["name"], "card": arcanum.token, "holder": holder}


def _guide(state: Mapping[str, Any], person: Mapping[str, Any], actor: Actor, cards: Cards,
           check_id: int, guide_id: int) -> Event:
    """Seed: on a fumble "the skill check automatically fails and the GM draws a Major Arcana
    card, which is then used as a guide as to what the failing results of the attempt are".
    It goes to the GM's hand (the GM's eyes only, until the GM shows it); if the engine does
    not yet know who the GM is, it waits for the GM's "draw the guide"."""
    gm = actor.member if actor.is_gm else state.get("gm_member")
    if not isinstance(gm, int):
        return {"type": "guide_pending", "id": guide_id, "check": check_id, "combatant": person["id"]}
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=gm)
    return {"type": "guide_drawn", "id": guide_id, "check": check_id, "combatant": person["id"],
            "card": arcanum.token, "holder": gm}


def draw_guide(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("draw a fumble's guide")
    guide = _find_guide(state, command)
    if guide["card"] is not None:
        raise WrongStep("That guide is already drawn.")
    if actor.member is None:
        raise RuleError("The guide goes to the GM's hand; the GM must be seated.")
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=actor.member)
    return [{"type": "guide_drawn", "id": guide["id"], "check": guide["check"],
             "combatant": guide["combatant"], "card": arcanum.token, "holder": actor.member}]


def show_guide(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The GM "chooses whether to show it" (issue 16): shown, it is public with its meaning."""
    actor.require_gm("show a fumble's guide")
    guide = _find_guide(state, command)
    if guide["card"] is None:
        raise WrongStep("Draw the guide first.")
    if guide["shown"]:
        raise WrongStep("That guide is already shown.")
    return [{"type": "guide_shown", "id": guide["id"], "combatant": guide["combatant"],
             "card": guide["card"], "meaning": deck.meaning(guide["card"])}]


def _find_guide(state: Mapping[str, Any], command: Command) -> dict[str, Any]:
    wanted = command.get("guide")
    guides = state["guides"]
    if wanted in (None, "") and guides:
        return guides[-1]
    for guide in guides:
        if str(guide["id"]) == str(wanted):
            return guide
    raise WrongStep("No such fumble guide.")


def spend_arcana(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "Characters can choose to use the meaning of a Major Arcana card at any time to
    influence the environment or story as Fate or Destiny intervening on their behalf ...
    based off of the standard or inverted (players choice) meaning ... pending GM's approval"."""
    cid = str(command.get("combatant") or "")
    name = state["names"].get(cid, cid)
    actor.require_control(cid, name)
    token = str(command.get("card") or "")
    held = state["held"].get(cid, [])
    match = next((t for t in held if deck.bare(t) == deck.bare(token)), None)
    if match is None:
        raise NotInHand(f"{name} does not hold that Major Arcana card.")
    flipped = bool(command.get("reversed"))
    return [{"type": "arcana_spent", "combatant": cid, "name": name, "card": match,
             "reversed": flipped, "meaning": deck.meaning(deck.bare(match), flipped)}]


def end_session(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session". ``keep`` maps a character to the one card it keeps (if any)."""
    actor.require_gm("end the session")
    keep = command.get("keep") or {}
    kept: dict[str, str] = {}
    for cid, token in keep.items():
        if not token:
            continue
        held = state["held"].get(str(cid), [])
        match = next((t for t in held if deck.bare(t) == deck.bare(str(token))), None)
        if match is None:
            raise NotInHand(f"{state['names'].get(str(cid), cid)} does not hold that card.")
        kept[str(cid)] = match
    dropped = {cid: [t for t in held if t != kept.get(cid)] for cid, held in state["held"].items()}
    return [{"type": "session_ended", "kept": kept, "dropped": {c: d for c, d in dropped.items() if d}}]
