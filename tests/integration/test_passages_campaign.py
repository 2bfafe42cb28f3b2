"""Passages over a campaign at a table (issue 35), through the platform's routes: the rest once per
span of time, the GM's clock writing the sheets, and time refused in a fight. The decided reading:
"001, outside combat: Fatigue recovers when the Persona rests or leaves the Scene, at most once per
span of time passed; untended wounds keep draining as the seed says until tended."
"""

from __future__ import annotations

from tabletop.models import Character, Event

from tests.integration.test_passages_table import HTMX, cid, last, page, post, refused, snapshot, state, table  # noqa: F401


def sheet(t: dict, name: str) -> dict:
    return Character.objects.get(pk=t[name].pk).sheet


def test_a_rest_is_once_per_span_and_the_clock_writes_the_sheets(table) -> None:  # noqa: F811
    """The fault found in long play: "rest" outside a fight gave +5 Wounds a click with no limit."""
    betty = cid(table["betty"])
    post(table, "gm", "correct", {"combatant": betty, "track": "wounds", "value": "40"})
    post(table, "gm", "correct", {"combatant": betty, "track": "fatigue", "value": "10"})
    assert post(table, "bob", "rest", {"combatant": betty}).status_code == 200
    assert (sheet(table, "betty")["wounds"], sheet(table, "betty")["fatigue"]) == (40, 100)
    post(table, "gm", "correct", {"combatant": betty, "track": "fatigue", "value": "10"})
    before = snapshot(table)
    for _ in range(3):
        refused(post(table, "bob", "rest", {"combatant": betty}), 400, "Betty has rested since time last passed")
    assert snapshot(table) == before
    refused(post(table, "bob", "pass_time", {"span": "night"}), 400, "Only the GM")
    assert snapshot(table) == before
    assert post(table, "gm", "pass_time", {"span": "night"}).status_code == 200
    assert (sheet(table, "betty")["wounds"], sheet(table, "betty")["fatigue"]) == (45, 100)
    line = Event.objects.filter(table=table["table"], kind="passages.time_recovered").latest("seq").summary
    assert line == "A night passes: Betty: Wounds 40 → 45, Fatigue 10 → 100."
    assert state(table)["clock"] == {"day": 1, "scene": 1}


def test_time_does_not_pass_in_a_fight(table) -> None:  # noqa: F811
    post(table, "gm", "combat_start", {"characters": [table["trayer"].pk, table["betty"].pk]})
    before = snapshot(table)
    refused(post(table, "gm", "pass_time", {"span": "scene"}), 400, "A fight is under way: end it before time passes")
    assert snapshot(table) == before


def test_the_director_approves_each_marked_skills_rise_on_the_close_form(table) -> None:  # noqa: F811
    """The decided reading: "when the session closes the Director approves a rise of each marked
    skill's BASE (default +1, a table option), never past 95": the GM's campaign box lists each
    marked skill with its box, ticked; an unticked one does not rise."""
    from tabletop.models import ProcedureState

    betty = cid(table["betty"])
    assert table["clients"]["gm"].post(f"/tables/{table['table'].pk}/sessions/open/", **HTMX).status_code == 200
    row = ProcedureState.objects.get(table=table["table"]) if ProcedureState.objects.filter(
        table=table["table"]).exists() else None
    from games import registry

    state_now = row.state if row else registry.get("passages").engine.new_state()
    state_now["marks"] = {betty: ["Stealth", "Brawl"]}  # as two counted checks leave them
    ProcedureState.objects.update_or_create(table=table["table"], defaults={"state": state_now})
    gm_page = page(table, "gm")
    for skill in ("Stealth", "Brawl"):
        assert f'name="approve" value="{betty}:{skill}" form="session-close" checked' in gm_page
    assert 'name="approve"' not in page(table, "bob") and 'name="approve"' not in page(table, "watcher")
    closed = table["clients"]["gm"].post(f"/tables/{table['table'].pk}/sessions/close/",
                                         {"approving": "1", "approve": [f"{betty}:Stealth"]}, **HTMX)
    assert closed.status_code == 200
    skills = sheet(table, "betty")["skills"]
    assert (skills["Stealth"], skills["Brawl"]) == (41, 30)
    assert last(table, "skills_advanced").summary == "The session closes; skills used in earnest rise: Betty's Stealth 40 → 41."


def test_a_one_off_check_marks_its_skill_and_a_practice_does_not(table, monkeypatch) -> None:  # noqa: F811
    """The decided reading: "a skill used "practically, in pursuit of the story" (a Check,
    Challenge or Contest that counted, never practice) is marked in the session". The table's
    check form outside any scene marks it too; the log replays the mark."""
    from tests.support.kit import fold, stored_state

    trayer = table["trayer"].pk
    post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "practice"},
         check=True, rolls=(), monkeypatch=monkeypatch)
    assert (state(table).get("marks") or {}).get(f"c{trayer}") is None
    post(table, "ann", "check", {"character": trayer, "skill": "Campfire", "mode": "check"},
         check=True, rolls=(40,), monkeypatch=monkeypatch)
    assert state(table)["marks"][f"c{trayer}"] == ["Campfire"]
    assert f'value="c{trayer}:Campfire" form="session-close"' in page(table, "gm")
    assert fold(table["table"]) == stored_state(table["table"])
