"""Cards, Willpower and the pull: drawing from the table's Harsh Light deck (a second card on an
again), spending Willpower, and the pull itself (simple or resisted, an attack and its damage, set
up before any card and put away). Each handler reads the characters as the table holds them now
(state.in_play) and the arguments as the move's parser read them (moves.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import RuleError, Turn
from games.harsh_light import audiences, deck, harm, pools, reaction, rules
from games.harsh_light import sheet as sh
from games.harsh_light.access import ACTIONS, INSTANT, REFLEXIVE, require_able, require_action_kind, require_turn
from games.harsh_light.errors import WillpowerRefused
from games.harsh_light.resist import MELEE, resistance
from games.harsh_light.state import dice, in_play, name, person, status, untrained_penalty
from games.harsh_light.writeback import after

Event = dict[str, Any]
__all__ = ["ACTIONS", "INSTANT", "REFLEXIVE"]  # the kinds of action (access.py), as the parser reads them
MAX_NEEDED = 50  # "up to 25 to build something large and/or complicated", and room above


# Cards and Willpower.


def willpower_event(state: Mapping[str, Any], cid: str, use: str, note: str = "") -> Event:
    """Seed: "You may only spend one Willpower per turn (including Willpower spent to activate
    powers)"; the issue: "the sheet's Willpower dots drop". Whatever the point buys (+3 on any
    pull, +2 kept to resist, a power), it is the turn's one. Outside a fight the turn lasts until
    the Storyteller calls a new one (our reading: with no turn order to count, the tests made
    meanwhile do not end it, or a point a test could be had again at once)."""
    sheet = person(state, cid)
    if status(state, cid)["willpower_spent"]:
        later = "" if state["combat"] else " (outside a fight, the Storyteller calls the next turn)"
        raise WillpowerRefused(f"{name(state, cid)} has already spent a Willpower point this turn: "
                               f"one a turn{later}.")
    left = sh.willpower_points(sheet)
    if left <= 0:
        raise WillpowerRefused(f"{name(state, cid)} has no Willpower points left.")
    return audiences.figures_of(state, {"type": "willpower_spent", "combatant": cid, "use": use,
                                        "points_left": left - 1, "note": note}, "points_left")


def again_of(args: Mapping[str, Any], sheet: Mapping[str, Any]) -> int:
    """The sheet's again, or better when the check says so ("with certain powers and/or
    equipment"): the lower of the two, since 8-again is the better."""
    given = args.get("again")
    return sh.again(sheet) if given in (None, 10) else min(int(given), sh.again(sheet))


# The pull.


def judge(cards: Cards, pool: pools.Pool, *, again: int, needed: int, no_pull: bool,
          ) -> tuple[rules.Result, list[str]]:
    """The pull judged: its card(s) off the deck, or none for an automatic success taken."""
    if no_pull:
        if not rules.is_automatic(pool.size, needed):
            raise RuleError(f"A pool of {pool.size} does not reach {needed} "
                            f"success{'es' if needed != 1 else ''} on its own: pull a card.")
        return rules.resolve(pool.size, (), again=again, needed=needed), []
    tokens, values = deck.pull_cards(cards, again)
    return rules.resolve(pool.size, values, again=again, needed=needed), tokens


def record_of(state: Mapping[str, Any], cid: str, kind: str, label: str, pool: pools.Pool,
              result: rules.Result, tokens: list[str], **extra: Any) -> dict[str, Any]:
    """A pull's record, as the log and the panel keep it."""
    judged = result.to_dict()
    judged.pop("pool")  # the size is in the pool's own record, with its parts
    return {"combatant": cid, "name": name(state, cid), "kind": kind, "label": label,
            "pool": pool.to_dict(), "cards": tokens, **judged, **extra}


# What a pull sends, as a set-up pull keeps it (``set_up_pull``) and ``pull`` reads it back.
PULL_ARGS = ("attribute", "skill", "modifier", "reason", "needed", "action", "willpower", "again",
             "target", "resist", "resist_value", "attack", "all_out", "supernatural", "label", "weapon",
             "damage_bonus", "damage")
ATTACK_ARGS = ("attack", "all_out", "weapon", "damage_bonus", "damage")  # what only an attack keeps


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
    # Blood Potency): the GM's when the target is an NPC (audiences.py)
    target_parts: tuple[int, ...] = ()
    damage: dict[str, Any] | None = None  # an attack's (harm.damage_spec)

    @property
    def automatic(self) -> bool:
        return rules.is_automatic(self.pool.size, self.needed)


