"""The fields Demon City's rules keep (issue 21): Current Toughness, Injured and Out of the fight
(and the Injury result) are the rules' and the GM's. A player still makes a character through the
sheet form (the fields shown, not editable), the end of Action Rounds writes back what the fight
leaves (the decided reading "003, damage belongs to the fight": the Toughness and Injury of one who
went out stay, "out of the fight" ends for the living), and a player's later edit of the rest
leaves them as the fight left them.

Seed 003: "the target subtracts that number from their Current Toughness. At Current Toughness
-1 they are out of the fight and roll on the Injury table"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.models import Character, SheetRequest
from tests.integration.test_demon_city_no_leak import dc, post  # noqa: F401 (dc is a fixture)

SHEET = {"sheet_side": "", "sheet_agility": "4", "sheet_toughness": "3", "sheet_armour": "0",
         "sheet_hand_to_hand": "2", "sheet_firearms": "0", "sheet_exotic_weapons": "0", "sheet_skills": "Driving: 5"}
FORGED = {"sheet_current_toughness": "-3", "sheet_injured": "on", "sheet_out_of_fight": "on", "sheet_injury": "Killed"}


def test_a_player_makes_a_character_and_the_kept_fields_start_as_the_rules_say(dc) -> None:
    ann = dc["clients"]["ann"]
    url = reverse("character_new", args=[dc["table"].pk])
    form = ann.get(url).content.decode()
    for key in ("current_toughness", "injured", "out_of_fight", "injury"):
        field = form[form.index(f'name="sheet_{key}"'):]
        assert "disabled" in field[:field.index(">")], key
    # a browser sends no disabled field; one forged anyway is not taken
    answer = ann.post(url, {"name": "Cassie", **SHEET, **FORGED})
    assert answer.status_code == 302, answer.content.decode()[:400]
    cassie = Character.objects.get(table=dc["table"], name="Cassie")
    # "other skills are the Host's to grant": a new character's Driving 5 waits for the GM (issue 36)
    assert cassie.owner_id == dc["ann"].pk and cassie.sheet["skills"] == {}
    assert SheetRequest.objects.get(character=cassie, status="open").sheet == {"skills": {"Driving": 5}}
    assert (cassie.sheet["current_toughness"], cassie.sheet["injured"], cassie.sheet["out_of_fight"],
            cassie.sheet["injury"]) == (None, False, False, "")


def test_the_end_of_action_rounds_writes_them_back_and_a_player_s_edit_keeps_them(dc) -> None:
    alfie = f"c{dc['alfie'].pk}"
    post(dc, "gm", "start", {"characters": [dc["alfie"].pk, dc["demon"].pk]})
    post(dc, "gm", "set_condition", {"combatant": alfie, "field": "current_toughness", "value": "-2"})
    post(dc, "gm", "set_condition", {"combatant": alfie, "field": "injured", "value": "yes"})
    post(dc, "gm", "set_condition", {"combatant": alfie, "field": "out_of_fight", "value": "yes"})
    post(dc, "gm", "end", {})
    dc["alfie"].refresh_from_db()
    # he went out: his Toughness and injury stay; "out of the fight" ends with the fight
    assert (dc["alfie"].sheet["current_toughness"], dc["alfie"].sheet["injured"],
            dc["alfie"].sheet["out_of_fight"]) == (-2, True, False)
    # Ann raises Alfie's Hand-to-Hand through the sheet form: the fight's harm stays
    answer = dc["clients"]["ann"].post(reverse("character_edit", args=[dc["table"].pk, dc["alfie"].pk]), {
        "name": "Alfie", "version": dc["alfie"].version, **SHEET, "sheet_agility": "2", "sheet_hand_to_hand": "5",
        "sheet_skills": "", **FORGED})
    assert answer.status_code == 302, answer.content.decode()[:400]
    dc["alfie"].refresh_from_db()  # in play: Hand-to-Hand 5 waits for the GM, who approves it
    request = SheetRequest.objects.get(character=dc["alfie"], status="open")
    assert dc["alfie"].sheet["hand_to_hand"] != 5 and request.sheet["hand_to_hand"] == 5
    services.request_approve(table=dc["table"], actor=dc["gm"], request_id=request.pk)
    dc["alfie"].refresh_from_db()
    assert dc["alfie"].sheet["hand_to_hand"] == 5
    assert (dc["alfie"].sheet["current_toughness"], dc["alfie"].sheet["injured"],
            dc["alfie"].sheet["out_of_fight"]) == (-2, True, False)
    # the service refuses a player's change of one, changing nothing; the GM's is taken
    with pytest.raises(services.NotAllowed, match="Current Toughness is the rules"):
        services.character_update(character=dc["alfie"], actor=dc["ann"], name="Alfie",
                                  sheet={**dc["alfie"].sheet, "current_toughness": 3})
    services.character_update(character=dc["alfie"], actor=dc["gm"], name="Alfie",
                              sheet={**dc["alfie"].sheet, "current_toughness": 3, "injured": False})
    dc["alfie"].refresh_from_db()
    assert (dc["alfie"].sheet["current_toughness"], dc["alfie"].sheet["injured"]) == (3, False)
