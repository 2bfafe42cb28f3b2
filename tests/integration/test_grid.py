"""The map's grid, tokens worth looking at and the fight on the map (issue 37), through the real
views: the GM fits a scene's grid (any scene, shown or prepared) and it reaches every seat live;
a token's size, colour and label are the GM's for any token and a player's for their own; a
token placed on a prepared scene, or taken off, is the GM's alone while no one else sees it; and
when a system's fight is on, the token of whoever acts now and the tokens of the out are marked
on each seat's page and frames, never for a token that seat does not see.

Every refusal is a 4xx with its words, and changes nothing (``fingerprint``)."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from django.urls import reverse

from tabletop import services
from tabletop.feed import panels
from tabletop.feed.seat import seat_of
from tabletop.models import Character, Event, Membership, Scene, Table, Token
from tests.support.frames import logged, seat_frame

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def fingerprint(table: Table) -> tuple:
    return (list(Event.objects.filter(table=table).values_list("seq", "kind")),
            list(Scene.objects.filter(table=table).values_list(
                "pk", "grid_kind", "grid_size", "grid_x", "grid_y", "grid_shown", "grid_snap", "cell_distance",
                "cell_unit")),
            list(Token.objects.filter(scene__table=table).values_list("pk", "x", "y", "size", "colour", "label")))


@pytest.fixture
def board(table: Any) -> dict[str, Any]:
    """A shown board (1600 x 1000) with Ann's Alma in sight and the GM's hidden Vampire; a
    prepared scene, the Crypt, nobody else sees."""
    alma = services.character_create(table=table.row, actor=table.ann, name="Alma Vey", sheet={})
    vampire = services.character_create(table=table.row, actor=table.gm, name="Vampire", sheet={}, npc=True)
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour", colour="#336699")
    services.scene_show(scene=scene, actor=table.gm)
    crypt = services.scene_create(table=table.row, actor=table.gm, name="Crypt", colour="#222222", shape="square")
    return {"scene": scene, "crypt": crypt, "alma": alma, "vampire": vampire,
            "alma_token": services.token_place(scene=scene, character=alma, actor=table.gm),
            "vampire_token": services.token_place(scene=scene, character=vampire, actor=table.gm, hidden=True)}


def grid_post(table: Any, who: Membership, scene: Scene, **changes: str):
    data = {"kind": "square", "size": "100", "x": "20", "y": "30", "shown": "1", "snap": "1",
            "distance": "5", "unit": "ft", **changes}
    return table.client(who).post(reverse("scene_grid", args=[table.row.pk, scene.pk]), data, **HTMX)


def page(table: Any, who: Membership) -> str:
    return table.client(who).get(reverse("table", args=[table.row.pk])).content.decode()


# The grid


def test_the_gm_sets_the_shown_scenes_grid_and_every_seat_redraws_its_grid_layer(table, board) -> None:
    with logged() as events:
        answer = grid_post(table, table.gm, board["scene"], unit="m", distance="1.5")
    assert answer.status_code == 200 and 'id="scene-tools"' in answer.content.decode()
    scene = Scene.objects.get(pk=board["scene"].pk)
    assert (scene.grid_kind, scene.grid_size, scene.grid_x, scene.grid_y) == ("square", 100, 20, 30)
    assert (scene.cell_distance, scene.cell_unit, scene.grid_shown, scene.grid_snap) == (1.5, "m", True, True)
    [event] = events
    assert (event.kind, event.audience) == ("scene.grid", "everyone")
    assert event.summary == "gail sets Harbour to a square grid, a cell 1.5 m."
    for who in (table.gm, table.ann, table.watcher):
        frame = seat_frame(event, seat_of(who))
        assert f'id="scene-{scene.pk}-grid"' in frame and 'hx-swap-oob="true"' in frame
        assert 'data-kind="square"' in frame and 'data-size="100.0"' in frame and "<pattern" in frame
        assert 'data-cell="6.25%"' in frame  # 100 of 1600 across: a token's cell
    shown = page(table, table.ann)
    assert 'class="grid-layer"' in shown and 'data-unit="m"' in shown and "--cell: 6.25%" in shown


def test_a_hex_grid_is_drawn_with_pointy_top_hexes_and_a_hidden_grid_is_not_drawn(table, board) -> None:
    assert grid_post(table, table.gm, board["scene"], kind="hex", size="60", x="0", y="100").status_code == 200
    shown = page(table, table.bob)
    layer = shown[shown.index('class="grid-layer"'):]
    layer = layer[:layer.index("</svg>")]
    # a pointy-top hex 60 wide is 69.282 high; the pattern repeats every two rows: 103.923 down
    assert 'width="60" height="103.923"' in layer and "M0 17.321 L30 0 L60 17.321" in layer
    assert grid_post(table, table.gm, board["scene"], kind="hex", size="60", shown="").status_code == 200
    layer = page(table, table.bob).split('class="grid-layer"')[1].split("</svg>")[0]
    assert " hidden" in layer and "<pattern" not in layer


def test_a_prepared_scenes_grid_is_the_gms_alone(table, board) -> None:
    with logged() as events:
        assert grid_post(table, table.gm, board["crypt"], kind="hex", size="50", x="0", y="0").status_code == 200
    [event] = events
    assert event.audience == "gm"
    assert seat_frame(event, seat_of(table.ann)) is None
    assert "grid-layer" not in seat_frame(event, seat_of(table.gm))  # the GM's page shows the shown scene
    assert Scene.objects.get(pk=board["crypt"].pk).grid_kind == "hex"


@pytest.mark.parametrize("changes, words", [
    ({"kind": "triangle"}, "Choose a grid: none, square or hex."),
    ({"size": "7"}, "A cell is 8 to 1000 units across."),
    ({"size": "1001"}, "A cell is 8 to 1000 units across."),
    ({"size": "nan"}, "A cell's size is a number."),
    ({"size": "big"}, "A cell's size is a number."),
    ({"x": "100"}, "The offset across lies within one cell: 0 to under 100."),
    ({"x": "-1"}, "The offset across lies within one cell"),
    ({"y": "100"}, "The offset down lies within one cell: 0 to under 100."),
    ({"distance": "0"}, "The distance a cell stands for is more than 0"),
    ({"distance": "-5"}, "The distance a cell stands for is more than 0"),
    ({"unit": "   "}, "Name the unit a cell's distance is in"),
    ({"unit": "thirteen char"}, "A unit is at most 12 characters."),
    ({"size": ""}, "Please fill in the grid's size."),
])
def test_a_grid_that_does_not_fit_is_refused_at_its_words_and_changes_nothing(table, board, changes, words) -> None:
    before = fingerprint(table.row)
    answer = grid_post(table, table.gm, board["scene"], **changes)
    assert answer.status_code == 400
    assert words in html.unescape(answer.content.decode())
    assert fingerprint(table.row) == before


def test_a_hex_grids_offset_down_lies_within_its_two_rows(table, board) -> None:
    """A pointy-top hex grid repeats every two rows: 1.5 hex heights (60 wide: 103.92 down)."""
    assert grid_post(table, table.gm, board["scene"], kind="hex", size="60", x="0", y="103").status_code == 200
    answer = grid_post(table, table.gm, board["scene"], kind="hex", size="60", x="0", y="104")
    assert answer.status_code == 400 and "0 to under 103.9" in answer.content.decode()


def test_only_the_gm_sets_a_grid(table, board) -> None:
    before = fingerprint(table.row)
    for who in (table.ann, table.watcher):
        assert grid_post(table, who, board["scene"]).status_code == 403
    assert table.client(table.gm).get(reverse("scene_grid", args=[table.row.pk, board["scene"].pk])).status_code == 405
    other = grid_post(table, table.gm, board["scene"])  # the GM: fine
    assert other.status_code == 200
    assert fingerprint(table.row) != before
    assert grid_post(table, table.gm, Scene(pk=10**9, table=table.row)).status_code == 404


# A token's look


def style_post(table: Any, who: Membership, token: Token, **data: str):
    return table.client(who).post(reverse("token_style", args=[table.row.pk, token.pk]),
                                  {"size": "2", "colour": "#2a9d8f", "label": "Captain", **data}, **HTMX)


def test_a_player_styles_her_own_token_and_everyone_sees_it(table, board) -> None:
    token = board["alma_token"]
    with logged() as events:
        answer = style_post(table, table.ann, token, **{"from": "dialog"})
    assert answer.status_code == 204
    token.refresh_from_db()
    assert (token.size, token.colour, token.label) == (2, "#2a9d8f", "Captain")
    [event] = events
    assert (event.kind, event.audience) == ("token.styled", "everyone")
    for who in (table.gm, table.bob, table.watcher):
        frame = seat_frame(event, seat_of(who))
        assert f'id="token-{token.pk}"' in frame and 'data-size="2"' in frame and "--cells: 2" in frame
        assert "--token: #2a9d8f" in frame and '<span class="token-label" aria-hidden="true">Captain</span>' in frame
        assert "labelled Captain" in frame
    # back to the character's own colour
    assert style_post(table, table.ann, token, colour="", **{"from": "dialog"}).status_code == 204
    token.refresh_from_db()
    assert token.colour == ""
    assert 'data-own-colour=""' in page(table, table.ann)


@pytest.mark.parametrize("who, changes, status, words", [
    ("bob", {}, 403, "Alma Vey is not yours to change."),
    ("watcher", {}, 403, "You are watching this table: a spectator sees the play but does not act."),
    ("ann", {"size": "5"}, 400, "A token is 1 to 4 cells a side."),
    ("ann", {"size": "0"}, 400, "A token is 1 to 4 cells a side."),
    ("ann", {"size": "1.5"}, 400, "A token is 1 to 4 cells a side."),
    ("ann", {"colour": "red;}"}, 400, "A token's colour is a colour like #2a9d8f."),
    ("ann", {"label": "x" * 25}, 400, "A token's label is at most 24 characters."),
])
def test_a_look_not_allowed_or_out_of_range_is_refused_and_changes_nothing(table, board, who, changes, status,
                                                                           words) -> None:
    before = fingerprint(table.row)
    answer = style_post(table, getattr(table, who), board["alma_token"], **changes)
    assert answer.status_code == status
    assert words in html.unescape(answer.content.decode())
    assert fingerprint(table.row) == before


def test_a_hidden_token_is_no_such_token_to_a_player_who_styles_it(table, board) -> None:
    before = fingerprint(table.row)
    answers = [style_post(table, table.ann, t) for t in (board["vampire_token"], Token(pk=10**9))]
    assert {a.status_code for a in answers} == {404}
    assert len({a.content for a in answers}) == 1
    assert fingerprint(table.row) == before


def test_the_gm_styles_a_hidden_token_from_the_tools_and_only_the_gm_hears_of_it(table, board) -> None:
    with logged() as events:
        answer = style_post(table, table.gm, board["vampire_token"], size="3", label="Lord")
    assert answer.status_code == 200 and 'id="scene-tools"' in answer.content.decode()
    [event] = events
    assert event.audience == "gm"
    assert all(seat_frame(event, seat_of(w)) is None for w in (table.ann, table.bob, table.watcher))
    assert "Lord" not in page(table, table.ann) and "Lord" in page(table, table.gm)


# Tokens on a prepared scene, and taken off


def test_the_gm_places_a_token_on_a_prepared_scene_and_no_byte_of_it_reaches_a_player(table, board) -> None:
    crypt = board["crypt"]
    gm = table.client(table.gm)
    assert f'<option value="{crypt.pk}">Crypt</option>' in page(table, table.gm)  # the place form's scene select
    with logged() as events:
        answer = gm.post(reverse("token_place", args=[table.row.pk]),
                         {"scene": crypt.pk, "character": board["alma"].pk}, **HTMX)
    assert answer.status_code == 200
    token = Token.objects.get(scene=crypt)
    [event] = events
    assert (event.kind, event.audience) == ("token.placed", "gm")
    assert all(seat_frame(event, seat_of(w)) is None for w in (table.ann, table.bob, table.watcher))
    tools = answer.content.decode()
    assert 'aria-label="Tokens on Crypt"' in tools and f"token_remove" not in tools
    assert f"/tokens/{token.pk}/remove/" in tools and f"/tokens/{token.pk}/style/" in tools
    for who in (table.ann, table.watcher):
        shown = page(table, who)
        assert f"token-{token.pk}" not in shown and f"/tokens/{token.pk}/" not in shown and "Crypt" not in shown
    # the GM styles and moves it there, still the GM's alone
    with logged() as more:
        assert style_post(table, table.gm, token, label="Asleep").status_code == 200
        services.token_move(token=token, actor=table.gm, x=10, y=10)
    assert [e.audience for e in more] == ["gm", "gm"]


def test_the_gm_takes_a_token_off_the_scene(table, board) -> None:
    token = board["alma_token"]
    with logged() as events:
        answer = table.client(table.gm).post(reverse("token_remove", args=[table.row.pk, token.pk]), **HTMX)
    assert answer.status_code == 200
    assert not Token.objects.filter(pk=token.pk).exists()
    assert Character.objects.filter(pk=board["alma"].pk).exists()  # the character stays at the table
    [event] = events
    assert (event.kind, event.audience) == ("token.removed", "everyone")
    assert event.summary == "gail takes Alma Vey's token off Harbour."
    for who in (table.ann, table.watcher, table.gm):
        assert f'<span id="token-{token.pk}" hx-swap-oob="delete"></span>' in seat_frame(event, seat_of(who))
    # a hidden token taken off: the GM's alone
    with logged() as hidden:
        services.token_remove(token=board["vampire_token"], actor=table.gm)
    assert [e.audience for e in hidden] == ["gm"]
    assert seat_frame(hidden[0], seat_of(table.ann)) is None


def test_only_the_gm_takes_a_token_off(table, board) -> None:
    before = fingerprint(table.row)
    for who in (table.ann, table.watcher):
        answer = table.client(who).post(reverse("token_remove", args=[table.row.pk, board["alma_token"].pk]), **HTMX)
        assert answer.status_code == 403
    assert fingerprint(table.row) == before


def test_the_server_takes_any_point_of_the_scene_snapping_is_the_pages_help(table, board) -> None:
    """A move off the grid's cells is taken as it is: a seat that moves freely is never refused."""
    grid_post(table, table.gm, board["scene"])
    answer = table.client(table.ann).post(reverse("token_move", args=[table.row.pk, board["alma_token"].pk]),
                                          {"x": "333", "y": "77"}, **HTMX)
    assert answer.status_code == 204
    board["alma_token"].refresh_from_db()
    assert (board["alma_token"].x, board["alma_token"].y) == (333, 77)


