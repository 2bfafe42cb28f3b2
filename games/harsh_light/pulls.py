"""Cards, Willpower and the pull: drawing from the table's Harsh Light deck (a second card on an
again), spending Willpower, and the pull itself (simple or resisted, an attack and its damage, set
up before any card and put away), with the Storyteller's count of the deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.harsh_light import deck, harm, pools, rules, secrecy
from games.harsh_light import sheet as sh
from games.harsh_light.access import (
    Command, Event, _cid, _int, _known, _read_sheets, _require_able, _require_control, _require_gm, _require_turn,
    _scratch, _text, _who,
)
from games.harsh_light.errors import RuleError, WillpowerRefused
from games.harsh_light.events import apply
from games.harsh_light.resist import ATTACKS, MELEE, RANGED, RANGED_CLOSE, RESIST_TRAITS, THROWN, _resistance
from games.harsh_light.state import name, status

INSTANT, REFLEXIVE = "instant", "reflexive"
ACTIONS = (INSTANT, REFLEXIVE)
MAX_NEEDED = 50  # "up to 25 to build something large and/or complicated", and room above


# Cards and Willpower.


def _willpower_event(state: Mapping[str, Any], cid: str, use: str, note: str = "") -> Event:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"; the issue: "the sheet's Willpower dots drop". Whatever the point buys (+3 on any
    pull, +2 kept to resist, a power), it is the turn's one. Outside a fight the turn lasts until
    the Storyteller calls a new one (our reading: with no turn order to count, the tests made
    meanwhile do not end it, or a point a test could be had again at once)."""
    person = _known(state, cid)
    if status(state, cid)["willpower_spent"]:
        later = "" if state["combat"] else " (outside a fight, the Storyteller calls the next turn)"
        raise WillpowerRefused(f"{name(state, cid)} has already spent a Willpower point this turn: "
                               f"one a turn{later}.")
    left = sh.willpower_points(person)
    if left <= 0:
        raise WillpowerRefused(f"{name(state, cid)} has no Willpower points left.")
    return secrecy.figures_of(state, {"type": "willpower_spent", "combatant": cid, "use": use,
                                      "points_left": left - 1, "note": note}, "points_left")


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


def _judge(cards: Cards, pool: pools.Pool, *, again: int, needed: int, no_pull: bool,
           ) -> tuple[rules.Result, list[str]]:
    if no_pull:
        if not rules.is_automatic(pool.size, needed):
            raise RuleError(f"A pool of {pool.size} does not reach {needed} "
                            f"success{'es' if needed != 1 else ''} on its own: pull a card.")
        return rules.resolve(pool.size, (), again=again, needed=needed), []
    tokens, values = deck.pull_cards(cards, again)
    return rules.resolve(pool.size, values, again=again, needed=needed), tokens


def _record(state: Mapping[str, Any], cid: str, kind: str, label: str, pool: pools.Pool,
            result: rules.Result, tokens: list[str], **extra: Any) -> dict[str, Any]:
    judged = result.to_dict()
    judged.pop("pool")  # the size is in the pool's own record, with its parts
    return {"combatant": cid, "name": name(state, cid), "kind": kind, "label": label,
            "pool": pool.to_dict(), "cards": tokens, **judged, **extra}


# What a pull sends, as a set-up pull keeps it (``set_up_pull``) and ``pull`` reads it back.
PULL_ARGS = ("attribute", "skill", "modifier", "reason", "needed", "action", "willpower", "again",
             "target", "resist", "resist_value", "attack", "all_out", "supernatural", "label", "weapon",
             "damage_bonus", "damage")
ATTACK_ARGS = ("attack", "all_out", "weapon", "damage_bonus", "damage")  # what only an attack keeps
__all__ = ["ATTACKS", "MELEE", "RANGED", "RANGED_CLOSE", "RESIST_TRAITS", "THROWN"]


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
    # the parts of the pool that are the target's figures (its Defence or Resistance trait, its
    # Blood Potency): the GM's when the target is an NPC (secrecy.py)
    target_parts: tuple[int, ...] = ()
    damage: dict[str, Any] | None = None  # an attack's (harm.damage_spec)

    @property
    def automatic(self) -> bool:
        return rules.is_automatic(self.pool.size, self.needed)


def plan(state: Mapping[str, Any], command: Command, cid: str) -> Plan:
    """The pool a pull would have now, checked against the rules (whose turn, Willpower once a
    turn, what may resist it, who is out of the fight); a ``RuleError`` says why it cannot be
    made. Draws nothing."""
    _require_able(state, cid, "pull")
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
    first = len(pool.parts)
    for reason, value in resist_parts:
        pool = pool.plus(reason, value)
    damage = harm.damage_spec(state, command, cid) if facts["attack"] else None
    return Plan(cid, pool, needed, _again(command, person), action, target, facts, spent, bool(resist_parts),
                tuple(range(first, first + facts["sheet_parts"])), damage)


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
    ranged_close), ``all_out``, and its damage (``weapon`` "sheet" for the sheet's weapon,
    ``damage_bonus``, ``damage`` a kind; harm.py); ``supernatural`` (Blood Potency counts);
    ``label``. With ``set_up`` the pull is the one ``set_up_pull`` kept for the character. A hit
    marks the target's Health (``damaged``), and may call for its Stamina pull to stay conscious.
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
    got = 0 if result.dramatic else result.successes
    points, hurt, bullet = harm.attack_damage(scratch, made.damage, cid, target, got) if made.damage and target \
        else (0, "", False)
    record = _record(scratch, cid, kind, label, made.pool, result, tokens, action=made.action, target=target,
                     target_name=name(scratch, target) if target else None, attack=facts["attack"],
                     all_out=bool(command.get("all_out")), willpower=bool(command.get("willpower")),
                     target_figures=list(made.target_parts),
                     damage={"points": points, "kind": hurt} if points else None)
    pulled = secrecy.pull_event(scratch, {
        "type": "pulled", "combatant": cid, "target": target, "record": record,
        "instant_in_combat": made.action == INSTANT and scratch["combat"] and cid in scratch["order"],
        "all_out": bool(command.get("all_out")), "defence_applied": facts["defence_applied"],
        "resist_willpower_used": facts["resist_willpower_used"],
    })
    events.append(pulled)
    if points and target is not None:
        scratch = apply(scratch, pulled)
        hit = harm.damaged(scratch, target, points, hurt, by=cid, successes=got, spec=made.damage, firearm=bullet)
        events += [hit, *harm.after_harm(apply(scratch, hit), target, cards)]
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
    if not made.facts["attack"]:
        # only an attack says its kind (the form sends the attack select's choice with any pull)
        args = {k: v for k, v in args.items() if k not in ATTACK_ARGS}
    event = {"type": "pull_set_up", "combatant": cid, "args": args, "pool": made.pool.to_dict(),
             "needed": made.needed, "automatic": made.automatic}
    if secrecy.secret_pool(scratch, cid, made.target, made.target_parts):  # an NPC's figures: the GM's
        own = secrecy.npc(scratch, cid)
        event.update(pool_words=secrecy.pool_words(event["pool"], None if own else made.target_parts),
                     gm_figures=["pool", "automatic", *(["args"] if own else [])])
    return [*events, event]


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
    left, source = deck.counted(cards)
    if left is None:
        raise RuleError(deck.NO_DECK)
    return [{"type": "deck_counted", "deck_left": left, "deck_from": source}]
