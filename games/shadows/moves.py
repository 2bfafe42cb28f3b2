"""Shadows of Humanity's moves: each move's parser, its handler and who may send it (``MOVES``).

A parser reads the submitted form, and only the form: it turns a submitted character (its id,
as a select sends it, or its combatant id ``c<id>``, as the panel's rows send it) into its
combatant id through ``table``, and it is the one validation of what was sent (a number, a
card, a choice among the rules' words, a text's length), refusing what is malformed with a
message fit to show. A handler (``checks``, ``contests``, ``arcana``, ``hands``, ``fight``)
takes those arguments as they are and judges what they mean under the table's lock: the
sheets as the table has them then, the hands, the moment.

A player's moves name their character in ``combatant``: the core lets only its player or the GM
send them; what the rules give one person beyond that the handlers check (``access``).
"""

from __future__ import annotations

from typing import Any

from games.contract import Table
from games.core.engine import Handler, Move, Parser, RuleError, players_move
from games.forms import YES, Form, flag, value, values
from games.shadows import arcana, campaign, checks, contests, criticals, deck, edges, fight, hands, weapons
from games.shadows.combat import FOCI
from games.shadows.fields import ap_spent, character, drawn_count, gm_modifier, hand_cards, number, subject, words
from games.shadows.profile import require_attribute
from games.shadows.resolution import complexity


def prepare_check(form: Form, table: Table) -> dict[str, Any]:
    """An all-or-nothing action set up, so its player sees the odds of one card and of three."""
    me = character(form, table)
    level = complexity(words(form, "complexity", 20) or "normal")
    return {"combatant": me.cid, "skill": words(form, "skill", 40),
            "attribute": require_attribute(words(form, "attribute", 20)), "complexity": level.key,
            "modifier": gm_modifier(form),
            "helpers": [c.cid for c in table.chosen(values(form, "helpers")) if c.id != me.id]}


def check(form: Form, table: Table) -> dict[str, Any]:
    """The draw of an all-or-nothing action: one set up before (``prepared``: only one card or
    three, and the cards played from the hand), or the whole action at once."""
    drawn = {"cards": drawn_count(form), "from_hand": hand_cards(form, "from_hand"), **ap_spent(form, 0)}
    if flag(form, "prepared"):
        return {**subject(form, table), "prepared": True, **drawn}
    return prepare_check(form, table) | drawn


def approve_help(form: Form, table: Table) -> dict[str, Any]:
    """Whom the GM lets help (the helpers in order), by platform id or combatant id (the
    request's button names them so)."""
    me = character(form, table)
    helpers = [character({"h": [raw]}, table, "h") for raw in values(form, "helpers") if raw.strip()]
    chosen = [h for h in helpers if h.id != me.id]
    if not chosen:
        raise RuleError("Choose who helps.")
    return {"combatant": me.cid, "helpers": list(dict.fromkeys(h.cid for h in chosen))}


def ask_help(form: Form, table: Table) -> dict[str, Any]:
    """A player asks the GM to let one or two others help their character's next check."""
    me = character(form, table, "combatant" if value(form, "combatant") else "character")
    helpers = [character({"h": [raw]}, table, "h", "who helps") for raw in values(form, "helpers") if raw.strip()]
    cids = list(dict.fromkeys(h.cid for h in helpers))
    if not cids or me.cid in cids or len(cids) > 2:
        raise RuleError("Ask one or two others to help (a second and a third character), not yourself.")
    return {"combatant": me.cid, "helpers": cids}


def _sides(form: Form, table: Table, tags: str = "ab") -> list[dict[str, Any]]:
    """The sides ``character_<tag>`` names: the first two always, the others (c, d...) when
    chosen; each character once."""
    sides = [{"character": character(form, table, f"character_{tag}", "both sides").cid,
              "skill": words(form, f"skill_{tag}", 40),
              "attribute": require_attribute(words(form, f"attribute_{tag}", 20))}
             for i, tag in enumerate(tags) if i < 2 or value(form, f"character_{tag}").strip()]
    if len({s["character"] for s in sides}) != len(sides):
        raise RuleError("A character cannot oppose themself: each side is someone else.")
    return sides


