"""Demon City (seed 003, "Getting Things Done In Demon City"): d10 pools where the best die
counts, and Action Rounds in Slow Motion and Clashes. Pure Python, no Django.

``SYSTEM`` is its registration (``system``); ``ENGINE`` its Action Rounds on the one engine
(games/core/engine.py). The rules by concern: ``dice`` (pools and tasks), ``actions`` (what an
announcement relies on and targets), ``pools`` (the dice each action collects, with a reason for
each), ``clash`` (Clashes and who acts), ``damage``, ``injury``, ``task`` (a task outside Action
Rounds), ``fight`` and ``rounds`` (the moves' handlers), ``resolution`` (the roll, steps 4-8),
``odds`` (exact odds and the odds page).

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
    - "Injury" for the Lost Die means any hit taken; the Injury table is ours (d10), and
      each row says how long it takes to heal (``injury``). An Injury result kept from an
      earlier fight costs the die in a fight and in a task until the clock heals it (the
      decided reading "003, damage belongs to the fight": ``healing``); a bare "Injured"
      from before costs none unless the Host says it counts (``injuries_count``).
    - A sheet's blank side is filled in at the table: the players' side for a player's
      character, the opposing side for an NPC (``fight.fighter``).
    - Injuries are rolled when the hit lands; step 8 re-rolls only earlier inconclusive
      results, and a final result ("Broken") is never replaced (``edges``).
    - Nobody out (out of the fight, dead, gone from the scene) is the target of an
      announcement; once one side has no one able to act the fight is over, no new round
      starts, and the Host ends it: the Injury rolls still open are rolled, Current
      Toughness back to Base for those still in it, "out of the fight" over for the living,
      the Injury result kept until time heals it (``edges``, ``fight.end``, ``healing``).
    - No time passes during Action Rounds (a round is "about 6 seconds"): the GM's clock
      waits for the fight's end. A lasting condition with the effect ``lost_die`` costs
      Miscellaneous Lost Dice, at most two with the Host's.
    - Ties in Agility are drawn once and kept across fights until the Host settles them
      again (``ties``), as the seed advises ("Resolve ties ... at the beginning of the game").
    - A task's Situation Dice, Distraction Die and Lost Dice are the Host's to grant: a
      player's task with them is refused, and the GM rolls it (``moves.HOSTS_DICE``); in an
      opposed task the Situation Die may go to the opponent's side.
    - A grab lasts while it is held: it ends when its grabber is out of the fight, when the
      grabbed entity's defence succeeds (it breaks free), or when the Host ends it.
    - Several targets (a GM exception) need the stat to beat every target for the Skill
      Die, and every target must qualify for the Distraction Die.
"""

from __future__ import annotations

from games.demon_city.system import ENGINE, SYSTEM

__all__ = ["ENGINE", "SYSTEM"]
