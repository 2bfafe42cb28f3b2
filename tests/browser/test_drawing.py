"""Issue 37 in Chromium: "a player measures and the others see the ruler live; a player draws and
the GM erases"; a ping draws everyone's eye to a spot.

Screenshots go to test-artifacts/screens/ (kept out of git), for people to look at."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.axe_check import serious_violations
from tests.browser.test_scenes import make_board, shot, show


def board_point(person, x: float, y: float) -> tuple[float, float]:
    """A point of the page at a share (0..1) of the board's width and height."""
    person.page.evaluate("document.querySelector('.scene').scrollIntoView({block: 'start'})")
    box = person.page.locator(".scene-board").bounding_box()
    assert box is not None
    return box["x"] + box["width"] * x, box["y"] + box["height"] * y


def press(person, tool: str) -> None:
    button = person.page.locator(f'.map-toolbar [data-tool="{tool}"]')
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def test_a_player_measures_draws_and_pings_and_the_others_see_it_live(make_table, accessible_names_js) -> None:
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    bob = table.join_player("Bob")
    spectator = table.join_spectator()
    make_board(gm, "Crypt")
    show(gm, "Crypt")
    everyone = (gm, ann, bob, spectator)
    for person in everyone:
        expect(person.page.locator("#scene-stage .scene-name")).to_have_text("Crypt")
    # a spectator watches: no map tool but Move
    expect(spectator.page.locator('.map-toolbar [data-tool="ruler"]')).to_have_count(0)

    ann.mark_page()
    # Ann measures: the others see her ruler while she holds it, with its reading, then it goes.
    press(ann, "ruler")
    page = ann.page
    page.mouse.move(*board_point(ann, 0.2, 0.3))
    page.mouse.down()
    page.mouse.move(*board_point(ann, 0.6, 0.3), steps=10)
    expect(page.locator(".live-layer .ruler")).to_have_count(1)
    for person in (gm, bob, spectator):
        ruler = person.page.locator(".live-layer .ruler")
        expect(ruler).to_have_count(1)
        expect(ruler.locator("text")).to_have_text(re.compile(r"^Ann: [\d.]+ squares · [\d.]+ ft$"))
    shot(bob, "map-ruler-seen-by-a-player")
    page.mouse.up()
    for person in (ann, gm, bob, spectator):
        expect(person.page.locator(".live-layer .ruler")).to_have_count(0)
    expect(page.locator(".ruler-read")).to_contain_text("Measured ")
    expect(page.locator(".ruler-read")).to_contain_text("No grid: counted in straight-line squares")

    # Ann draws a thick line: it reaches every page live; the GM erases it, and it leaves hers.
    press(ann, "draw")
    page.locator(".draw-shape").select_option("line")
    page.locator(".draw-width").fill("14")
    page.locator(".draw-colour").fill("#2a9d8f")
    with page.expect_response(lambda r: "/drawings/new/" in r.url) as answer:
        page.mouse.move(*board_point(ann, 0.2, 0.6))
        page.mouse.down()
        page.mouse.move(*board_point(ann, 0.7, 0.6), steps=8)
        page.mouse.up()
    assert answer.value.status == 204
    for person in everyone:
        expect(person.page.locator(".drawings-layer .drawing")).to_have_count(1)
        expect(person.entry("Ann draws a line on Crypt.")).to_have_count(1)
    drawn = bob.page.locator(".drawings-layer .drawing")
    expect(drawn).to_have_attribute("stroke-width", "14")
    expect(drawn).to_have_attribute("stroke", "#2a9d8f")
    expect(drawn.locator("line")).to_have_count(1)
    shot(spectator, "map-drawing-seen-by-a-spectator")
    # Bob may not erase it: his list offers nothing, Ann's offers hers
    bob.page.locator(".drawing-list summary").click()
    expect(bob.page.locator(".drawing-list li")).to_have_text("None yet.")
    ann.page.locator(".drawing-list summary").click()
    expect(ann.page.locator(".drawing-list li button")).to_have_accessible_name("Erase the line by Ann")
    press(gm, "erase")
    with gm.page.expect_response(lambda r: "/erase/" in r.url) as answer:
        gm.page.mouse.click(*board_point(gm, 0.45, 0.6))
    assert answer.value.status == 204
    for person in everyone:
        expect(person.page.locator(".drawings-layer .drawing")).to_have_count(0)
    expect(ann.entry("erases Ann's line on Crypt.")).to_have_count(1)
    ann.assert_not_reloaded()

    # Bob pings near the top right: the others see the ring and his name, and hear where.
    press(bob, "ping")
    bob.page.mouse.click(*board_point(bob, 0.85, 0.15))
    for person in (gm, ann, spectator):
        expect(person.page.locator(".live-layer .ping text")).to_have_text("Bob")
        expect(person.page.locator("[id$='-pings']")).to_have_text("Bob pings the map near the top right.")
    shot(gm, "map-ping-seen-by-the-gm")
    for person in (gm, ann):
        expect(person.page.locator(".live-layer .ping")).to_have_count(0, timeout=4000)  # a moment only
    # From the keyboard: Ping pressed again pings the middle of what the map shows
    bob.page.locator('.map-toolbar [data-tool="ping"]').focus()
    bob.page.keyboard.press("Enter")
    expect(ann.page.locator("[id$='-pings']")).to_have_text("Bob pings the map near the middle.")
    press(ann, "draw")  # the drawing options open: axe finds nothing serious on any seat's page
    for person in everyone:
        assert serious_violations(person.page) == [], person.name
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page_errors == [], (person.name, person.page_errors)


def test_the_ruler_counts_the_way_the_grid_counts(make_table, manage) -> None:
    """A square grid of 100 across, each square 5 ft: every diagonal step is one square."""
    table = make_table()
    gm, ann = table.gm, table.join_player("Ann")
    make_board(gm, "Hall")
    show(gm, "Hall")
    manage("shell", "-c", "from tabletop.models import Scene; Scene.objects.filter(name='Hall').update("
                          "grid_kind='square', grid_size=100, grid_x=0, grid_y=0, cell_distance=5, cell_unit='ft')")
    for person in (gm, ann):  # the grid's own tools redraw the stage; here the pages are loaded again
        person.page.reload()
        person.wait_live()
    press(ann, "ruler")
    expect(ann.page.locator(".ruler-read")).to_contain_text("Every diagonal step counts as one square.")
    page = ann.page
    # the board is 1600 x 1000: from (150, 150) to (650, 450) is 5 across and 3 down, 5 squares
    page.mouse.move(*board_point(ann, 150 / 1600, 150 / 1000))
    page.mouse.down()
    page.mouse.move(*board_point(ann, 650 / 1600, 450 / 1000), steps=6)
    for person in (ann, gm):
        text = person.page.locator(".live-layer .ruler text")
        expect(text).to_have_text(re.compile(r"5 squares · 25 ft$"))
    page.mouse.up()
    expect(page.locator(".ruler-read")).to_have_text(
        "Measured 5 squares · 25 ft. Every diagonal step counts as one square.")
