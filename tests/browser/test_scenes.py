"""Issue 23, "A table people want to play on", in Chromium: "A scene. The GM sets the scene: an
image they upload ... or a plain coloured board. Tokens for characters and NPCs ... that the GM
places and each player moves for their own character, live for everyone, with the move in the
log; the GM can hide a token (an NPC not yet seen) and it then reaches no one else in any byte.
... On a phone the scene fits the width and pans."

Screenshots go to test-artifacts/screens/ (kept out of git), for people to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.axe_check import serious_violations
from tests.browser.test_phone_keyboard_a11y import OVERFLOW_JS, PHONE_WIDTH

from tests.support.pictures import NOT_AN_IMAGE, harbour_map

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
PHONE = PHONE_WIDTH

FETCH_JS = """async ([path, body]) => {
  const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
  const init = {method: body ? 'POST' : 'GET', headers: {'X-CSRFToken': token, 'HX-Request': 'true'}};
  if (body) init.body = new URLSearchParams(body);
  const r = await fetch(path, init);
  return [r.status, await r.text()];
}"""


def shot(person, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def make_character(person, table_url: str, name: str, *, npc: bool = False, colour: str = "") -> None:
    assert person.goto(table_url + "characters/new/") == 200
    page = person.page
    page.locator("#id_name").fill(name)
    if npc:
        page.locator("input[name=kind][value=npc]").check()
    if colour:
        page.locator("#id_sheet_colour").fill(colour)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/tables/*/")
    person.wait_live()


def tools(gm):
    return gm.page.locator("#scene-tools")


def upload_scene(gm, name: str, data: bytes, filename: str = "harbour.png") -> int:
    """The GM uploads a picture as a new scene; the answer's status."""
    page = gm.page
    new = tools(gm).locator("details.scene-new")
    if new.get_attribute("open") is None:
        new.locator("summary").click()
    form = page.locator("#scene-picture-form")
    form.locator("#scene-picture-name").fill(name)
    form.locator("#scene-image").set_input_files({"name": filename, "mimeType": "image/png", "buffer": data})
    with page.expect_response(lambda r: r.url.endswith("/scenes/new/")) as answer:
        form.get_by_role("button", name="Upload the picture").click()
    return answer.value.status


def make_board(gm, name: str, colour: str = "#35524a", shape: str = "wide") -> None:
    new = tools(gm).locator("details.scene-new")
    if new.get_attribute("open") is None:
        new.locator("summary").click()
    form = gm.page.locator("#scene-board-form")
    form.locator("#scene-board-name").fill(name)
    form.locator("#scene-colour").fill(colour)
    form.locator("#scene-shape").select_option(shape)
    with gm.page.expect_response(lambda r: r.url.endswith("/scenes/new/")) as answer:
        form.get_by_role("button", name="Make the board").click()
    assert answer.value.status == 200
    expect(tools(gm).locator(".scene-list")).to_contain_text(name)


def show(gm, name: str) -> None:
    tools(gm).get_by_role("button", name=f"Show {name}").click()
    expect(gm.page.locator("#scene-stage .scene-name")).to_have_text(name)


def place(gm, character: str, *, hidden: bool = False) -> None:
    form = gm.page.locator("#token-place-form")
    form.locator("#place-character").select_option(label=character)
    if hidden:
        form.get_by_label("hidden (only you see it)").check()
    with gm.page.expect_response(lambda r: r.url.endswith("/tokens/new/")) as answer:
        form.get_by_role("button", name="Place").click()
    assert answer.value.status == 200
    expect(token(gm, character)).to_have_count(1)


def token(person, name: str):
    return person.page.locator(f'.token[aria-label^="{name}"]')


def drag(person, name: str, to_x: float, to_y: float) -> int:
    """Drags the token with the mouse to a share (0..1) of the scene's width and height."""
    page = person.page
    page.evaluate("document.querySelector('.scene').scrollIntoView({block: 'start'})")
    piece = token(person, name)
    box = piece.bounding_box()
    board = page.locator(".scene-board").bounding_box()
    assert box is not None and board is not None
    with page.expect_response(lambda r: "/move/" in r.url) as answer:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(board["x"] + board["width"] * to_x, board["y"] + board["height"] * to_y, steps=8)
        page.mouse.up()
    return answer.value.status