# The fight on the map


def marks_of(text: str) -> tuple[set[str], set[str]]:
    """The acting and the out character ids a page or frame marks (#scene-marks)."""
    found = re.search(r'<div id="scene-marks"[^>]*data-acting="([^"]*)" data-out="([^"]*)"', text)
    assert found, text[:400]
    return set(found.group(1).split()), set(found.group(2).split())


def fight_at(system: str) -> dict[str, Any]:
    """A table of ``system`` with a fight under way through its real actions: who acts now, who
    is out (None when the system's quickest start puts nobody out), and each seat's client."""
    if system == "passages":
        from tests.integration import test_passages_table as mod
        t = mod.table.__wrapped__(None)
        assert mod.start_fight(t).status_code == 200
        return {"t": t, "table": t["table"], "acting": t["trayer"], "pcs": [t["trayer"], t["betty"]],
                "npc": t["garbo"], "out": None}
    if system == "shadows":
        from tests.integration import test_shadows_table as mod
        t = mod.sh.__wrapped__(None)
        mod.dealt_fight(t)
        return {"t": t, "table": t["table"], "acting": t["alma"], "pcs": [t["alma"], t["bram"]],
                "npc": t["ghoul"], "out": None}
    if system == "harsh_light":
        from tests.integration import test_harsh_light_fights as mod
        t = mod.hl.__wrapped__(None)
        mod.stack(t, 1)  # Betty's Stamina roll fails: she falls unconscious
        mod.ok(t, "gm", "harm", combatant=t["betty"].pk, points="6", kind="bashing", reason="a beating")
        mod.ok(t, "gm", "set_order", order=[t["alfie"].pk, t["betty"].pk, t["ghoul"].pk])
        return {"t": t, "table": t["table"], "acting": t["alfie"], "pcs": [t["alfie"], t["betty"]],
                "npc": t["ghoul"], "out": t["betty"]}
    from tests.integration.test_contract_kit_fights import PLANS, start_fight
    from tests.support.kit import make_table
    kt = make_table(system, "grid")
    pcs = list(kt.table.characters.filter(is_npc=False).order_by("pk"))
    clients = {"gm": kt.gm.client, "ann": kt.players[0].client, "bob": kt.players[1].client,
               "watcher": kt.watcher.client}
    t = {"table": kt.table, "clients": clients, "gm": kt.gm.member, "ann": kt.players[0].member}
    return {"t": t, "table": kt.table, "pcs": pcs, "npc": kt.npcs[0], "out": None, "kt": kt,
            "start": lambda: start_fight(kt, PLANS[system], random.Random(3), pcs + kt.npcs[:1])}


