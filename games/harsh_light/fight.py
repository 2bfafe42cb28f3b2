"""Reflexive moves and the fight: Willpower spent outside a pull, a Dodge, a move, and the turn
order (set by the Storyteller or pulled for initiative), the end of an action and of a fight; and
the Storyteller's harm and healing (harm.py). Each handler reads the characters as the table holds
them now (state.in_play) and the arguments as the move's parser read them (moves.py).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import RuleError, Turn
from games.core.fights import refuse_when_over
from games.harsh_light import audiences, harm, reaction
from games.harsh_light import sheet as sh
from games.harsh_light.access import require_able, require_turn
from games.harsh_light.deck import take
from games.harsh_light.errors import OutOfTurn
from games.harsh_light.events import FOLDS
from games.harsh_light.pulls import pull, willpower_event
from games.harsh_light.roster import fighters
from games.harsh_light.state import in_play, name, person, status
from games.harsh_light.writeback import after

Event = dict[str, Any]
WILLPOWER_USES = ("resist", "power")


def willpower(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Spend a point outside a pull: "resist" (+2 to Defence or a Resistance trait against the
    next resisted test this turn) or "power" (to activate a power: it still counts, seed:
    "including Willpower spent to activate powers")."""
    view = in_play(state, turn)
    cid = args["combatant"]
    require_able(view, cid, "Willpower")
    return [willpower_event(view, cid, args.get("use") or "resist", args.get("note") or "")]


