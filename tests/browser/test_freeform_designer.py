"""Freeform for any game, in the browser (issue 38: "A browser test plays a Freeform table whose
sheet the GM designed, with rolls read from it"). The GM designs the sheet on its own page (a
number ``str``, a track ``hp``, a group Skills with ``stealth``, a saved roll "Sneak"
``1d20+@skill.stealth``); a player makes a character on it, clicks Sneak, and everyone sees the
roll with the value read from the sheet; the player lowers hp and the GM's and the spectator's
pages show it live. axe finds no serious violation on the designer, the sheet or the table.
Screenshots go to ``test-artifacts/screens/freeform-*.png``. A Freeform table has no rule text:
the design is the table's rules."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import test_screens as screens
from tests.browser.axe_check import serious_violations


def shot(person, name: str) -> None:
    screens.shot(person, f"freeform-{name}")


def add_field(gm, kind: str, key: str, label: str, *, low: str = "", high: str = "") -> None:
    page = gm.page
    page.locator("#new-kind").select_option(kind)
    page.locator("#new-key").fill(key)
    page.locator("#new-label").fill(label)
    page.locator("#new-min").fill(low)
    page.locator("#new-max").fill(high)
    page.get_by_role("button", name="Add the field").click()
    expect(page.locator(f"input[value='{key}']")).to_have_count(1)


def sheet(person, name: str):
    return person.page.locator("#freeform-panel article.ff-sheet", has=person.page.locator("h3", has_text=name))


def test_the_gm_designs_a_sheet_and_a_player_rolls_from_it_live(make_table) -> None:
    table = make_table()
    gm = table.gm
    ann = table.join_player("Ann")
    spectator = table.join_spectator()

    # the GM designs the sheet on its own page
    gm.page.get_by_role("link", name="Design the sheet").click()
    expect(gm.page.get_by_role("heading", name="Design the sheet")).to_be_visible()
    add_field(gm, "number", "str", "Strength", low="-3", high="5")
    add_field(gm, "track", "hp", "Hit points", high="10")
    add_field(gm, "group", "skill", "Skills")
    add_field(gm, "number", "stealth", "Stealth", low="0", high="10")
    expect(gm.page.locator(".ff-row code", has_text="@skill.stealth")).to_have_count(1)  # a group's field reads group.key
    gm.page.locator("#new-roll-label").fill("Sneak")
    gm.page.locator("#new-roll-notation").fill("1d20+@skill.stealth")
    gm.page.get_by_role("button", name="Add the roll").click()
    expect(gm.page.locator("input[value='1d20+@skill.stealth']")).to_have_count(1)
    assert serious_violations(gm.page) == []
    shot(gm, "designer")
    gm.page.get_by_role("button", name="Save the design").click()
    gm.page.wait_for_url(re.compile(rf"{table.path}$"))
    gm.wait_live()
    for person in (gm, ann, spectator):
        expect(person.entry("designs the sheet")).to_have_count(1)

    # Ann makes Pip on it
    ann.page.get_by_role("link", name="Make a character on the table's sheet").click()
    expect(ann.page.get_by_label("Stealth")).to_be_visible()
    ann.page.get_by_label("Name").fill("Pip")
    ann.page.get_by_label("Strength").fill("2")
    ann.page.get_by_label("Stealth").fill("4")
    assert serious_violations(ann.page) == []
    shot(ann, "new-character")
    ann.page.get_by_role("button", name="Save").click()
    ann.page.wait_for_url(re.compile(rf"{table.path}$"))
    ann.wait_live()
    for person in (gm, ann, spectator):
        expect(sheet(person, "Pip").locator("[data-field='skill.stealth']")).to_contain_text("4")

    # Ann clicks Sneak: everyone reads the roll with the value read from the sheet
    with ann.expect_answer("/sheet/roll/") as answer:
        sheet(ann, "Pip").get_by_role("button", name=re.compile("^Roll Sneak for Pip")).click()
    assert answer.status == 200, answer.body
    for person in (gm, ann, spectator):
        line = person.entry("Sneak: 1d20+@skill.stealth (@skill.stealth +4)")
        expect(line).to_have_count(1)
        expect(line).to_contain_text("Ann rolls for Pip")
    expect(sheet(spectator, "Pip").get_by_role("button")).to_have_count(0)  # a spectator watches

    # Ann lowers hp: the GM's and the spectator's pages show it live
    with ann.expect_answer("/sheet/track/") as answer:
        sheet(ann, "Pip").get_by_role("button", name="Lower Pip's Hit points").click()
    assert answer.status == 200, answer.body
    for person in (gm, spectator, ann):
        expect(sheet(person, "Pip").locator("[data-field='hp'] .ff-now")).to_have_text("9")
        expect(person.entry("Ann changes Pip: Hit points 10/10 → 9/10.")).to_have_count(1)
    for person in (gm, ann, spectator):
        assert serious_violations(person.page, "#freeform-panel") == [], person.name
    shot(gm, "table-gm")
    shot(ann, "table-player")
    shot(spectator, "table-spectator")
    sheet(ann, "Pip").screenshot(path=str(screens.SCREENS / "freeform-sheet-card.png"))
