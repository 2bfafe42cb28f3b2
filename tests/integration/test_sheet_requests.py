"""Sheets in play are the rules' and the GM's (issue 36): "Once a character has been used by a rule
move, a field its rules read (stats, skills, tracks, abilities, weapons) changes only by a rule
move, the GM's edit, or its player's request that the GM approves or refuses in one click, seeing
the diff; the log says which. What no rule reads (portrait, notes, description) stays the player's.
A table option turns approvals off for groups who want that. The same for a new character's figures
past what the system allows at creation."

Each of the five systems, through the real views: a player's change to a field its rules read
waits for the GM and the sheet the rules read keeps the old value until approved; a refused
request changes nothing; the request reaches the GM's page and the asker's, no one else's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.sheets import SheetError
from tabletop import services
from tabletop.forms import CharacterForm
from tabletop.models import Character, Event, SheetRequest
from tabletop.services import ServiceError, requests
from tests.support.party import seat_four

pytestmark = pytest.mark.django_db

SYSTEMS = ("shadows", "passages", "harsh_light", "demon_city", "report_card")
HTMX = {"HTTP_HX_REQUEST": "true"}


def client(member) -> Client:
    c = Client()
    c.force_login(member.user)
    return c


def player_sample(system: str):
    return next(s for s in registry.get(system).samples if not s.npc)


def made(system: str, tag: str) -> dict[str, Any]:
    table, gm, ann, bob, watcher = seat_four(tag, system, "Long road")
    sample = player_sample(system)
    hero = services.character_create(table=table, actor=ann, name=sample.name, sheet=sample.sheet)
    Character.objects.filter(pk=hero.pk).update(in_play=True)  # as a rule move marks it (tested below)
    return {"table": table, "gm": gm, "ann": ann, "bob": bob, "watcher": watcher,
            "hero": Character.objects.get(pk=hero.pk)}


def changed(system: str, sheet: dict[str, Any]) -> tuple[str, Any]:
    """One field the rules read, and a value for it the system's sheet accepts: what a player asks."""
    game = registry.get(system)
    # a figure first (what a player buys), then a box, then a name
    for spec in sorted(game.sheet_fields, key=lambda f: ("int", "bool", "text").index(f.kind) if f.kind in (
            "int", "bool", "text") else 3):
        if not spec.asked:
            continue
        old = sheet.get(spec.key, spec.default)
        tries: list[Any] = []
        if spec.kind == "int":
            base = int(old) if str(old).lstrip("-").isdigit() else 0
            tries = [base + 1, base - 1]
        elif spec.kind == "bool":
            tries = [not old]
        elif spec.kind == "text":
            tries = [f"{old} II" if old else "Knife"]
        for value in tries:
            try:
                cleaned = game.clean_sheet({**sheet, spec.key: value})
            except SheetError:
                continue
            if cleaned.get(spec.key) != old:
                return spec.key, value
    raise AssertionError(f"{system}: no field its rules read takes a new value")


def post_sheet(t: dict[str, Any], who: str, key: str, value: Any, notes: str | None = None) -> Any:
    system = t["table"].system
    hero = Character.objects.get(pk=t["hero"].pk)
    data = {k: v for k, v in CharacterForm.initial_from(hero, system).items() if v is not None}
    data[f"sheet_{key}"] = value
    if notes is not None:
        data["sheet_notes"] = notes
    for spec in registry.get(system).sheet_fields:  # a box unticked is not sent
        if spec.kind == "bool" and not data.get(f"sheet_{spec.key}"):
            data.pop(f"sheet_{spec.key}", None)
    return client(t[who]).post(reverse("character_edit", args=[t["table"].pk, hero.pk]), data)


