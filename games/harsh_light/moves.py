"""Harsh Light's move table (``MOVES``) and its parsers: each move's arguments read from the
submitted form, the one reading of what was sent. A value no rule could use is refused here with a
``RuleError`` fit to show (a number out of its range, a trait or a kind that is none, a text too
long); the handlers judge what the values mean, against the state and the sheets under the lock.
A parser reads the form and the table's characters only: whose turn it is, or which character a
running action is for, is the handler's to read.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from games.contract import Character, Table
from games.core.engine import Move, RuleError
from games.core.fights import side_move
from games.forms import Form, flag, text, value, values, whole
from games.harsh_light import extended, fight, health, pools, pulls
from games.harsh_light.harm import MAX_BONUS
from games.harsh_light.resist import ATTACKS, MAX_RESIST, RESIST_TRAITS
from games.harsh_light.rules import AGAIN_VALUES

MAX_TEXT, MAX_REASON, MAX_ID = 80, 60, 20  # a reason is a pool's part: it is shown in the pool's line
Args = dict[str, Any]


def _text(form: Form, key: str, most: int = MAX_TEXT) -> str | None:
    return text(form, key, max_length=most, refuse=lambda key: RuleError(
        f"{key.replace('_', ' ').capitalize()} is at most {most} characters.")) or None


def _number(form: Form, key: str, what: str, low: int, high: int) -> int | None:
    number = whole(form, key, refuse=lambda raw: RuleError(f"{what} is a whole number, not {raw[:20]!r}."))
    if number is not None and not low <= number <= high:
        raise RuleError(f"{what} is from {low} to {high}.")
    return number


def _one_of(form: Form, key: str, allowed: Collection[Any], refusal: str) -> str | None:
    found = _text(form, key)
    if found is not None and found not in allowed:
        raise RuleError(refusal)
    return found


def _character(table: Table, raw: str) -> Character | None:
    """The character a form names, by its id or by its combatant id (``c12``, as the panel's
    own buttons send it)."""
    return table.character(raw or None) or next((c for c in table.characters if raw and c.cid == raw), None)


def _cid(form: Form, table: Table, key: str = "combatant", missing: str = "Choose a character.") -> str:
    character = _character(table, value(form, key).strip())
    if character is None:
        raise RuleError(missing)
    return character.cid


def _named(form: Form, table: Table, key: str = "combatant", missing: str = "Choose a character.") -> str | None:
    """A character the form may leave out (None); one it names must be at the table."""
    return _cid(form, table, key, missing) if value(form, key).strip() else None


def _pool(form: Form, suffix: str = "") -> Args:
    """A pool as a form gives it: Attribute + Skill (or a second Attribute), a modifier and its reason."""
    modifier = whole(form, f"modifier{suffix}",
                     refuse=lambda raw: RuleError(f"A modifier is a whole number, not {raw[:20]!r}."))
    pool = {"attribute": _text(form, f"attribute{suffix}") or "", "skill": _text(form, f"skill{suffix}"),
            "modifier": modifier or 0, "reason": _text(form, f"reason{suffix}", MAX_REASON)}
    pools.check(pool["attribute"], pool["skill"], pool["modifier"])  # the pool's own bounds, worded there
    return pool


def _again(form: Form) -> int | None:
    again = whole(form, "again", refuse=lambda raw: RuleError("Again is 10, 9 or 8."))
    if again is not None and again not in AGAIN_VALUES:
        raise RuleError("Again is 10, 9 or 8.")
    return again


def _args(**args: Any) -> Args:
    return {k: v for k, v in args.items() if v is not None}


def pull(form: Form, table: Table) -> Args:
    """The pull form: Attribute + Skill from the sheet, a modifier, Willpower, and to resist it
    a target with its trait (Defence for an attack) or a number. With ``set_up`` the pull set up
    for the character is made (``no_pull``: its automatic success taken without a card)."""
    if flag(form, "set_up"):
        return {"combatant": _cid(form, table), "set_up": True, "no_pull": flag(form, "no_pull")}
    return set_up_pull(form, table)


def set_up_pull(form: Form, table: Table) -> Args:
    """The same form as the pull: the pool is shown, with its odds, before the card."""
    cid = _cid(form, table)
    target = _named(form, table, "target", "That target is not a character at this table.")
    resist = None
    if target is not None:
        resist = _one_of(form, "resist", RESIST_TRAITS, "A pull is resisted by Defence, Resolve, Stamina or Composure.")
        if resist is None:
            raise RuleError("Say what resists: Defence, Resolve, Stamina or Composure.")
    return _args(  # the pool read last: a malformed field is named before a missing Attribute
        combatant=cid, target=target, resist=resist,
        needed=_number(form, "needed", "The successes needed", 1, pulls.MAX_NEEDED),
        action=_one_of(form, "action", pulls.ACTIONS, "An action is instant, reflexive (the Storyteller's call), talking or resisting a power."),
        willpower=flag(form, "willpower"), again=_again(form), no_pull=flag(form, "no_pull"),
        resist_value=None if target else _number(form, "resist_value", "The resisting number", 0, MAX_RESIST),
        attack=_one_of(form, "attack", ATTACKS, "An attack is in melee, thrown, ranged, or ranged within arm's reach."),
        all_out=flag(form, "all_out"), supernatural=flag(form, "supernatural"), label=_text(form, "label"),
        weapon=_text(form, "weapon"), damage_bonus=_number(form, "damage_bonus", "A damage bonus", 0, MAX_BONUS),
        damage=_one_of(form, "damage", health.KINDS, "Damage is bashing, lethal or aggravated."), **_pool(form),
    )


def combatant(form: Form, table: Table) -> Args:
    return {"combatant": _cid(form, table)}


def willpower(form: Form, table: Table) -> Args:
    use = _one_of(form, "use", fight.WILLPOWER_USES, "Willpower outside a pull is spent to resist or on a power.")
    return _args(combatant=_cid(form, table), note=_text(form, "note"), use=use)


def answer(form: Form, table: Table) -> Args:
    """The target's answer to a pull waiting for it: with ``willpower``, +2 against it."""
    return {"combatant": _cid(form, table), "willpower": flag(form, "willpower")}


