"""Report Card (seed 004): a pure-Python engine (no Django) whose chances are all cards.

Each player character draws from its own 78-card Tarot deck, made with the character and
named after it (``deck_title``: "Marieta's Tarot"; ``SYSTEM.character_decks``), through the
cards port (``games/core/cards_port.py``); every card a check draws lands face up in the play
area and is recorded, by token, in the events; when the rules are done with it (the card not
kept, the card a retry replaces, every card once the check closes) it goes to the deck's
discard pile, so the deck cycles. The deck is the rules' (``DeckSpec.rules``): its player moves
none of its cards by hand. A command names each character's deck (the web's parsers fill in
``deck``); ``deck_name(cid)`` is the name of last resort.

Sheet (``sheet``)
    ``FIELDS``: the six Abilities (bool), ``a_plus`` and ``f_skill`` (skill keys), ``corruption``
    (0-3 circles), ``major`` (own Major Arcana 0-21). ``clean_sheet`` raises ``SheetError`` for
    what the seed forbids: no A+ or F, an A+ without one of its Abilities, one skill as both.

Rules (``rules``)
    ``RANKS`` automatic..impossible; ``with_skill`` (A+ one rank easier, F Unlikely);
    ``judge(rank, token, own_major, second)`` -> {outcome, trigger, critical, happenstance,
    rule, closeness}; ``meanings.meaning(token)``: the card's Tarot meaning.

Procedure (``procedure``: ``calls``, ``choices``; ``events``, ``state``, ``narrate``)
    ``events = decide(state, command, rng, cards)``; ``state = apply(state, event)`` for each;
    ``summary(event, state)`` is its log line. Commands (``type``; ``actor`` is
    {is_gm, controls, member, name}; ``characters`` {cid: {name, player, **sheet}}):
      call_check   GM, or the character's player when the GM allows: combatant, skill, rank,
                   task, bonus, penalty, inconsequential; GM only: hold, repeat, grant,
                   helper + helper_skill/helper_rank/helper_task.
      call_group   GM: mode ("only_one" | "everyone"), combatants, skill, rank, task,
                   bonus/penalty (lists of cids).
                   A called check draws nothing: the odds before the draw are in the state.
      draw         combatant: its player (or the GM) draws its first card; with help, the
                   main check once the help is settled.
      pick         combatant, index: a Bonus by the character's player, a Penalty by the GM.
      retry        combatant: its player takes a Corruption Point; one rank easier unless held.
      accept       combatant: the failure stands (its player or the GM).
      rechoose     combatant, a_plus, f_skill: with three Corruption Points; circles empty.
      hold, close, new_day, allow_player_calls: GM.
    Events: see ``events`` (check_called, drawn, picked, retried, accepted, check_closed,
    hold_set, day_started, player_calls_set, skills_rechosen).

Odds (``odds``)
    ``check(rank, *, own_major=None, bonus=False, penalty=False)`` from a fresh deck and
    ``from_cards(ids, rank, ...)`` from the cards not yet face up: exact, float
    ``critical_success``, ``success``, ``failure``, ``critical_failure`` (``*_exact``: fractions);
    ``by_rank`` every rank at once. ``reading.read_deck``: a deck's count of cards not yet face
    up and its odds, as the state keeps them (never from the draw pile alone, which would let
    anyone subtract a card held face down).

Readings where the seed is loose are written where they are coded; the main ones:
    - A+ is one rank easier, so Impossible becomes Unlikely (the seed's "Impossible becomes
      Hard" skips a rank); an F never makes Impossible easier.
    - Automatic cannot fail, even on a Critical Failure card; Impossible cannot succeed, even
      on a Critical Success card.
    - Happenstance: the Fool or the Wheel set off a critical and the outcome went its way.
    - Bonus/Penalty always wait for the choice, even when both cards give the same outcome.
    - "Everyone needs to succeed": a Critical Success outweighs a Critical Failure.
    - The Day rule counts checks by what they are for (the task's words), whoever made them.
    - The odds count a card held face down among the cards not yet face up; the draw pile's
      public count only says when the discard comes in (``odds``, ``pile_size``).
    - A retry counts the Corruption Circles on the sheet as it is now: the GM may have filled
      or emptied them by hand since the check was called.
"""

from __future__ import annotations

from games.report_card import odds
from games.report_card.draws import deck_name, deck_owner, deck_title
from games.report_card.errors import AlreadyToday, BadInput, NotNow, NotYours, RuleError
from games.report_card.events import EVENT_TYPES, apply
from games.report_card.narrate import summary
from games.report_card.procedure import COMMANDS, decide, run
from games.report_card.sheet import FIELDS, clean_sheet, derived
from games.report_card.state import new_state
from games.report_card.system import SYSTEM

KEY = "report_card"
NAME = "Report Card"

__all__ = [
    "COMMANDS", "EVENT_TYPES", "FIELDS", "KEY", "NAME", "SYSTEM", "AlreadyToday", "BadInput", "NotNow",
    "NotYours", "RuleError", "apply", "clean_sheet", "decide", "deck_name", "deck_owner", "deck_title", "derived",
    "new_state", "odds", "run", "summary",
]