def test_every_system_marks_what_its_rules_read() -> None:
    for system in SYSTEMS:
        asked = [spec.key for spec in registry.get(system).sheet_fields if spec.asked]
        assert asked, system
        assert all(spec.rules == "" for spec in registry.get(system).sheet_fields
                   if spec.kind in ("colour", "longtext") and spec.key in ("colour", "notes")), system


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_players_change_in_play_waits_for_the_gm_and_the_rules_read_the_old_value(system) -> None:
    t = made(system, system)
    key, value = changed(system, dict(t["hero"].sheet))
    old = t["hero"].sheet.get(key)
    has_notes = any(spec.key == "notes" for spec in registry.get(system).sheet_fields)
    answer = post_sheet(t, "ann", key, value, notes="Keeps a diary." if has_notes else None)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    hero = Character.objects.get(pk=t["hero"].pk)
    assert hero.sheet.get(key) == old  # what the rules read, until the GM approves
    if has_notes:
        assert hero.sheet["notes"] == "Keeps a diary."  # what no rule reads stays the player's
    request = SheetRequest.objects.get(character=hero, status="open")
    assert request.sheet == {key: registry.get(system).clean_sheet({**hero.sheet, key: value})[key]}
    label = next(spec.label for spec in registry.get(system).sheet_fields if spec.key == key)
    page = client(t["gm"]).get(reverse("table", args=[t["table"].pk])).content.decode()
    assert f'id="request-{request.pk}"' in page and label in page
    mine = client(t["ann"]).get(reverse("table", args=[t["table"].pk])).content.decode()
    assert f'id="request-{request.pk}"' in mine and "Withdraw" in mine
    for other in ("bob", "watcher"):
        seen = client(t[other]).get(reverse("table", args=[t["table"].pk])).content.decode()
        assert f'id="request-{request.pk}"' not in seen, other
    asked = Event.objects.get(table=t["table"], kind="character.requested")
    # the others read that a request was made, not its figures
    assert asked.private_audience == "owner" and asked.owner_id == t["ann"].pk
    assert asked.payload == {"request": request.pk, "character": hero.pk} and label not in asked.summary
    growth = registry.get(system).growth
    price = requests.request_data(t["table"], request, hero).get("price")
    if price:  # a purchase: with no experience to spend, the GM may refuse it or grant it without charge
        assert f"Approve for {price['cost']} {price['unit']}" in page and "Grant without charge" in page
        short = client(t["gm"]).post(reverse("request_action", args=[t["table"].pk, "approve"]),
                                     {"request": request.pk}, **HTMX)
        assert short.status_code == 400 and "grant it without charge" in short.content.decode()
        assert Character.objects.get(pk=hero.pk).sheet.get(key) == old
    done = client(t["gm"]).post(reverse("request_action", args=[t["table"].pk, "approve"]),
                                {"request": request.pk, **({"free": "on"} if price else {})}, **HTMX)
    assert done.status_code == 200, done.content
    hero = Character.objects.get(pk=t["hero"].pk)
    assert hero.sheet[key] == request.sheet[key]
    if growth is not None and growth.pool:
        assert hero.sheet.get(growth.pool) == t["hero"].sheet.get(growth.pool)  # nothing spent
    approved = Event.objects.get(table=t["table"], kind="character.request_approved")
    assert approved.audience == "everyone" and label in approved.summary and "approves Ann's request" in approved.summary
    assert ("without charge" in approved.summary) == bool(price)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_refused_request_changes_nothing(system) -> None:
    t = made(system, f"r-{system}")
    key, value = changed(system, dict(t["hero"].sheet))
    before = dict(t["hero"].sheet)
    assert post_sheet(t, "ann", key, value).status_code == 302
    request = SheetRequest.objects.get(character=t["hero"], status="open")
    done = client(t["gm"]).post(reverse("request_action", args=[t["table"].pk, "refuse"]),
                                {"request": request.pk}, **HTMX)
    assert done.status_code == 200
    assert Character.objects.get(pk=t["hero"].pk).sheet == before
    request.refresh_from_db()
    assert request.status == "refused"
    again = client(t["gm"]).post(reverse("request_action", args=[t["table"].pk, "approve"]),
                                 {"request": request.pk}, **HTMX)
    assert again.status_code == 400 and "already refused" in again.content.decode()
    assert Character.objects.get(pk=t["hero"].pk).sheet == before


