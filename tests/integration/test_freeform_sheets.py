"""Freeform for any game, through the views (tabletop/views/designed.py): the GM designs the
sheet, a player makes a character on it, rolls read it, trackers change it live; every refusal
is a clear sentence that changes nothing, and no request answers 500. A Freeform table has no
rule text: the design is the table's rules, and hidden information is the platform's (an NPC's
sheet is the GM's unless the table shows it)."""

from __future__ import annotations

import html
import random

import pytest
from django.test import Client
from django.urls import reverse

from tabletop.models import Character, Event, SheetTemplate
from tabletop.feed.seat import Seat, SPECTATOR
from tests.support.frames import logged, seat_frame

HTMX = {"HTTP_HX_REQUEST": "true"}
DESIGN_POST = {
    "f-0-kind": "number", "f-0-key": "str", "f-0-label": "Strength", "f-0-min": "-2", "f-0-max": "5", "f-0-max": "5",
    "f-1-kind": "track", "f-1-key": "hp", "f-1-label": "Hit points", "f-1-max": "10",
    "f-2-kind": "group", "f-2-key": "skill", "f-2-label": "Skills",
    "f-3-kind": "number", "f-3-key": "stealth", "f-3-label": "Stealth",
    "r-0-label": "Sneak", "r-0-notation": "1d20+@skill.stealth",
}


def client(member) -> Client:
    c = Client(raise_request_exception=False)
    c.force_login(member.user)
    return c


def design(table, **extra: str) -> Client:
    gm = client(table.gm)
    answer = gm.post(reverse("sheet_design", args=[table.row.pk]), {**DESIGN_POST, "op": "save", **extra})
    assert answer.status_code == 302, answer.content.decode()[:500]
    table.row.refresh_from_db()
    return gm


def make(table, member, name: str, **values: str) -> Character:
    answer = client(member).post(reverse("designed_sheet_new", args=[table.row.pk]), {"name": name, **values})
    assert answer.status_code == 302, answer.content.decode()[:800]
    return Character.objects.get(table=table.row, name=name)


def act(member, table, action: str, data: dict) -> tuple[int, str]:
    answer = client(member).post(reverse("sheet_action", args=[table.row.pk, action]), data, **HTMX)
    return answer.status_code, html.unescape(answer.content.decode())


def test_the_gm_designs_the_sheet_on_its_own_page_and_the_design_is_logged_for_everyone(table) -> None:
    gm = client(table.gm)
    page = gm.get(reverse("sheet_design", args=[table.row.pk]))
    assert page.status_code == 200 and "Design the sheet" in page.content.decode()
    # a field added, moved up, then the design saved
    added = gm.post(reverse("sheet_design", args=[table.row.pk]), {
        **DESIGN_POST, "op": "add", "new-kind": "checkbox", "new-key": "lucky", "new-label": "Lucky"})
    assert added.status_code == 200 and 'name="f-4-key" value="lucky"' in added.content.decode()
    moved = gm.post(reverse("sheet_design", args=[table.row.pk]), {
        **DESIGN_POST, "f-4-kind": "checkbox", "f-4-key": "lucky", "f-4-label": "Lucky", "op": "up:4"})
    assert 'name="f-3-key" value="lucky"' in moved.content.decode()
    blank = gm.post(reverse("sheet_design", args=[table.row.pk]), {**DESIGN_POST, "f-0-key": "", "op": "down:3"})
    assert 'name="f-0-key" value=""' in blank.content.decode()  # a key cleared stays cleared in the draft
    design(table)
    assert [f["key"] for f in table.row.sheet_design["fields"]] == ["str", "hp", "skill", "stealth"]
    line = Event.objects.filter(table=table.row, kind="sheet.designed").get()
    assert line.audience == "everyone" and "designs the sheet (3 fields): adds Strength, Hit points, Skills: Stealth;" in line.summary
    assert "Design the sheet" not in client(table.ann).get(reverse("table", args=[table.row.pk])).content.decode()
    # the export carries the design, as the log does
    export = b"".join(client(table.ann).get(reverse("export", args=[table.row.pk, "json"])).streaming_content).decode()
    assert "sheet.designed" in export and '"label": "Stealth"' in export


