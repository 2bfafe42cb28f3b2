"""One command's events, applied as they are made, so a later step sees an earlier one; the
draw itself (through the cards port, from the character's own deck), what follows it without
anyone choosing (closing a settled check), and the cards the rules are done with, which go to
their deck's discard pile (``draws.LANDS``); each event that puts cards there lists them
(``discarded``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card.draws import deck_of, draw_attempt, on_the_table, set_aside, taker
from games.report_card.errors import RuleError
from games.report_card.events import apply
from games.report_card.reading import read_deck
from games.report_card.rules import card_of
from games.report_card.state import edge, edges_for, last, next_rank, status, verdict

Event = dict[str, Any]


def reading(state: Mapping[str, Any], cards: Cards | None, cid: str,
            edges: Iterable[str | None]) -> dict[str, Any] | None:
    """The character's deck as it is now (``reading.read_deck``), None without a cards port."""
    if cards is None:
        return None
    person = state["characters"][cid]
    return read_deck(cards, deck_of(person, cid), person.get("major"), edges)


class Step:
    """The events of one command, applied as they are made, so a later step sees an earlier."""

    def __init__(self, state: Mapping[str, Any], cards: Cards | None) -> None:
        self.state: Mapping[str, Any] = state
        self.cards = cards
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def draw(self, index: int, *, retry: bool = False) -> None:
        """Part ``index`` draws: its top card(s), face up; the event records every token, and
        the deck as it is after them (for the odds of a retry)."""
        check = self.state["check"]
        part = check["parts"][index]
        person = self.state["characters"][part["cid"]]
        rank = next_rank(check, part)
        if self.cards is None:
            raise RuleError("This check needs the table's decks.")
        deck = deck_of(person, part["cid"])
        event: Event = {"type": "drawn", "check": check["id"], "part": index, "cid": part["cid"],
                        "deck": deck, "retry": retry}
        if check["mode"] == "help" and part["role"] == "main" and not part["attempts"]:
            helped = status(check["parts"][0]) == "succeeded"
            event["help"] = "bonus" if helped else "penalty"
            part = {**part, "help": event["help"]}
        replaced = on_the_table(last(part)) if retry else []
        # Reading: a retry is the same check one step easier, so its Bonus or Penalty (the
        # circumstance, or the help given) still holds.
        event["attempt"] = draw_attempt(taker(self.cards, deck), rank, person["major"], edge(part))
        # the card the retry replaces goes once the new one is down: the odds shown before the
        # retry counted it face up, as it was
        if self.discard(part["cid"], replaced):
            event["discarded"] = replaced
        event["reading"] = reading(self.state, self.cards, part["cid"], [edge(part)])
        self.emit(event)

    def discard(self, cid: str, tokens: list[str]) -> list[str]:
        """These cards of the character's deck, done with, onto its discard pile face up."""
        if not tokens or self.cards is None:
            return []
        person = self.state["characters"][cid]
        self.cards.discard(deck_of(person, cid), [card_of(t).card.id for t in tokens])
        return tokens

    def pick(self, event: Event) -> None:
        """A Bonus's or Penalty's choice: the card not kept is done with (the panel still shows
        it set aside, from the events), and the deck is read again for a retry's odds."""
        part = self.state["check"]["parts"][event["part"]]
        attempt = {**last(part), "chosen": event["index"]}  # type: ignore[arg-type]
        if self.discard(part["cid"], set_aside(attempt)):
            event = {**event, "discarded": set_aside(attempt),
                     "reading": reading(self.state, self.cards, part["cid"], [edge(part)])}
        self.emit(event)

    def close(self, result: dict[str, Any], by: str) -> None:
        """The check ends: every card still on the table for it goes to its deck's discard pile."""
        check = self.state["check"]
        gone = {p["cid"]: self.discard(p["cid"], on_the_table(last(p))) for p in check["parts"]}
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


def readings(state: Mapping[str, Any], cards: Cards | None, check: Mapping[str, Any]) -> dict[str, Any]:
    """Each part's deck as the check is called: what the odds before its first draw come from."""
    found = {}
    for part in check["parts"]:
        read = reading(state, cards, part["cid"], edges_for(check, part))
        if read is not None:
            found[part["cid"]] = read
    return found