def test_nobody_but_the_gm_decides_and_only_the_asker_withdraws() -> None:
    t = made("demon_city", "who")
    key, value = changed("demon_city", dict(t["hero"].sheet))
    post_sheet(t, "ann", key, value)
    request = SheetRequest.objects.get(character=t["hero"], status="open")
    url = reverse("request_action", args=[t["table"].pk, "approve"])
    for who in ("ann", "bob", "watcher"):
        assert client(t[who]).post(url, {"request": request.pk}, **HTMX).status_code == 403, who
    withdraw = reverse("request_action", args=[t["table"].pk, "withdraw"])
    assert client(t["bob"]).post(withdraw, {"request": request.pk}, **HTMX).status_code == 403
    assert client(t["watcher"]).post(withdraw, {"request": request.pk}, **HTMX).status_code == 403
    for bad in ({"request": "999999"}, {"request": "x"}, {}):
        assert client(t["gm"]).post(url, bad, **HTMX).status_code in (400, 404), bad
    assert client(t["gm"]).post(reverse("request_action", args=[t["table"].pk, "burn"]), {}).status_code == 404
    request.refresh_from_db()
    assert request.status == "open"
    assert client(t["ann"]).post(withdraw, {"request": request.pk}, **HTMX).status_code == 200
    request.refresh_from_db()
    assert request.status == "withdrawn" and Character.objects.get(pk=t["hero"].pk).sheet == t["hero"].sheet


def test_with_approvals_off_a_player_changes_their_sheet_as_typed() -> None:
    t = made("demon_city", "off")
    url = reverse("request_action", args=[t["table"].pk, "approvals"])
    assert client(t["ann"]).post(url, {}, **HTMX).status_code == 403
    assert client(t["gm"]).post(url, {}, **HTMX).status_code == 200  # "on" unticked: off
    key, value = changed("demon_city", dict(t["hero"].sheet))
    assert post_sheet(t, "ann", key, value).status_code == 302
    assert str(Character.objects.get(pk=t["hero"].pk).sheet[key]) == str(value)
    assert not SheetRequest.objects.filter(table=t["table"]).exists()
    assert client(t["gm"]).post(url, {"on": "on"}, **HTMX).status_code == 200
    t["table"].refresh_from_db()
    assert t["table"].sheet_approvals


def test_before_a_rule_move_uses_it_a_character_is_its_players_and_a_task_puts_it_in_play() -> None:
    t = made("demon_city", "fresh")
    Character.objects.filter(pk=t["hero"].pk).update(in_play=False)
    key, value = changed("demon_city", dict(t["hero"].sheet))
    assert post_sheet(t, "ann", key, value).status_code == 302
    assert str(Character.objects.get(pk=t["hero"].pk).sheet[key]) == str(value)
    services.check_roll(table=t["table"], actor=t["ann"], check="task",
                        args={"character": t["hero"].pk, "stat": "agility", "target_number": 1, "opponent": None,
                              "opponent_stat": "agility", "distracted": False, "situation": (),
                              "opponent_situation": (), "lost": ()}, rng=random.Random(3))
    assert Character.objects.get(pk=t["hero"].pk).in_play


def test_the_rules_roll_the_old_figure_until_the_gm_approves() -> None:
    """Demon City: a task rolls as many dice as the stat; Agility asked up from 2 still rolls 2."""
    t = made("demon_city", "dice")
    Character.objects.filter(pk=t["hero"].pk).update(sheet={**t["hero"].sheet, "agility": 2})
    assert post_sheet(t, "ann", "agility", 5).status_code == 302
    event = services.check_roll(table=t["table"], actor=t["ann"], check="task",
                                args={"character": t["hero"].pk, "stat": "agility", "target_number": 1,
                                      "opponent": None, "opponent_stat": "agility", "distracted": False,
                                      "situation": (), "opponent_situation": (), "lost": ()}, rng=random.Random(3))
    assert "Agility 2" in event.summary or "agility 2" in event.summary.lower(), event.summary


def test_a_kept_track_is_still_refused_to_a_player() -> None:
    t = made("demon_city", "kept")
    kept = next(spec for spec in registry.get("demon_city").sheet_fields if spec.rules == "kept")
    was = t["hero"].sheet.get(kept.key)
    post_sheet(t, "ann", kept.key, 99)  # the form shows it, not editable: what is posted is not read
    assert Character.objects.get(pk=t["hero"].pk).sheet.get(kept.key) == was
    assert not SheetRequest.objects.filter(table=t["table"]).exists()
    with pytest.raises(ServiceError):  # and the service refuses it outright
        services.character_update(character=t["hero"], actor=t["ann"], name=t["hero"].name,
                                  sheet={**t["hero"].sheet, kept.key: 1})


