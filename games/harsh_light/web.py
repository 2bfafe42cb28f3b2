"""Harsh Light's forms: each command's arguments read from submitted form data, and the odds
page's figures. Plain functions over ``games.forms.Form`` and ``Table``; a value no rule
could use is refused with a ``RuleError`` fit to show. The engine judges what the values mean.

Every command carries ``sheets``: the table's characters as their sheets stand now, so the
engine reads a changed sheet (a Willpower point restored, a Skill raised) before it pulls.
"""

from __future__ import annotations

from typing import Any

from games.contract import Character, Command, Page, Parser, Sender, Table
from games.forms import Form, flag, text, value, values, whole
from games.harsh_light import odds
from games.harsh_light.errors import RuleError

_MAX_TEXT = 80


def _sheets(table: Table) -> dict[str, dict[str, Any]]:
    """Each character's sheet, name, and whether it is an NPC (whose figures are the GM's)."""
    return {c.cid: {**c.combatant, "npc": c.is_npc} for c in table.characters}


def _text(form: Form, key: str) -> str:
    return text(form, key, max_length=_MAX_TEXT, refuse=lambda key: RuleError(
        f"{key.replace('_', ' ').capitalize()} is at most {_MAX_TEXT} characters."))


def _number(form: Form, key: str, what: str) -> int | None:
    return whole(form, key, refuse=lambda raw: RuleError(f"{what} is a whole number, not {raw[:20]!r}."))


def _character(table: Table, raw: str) -> Character | None:
    """The character a form names, by its id or by its combatant id (``c12``, as the panel's
    own buttons send it)."""
    return table.character(raw or None) or next((c for c in table.characters if raw and c.cid == raw), None)


def _cid(form: Form, table: Table, key: str = "combatant", *, required: bool = True) -> str | None:
    character = _character(table, value(form, key).strip())
    if character is None:
        if required:
            raise RuleError("Choose a character." if key == "combatant" else "Choose whose trait resists.")
        return None
    return character.cid


def _pool(form: Form, suffix: str = "") -> dict[str, Any]:
    return {"attribute": _text(form, f"attribute{suffix}"), "skill": _text(form, f"skill{suffix}") or None,
            "modifier": _number(form, f"modifier{suffix}", "A modifier") or 0,
            "reason": _text(form, f"reason{suffix}")}


def _args(table: Table, **args: Any) -> dict[str, Any]:
    return {k: v for k, v in args.items() if v is not None} | {"sheets": _sheets(table)}


def pull(form: Form, table: Table) -> dict[str, Any]:
    """The pull form: Attribute + Skill from the sheet, a modifier, Willpower, and to resist it
    a target with its trait (Defence for an attack) or a number. With ``set_up`` the pull set up
    for the character is made (``no_pull``: its automatic success taken without a card)."""
    if flag(form, "set_up"):
        return _args(table, combatant=_cid(form, table), set_up=True, no_pull=flag(form, "no_pull"))
    return set_up_pull(form, table)


def set_up_pull(form: Form, table: Table) -> dict[str, Any]:
    """The same form as the pull: the pool is shown, with its odds, before the card."""
    target = _cid(form, table, "target", required=False)
    resist = _text(form, "resist") or None
    return _args(
        table, combatant=_cid(form, table), **_pool(form),
        needed=_number(form, "needed", "The successes needed"), action=_text(form, "action") or None,
        willpower=flag(form, "willpower"), again=_number(form, "again", "Again"),
        no_pull=flag(form, "no_pull"), target=target, resist=resist if target else None,
        resist_value=_number(form, "resist_value", "The resisting number") if not target else None,
        attack=_text(form, "attack") or None, all_out=flag(form, "all_out"),
        supernatural=flag(form, "supernatural"), label=_text(form, "label") or None,
        weapon=_text(form, "weapon") or None, damage_bonus=_number(form, "damage_bonus", "A damage bonus"),
        damage=_text(form, "damage") or None,
    )


def combatant(form: Form, table: Table) -> dict[str, Any]:
    return _args(table, combatant=_cid(form, table))


def willpower(form: Form, table: Table) -> dict[str, Any]:
    return _args(table, combatant=_cid(form, table), use=_text(form, "use") or "resist",
                 note=_text(form, "note") or None)


def end_turn(form: Form, table: Table) -> dict[str, Any]:
    """Whose action ends: the one named, or else whoever is acting (so the platform checks
    that the sender plays that character)."""
    named = _cid(form, table, required=False)
    acting = (table.state or {}).get("acting")
    return _args(table, combatant=named or acting)


def set_order(form: Form, table: Table) -> dict[str, Any]:
    """The characters in the order the Storyteller listed them (``order``, repeated)."""
    order: list[str] = []
    for raw in values(form, "order"):
        character = _character(table, raw.strip())
        if character is not None and character.cid not in order:
            order.append(character.cid)
    if not order:
        raise RuleError("Choose the characters in the fight, in their order.")
    return _args(table, order=order)


