"""The table as a game screen (issue 13): what a new group meets in its first evening."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import make_character


def test_a_refused_task_answers_inline_and_the_table_stays(make_table) -> None:
    """Bug 1: any refusal in "Roll a task" replaced the whole table page with one bare
    sentence. The refusal belongs next to the form, and the page stays live."""
    table = make_table(system="demon_city")
    ann = table.join_player("Ann")
    make_character(ann, table.url, "Alfie", agility=2, toughness=3)
    make_character(table.gm, table.url, "Demon", npc=True, agility=3, toughness=3)
    page = ann.page
    ann.mark_page()
    box = page.locator(".task-box")
    box.locator("summary").click()
    # no difficulty and nobody to roll against
    box.locator("#task-character").select_option(label="Alfie")
    box.get_by_role("button", name="Roll the task").click()
    expect(page.locator("#task-notice")).to_contain_text("difficulty")
    expect(page.locator("#rounds-panel")).to_be_visible()
    ann.assert_not_reloaded()
    # a character she does not play: the list does not offer it, and the server refuses it
    expect(box.locator("#task-character option", has_text="Demon")).to_have_count(0)
    box.locator("#task-number").fill("5")
    page.evaluate("""() => {
        const card = [...document.querySelectorAll('#characters article')]
            .find(a => a.querySelector('h3').textContent.trim() === 'Demon');
        const select = document.querySelector('#task-character');
        const option = document.createElement('option');
        option.value = card.id.replace('character-', ''); option.textContent = 'Demon';
        option.dataset.controller = document.body.dataset.member;  // as if it were hers
        select.append(option); select.value = option.value; }""")
    box.get_by_role("button", name="Roll the task").click()
    expect(page.locator("#task-notice")).to_have_text("You act only for the characters you control.")
    expect(page.locator("#rounds-panel")).to_be_visible()
    ann.assert_not_reloaded()


def test_the_task_box_follows_the_characters_made_while_the_page_is_open(make_table) -> None:
    """The task box was kept as it was across live redraws (so what is typed survives), and a
    character made after the page opened could not roll a task until a reload. It is redrawn
    when the characters change, and a player is still offered only the characters they play."""
    table = make_table(system="demon_city")
    gm = table.gm
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alfie", agility=2, toughness=3)
    gm.mark_page()
    ann.mark_page()
    make_character(bob, table.url, "Bram", agility=3, toughness=3)
    whos = {p.name: p.page.locator(".task-box #task-character option") for p in (gm, ann)}
    expect(whos[gm.name]).to_have_text(["Alfie", "Bram"])
    expect(whos[ann.name]).to_have_text(["Alfie"])
    gm.assert_not_reloaded()
    make_character(table.gm, table.url, "Demon", npc=True, agility=3, toughness=3)
    expect(ann.page.locator("#characters article")).to_have_count(3)
    expect(whos[ann.name]).to_have_text(["Alfie"])
    ann.assert_not_reloaded()
    # the redrawn box works: Ann rolls for Alfie, and everyone's log shows it
    box = ann.page.locator(".task-box")
    box.locator("summary").click()
    box.locator("#task-number").fill("2")
    box.get_by_role("button", name="Roll the task").click()
    for person in (ann, bob):
        expect(person.entry("Alfie")).not_to_have_count(0)
    expect(ann.page.locator("#task-notice")).to_have_text("")


def test_no_console_error_when_the_first_deck_comes_out_and_players_join(make_table) -> None:
    """Bug 9: `htmx:oobErrorNoTarget` in the console when the first deck is created and
    when a player joins: a new item of a list is swapped in without an error."""
    from tests.browser.test_cards_ui import bring_out_deck

    table = make_table()
    gm = table.gm
    errors: list[str] = []
    gm.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ann = table.join_player("Ann")
    expect(gm.page.locator("#members li", has_text="Ann")).to_have_count(1)
    ann_errors: list[str] = []
    ann.page.on("console", lambda m: ann_errors.append(m.text) if m.type == "error" else None)
    # no deck yet: no empty play area, hand or deal box, only the line that says so
    for person in (gm, ann):
        expect(person.page.locator("#no-decks")).to_be_visible()
        for empty in ("#play-area", "#hands-panel", ".deal-tools"):
            expect(person.page.locator(empty)).to_be_hidden()
    bring_out_deck(gm)
    for person in (gm, ann):
        expect(person.page.locator("#decks article.deck")).to_have_count(1)
        expect(person.page.locator("#no-decks")).to_have_count(0)
        expect(person.page.locator("#play-area")).to_be_visible()
    expect(ann.page.locator("#hands-panel")).to_be_visible()  # her own hand, empty, to draw into
    table.join_player("Bob")
    for person in (gm, ann):
        expect(person.page.locator("#members li", has_text="Bob")).to_have_count(1)
    assert errors == [] and ann_errors == []


def test_a_guest_logs_out_with_a_warning_and_comes_back_through_the_seat_link(make_table, people) -> None:
    """Bug 4: a guest who clicked "Log out" lost the seat for good. The warning shows the
    seat link; opened in another browser, it brings back the seat and the character."""
    table = make_table(system="demon_city")
    ann = table.join_player("Ann")
    make_character(ann, table.url, "Alfie", agility=2, toughness=3)
    page = ann.page
    page.get_by_role("link", name="Your seat link").click()
    link = page.locator("#seat-url").input_value()
    assert "/seat/" in link
    page.go_back()
    page.get_by_role("link", name="Log out").click()
    expect(page.get_by_role("alert")).to_contain_text("only your seat link brings you back")
    assert page.locator("input[readonly]").first.input_value() == link
    page.get_by_role("button", name="Log out").click()
    assert ann.goto(table.url) == 200 and "/accounts/login/" in page.url  # the seat is not here now
    phone = people.new("Ann's phone", width=390, height=844)
    phone.goto(link)
    phone.page.get_by_role("button", name="Take my seat").click()
    phone.page.wait_for_url("**/tables/*/")
    expect(phone.page.locator(".status-line strong").first).to_have_text("Ann")
    expect(phone.page.locator("#task-character option", has_text="Alfie")).to_have_count(1)


def test_the_gm_rearranges_peeked_cards_with_the_arrows_not_by_typing_ids(make_table) -> None:
    """Cards as cards: "the GM rearranges peeked cards by clicking or dragging, not by typing ids"."""
    from tests.browser.test_cards_ui import bring_out_deck

    table = make_table()
    gm = table.gm
    bring_out_deck(gm, "tarot")
    page = gm.page
    page.locator(".deck details.gm-only summary").click()
    page.get_by_role("button", name="Look").click()
    cards = page.locator(".peek .reorder > li")
    expect(cards).to_have_count(3)
    before = [cards.nth(i).get_attribute("data-card-id") for i in range(3)]
    cards.nth(0).get_by_role("button", name=re.compile("deeper")).click()  # the top card goes second
    expected = [before[1], before[0], before[2]]
    assert page.locator(".peek input[name=order]").input_value() == ", ".join(expected)
    assert page.locator(".peek input:not([type=hidden])").count() == 0  # nothing to type
    with gm.expect_answer("/decks/reorder/") as answer:
        page.get_by_role("button", name="Put them back in this order").click()
    assert answer.status == 200
    page.get_by_role("button", name="Look").click()
    again = page.locator(".peek .reorder > li")
    expect(again).to_have_count(3)
    assert [again.nth(i).get_attribute("data-card-id") for i in range(3)] == expected
