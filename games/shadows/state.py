"""The procedure's state: one JSON-able dict, kept by the platform in one row per campaign.

    {
      "step": int,                    the last step folded (games/core/engine.py stamps it)
      "next_id": int,                 ids for checks, attacks, guides and contests
      "weapons": [weapon rows],       the campaign's Attack/Weapon table (weapons.py)
      "criticals": {suit: {value: effect}},   the GM's critical tables (GM's eyes only)
      "held": {cid: [Major Arcana tokens]},   kept by Queen draws, spent upright/reversed
      "names": {cid: name},           as the events named them, for the panel's lines
      "help": {cid: [helper cids]},   assistance the GM has approved for the next check
      "asked": {cid: [helper cids]},  assistance a player asked for, waiting for the GM
      "spending": {id: {id, combatant, name, card, reversed, meaning}},   fate cards called
                                      on, waiting for the GM's approval (still held)
      "counters": [{id, counterer, target, suits, ap}],   declared, waiting for the target
      "guides": [{id, check, combatant, card | None, shown}],   fumble guides (GM's eyes)
      "contests": {id: contest},      multi-draw opposed actions
      "checks": [recent results],     the last few, for the panel
      "prepared": {cid: check},       set up, waiting for one card or three (the odds shown)
      "combat": None | {
          "round": int, "phase": "focus" | "acting",
          "combatants": {cid: combatant}, "order": [cid, quickest first],
          "pending": None | attack awaiting its defence,
          "played": [tokens],         cards played from hands this round (face up)
          "set_aside": [tokens],      cards discarded from hands to be re-dealt (face up on
                                      the discard pile)
          "aims": {cid: aim},         an attack being lined up: target, weapon, skill (odds)
          "attacks": [resolved attacks this round],
          "criticals": [{attack, card, effect, announced}],
      }
    }

A combatant: its ``profile`` (profile.py) as it entered the fight (the fight's record, which
the fight then changes: tracks, AP, hand), plus ``focus``, ``ap``, ``ap_max``, ``hand``
(tokens), ``holder`` (the member whose hand it is dealt to: its player, or the GM for an
NPC), ``dealt``, ``redealt``, ``actions``, ``done`` (acting over for now), ``in_fight`` (the
GM's say) and ``fallen`` ("down" or "dead": how it fell this round, out of it until the next;
"" while it stands).

Nothing here copies the platform's data for its own sake: a rule reads the sheets, who plays
whom and who sends a move from the ``Turn`` (games/core/engine.py), and the decks' counts from
the cards port.

Hands are secret: only ``panel.view`` for the GM's seat and ``panel.hand_of``
for a member read them out of the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import RuleError
from games.shadows import deck
from games.shadows.criticals import default_tables
from games.shadows.errors import NotEnoughAP, WrongStep
from games.shadows.weapons import DEFAULT_WEAPONS

RECENT_CHECKS = 12
# Reading: the seed leaves each action's AP cost "as specified elsewhere"; an attack costs
# its weapon's AP (1 unless the GM's table says more), any other action in a round 1 AP
# unless the GM says otherwise (as a counter: "one Action Point (or more, if the GM deems
# it appropriate)").
ACTION_AP = 1


def new_state() -> dict[str, Any]:
    return {
        "next_id": 1,
        "weapons": [dict(w) for w in DEFAULT_WEAPONS],
        "criticals": default_tables(),
        "held": {},
        "names": {},
        "help": {},
        "asked": {},
        "spending": {},
        "counters": [],
        "guides": [],
        "contests": {},
        "checks": [],
        "prepared": {},
        "combat": None,
    }


def new_id(state: Mapping[str, Any]) -> int:
    """The id the next check, attack, guide or contest takes."""
    return int(state["next_id"])


def require_ap(person: Mapping[str, Any], ap: int) -> None:
    if ap > person["ap"]:
        raise NotEnoughAP(f"{person['name']} has {person['ap']} AP left; that takes {ap}.")


def combat(state: Mapping[str, Any]) -> dict[str, Any]:
    fight = state.get("combat")
    if not fight:
        raise WrongStep("No combat is under way.")
    return fight


def fighter(state: Mapping[str, Any], cid: Any) -> dict[str, Any]:
    fight = combat(state)
    person = fight["combatants"].get(str(cid))
    if person is None:
        raise RuleError(f"{cid!r} is not in the combat.")
    return person


def in_combat(state: Mapping[str, Any], cid: str) -> dict[str, Any] | None:
    """The combatant, while a combat is under way and it is in it."""
    fight = state.get("combat")
    return fight["combatants"].get(cid) if fight else None


def down(person: Mapping[str, Any]) -> bool:
    """No Health left. Seed: damage to Health is how "to put someone down (for them to go
    unconscious or become physically "incapacitated")"."""
    return int(person["health"]) <= 0


