"""Report Card (seed 004): skill checks drawn from each player's own Tarot deck, against a
difficulty from Automatic to Impossible, with A+ and F skills, critical cards, the Wheel of
Fortune, Bonus and Penalty, Corruption Points and retries, and checks made together.

Read it in this order: ``system`` (the registration), ``moves`` (what a player or the GM can
send, and who), ``calls`` and ``choices`` (the handlers: calling a check, and the steps of an
open one), ``flow`` (drawing and discarding through the cards port), ``events`` (how each event
changes the state), ``state`` (the state and what is asked of it), ``panel``, ``narrate`` and
``working`` (what the table shows). The rules of one card are ``rules`` (ranks, criticals, the
Wheel, closeness), ``draws`` (an attempt's cards, each judged) and ``meanings``; ``skills`` the
A+ and F; the exact odds and the odds page ``odds`` (``reading``: a deck's odds as the panel
counts them from the deck as the table has it; ``chart``). ``access`` holds the choices the
rules give one person; ``sheet``, ``writeback`` and ``samples`` the Report Card itself.

Readings where the seed is loose are written where they are coded; the main ones:
    - A+ is one rank easier, so Impossible becomes Unlikely (the seed's "Impossible becomes
      Hard" skips a rank); an F never makes Impossible easier.
    - Automatic cannot fail, even on a Critical Failure card; Impossible cannot succeed, even
      on a Critical Success card.
    - Happenstance: the Fool or the Wheel set off a critical and the outcome went its way.
    - Bonus/Penalty always wait for the choice, even when both cards give the same outcome.
    - "Everyone needs to succeed": a Critical Success outweighs a Critical Failure; a Critical
      Failure otherwise fails it for everyone, and no retry buys it off (the decided reading).
    - The Day rule: the GM says which earlier check of the Day a new one repeats, from the
      Day's list; the wording of a task decides nothing (the decided reading).
    - Help: the GM may let several characters help, and members of a group check be helped;
      each success grants Bonus, each failure Penalty, and they cancel.
    - A check a player calls waits for the GM to approve its difficulty and Bonus or Penalty.
    - The odds count a card held face down among the cards not yet face up; the draw pile's
      public count only says when the discard comes in (``odds``, ``pile_size``).
    - A retry counts the Corruption Circles on the sheet as it is now: the GM may have filled
      or emptied them by hand since the check was called.
"""

from __future__ import annotations

from games.report_card.system import ENGINE, SYSTEM

__all__ = ["ENGINE", "SYSTEM"]
