"""Issue 37 in Chromium: "the GM fits a grid to an uploaded map and a token snaps"; "the acting
combatant's token is marked during a fight"; "on a phone the map fits the width, pans and
pinches".

Screenshots go to test-artifacts/screens/grid-*.png (kept out of git), for people to look at."""

from __future__ import annotations

from typing import Any

import re

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import make_character as make_persona
from tests.browser.test_scenes import SCREENS, make_board, make_character, place, shot, show, token, tools, upload_scene
from tests.support.pictures import harbour_map

PHONE = 390


def board_point(person, x: float, y: float) -> tuple[float, float]:
    """The page point over (x, y) of the shown scene, in the scene's units."""
    page = person.page
    box = page.locator(".scene-board").bounding_box()
    width = float(page.locator(".scene").get_attribute("data-width"))
    height = float(page.locator(".scene").get_attribute("data-height"))
    assert box is not None
    return box["x"] + box["width"] * x / width, box["y"] + box["height"] * y / height


def drag_to(person, name: str, x: float, y: float, *, alt: bool = False) -> int:
    """Drags the token with the mouse to (x, y) of the scene; the move's answer's status."""
    page = person.page
    page.evaluate("document.querySelector('.scene').scrollIntoView({block: 'start'})")
    box = token(person, name).bounding_box()
    assert box is not None
    with page.expect_response(lambda r: "/move/" in r.url) as answer:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        if alt:
            page.keyboard.down("Alt")
        page.mouse.move(*board_point(person, x, y), steps=8)
        page.mouse.up()
        if alt:
            page.keyboard.up("Alt")
    return answer.value.status


def test_the_gm_fits_a_grid_by_dragging_over_a_cell_and_a_token_snaps_to_it(make_table) -> None:
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    make_character(ann, table.url, "Alma Vey", colour="#c0392b")
    spectator = table.join_spectator()
    assert upload_scene(gm, "Harbour at dusk", harbour_map()) == 200
    show(gm, "Harbour at dusk")
    place(gm, "Alma Vey")
    scene_id = gm.page.locator(".scene").get_attribute("id").removeprefix("scene-")

    # "Fit grid": the GM drags a box over one cell, from (130, 90) to (210, 170): 80 across
    gm.page.get_by_role("button", name="Fit grid").click()
    expect(gm.page.locator(".scene")).to_have_attribute("data-tool", "grid")
    gm.page.evaluate("document.querySelector('.scene').scrollIntoView({block: 'start'})")
    gm.page.mouse.move(*board_point(gm, 130, 90))
    gm.page.mouse.down()
    gm.page.mouse.move(*board_point(gm, 210, 170), steps=6)
    gm.page.mouse.up()
    form = gm.page.locator(f"#grid-form-{scene_id}")
    expect(form).to_be_visible()
    size = float(form.locator("[name=size]").input_value())
    assert 78 <= size <= 82, size
    x, y = float(form.locator("[name=x]").input_value()), float(form.locator("[name=y]").input_value())
    assert abs(x - 130 % size) < 2 and abs(y - 90 % size) < 2, (x, y)
    # the GM tidies what the hand drew, as a GM would, and sets it
    form.locator("[name=size]").fill("80")
    form.locator("[name=x]").fill("50")
    form.locator("[name=y]").fill("10")
    form.locator("[name=unit]").fill("ft")
    with gm.page.expect_response(lambda r: r.url.endswith("/grid/")) as answer:
        form.get_by_role("button", name=re.compile("Set the grid")).click()
    assert answer.value.status == 200
    for person in (gm, ann, spectator):
        layer = person.page.locator(".grid-layer")
        expect(layer).to_have_attribute("data-kind", "square")
        expect(layer).to_have_attribute("data-size", "80.0")
        expect(layer).to_be_visible()
        expect(person.entry("sets Harbour at dusk to a square grid, a cell 5 ft.")).to_have_count(1)
    gm.page.get_by_role("button", name="Move", exact=True).click()

    # Ann drops Alma near (433, 287): its cell's centre is (410, 290) (cells from 50 across, 10 down)
    assert drag_to(ann, "Alma Vey", 433, 287) == 204
    for person in (gm, ann, spectator):
        alma = token(person, "Alma Vey")
        expect(alma).to_have_attribute("data-x", "410")
        expect(alma).to_have_attribute("data-y", "290")
    # a token one cell wide: 80 of the picture's 1200
    width = ann.page.evaluate("(() => { const t = document.querySelector('.token'); return "
                              "t.getBoundingClientRect().width / t.closest('.scene-board').getBoundingClientRect().width; })()")
    assert abs(width - 80 / 1200) < 0.005, width

    # Alt: anywhere
    assert drag_to(ann, "Alma Vey", 603, 411, alt=True) == 204
    for person in (gm, ann):
        alma = token(person, "Alma Vey")
        expect(alma).to_have_attribute("data-x", re.compile(r"^60[0-6]$"))
        expect(alma).to_have_attribute("data-y", re.compile(r"^4(0[89]|1[0-4])$"))
    # The keyboard: a cell a step, snapped: from (603, 411) a cell left is (523, 411), whose cell's
    # centre is (490, 450)
    token(ann, "Alma Vey").focus()
    ann.page.keyboard.press("ArrowLeft")
    for person in (gm, spectator):
        expect(token(person, "Alma Vey")).to_have_attribute("data-x", "490")
        expect(token(person, "Alma Vey")).to_have_attribute("data-y", "450")

    # Her token's look: two cells, a label
    ann.page.get_by_role("button", name="Token look").click()
    token(ann, "Alma Vey").click()
    dialog = ann.page.locator("#token-look")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Size in cells").select_option("2")
    dialog.get_by_label("Label (under the token)").fill("Captain")
    with ann.page.expect_response(lambda r: r.url.endswith("/style/")) as answer:
        dialog.get_by_role("button", name="Save").click()
    assert answer.value.status == 204
    for person in (gm, ann, spectator):
        expect(token(person, "Alma Vey")).to_have_attribute("data-size", "2")
        expect(token(person, "Alma Vey").locator(".token-label")).to_have_text("Captain")
    for person in (gm, ann, spectator):
        assert person.page_errors == [], (person.name, person.page_errors)
    ann.page.locator("#scene-panel").screenshot(path=str(SCREENS / "grid-player-snapped.png"))
    shot(gm, "grid-gm-desktop")