def test_only_the_gm_designs_and_a_faulty_design_is_refused_in_a_sentence(table) -> None:
    url = reverse("sheet_design", args=[table.row.pk])
    assert client(table.ann).post(url, {**DESIGN_POST, "op": "save"}).status_code == 403
    assert client(table.watcher).get(url).status_code == 403
    bad = client(table.gm).post(url, {**DESIGN_POST, "r-0-notation": "1d20+@dex", "op": "save"})
    assert bad.status_code == 400
    assert "Saved roll 1 (Sneak) reads @dex, which is no field of this sheet." in html.unescape(bad.content.decode())
    bad_add = client(table.gm).post(url, {**DESIGN_POST, "op": "add", "new-kind": "number", "new-key": "9lives"})
    assert bad_add.status_code == 400 and "The new field: a key is letters" in html.unescape(bad_add.content.decode())
    table.row.refresh_from_db()
    assert table.row.sheet_design == {} and not Event.objects.filter(kind="sheet.designed").exists()


def test_a_template_saved_by_the_gm_and_the_built_ins_start_a_design(table) -> None:
    gm = design(table)
    url = reverse("sheet_design", args=[table.row.pk])
    saved = gm.post(url, {**DESIGN_POST, "op": "save-template", "template_name": "My heist"})
    assert saved.status_code == 200 and SheetTemplate.objects.get(owner=table.gm.user).name == "My heist"
    mine = SheetTemplate.objects.get(owner=table.gm.user)
    started = gm.post(url, {"op": "start", "template": f"mine:{mine.pk}"}).content.decode()
    assert 'value="stealth"' in started
    d20 = gm.post(url, {"op": "start", "template": "built:d20"}).content.decode()
    assert 'value="1d20+@str+@skill.melee"' in d20


def test_a_character_on_the_design_is_checked_against_its_kinds(table) -> None:
    design(table)
    url = reverse("designed_sheet_new", args=[table.row.pk])
    form = client(table.ann).get(url).content.decode()
    assert 'name="v_skill.stealth"' in form and 'name="v_hp__of"' in form
    refused = client(table.ann).post(url, {"name": "Wren", "v_str": "9", "v_hp": "3", "v_hp__of": "10"})
    assert refused.status_code == 400
    assert "Strength runs from -2 to 5; 9 is outside it." in html.unescape(refused.content.decode())
    assert not Character.objects.filter(name="Wren").exists()
    wren = make(table, table.ann, "Wren", v_str="3", v_hp="8", v_hp__of="10", **{"v_skill.stealth": "4"})
    assert wren.sheet["values"] == {"str": 3, "hp": {"now": 8, "of": 10}, "skill.stealth": 4}
    assert wren.owner == table.ann


def test_a_saved_roll_reads_the_sheet_and_the_line_shows_both(table, monkeypatch) -> None:
    monkeypatch.setattr("tabletop.actions.system_rng", lambda: random.Random(5))
    design(table)
    wren = make(table, table.ann, "Wren", v_str="3", **{"v_skill.stealth": "4"})
    status, _ = act(table.ann, table, "roll", {"character": wren.pk, "saved": "0"})
    assert status == 200
    roll = Event.objects.filter(kind="sheet.rolled").get()
    total = roll.payload["roll"]["total"]
    assert roll.audience == "everyone" and roll.payload["reads"] == [["skill.stealth", 4]]
    assert roll.summary.startswith(f"Ann rolls for Wren, Sneak: 1d20+@skill.stealth (@skill.stealth +4) = {total}")
    assert total == roll.payload["roll"]["groups"][0]["dice"][0]["value"] + 4
    # the log draws the line and its die, not the dice engine's working ("[1d20 (17) + 4 = `21`]")
    page = client(table.ann).get(reverse("table", args=[table.row.pk])).content.decode()
    line = page[page.index(f'id="event-{roll.seq}"'):]
    line = html.unescape(line[: line.index("</li>")])
    assert f"Ann rolls for Wren, Sneak: 1d20+@skill.stealth (@skill.stealth +4) = {total}" in line
    assert "`" not in line and "[1d20" not in line and 'class="die' in line
    # typed notation reads it too, and a track its current value
    act(table.gm, table, "roll", {"character": wren.pk, "notation": "1d4+@str+@hp"})
    assert "(@str +3, @hp +10)" in Event.objects.filter(kind="sheet.rolled").last().summary