@pytest.mark.parametrize("system", ["shadows", "harsh_light", "passages", "demon_city"])
def test_the_acting_token_is_marked_for_every_seat_and_a_hidden_ones_mark_for_the_gm_alone(db, system) -> None:
    fight = fight_at(system)
    t, table = fight["t"], fight["table"]
    gm = table.members.get(role="gm")
    scene = services.scene_create(table=table, actor=gm, name="Field", colour="#336699")
    services.scene_show(scene=scene, actor=gm)
    for pc in fight["pcs"]:
        services.token_place(scene=scene, character=pc, actor=gm)
    services.token_place(scene=scene, character=fight["npc"], actor=gm, hidden=True)
    if "start" in fight:
        fight["start"]()
        turn = panels.current(table, gm)["turn"]
        fight["acting"] = Character.objects.get(pk=int(turn["combatant"][1:]))
    acting, npc = str(fight["acting"].pk), str(fight["npc"].pk)
    pages = {who: client.get(reverse("table", args=[table.pk])).content.decode()
             for who, client in t["clients"].items()}
    for who, shown in pages.items():
        now, out = marks_of(shown)
        assert acting in now, (system, who)
        if fight["out"] is not None:
            assert str(fight["out"].pk) in out, (system, who)
        if who != "gm":
            assert npc not in now | out, (system, who)  # the hidden token's mark: no byte of it
    # the frame a replay sends each seat says the same
    for member in table.members.all():
        now, _ = marks_of(panels.current_frame(table, member))
        assert acting in now


