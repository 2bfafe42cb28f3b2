"""Harsh Light's table procedure: ``decide(state, command, rng, cards) -> events``.

``decide`` checks a command against the rules, draws what it needs from the table's deck
(``state.DECK``, through the cards port) and returns the events, each card's token in them;
``events.apply`` folds them in. A refusal raises a ``RuleError`` and changes nothing.

Every command is a dict with ``type``, ``actor`` (``{"is_gm", "controls", "member", "name"}``;
the GM controls every character) and ``sheets`` (``{cid: sheet + "name"}``: the characters as
the table holds them now, so a changed sheet is read before the rules use it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards_port import Cards, UnknownDeck
from games.core.rng import Rng
from games.harsh_light import odds, pools, rules
from games.harsh_light import sheet as sh
from games.harsh_light.errors import NotYourCharacter, OutOfTurn, RuleError, WillpowerRefused
from games.harsh_light.events import apply
from games.harsh_light.state import DECK, defence_now, name, status

Event = dict[str, Any]
Command = Mapping[str, Any]

INSTANT, REFLEXIVE = "instant", "reflexive"
ACTIONS = (INSTANT, REFLEXIVE)
RESIST_TRAITS = ("defence", *sh.RESISTANCE)
# How an attack reaches its target. Seed: "Defence usually doesn't apply against most ranged
# attacks (unless your attacker is within arm's reach). The notable exception is Thrown Attacks".
MELEE, THROWN, RANGED, RANGED_CLOSE = "melee", "thrown", "ranged", "ranged_close"
ATTACKS = {MELEE: "in melee", THROWN: "thrown", RANGED: "ranged", RANGED_CLOSE: "ranged, within arm's reach"}
WILLPOWER_USES = ("resist", "power")
MAX_NEEDED = 50  # "up to 25 to build something large and/or complicated", and room above
MAX_LABEL = 80


# Who may act, and when.


def _actor(command: Command) -> Mapping[str, Any]:
    actor = command.get("actor")
    if not isinstance(actor, Mapping):
        raise RuleError("A command needs to say who sends it.")
    return actor


def _is_gm(command: Command) -> bool:
    return bool(_actor(command).get("is_gm"))


def _require_gm(command: Command, what: str) -> None:
    if not _is_gm(command):
        raise RuleError(f"Only the Storyteller can {what}.")


def _require_control(state: Mapping[str, Any], command: Command, cid: str) -> None:
    """The issue: "refused for anyone acting ... for another's character"."""
    actor = _actor(command)
    if actor.get("is_gm") or cid in [str(c) for c in actor.get("controls") or []]:
        return
    raise NotYourCharacter(f"You do not play {name(state, cid)}: only its player or the Storyteller can act for it.")


def _require_turn(state: Mapping[str, Any], cid: str, what: str) -> None:
    """Seed: "In combat, you get one instant action per turn"; the table keeps whose action it is."""
    if not state["combat"] or cid not in state["order"]:
        return
    if state["acting"] != cid:
        raise OutOfTurn(f"It is {name(state, state['acting'])}'s action, not {name(state, cid)}'s: "
                        f"{what} waits for {name(state, cid)}'s turn.")
    if status(state, cid)["acted"]:
        raise OutOfTurn(f"{name(state, cid)} has already taken an instant action this turn.")


# Reading the command.


def _cid(command: Command, key: str = "combatant") -> str:
    raw = command.get(key)
    if not isinstance(raw, str) or not raw:
        raise RuleError("Choose a character.")
    return raw


def _who(state: Mapping[str, Any], command: Command, cid: Any) -> str:
    """A character's name for a refusal, even one the state has not read yet (from the sheets
    the command brings): never its id."""
    if isinstance(cid, str) and cid in state["characters"]:
        return name(state, cid)
    given = (command.get("sheets") or {}).get(cid) if isinstance(cid, str) else None
    return str((given or {}).get("name") or "that character")


def _int(command: Command, key: str, default: int, low: int, high: int, what: str) -> int:
    raw = command.get(key, default)
    if raw is None or raw == "":
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RuleError(f"{what} is a whole number.")
    if not low <= raw <= high:
        raise RuleError(f"{what} is from {low} to {high}.")
    return raw


def _text(command: Command, key: str, default: str = "") -> str:
    raw = command.get(key)
    return str(raw).strip()[:MAX_LABEL] if raw not in (None, "") else default


def _known(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    person = state["characters"].get(cid)
    if person is None:
        raise RuleError(f"{cid!r} is not a character at this table.")
    return dict(person)


def _read_sheets(state: Mapping[str, Any], command: Command, cids: list[str]) -> list[Event]:
    """``sheet_read`` for each named character whose sheet is new or changed."""
    sheets = command.get("sheets") or {}
    events = []
    for cid in dict.fromkeys(cids):
        given = sheets.get(cid)
        if given is None:
            if cid not in state["characters"]:
                raise RuleError(f"{cid!r} is not a character at this table.")
            continue
        sheet = {**sh.read(given), "id": cid, "name": str(given.get("name") or cid)[:60]}
        if state["characters"].get(cid) != sheet:
            events.append({"type": "sheet_read", "combatant": cid, "sheet": sheet})
    return events


def _scratch(state: Mapping[str, Any], events: list[Event]) -> Mapping[str, Any]:
    for event in events:
        state = apply(state, event)
    return state


# Cards and Willpower.


NO_DECK = (f"There is no {DECK} deck on the table yet. The GM brings one out: the button \"Bring out the "
           f"{DECK} deck\" on this panel, or under Cards, \"Bring out a deck\": Ace to 10 (40 cards), "
           f"named {DECK}.")


def _take(cards: Cards, count: int = 1) -> list[Any]:
    try:
        return cards.draw(DECK, count, to="discard")
    except UnknownDeck:
        raise RuleError(NO_DECK) from None


def _draw(cards: Cards, again: int) -> tuple[list[str], list[int]]:
    """Seed: "A pull of 10 (or ... 8 or 9) allows you pull a second card, adding both cards";
    "Pulling a second 10 in a row doesn't let you keep adding": never a third card."""
    [first] = _take(cards)
    drawn = [first]
    if rules.pulls_second(first.card.value, again):
        drawn += _take(cards)
    return [c.token for c in drawn], [c.card.value for c in drawn]


def _left(cards: Cards) -> list[int] | None:
    """How many cards of each value the next pull comes from: the draw pile alone, or, when it
    is empty, the discard that will be shuffled back into it. ``None`` when the table has no
    Harsh Light deck."""
    try:
        left = cards.left(DECK, with_discard=False) or cards.left(DECK)
    except LookupError:
        return None
    return list(odds.counts_of(left))


def _willpower_event(state: Mapping[str, Any], cid: str, use: str, note: str = "") -> Event:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"; the issue: "the sheet's Willpower dots drop"."""
    person = _known(state, cid)
    if status(state, cid)["willpower_spent"]:
        raise WillpowerRefused(f"{name(state, cid)} has already spent a Willpower point this turn: one a turn.")
    left = sh.willpower_points(person)
    if left <= 0:
        raise WillpowerRefused(f"{name(state, cid)} has no Willpower points left.")
    return {"type": "willpower_spent", "combatant": cid, "use": use, "points_left": left - 1, "note": note}