@pytest.mark.parametrize(("who", "data", "status", "said"), [
    ("bob", {"saved": "0"}, 403, "You roll only for your own character; Wren is not yours."),
    ("ann", {"notation": "1d20+@dex"}, 400, "Nothing was rolled: @dex is not on this sheet (it has @str, @hp, @skill.stealth)."),
    ("ann", {"saved": "7"}, 404, "There is no such saved roll on this sheet."),
    ("ann", {"notation": "1d20 + banana"}, 400, "is not dice notation"),
    ("watcher", {"saved": "0"}, 403, ""),
])
def test_a_refused_roll_says_why_and_rolls_nothing(table, who, data, status, said) -> None:
    design(table)
    wren = make(table, table.ann, "Wren")
    got, body = act(getattr(table, who), table, "roll", {"character": wren.pk, **data})
    assert got == status and said in body
    assert not Event.objects.filter(kind="sheet.rolled").exists()


def test_a_tracker_changes_live_for_everyone_who_sees_the_sheet(table) -> None:
    design(table)
    wren = make(table, table.ann, "Wren", v_hp="5", v_hp__of="10")
    with logged() as events:
        status, _ = act(table.ann, table, "track", {"character": wren.pk, "field": "hp", "change": "down"})
    assert status == 200
    wren.refresh_from_db()
    assert wren.sheet["values"]["hp"] == {"now": 4, "of": 10}
    assert events[-1].summary == "Ann changes Wren: Hit points 5/10 → 4/10."
    # the GM's and a spectator's pages are redrawn with it: the panel shows 4 of 10
    for seat in (Seat("gm"), SPECTATOR):
        frame = seat_frame(events[-1], seat)
        assert 'data-field="hp"' in frame and '<span class="ff-now">4</span>/10' in frame, seat
    # nobody else's, no spectator's, not past its bounds
    assert act(table.bob, table, "track", {"character": wren.pk, "field": "hp", "change": "up"})[0] == 403
    assert act(table.watcher, table, "track", {"character": wren.pk, "field": "hp", "change": "up"})[0] == 403
    assert act(table.gm, table, "track", {"character": wren.pk, "field": "str", "change": "up"})[0] == 200
    for _ in range(5):
        act(table.gm, table, "track", {"character": wren.pk, "field": "str", "change": "up"})
    status, body = act(table.gm, table, "track", {"character": wren.pk, "field": "str", "change": "up"})
    assert status == 400 and "Strength is already at its maximum, 5." in body
    status, body = act(table.gm, table, "track", {"character": wren.pk, "field": "skill", "change": "up"})
    assert status == 400 and "Wren's sheet has no tracker or counter called skill." in body


def test_a_new_design_keeps_the_values_of_the_fields_that_stay(table) -> None:
    design(table)
    wren = make(table, table.ann, "Wren", v_str="4", v_hp="6", v_hp__of="10")
    old = make(table, table.bob, "Old")  # made on the design too
    Character.objects.filter(pk=old.pk).update(sheet={"colour": "#123456", "notes": "", "stats": [["Wits", "3"]]})
    design(table, **{"f-0-key": "might", "f-0-label": "Might"})
    wren.refresh_from_db()
    assert wren.sheet["values"] == {"might": 0, "hp": {"now": 6, "of": 10}, "skill.stealth": 0}
    assert Character.objects.get(pk=old.pk).sheet["stats"] == [["Wits", "3"]]  # free stats kept as they were
    assert Event.objects.filter(kind="character.updated", summary="Wren's sheet follows the new design.").exists()


