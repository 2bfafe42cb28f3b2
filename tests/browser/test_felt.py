"""Cards on the felt (issue 23): "The play area is the table's felt: who played each card, its
meaning on hover or tap, a short deal/play animation", and "Numbers never go stale: card counts,
'cards left' and odds follow every card move at once." Screenshots go to
test-artifacts/screens/felt-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.core.cards import card_by_id
from tests.browser import test_screens as screens
from tests.browser.axe_check import serious_violations
from tests.browser.test_cards_ui import bring_out_deck
from tests.browser.test_screens import no_sideways_scroll


def draw(person, count: int, where: str = "hand") -> None:
    form = person.page.locator(".deck form").first
    form.locator("input[name=count]").fill(str(count))
    form.locator("select[name=to]").select_option(where)
    with person.expect_answer("/decks/draw/") as answer:
        form.get_by_role("button", name="Draw").click()
    assert answer.status == 200, answer.text()


def act(person, locator, verb: str) -> None:
    """Clicks a card's button and waits for its answer, which must be done."""
    with person.expect_answer(f"/cards/{verb}/") as answer:
        locator.click()
    assert answer.status == 200, answer.text()


def hand_cards(person, holder):
    return person.page.locator(f"#hand-{holder.member_id} .card-row > li")


def serious(page, where: str) -> list[str]:
    """axe-core's serious or critical violations in a part of the page (the whole page, each
    system's and seat's, is tests/browser/test_accessibility.py's)."""
    return serious_violations(page, where)


def meaning_shown(card) -> bool:
    box = card.locator(".card-meaning").bounding_box()
    return box is not None and box["width"] > 100


def test_the_felt_shows_who_played_each_card_and_its_meaning_on_hover_focus_and_tap(make_table, browser) -> None:
    """The play area is a felt where each face-up card carries who played it; a card's meaning
    (a Major Arcana's upright and reversed meanings) shows on hover, on keyboard focus and on a
    tap, inside a 390 px screen; a card lying in a hand reaches no other seat."""
    table = make_table()
    gm = table.gm
    bring_out_deck(gm, "major_arcana")
    ann = table.join_player("Ann")
    phone = table.join_player("Cleo", width=390, height=844)
    spectator = table.join_spectator()
    draw(ann, 3)
    expect(hand_cards(ann, ann)).to_have_count(3)
    held = hand_cards(ann, ann).locator(".card-pick").evaluate_all("els => els.map(e => e.dataset.card)")
    act(ann, hand_cards(ann, ann).first.get_by_role("button", name=re.compile("^Play")), "play")
    played = card_by_id(held[0])
    draw(phone, 1, "play")
    for person in (gm, ann, phone, spectator):
        felt = person.page.locator("#play-area.felt")
        expect(felt.locator(".felt-card")).to_have_count(2)
        expect(felt.locator("#play-h")).to_contain_text("On the table (2)")
        expect(felt.locator(".felt-card").first.locator(".name-tag")).to_have_text("played by Ann")
        expect(felt.locator(".felt-card").nth(1).locator(".name-tag")).to_have_text("played by Cleo")
        assert "gradient" in felt.evaluate("el => getComputedStyle(el).backgroundImage")  # the felt, not a list
    # The two cards still in Ann's hand: in her page, nowhere in the others'.
    for person in (phone, spectator):
        text = person.page.content()
        assert not [c for c in held[1:] if card_by_id(c).name in text], person.name

    card = spectator.page.locator("#play-area .card-face").first
    expect(card.locator(".card-meaning")).to_contain_text(f"Upright: {played.upright_meaning}")
    expect(card.locator(".card-meaning")).to_contain_text(f"Reversed: {played.reversed_meaning}")
    assert not meaning_shown(card)  # hidden to the eye until asked for (a screen reader reads its desc)
    said = f"Upright: {played.upright_meaning}. Reversed: {played.reversed_meaning}"
    assert card.locator("desc").text_content() == said
    card.hover()
    expect(card.locator(".card-meaning")).to_be_visible()
    assert meaning_shown(card), "hover"
    spectator.page.mouse.move(0, 0)
    expect(card.locator(".card-meaning")).to_be_hidden()
    gm_card = gm.page.locator("#play-area .card-face").first
    gm.page.locator("#play-h").click()
    for _ in range(40):  # by Tab alone from the felt's heading
        gm.page.keyboard.press("Tab")
        if gm.page.evaluate("document.activeElement.matches('#play-area .card-face')"):
            break
    assert gm.page.evaluate("document.activeElement.dataset.cardId") == played.id
    expect(gm_card.locator(".card-meaning")).to_be_visible()
    assert meaning_shown(gm_card), "focus"
    gm.page.keyboard.press("Escape")  # dismissed without moving focus
    expect(gm_card.locator(".card-meaning")).to_be_hidden()
    assert gm.page.evaluate("document.activeElement.dataset.cardId") == played.id
    screens.shot(ann, "felt-desktop")
    for person in (gm, ann, spectator):  # the felt: its tags, its cards, their meanings
        assert serious(person.page, "#play-area") == [], person.name

    # A tap on a phone: the card takes focus and shows its meaning, inside the screen.
    touch = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                storage_state=phone.context.storage_state(), base_url=phone.base_url)
    try:
        page = touch.new_page()
        page.goto(table.url)
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        last = page.locator("#play-area .card-face").last
        last.scroll_into_view_if_needed()
        last.tap()
        expect(last.locator(".card-meaning")).to_be_visible()
        assert meaning_shown(last), "tap"
        page.wait_for_timeout(100)  # the box is moved inside the screen on the next frame
        box = last.locator(".card-meaning").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(screens.SCREENS / "felt-390-tap.png"))
    finally:
        touch.close()
    no_sideways_scroll(phone)
    screens.shot(phone, "felt-390")