def _again(command: Command, person: Mapping[str, Any]) -> int:
    """The sheet's again, or better when the check says so ("with certain powers and/or
    equipment"): the lower of the two, since 8-again is the better."""
    given = command.get("again")
    if given in (None, "", 10):
        return sh.again(person)
    if given not in rules.AGAIN_VALUES:
        raise RuleError("Again is 10, 9 or 8.")
    return min(int(given), sh.again(person))


# The pull.


def _resistance(state: Mapping[str, Any], command: Command, attacker: str,
                ) -> tuple[str | None, list[tuple[str, int]], dict[str, Any]]:
    """What a resisted test subtracts from the pool, as parts, and what it means for the target.

    Seed: "Resisted rolls are where you subtract an opponent's pool from your roll – generally
    either Defence or a Resistance trait (Resolve, Stamina, or Composure). Nearly all attack rolls
    will be resisted by Defence." We subtract from the pool (as the World of Darkness does with
    dice), so a pool driven to 0 or less by Defence risks a Dramatic Failure.
    """
    trait = _text(command, "resist") or None
    fixed = command.get("resist_value")
    target = command.get("target") or None
    facts: dict[str, Any] = {"defence_applied": False, "resist_willpower_used": False, "attack": None}
    if trait is None and fixed in (None, ""):
        if target is not None:
            raise RuleError("Say what resists: Defence, Resolve, Stamina or Composure.")
        return None, [], facts
    if fixed not in (None, ""):
        if trait is not None:
            raise RuleError("Resist with a trait or with a number, not both.")
        value = _int(command, "resist_value", 0, 0, 30, "The resisting number")
        return target, [("resistance", -value)] if value else [], facts
    if trait not in RESIST_TRAITS:
        raise RuleError("A pull is resisted by Defence, Resolve, Stamina or Composure.")
    if not isinstance(target, str):
        raise RuleError("Choose whose trait resists.")
    if target == attacker:
        raise RuleError("A character does not resist itself.")
    them = _known(state, target)
    who = name(state, target)
    pending = status(state, target)["resist_willpower"]
    parts: list[tuple[str, int]] = []
    if trait == "defence":
        attack = _text(command, "attack", MELEE)
        if attack not in ATTACKS:
            raise RuleError("An attack is in melee, thrown, ranged, or ranged within arm's reach.")
        facts["attack"] = attack
        if attack == RANGED:
            return target, [], facts  # Defence "doesn't apply against most ranged attacks"
        if status(state, target)["all_out"]:
            return target, [], facts  # "give up your Defence": nothing to add Willpower to
        facts["defence_applied"] = True
        parts.append((f"{who}'s Defence", -defence_now(state, target)))
    else:
        parts.append((f"{who}'s {sh.trait_label(trait)}", -sh.attribute(them, trait)))
        if command.get("supernatural"):
            bonus = pools.supernatural_bonus(them, (trait,))
            if bonus:
                parts.append((f"{who}'s Blood Potency", -bonus))
    if pending:
        # Seed: Willpower "adds 2 against a Resisted test (including attacks – spending a
        # Willpower for +2 Defence can be a lifesaver in emergencies)". Spent beforehand, it
        # counts against the next resisted test the character faces that turn.
        parts.append((f"{who}'s Willpower", -pools.WILLPOWER_RESIST))
        facts["resist_willpower_used"] = True
    return target, parts, facts


