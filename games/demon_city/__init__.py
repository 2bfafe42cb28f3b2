"""Demon City: a pure-Python rules engine (no Django), driven by an injected ``Rng``.

Specification: seed 003 ("Getting Things Done In Demon City"), reader comments included.
Every public name below takes and returns plain data, so the Django side stores the state
in a JSON field, stores each event as an ``Event`` row, and never reimplements a rule.

Sheet
    ``SHEET_FIELDS``: list of plain dicts ``{name, label, kind, default, min, max, help}``
    (``kind`` is "str", "int", "bool" or "stats", a name -> rating mapping for skills the
    GM adds; ``uncapped_by: "supernatural"`` marks the 0-9 cap that supernatural entities
    ignore). ``Combatant.from_dict(sheet | {"id": ...})`` validates (``RuleError``) and
    ``.to_dict()`` round-trips. ``CONDITION_FIELDS`` are fight-only flags the GM can set.

Tasks outside Action Rounds (``dice``)
    ``task_pool(stat, target_number, ...)`` / ``opposed_pools(stat, other_stat, ...)``
    build ``Pool``s (each ``Die`` has ``kind`` and ``reason``; ``pool.size`` is 1..5);
    ``roll_against_target(pool, n, rng)`` and ``roll_opposed(a, b, rng)`` return
    ``TaskRoll``s: ``dice``, ``best``, ``outcome`` in "critical" | "success" | "tie" |
    "failure" | "fumble" | "both_fumble", and ``prompt`` (what to tell the Host on a tie).

Action Rounds (``procedure``, ``events``, ``state``)
    ``state = new_state()``; then for each command::

        events = decide(state, command, rng)      # RuleError if illegal; state untouched
        for event in events: state = apply(state, event)   # store each event in order

    (``run(state, command, rng)`` does both.) Replaying stored events through ``apply``
    from ``new_state()`` rebuilds the state exactly; ``apply`` never rolls.

    Every command is a dict with ``type`` and ``actor = {"is_gm": bool, "controls": [ids]}``:
      start              GM. ``combatants: [sheet dict + "id"]``, optional ``injury_table``.
      announce           the controller of ``combatant`` (or the GM), on its turn only:
                         ``kind`` (see ``KINDS``: melee, grab, shoot, exotic, defend, other),
                         ``target`` or ``targets``, ``description``; for "other" also
                         ``stat`` / ``against``; ``massive`` for Massive Damage.
      allow_extra_targets GM. ``combatant`` may then name several targets this round.
      adjust_pool        GM. ``combatant``, ``die``: "situation" | "lost",
                         ``change``: "grant" | "remove", ``reason`` (caps enforced).
      set_difficulty     GM, after all announced, for an unresisted action:
                         ``combatant``, ``target_number``, optional ``stat``.
      set_condition      GM. ``combatant``, ``field`` (any sheet field or condition), ``value``.
      set_injury_table   GM. ``table`` (rows as in ``DEFAULT_INJURY_TABLE``).
      roll               GM, once everyone has announced: steps 4-8.
      next_round         GM, after the roll.   end   GM.   undo   GM: the last step.

    Every event is a dict with ``type``, ``step`` (one per command), ``round``, ``by_gm``:
      action_rounds_started {combatants, order, ties, injury_table}
      combatant_added {combatant, order}      announced {action, pool}
      extra_targets_allowed {combatant}       pool_adjusted {combatant, die, change, reason}
      difficulty_set {combatant, target_number, stat}
      condition_set {combatant, field, value, order}   injury_table_set {table}
      dice_collected {pools, unresisted, clashes}
      unresisted_resolved {combatant, action, task (None or the roll), succeeded}
      clash_rolled {clash, members, rolls: {id: {pool, dice, best}}, outcome ("winner" |
                    "same_side_tie" | "opposing_tie" | "both_fumble"), winner, tied,
                    critical, fumbles, prompt}
      damage_rolled {attacker, target, dice, massive, taken, before, after, out_of_fight}
      grabbed {attacker, target}   defended {combatant}   injury_rolled {combatant, die, entry}
      round_resolved {pending}     round_started {}       action_rounds_ended {}
      undone {undoes_step}

    Reading the state for a page: ``next_announcer(state)``, ``ready_to_roll(state)``,
    ``current_pools(state)`` (id -> ``Pool`` with reasons), ``grouping(state)``
    (unresisted ids and ``Clash``es), ``state["results"]`` (this round's outcome events).
    Nothing in the state is secret: every die is public in Demon City.

Odds (``odds``)
    ``odds.clash(a, b)`` and ``odds.against_target(pool, target)`` return ``Odds`` with
    float ``win``, ``lose``, ``tie``, ``crit``, ``fumble``, ``both_fumble`` and
    ``win_ties_rerolled``; ``*_exact`` variants keep ``Fraction``s. ``odds_chart()`` gives
    rectangles for an SVG bar chart.
"""

from __future__ import annotations

from games.demon_city import odds
from games.demon_city.actions import KINDS, Action
from games.demon_city.chart import odds_chart
from games.demon_city.dice import (
    PROMPTS,
    Die,
    Pool,
    TaskRoll,
    build_pool,
    opposed_pools,
    roll_against_target,
    roll_opposed,
    task_pool,
)
from games.demon_city.errors import RuleError
from games.demon_city.events import EVENT_TYPES, apply
from games.demon_city.injury import DEFAULT_INJURY_TABLE, validate_table
from games.demon_city.procedure import COMMANDS, decide, run
from games.demon_city.sheet import CONDITION_FIELDS, SHEET_FIELDS, Combatant
from games.demon_city.state import current_pools, grouping, new_state, next_announcer, ready_to_roll

KEY = "demon_city"
NAME = "Demon City"

__all__ = [
    "COMMANDS", "CONDITION_FIELDS", "DEFAULT_INJURY_TABLE", "EVENT_TYPES", "KEY", "KINDS",
    "NAME", "PROMPTS", "SHEET_FIELDS", "Action", "Combatant", "Die", "Pool", "RuleError",
    "TaskRoll", "apply", "build_pool", "current_pools", "decide", "grouping", "new_state",
    "next_announcer", "odds", "odds_chart", "opposed_pools", "ready_to_roll",
    "roll_against_target", "roll_opposed", "run", "task_pool", "validate_table",
]
