"""Shadows of Humanity's forms: each command's arguments read from submitted form data.
Plain functions over ``games.forms.Form`` and ``Table``; the engine judges what the values
mean (and who may send them). The odds page is in ``odds_page``.

Forms post character ids (the platform's); commands carry combatant ids (``c<id>``) and,
where the engine needs a sheet (a check, an opposed action, a combat's start), the
character as the engine reads it: its sheet plus ``id``, ``name`` and ``owner``.
"""

from __future__ import annotations

from typing import Any

from games.contract import Character, Command, Parser, Sender, Table
from games.forms import YES, Form, flag, text, value, values, whole
from games.shadows.combat import FOCI
from games.shadows.criticals import parse_tables
from games.core.engine import RuleError
from games.shadows.weapons import parse_table

_MAX_TEXT = 200


def _whole(form: Form, key: str, default: int | None = None, what: str = "") -> int | None:
    found = whole(form, key, refuse=lambda raw: RuleError(f"{what or key.capitalize()} is a whole number."))
    return default if found is None else found


def _text(form: Form, key: str, limit: int = _MAX_TEXT) -> str:
    return text(form, key, max_length=limit, refuse=lambda key: RuleError(
        f"{key.capitalize()} is at most {limit} characters."))


def as_engine(character: Character) -> dict[str, Any]:
    """A character as the engine reads it: the sheet, its combatant id, name and player, and
    whether it is an NPC (whose sheet is the GM's: written back only when the fight ends)."""
    return {**character.combatant, "owner": character.owner, "npc": character.is_npc}


def _one(form: Form, table: Table, key: str = "character", what: str = "a character") -> Character:
    """The character a field names, by its platform id or its combatant id (``c<id>``: the
    panel's rows name combatants so)."""
    raw = value(form, key).strip()
    found = next((c for c in table.characters if c.cid == raw), None) if raw.startswith("c") else None
    found = found or table.character(raw or None)
    if found is None:
        raise RuleError(f"Choose {what}.")
    return found


def _cards(form: Form, key: str = "cards") -> list[str]:
    tokens = [v.strip() for v in values(form, key) if v.strip()]
    if len(tokens) > 30:
        raise RuleError("Too many cards.")
    return tokens


def _names(*people: Character) -> dict[str, str]:
    return {p.cid: p.name for p in people}


def check(form: Form, table: Table) -> dict[str, Any]:
    """The draw of an all-or-nothing action: one set up before (``prepared``: only one card or
    three, and the cards played from the hand), or the whole action at once."""
    me = _one(form, table, "combatant" if value(form, "combatant") else "character")
    if flag(form, "prepared"):
        args: dict[str, Any] = {"combatant": me.cid, "prepared": True,
                                "cards": _whole(form, "cards", 1, "The number of cards"),
                                "from_hand": _cards(form, "from_hand")}
        ap = _whole(form, "ap", None, "The AP")
        if ap is not None:
            args["ap"] = ap
        return args
    return prepare_check(form, table) | {"cards": _whole(form, "cards", 1, "The number of cards"),
                                         "from_hand": _cards(form, "from_hand")}


def prepare_check(form: Form, table: Table) -> dict[str, Any]:
    """An all-or-nothing action set up, so its player sees the odds of one card and of three."""
    me = _one(form, table)
    helpers = [c for c in table.chosen(values(form, "helpers")) if c.id != me.id]
    args: dict[str, Any] = {
        "combatant": me.cid, "character": as_engine(me), "skill": _text(form, "skill", 40),
        "attribute": _text(form, "attribute", 20), "complexity": _text(form, "complexity", 20) or "normal",
        "modifier": _whole(form, "modifier", 0, "The modifier"),
        "helpers": [as_engine(h) for h in helpers],
    }
    ap = _whole(form, "ap", None, "The AP")
    if ap is not None:
        args["ap"] = ap
    return args


def cancel_check(form: Form, table: Table) -> dict[str, Any]:
    return _fighter(form, table)