def _judge(cards: Cards, pool: pools.Pool, *, again: int, needed: int, no_pull: bool,
           ) -> tuple[rules.Result, list[str]]:
    if no_pull:
        if not rules.is_automatic(pool.size, needed):
            raise RuleError(f"A pool of {pool.size} does not reach {needed} "
                            f"success{'es' if needed != 1 else ''} on its own: pull a card.")
        return rules.resolve(pool.size, (), again=again, needed=needed), []
    tokens, values = _draw(cards, again)
    return rules.resolve(pool.size, values, again=again, needed=needed), tokens


def _record(state: Mapping[str, Any], cid: str, kind: str, label: str, pool: pools.Pool,
            result: rules.Result, tokens: list[str], **extra: Any) -> dict[str, Any]:
    judged = result.to_dict()
    judged.pop("pool")  # the size is in the pool's own record, with its parts
    return {"combatant": cid, "name": name(state, cid), "kind": kind, "label": label,
            "pool": pool.to_dict(), "cards": tokens, **judged, **extra}


# What a pull sends, as a set-up pull keeps it (``set_up_pull``) and ``pull`` reads it back.
PULL_ARGS = ("attribute", "skill", "modifier", "reason", "needed", "action", "willpower", "again",
             "target", "resist", "resist_value", "attack", "all_out", "supernatural", "label")


@dataclass(frozen=True)
class Plan:
    """A pull worked out before any card: the pool with every part named, what it needs, and
    what it means for the target. ``willpower`` is the point it would spend (an event)."""

    cid: str
    pool: pools.Pool
    needed: int
    again: int
    action: str
    target: str | None
    facts: dict[str, Any]
    willpower: Event | None
    resisted: bool

    @property
    def automatic(self) -> bool:
        return rules.is_automatic(self.pool.size, self.needed)


