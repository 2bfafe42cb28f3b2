"""Example characters (games/contract.py, Sample): for a new table's first steps and the
contract kit, which scans every seat but the GM's for the marker word in a sample NPC's free text.

They stand on a small designed sheet (games/core/designs.py), as a table's GM would design it,
so a new Freeform table shows its trackers and saved rolls at once; a character of free stats
("Name: value" lines) is what a table without a design makes."""

from __future__ import annotations

from games.contract import Sample

SAMPLE_DESIGN = {
    "fields": [
        {"key": "hp", "label": "Hit points", "kind": "track", "max": 10},
        {"key": "wits", "label": "Wits", "kind": "number", "min": 0, "max": 5},
        {"key": "skill", "label": "Skills", "kind": "group"},
        {"key": "stealth", "label": "Stealth", "kind": "number", "min": 0, "max": 5},
    ],
    "rolls": [{"label": "Sneak", "notation": "1d20+@skill.stealth"}, {"label": "Think", "notation": "2d6+@wits"}],
}

SAMPLES = (
    Sample("Wren", {"notes": "A courier who never stops.", "design": SAMPLE_DESIGN,
                    "values": {"hp": {"now": 8, "of": 10}, "wits": 3, "skill.stealth": 2}}),
    Sample("Lamplighter", {"notes": "Hates lanterns; nests in the old gasworks.", "design": SAMPLE_DESIGN,
                           "values": {"hp": {"now": 6, "of": 6}, "wits": 1, "skill.stealth": 4}}, npc=True),
)