def test_a_card_dealt_live_slides_in_but_not_on_load_and_not_with_reduced_motion(make_table) -> None:
    """A card that arrives live is marked fresh and animated (as a rolled die tumbles in); the
    same card on a fresh load of the page is not; a viewer who asks for reduced motion gets none."""
    table = make_table()
    gm = table.gm
    bring_out_deck(gm, "standard")
    ann = table.join_player("Ann")
    draw(ann, 2)
    expect(hand_cards(ann, ann).locator(".card-face.fresh")).to_have_count(2)  # into her own hand
    act(ann, hand_cards(ann, ann).first.get_by_role("button", name=re.compile("^Play")), "play")
    fresh = gm.page.locator("#play-area .card-face.fresh")
    expect(fresh).to_have_count(1)
    assert fresh.evaluate("el => getComputedStyle(el).animationName") == "deal-in"
    expect(ann.page.locator("#play-area .card-face.fresh")).to_have_count(1)
    gm.goto(table.url)
    gm.wait_live()
    expect(gm.page.locator("#play-area .card-face")).to_have_count(1)
    expect(gm.page.locator(".card-face.fresh")).to_have_count(0)
    gm.page.emulate_media(reduced_motion="reduce")
    act(ann, hand_cards(ann, ann).first.get_by_role("button", name=re.compile("^Play")), "play")
    expect(fresh).to_have_count(1)
    assert fresh.evaluate("el => getComputedStyle(el).animationName") == "none"