def plan(state: Mapping[str, Any], command: Command, cid: str) -> Plan:
    """The pool a pull would have now, checked against the rules (whose turn, Willpower once a
    turn, what may resist it); a ``RuleError`` says why it cannot be made. Draws nothing."""
    action = _text(command, "action", INSTANT)
    if action not in ACTIONS:
        raise RuleError("An action is instant or reflexive.")
    if action == INSTANT:
        _require_turn(state, cid, "an instant action")
    person = _known(state, cid)
    needed = _int(command, "needed", 1, 1, MAX_NEEDED, "The successes needed")
    pool = pools.build(person, _text(command, "attribute"), _text(command, "skill") or None,
                       modifier=command.get("modifier") or 0, reason=_text(command, "reason"))
    target, resist_parts, facts = _resistance(state, command, cid)
    if facts["attack"] and action != INSTANT:
        # Seed: "In combat, you get one instant action per turn (attacking, ...)".
        raise RuleError("An attack is an instant action.")
    if command.get("all_out"):
        # Seed: "give up your Defence for a +2 to your pool in melee".
        if facts["attack"] != MELEE:
            raise RuleError("An All-Out Attack is a melee attack resisted by Defence.")
        pool = pool.plus("All-Out Attack", pools.ALL_OUT_BONUS)
    spent = None
    if command.get("willpower"):
        spent = _willpower_event(state, cid, "pool")
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    for reason, value in resist_parts:
        pool = pool.plus(reason, value)
    return Plan(cid, pool, needed, _again(command, person), action, target, facts, spent, bool(resist_parts))


def _pull_command(state: Mapping[str, Any], command: Command, cid: str) -> Command:
    """The pull as sent, or the one set up for this character (``set_up``), taken as it was
    set up: only the choice to take an automatic success comes with the pull itself."""
    if not command.get("set_up"):
        return command
    kept = (state.get("prepared") or {}).get(cid)
    if kept is None:
        raise RuleError(f"{_who(state, command, cid)} has no pull set up: set one up first.")
    return {**{k: command[k] for k in ("type", "actor", "sheets", "combatant") if k in command},
            **kept["args"], "no_pull": bool(command.get("no_pull"))}


def pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """A simple or resisted pull: the card, plus the pool, judged against what is needed.

    ``combatant``; ``attribute`` and ``skill`` (or a second Attribute); ``modifier`` and
    ``reason``; ``needed`` (successes, 1 unless the Storyteller says more); ``action``
    ("instant", the default in combat, or "reflexive"); ``willpower``; ``again``; ``no_pull``
    (take an automatic success); to resist it ``target`` with ``resist`` ("defence", "resolve",
    "stamina", "composure") or ``resist_value``; for an attack ``attack`` (melee, thrown, ranged,
    ranged_close) and ``all_out``; ``supernatural`` (Blood Potency counts); ``label``. With
    ``set_up`` the pull is the one ``set_up_pull`` kept for the character.
    """
    cid = _cid(command)
    command = _pull_command(state, command, cid)
    target = command.get("target") or None
    events = _read_sheets(state, command, [cid, *([target] if isinstance(target, str) else [])])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    made = plan(scratch, command, cid)
    if made.willpower is not None:
        events.append(made.willpower)
    result, tokens = _judge(cards, made.pool, again=made.again, needed=made.needed,
                            no_pull=bool(command.get("no_pull")))
    facts, target = made.facts, made.target
    kind = "resisted" if made.resisted or facts["attack"] else "simple"
    label = _text(command, "label", "an attack" if facts["attack"] else "a pull")
    record = _record(scratch, cid, kind, label, made.pool, result, tokens, action=made.action, target=target,
                     target_name=name(scratch, target) if target else None, attack=facts["attack"],
                     all_out=bool(command.get("all_out")), willpower=bool(command.get("willpower")))
    events.append({
        "type": "pulled", "combatant": cid, "target": target, "record": record,
        "instant_in_combat": made.action == INSTANT and scratch["combat"] and cid in scratch["order"],
        "all_out": bool(command.get("all_out")), "defence_applied": facts["defence_applied"],
        "resist_willpower_used": facts["resist_willpower_used"],
    })
    return events


def set_up_pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """A pull built from the sheet and shown to the table before any card is pulled (the issue:
    "a pull form that builds the pool from the sheet ... and shows it before the pull"), with
    the odds from the cards left in the draw pile. Checked as the pull itself would be (whose
    turn, Willpower once a turn); nothing is spent or drawn until the pull."""
    cid = _cid(command)
    target = command.get("target") or None
    events = _read_sheets(state, command, [cid, *([target] if isinstance(target, str) else [])])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    made = plan(scratch, command, cid)
    args = {k: command[k] for k in PULL_ARGS if command.get(k) not in (None, "", False)}
    return [*events, {"type": "pull_set_up", "combatant": cid, "args": args, "pool": made.pool.to_dict(),
                      "needed": made.needed, "automatic": made.automatic}]


