"""The table's screens as a group sees them in its first evening (issue 13, "A screen to
play on"): a Demon City table with characters, an NPC, a deck, a short history and a
round under way, through the eyes of the GM, a player and a spectator, on a desktop and
on a 390 px phone. Screenshots go to ``test-artifacts/screens/`` (kept out of git), for
people to look at; the assertions check what the screens must show."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.browser.test_cards_ui import bring_out_deck
from tests.browser.test_demon_city_round import make_character

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"


def shot(person, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def no_sideways_scroll(person) -> None:
    width = person.page.evaluate("document.documentElement.scrollWidth")
    viewport = person.page.viewport_size["width"]
    assert width <= viewport, f"{person.name}'s page is {width} px wide on a {viewport} px screen"


def test_the_table_screens_of_a_first_evening(make_table) -> None:
    table = make_table(system="demon_city")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alfie", agility=2, toughness=4, hand_to_hand=4, side="players")
    make_character(bob, table.url, "Betty", agility=5, toughness=3, firearms=5, side="players")
    make_character(gm, table.url, "Demon", npc=True, agility=3, toughness=5, hand_to_hand=5, side="demons")
    bring_out_deck(gm, "tarot")
    draw = ann.page.locator(".deck form").first
    draw.locator("input[name=count]").fill("3")
    draw.get_by_role("button", name="Draw").click()
    expect(ann.page.locator("#hands .card-face")).to_have_count(3)
    ann.page.locator("#hands .card-row > li").first.get_by_role("button", name="Play").click()
    gm.roll("2d10")
    bob.chat("Betty checks her revolver.")
    spectator = table.join_spectator()
    phone = table.join_player("Cleo", width=390, height=844)
    gm.page.get_by_role("button", name="Start Action Rounds").click()
    for person in (gm, ann, bob, spectator, phone):
        expect(person.page.locator("#rounds-panel li.is-next")).to_contain_text("Alfie")

    # Your turn: Ann's screen says so (banner, tab title); everyone else sees whose turn it is.
    expect(ann.page.locator("#turn-banner .turn-mine")).to_be_visible()
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: announce what Alfie does.")
    assert ann.page.title().startswith("\u25b6 Your turn")
    for person in (gm, bob, spectator, phone):
        expect(person.page.locator("#turn-banner .turn-other")).to_have_text("Alfie announces.")
        expect(person.page.locator("#turn-banner .turn-mine")).to_be_hidden()
        assert not person.page.title().startswith("\u25b6")
    # Characters at a glance: the stats that matter, harm now of base, who plays it.
    alfie = gm.page.locator("#characters article", has_text="Alfie")
    expect(alfie.locator(".track")).to_contain_text("Toughness")
    expect(alfie.locator(".track-value")).to_have_text("4 / 4")
    expect(alfie.locator(".stats")).to_contain_text("Hand-to-Hand")
    expect(alfie.locator(".played-by")).to_have_text("Played by Ann")
    # The hand on a phone comes before the game's panel.
    hand_y = phone.page.locator("#hands-panel").bounding_box()
    panel_y = phone.page.locator("#rounds-panel").bounding_box()
    assert hand_y is not None and panel_y is not None and hand_y["y"] < panel_y["y"]

    shot(gm, "gm-desktop")
    shot(ann, "player-desktop")
    shot(spectator, "spectator-desktop")
    shot(phone, "player-390")
    for person in (gm, ann, bob, spectator, phone):
        no_sideways_scroll(person)

    # Alfie announces: the turn moves on, live, to the next slowest (an NPC: the GM's turn).
    form = ann.page.locator("form.announce-form[aria-label='Announce for Alfie']")
    form.locator("select[name=target]").select_option(label="Demon")
    form.locator("input[name=description]").fill("A haymaker at the Demon")
    form.get_by_role("button", name="Announce for Alfie").click()
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: announce what Demon does.")
    expect(ann.page.locator("#turn-banner .turn-other")).to_have_text("Demon announces.")
    assert not ann.page.title().startswith("\u25b6")
    assert gm.page.title().startswith("\u25b6 Your turn")
    shot(gm, "gm-desktop-gm-turn")
    # the pages around the table: home, the character form, the odds page
    assert gm.goto("/") == 200
    shot(gm, "home")
    assert ann.goto(table.url + "characters/new/") == 200
    shot(ann, "character-form")
    assert spectator.goto("/games/demon_city/odds/") == 200
    expect(spectator.page.locator("table.odds").first).to_be_visible()
    shot(spectator, "odds")
    gm.goto(table.url)
    gm.wait_live()
    gm.page.set_viewport_size({"width": 390, "height": 844})
    shot(gm, "gm-390")
    no_sideways_scroll(gm)