def end_turn(form: Form, table: Table) -> Args:
    """Whose action ends: the one named (the core checks the sender plays it), or, from the
    Storyteller, whoever is acting (read by the handler, under the lock)."""
    return _args(combatant=_named(form, table))


def set_order(form: Form, table: Table) -> Args:
    """The characters in the order the Storyteller listed them (``order``, repeated)."""
    order: list[str] = []
    for raw in values(form, "order"):
        character = _character(table, raw.strip())
        if character is not None and character.cid not in order:
            order.append(character.cid)
    if not order:
        raise RuleError("Choose the characters in the fight, in their order.")
    return {"order": order}


def roll_initiative(form: Form, table: Table) -> Args:
    """The characters ticked, by id or combatant id, in the table's order."""
    raws = values(form, "characters")
    chosen = [c.cid for c in table.characters if c in table.chosen(raws) or c.cid in raws]
    if not chosen:
        raise RuleError("Choose the characters in the fight.")
    return {"characters": chosen}


def harm(form: Form, table: Table) -> Args:
    """The Storyteller's harm: whom, how many boxes, of which kind, and why."""
    return _args(combatant=_cid(form, table), reason=_text(form, "reason"),
                 points=_number(form, "points", "The boxes of damage", 1, health.MAX_WOUNDS),
                 kind=_one_of(form, "kind", health.KINDS, "Damage is bashing, lethal or aggravated."))


def heal(form: Form, table: Table) -> Args:
    """The Storyteller's healing: whom, how many boxes, and of which kind (blank: least severe first)."""
    return _args(combatant=_cid(form, table),
                 points=_number(form, "points", "The boxes to heal", 1, health.MAX_WOUNDS),
                 kind=_one_of(form, "kind", health.KINDS,
                              "Heal bashing, lethal or aggravated wounds, or the least severe first."))


def options(form: Form, table: Table) -> Args:
    """The Storyteller's table options: the untrained Skill penalty, on or off."""
    return {"untrained": flag(form, "untrained")}


def plain(form: Form, table: Table) -> Args:
    return {}


def extended_start(form: Form, table: Table) -> Args:
    """An extended action: its pool, successes needed and unit of time; the Storyteller's limit
    of pulls (blank: none) and whether a Dramatic Failure loses the successes gathered."""
    return _args(combatant=_cid(form, table), **_pool(form), unit=_text(form, "unit"), label=_text(form, "label"),
                 needed=_number(form, "needed", "The successes needed", 1, pulls.MAX_NEEDED),
                 limit=_number(form, "limit", "The limit of pulls", 1, pulls.MAX_NEEDED), lose=flag(form, "lose"))


