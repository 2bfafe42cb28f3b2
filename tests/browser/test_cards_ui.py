"""The card table as people use it: on a phone, by keyboard, and checking a shuffle.

Issue 3: "Works by keyboard and on a phone-sized screen", and "Anyone can verify from the
log page (a "verify" button recomputes the hash in the browser) that the cards dealt
followed the committed order."
"""

from __future__ import annotations

import re

from playwright.sync_api import expect


def bring_out_deck(gm, kind: str = "minor_arcana", *, open_to_players: bool = True) -> None:
    page = gm.page
    page.get_by_text("Bring out a deck").click()
    page.locator("#deck-kind").select_option(kind)
    if open_to_players:
        page.locator("input[name=players_may_use]").check()
    with gm.expect_answer("/decks/new/") as answer:
        page.get_by_role("button", name="Bring it out").click()
    assert answer.status == 200


def test_a_hand_of_cards_fits_and_works_on_a_390_pixel_phone(make_table) -> None:
    table = make_table()
    bring_out_deck(table.gm)
    phone = table.join_player("Ann", width=390, height=844)
    draw = phone.page.locator(".deck form").first
    draw.locator("input[name=count]").fill("5")
    draw.get_by_role("button", name="Draw").click()
    expect(phone.page.locator("#hands .card-face")).to_have_count(5)
    phone.page.locator("#hands .card-row > li").first.get_by_role("button", name="Play").click()
    expect(phone.page.locator("#play-area .card-face")).to_have_count(1)
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    box = phone.page.locator("#hands").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_a_player_draws_and_plays_with_the_keyboard_alone(make_table) -> None:
    table = make_table()
    bring_out_deck(table.gm)
    ann = table.join_player("Ann")
    page = ann.page
    count = page.locator(".deck input[name=count]").first
    count.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("2")
    page.keyboard.press("Enter")  # submits the draw form
    expect(page.locator("#hands .card-face")).to_have_count(2)
    play = page.locator("#hands .card-row > li").first.get_by_role("button", name="Play")
    play.focus()
    for _ in range(3):  # the button is reachable by Tab from the card before it
        if page.evaluate("document.activeElement.textContent.trim().startsWith('Play')"):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#play-area .card-face")).to_have_count(1)
    expect(table.gm.page.locator("#play-area .card-face")).to_have_count(1)


def test_the_verify_button_checks_a_revealed_shuffle_in_the_browser(make_table) -> None:
    table = make_table()
    gm = table.gm
    gm.accept_dialogs = True
    bring_out_deck(gm, "major_arcana")
    ann = table.join_player("Ann")
    spectator = table.join_spectator()
    draw_to_hand(ann, 3)
    # she lays all three down: a shuffle whose dealt cards were all seen may be checked by all
    for left in (2, 1, 0):
        ann.page.locator("#hands .card-row > li").first.get_by_role("button", name=re.compile("^Play")).click()
        expect(ann.page.locator("#hands .card-face")).to_have_count(left)
    gm.page.locator(".deck").get_by_role("button", name="Recall all").click()
    for person in (ann, spectator):
        verify = person.page.locator("button.verify").first
        expect(verify).to_be_visible()
        verify.click()
        result = person.page.locator(".verify-result").first
        expect(result).to_have_attribute("data-verified", "true")
    # Ann saw her three cards dealt, and the check covered them; the spectator saw none.
    expect(ann.page.locator(".verify-result").first).to_contain_text("3 cards you saw dealt")
    expect(spectator.page.locator(".verify-result").first).to_contain_text("0 cards you saw dealt")
    # A tampered order is caught.
    ann.page.evaluate("""() => {
        const b = document.querySelector('button.verify');
        const order = b.dataset.order.split(',');
        [order[0], order[1]] = [order[1], order[0]];
        b.dataset.order = order.join(',');
    }""")
    ann.page.locator("button.verify").first.click()
    expect(ann.page.locator(".verify-result").first).to_have_attribute("data-verified", "false")


def draw_to_hand(person, count: int) -> None:
    """``person`` draws ``count`` cards into their hand from the table's deck, by its own form."""
    draw = person.page.locator(".deck form").first
    draw.locator("input[name=count]").fill(str(count))
    draw.get_by_role("button", name="Draw").click()
    expect(person.page.locator("#hands .card-face")).to_have_count(count)


def test_a_draw_made_while_the_gm_holds_cards_of_the_deck_is_checked_too(make_table) -> None:
    """At a table keeping NPC sheets secret (the default), while the GM holds cards of a deck its
    draw pile count is the GM's, and so is a draw's place in the sealed order (it would give the
    count: selectors.draw_counts_held_back). Ann reads that the count is the GM's; once the cards
    are seen and the shuffle revealed, her check finds her three cards in the order, drawn in a run."""
    table = make_table()
    gm = table.gm
    gm.accept_dialogs = True
    bring_out_deck(gm, "major_arcana")
    ann = table.join_player("Ann")
    draw_to_hand(gm, 2)
    expect(gm.page.locator(".deck .count-draw")).to_have_text("20 in the deck")
    expect(ann.page.locator(".deck .count-draw")).to_have_text("draw pile: the GM's count while the GM holds cards of it")
    draw_to_hand(ann, 3)
    expect(ann.page.locator(".deck .count-draw")).to_have_text("draw pile: the GM's count while the GM holds cards of it")
    expect(gm.page.locator(".deck .count-draw")).to_have_text("17 in the deck")
    for left in (2, 1, 0):
        ann.page.locator("#hands .card-row > li").first.get_by_role("button", name=re.compile("^Play")).click()
        expect(ann.page.locator("#hands .card-face")).to_have_count(left)
    for left in (1, 0):
        gm.page.locator("#hands .card-row > li").first.get_by_role("button", name=re.compile("^Play")).click()
        expect(gm.page.locator("#hands .card-face")).to_have_count(left)
    expect(ann.page.locator(".deck .count-draw")).to_have_text("17 in the deck")  # the GM holds none: everyone's
    gm.page.locator(".deck").get_by_role("button", name="Recall all").click()
    verify = ann.page.locator("button.verify").first
    expect(verify).to_be_visible()
    verify.click()
    result = ann.page.locator(".verify-result").first
    expect(result).to_have_attribute("data-verified", "true")
    expect(result).to_contain_text("3 cards you saw dealt")