def put_away(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """A pull set up and not made is put away: nothing was spent or drawn."""
    cid = _cid(command)
    if cid not in (state.get("prepared") or {}):
        raise RuleError(f"{_who(state, command, cid)} has no pull set up.")
    _require_control(state, command, cid)
    return [{"type": "pull_put_away", "combatant": cid}]


def count_deck(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The Storyteller counts the Harsh Light deck (after bringing it out, or shuffling it by
    hand), so the odds before each pull come from the cards its draw pile holds now."""
    _require_gm(command, "count the deck")
    left = _left(cards)
    if left is None:
        raise RuleError(NO_DECK)
    return [{"type": "deck_counted", "deck_left": left}]


# Reflexive moves and combat moves.


def willpower(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Spend a point outside a pull: "resist" (+2 to Defence or a Resistance trait against the
    next resisted test this turn) or "power" (to activate a power: it still counts, seed:
    "including Willpower spent to activate powers")."""
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
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
    _require_turn(scratch, cid, "a Dodge")
    return [*events, {"type": "dodged", "combatant": cid, "defence": sh.defence(_known(scratch, cid)) * 2}]


def move(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "All characters may move their Speed in steps as a reflexive action once per turn"."""
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    if scratch["combat"] and status(scratch, cid)["moved"]:
        raise RuleError(f"{name(scratch, cid)} has already moved this turn.")
    return [*events, {"type": "moved", "combatant": cid, "speed": sh.speed(_known(scratch, cid))}]


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
    return [*events, {"type": "order_set", "order": order, "initiative": {}, "turn": state["turn"] + 1}]


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
        [card] = _take(cards)
        modifier = sh.initiative_modifier(person)
        initiative[cid] = {"modifier": modifier, "card": card.token, "value": card.card.value,
                           "total": modifier + card.card.value}
        records.append({"combatant": cid, "name": name(scratch, cid), "kind": "initiative",
                        "label": "initiative", "cards": [card.token], "values": [card.card.value],
                        "pool": {"size": modifier, "parts": [["Dexterity + Composure", modifier]]},
                        "total": modifier + card.card.value, "rules": []})
    order = sorted(listed, key=lambda c: (-initiative[c]["total"], -initiative[c]["modifier"], listed.index(c)))
    return [*events, {"type": "order_set", "order": order, "initiative": initiative,
                      "turn": state["turn"] + 1, "records": records}]


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
    return [{"type": "turn_ended", "combatant": acting, "next": order[0] if wraps else order[index],
             "new_turn": wraps, "turn": state["turn"] + 1 if wraps else state["turn"]}]


def end_combat(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "end the fight")
    if not state["combat"]:
        raise RuleError("No fight is under way.")
    return [{"type": "combat_ended"}]


# Extended and contested actions.


def _pool_spec(command: Mapping[str, Any], person: Mapping[str, Any]) -> dict[str, Any]:
    spec = {"attribute": _text(command, "attribute"), "skill": _text(command, "skill") or None,
            "modifier": command.get("modifier") or 0, "reason": _text(command, "reason")}
    pools.build(person, spec["attribute"], spec["skill"], modifier=spec["modifier"], reason=spec["reason"])
    return spec


def spec_pool(person: Mapping[str, Any], spec: Mapping[str, Any]) -> pools.Pool:
    return pools.build(person, spec["attribute"], spec["skill"], modifier=spec["modifier"], reason=spec["reason"])


def _next_id(state: Mapping[str, Any], prefix: str) -> str:
    return f"{prefix}{state['next_id']}"


def extended_start(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "The player pulls cards until they have accumulated however many successes are
    needed (perhaps five to pick a simple lock – up to 25 to build something large and/or
    complicated), with each test taking up an appropriate amount of time (examples: a combat
    round for lockpicking, an hour for research, or a day for large-scale construction)".
    The Storyteller names the successes needed and the unit of time."""
    _require_gm(command, "start an extended action")
    cid = _cid(command)
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    spec = _pool_spec(command, _known(scratch, cid))
    needed = _int(command, "needed", 5, 1, MAX_NEEDED, "The successes needed")
    unit = _text(command, "unit", "turn")
    return [*events, {"type": "extended_started", "id": _next_id(scratch, "x"), "combatant": cid,
                      "label": _text(command, "label", "an extended action"), "pool": spec,
                      "needed": needed, "unit": unit}]


def _open(state: Mapping[str, Any], kind: str, raw: Any, what: str) -> dict[str, Any]:
    found = state[kind].get(raw) if isinstance(raw, str) else None
    if found is None:
        raise RuleError(f"There is no such {what}.")
    if found["done"]:
        raise RuleError(f"That {what} is over.")
    return dict(found)


def extended_pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """One more pull toward the total: the running total and the pulls so far are kept. In a fight
    each pull is the character's instant action for the turn."""
    action = _open(state, "extended", command.get("extended"), "extended action")
    cid = action["combatant"]
    if command.get("combatant") not in (None, "", cid):
        raise RuleError(f"That extended action is {name(state, cid)}'s.")
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    _require_turn(scratch, cid, "an extended action's pull")
    person = _known(scratch, cid)
    pool = spec_pool(person, action["pool"])
    extra = _int(command, "modifier", 0, -pools.MAX_MODIFIER, pools.MAX_MODIFIER, "A modifier")
    if extra:
        pool = pool.plus(_text(command, "reason") or "this pull", extra)
    if command.get("willpower"):
        events.append(_willpower_event(scratch, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    # Each pull counts successes (1 needed for a pull to count at all), so an automatic success
    # is a pull the player skips for the successes its worst card would give.
    result, tokens = _judge(cards, pool, again=_again(command, person), needed=1,
                            no_pull=bool(command.get("no_pull")))
    gathered = action["gathered"] + (0 if result.dramatic else result.successes)
    record = _record(scratch, cid, "extended", action["label"], pool, result, tokens,
                     number=len(action["pulls"]) + 1, gathered=gathered, of=action["needed"],
                     unit=action["unit"], willpower=bool(command.get("willpower")))
    return [*events, {"type": "extended_pulled", "id": action["id"], "combatant": cid, "record": record,
                      "gathered": gathered, "done": gathered >= action["needed"],
                      "instant_in_combat": scratch["combat"] and cid in scratch["order"]}]


def extended_stop(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "stop an extended action")
    action = _open(state, "extended", command.get("extended"), "extended action")
    return [{"type": "extended_stopped", "id": action["id"], "gathered": action["gathered"]}]


def contest_start(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "Both pull a card, add their pools and compare successes, with the higher number of
    successes winning"; "Some tests are both contested and extended – in those cases, you
    continue pulling until one of the characters reaches the required number of successes".
    ``sides``: two ``{combatant, attribute, skill, modifier, reason}``; ``needed`` 0 for a plain
    contest, or the successes to reach when it is extended too."""
    _require_gm(command, "call a contest")
    sides = command.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, Mapping) for s in sides):
        raise RuleError("A contest has two sides.")
    cids = [_cid(side) for side in sides]
    if cids[0] == cids[1]:
        raise RuleError("A character does not contest itself.")
    events = _read_sheets(state, command, cids)
    scratch = _scratch(state, events)
    specs = [{"combatant": cid, **_pool_spec(side, _known(scratch, cid))} for cid, side in zip(cids, sides)]
    needed = _int(command, "needed", 0, 0, MAX_NEEDED, "The successes to reach")
    return [*events, {"type": "contest_started", "id": _next_id(scratch, "k"), "sides": specs,
                      "needed": needed, "unit": _text(command, "unit", "turn" if needed else ""),
                      "label": _text(command, "label", "a contest"),
                      "supernatural": bool(command.get("supernatural"))}]


def contest_pull(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """One side's pull in the contest's current round; when both have pulled, the round is
    judged. Our readings, where the seed is silent: a tie in a plain contest is pulled again (no
    side has the higher number); in an extended contest the first to reach the successes wins,
    and if both reach them in the same round the higher running total wins, a tie pulling on.
    Pulls in a contest are reflexive for the turn order: the Storyteller called the contest."""
    contest = _open(state, "contests", command.get("contest"), "contest")
    cid = _cid(command)
    side = next((s for s in contest["sides"] if s["combatant"] == cid), None)
    if side is None:
        raise RuleError(f"{_who(state, command, cid)} is not in that contest.")
    if cid in contest["pulled"]:
        raise RuleError(f"{name(state, cid)} has pulled this round; the other side pulls now.")
    events = _read_sheets(state, command, [cid])
    scratch = _scratch(state, events)
    _require_control(scratch, command, cid)
    person = _known(scratch, cid)
    pool = spec_pool(person, side)
    if contest["supernatural"]:
        traits = tuple(t for t in (side["attribute"], side["skill"]) if t)
        bonus = pools.supernatural_bonus(person, traits)
        if bonus:
            pool = pool.plus("Blood Potency", bonus)
    if command.get("willpower"):
        events.append(_willpower_event(scratch, cid, "pool"))
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    result, tokens = _judge(cards, pool, again=_again(command, person), needed=1,
                            no_pull=bool(command.get("no_pull")))
    got = 0 if result.dramatic else result.successes
    record = _record(scratch, cid, "contested", contest["label"], pool, result, tokens,
                     round=contest["round"], willpower=bool(command.get("willpower")))
    events.append({"type": "contest_pulled", "id": contest["id"], "combatant": cid, "record": record,
                   "counted": got, "instant_in_combat": False})
    pulled = {**{c: r["successes"] if not r["dramatic"] else 0 for c, r in contest["pulled"].items()}, cid: got}
    if len(pulled) == 2:
        events.append(_judge_round(contest, pulled))
    return events


def _judge_round(contest: Mapping[str, Any], pulled: Mapping[str, int]) -> Event:
    a, b = (s["combatant"] for s in contest["sides"])
    gathered = {c: contest["gathered"][c] + pulled[c] for c in (a, b)}
    winner = None
    if contest["needed"] == 0:
        if pulled[a] != pulled[b]:
            winner = a if pulled[a] > pulled[b] else b
    else:
        reached = [c for c in (a, b) if gathered[c] >= contest["needed"]]
        if len(reached) == 1:
            winner = reached[0]
        elif reached and gathered[a] != gathered[b]:
            winner = a if gathered[a] > gathered[b] else b
    return {"type": "contest_round", "id": contest["id"], "round": contest["round"],
            "successes": dict(pulled), "gathered": gathered, "winner": winner, "done": winner is not None}


def contest_stop(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    _require_gm(command, "stop a contest")
    contest = _open(state, "contests", command.get("contest"), "contest")
    return [{"type": "contest_stopped", "id": contest["id"]}]


Handler = Callable[[Mapping[str, Any], Command, Rng, Cards], list[Event]]
COMMANDS: dict[str, Handler] = {
    "pull": pull,
    "set_up_pull": set_up_pull,
    "put_away": put_away,
    "count_deck": count_deck,
    "willpower": willpower,
    "dodge": dodge,
    "move": move,
    "set_order": set_order,
    "roll_initiative": roll_initiative,
    "end_turn": end_turn,
    "end_combat": end_combat,
    "extended_start": extended_start,
    "extended_pull": extended_pull,
    "extended_stop": extended_stop,
    "contest_start": contest_start,
    "contest_pull": contest_pull,
    "contest_stop": contest_stop,
}


def decide(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The events ``command`` causes, or a ``RuleError``; ``state`` is never changed. Each event
    gets the command's ``step`` and the ``turn`` it happened in."""
    handler = COMMANDS.get(str(command.get("type", "")))
    if handler is None:
        raise RuleError(f"Unknown command {command.get('type')!r}.")
    _actor(command)
    events = copy.deepcopy(handler(state, copy.deepcopy(dict(command)), rng, cards))
    step = state["step"] + 1
    for event in events:
        event["step"] = step
        event.setdefault("turn", state["turn"])
    # The odds before the next pull come from the cards its draw pile holds: read after every
    # command (a pull set up, a card pulled, the deck counted) and kept in the state.
    left = events[-1]["deck_left"] if "deck_left" in events[-1] else _left(cards)
    if left != state.get("deck_left") or events[-1]["type"] == "deck_counted":
        events[-1]["deck_left"] = left
    return events


def run(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng, cards)
    new: dict[str, Any] = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
