"""One command's events, applied as they are made, so a later step sees an earlier one; the
draw itself (through the cards port, from the character's own deck) and what follows it
without anyone choosing (closing a settled check)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card.draws import deck_of, draw_attempt, taker
from games.report_card.errors import RuleError
from games.report_card.events import apply
from games.report_card.reading import read_deck
from games.report_card.state import edge, edges_for, next_rank, status, verdict

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
        # Reading: a retry is the same check one step easier, so its Bonus or Penalty (the
        # circumstance, or the help given) still holds.
        event["attempt"] = draw_attempt(taker(self.cards, deck), rank, person["major"], edge(part))
        event["reading"] = reading(self.state, self.cards, part["cid"], [edge(part)])
        self.emit(event)

    def advance(self) -> list[Event]:
        """Closes the check once it is settled; every draw waits for its player."""
        check = self.state["check"]
        if check is not None:
            result = verdict(check)
            if result is not None:
                self.emit({"type": "check_closed", "check": check["id"], "task": check["task"],
                           "by": "rules", **result})
        return self.events


def readings(state: Mapping[str, Any], cards: Cards | None, check: Mapping[str, Any]) -> dict[str, Any]:
    """Each part's deck as the check is called: what the odds before its first draw come from."""
    found = {}
    for part in check["parts"]:
        read = reading(state, cards, part["cid"], edges_for(check, part))
        if read is not None:
            found[part["cid"]] = read
    return found
