"""Issue 37 in Chromium: "the GM fogs the map and reveals an area, and a player's page then shows
it". The GM uploads a map, covers it all with the Fog tool and drags a rectangle to reveal an
area; the player's picture is replaced live (a new URL, loaded), and read back inside her page,
its pixels are the map's in the revealed area and the fog's everywhere else.

Screenshots go to test-artifacts/screens/ (kept out of git), for people to look at."""

from __future__ import annotations

import io

from playwright.sync_api import expect
from PIL import Image

from tests.browser.axe_check import serious_violations
from tests.browser.test_scenes import SCREENS, make_character, place, shot, show, token, tools, upload_scene
from tests.support.pictures import harbour_map

FOG = (38, 41, 48)  # tabletop/services/fog.py: FOG_COLOUR

# the pixel at (x, y) of the scene's picture as the page has it, read through a canvas
PIXEL_JS = """async ([x, y]) => {
  const img = document.querySelector('.scene-image');
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return [img.naturalWidth, Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3))];
}"""


def near(a, b, tolerance: int = 10) -> bool:
    return max(abs(p - q) for p, q in zip(a, b)) <= tolerance


def drag_on_map(person, x0: float, y0: float, x1: float, y1: float) -> None:
    """A drag on the map from one share (0..1) of its width and height to another."""
    page = person.page
    page.evaluate("document.querySelector('.scene').scrollIntoView({block: 'start'})")
    board = page.locator(".scene-board").bounding_box()
    assert board is not None
    with page.expect_response(lambda r: "/fog/" in r.url) as answer:
        page.mouse.move(board["x"] + board["width"] * x0, board["y"] + board["height"] * y0)
        page.mouse.down()
        page.mouse.move(board["x"] + board["width"] * x1, board["y"] + board["height"] * y1, steps=10)
        page.mouse.up()
    assert answer.value.status == 200, answer.value.text()


def test_the_gm_fogs_the_map_and_reveals_an_area_and_the_players_page_shows_it(
        make_table, accessible_names_js, duplicate_ids_js) -> None:
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    spectator = table.join_spectator()
    make_character(ann, table.url, "Alma Vey", colour="#c0392b")
    picture = harbour_map()
    whole = Image.open(io.BytesIO(picture)).convert("RGB")
    assert upload_scene(gm, "Harbour at dusk", picture) == 200
    show(gm, "Harbour at dusk")
    place(gm, "Alma Vey")  # at the top left: under the fog once it falls
    ann.page.wait_for_function("() => document.querySelector('.scene-image').naturalWidth === 1200")
    first = ann.page.locator(".scene-image").get_attribute("src")

    # The Fog tool is the GM's alone; with it pressed, Cover all.
    expect(ann.page.locator('[data-tool="fog"]')).to_have_count(0)
    expect(spectator.page.locator('[data-tool="fog"], .fog-tools, .fog-layer')).to_have_count(0)
    gm.page.locator('.map-toolbar [data-tool="fog"]').click()
    fog_tools = gm.page.locator(".fog-tools")
    expect(fog_tools).to_be_visible()
    fog_tools.get_by_role("button", name="Cover all").click()  # an act frame on the socket, while it is open
    expect(gm.page.locator(".fog-layer")).to_have_count(1)
    for person in (ann, spectator):
        expect(person.page.locator(".scene-image")).not_to_have_attribute("src", first)
        expect(token(person, "Alma Vey")).to_have_count(0)  # under the fog now
    covered = ann.page.locator(".scene-image").get_attribute("src")
    width, pixel = ann.page.evaluate(PIXEL_JS, [600, 375])
    assert width == 1200 and near(pixel, FOG), pixel
    expect(token(gm, "Alma Vey")).to_have_count(1)

    # The tool stays pressed across the redraw; a rectangle dragged over the top left reveals it.
    expect(gm.page.locator('.map-toolbar [data-tool="fog"]')).to_have_attribute("aria-pressed", "true")
    drag_on_map(gm, 0.02, 0.02, 0.5, 0.45)
    for person in (ann, spectator):
        expect(person.page.locator(".scene-image")).not_to_have_attribute("src", covered)
        expect(token(person, "Alma Vey")).to_have_count(1)  # out of the fog with the reveal
    ann.page.wait_for_function("() => document.querySelector('.scene-image').complete")
    # inside the revealed area: the map (the sand flat, the sea within its swell's stripes)
    for x, y, tolerance in ((560, 60, 12), (580, 200, 12), (100, 100, 30), (300, 260, 30)):
        _, pixel = ann.page.evaluate(PIXEL_JS, [x, y])
        assert near(pixel, whole.getpixel((x, y)), tolerance) and not near(pixel, FOG, 40), (x, y, pixel)
    for x, y in ((900, 500), (700, 600), (1100, 100)):  # outside it: the fog, nothing of the map
        _, pixel = ann.page.evaluate(PIXEL_JS, [x, y])
        assert near(pixel, FOG) and not near(pixel, whole.getpixel((x, y)), 12), (x, y, pixel)
    expect(ann.entry("reveals part of the map")).to_have_count(1)
    # The GM's own picture is whole; the shaded overlay shows where the fog lies.
    _, pixel = gm.page.evaluate(PIXEL_JS, [900, 500])
    assert near(pixel, whole.getpixel((900, 500)), 2), pixel
    # A polygon (three clicks, then Enter) and a brush stroke (a drag); then "Undo" takes the last back.
    overlay = gm.page.locator(".fog-layer")
    expect(overlay).to_have_attribute("data-changes", "1")
    gm.page.get_by_label("Polygon (click points; double click or Enter to close)").check()
    board = gm.page.locator(".scene-board").bounding_box()
    assert board is not None
    for x, y in ((0.6, 0.6), (0.9, 0.6), (0.75, 0.95)):
        gm.page.mouse.click(board["x"] + board["width"] * x, board["y"] + board["height"] * y)
    with gm.page.expect_response(lambda r: "/fog/reveal/" in r.url) as answer:
        gm.page.keyboard.press("Enter")
    assert answer.value.status == 200
    expect(overlay).to_have_attribute("data-changes", "2")
    expect(gm.page.get_by_label("Polygon (click points; double click or Enter to close)")).to_be_checked()
    gm.page.get_by_label("Brush (drag)").check()
    drag_on_map(gm, 0.6, 0.1, 0.9, 0.2)
    expect(overlay).to_have_attribute("data-changes", "3")
    gm.page.locator(".fog-tools").get_by_role("button", name="Undo the last fog change").click()
    expect(overlay).to_have_attribute("data-changes", "2")
    ann.page.wait_for_function("() => document.querySelector('.scene-image').complete")
    _, pixel = ann.page.evaluate(PIXEL_JS, [900, 600])  # inside the polygon: the map now
    assert not near(pixel, FOG), pixel
    shot(gm, "fog-gm-desktop")

    # the fog tools, open, and the player's page: nothing axe-core calls serious; every control named
    assert serious_violations(gm.page, "#scene-panel") == []
    assert serious_violations(ann.page, "#scene-panel") == []
    for person in (gm, ann, spectator):
        assert person.page_errors == [], (person.name, person.page_errors)
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name
    SCREENS.mkdir(parents=True, exist_ok=True)
    gm.page.locator("#scene-panel").screenshot(path=str(SCREENS / "fog-gm.png"))
    ann.page.locator("#scene-panel").screenshot(path=str(SCREENS / "fog-player.png"))
    shot(ann, "fog-player-desktop")
    assert tools(gm).count() == 1