def test_every_seat_s_card_counts_follow_every_card_move_at_once(make_table) -> None:
    """Draw, draw face up, play, discard (from a hand and from the table), return to the top and
    to the bottom, deal, pass, shuffle the discards back and recall: after each, every seat (the GM,
    both players, a spectator) reads the deck's "N in the deck" and discards, the felt's count,
    each member's hand count, and each hand it sees, as they now are, without reloading."""
    table = make_table()
    gm = table.gm
    bring_out_deck(gm, "standard")
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    for person in everyone:
        person.mark_page()

    def check(deck: int, discard: int, play: int, *hands: tuple) -> None:
        for person in everyone:
            page = person.page
            expect(page.locator(".deck .count-draw strong")).to_have_text(str(deck))
            expect(page.locator(".deck .count-discard strong")).to_have_text(str(discard))
            expect(page.locator("#play-area .felt-card")).to_have_count(play)
            expect(page.locator("#play-h .felt-count")).to_have_text(f"({play})")
            for holder, n in hands:
                expect(page.locator(f"#hand-count-{holder.member_id}")).to_have_text(str(n))
                if person is holder or (person is gm and n):  # its own hand, and the GM every one that holds cards
                    hand = page.locator(f"#hand-{holder.member_id}")
                    expect(hand.locator(".card-pick")).to_have_count(n)
                    expect(hand.locator("h3 .muted")).to_have_text(f"({n})")
                    expect(hand).to_have_attribute("data-cards", str(n))
                else:
                    expect(page.locator(f"#hand-{holder.member_id} .card-pick")).to_have_count(0)
            person.assert_not_reloaded()

    check(52, 0, 0, (ann, 0), (bob, 0))
    draw(ann, 3)
    check(49, 0, 0, (ann, 3), (bob, 0))
    draw(bob, 1, "play")
    check(48, 0, 1, (ann, 3), (bob, 0))
    act(ann, hand_cards(ann, ann).first.get_by_role("button", name=re.compile("^Play")), "play")
    check(48, 0, 2, (ann, 2), (bob, 0))
    act(ann, hand_cards(ann, ann).first.get_by_role("button", name=re.compile("^Discard")), "discard")
    check(48, 1, 2, (ann, 1), (bob, 0))
    act(bob, bob.page.locator("#play-area .felt-card").first.get_by_role("button", name=re.compile("^Discard")),
        "discard")
    check(48, 2, 1, (ann, 1), (bob, 0))
    last = hand_cards(ann, ann).first
    last.locator(".card-more > summary").click()
    act(ann, last.get_by_role("button", name=re.compile("^To top")), "return_top")
    check(49, 2, 1, (ann, 0), (bob, 0))
    gm.page.locator(".deal-tools > summary").click()
    gm.page.locator("#deal-count").fill("2")
    for name in ("Ann", "Bob"):
        gm.page.locator("#deal-players label", has_text=name).locator("input").check()
    with gm.expect_answer("/decks/deal/") as answer:
        gm.page.locator(".deal-tools").get_by_role("button", name="Deal", exact=True).click()
    assert answer.status == 200, answer.text()
    check(45, 2, 1, (ann, 2), (bob, 2))
    given = hand_cards(ann, ann).first
    given.locator(".card-more > summary").click()
    given.locator("input[name=to_name]").fill("Bob")
    act(ann, given.get_by_role("button", name=re.compile("^Pass")), "pass")
    check(45, 2, 1, (ann, 1), (bob, 3))
    on_felt = gm.page.locator("#play-area .felt-card").first
    on_felt.locator(".card-more > summary").click()
    act(gm, on_felt.get_by_role("button", name=re.compile("^To bottom")), "return_bottom")
    check(46, 2, 0, (ann, 1), (bob, 3))
    deck = gm.page.locator(".deck").first
    with gm.expect_answer("/decks/reshuffle_discard/") as answer:
        deck.get_by_role("button", name=re.compile("^Shuffle discards back")).click()
    assert answer.status == 200, answer.text()
    check(48, 0, 0, (ann, 1), (bob, 3))
    gm.accept_dialogs = True
    with gm.expect_answer("/decks/recall/") as answer:
        deck.get_by_role("button", name=re.compile("^Recall all")).click()
    assert answer.status == 200, answer.text()
    check(52, 0, 0, (ann, 0), (bob, 0))
    for person in everyone:
        assert not person.page_errors, (person.name, person.page_errors)