def approve_help(form: Form, table: Table) -> dict[str, Any]:
    me = _one(form, table)
    helpers = [table.character(raw) for raw in values(form, "helpers")]
    chosen = [h for h in helpers if h is not None and h.id != me.id]
    if not chosen:
        raise RuleError("Choose who helps.")
    return {"combatant": me.cid, "helpers": [h.cid for h in chosen], "names": _names(me, *chosen)}


def _sides(form: Form, table: Table) -> list[dict[str, Any]]:
    sides = []
    for tag in ("a", "b"):
        who = _one(form, table, f"character_{tag}", "both sides")
        sides.append({"character": as_engine(who), "skill": _text(form, f"skill_{tag}", 40),
                      "attribute": _text(form, f"attribute_{tag}", 20)})
    return sides


def opposed(form: Form, table: Table) -> dict[str, Any]:
    return {"sides": _sides(form, table)}


def contest_start(form: Form, table: Table) -> dict[str, Any]:
    args: dict[str, Any] = {"sides": _sides(form, table), "mode": _text(form, "mode", 10) or "draws",
                            "scoring": _text(form, "scoring", 10) or "wins", "label": _text(form, "label", 80)}
    for key in ("draws", "margin"):
        number = _whole(form, key)
        if number is not None:
            args[key] = number
    return args


def contest(form: Form, table: Table) -> dict[str, Any]:
    return {"contest": _text(form, "contest", 12)}


def counter(form: Form, table: Table) -> dict[str, Any]:
    me = _one(form, table, "character", "who counters")
    target = _one(form, table, "target", "whom they counter")
    args: dict[str, Any] = {"combatant": me.cid, "target": target.cid, "names": _names(me, target),
                            "suits": [s.strip().lower() for s in values(form, "suits") if s.strip()][:4]}
    ap = _whole(form, "ap", None, "The AP")
    if ap is not None:
        args["ap"] = ap
    return args


def guide(form: Form, table: Table) -> dict[str, Any]:
    return {"guide": _text(form, "guide", 12)}


def spend_arcana(form: Form, table: Table) -> dict[str, Any]:
    return {**_fighter(form, table), "card": _text(form, "card", 40),
            "reversed": flag(form, "reversed")}


def end_session(form: Form, table: Table) -> dict[str, Any]:
    """``keep_<character id>``: the one card that character carries into the next session."""
    keep = {c.cid: value(form, f"keep_{c.id}").strip()[:40] for c in table.characters}
    return {"keep": {cid: token for cid, token in keep.items() if token}}


