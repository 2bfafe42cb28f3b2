"""The rules a line's working quotes (working.py): the seed's own words where it has them, with
where they stand in it, and our stated readings where it is silent."""

from __future__ import annotations

BASIC, RESISTED_AT, CONTESTED_AT = "Basic Rules", "Action Types: Resisted", "Action Types: Contested"
EXTENDED_AT, USEFUL = "Action Types: Extended", "Useful things to know"
SUCCESSES = ("When you pull a card and add your pool, you get your first success at a total of eight (for "
             "example, a pull of three + a pool of five), and every three points above eight is another success.")
AGAIN = ("A pull of 10 (or, with certain powers and/or equipment, even 8 or 9) allows you pull a second card, "
         "adding both cards to your pool for your total.")
DRAMATIC = "If you pull a 1 while using a pool of 0 or less, you have Dramatically Failed!"
AUTOMATIC = ("If something only takes a single success to achieve, and your pool is 7 or above, then you will "
             "accomplish the task automatically, without needing to pull a card (assuming no penalties, of course).")
EXCEPTIONAL = ("if you get a total of 5 or more successes (20+ on your test) you have achieved an Exceptional "
               "Success")
RESISTED = ("Resisted rolls are where you subtract an opponent's pool from your roll – generally either Defence "
            "or a Resistance trait (Resolve, Stamina, or Composure).")
WILLPOWER = ("Spending a point of Willpower adds 3 to your pool for a pull (generally adding a success) or adds 2 "
             "against a Resisted test (including attacks – spending a Willpower for +2 Defence can be a lifesaver "
             "in emergencies). You may only spend one Willpower per turn (including Willpower spent to activate "
             "powers).")
DODGE = "give up your attack to double your Defence until your next turn (known as a Dodge move)."
MOVE = "All characters may move their Speed in steps as a reflexive action once per turn (unless somehow restrained)."
EXTENDED = "The player pulls cards until they have accumulated however many successes are needed"
CONTESTED = ("Both pull a card, add their pools and compare successes, with the higher number of successes "
             "winning.")
CONTESTED_EXTENDED = ("Some tests are both contested and extended – in those cases, you continue pulling until "
                      "one of the characters reaches the required number of successes.")
# The seed is silent on harm and initiative: these are the readings harm.py, health.py and
# fight.py take from the World of Darkness rulebook, said in plain words.
DAMAGE = ("Our reading (the rules are silent on damage; they convert the World of Darkness): a successful attack "
          "deals its successes in damage, plus the weapon's bonus and any bonus the attack names.")
HARM = ("Our reading, from the World of Darkness rulebook: the most severe wounds sit at the left; on a full "
        "track each further point upgrades the least severe wound; the last three boxes cost -1, -2 and -3 "
        "to pools and Speed.")
HEAL = "Our reading, from the World of Darkness rulebook: healing takes the least severe wound first."
CONSCIOUS = ("Our reading, from the World of Darkness rulebook: with bashing in the last box, a Stamina pull "
             "each turn keeps the character conscious, with no wound penalty; failing it, it falls unconscious.")
INITIATIVE = ("Our reading, from the World of Darkness rulebook: initiative is Dexterity + Composure plus one "
              "card, no again; the highest total acts first.")
OURS = "World of Darkness rulebook, as this table reads it (the rules are silent)"