# A figure past what each system allows a new character, as the sheet form sends it (Report Card's
# sheet refuses outright what its rules do not allow at creation: it has nothing to ask).
PAST_CREATION = {
    "shadows": ("quickness", 20),
    "passages": ("skills", "Soldiery (Sword and Shield): 95\nCampfire: 33\nIntimidation: 32"),
    "harsh_light": ("again", 8),
    "demon_city": ("toughness", 7),
}


@pytest.mark.parametrize("system", sorted(PAST_CREATION))
def test_a_new_characters_figures_past_creation_wait_for_the_gm(system) -> None:
    """Issue 36: "The same for a new character's figures past what the system allows at creation"."""
    table, gm, ann, bob, watcher = seat_four(f"c-{system}", system, "New faces")
    game = registry.get(system)
    sample = player_sample(system)
    base = game.clean_sheet(dict(sample.sheet))
    assert game.sheet.creation(base) == [], system  # the sample player character is within creation
    key, value = PAST_CREATION[system]
    assert game.sheet.creation(_cleans(game, base, key, value)), system
    hero = services.character_create(table=table, actor=ann, name="Upstart", sheet={**sample.sheet, key: value})
    assert hero.sheet.get(key) != _cleans(game, base, key, value)[key]
    request = SheetRequest.objects.get(character=hero, status="open")
    assert key in request.sheet and "new character" in request.reason
    gm_made = services.character_create(table=table, actor=gm, name="Elder", sheet={**sample.sheet, key: value})
    assert gm_made.sheet[key] == _cleans(game, base, key, value)[key]  # the GM's are made as typed
    services.request_approve(table=table, actor=gm, request_id=request.pk)
    assert Character.objects.get(pk=hero.pk).sheet[key] == request.sheet[key]


def _cleans(game, base: dict[str, Any], key: str, value: Any) -> dict[str, Any] | None:
    try:
        return game.clean_sheet({**base, key: value})
    except SheetError:
        return None


def test_a_request_is_refused_when_the_character_is_not_at_this_table() -> None:
    t = made("demon_city", "here")
    u = made("demon_city", "there")
    key, value = changed("demon_city", dict(u["hero"].sheet))
    post_sheet(u, "ann", key, value)
    theirs = SheetRequest.objects.get(character=u["hero"])
    with pytest.raises(ServiceError):
        services.request_approve(table=t["table"], actor=t["gm"], request_id=theirs.pk)
    theirs.refresh_from_db()
    assert theirs.status == "open"


def test_a_purchase_spends_the_experience_the_gm_awarded() -> None:
    """000, 003, 004: "the GM awards experience at a session's close, with a reason, logged; what it
    buys and at what cost are table options with documented defaults; a purchase is a request the
    GM approves" (Demon City: Agility 2 → 3 costs 2 × 3 at the default)."""
    t = made("demon_city", "buy")
    hero = t["hero"]
    Character.objects.filter(pk=hero.pk).update(sheet={**hero.sheet, "agility": 2})
    services.procedure_command(table=t["table"], actor=t["gm"], rng=random.Random(1), command={
        "type": "award", "combatant": f"c{hero.pk}", "amount": 10, "reason": "survived the mill"})
    assert Character.objects.get(pk=hero.pk).sheet["xp"] == 10
    assert post_sheet(t, "ann", "agility", 3).status_code == 302
    request = SheetRequest.objects.get(character=hero, status="open")
    data = requests.request_data(t["table"], request, Character.objects.get(pk=hero.pk))
    assert data["price"]["cost"] == 6 and data["price"]["has"] == 10 and data["price"]["enough"]
    services.request_approve(table=t["table"], actor=t["gm"], request_id=request.pk)
    hero = Character.objects.get(pk=hero.pk)
    assert (hero.sheet["agility"], hero.sheet["xp"]) == (3, 4)
    line = Event.objects.get(table=t["table"], kind="character.request_approved")
    assert line.summary.endswith("(6 XP spent).") and line.payload["cost"] == 6
    page = client(t["bob"]).get(reverse("character_growth", args=[t["table"].pk, hero.pk])).content.decode()
    assert "survived the mill" in page and "6 XP spent" in page  # its growth, what rose, when and why


