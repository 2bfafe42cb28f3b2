"""Report Card's forms: each command's arguments from submitted form data, and the odds page.

Pure Python: the platform hands over the form as plain data and the table as
``games.contract.Table``; a parser refuses with ``RuleError`` and the engine judges the rest.
A parser fills ``characters`` with the Report Cards of everyone the command involves, each
with ``player``, the member id of whoever plays it, so the engine can let only that person
make their character's choices, and ``deck``, the name of the character's own deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.contract import Character, Command, DeckSpec, Page, Parser, Sender, Table
from games.core.tarot import MAJOR_ARCANA
from games.forms import Form, flag, text, value, values
from games.report_card import odds
from games.report_card.chart import odds_chart, percent
from games.report_card.draws import deck_title
from games.report_card.errors import BadInput
from games.report_card.reading import percents
from games.report_card.rules import OUTCOME_LABELS, OUTCOMES, RANK_LABELS, RANKS, major_id, major_number

_TEXT = 120


def decks(character: Character) -> tuple[DeckSpec, ...]:
    """Each player character's own deck (issue 14: "each player character gets its own full
    78-card Tarot deck, created and shuffled (committed) when the character is made"), named
    after it. An NPC has none: the seed's checks are the players' ("the player draws")."""
    if character.is_npc:
        return ()
    return (DeckSpec(name=deck_title(character.name), kind="tarot"),)


def _person(character: Character) -> dict[str, Any]:
    if character.is_npc:
        raise BadInput(f"{character.name} is an NPC: in Report Card only the players' characters draw "
                       "for checks (the GM decides what an NPC does).")
    return {**character.sheet, "name": character.name, "player": character.owner,
            "deck": deck_title(character.name)}


def _people(chosen: Iterable[Character]) -> dict[str, dict[str, Any]]:
    return {c.cid: _person(c) for c in chosen}


def _one(form: Form, table: Table, key: str = "character", what: str = "a character") -> Character:
    """The character a form names: by its id (``character``, as a select sends it) or, for the
    panel's buttons on a check's part, by its combatant id (``combatant``, as the panel knows it)."""
    found = table.character(value(form, key) or None)
    if found is None and key == "character" and value(form, "combatant"):
        found = next((c for c in table.characters if c.cid == value(form, "combatant")), None)
    if found is None:
        raise BadInput(f"Choose {what}.")
    return found


def _text(form: Form, key: str) -> str:
    return text(form, key, max_length=_TEXT, refuse=lambda key: BadInput(
        f"{key.replace('_', ' ').capitalize()} is at most {_TEXT} characters."))


def _check_fields(form: Form) -> dict[str, Any]:
    return {"skill": _text(form, "skill"), "rank": _text(form, "rank"), "task": _text(form, "task"),
            "inconsequential": flag(form, "inconsequential"), "hold": flag(form, "hold"),
            "repeat": flag(form, "repeat")}


def call_check(form: Form, table: Table) -> dict[str, Any]:
    """One character's check; ``helper`` (a character id) adds "One Player Helps Another"."""
    main = _one(form, table)
    args = {**_check_fields(form), "combatant": main.cid, "bonus": flag(form, "bonus"),
            "penalty": flag(form, "penalty"), "grant": _text(form, "grant")}
    involved = [main]
    if value(form, "helper"):
        helper = _one(form, table, "helper", "who helps")
        involved.append(helper)
        args.update(helper=helper.cid, helper_skill=_text(form, "helper_skill"),
                    helper_rank=_text(form, "helper_rank"), helper_task=_text(form, "helper_task"))
    return {**args, "characters": _people(involved)}


def call_group(form: Form, table: Table) -> dict[str, Any]:
    chosen = table.chosen(values(form, "characters"))
    if len(chosen) < 2:
        raise BadInput("Choose at least two characters for a group check.")
    return {**_check_fields(form), "mode": _text(form, "mode"), "combatants": [c.cid for c in chosen],
            "bonus": [c.cid for c in table.chosen(values(form, "bonus"))],
            "penalty": [c.cid for c in table.chosen(values(form, "penalty"))],
            "characters": _people(chosen)}