def opposed(form: Form, table: Table) -> dict[str, Any]:
    """Two sides or more (seed: "two or more people trying to argue a point"), up to six."""
    return {"sides": _sides(form, table, "abcdef"), **ap_spent(form, 1)}


def contest_start(form: Form, table: Table) -> dict[str, Any]:
    """A multi-draw action: a number of ``draws`` (counting draws won or points), or until a
    ``margin`` is reached (the GM's secret)."""
    args: dict[str, Any] = {"sides": _sides(form, table), "mode": words(form, "mode", 10) or "draws",
                            "scoring": words(form, "scoring", 10) or "wins", "label": words(form, "label", 80)}
    if args["mode"] == "draws":
        args["draws"] = number(form, "draws", 3, "The number of draws", (1, 50))
    elif args["mode"] == "margin":
        args["margin"] = number(form, "margin", 10, "The margin", (1, 500))
    else:
        raise RuleError("A multi-draw action runs a number of draws, or until a margin is reached.")
    if args["scoring"] not in ("wins", "points"):
        raise RuleError("Count draws won (wins) or points.")
    return args


def contest(form: Form, table: Table) -> dict[str, Any]:
    return {"contest": words(form, "contest", 12), **ap_spent(form, 1)}


def counter(form: Form, table: Table) -> dict[str, Any]:
    me = character(form, table, "character", "who counters")
    target = character(form, table, "target", "whom they counter")
    if me.id == target.id:
        raise RuleError("A counter needs who counters and whom.")
    suits = [s.strip().lower() for s in values(form, "suits") if s.strip()]
    if not suits or any(s not in deck.SUITS for s in suits):
        raise RuleError("Name the suits that are appropriate: cups, pentacles, swords or wands.")
    return {"combatant": me.cid, "target": target.cid, "suits": suits, **ap_spent(form, 1)}


def guide(form: Form, table: Table) -> dict[str, Any]:
    return {"guide": words(form, "guide", 12)}


def spend_arcana(form: Form, table: Table) -> dict[str, Any]:
    return {**subject(form, table), "card": words(form, "card", 40), "reversed": flag(form, "reversed")}


def judge_spend(form: Form, table: Table) -> dict[str, Any]:
    return {"spend": words(form, "spend", 12), "approve": value(form, "verdict").strip().lower() == "approve"}


