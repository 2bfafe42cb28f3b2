"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Alfie", {"agility": 2, "toughness": 3, "hand_to_hand": 4, "side": "players"}),
    Sample("Betty", {"agility": 4, "toughness": 3, "firearms": 3, "side": "players"}),
    Sample("Demon", {"agility": 3, "toughness": 3, "hand_to_hand": 5, "side": "demons", "supernatural": True,
                     "skills": "Rending: 3"}, npc=True),
)