def test_a_growth_page_is_read_as_the_sheet_may_be() -> None:
    """"A character's growth is a history anyone entitled to the sheet can read": a player
    character's by everyone at the table; a secret NPC's by the GM alone; no one's by a stranger."""
    t = made("demon_city", "page")
    ghoul = services.character_create(table=t["table"], actor=t["gm"], name="Ghoul", npc=True, sheet={})
    for who in ("gm", "ann", "bob", "watcher"):
        assert client(t[who]).get(reverse("character_growth", args=[t["table"].pk, t["hero"].pk])).status_code == 200
    assert client(t["gm"]).get(reverse("character_growth", args=[t["table"].pk, ghoul.pk])).status_code == 200
    for who in ("ann", "watcher"):
        assert client(t[who]).get(reverse("character_growth", args=[t["table"].pk, ghoul.pk])).status_code == 403
    other = made("demon_city", "elsewhere")
    assert client(other["ann"]).get(reverse("character_growth", args=[t["table"].pk, t["hero"].pk])).status_code in (
        403, 404)
    assert client(t["gm"]).get(reverse("character_growth", args=[t["table"].pk, 999999])).status_code == 404


def test_an_edit_or_an_approval_keeps_what_the_rules_wrote_beside_the_fields() -> None:
    """Found by the campaign kit: Demon City writes ``dead`` beside the sheet's fields when the
    Injury table kills; an approved request (or the GM's edit) saved the cleaned fields alone, and
    the dead stood up again."""
    t = made("demon_city", "dead")
    hero = t["hero"]
    Character.objects.filter(pk=hero.pk).update(sheet={**hero.sheet, "agility": 2, "injury": "Killed", "dead": True})
    assert post_sheet(t, "ann", "agility", 3).status_code == 302
    request = SheetRequest.objects.get(character=hero, status="open")
    services.request_approve(table=t["table"], actor=t["gm"], request_id=request.pk, free=True)
    hero = Character.objects.get(pk=hero.pk)
    assert hero.sheet["agility"] == 3 and hero.sheet["dead"] is True
    services.character_update(character=hero, actor=t["gm"], name=hero.name, sheet={**hero.sheet, "agility": 4})
    hero = Character.objects.get(pk=hero.pk)
    assert hero.sheet["agility"] == 4 and hero.sheet["dead"] is True
    assert "Dead" in registry.get("demon_city").glance(hero.sheet).tags


def test_an_edit_before_play_cannot_pass_what_creation_allows() -> None:
    """A cheat's way round creation: make a character within it, then raise a figure before any
    rule move uses it. The raise past creation waits for the GM as at the making; a figure the
    GM set before is not asked again."""
    t = made("demon_city", "cheat")
    Character.objects.filter(pk=t["hero"].pk).update(in_play=False)
    was = t["hero"].sheet["toughness"]
    assert post_sheet(t, "ann", "toughness", 8).status_code == 302
    hero = Character.objects.get(pk=t["hero"].pk)
    assert hero.sheet["toughness"] == was
    request = SheetRequest.objects.get(character=hero, status="open")
    assert request.sheet == {"toughness": 8} and "new character" in request.reason
    services.request_refuse(table=t["table"], actor=t["gm"], request_id=request.pk)
    services.character_update(character=hero, actor=t["gm"], name=hero.name, sheet={**hero.sheet, "toughness": 8})
    hero = Character.objects.get(pk=hero.pk)
    assert post_sheet(t, "ann", "hand_to_hand", 3).status_code == 302  # the GM's Toughness 8 stands
    hero = Character.objects.get(pk=hero.pk)
    assert (hero.sheet["toughness"], hero.sheet["hand_to_hand"]) == (8, 3)
    assert not SheetRequest.objects.filter(character=hero, status="open").exists()