def start_combat(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(values(form, "characters"))
    if not chosen:
        raise RuleError("Choose who is in the combat.")
    return {"combatants": [as_engine(c) for c in chosen]}


def add_combatant(form: Form, table: Table) -> dict[str, Any]:
    return {"character": as_engine(_one(form, table))}


def plain(form: Form, table: Table) -> dict[str, Any]:
    return {}


def _fighter(form: Form, table: Table) -> dict[str, Any]:
    """The combatant a combat form acts for: its ``combatant`` field, or ``character``."""
    key = "combatant" if value(form, "combatant") else "character"
    return {"combatant": _one(form, table, key).cid}


def declare_focus(form: Form, table: Table) -> dict[str, Any]:
    focus = _text(form, "focus", 20)
    if focus not in FOCI:
        raise RuleError("The focus is Physical, Mental or Spiritual.")
    return {**_fighter(form, table), "focus": focus}


def redeal(form: Form, table: Table) -> dict[str, Any]:
    return {**_fighter(form, table), "cards": _cards(form)}


def attack(form: Form, table: Table) -> dict[str, Any]:
    target = _one(form, table, "target", "whom to attack")
    args: dict[str, Any] = {
        **_fighter(form, table), "target": target.cid, "weapon": _text(form, "weapon", 40),
        "cards": _cards(form), "skill": _text(form, "skill", 40),
        "accuracy": flag(form, "accuracy"),
        "modifier": _whole(form, "modifier", 0, "The modifier"),
    }
    ap = _whole(form, "ap", None, "The AP")
    if ap is not None:
        args["ap"] = ap
    return args


def aim(form: Form, table: Table) -> dict[str, Any]:
    target = _one(form, table, "target", "whom to attack")
    args: dict[str, Any] = {**_fighter(form, table), "target": target.cid, "weapon": _text(form, "weapon", 40),
                            "skill": _text(form, "skill", 40),
                            "accuracy": flag(form, "accuracy")}
    ap = _whole(form, "ap", None, "The AP")
    if ap is not None:
        args["ap"] = ap
    return args


def set_cover(form: Form, table: Table) -> dict[str, Any]:
    return {"cover": _whole(form, "cover", 0, "Cover"), "movement": _whole(form, "movement", 0, "Movement")}


def defend(form: Form, table: Table) -> dict[str, Any]:
    """The defender is the pending attack's target; a form may name them too."""
    raw = value(form, "character")
    if raw:
        cid = _one(form, table).cid
    else:
        pending = ((table.state or {}).get("combat") or {}).get("pending") or {}
        cid = str(pending.get("target") or "")
        if not cid:
            raise RuleError("No attack is waiting for a defence.")
    return {"combatant": cid, "cards": _cards(form)}


def announce_critical(form: Form, table: Table) -> dict[str, Any]:
    return {"critical": _text(form, "critical", 12), "text": _text(form, "text", 300)}


def set_weapons(form: Form, table: Table) -> dict[str, Any]:
    return {"weapons": parse_table(value(form, "table"))}


def set_criticals(form: Form, table: Table) -> dict[str, Any]:
    return {"tables": parse_tables(value(form, "table"))}


def adjust(form: Form, table: Table) -> dict[str, Any]:
    field = _text(form, "field", 20)
    raw = value(form, "value").strip()
    parsed: Any = raw.lower() in YES if field == "in_fight" else _whole(form, "value", 0, "The value")
    return {**_fighter(form, table), "field": field, "value": parsed}


def _command(name: str, label: str, parse: Parser = plain, *, sender: Sender = "gm") -> Command:
    return Command(name=name, label=label, parse=parse, sender=sender)


# Every command of the engine (procedure.COMMANDS), each reachable from the web. A label reads
# both after "Only the GM can ..." (a refusal) and as "Gemma's ..." when the rules move cards
# ("For Gemma's deal, 5 cards come off Minor Arcana"), so the cards' commands have labels that
# are verb and noun at once. "controller"
# commands name the character in ``combatant``: the platform lets only its player (or the
# GM) send them; the engine checks again, and checks hands and AP.
COMMANDS: tuple[Command, ...] = (
    _command("prepare_check", "Get ready to draw for an action", prepare_check, sender="controller"),
    _command("cancel_check", "Not draw after all", cancel_check, sender="controller"),
    _command("check", "Draw", check, sender="controller"),
    _command("approve_help", "Approve assistance", approve_help),
    _command("opposed", "Draw for an opposed action", opposed),
    _command("counter", "Accept a counter", counter),
    _command("contest_start", "Start a multi-draw action", contest_start),
    _command("contest_draw", "Draw for a multi-draw action", contest),
    _command("contest_end", "End a multi-draw action", contest),
    _command("draw_guide", "Draw for a fumble's guide", guide),
    _command("show_guide", "Show a fumble's guide", guide),
    _command("return_guide", "Put a fumble's guide back", guide),
    _command("spend_arcana", "Spend a Major Arcana", spend_arcana, sender="controller"),
    _command("end_session", "End the session", end_session),
    _command("start_combat", "Start a combat", start_combat),
    _command("add_combatant", "Add someone to the combat", add_combatant),
    _command("new_round", "Reshuffle for the next round"),
    _command("declare_focus", "Declare a focus", declare_focus, sender="controller"),
    _command("deal", "Deal"),
    _command("redeal", "Redeal", redeal, sender="controller"),
    _command("aim", "Take aim", aim, sender="controller"),
    _command("attack", "Attack", attack, sender="controller"),
    _command("end_turn", "Be done acting for now", _fighter, sender="controller"),
    _command("set_cover", "Set cover or movement", set_cover),
    _command("defend", "Defence", defend, sender="controller"),
    _command("announce_critical", "Announce a critical", announce_critical),
    _command("set_weapons", "Edit the weapon table", set_weapons),
    _command("set_criticals", "Edit the critical tables", set_criticals),
    _command("adjust", "Correct a combatant", adjust),
    _command("end_combat", "End the combat"),
)
