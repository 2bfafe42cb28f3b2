"""Report Card over a campaign: the table's clock and its Days, the lasting Bonus and Penalty,
and the GM's undo with the personal decks kept sound.

**Days.** Seed: "Skill Checks for a specific thing cannot be made more than once per Day. ...
You can't go back and try again (until a Day has passed)." The Day is the table's clock's: a
night passing starts a new Day, a week passing seven (``passes``: the event ``day_started``,
which empties the Day's list of checks); the scene ending changes nothing on a Report Card. The
GM's "Start a new Day" is the clock's night (``new_day``), so both move the clock and the Day
together. The seed has no rule for a session's close, nor for recovery; the decided reading for
growth: "the GM awards experience at a session's close, with a reason, logged ... Report Card
keeps its rechoose after three Corruption Points". So a session's close gives the experience the
GM awards on its form (``growth.with_awards``), and the GM may award it any time (``award``); what
it buys, at the table's costs: growth.py.

**Lasting Bonus and Penalty.** The clock's conditions with the effect "penalty" or "bonus"
(``EFFECTS``): seed, "If the player has a significant, concrete disadvantage on a skill check -
for example, climbing a wall with a Splinted Leg, they get a 'Penalty' on that check". A
condition lasts (until removed, a scene, a night, a week, the session) and gives its Bonus or
Penalty on every check its character draws for (``state.lasting``, read by ``flow`` as the card
comes off), named on the draw's line and working. A condition meant for some checks only is a
note (no effect): the GM ticks the Penalty on the checks it bears on.

**Undo.** Not in the seed: the GM takes back the last step (a slip of the hand), as in the
other systems; the undo is logged for everyone. The decks: only the rules move a personal
deck's cards (the decided reading), and a card once seen is not hidden again. So:
    - every card the taken-back step drew goes onto its deck's discard pile, face up, if it is
      not there already (``TAKEN_BACK``): a draw made again is a new card, as a roll made again
      is a new roll;
    - a card the taken-back step had put on the discard pile (a check closed, a card set aside,
      a retry's old card) stays there: the reopened check reads it from its events, and a retry
      that replaces it discards nothing (``flow.Step.draw``);
    - a Corruption Point a retry took, and the new A+ and F chosen after three, go back on the
      sheet as they were (``restore``, written back).
Every card stays in exactly one place: its deck's draw pile, the discard pile, or face up for
the open check; no card lies face up that the state does not show, and none the state shows is
in a draw pile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import clock as time
from games.core import growth
from games.core.engine import UNDONE, RuleError, Turn
from games.report_card.draws import deck_title, tokens_of
from games.report_card.growth import OPTIONS as GROWTH_OPTIONS
from games.report_card.meanings import card_name
from games.report_card.narrate import summary
from games.report_card.rules import card_of

Event = dict[str, Any]

# What the clock's conditions may do that the rules read (state.lasting).
EFFECTS = {
    "penalty": "a Penalty on every check: two cards, the GM keeps the worse",
    "bonus": "a Bonus on every check: two cards, the player keeps the one preferred",
}
# A Day a night, seven a week: the seed counts time in Days.
DAYS = {time.NIGHT: 1, time.WEEK: 7}
SAYS = {
    time.SCENE: "Nothing on the Report Card: the Day goes on.",
    time.NIGHT: "A new Day begins: checks made on earlier Days may be made again (the rules: \"until a Day has passed\").",
    time.WEEK: "Seven Days pass and a new one begins: checks made on earlier Days may be made again.",
}
TAKEN_BACK = "taken_back"


def passes(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    """The new Day a night or a week brings (the rules: "until a Day has passed")."""
    days = DAYS.get(span, 0)
    if not days:
        return []
    return [{"type": "day_started", "day": int(state["day"]) + days, "days": days}]


# the decided reading: "the GM awards experience at a session's close, with a reason, logged"
# (growth.with_awards: the close form's awards); what it buys, at the table's costs: growth.py
CLOCK = growth.with_awards(time.Clock(passes=passes, says=SAYS, effects=EFFECTS, options=GROWTH_OPTIONS))


# ---------------------------------------------------------------------------------------- undo

def _step(history: Sequence[Mapping[str, Any]], step: object) -> list[Mapping[str, Any]]:
    return [e for e in history if e.get("step") == step and e.get("type") != UNDONE]


def _restore(events: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """What the step's events wrote on the sheets, as the sheets held it before."""
    restore: dict[str, dict[str, Any]] = {}
    for event in events:
        if event["type"] == "retried":
            restore.setdefault(event["cid"], {})["corruption"] = int(event["corruption"]) - 1
        elif event["type"] == "skills_rechosen":
            if "was" not in event:
                raise RuleError(f"{event.get('name', 'A character')}'s new A+ and F were chosen before the GM could "
                                "take that step back: correct the Report Card instead.")
            restore.setdefault(event["cid"], {}).update(event["was"])
    return restore


def settle(state: Mapping[str, Any], events: list[Event], turn: Turn) -> list[Event]:
    """An undo's last look before it is logged: every card the step taken back drew goes to its
    deck's discard pile (through the cards port: one there already stays), and the sheets it
    restores are named (``restore``, written back)."""
    if not events or events[0]["type"] != UNDONE:
        return events
    undo = dict(events[0])
    taken = _step(turn.history(), undo.get("undoes_step"))
    restore = _restore(taken)
    drew: dict[str, list[str]] = {}
    decks: dict[str, str] = {}
    for event in taken:
        if event["type"] == "drawn":
            drew.setdefault(event["cid"], []).extend(tokens_of(event["attempt"]))
            decks[event["cid"]] = str(event.get("deck") or "")
    if drew and turn.cards is None:
        raise RuleError("Taking back this step needs the table's decks.")
    for cid, tokens in drew.items():
        character = turn.character(cid)
        deck = deck_title(character.name) if character is not None else decks[cid]
        turn.cards.discard(deck, [card_of(t).card.id for t in tokens])  # type: ignore[union-attr]
    if drew:
        undo[TAKEN_BACK] = drew
    if restore:
        undo["restore"] = restore
    return [undo, *events[1:]]


def step_line(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """What the undo list says of a step: its first event's line, the clock's own for the
    clock's events (a night passing, a condition added)."""
    if event["type"] in time.EVENTS:
        return time.line(event)
    return summary(event, state)


def undo_line(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """The undo's line, for everyone: the step taken back as everyone read it, the cards that
    go to the discard, the sheets put back."""
    line = f"The GM takes back the last step ({str(event.get('what') or 'the last one').rstrip('.')})."
    back = [card_name(t) for tokens in (event.get(TAKEN_BACK) or {}).values() for t in tokens]
    if back:
        many = len(back) > 1
        line += (f" The card{'s' if many else ''} it drew ({', '.join(back)}) {'lie' if many else 'lies'} on the "
                 "discard pile: a draw made again is a new card.")
    if event.get("restore"):
        line += " The Report Card is as it was before it."
    return line