def test_a_live_rule_move_redraws_the_marks_for_each_seat(db) -> None:
    """Harsh Light: Alfie ends his turn; Betty is out, so the Ghoul acts: its token hidden, the
    players' marks name no one acting now, the GM's the Ghoul."""
    fight = fight_at("harsh_light")
    t, table = fight["t"], fight["table"]
    gm = t["gm"]
    scene = services.scene_create(table=table, actor=gm, name="Field", colour="#336699")
    services.scene_show(scene=scene, actor=gm)
    for pc in fight["pcs"]:
        services.token_place(scene=scene, character=pc, actor=gm)
    services.token_place(scene=scene, character=fight["npc"], actor=gm, hidden=True)
    from tests.integration import test_harsh_light_fights as mod
    with logged() as events:
        mod.ok(t, "ann", "end_turn", combatant=mod.cid(t["alfie"]))
    ghoul, betty = str(t["ghoul"].pk), str(t["betty"].pk)
    sent = {who: "".join(f or "" for f in (seat_frame(e, seat_of(t[who])) for e in events))
            for who in ("gm", "ann", "bob", "watcher")}
    assert marks_of(sent["gm"]) == ({ghoul}, {betty})
    for who in ("ann", "bob", "watcher"):
        assert marks_of(sent[who]) == (set(), {betty}), who
        assert f'data-acting="{ghoul}"' not in sent[who]


def test_report_card_has_no_fight_and_marks_no_token(db) -> None:
    from tests.support.kit import make_table
    kt = make_table("report_card", "grid")
    assert kt.game.fights is None
    view = panels.current(kt.table, kt.gm.member)
    assert view is None or view.get("scene_marks", {"acting": [], "out": []}) == {"acting": [], "out": []}
    shown = kt.gm.client.get(reverse("table", args=[kt.table.pk])).content.decode()
    assert marks_of(shown) == (set(), set())