def roll_initiative(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(values(form, "characters"))
    if not chosen:
        raise RuleError("Choose the characters in the fight.")
    return _args(table, characters=[c.cid for c in chosen])


def harm(form: Form, table: Table) -> dict[str, Any]:
    """The Storyteller's harm: whom, how many boxes, of which kind, and why."""
    return _args(table, combatant=_cid(form, table), points=_number(form, "points", "The boxes of damage"),
                 kind=_text(form, "kind") or None, reason=_text(form, "reason") or None)


def heal(form: Form, table: Table) -> dict[str, Any]:
    """The Storyteller's healing: whom, how many boxes, and of which kind (blank: least severe first)."""
    return _args(table, combatant=_cid(form, table), points=_number(form, "points", "The boxes to heal"),
                 kind=_text(form, "kind") or None)


def plain(form: Form, table: Table) -> dict[str, Any]:
    return _args(table)


def extended_start(form: Form, table: Table) -> dict[str, Any]:
    return _args(table, combatant=_cid(form, table), **_pool(form),
                 needed=_number(form, "needed", "The successes needed"),
                 unit=_text(form, "unit") or None, label=_text(form, "label") or None)


def _running(table: Table, kind: str, raw: str) -> dict[str, Any]:
    found = ((table.state or {}).get(kind) or {}).get(raw)
    if found is None:
        raise RuleError("There is no such " + ("extended action." if kind == "extended" else "contest."))
    return dict(found)


def extended_pull(form: Form, table: Table) -> dict[str, Any]:
    """The extended action's own character pulls (so the platform checks who sends it)."""
    action = _running(table, "extended", value(form, "extended"))
    return _args(table, extended=action["id"], combatant=action["combatant"], willpower=flag(form, "willpower"),
                 modifier=_number(form, "modifier", "A modifier"), reason=_text(form, "reason") or None,
                 no_pull=flag(form, "no_pull"), again=_number(form, "again", "Again"))


def extended_stop(form: Form, table: Table) -> dict[str, Any]:
    return _args(table, extended=_running(table, "extended", value(form, "extended"))["id"])


def contest_start(form: Form, table: Table) -> dict[str, Any]:
    """Two sides: ``combatant_a`` with ``attribute_a``, ``skill_a``, ``modifier_a`` and the
    same with ``_b``; ``needed`` (blank or 0 for a plain contest)."""
    sides = [{"combatant": _cid(form, table, f"combatant_{s}"), **_pool(form, f"_{s}")} for s in ("a", "b")]
    return _args(table, sides=sides, needed=_number(form, "needed", "The successes to reach"),
                 unit=_text(form, "unit") or None, label=_text(form, "label") or None,
                 supernatural=flag(form, "supernatural"))


def contest_pull(form: Form, table: Table) -> dict[str, Any]:
    contest = _running(table, "contests", value(form, "contest"))
    return _args(table, contest=contest["id"], combatant=_cid(form, table), willpower=flag(form, "willpower"),
                 no_pull=flag(form, "no_pull"), again=_number(form, "again", "Again"))


def contest_stop(form: Form, table: Table) -> dict[str, Any]:
    return _args(table, contest=_running(table, "contests", value(form, "contest"))["id"])


def _command(name: str, label: str, parse: Parser, sender: Sender = "gm") -> Command:
    return Command(name=name, label=label, parse=parse, sender=sender)


# Every command of the engine (procedure.COMMANDS), each reachable from the web.
COMMANDS: tuple[Command, ...] = (
    _command("set_up_pull", "Set up a pull", set_up_pull, "controller"),
    _command("pull", "Pull", pull, "controller"),
    _command("put_away", "Put the pull away", combatant, "controller"),
    _command("count_deck", "Count the Harsh Light deck", plain),
    _command("willpower", "Spend Willpower", willpower, "controller"),
    _command("dodge", "Dodge", combatant, "controller"),
    _command("move", "Move", combatant, "controller"),
    _command("end_turn", "End the action", end_turn, "controller"),
    _command("set_order", "Set the turn order", set_order),
    _command("roll_initiative", "Pull for initiative", roll_initiative),
    _command("end_combat", "End the fight", plain),
    _command("extended_start", "Start an extended action", extended_start),
    _command("extended_pull", "Pull for the extended action", extended_pull, "controller"),
    _command("extended_stop", "Stop the extended action", extended_stop),
    _command("contest_start", "Call a contest", contest_start),
    _command("contest_pull", "Pull in the contest", contest_pull, "controller"),
    _command("contest_stop", "Stop the contest", contest_stop),
    _command("harm", "Deal harm", harm),
    _command("heal", "Heal", heal),
)


# The odds page: pools -3 to 15 on a fresh deck, 10-, 9- and 8-again.


def odds_context(query: Form) -> dict[str, Any]:
    """Never refuses: a bad ``again`` in the query shows 10-again."""
    try:
        again = int(value(query, "again", "10"))
    except ValueError:
        again = 10
    if again not in odds.CHART_AGAINS:
        again = 10
    chart = odds.chart()
    return {"again": again, "agains": list(odds.CHART_AGAINS), "chart": chart,
            "rows": next(t["rows"] for t in chart["tables"] if t["again"] == again),
            "pools": list(odds.CHART_POOLS)}


ODDS = Page(slug="odds", title="Harsh Light odds", template="games/harsh_light/odds.html", context=odds_context)
