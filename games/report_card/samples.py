"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Marieta", {"fast": "on", "clever": "on", "a_plus": "FREE", "f_skill": "GYM", "major": "17"}),
    Sample("Jo", {"wise": "on", "a_plus": "LAW", "f_skill": "ART", "major": "The Hierophant"}),
    Sample("Ms Okafor", {"charming": "on", "a_plus": "SCI", "f_skill": "GYM", "major": "The Moon"}, npc=True),
)
