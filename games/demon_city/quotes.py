"""The seed's words (seed 003, "Getting Things Done In Demon City") that each line's working
quotes as the rule it applied (``working``), and the tabletop's readings where the seed is silent.
"""

from __future__ import annotations

BEST_RULE = ("Their official roll for the purposes of deciding the contest is whichever of their rolls is "
             "highest. So if you roll a 6 and an 8, your \"roll\" is 8.")
CRIT_RULE = "If a character rolls a 10 and wins (ie not a tie), they have a critical success, if their best " \
            "roll is a 1, they fumble."
BOTH_FUMBLE_RULE = "If both sides' best roll is a 1 when two characters are competing, the situation gets " \
                   "worse for both sides."
TIE_RULE = "In the case of a tie ... the situation becomes more complex, but not in a way that immediately " \
           "decides the contest. The task can be attempted again in the new situation."
CLASH_RULES = {
    "winner": "Whoever rolls highest in a Clash takes their action",
    "same_side_tie": "If it's a tie between two characters on the same side (ie, two PCs who are getting along "
                     "or two hostile NPCs with the same goal locally) then the winner is decided "
                     "randomly--flipping a coin or rolling lone d10s will do it.",
    "opposing_tie": "If it's a tie between characters on opposing sides the situation stays mostly the same as "
                    "it was before the Clash and nobody's action takes, but the Host changes something in the "
                    "situation that affects everyone in the Clash",
    "both_fumble": BOTH_FUMBLE_RULE,
}
DAMAGE_RULE = "They take a number of d10s equal to the target's Base Toughness, roll and take the lowest, and " \
              "the target subtracts that number from their Current Toughness. At Current Toughness -1 they " \
              "are out of the fight and roll on the Injury table"
MASSIVE_RULE = "Some few weapons (supernatural abilities, high explosives at close range) do Massive Damage. " \
               "In this case you roll one die for each point of the attacker's stat and take the highest."
INJURY_RULE = "At Current Toughness -1 they are out of the fight and roll on the Injury table (that'll be in a " \
              "later entry). Reading (the tabletop's): the rules leave the table to a later entry, so the " \
              "table is the tabletop's own, a d10 where low is bad, and the Host may replace it."
UNRESISTED_RULE = "Any action that couldn't interfere with anyone else's action (ie the order in which it " \
                  "happens doesn't matter) is resolved, using the Task rules above if necessary--and narrated."
STATIC_RULE = "If the stat number is higher than the Target number, the player gets to roll an extra die and " \
              "use the better of their two rolls (the \"Skill Die\"). ... the Host can just assign a static " \
              "difficulty number to be rolled over (player must roll over a 3, for instance)."
POOL_RULE = "2-Figure out how many dice this character has for their action"
# The seed's words for each die a pool may hold ("Slow Motion Phase", step 2).
DIE_RULES = {
    "skill": "As with simple Tasks, a character with a higher Stat than the Stat they're targeting gets to roll "
             "an extra die--the Skill Die.",
    "defense": "If you are only actively defending in a round, you get an extra die, the Defense Die.",
    "distraction": "The second and subsequent characters to target a given foe  in the same clash get an extra "
                   "d10, the Distraction Die.",
    "situation": "Anyone with a situational advantage (high ground, etc) over whoever they're directly facing off "
                 "against also gets an extra die (Situation Die).",
    "lost_injury": "Anyone who has taken at least one injury during the fight loses a single die (the Lost Die for "
                   "Injury)--down to a minimum of one die.",
    "lost_misc": "Nobody able to act in a Clash can lose more than 2 Miscellaneous Lost Dice this way or go below "
                 "a minimum of one die.",
}
DEFENDED_RULE = "If you successfully used a defensive action to dodge, or block, parry an attack in the previous " \
                "round, you get a Situation Die in the round after, as you've improved your position."
GRAB_RULE = "Once a foe is grabbed, actions generally target a foe's Toughness."
SKILL_RULE = "If two characters ... are competing at a task (say, in a footrace) then whichever has the " \
             "higher stat gets to roll an extra die. This extra d10 is called the Skill Die."