def pick(form: Form, table: Table) -> dict[str, Any]:
    try:
        index = int(value(form, "index"))
    except ValueError:
        raise BadInput("Choose one of the two cards drawn.") from None
    return {"combatant": _one(form, table).cid, "index": index}


def for_character(form: Form, table: Table) -> dict[str, Any]:
    return {"combatant": _one(form, table).cid}


def retry(form: Form, table: Table) -> dict[str, Any]:
    """A retry reads the character's Corruption from its sheet as it is now."""
    character = _one(form, table)
    return {"combatant": character.cid, "characters": _people([character])}


def rechoose(form: Form, table: Table) -> dict[str, Any]:
    character = _one(form, table)
    return {"combatant": character.cid, "a_plus": _text(form, "a_plus"), "f_skill": _text(form, "f_skill"),
            "characters": _people([character])}


def hold(form: Form, table: Table) -> dict[str, Any]:
    return {"hold": flag(form, "hold")}


def allow_player_calls(form: Form, table: Table) -> dict[str, Any]:
    return {"allowed": flag(form, "allowed")}


def nothing(form: Form, table: Table) -> dict[str, Any]:
    return {}


def _command(name: str, label: str, parse: Parser, sender: Sender = "gm") -> Command:
    return Command(name=name, label=label, parse=parse, sender=sender)


# Every command of the engine (procedure.COMMANDS). "controller" commands name the character
# in ``combatant``; the engine then decides who among its player and the GM may act.
COMMANDS: tuple[Command, ...] = (
    _command("call_check", "Call a check", call_check, "controller"),
    _command("call_group", "Call a group check", call_group),
    # the label ends the log's line for the cards it draws: "For Ann's draw, 1 card comes off ..."
    _command("draw", "Draw", for_character, "controller"),
    _command("pick", "Choose a card", pick, "controller"),
    _command("retry", "Retry", retry, "controller"),
    _command("accept", "Let the failure stand", for_character, "controller"),
    _command("rechoose", "Choose a new A+ and F", rechoose, "controller"),
    _command("hold", "Hold the rank on a retry", hold),
    _command("close", "Close the check", nothing),
    _command("new_day", "Start a new Day", nothing),
    _command("allow_player_calls", "Let players call checks", allow_player_calls),
)


def odds_left(cards: Iterable[str], rank: str, *, major: int | None = None, bonus: bool = False,
              penalty: bool = False, discard: Iterable[str] = ()) -> dict[str, int] | None:
    """Whole percents before the draw, from the cards left in a character's deck (the draw
    pile, then ``discard`` should it run out); None when the deck cannot give the check."""
    try:
        chances = odds.from_cards(cards, rank, own_major=None if major is None else major_id(major),
                                  bonus=bonus, penalty=penalty, discard=discard)
    except odds.NotEnoughCards:
        return None
    return percents(chances)


# The odds page: every rank from a fresh deck, plain, with Bonus and with Penalty.


def odds_context(query: Form) -> dict[str, Any]:
    """``?major=<0-21>`` counts that card as the character's own; ``?edge=bonus|penalty``
    picks the chart. Never refuses: a value it cannot read is left out."""
    try:
        major = major_number(value(query, "major"))
    except BadInput:
        major = None
    own = None if major is None else major_id(major)
    edge = value(query, "edge") if value(query, "edge") in ("bonus", "penalty") else ""
    rows = []
    for rank in RANKS:
        row: dict[str, Any] = {"rank": RANK_LABELS[rank]}
        for key, flags in (("plain", {}), ("bonus", {"bonus": True}), ("penalty", {"penalty": True})):
            chances = odds.check(rank, own_major=own, **flags)
            row[key] = {kind: percent(getattr(chances, kind)) for kind in OUTCOMES}
        rows.append(row)
    return {"rows": rows, "outcomes": [(k, OUTCOME_LABELS[k].capitalize()) for k in OUTCOMES],
            "majors": [(t.number, f"{t.number} {t.name}") for t in MAJOR_ARCANA], "major": major, "edge": edge,
            "chart": odds_chart(own_major=own, bonus=edge == "bonus", penalty=edge == "penalty")}


ODDS = Page(slug="odds", title="Report Card odds", template="games/report_card/odds.html", context=odds_context)