def _running(form: Form, key: str) -> str:
    """A running action's id as sent: the handler finds it (or says there is no such one)."""
    return text(form, key, max_length=MAX_ID, refuse=lambda key: RuleError(
        "There is no such " + ("extended action." if key == "extended" else "contest.")))


def extended_pull(form: Form, table: Table) -> Args:
    """A pull for the extended action: a player names its character (so the core checks they
    play it); the Storyteller may leave it out."""
    return _args(extended=_running(form, "extended"), combatant=_named(form, table), willpower=flag(form, "willpower"),
                 modifier=_number(form, "modifier", "A modifier", -pools.MAX_MODIFIER, pools.MAX_MODIFIER),
                 reason=_text(form, "reason", MAX_REASON), no_pull=flag(form, "no_pull"), again=_again(form))


def extended_stop(form: Form, table: Table) -> Args:
    return {"extended": _running(form, "extended")}


def contest_start(form: Form, table: Table) -> Args:
    """Two sides: ``combatant_a`` with ``attribute_a``, ``skill_a``, ``modifier_a`` and the
    same with ``_b``; ``needed`` (blank or 0 for a plain contest)."""
    sides = [{"combatant": _cid(form, table, f"combatant_{s}", "A contest has two sides: choose both."),
              **_pool(form, f"_{s}")} for s in ("a", "b")]
    if sides[0]["combatant"] == sides[1]["combatant"]:
        raise RuleError("A character does not contest itself.")
    return _args(sides=sides, needed=_number(form, "needed", "The successes to reach", 0, pulls.MAX_NEEDED),
                 unit=_text(form, "unit"), label=_text(form, "label"), supernatural=flag(form, "supernatural"))


def contest_pull(form: Form, table: Table) -> Args:
    """A side's pull: Willpower, this pull's modifier and its reason, an automatic success, an again."""
    return _args(contest=_running(form, "contest"), combatant=_cid(form, table), willpower=flag(form, "willpower"),
                 modifier=_number(form, "modifier", "A modifier", -pools.MAX_MODIFIER, pools.MAX_MODIFIER),
                 reason=_text(form, "reason", MAX_REASON), no_pull=flag(form, "no_pull"), again=_again(form))


def contest_stop(form: Form, table: Table) -> Args:
    return {"contest": _running(form, "contest")}


def _move(name: str, label: str, parse: Any, handle: Any, player: bool = False) -> Move:
    """A move the Storyteller sends, or (``player``) the character's player, the ``combatant``."""
    return Move(name, label, parse, handle, sender="controller" if player else "gm",
                subject="combatant" if player else None)


MOVES: tuple[Move, ...] = (
    _move("set_up_pull", "Set up a pull", set_up_pull, pulls.set_up_pull, player=True),
    _move("pull", "Pull", pull, pulls.pull, player=True),
    _move("put_away", "Put the pull away", combatant, pulls.put_away, player=True),
    _move("willpower", "Spend Willpower", willpower, fight.willpower, player=True),
    _move("answer", "Answer the attack", answer, fight.answer, player=True),
    _move("dodge", "Dodge", combatant, fight.dodge, player=True),
    _move("move", "Move", combatant, fight.move, player=True),
    _move("end_turn", "End the action", end_turn, fight.end_turn, player=True),
    _move("set_order", "Set the turn order", set_order, fight.set_order),
    _move("roll_initiative", "Pull for initiative", roll_initiative, fight.roll_initiative),
    _move("end_combat", "End the fight", plain, fight.end_combat),
    side_move(),  # the Storyteller's: a character to another side (games/core/fights.py)
    _move("set_options", "Set the table's options", options, fight.set_options),
    _move("extended_start", "Start an extended action", extended_start, extended.extended_start),
    _move("extended_pull", "Pull for the extended action", extended_pull, extended.extended_pull, player=True),
    _move("extended_stop", "Stop the extended action", extended_stop, extended.extended_stop),
    _move("contest_start", "Call a contest", contest_start, extended.contest_start),
    _move("contest_pull", "Pull in the contest", contest_pull, extended.contest_pull, player=True),
    _move("contest_stop", "Stop the contest", contest_stop, extended.contest_stop),
    _move("harm", "Deal harm", harm, fight.harm_dealt),
    _move("heal", "Heal", heal, fight.healed),
)
