"""One move's events, folded as they are made, so a later step sees an earlier one; the draw
itself (through the cards port, from the character's own deck), what follows it without anyone
choosing (closing a settled check), and the cards the rules are done with, which go to their
deck's discard pile (``draws.LANDS``); each event that puts cards there lists them
(``discarded``).

A character's deck is found by the name the character has now (``draws.deck_title``): a
character renamed since its check was called has its deck renamed with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import RuleError, Turn
from games.report_card.draws import deck_title, draw_attempt, on_the_table, set_aside, taker, tokens_of
from games.report_card.events import folded
from games.report_card.rules import card_of
from games.report_card.state import edge, help_given, last, lasting, next_rank, verdict

Event = dict[str, Any]


def table_cards(turn: Turn) -> Cards:
    """The table's decks, which every draw and discard goes through."""
    if turn.cards is None:
        raise RuleError("This check needs the table's decks.")
    return turn.cards


class Step:
    """The events of one move, folded as they are made, so a later step sees an earlier."""

    def __init__(self, state: Mapping[str, Any], turn: Turn) -> None:
        self.state: Mapping[str, Any] = state
        self.turn = turn
        self.cards = table_cards(turn)
        self.events: list[Event] = []

    def deck(self, part: Mapping[str, Any]) -> str:
        """The part's deck, by the name its character has now (the one its check recorded, if
        the character has left the table)."""
        character = self.turn.character(part["cid"])
        return deck_title(character.name) if character is not None else part["deck"]

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = folded(self.state, event)

    def draw(self, index: int, *, retry: bool = False) -> None:
        """Part ``index`` draws: its top card(s), face up; the event records every token."""
        check = self.state["check"]
        part = check["parts"][index]
        rank = next_rank(check, part)
        deck = self.deck(part)
        event: Event = {"type": "drawn", "check": check["id"], "part": index, "cid": part["cid"],
                        "deck": deck, "retry": retry}
        given = help_given(check, part) if not part["attempts"] else None
        if given is not None:
            event["help"] = given
            part = {**part, "help": given}
        replaced = on_the_table(last(part)) if retry else []
        # A lasting condition's Bonus or Penalty (a Splinted Leg) holds on every check its
        # character draws for, read as the card comes off; the event names it for the line.
        lasts = lasting(self.state, part["cid"])
        if any(lasts.values()):
            event["lasting"] = {key: names for key, names in lasts.items() if names}
        # Reading: a retry is the same check one step easier, so its Bonus or Penalty (the
        # circumstance, or the help given) still holds.
        event["attempt"] = draw_attempt(taker(self.cards, deck), rank, part["major"], edge(part, lasts))
        # the card the retry replaces goes once the new one is down: the odds shown before the
        # retry counted it face up, as it was. A card the new attempt holds is not discarded:
        # after a step taken back (``campaign``) the card replaced may already lie on the
        # discard, be shuffled back in and come off again.
        drew = {card_of(t).card.id for t in tokens_of(event["attempt"])}
        replaced = [t for t in replaced if card_of(t).card.id not in drew]
        if self.discard(part, replaced):
            event["discarded"] = replaced
        self.emit(event)

    def discard(self, part: Mapping[str, Any], tokens: list[str]) -> list[str]:
        """These cards of the part's deck, done with, onto its discard pile face up."""
        if tokens:
            self.cards.discard(self.deck(part), [card_of(t).card.id for t in tokens])
        return tokens

    def pick(self, event: Event) -> None:
        """A Bonus's or Penalty's choice: the card not kept is done with (the panel still shows
        it set aside, from the events)."""
        part = self.state["check"]["parts"][event["part"]]
        attempt = {**last(part), "chosen": event["index"]}  # type: ignore[arg-type]
        if self.discard(part, set_aside(attempt)):
            event = {**event, "discarded": set_aside(attempt)}
        self.emit(event)

    def close(self, result: dict[str, Any], by: str) -> None:
        """The check ends: every card still on the table for it goes to its deck's discard pile."""
        check = self.state["check"]
        gone = {p["cid"]: self.discard(p, on_the_table(last(p))) for p in check["parts"]}
        event: Event = {"type": "check_closed", "check": check["id"], "task": check["task"], "by": by, **result}
        if any(gone.values()):
            event["discarded"] = {cid: tokens for cid, tokens in gone.items() if tokens}
        self.emit(event)

    def advance(self) -> list[Event]:
        """Closes the check once it is settled; every draw waits for its player."""
        check = self.state["check"]
        if check is not None:
            result = verdict(check)
            if result is not None:
                self.close(result, "rules")
        return self.events
