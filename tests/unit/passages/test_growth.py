"""Passages grows by its own rules alone (issue 36): skills used in earnest are marked and rise at
a session's close as the Director approves (campaign.py); nothing is bought. The decided reading
quoted: "001, advancement: a skill used "practically, in pursuit of the story" (a Check, Challenge
or Contest that counted, never practice) is marked in the session; when the session closes the
Director approves a rise of each marked skill's BASE (default +1, a table option), never past 95."
"""

from __future__ import annotations

from games.core.growth import Price, whose
from games.passages.campaign import ADVANCED
from games.passages.system import SYSTEM
from tests.unit.passages.helpers import Scene, persona
from tests.unit.passages.test_campaign import close


def test_nothing_is_for_sale_and_the_rises_are_its_growth_events() -> None:
    growth = SYSTEM.growth
    assert growth is not None and (growth.pool, growth.kinds) == ("", (ADVANCED,))
    # a Director's approval of a request takes nothing from any pool: a change costs nothing
    assert growth.price({"skills": {"Stealth": 40}}, {"skills": {"Stealth": 45}}, {}) == Price(0)


def test_a_rise_at_the_close_is_a_growth_event_of_the_persona_it_raised() -> None:
    scene = Scene()
    ana = persona("c1", "Ana", skills={"Stealth": 40})
    scene.seat(ana, owner=2)
    ghoul = {**persona("c2", "Ghoul"), "npc": True}  # an NPC's skills do not rise
    scene.seat(ghoul)
    scene.contest(ana, ghoul)
    scene.contest_roll("c1", "Stealth", 50)
    scene.contest_roll("c2", "Brawl", 50)
    scene.send({"type": "end"})
    [advanced] = close(scene)
    assert advanced["type"] in SYSTEM.growth.kinds  # type: ignore[union-attr]
    assert whose(advanced) == ("c1",)
    assert scene.sheet("c1")["skills"]["Stealth"] == 41