def test_a_player_moves_her_token_on_a_scene_and_everyone_sees_it_live(
        make_table, accessible_names_js, duplicate_ids_js) -> None:
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    make_character(ann, table.url, "Alma Vey", colour="#c0392b")
    make_character(gm, table.url, "Harbour Guard", npc=True, colour="#f1c40f")
    bob = table.join_player("Bob")
    spectator = table.join_spectator()

    assert upload_scene(gm, "Harbour at dusk", harbour_map()) == 200
    expect(tools(gm).locator(".scene-list")).to_contain_text("Harbour at dusk")
    show(gm, "Harbour at dusk")
    place(gm, "Alma Vey")
    place(gm, "Harbour Guard")
    for person in (gm, ann, bob, spectator):
        expect(person.page.locator("#scene-stage .scene-name")).to_have_text("Harbour at dusk")
        image = person.page.locator(".scene-image")
        expect(image).to_have_attribute("alt", "The scene: Harbour at dusk")
        person.page.wait_for_function("() => document.querySelector('.scene-image').naturalWidth === 1200")
        expect(token(person, "Alma Vey")).to_have_attribute("aria-label", "Alma Vey, played by Ann, marked AV, at the top left")
        expect(token(person, "Harbour Guard")).to_have_count(1)

    # Ann drags Alma to the quay, near the bottom right: everyone's token moves, and the log says so.
    ann.mark_page()
    assert drag(ann, "Alma Vey", 0.8, 0.8) == 204
    for person in (gm, ann, bob, spectator):
        expect(token(person, "Alma Vey")).to_have_attribute("aria-label", re.compile(r"at the bottom right$"))
        expect(person.entry("Ann moves Alma Vey toward the bottom right.")).to_have_count(1)
    left = float(re.search(r"left: ([\d.]+)%", token(bob, "Alma Vey").get_attribute("style")).group(1))
    assert 75 < left < 85, left
    ann.assert_not_reloaded()

    # From the keyboard: focused, the arrows move it; the move is sent once the keys rest, and
    # the token keeps the focus when its redraw arrives.
    token(ann, "Alma Vey").focus()
    for _ in range(6):  # a step is a fortieth of the scene: from 600 of 750 down to 420
        ann.page.keyboard.press("ArrowUp")
    for person in (gm, spectator):
        expect(person.entry("Ann moves Alma Vey toward the right.")).to_have_count(1)
    expect(token(ann, "Alma Vey")).to_be_focused()

    # Not hers to move: the guard does not follow her pointer, and a forced move is refused.
    guard = token(ann, "Harbour Guard")
    expect(guard).not_to_have_class(re.compile(r"\bmovable\b"))
    expect(token(ann, "Alma Vey")).to_have_class(re.compile(r"\bmovable\b"))
    guard_id = guard.get_attribute("id").removeprefix("token-")
    status, said = ann.page.evaluate(FETCH_JS, [f"{table.path}tokens/{guard_id}/move/", {"x": "10", "y": "10"}])
    assert status == 403 and "not yours to move" in said
    expect(token(gm, "Harbour Guard")).to_have_attribute("aria-label", re.compile("at the top left$"))
    # A spectator's page is sent no control that acts on the scene; nobody's page lacks a name.
    expect(spectator.page.locator("#scene-tools, #token-place-form")).to_have_count(0)
    for person in (gm, ann, spectator):
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name
        assert person.page_errors == [], (person.name, person.page_errors)
    shot(gm, "scene-gm-desktop")
    shot(ann, "scene-player-desktop")
    ann.page.locator("#scene-panel").screenshot(path=str(SCREENS / "scene-panel-player.png"))


def test_a_hidden_npc_token_is_in_no_byte_a_player_or_the_spectator_receives(make_table) -> None:
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    spectator = table.join_spectator()
    received: dict[str, list[str]] = {"Ann": [], "spectator": []}
    for person in (ann, spectator):
        person.page.on("response", lambda r, who=person.name: received[who].append(r) if r.request.resource_type in (
            "document", "fetch", "xhr") else None)
    make_character(ann, table.url, "Alma Vey")
    make_character(gm, table.url, "Nosferatu", npc=True, colour="#2c3e50")
    make_board(gm, "Crypt", colour="#3d3d4a", shape="square")
    show(gm, "Crypt")
    place(gm, "Alma Vey")
    place(gm, "Nosferatu", hidden=True)
    hidden = token(gm, "Nosferatu")
    expect(hidden).to_have_class(re.compile(r"\bis-hidden\b"))
    hidden_id = hidden.get_attribute("id").removeprefix("token-")
    assert drag(gm, "Nosferatu", 0.7, 0.3) == 204
    expect(gm.page.locator("#log li", has_text="moves Nosferatu")).to_have_count(1)
    table.sync(gm, ann, spectator)
    bodies: dict[str, list[str]] = {"Ann": [], "spectator": []}

    def read(person) -> None:  # before the page goes, while its responses' bodies are there
        while received[person.name]:
            try:
                bodies[person.name].append(received[person.name].pop(0).text())
            except Exception:  # a redirect has no body of its own
                pass

    read(ann)
    ann.page.reload()  # a fresh page, and a socket that replays from it
    ann.wait_live()
    expect(token(ann, "Alma Vey")).to_have_count(1)
    marks = [f'token-{hidden_id}"', "Nosferatu, at", "places Nosferatu", "moves Nosferatu"]
    for person in (ann, spectator):
        read(person)
        mine = bodies[person.name]
        for fmt in ("json", "md"):
            status, export = person.page.evaluate(FETCH_JS, [f"{table.path}export.{fmt}", None])
            assert status == 200
            mine.append(export)
        status, page = person.page.evaluate(FETCH_JS, [table.path, None])
        mine.append(page)
        blob = "\n".join(mine + person.frames + [person.page.content()])
        assert "Crypt" in blob and "Alma Vey, played by Ann" in blob  # the scene reached them
        assert [m for m in marks if m in blob] == [], f"{person.name} received the hidden token"
        for row in json.loads(mine[-3])["events"]:
            assert str(row["data"].get("token", {}).get("id")) != hidden_id, row
        expect(token(person, "Nosferatu")).to_have_count(0)

    gm.page.locator("#scene-panel").screenshot(path=str(SCREENS / "scene-panel-gm-hidden.png"))
    for person in (gm, ann, spectator):  # a scene, a hidden token, the GM's tools: axe finds nothing serious
        assert serious_violations(person.page) == [], person.name
    # Revealed, it stands on everyone's scene, live.
    tools(gm).get_by_role("button", name="Reveal Nosferatu").click()
    for person in (ann, spectator):
        expect(token(person, "Nosferatu")).to_have_attribute("aria-label", re.compile("at the top right$"))
        expect(person.page.locator("#log li", has_text="reveals Nosferatu on Crypt.")).to_have_count(1)