def plan(state: Mapping[str, Any], args: Mapping[str, Any], cid: str) -> Plan:
    """The pool a pull would have now (a rule's view, state.in_play), checked against the rules
    (whose turn, Willpower once a turn, who is out of the fight); a ``RuleError`` says why it
    cannot be made. Draws nothing."""
    require_able(state, cid, "pull")
    action = args.get("action") or INSTANT
    if action == INSTANT:
        require_turn(state, cid, "an instant action")
    sheet = person(state, cid)
    needed = args.get("needed") or 1
    pool = pools.build(sheet, args.get("attribute") or "", args.get("skill") or None,
                       modifier=args.get("modifier") or 0, reason=args.get("reason") or "",
                       untrained=untrained_penalty(state), lasting=dice(state, cid))
    target, resist_parts, facts = resistance(state, args, cid)
    if facts["attack"] and action != INSTANT:
        # Seed: "In combat, you get one instant action per turn (attacking, ...)".
        raise RuleError("An attack is an instant action.")
    if args.get("all_out"):
        # Seed: "give up your Defence for a +2 to your pool in melee".
        if facts["attack"] != MELEE:
            raise RuleError("An All-Out Attack is a melee attack resisted by Defence.")
        pool = pool.plus("All-Out Attack", pools.ALL_OUT_BONUS)
    spent = None
    if args.get("willpower"):
        spent = willpower_event(state, cid, "pool")
        pool = pool.plus("Willpower", pools.WILLPOWER_POOL)
    first = len(pool.parts)
    for reason, value in resist_parts:
        pool = pool.plus(reason, value)
    damage = harm.damage_spec(state, args, cid) if facts["attack"] else None
    return Plan(cid, pool, needed, again_of(args, sheet), action, target, facts, spent, bool(resist_parts),
                tuple(range(first, first + facts["sheet_parts"])), damage)


def made_as_set_up(state: Mapping[str, Any], args: Mapping[str, Any], cid: str) -> Mapping[str, Any]:
    """The pull as sent, or the one set up for this character (``set_up``), taken as it was
    set up: only the choice to take an automatic success comes with the pull itself."""
    if not args.get("set_up"):
        return args
    kept = state["prepared"].get(cid)
    if kept is None:
        raise RuleError(f"{name(state, cid)} has no pull set up: set one up first.")
    return {**kept["args"], "combatant": cid, "no_pull": bool(args.get("no_pull"))}


def pull(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
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
    assert turn.cards is not None
    view = in_play(state, turn)
    cid = args["combatant"]
    answered = bool(args.get("answered"))  # set by the target's answer alone (fight.answer), never by a form
    if not args.get("set_up") and not answered:  # judged when it was set up, or when it was sent
        require_action_kind(args.get("action"), turn.member)
    if not answered:
        reaction.require_none(view, "another pull")
    args = dict(made_as_set_up(view, args, cid))
    made = plan(view, args, cid)
    if not answered and reaction.opens(view, made.target, made.target_parts):
        kept = {k: args[k] for k in PULL_ARGS if k in args}
        return [reaction.opened(view, cid, str(made.target), {**kept, "no_pull": args.get("no_pull")},
                                sh.trait_label(str(args.get("resist"))))]
    events = [made.willpower] if made.willpower is not None else []
    result, tokens = judge(turn.cards, made.pool, again=made.again, needed=made.needed,
                           no_pull=bool(args.get("no_pull")))
    facts, target = made.facts, made.target
    kind = "resisted" if made.resisted or facts["attack"] else "simple"
    label = args.get("label") or ("an attack" if facts["attack"] else "a pull")
    got = 0 if result.dramatic else result.successes
    points, hurt, bullet = harm.attack_damage(view, made.damage, cid, target, got) if made.damage and target \
        else (0, "", False)
    record = record_of(view, cid, kind, label, made.pool, result, tokens, action=made.action, target=target,
                       target_name=name(view, target) if target else None, attack=facts["attack"],
                       all_out=bool(args.get("all_out")), willpower=bool(args.get("willpower")),
                       target_figures=list(made.target_parts),
                       damage={"points": points, "kind": hurt} if points else None)
    events.append(audiences.pull_event(view, {
        "type": "pulled", "combatant": cid, "target": target, "record": record,
        "instant_in_combat": made.action == INSTANT and view["combat"],
        "all_out": bool(args.get("all_out")), "defence_applied": facts["defence_applied"],
        "resist_willpower_used": facts["resist_willpower_used"],
    }))
    if points and target is not None:
        for event in events:
            view = after(view, event)
        hit = harm.damaged(view, target, points, hurt, by=cid, successes=got, spec=made.damage, firearm=bullet)
        events += [hit, *harm.after_harm(after(view, hit), target, turn.cards)]
    return events


def set_up_pull(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A pull built from the sheet and shown to the table before any card is pulled (the issue:
    "a pull form that builds the pool from the sheet ... and shows it before the pull"), with
    the odds from the cards not lying face up. Checked as the pull itself would be (whose turn,
    Willpower once a turn); nothing is spent or drawn until the pull."""
    view = in_play(state, turn)
    cid = args["combatant"]
    require_action_kind(args.get("action"), turn.member)
    made = plan(view, args, cid)
    kept = {k: args[k] for k in PULL_ARGS if args.get(k) not in (None, "", False)}
    if not made.facts["attack"]:
        # only an attack says its kind (the form sends the attack select's choice with any pull)
        kept = {k: v for k, v in kept.items() if k not in ATTACK_ARGS}
    event = {"type": "pull_set_up", "combatant": cid, "args": kept, "pool": made.pool.to_dict(),
             "needed": made.needed, "automatic": made.automatic}
    if audiences.secret_pool(view, cid, made.target, made.target_parts):  # an NPC's figures: the GM's
        own = audiences.npc(view, cid)
        event.update(pool_words=audiences.pool_words(event["pool"], None if own else made.target_parts),
                     gm_figures=["pool", "automatic", *(["args"] if own else [])])
    return [event]


def put_away(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A pull set up and not made is put away: nothing was spent or drawn."""
    cid = args["combatant"]
    if cid not in state["prepared"]:
        raise RuleError(f"{name(in_play(state, turn), cid)} has no pull set up.")
    return [{"type": "pull_put_away", "combatant": cid}]
