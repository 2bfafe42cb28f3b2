"""Passages (NycosRPG): percentile checks, contests and fights, on the one engine
(games/core/engine.py); pure Python, driven by an injected ``Rng``.

Specification: seed 001 ("Game Basics - Checks, Challenges, Contests and Combat"), with the
decided readings (tracks of 100 points, a tick is 5; Core = BASE / 5
rounded up; Double Down = half rounded down; Double Up = double).

The skeleton: ``system`` (the registration, ``ENGINE``), ``moves`` (each move's parser and
handler, who sends it; the one-off check), ``state``, ``events`` (``FOLDS``), ``errors``,
``narrate`` (each line), ``panel``, ``sheet``, ``samples``, ``access`` (who may act now),
``audiences`` (the Director's screen over the log), ``working``, ``odds`` (and the odds page),
``writeback``. The rules by concern: ``rules`` (a d100's band), ``checks``, ``contest``, ``fight`` (a fight's
moves), ``combat`` (its arithmetic) and ``resolution`` (the Resolution Point), ``tracks``,
``persona``, ``director`` (the Director's corrections, Status, entries and reinforcements),
``recovery`` (rest, leaving and tending), ``campaign`` (the clock, lasting Status, advancement), ``armour`` (armour against Damage Types);
``figures`` and ``scene_view`` draw the panel's parts.

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
    - A check in a fight is the Action a Persona declared OUT to take, one a Turn, rolled once
      every Declaration is in; the Director makes it a challenge (for one roll, or a lasting
      "hindered" Condition), and being attacked does (``checks``).
    - Downed is a rest in the next Turn: the untended drain during that rest does not Down again.
    - Tending is the tender's skill check for one patient, a tick of the tender's Fatigue; it
      tends by its band the untended points of earlier Turns (``recovery``). Outside a fight a
      rest restores Fatigue to its eligible level, once per span of time; leaving the Scene
      restores Fatigue to its eligible level.
    - Over a campaign (``campaign``, the decided readings): each span of time passed recovers
      Fatigue, then drains a Fatigue point per untended Wound point; tended Wounds heal by night
      and by week (table options); skills used in earnest are marked and rise at a session's
      close; a lasting condition's Status modifies the Combat Roll or hinders checks.
    - Reinforcements join a fight at the next Turn's Game State, a contest at its next round.
    - A Status and the Conditions carry a lasting modifier to the Combat Roll.
    - The Director's entries (a strenuous action, Consequences, Contested Failures, Critical
      Wounds) resolve at the Resolution Point in the seed's order; their Wound points are
      untended Wounds. A spell in combat spends a tick of Magical Resources instead of Fatigue.
    - An NPC's sheet is the Director's while the table keeps NPC sheets secret: every roll, band,
      Intent, point dealt and track is everyone's; its BASEs, Selected Combat and Defense, weapon
      damage and armour, and odds counted from them, are the Director's (``audiences``, ``panel``).
"""

from games.passages.system import SYSTEM

__all__ = ["SYSTEM"]
