"""Passages (NycosRPG): a pure-Python rules engine (no Django), driven by an injected ``Rng``.

Specification: seed 001 ("Game Basics - Checks, Challenges, Contests and Combat"), with the
decided readings of the seeds README (tracks of 100 points, a tick is 5; Core = BASE / 5
rounded up; Double Down = half rounded down; Double Up = double).

Checks (``rules``)
    ``band(base, roll, *, challenge=False)`` -> "critical_fail" | "blown" | "double_up" |
    "success" | "double_down" for a d100 roll (1-100) against a BASE of 1-95, or against its
    Core for a challenge. ``core``, ``thresholds``, ``check(skill, base, rng)`` and
    ``practice(skill, base)`` (no roll) build on it.

Odds (``odds``)
    ``check(base, *, challenge=False)`` -> {band: probability}, exact, summing to 1;
    ``lands(combat, defense, timing)`` and ``pairing(a_combat, a_defense, b_combat, b_defense)``
    give the chance each side of a roll-off lands a Potential Wound, and each hierarchy case.

The table procedure (``procedure`` and its handlers, ``events``, ``state``)
    ``state = new_state()``; for each command ``events = decide(state, command, rng)`` (a
    ``RuleError`` subclass if refused, the state untouched), then ``state = apply(state, e)``
    for each event. ``apply`` never rolls. Commands (``actor`` = ``{is_gm, controls, member,
    name}``; the Director plays every Persona, a player only their own):
      check, practice                     a Persona in the scene; ``combatant``, ``skill``,
                                          ``challenge``
      contest_start (Director)            ``combatants`` (sheets with ``id``), ``challenge``
                                          (ids), ``magic``, ``cost`` (points a tick)
      contest_roll, contest_break_off     ``combatant`` (``skill`` to roll)
      contest_cost (Director)             ``cost``
      combat_start (Director)             ``combatants``, ``conditions``
      declare                             ``combatant``, ``stance`` "in" (``target``,
                                          ``intent``, ``combat``, ``defense``, ``damage``,
                                          ``ranged``) or "out" (``action``, ``defense``)
      rest, tend                          ``combatant`` (tend: ``patient``)
      timing (Director)                   ``combatant``, ``modifier``, ``reason``
      combat_roll                         ``combatant``: the d100 + Selected Combat
      resolve (Director)                  the Resolution Point, then the next Turn
      set_conditions, set_status, correct, end (Director)
      undo (Director)                     takes back the last step (up to ten), logged
    ``procedure`` hands each command to its handler: ``scene_checks`` (check, practice),
    ``contest_commands`` (the contest_ commands), ``combat_commands`` (combat_start to
    resolve) and ``director`` (set_conditions, set_status, correct, end, undo); they share
    ``guards`` (the ``Actor``, the refusals, reading a command's values).
    Events: checked, practised, contest_started, contest_rolled, contest_round,
    contest_cost_set, contest_broken_off, contest_ended, combat_started, turn_started
    (the Game State), declared, timing_set, combat_rolled, pairing_resolved,
    resolution_point, conditions_set, status_set, track_corrected, combat_ended, undone.
    ``summary(event, state)`` is each one's log line.

Platform registration (``system``, ``web``, ``table``)
    ``SYSTEM``: the sheet (``table.FIELDS``, ``table.clean_sheet``, ``table.derived``), the
    procedure, every command with its parser (``web.COMMANDS``), the one-off check
    (``web.CHECK_ROLL``: event ``check_rolled``; its "challenge" box makes a check a
    challenge), the odds page (``web.ODDS``: a table and an SVG chart of every band), the
    character cards (``table.glance``: the skills that matter, Wounds and Fatigue of 100,
    Downed / Unconscious) and the panel (``panel.view(state, seat)``: plain data for one seat,
    with "turn", each Persona of the scene by id, each track as 20 boxes of 5; and
    ``table.character_view``: every Persona's skills with the odds of each band as a check and
    as a challenge, for its check form). Every event goes to everyone (``screen``).

The Director's screen (``screen``, ``panel``, ``scene_view``)
    An NPC's sheet is the Director's while the table keeps NPC sheets secret (``Seat.hidden``).
    Every roll is made in the open and the Game State lists every Persona's tracks, so a seat
    that may not see an NPC's sheet still sees its rolls, its bands, its Intent, the points its
    blows deal and take, and its tracks; not its BASEs, Selected Combat and Defense, weapon
    damage or armour, nor odds counted from them. The scene's Personae carry ``npc`` (the
    table's start forms say so); an event holding an NPC's figures keeps them in a part only
    the Director reads (``screen.GM_PART``), with the Director's whole log line.

Readings where the seed is silent or loose (each also commented where it is coded)
    - Combat successes are graded miss / Potential Wound / beating double the Defense, so the
      worked example's two landed blows are equal and both wound (``combat.attack_level``).
    - An attack on someone not rolling back at the attacker (OUT, busy elsewhere, or a ranged
      and close mismatch) stands alone: it lands or fails, a failure costing a tick.
    - Downed means something took Fatigue at the Resolution Point and left it at 0; Downed
      Personae rest and still regain their box; the Unconscious recover nothing.
    - Recovery rises to the "eligible" Fatigue: 100 less the untended Wound points.
    - A contest of more than two: below the best level costs a tick a level; some succeeding
      while others fail ends it, the best level winning; the ending round costs nothing.
    - A single rest recovers one box (5), not the 10% one sentence of the seed gives.
"""

from __future__ import annotations

from games.passages import odds
from games.passages.errors import BadValue, CannotAct, NotNow, NotYours, RuleError
from games.passages.events import EVENT_TYPES, apply
from games.passages.narrate import summary
from games.passages.procedure import COMMANDS, decide, run
from games.passages.rules import BANDS, band, core, practice, thresholds
from games.passages.state import new_state
from games.passages.system import SYSTEM

KEY = "passages"
NAME = "Passages (NycosRPG)"

__all__ = [
    "BANDS", "COMMANDS", "EVENT_TYPES", "KEY", "NAME", "SYSTEM", "BadValue", "CannotAct", "NotNow",
    "NotYours", "RuleError", "apply", "band", "core", "decide", "new_state", "odds", "practice", "run",
    "summary", "thresholds",
]
