"""The tracks Passages' rules keep (issue 21): Wounds, Fatigue, Untended Wounds and Magical
Resources are the rules' and the Director's. A player still makes a Persona through the sheet
form (the tracks shown, not editable), a fight still writes them back at its end, and a player's
later edit of the rest leaves them as the fight left them.

Seed 001: "Health and Fatigue are the current values of the Persona at the Resolution Point";
"On the Persona Sheet, Wounds and Fatigue each has a track of 20 5% spaces"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.models import Character, SheetRequest
from tests.integration.test_passages_table import cid, post, table  # noqa: F401 (table is a fixture)

SHEET = {"sheet_skills": "Stealth: 40\nBrawl: 30", "sheet_combat_skill": "", "sheet_defense_skill": "",
         "sheet_weapon": "knife", "sheet_weapon_damage": "2", "sheet_armour": "", "sheet_armour_effect": "none"}
FORGED = {"sheet_wounds": "100", "sheet_fatigue": "100", "sheet_untended": "0", "sheet_magic": "3"}
TRACKS = ("wounds", "fatigue", "untended", "magic")


def test_a_player_makes_a_persona_and_the_tracks_start_full(table) -> None:
    ann = table["clients"]["ann"]
    url = reverse("character_new", args=[table["table"].pk])
    form = ann.get(url).content.decode()
    for key in TRACKS:
        field = form[form.index(f'name="sheet_{key}"'):]
        assert "disabled" in field[:field.index(">")], key
    answer = ann.post(url, {"name": "Mira", **SHEET, **FORGED, "sheet_wounds": "7"})
    assert answer.status_code == 302, answer.content.decode()[:400]
    mira = Character.objects.get(table=table["table"], name="Mira")
    assert mira.owner_id == table["ann"].pk and mira.sheet["skills"] == {"Stealth": 40, "Brawl": 30}
    assert [mira.sheet[k] for k in TRACKS] == [100, 100, 0, 100]


def test_a_fight_writes_the_tracks_back_and_a_player_s_edit_keeps_them(table, monkeypatch) -> None:
    trayer, garbo = cid(table["trayer"]), cid(table["garbo"])
    post(table, "gm", "combat_start", {"characters": [table["trayer"].pk, table["garbo"].pk]})
    post(table, "ann", "declare", {"combatant": trayer, "stance": "in", "target": garbo})
    post(table, "gm", "declare", {"combatant": garbo, "stance": "in", "target": trayer})
    post(table, "ann", "combat_roll", {"combatant": trayer}, rolls=(42,), monkeypatch=monkeypatch)
    post(table, "gm", "combat_roll", {"combatant": garbo}, rolls=(80,), monkeypatch=monkeypatch)
    assert post(table, "gm", "resolve").status_code == 200
    assert post(table, "gm", "end").status_code == 200
    table["trayer"].refresh_from_db()
    after = [table["trayer"].sheet[k] for k in TRACKS]
    assert after[:2] == [99, 94]  # the worked example's end of Turn One
    # Ann changes Trayer's weapon through the sheet form: the tracks stay as the fight left them
    answer = table["clients"]["ann"].post(reverse("character_edit", args=[table["table"].pk, table["trayer"].pk]), {
        "name": "Trayer", "version": table["trayer"].version, **SHEET,
        "sheet_skills": "Soldiery (Sword and Shield): 18\nCampfire: 33\nIntimidation: 32",
        "sheet_weapon": "Short Blade", **FORGED})
    assert answer.status_code == 302, answer.content.decode()[:400]
    table["trayer"].refresh_from_db()  # in play: the new weapon waits for the Director (issue 36), who approves
    request = SheetRequest.objects.get(character=table["trayer"], status="open")
    assert table["trayer"].sheet["weapon"] != "Short Blade" and request.sheet["weapon"] == "Short Blade"
    services.request_approve(table=table["table"], actor=table["gm"], request_id=request.pk)
    table["trayer"].refresh_from_db()
    assert table["trayer"].sheet["weapon"] == "Short Blade" and [table["trayer"].sheet[k] for k in TRACKS] == after
    with pytest.raises(services.NotAllowed, match="Wounds is the rules"):
        services.character_update(character=table["trayer"], actor=table["ann"], name="Trayer",
                                  sheet={**table["trayer"].sheet, "wounds": 100, "untended": 0})
    services.character_update(character=table["trayer"], actor=table["gm"], name="Trayer",
                              sheet={**table["trayer"].sheet, "wounds": 100, "untended": 0})
    table["trayer"].refresh_from_db()
    assert table["trayer"].sheet["wounds"] == 100
