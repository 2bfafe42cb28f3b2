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
    ``derived_values(sheet)`` gives what a sheet page shows but nobody types (damage dice).

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

    Every command is a dict with ``type`` and ``actor = {"is_gm": bool, "controls": [ids]}``
    (the platform adds ``member`` and ``name``, who sent it; no rule here needs them yet):
      start              GM. ``combatants: [sheet dict + "id"]``, optional ``injury_table``,
                         ``injuries_count`` (bool: injuries from before cost the Lost Die),
                         ``npcs`` (the ids of the NPCs: their figures are the GM's).
      add_combatant      GM. ``combatant``: a sheet dict + "id" (someone joins mid-fight),
                         optional ``injuries_count``, ``npc``.
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
                         (An Agility change re-places that one entity in the order.)
      set_injury_table   GM. ``table`` (rows as in ``DEFAULT_INJURY_TABLE``).
      roll               GM, once everyone has announced: steps 4-8.
      next_round         GM, after the roll.   end   GM.   undo   GM: the last step.

    Every event is a dict with ``type``, ``step`` (one per command), ``round``, ``by_gm``:
      action_rounds_started {combatants, order, ties, injury_table, npcs}
      combatant_added {combatant, order, npc} announced {action, pool}
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
      grab_ended {target, grabbers, reason ("grabber_out" | "broke_free" | "host")}
      round_resolved {pending}     round_started {}       action_rounds_ended {}
      undone {undoes_step, restores (the ids whose Toughness or injuries it restores)}
    While a round is announced, an event that changes a pool already announced also holds
    ``pools_now`` ([[id, dice], ...]), which its log line states ("Pools now: Alfie 3 dice.").

    Reading the state for a page: ``next_announcer(state)``, ``ready_to_roll(state)``,
    ``current_pools(state)`` (id -> ``Pool`` with reasons), ``grouping(state)``
    (unresisted ids and ``Clash``es), ``state["results"]`` (this round's outcome events),
    ``summary(event, names_of(state))`` (one line per event for ``Event.summary``).
    Every die is public in Demon City; an NPC's figures are the GM's while the table keeps NPC
    sheets secret: its stats and skills, and its pool before the roll (how many dice, and why),
    and odds counted from it (``panel.view``; ``screen`` keeps them in the GM's part of an
    event; ``state["npcs"]`` says which combatants are NPCs, as ``start`` was told). The state keeps
    up to ten undo snapshots, so it weighs tens of kB for a big fight; store it in one
    JSON column and lock the row while ``decide`` + ``apply`` run.

Odds (``odds``)
    ``odds.clash(a, b)`` and ``odds.against_target(pool, target)`` return ``Odds`` with
    float ``win``, ``lose``, ``tie``, ``crit``, ``fumble``, ``both_fumble`` and
    ``win_ties_rerolled``; ``*_exact`` variants keep ``Fraction``s. ``odds_chart()`` gives
    rectangles for an SVG bar chart.

Platform registration (``system``, ``web``)
    ``SYSTEM`` (``games.contract.GameSystem``) is everything the platform needs: the sheet
    (``character_sheet``: ``FIELDS``, ``clean_sheet``, ``derived``, ``glance``), the
    procedure above with ``writeback.writeback`` (Toughness and injuries go back on the
    sheets as each hit, correction or undo happens, so the character cards follow the round), every command of ``COMMANDS`` with its form parser and
    who may send it (``web.COMMANDS``: ``announce`` by the combatant's controller, the rest
    by the GM; the GM's Injury table is read as text by ``injury_text``), the task as a
    check (``web.TASK``: ``task_rolled``, rolled by ``task.task``), the odds page
    (``web.ODDS``), the Action Rounds panel (``panel.view``, one view for each seat;
    ``round_view`` gives its pools, Clash odds and rolled dice) and its templates under
    ``templates/games/demon_city/``. Every event goes to everyone, its NPC figures aside.

Rulings where the seed is silent or loose (each also commented where it is coded)
    - Distraction Die: for the second and later foes targeting someone (in announcement
      order), and also against a foe whose own action is aimed elsewhere and is not a
      defence, or who is unaware or out of the fight: the seed's Alfie example gives
      Alfie the die because Betty is busy shooting CeCe. Allies helping never earn it.
    - Only the Clash's high roller acts (rule 7); the pre-edit reader comments that let
      CeCe get a shot off too are superseded, as the seed itself warns.
    - Close combat targets the higher of Agility and Hand-to-Hand; ties name the skill.
    - A defender targets nobody, so gets no Skill Die; a good defender instead denies
      the attacker theirs. A defence "succeeds" when the defender wins its Clash.
    - Rolling exactly a static difficulty is a tie; a best die of 1 is always a fumble.
    - "Injury" for the Lost Die means any hit taken; the Injury table is ours (d10).
      An injury from before the fight (the sheet's ``injured``) costs no die unless the
      Host says it counts (``injuries_count``); it stays on the sheet either way. Outside a
      fight a task loses no die for it: the Host may name a Lost Die instead.
    - A sheet's blank side is filled in at the table: the players' side for a player's
      character, the opposing side for an NPC (``web.fighter``).
      Injuries are rolled when the hit lands; step 8 re-rolls only earlier inconclusive
      results. A hit on someone already down is a fresh Injury roll.
    - An action on someone who cannot act (out of the fight) is unresisted (step 4).
    - A grab lasts while it is held: it ends when its grabber is out of the fight, when the
      grabbed entity's defence succeeds (it breaks free), or when the Host ends it.
    - Several targets (a GM exception) need the stat to beat every target for the Skill
      Die, and every target must qualify for the Distraction Die.
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
from games.demon_city.narrate import names_of, summary
from games.demon_city.procedure import COMMANDS, decide, run
from games.demon_city.sheet import CONDITION_FIELDS, SHEET_FIELDS, Combatant, derived_values
from games.demon_city.state import current_pools, grouping, new_state, next_announcer, ready_to_roll
from games.demon_city.system import SYSTEM

KEY = "demon_city"
NAME = "Demon City"

__all__ = [
    "COMMANDS",
    "CONDITION_FIELDS",
    "DEFAULT_INJURY_TABLE",
    "EVENT_TYPES",
    "KEY",
    "KINDS",
    "NAME",
    "PROMPTS",
    "SHEET_FIELDS",
    "Action",
    "Combatant",
    "Die",
    "Pool",
    "RuleError",
    "SYSTEM",
    "TaskRoll",
    "apply",
    "build_pool",
    "current_pools",
    "decide",
    "derived_values",
    "grouping",
    "names_of",
    "new_state",
    "next_announcer",
    "odds",
    "odds_chart",
    "opposed_pools",
    "ready_to_roll",
    "roll_against_target",
    "roll_opposed",
    "run",
    "summary",
    "task_pool",
    "validate_table",
]
