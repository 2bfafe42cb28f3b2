"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text."""

from __future__ import annotations

from games.contract import Sample

SAMPLES = (
    Sample("Wren", {"notes": "A courier who never stops.", "stats": "Wits: 3\nNerve: 2"}),
    Sample("Lamplighter", {"notes": "Hates lanterns; nests in the old gasworks.", "stats": "Claws: 5"}, npc=True),
)
