"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Alfie", {"strength": 4, "dexterity": 3, "wits": 2, "intelligence": 3, "resolve": 2, "composure": 2,
                     "skills": "Brawl: 3\nLarceny: 3\nAcademics: 3"}),
    Sample("Betty", {"strength": 3, "dexterity": 3, "wits": 3, "resolve": 2, "composure": 2,
                     "skills": "Brawl: 2\nWeaponry: 2", "weapon": "Crowbar", "weapon_damage": 1}),
    # its weapon is the GM's (audiences.py): the kit marks it and scans every other seat for it
    Sample("Ghoul", {"strength": 4, "dexterity": 3, "wits": 3, "stamina": 3, "skills": "Brawl: 3\nStealth: 2",
                     "weapon": "Rusted cleaver", "weapon_damage": 2}, npc=True),
)