def dead(person: Mapping[str, Any]) -> bool:
    """No Life left. Seed: Life is "the enemy's life force", which weapons "deteriorate".
    Reading: a life force worn to nothing is death."""
    return int(person["life"]) <= 0


def fallen(person: Mapping[str, Any]) -> bool:
    """Down or dead now, or at some point of this round: a combatant the GM brings back above
    nothing mid-round comes back into the fight at the next round (its hand, focus and AP are
    a round's)."""
    return bool(person.get("fallen")) or down(person) or dead(person)


def standing(person: Mapping[str, Any]) -> bool:
    """In the fight and able to act in it: in (the GM's say) and not fallen. Only a standing
    combatant declares a focus, is dealt a hand, acts, is attacked or is named next."""
    return bool(person["in_fight"]) and not fallen(person)


def harm(person: Mapping[str, Any]) -> str:
    """"dead" (no Life left), "down" (no Health left) or "", from its tracks alone."""
    return "dead" if dead(person) else "down" if down(person) else ""


def fallen_label(person: Mapping[str, Any]) -> str:
    """What the table calls a fallen combatant: "dead", "down", or "out until the next round"
    (brought back mid-round); "" for one standing (or only taken out by the GM)."""
    return harm(person) or ("out until the next round" if person.get("fallen") else "")


def fallen_as_seen(person: Mapping[str, Any]) -> str:
    """What a seat that may not see the combatant's sheet calls it: how everyone saw it fall
    ("down", "dead"), though the GM has set a track back above nothing since (the GM's
    correction of an NPC's track is the GM's), until it comes back at the next round."""
    seen = person.get("fallen")
    return seen if isinstance(seen, str) and seen else fallen_label(person)


def require_standing(person: Mapping[str, Any]) -> None:
    """A combatant down or dead takes no action (an attack, a draw, a counter, a focus...)."""
    if fallen(person):
        raise WrongStep(f"{person['name']} is {fallen_label(person)}: no actions.")


def acting(state: Mapping[str, Any], cid: str) -> dict[str, Any] | None:
    """The combatant when its hand is dealt this round (its actions cost AP)."""
    person = in_combat(state, cid)
    return person if person is not None and person["dealt"] and person["in_fight"] else None


def next_to_act(state: Mapping[str, Any]) -> str | None:
    """Who acts next, as a suggestion for the table: the quicker go first, then the round
    goes around again, and whoever still has AP acts on "towards the end of each round when
    slower characters are ... finished" (seed). The engine does not enforce turns: the GM
    runs the table; it enforces AP, hands and who may act for whom."""
    fight = state.get("combat")
    if not fight or fight["phase"] != "acting" or fight["pending"]:
        return None
    ready = [cid for cid in fight["order"]
             if standing(p := fight["combatants"][cid]) and p["dealt"] and p["ap"] > 0
             and not p.get("done")]
    if not ready:
        return None
    return min(ready, key=lambda cid: (fight["combatants"][cid]["actions"], fight["order"].index(cid)))


def order_of(combatants: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Quickest first (seed: "those with a higher Quickness attribute typically ... going
    first"); equal Quickness keeps the order they joined in."""
    ids = list(combatants)
    return sorted(ids, key=lambda cid: (-combatants[cid]["attributes"]["quickness"], ids.index(cid)))


def unseen_by(fight: Mapping[str, Any], cid: str) -> list[str]:
    """The cards that may lie in combatant ``cid``'s hand, as anyone but its holder counts them:
    every card of the deck its hand came from not face up this round (played from a hand of
    that deck, or set aside by a redeal). A fight on two decks holds two of each card: a card
    played from one deck may still lie in a hand of the other (decks.py)."""
    person = fight["combatants"][cid]
    if "seen" in fight:
        seen = set(fight["seen"].get(str(person.get("deck") or deck.MINOR), []))
    else:  # a fight stored before the decks were told apart: one deck
        seen = set(fight.get("played") or []) | set(fight.get("set_aside") or [])
    return [c for c in deck.minor_tokens() if c not in seen]


def held_cards(fight: Mapping[str, Any], source: str, holder: int | None, *, every: bool = False,
               but: str | None = None) -> list[str]:
    """The cards (bare ids) of the hands dealt from deck ``source`` that member ``holder`` holds,
    or of every such hand (``every``: what the GM sees), leaving out combatant ``but``'s: what a
    seat knows is not in a hand it counts odds against."""
    return [deck.bare(t) for person in fight["combatants"].values()
            if person["id"] != but and (person.get("deck") or deck.MINOR) == source
            and (every or (holder is not None and person.get("holder") == holder))
            for t in person["hand"]]
