"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Alma", {"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2,
                    "quickness": 9, "skills": "Melee: 6\nStealth: 4"}),
    Sample("Bram", {"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2,
                    "quickness": 3, "skills": "Melee: 5\nStealth: 8"}),
    Sample("Ghoul", {"body": 3, "physical": 2, "mind": 3, "mental": 2, "spirit": 3, "emotional": 2,
                     "quickness": 5, "health": 30, "skills": "Claws: 4\nRending: 5",
                     "vulnerabilities": "Silver", "notes": "Lairs under the mill."}, npc=True),
)
