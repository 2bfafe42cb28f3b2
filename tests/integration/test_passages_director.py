"""The Director's hand at a Passages table (issue 27): standing in for an absent player with
every choice the player has, and the same correction, Status and Conditions tools in a contest
as in a fight."""

from __future__ import annotations

from tests.integration.test_passages_table import cid, last, page, post, start_fight, table  # noqa: F401


def test_the_director_stands_in_with_every_choice_the_player_has(table, monkeypatch) -> None:  # noqa: F811
    """The Director "standing in for an absent player has every choice the player has (OUT
    actions, tending, Intent, skill, damage)" (issue 27)."""
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    start_fight(table)
    gm = page(table, "gm")
    tools = gm[gm.index('id="fight-tools-t1-declare-'):]
    for field in (f'id="si-intent-{trayer}"', f'id="si-combat-{trayer}"', f'id="si-damage-{trayer}"',
                  f'id="si-action-{trayer}"', f'id="si-patient-{trayer}"',
                  'aria-label="Stand in: Declare Trayer OUT"', 'aria-label="Stand in: Trayer tends wounds"'):
        assert field in tools, field
    assert "si-" not in page(table, "ann"), "the stand-in is the Director's alone"
    done = post(table, "gm", "declare", {"combatant": trayer, "stance": "out", "action": "lights a torch"})
    assert done.status_code == 200
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    gm = page(table, "gm")
    assert 'aria-label="Stand in: a check for Trayer"' in gm
    post(table, "gm", "check", {"combatant": trayer, "skill": "Campfire"}, rolls=(13,), monkeypatch=monkeypatch)
    assert last(table, "checked").summary.startswith("Trayer makes a challenge of Campfire")


def test_the_contest_tools_correct_set_status_and_conditions(table) -> None:  # noqa: F811
    """"the contest tools have the correction, Status and Conditions forms the engine already
    allows" (issue 27)."""
    post(table, "gm", "contest_start", {"characters": [table["trayer"].pk, table["betty"].pk]})
    gm = page(table, "gm")
    tools = gm[gm.index('id="contest-tools-r1-'):]
    for label in ('aria-label="Correct a track"', 'aria-label="Combat Status"', 'aria-label="Conditions"',
                  'aria-label="Reinforcements"'):
        assert label in tools, label
    assert label not in page(table, "bob")
    betty = cid(table["betty"])
    assert post(table, "gm", "set_status", {"combatant": betty, "status": "winded"}).status_code == 200
    assert post(table, "gm", "correct", {"combatant": betty, "track": "fatigue", "value": 60}).status_code == 200
    assert "Betty: winded." == last(table, "status_set").summary


def test_the_one_off_check_route_refuses_a_persona_in_a_fight(table, monkeypatch) -> None:  # noqa: F811
    """A hand-made POST to the one-off check cannot skip the fight's forced challenge or its
    Downed: a Persona in the fight checks there (issue 27); nothing is logged."""
    from tests.integration.test_passages_table import refused, snapshot
    start_fight(table)
    before = snapshot(table)
    refused(post(table, "ann", "check", {"character": table["trayer"].pk, "skill": "Campfire", "mode": "check"},
                 check=True, rolls=(13,), monkeypatch=monkeypatch), 400, "Trayer is in the fight under way")
    assert snapshot(table) == before
    done = post(table, "bob", "check", {"character": table["betty"].pk, "skill": "Stealth", "mode": "check"},
                check=True, rolls=(13,), monkeypatch=monkeypatch)
    assert done.status_code == 200, "Betty is not in the fight"


def test_the_director_rests_and_tends_for_a_player_away_between_fights(table) -> None:  # noqa: F811
    """Outside a fight too, the Director has the player's choices: each Persona's rest and
    tending are on the Director's page, not on another player's."""
    post(table, "gm", "correct", {"combatant": cid(table["trayer"]), "track": "fatigue", "value": 60})
    gm, bob = page(table, "gm"), page(table, "bob")
    assert 'Rest <span class="visually-hidden">Betty</span>' not in gm, "nothing to recover: no rest offered"
    # not an "act" (the Director's page hides players' acts: body[data-seat="gm"] .act)
    mine = gm[gm.index(f'<div class="controller-only recover" data-controller="{table["ann"].pk}">'):]
    assert 'Rest <span class="visually-hidden">Trayer</span>' in mine
    assert 'aria-label="Trayer tends wounds"' in gm
    assert 'Rest <span class="visually-hidden">Trayer</span>' not in bob
    assert post(table, "gm", "rest", {"combatant": cid(table["trayer"])}).status_code == 200