def test_a_secret_npc_s_designed_sheet_reaches_no_player_byte(table) -> None:
    design(table)
    gm = client(table.gm)
    made = gm.post(reverse("designed_sheet_new", args=[table.row.pk]), {
        "name": "Lamplighter", "kind": "npc", "v_str": "5", "v_hp": "7", "v_hp__of": "9",
        "v_skill.stealth": "8317"})
    assert made.status_code == 302
    npc = Character.objects.get(name="Lamplighter")
    assert npc.is_npc and table.row.npc_sheets_secret
    with logged() as events:
        act(table.gm, table, "track", {"character": npc.pk, "field": "hp", "change": "down"})
        act(table.gm, table, "roll", {"character": npc.pk, "notation": "1d20+@skill.stealth"})
    marks = ("8317", "7/9", "6/9", "@skill.stealth +")
    for who, seat in ((table.ann, Seat("player", table.ann.pk)), (table.watcher, SPECTATOR)):
        page = html.unescape(client(who).get(reverse("table", args=[table.row.pk])).content.decode())
        frames = "".join(html.unescape(seat_frame(e, seat)) for e in events)
        export = b"".join(client(who).get(reverse("export", args=[table.row.pk, "json"])).streaming_content).decode()
        for mark in marks:
            assert mark not in page and mark not in frames and mark not in export, (who, mark)
        assert "Lamplighter" in page  # its name is everyone's
    gm_frames = "".join(html.unescape(seat_frame(e, Seat("gm"))) for e in events)
    assert "@skill.stealth +8317" in gm_frames and "6/9" in gm_frames
    # the player may not open its sheet either
    assert client(table.ann).get(reverse("designed_sheet_edit", args=[table.row.pk, npc.pk])).status_code == 404


def test_a_player_edits_their_own_designed_sheet_directly_and_no_one_else_s(table) -> None:
    design(table)
    wren = make(table, table.ann, "Wren")
    url = reverse("designed_sheet_edit", args=[table.row.pk, wren.pk])
    assert client(table.bob).get(url).status_code == 404
    saved = client(table.ann).post(url, {"name": "Wren", "v_str": "2", "v_hp": "10", "v_hp__of": "12",
                                         "version": str(wren.version)})
    assert saved.status_code == 302
    assert Event.objects.filter(kind="character.updated").last().summary == \
        "Ann changes Wren: Strength 0 → 2; Hit points 10/10 → 10/12."


def test_no_freeform_request_answers_500(table) -> None:
    design(table)
    wren = make(table, table.ann, "Wren")
    pk = table.row.pk
    for member in (table.gm, table.ann, table.watcher):
        c = client(member)
        for url, data in (
            (reverse("sheet_design", args=[pk]), {"op": "up:99", "f-0-kind": "zzz"}),
            (reverse("sheet_design", args=[pk]), {"op": "up:\u00b2", "f-0-kind": "number"}),  # a digit int() refuses
            (reverse("designed_sheet_edit", args=[pk, wren.pk]), {"name": "Wren", "version": "\u00b2"}),
            (reverse("sheet_design", args=[pk]), {"op": "start", "template": "mine:99999999999999999999"}),
            (reverse("designed_sheet_new", args=[pk]), {"name": "", "v_hp": "x", "v_hp__of": "-1"}),
            (reverse("designed_sheet_edit", args=[pk, wren.pk]), {"name": "Wren", "v_str": "1e400"}),
            (reverse("sheet_action", args=[pk, "roll"]), {"character": "abc"}),
            (reverse("sheet_action", args=[pk, "roll"]), {"character": str(wren.pk), "notation": "@" * 500}),
            (reverse("sheet_action", args=[pk, "track"]), {"character": str(wren.pk), "field": "hp", "change": "x"}),
            (reverse("sheet_action", args=[pk, "nothing"]), {}),
        ):
            assert c.post(url, data, **HTMX).status_code < 500, (member, url, data)
