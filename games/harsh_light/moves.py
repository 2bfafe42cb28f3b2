"""Reflexive moves and combat moves: Willpower spent outside a pull, a Dodge, a move, and the turn
order (set by the Storyteller or pulled for initiative), the end of an action and of a fight.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.harsh_light import harm, health, secrecy
from games.harsh_light import sheet as sh
from games.harsh_light.access import (
    Command, Event, _cid, _known, _read_sheets, _require_able, _require_control, _require_gm, _require_turn,
    _scratch, _text, _who,
)
from games.harsh_light.events import apply
from games.harsh_light.errors import OutOfTurn, RuleError
from games.harsh_light.deck import take
from games.harsh_light.pulls import _willpower_event
from games.harsh_light.state import name, status

WILLPOWER_USES = ("resist", "power")


# Reflexive moves and combat moves.


def willpower(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Spend a point outside a pull: "resist" (+2 to Defence or a Resistance trait against the
    next resisted test this turn) or "power" (to activate a power: it still counts, seed:
    "including Willpower spent to activate powers")."""
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    _require_able(scratch, cid, "Willpower")
    use = _text(command, "use", "resist")
    if use not in WILLPOWER_USES:
        raise RuleError("Willpower outside a pull is spent to resist or on a power.")
    events.append(_willpower_event(scratch, cid, use, _text(command, "note")))
    return events


def dodge(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "give up your attack to double your Defence until your next turn (known as a Dodge
    move)": the character's instant action this turn."""
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    if not scratch["combat"] or cid not in scratch["order"]:
        raise RuleError("A Dodge lasts until the character's next turn: it needs a turn order.")
    _require_able(scratch, cid, "Dodge")
    _require_turn(scratch, cid, "a Dodge")
    return [*events, secrecy.figures_of(scratch, {"type": "dodged", "combatant": cid,
                                                  "defence": sh.defence(_known(scratch, cid)) * 2}, "defence")]


def move(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "All characters may move their Speed in steps as a reflexive action once per turn".
    The World of Darkness: "Wound penalties also affect movement, reducing your character's Speed
    trait by the amount listed for the rightmost box filled"."""
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    _require_able(scratch, cid, "move")
    if scratch["combat"] and status(scratch, cid)["moved"]:
        raise RuleError(f"{name(scratch, cid)} has already moved this turn.")
    return [*events, secrecy.figures_of(scratch, {"type": "moved", "combatant": cid,
                                                  "speed": speed_now(_known(scratch, cid))}, "speed")]


def speed_now(person: Mapping[str, Any]) -> int:
    """Speed less the wound penalty, never below 0."""
    return max(0, sh.speed(person) + health.of(person).penalty())


def _order_from(state: Mapping[str, Any], command: Command, key: str) -> tuple[list[str], list[Event]]:
    raw = command.get(key)
    if not isinstance(raw, list) or not raw or not all(isinstance(c, str) and c for c in raw):
        raise RuleError("Choose the characters in the fight.")
    if len(set(raw)) != len(raw):
        raise RuleError("Each character takes one place in the order.")
    return list(raw), _read_sheets(state, command, list(raw))


def set_order(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The Storyteller sets the order of action (the issue: "an order the Storyteller sets").
    Set mid-fight, the new order starts a new turn from its top."""
    _require_gm(command, "set the turn order")
    order, events = _order_from(state, command, "order")
    return _begin(_scratch(state, events), events,
                  {"type": "order_set", "order": order, "initiative": {}, "turn": state["turn"] + 1}, cards)


def _begin(state: Mapping[str, Any], events: list[Event], event: Event, cards: Cards) -> list[Event]:
    """``events`` and ``event``, which gives the turn to someone, and what the turn's coming brings
    (harm.start_turn: a Stamina pull to stay conscious, the turn passing over whoever is out)."""
    return [*events, event, *harm.start_turn(apply(state, event), cards)]


def roll_initiative(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Initiative "as World of Darkness rolls it, Dexterity + Composure + a pull".

    One card each, and no again: the World of Darkness rolls one die for initiative, which no
    10-again touches. Ties go to the higher Dexterity + Composure, then to the order the
    characters were named in (the Storyteller can reorder with ``set_order``).
    """
    _require_gm(command, "call for initiative")
    listed, events = _order_from(state, command, "characters")
    scratch = _scratch(state, events)
    initiative: dict[str, Any] = {}
    records = []
    for cid in listed:
        person = _known(scratch, cid)
        [card] = take(cards)
        modifier = sh.initiative_modifier(person)
        initiative[cid] = {"modifier": modifier, "card": card.token, "value": card.card.value,
                           "total": modifier + card.card.value}
        records.append({"combatant": cid, "name": name(scratch, cid), "kind": "initiative",
                        "label": "initiative", "cards": [card.token], "values": [card.card.value],
                        "pool": {"size": modifier, "parts": [["Dexterity + Composure", modifier]]},
                        "total": modifier + card.card.value, "rules": []})
    order = sorted(listed, key=lambda c: (-initiative[c]["total"], -initiative[c]["modifier"], listed.index(c)))
    return _begin(scratch, events, secrecy.initiative_event(scratch, {
        "type": "order_set", "order": order, "initiative": initiative, "turn": state["turn"] + 1, "records": records,
    }), cards)


def end_turn(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The acting character's action is done: the next in the order acts; after the last, a new
    turn (Willpower, the instant action and the move come back to everyone). Outside combat the
    Storyteller may call a new turn, to let everyone spend Willpower again."""
    if not state["combat"]:
        _require_gm(command, "call a new turn outside combat")
        return [{"type": "turn_ended", "combatant": None, "next": None, "new_turn": True, "turn": state["turn"]}]
    acting = state["acting"]
    cid = command.get("combatant") or acting
    if cid != acting:
        raise OutOfTurn(f"It is {name(state, acting)}'s action, not {_who(state, command, cid)}'s.")
    _require_control(state, command, acting)
    order = state["order"]
    index = order.index(acting) + 1
    wraps = index >= len(order)
    return _begin(state, [], {"type": "turn_ended", "combatant": acting, "next": order[0] if wraps else order[index],
                              "new_turn": wraps, "turn": state["turn"] + 1 if wraps else state["turn"]}, cards)


def end_combat(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "end the fight")
    if not state["combat"]:
        raise RuleError("No fight is under way.")
    return [{"type": "combat_ended"}]


# The Storyteller's harm and healing (harm.py).


def harm_command(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """``combatant``, ``points``, ``kind`` (bashing, lethal, aggravated), ``reason``: a fall, a fire,
    sunlight, or a minute of bleeding out untended. The Storyteller's alone."""
    _require_gm(command, "deal harm")
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    return [*events, *harm.harm(_scratch(state, events), command, cid, cards)]


def heal_command(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """``combatant``, ``points``, ``kind`` (blank: the least severe first): healing, as the
    Storyteller allows it. The Storyteller's alone."""
    _require_gm(command, "heal")
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    return [*events, *harm.heal(_scratch(state, events), command, cid)]
