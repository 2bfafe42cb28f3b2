"""Harsh Light: World of Darkness dice pools turned into a single card pull (seed 002).

A pure-Python engine on the one engine of every system (games/core/engine.py). Cards come from the
table's deck named ``DECK`` ("Harsh Light": an "Ace to 10 (40 cards)" deck the GM brings out)
through the cards port; every drawn token is in the events, so a fold never draws.

The modules, by role (docs/adding-a-system.md) and by rule:
    system.py     the registration (``SYSTEM``, ``ENGINE``)
    moves.py      the move table (``MOVES``) and its parsers, the one reading of what is sent
    state.py      the state, and a move's view of the table (``in_play``: the sheets as they are)
    events.py     ``FOLDS``; errors.py the refusals; narrate.py each line; panel.py the panel
    sheet.py              the sheet, and the character card (glance, the panel's figures)
    audiences.py  who sees each event: an NPC's figures in the GM's part
    working.py    each line's working, its public twin included (quotes.py: the rules quoted)
    writeback.py  what goes back on the sheets; reckon.py what a move records beside its events
    odds.py       the odds and the odds page; samples.py example characters
    rules.py      successes, ten-again, Dramatic Failure, automatic and Exceptional Success
    pools.py, resist.py, pulls.py    a pool, what resists it, the pull (set up, made, put away)
    fight.py, access.py, harm.py, health.py    the turn order, who acts when, harm and Health
    extended.py   extended and contested actions; deck.py the rule deck
    reaction.py   a resisted pull waiting for its target's answer (Willpower for +2)
    campaign.py   the table's clock: time heals Health and gives Willpower back, a session's
                  close and a Dramatic Failure give Beats, a condition's dice count in pools
    undo.py       the Storyteller's undo: the sheets the step wrote put back as they were, its
                  cards left on the discard pile

Readings where the seed is silent or loose (each also commented where it is coded)
    - Resisting traits are subtracted from the pool (as World of Darkness subtracts dice), so
      Defence can drive a pool to 0 or less and risk a Dramatic Failure.
    - An automatic success taken without a pull is worth what an Ace would have given.
    - "Each attack" lowers Defence only when Defence applied to it (melee, thrown, ranged within
      arm's reach); a Dodge doubles Defence before the attacks take their 1s off.
    - Willpower against a resisted pull is spent when it comes: a pull resisted by a character's
      Defence or Resistance trait waits, before any card, for that character's answer (or the
      Storyteller moving on) while it could still spend its point (reaction.py). A point spent
      beforehand to resist still counts against the next resisted test that turn. One point a
      turn whatever it buys; outside a fight the turn lasts until the Storyteller calls a new
      one (no test ends it), and that new turn brings Defence back.
    - Whether an action is reflexive is the Storyteller's call, or one of the seed's listed kinds
      (talking, resisting a power; moving is its own move); in a fight everyone, in the order or
      not, has one instant action a turn (access.py).
    - Initiative is one card, no again; ties to the higher Dexterity + Composure, then as listed.
    - A tied plain contest is pulled again; an extended contest reached by both in one round
      goes to the higher running total. Contest pulls are reflexive for the turn order.
    - 8- or 9-again on a pull is the better of the sheet's and the check's.
    - An untrained Skill costs -3 (Mental) or -1 (Physical, Social), as in the World of Darkness,
      only when the Storyteller turns that table option on (off by default: the decided reading).
    - An extended action may have a limit of pulls, and a Dramatic Failure may lose its progress,
      as the Storyteller sets when it starts (neither by default).
    - The odds count a lone 10 left in the draw pile as giving a second card, from the discard
      pile shuffled back in, as the table pulls it.
    - An NPC's figures are the GM's (audiences.py): a pull's total, the pool less its face-up
      cards, is one of them; its cards and successes are everyone's. The log keeps them in the
      GM's part whatever the table's setting, which the panel follows seat by seat. Its Health
      is harm everyone watches; its weapon is the GM's. Such a line unfolds for everyone, its
      figures said as "the GM's figure"; the GM reads the whole working.
    - Harm (harm.py): damage is the successes plus the weapon's bonus and the attack's own, of the
      kind the form chooses (bashing unarmed, lethal armed); a firearm (an attack pulled with
      Firearms) deals a vampire bashing, not halved; the Stamina pull to stay conscious is
      Stamina alone, at once and at the start of each of the character's actions, once a turn;
      healing that empties the last box wakes it; the Storyteller marks a bleeding character's
      untended minutes; one who is out has no Defence.
    - Time (campaign.py, the decided readings for campaign play): a night gives a Willpower point
      back, a session's close all of it when the table option says so; a scene's end heals
      bashing (1 box by default), a night all bashing and a night toward a lethal box (2 a box)
      or an aggravated one (7 a box), a week seven nights; a mortal bleeding out holds time until
      the Storyteller tends them or marks their minutes; time does not pass in a fight. Beats: one
      to each player character at a session's close, one for a Storyteller's award named there,
      one for a player character's Dramatic Failure; five make an Experience.
"""

from __future__ import annotations

from games.harsh_light.state import DECK
from games.harsh_light.system import ENGINE, SYSTEM

__all__ = ["DECK", "ENGINE", "SYSTEM"]