def answer(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The target answers a pull waiting for it (reaction.py): ``willpower`` spends its point for
    +2 against it; without, it takes the pull as it stands (the Storyteller's "move on" is this,
    sent by the GM). Then the pull is made. One that can no longer be made (its attacker fell
    meanwhile) lapses, and nothing is spent or drawn."""
    waiting = state.get("reaction")
    view = in_play(state, turn)
    if not waiting:
        raise RuleError("No pull waits for an answer.")
    target = waiting["target"]
    if args["combatant"] != target:
        raise RuleError(f"The pull waits for {name(view, target)}'s answer, not {name(view, args['combatant'])}'s.")
    spend = bool(args.get("willpower"))
    events: list[Event] = [{"type": "reaction_answered", "combatant": target, "attacker": waiting["combatant"],
                            "willpower": spend, "by_gm": turn.member.is_gm and not turn.member.plays(target),
                            "against": waiting["against"]}]
    if spend:
        events.append(willpower_event(view, target, "resist"))
    folded = copy.deepcopy(dict(state))
    for event in events:
        FOLDS[event["type"]](folded, event)
    try:
        return events + pull(folded, {**waiting["args"], "combatant": waiting["combatant"], "answered": True}, turn)
    except RuleError as exc:
        return [{**events[0], "willpower": False, "lapsed": exc.message}]


def dodge(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "give up your attack to double your Defence until your next turn (known as a Dodge
    move)": the character's instant action this turn."""
    view = in_play(state, turn)
    cid = args["combatant"]
    if not view["combat"] or cid not in view["order"]:
        raise RuleError("A Dodge lasts until the character's next turn: it needs a turn order.")
    reaction.require_none(view, "a Dodge")
    require_able(view, cid, "Dodge")
    require_turn(view, cid, "a Dodge")
    return [audiences.figures_of(view, {"type": "dodged", "combatant": cid,
                                        "defence": sh.defence(person(view, cid)) * 2}, "defence")]


def move(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "All characters may move their Speed in steps as a reflexive action once per turn":
    Speed less the wound penalty (sheet.speed_now)."""
    view = in_play(state, turn)
    cid = args["combatant"]
    require_able(view, cid, "move")
    if view["combat"] and status(view, cid)["moved"]:
        raise RuleError(f"{name(view, cid)} has already moved this turn.")
    return [audiences.figures_of(view, {"type": "moved", "combatant": cid,
                                        "speed": sh.speed_now(person(view, cid))}, "speed")]


def set_order(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The Storyteller sets the order of action (the issue: "an order the Storyteller sets").
    Set mid-fight, the new order starts a new turn from its top."""
    view = in_play(state, turn)
    for cid in args["order"]:
        person(view, cid)
    return _begin(view, {"type": "order_set", "order": list(args["order"]), "initiative": {},
                         "turn": state["turn"] + 1}, turn.cards)


def _begin(state: Mapping[str, Any], event: Event, cards: Cards | None) -> list[Event]:
    """``event``, which gives the turn to someone, and what the turn's coming brings
    (harm.start_turn: a Stamina pull to stay conscious, the turn passing over whoever is out)."""
    assert cards is not None
    return [event, *harm.start_turn(after(state, event), cards)]


def roll_initiative(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Initiative "as World of Darkness rolls it, Dexterity + Composure + a pull".

    One card each, and no again: the World of Darkness rolls one die for initiative, which no
    10-again touches. Ties go to the higher Dexterity + Composure, then to the order the
    characters were named in (the Storyteller can reorder with ``set_order``).
    """
    assert turn.cards is not None
    view = in_play(state, turn)
    listed = list(args["characters"])
    initiative: dict[str, Any] = {}
    records = []
    for cid in listed:
        sheet = person(view, cid)
        [card] = take(turn.cards)
        modifier = sh.initiative_modifier(sheet)
        initiative[cid] = {"modifier": modifier, "card": card.token, "value": card.card.value,
                           "total": modifier + card.card.value}
        records.append({"combatant": cid, "name": name(view, cid), "kind": "initiative",
                        "label": "initiative", "cards": [card.token], "values": [card.card.value],
                        "pool": {"size": modifier, "parts": [["Dexterity + Composure", modifier]]},
                        "total": modifier + card.card.value, "rules": []})
    order = sorted(listed, key=lambda c: (-initiative[c]["total"], -initiative[c]["modifier"], listed.index(c)))
    return _begin(view, audiences.initiative_event(view, {
        "type": "order_set", "order": order, "initiative": initiative, "turn": state["turn"] + 1, "records": records,
    }), turn.cards)


def end_turn(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The acting character's action is done: the next in the order acts; after the last, a new
    turn (Willpower, the instant action and the move come back to everyone). Outside combat the
    Storyteller may call a new turn, to let everyone spend Willpower again. The character may go
    unnamed when the Storyteller ends it: whose action it is, is read here, under the lock.
    Once one side has no one able to act the fight is over (roster.py): the turn goes no further,
    and the Storyteller ends the fight."""
    reaction.require_none(state, "the end of the action")
    if not state["combat"]:
        if not turn.member.is_gm:
            raise RuleError("Only the Storyteller can call a new turn outside combat.")
        return [{"type": "turn_ended", "combatant": None, "next": None, "new_turn": True, "turn": state["turn"]}]
    view = in_play(state, turn)
    refuse_when_over(fighters(view), "pass the turn on")
    acting = state["acting"]
    cid = args.get("combatant") or acting
    if cid != acting:
        raise OutOfTurn(f"It is {name(view, acting)}'s action, not {name(view, cid)}'s.")
    order = state["order"]
    index = order.index(acting) + 1
    wraps = index >= len(order)
    return _begin(view, {"type": "turn_ended", "combatant": acting, "next": order[0] if wraps else order[index],
                         "new_turn": wraps, "turn": state["turn"] + 1 if wraps else state["turn"]}, turn.cards)


def set_options(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The Storyteller's table options (the decided reading: the untrained penalty "is a table option
    the Storyteller turns on, off by default")."""
    return [{"type": "options_set", "untrained": bool(args.get("untrained"))}]


def end_combat(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    if not state["combat"]:
        raise RuleError("No fight is under way.")
    return [{"type": "combat_ended"}]


# The Storyteller's harm and healing (harm.py).


def harm_dealt(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """``combatant``, ``points``, ``kind`` (bashing, lethal, aggravated), ``reason``: a fall, a fire,
    sunlight, or a minute of bleeding out untended."""
    assert turn.cards is not None
    return harm.harm(in_play(state, turn), args, args["combatant"], turn.cards)


def healed(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """``combatant``, ``points``, ``kind`` (blank: the least severe first): healing, as the
    Storyteller allows it."""
    return harm.heal(in_play(state, turn), args, args["combatant"])