def test_an_upload_that_is_not_a_picture_is_refused_with_its_words_at_its_field(make_table) -> None:
    table = make_table()
    gm = table.gm
    assert upload_scene(gm, "Trap", NOT_AN_IMAGE, filename="map.png") == 400
    error = gm.page.locator("#scene-image-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("not an image this table can show")
    expect(gm.page.locator("#scene-image")).to_have_attribute("aria-invalid", "true")
    expect(gm.page.locator("#scene-image")).to_have_attribute("aria-describedby", "scene-image-error")
    expect(gm.page.locator("#scene-picture-name")).to_have_value("Trap")  # what was typed stays
    expect(gm.page.locator(".scene-list")).to_have_count(0)
    shot(gm, "scene-upload-refused")

    # A portrait too: at its own field, on the character's page.
    ann = table.join_player("Ann")
    make_character(ann, table.url, "Alma Vey")
    ann.page.locator("#characters article", has_text="Alma Vey").get_by_role("link", name="Edit").click()
    ann.page.locator("#id_portrait").set_input_files({"name": "me.jpg", "mimeType": "image/jpeg", "buffer": NOT_AN_IMAGE})
    ann.page.get_by_role("button", name="Upload the portrait").click()
    expect(ann.page.locator("#id_portrait_error")).to_contain_text("not an image this table can show")
    ann.page.locator("#id_portrait").set_input_files({"name": "me.png", "mimeType": "image/png",
                                                      "buffer": harbour_map((96, 96))})
    ann.page.get_by_role("button", name="Upload the portrait").click()
    ann.page.wait_for_url("**/tables/*/")
    expect(gm.entry("Ann gives Alma Vey a portrait.")).to_have_count(1)


def test_on_a_390_pixel_phone_the_scene_fits_the_width_and_pans_inside_its_frame(make_table) -> None:
    table = make_table(gm_width=PHONE, gm_height=844)
    gm = table.gm
    phone = table.join_player("Cleo", width=PHONE, height=844)
    make_character(phone, table.url, "Cleo Marsh", colour="#16a085")
    assert upload_scene(gm, "Harbour at dusk", harbour_map()) == 200
    show(gm, "Harbour at dusk")
    place(gm, "Cleo Marsh")
    expect(token(phone, "Cleo Marsh")).to_have_count(1)
    phone.page.wait_for_function("() => document.querySelector('.scene-image').naturalWidth > 0")
    for person in (gm, phone):
        frame = person.page.locator(".scene-frame").bounding_box()
        assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= PHONE, frame
        assert person.page.evaluate("document.documentElement.scrollWidth") <= PHONE
        assert person.page.evaluate(OVERFLOW_JS, PHONE) == [], person.name
    shot(phone, "scene-player-390")
    # Zoomed in, the scene is wider than the screen and pans in its frame; the page does not.
    phone.page.get_by_role("button", name="Zoom in").click()
    phone.page.get_by_role("button", name="Zoom in").click()
    frame = phone.page.locator(".scene-frame")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth * 1.5")
    frame.evaluate("f => { f.scrollLeft = f.scrollWidth; }")
    assert frame.evaluate("f => f.scrollLeft > 0")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE
    assert phone.page.evaluate(OVERFLOW_JS, PHONE) == []
    # and back at the left, the token still follows a drag there
    frame.evaluate("f => { f.scrollLeft = 0; }")
    assert drag(phone, "Cleo Marsh", 0.45, 0.5) == 204
    expect(gm.entry("Cleo moves Cleo Marsh toward the middle.")).to_have_count(1)
    shot(phone, "scene-player-390-zoomed")
