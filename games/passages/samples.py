"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Trayer", {"skills": "Soldiery (Sword and Shield): 18\nCampfire: 33\nIntimidation: 32",
                      "combat_skill": "Soldiery (Sword and Shield)", "defense_skill": "Soldiery (Sword and Shield)",
                      "weapon": "Long Blade", "weapon_damage": 3, "weapon_type": "Slashing", "armour": "brigantine", "armour_effect": "halve"}),
    Sample("Betty", {"skills": "Stealth: 40\nBrawl: 30", "combat_skill": "Brawl", "defense_skill": "Brawl",
                     "weapon": "fists", "weapon_damage": 1}),
    # the name of a skill an NPC rolls is said aloud with the roll (audiences.py); its weapon and
    # armour are the Director's: the marker word goes there
    Sample("Garbo", {"skills": "Two-Hander: 25", "combat_skill": "Two-Hander", "defense_skill": "Two-Hander",
                     "weapon": "Chain flail", "weapon_damage": 3, "weapon_type": "Shattering", "armour": "Boiled hide", "armour_effect": "-1"},
           npc=True),
)