def start_combat(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(values(form, "characters"))
    if not chosen:
        raise RuleError("Choose who is in the combat.")
    return {"combatants": [c.cid for c in chosen]}


def add_combatant(form: Form, table: Table) -> dict[str, Any]:
    return {"character": character(form, table).cid}


def plain(form: Form, table: Table) -> dict[str, Any]:
    return {}


def declare_focus(form: Form, table: Table) -> dict[str, Any]:
    focus = words(form, "focus", 20)
    if focus not in FOCI:
        raise RuleError("The focus is Physical, Mental or Spiritual.")
    return {**subject(form, table), "focus": focus}


def redeal(form: Form, table: Table) -> dict[str, Any]:
    return {**subject(form, table), "cards": hand_cards(form)}


def aim(form: Form, table: Table) -> dict[str, Any]:
    target = character(form, table, "target", "whom to attack")
    return {**subject(form, table), "target": target.cid, "weapon": words(form, "weapon", 40),
            "skill": words(form, "skill", 40), "accuracy": flag(form, "accuracy"), **ap_spent(form, 1)}


def attack(form: Form, table: Table) -> dict[str, Any]:
    return {**aim(form, table), "cards": hand_cards(form), "modifier": gm_modifier(form)}


def set_cover(form: Form, table: Table) -> dict[str, Any]:
    return {"cover": number(form, "cover", 0, "Cover"), "movement": number(form, "movement", 0, "Movement")}


def defend(form: Form, table: Table) -> dict[str, Any]:
    """The cards of a dodge or parry; the defender, when the form names it (``combatant`` or
    ``character``): else the handler takes the waiting attack's target, under the lock."""
    named = subject(form, table) if value(form, "combatant") or value(form, "character") else {}
    return {**named, "cards": hand_cards(form)}


def announce_critical(form: Form, table: Table) -> dict[str, Any]:
    return {"critical": words(form, "critical", 12), "text": words(form, "text", 300)}


def set_weapons(form: Form, table: Table) -> dict[str, Any]:
    return {"weapons": weapons.parse_table(value(form, "table"))}


def set_criticals(form: Form, table: Table) -> dict[str, Any]:
    return {"tables": criticals.parse_tables(value(form, "table"))}


def adjust(form: Form, table: Table) -> dict[str, Any]:
    field = words(form, "field", 20)
    if field not in fight.ADJUSTABLE:
        raise RuleError("Correct AP, Health, Life, Æssence or in the fight.")
    found: Any = (value(form, "value").strip().lower() in YES if field == "in_fight"
                  else number(form, "value", 0, "The value"))
    return {**subject(form, table), "field": field, "value": found}


# Every move, each reachable from the page, by who may send it: name -> (label, parser, handler).
# A label reads both after "Only the GM can ..." (a refusal) and as "Gemma's ..." when the rules
# move cards ("For Gemma's deal, 5 cards come off Minor Arcana"), so the cards' moves have labels
# that are verb and noun at once.
_PLAYERS: dict[str, tuple[str, Parser, Handler]] = {  # for the character named in ``combatant``
    "prepare_check": ("Get ready to draw for an action", prepare_check, checks.prepare_check),
    "cancel_check": ("Not draw after all", subject, checks.cancel_check),
    "check": ("Draw", check, checks.check),
    "ask_help": ("Ask for help", ask_help, checks.ask_help),
    "spend_arcana": ("Spend a Major Arcana", spend_arcana, arcana.spend_arcana),
    "declare_focus": ("Declare a focus", declare_focus, hands.declare_focus),
    "redeal": ("Redeal", redeal, hands.redeal),
    "aim": ("Take aim", aim, edges.not_when_over(fight.aim, "take aim")),
    "attack": ("Attack", attack, edges.not_when_over(fight.attack, "attack")),
    "end_turn": ("Be done acting for now", subject, fight.end_turn),
    "defend": ("Defence", defend, fight.defend),
}
_GMS: dict[str, tuple[str, Parser, Handler]] = {
    "approve_help": ("Approve assistance", approve_help, checks.approve_help),
    "refuse_help": ("Refuse assistance", subject, checks.refuse_help),
    "opposed": ("Draw for an opposed action", opposed, contests.opposed),
    "counter": ("Accept a counter", counter, edges.not_at_the_out(contests.counter, "target", "be countered")),
    "contest_start": ("Start a multi-draw action", contest_start, contests.contest_start),
    "contest_draw": ("Draw for a multi-draw action", contest, contests.contest_draw),
    "contest_end": ("End a multi-draw action", contest, contests.contest_end),
    "draw_guide": ("Draw for a fumble's guide", guide, arcana.draw_guide),
    "show_guide": ("Show a fumble's guide", guide, arcana.show_guide),
    "return_guide": ("Put a fumble's guide back", guide, arcana.return_guide),
    "judge_spend": ("Approve or refuse a fate card", judge_spend, arcana.judge_spend),
    "start_combat": ("Start a combat", start_combat, fight.start_combat),
    "add_combatant": ("Add someone to the combat", add_combatant, fight.add_combatant),
    "new_round": ("Reshuffle for the next round", plain, edges.not_when_over(hands.new_round, "start a new round")),
    "deal": ("Deal", plain, edges.not_when_over(hands.deal, "deal the hands")),
    "set_cover": ("Set cover or movement", set_cover, fight.set_cover),
    "announce_critical": ("Announce a critical", announce_critical, fight.announce_critical),
    "set_weapons": ("Edit the weapon table", set_weapons, weapons.set_weapons),
    "set_criticals": ("Edit the critical tables", set_criticals, criticals.set_criticals),
    "adjust": ("Correct a character", adjust, campaign.correct),  # in a fight or out of one
    "raise": ("Raise a fallen character", campaign.parse_raise, campaign.raise_fallen),
    "end_combat": ("End the combat", plain, fight.end_combat),
    "set_side": ("Move to a side", edges.SIDE_MOVE.parse, edges.set_side),
}
MOVES: tuple[Move, ...] = (
    *(players_move(name, *row, subject="combatant") for name, row in _PLAYERS.items()),
    *(Move(name, *row) for name, row in _GMS.items()),
)
