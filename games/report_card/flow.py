"""One command's events, applied as they are made, so a later step sees an earlier one; and
the steps that follow without anyone choosing (a group's draws, the main check after its
help, closing a settled check)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.report_card.draws import deck_name, draw_attempt, taker
from games.report_card.errors import RuleError
from games.report_card.events import apply
from games.report_card.state import edge, next_rank, status, to_draw, verdict

Event = dict[str, Any]


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
        check = self.state["check"]
        part = check["parts"][index]
        own = self.state["characters"][part["cid"]]["major"]
        rank = next_rank(check, part)
        if self.cards is None:
            raise RuleError("This check needs the table's decks.")
        deck = deck_name(part["cid"])
        event: Event = {"type": "drawn", "check": check["id"], "part": index, "cid": part["cid"],
                        "deck": deck, "retry": retry}
        if check["mode"] == "help" and part["role"] == "main" and not part["attempts"]:
            helped = status(check["parts"][0]) == "succeeded"
            event["help"] = "bonus" if helped else "penalty"
            part = {**part, "help": event["help"]}
        # Reading: a retry is the same check one step easier, so its Bonus or Penalty (the
        # circumstance, or the help given) still holds.
        event["attempt"] = draw_attempt(taker(self.cards, deck), rank, own, edge(part))
        self.emit(event)

    def advance(self) -> list[Event]:
        """Draws whatever draws without a choice, and closes the check once it is settled."""
        while (check := self.state["check"]) is not None:
            index = to_draw(check)
            if index is not None:
                self.draw(index)
                continue
            result = verdict(check)
            if result is not None:
                self.emit({"type": "check_closed", "check": check["id"], "task": check["task"],
                           "by": "rules", **result})
            break
        return self.events