def test_the_acting_combatants_token_is_marked_on_the_players_page(make_table) -> None:
    table = make_table(system="passages")
    gm = table.gm
    ann = table.join_player("Ann")
    make_persona(ann, table.url, "Trayer", skills="Soldiery: 18", combat_skill="Soldiery",
                 defense_skill="Soldiery", weapon="Long Blade", weapon_damage=3)
    make_persona(gm, table.url, "Garbo", npc=True, skills="Two-Hander: 25", weapon="flail", weapon_damage=3)
    spectator = table.join_spectator()
    make_board(gm, "Sinking deck", colour="#35524a")
    show(gm, "Sinking deck")
    place(gm, "Trayer")
    place(gm, "Garbo")
    for person in (gm, ann, spectator):
        expect(token(person, "Trayer")).not_to_have_class(re.compile(r"\bacts-now\b"))
    gm.page.locator("#start-fight > summary").click()
    fight = gm.page.locator("form[aria-label='Start a fight']")
    with gm.expect_answer("/commands/combat_start/") as answer:
        fight.get_by_role("button", name="Start the fight").click()
    assert answer.status == 200
    for person in (gm, ann, spectator):
        expect(token(person, "Trayer")).to_have_class(re.compile(r"\bacts-now\b"))
        expect(token(person, "Trayer")).to_have_attribute("aria-label", re.compile(r", acts now$"))
        expect(token(person, "Garbo")).not_to_have_class(re.compile(r"\bacts-now\b"))
    ann.page.locator("#scene-panel").screenshot(path=str(SCREENS / "grid-fight-acts-now.png"))
    for person in (gm, ann, spectator):
        assert person.page_errors == [], (person.name, person.page_errors)


def pinch(page: Any, cdp: Any, x: float, y: float, spread: float) -> float:
    """Two real fingers on the touch screen (Chromium's own touch input, through the DevTools
    protocol: the browser's touch-action and its pointer events as a phone makes them), 40 px
    apart, moved ``spread`` px further apart each in ten steps; the map's zoom after."""
    def fingers(d: float) -> list[dict[str, float]]:
        return [{"x": x - 20 - d, "y": y, "id": 1}, {"x": x + 20 + d, "y": y, "id": 2}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(0)})
    for i in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(spread * i / 10)})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(50)
    return float(page.evaluate("Number(document.querySelector('.scene-frame').dataset.zoom)"))


def test_on_a_phone_the_map_fits_the_width_and_two_fingers_pinch_it(make_table, browser) -> None:
    table = make_table()
    gm = table.gm
    phone = table.join_player("Cleo", width=PHONE, height=844)
    make_character(phone, table.url, "Cleo's Fox")
    make_board(gm, "Meadow", colour="#35524a")
    show(gm, "Meadow")
    place(gm, "Cleo's Fox")
    touch = browser.new_context(viewport={"width": PHONE, "height": 844}, has_touch=True, is_mobile=True,
                                storage_state=phone.context.storage_state(), base_url=phone.base_url)
    try:
        page = touch.new_page()
        page.goto(table.url)
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        frame = page.locator(".scene-frame")
        frame.scroll_into_view_if_needed()
        box = frame.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE, box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
        assert page.evaluate("getComputedStyle(document.querySelector('.scene-frame')).touchAction") == "pan-x pan-y"
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        cdp = touch.new_cdp_session(page)
        zoomed = pinch(page, cdp, centre[0], centre[1], 60)
        assert 2.5 <= zoomed <= 4, zoomed  # fingers 40 px apart spread to 160: four times, at most 4x
        board = page.locator(".scene-board").bounding_box()
        assert board is not None and board["width"] > 2.4 * box["width"], (board, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE  # it pans in its frame
        page.screenshot(path=str(SCREENS / "grid-phone-pinched.png"))
        pinched_in = pinch(page, cdp, centre[0], centre[1], -10)
        assert 1 < pinched_in < zoomed, pinched_in  # fingers 40 px apart closed to 20: half
        expect(page.get_by_role("button", name="Fit the scene to the width")).to_be_enabled()
        page.get_by_role("button", name="Fit the scene to the width").tap()
        assert page.evaluate("Number(document.querySelector('.scene-frame').dataset.zoom)") == 1
    finally:
        touch.close()
