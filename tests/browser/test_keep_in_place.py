"""Issue 38, items 4 and 5: "On a phone the page jumps after Announce or a defence (to the felt or
the Cards section); when the player's turn comes the form is far above. Keep the player where they
act." and "A card's meaning floats loose: over "Your hand" after Play on desktop, over the scene
after a pick on the phone. The docked hand covers Shadows' "Show the odds" result at 1400x900."

A player's tap is sent here with the element's own click() (a finger on a phone scrolls nothing;
Playwright's click would scroll the control into view first and hide a jump). Screenshots go to
test-artifacts/screens/keep-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import make_character
from tests.browser.test_scenes import make_board, show
from tests.browser.test_screens import SCREENS
from tests.browser.test_shadows_table import bring_out_the_arcana, click, hand_of, pick, start_and_deal, value

PHONE = {"width": 390, "height": 844}
SLACK_PX = 3

# Every card meaning shown on the page, with its box and its card's (the pick around it, if any).
MEANINGS_JS = """() => [...document.querySelectorAll('.card-meaning')]
  .filter((m) => getComputedStyle(m).display !== 'none' && m.getClientRects().length)
  .map((m) => {
    const r = m.getBoundingClientRect(), card = (m.closest('.card-pick') || m.closest('.card-face')).getBoundingClientRect();
    return {text: m.textContent.trim().replace(/\\s+/g, ' '), box: [r.left, r.top, r.right, r.bottom],
            card: [card.left, card.top, card.right, card.bottom]};
  })"""

# Where an element is: its box on the screen, the page's scroll, and its place in the page.
WHERE_JS = """(el) => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, scroll: scrollY, offset: r.top + scrollY, height: innerHeight}; }"""

# The part of the screen a docked hand leaves free: its top while it stands at the screen's foot.
FREE_JS = """() => { const d = document.querySelector('.stage > .hands-panel');
  if (!d || getComputedStyle(d).position !== 'sticky') return innerHeight;
  const r = d.getBoundingClientRect(); return r.bottom >= innerHeight - 2 && r.top < innerHeight ? r.top : innerHeight; }"""


def tap(person, locator, command: str) -> None:
    """A tap on a control that is on screen: nothing scrolls it first. Its command must be done."""
    with person.expect_answer(f"/commands/{command}/") as answer:
        locator.evaluate("el => el.click()")
    assert answer.status == 200, answer.text()


def settle(person) -> None:
    """The answer and the live redraw in, and any gentle scroll the page made over."""
    person.page.wait_for_timeout(900)


def put_at(person, locator, fraction: float) -> None:
    """Scrolls so the element's top stands ``fraction`` of the way down the screen."""
    locator.evaluate(f"el => scrollTo(0, el.getBoundingClientRect().top + scrollY - innerHeight * {fraction})")
    person.page.wait_for_timeout(150)


def in_view(person, locator) -> bool:
    box = locator.evaluate(WHERE_JS)
    free = person.page.evaluate(FREE_JS)
    return box["top"] >= 0 and box["bottom"] <= free


def on_screen(person, locator) -> bool:
    """Some of the element is on the free part of the screen."""
    box = locator.evaluate(WHERE_JS)
    return box["bottom"] > 0 and box["top"] < person.page.evaluate(FREE_JS)


def assert_stayed(before: dict, after: dict, what: str) -> None:
    """The page's scroll moved by no more than what lies above the panel grew or shrank (the turn
    banner says more or less in a line on a phone), so the panel stands where it stood on the
    screen: within a few pixels."""
    grew_above = after["offset"] - before["offset"]
    moved = after["scroll"] - before["scroll"]
    assert abs(moved - grew_above) <= SLACK_PX, (
        f"{what}: the page scrolled {moved} px, what lies above grew {grew_above}")
    shifted = after["top"] - before["top"]
    assert abs(shifted) <= SLACK_PX, f"{what}: the panel moved {shifted} px on the screen"
    assert abs(moved) <= abs(grew_above) + SLACK_PX, (before, after)


def assert_meanings_by_their_cards(person, when: str) -> None:
    for m in person.page.evaluate(MEANINGS_JS):
        box, card = m["box"], m["card"]
        near = 8  # a meaning stands 4 px above or below its card
        overlaps = (box[0] < card[2] + near and card[0] - near < box[2]
                    and box[1] < card[3] + near and card[1] - near < box[3])
        assert overlaps, f"{when}: the meaning {m['text']!r} stands at {box}, away from its card at {card}"


def test_a_shadows_fight_on_a_phone_keeps_the_player_where_they_act(make_table) -> None:
    table = make_table(system="shadows")
    gm = table.gm
    ann = table.join_player("Ann", **PHONE)
    make_character(ann, table.url, "Alma", quickness=9, body=6, physical=6, skills="Melee: 20")
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, body=4, physical=2, health=60, life=60)
    bring_out_the_arcana(gm)
    start_and_deal(gm, (ann, "Alma"), (gm, "Ghoul"))
    page = ann.page
    panel = page.locator("#shadows-panel")
    attack = page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Ghoul")
    attack.locator("select[name=weapon]").select_option("Sword")
    attack.locator("select[name=skill]").select_option("melee")
    button = attack.get_by_role("button", name="Attack with the picked cards for Alma")
    put_at(ann, button, 0.3)

    # A pick from the docked hand: the card's meaning does not stand over the page, away from it.
    card = [c for c in hand_of(ann, ann) if 1 < value(c) < 11][0]
    pick(ann, ann, card)
    page.wait_for_timeout(100)
    assert_meanings_by_their_cards(ann, "after a pick on a phone")
    page.screenshot(path=str(SCREENS / "keep-shadows-phone-pick.png"))

    # Ann attacks: her panel stays where it was on her screen, and what the attack did (the
    # Ghoul's defence awaited, her card in it) is where her form was.
    before = panel.evaluate(WHERE_JS)
    tap(ann, button, "attack")
    expect(page.locator("#shadows-pending")).to_be_visible()
    settle(ann)
    assert_stayed(before, panel.evaluate(WHERE_JS), "after Ann's attack")
    page.screenshot(path=str(SCREENS / "keep-shadows-phone-attacked.png"))
    alma = page.locator("#shadows-combat .sh-order > li", has_text="Alma")
    assert on_screen(ann, alma), "Alma's place in the fight left Ann's screen"

    # The GM takes it for the Ghoul: Ann's screen stays put.
    before = panel.evaluate(WHERE_JS)
    click(gm, gm.page.get_by_role("button", name="Take it: no active defence for Ghoul"), "defend")
    expect(page.locator("#shadows-pending")).to_have_count(0)
    settle(ann)
    assert_stayed(before, panel.evaluate(WHERE_JS), "after the Ghoul's defence")

    # The Ghoul attacks Alma while Ann types a chat line at the foot of the page: her turn to
    # defend comes, her typing keeps the focus; once she leaves the field, the defence comes
    # into view.
    chat = page.locator("#chat-form #id_text")
    chat.evaluate("el => el.scrollIntoView({block: 'center'})")
    chat.focus()
    chat.press_sequentially("hold on")
    ghoul = gm.page.locator("form[aria-label='Attack for Ghoul']")
    ghoul.locator("select[name=target]").select_option(label="Alma")
    pick(gm, gm, [c for c in hand_of(gm, gm) if 1 < value(c) < 11][0])
    click(gm, ghoul.get_by_role("button", name="Attack with the picked cards for Ghoul"), "attack")
    expect(page.locator("#turn-banner .turn-mine")).to_be_visible()
    take = page.get_by_role("button", name="Take it: no active defence for Alma")
    expect(take).to_have_count(1)
    settle(ann)
    assert page.evaluate("document.activeElement.id") == "id_text", "the turn took the focus from the chat line"
    assert chat.input_value() == "hold on"
    assert not in_view(ann, take), "the page moved while Ann typed"
    page.keyboard.press("Tab")
    page.wait_for_function("""() => { const b = [...document.querySelectorAll('#shadows-pending button')]
        .find((x) => x.textContent.includes('Take it')); if (!b) return false; const r = b.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""", timeout=5000)
    settle(ann)
    assert in_view(ann, take), "Ann's defence is not in view when her turn came"
    page.screenshot(path=str(SCREENS / "keep-shadows-phone-turn.png"))

    # Ann defends: her screen stays put, and her turn to act comes back with her attack on screen.
    put_at(ann, take, 0.4)
    before = panel.evaluate(WHERE_JS)
    tap(ann, take, "defend")
    expect(page.locator("#turn-banner")).to_contain_text("Your turn: act for Alma")
    settle(ann)
    assert_stayed(before, panel.evaluate(WHERE_JS), "after Ann's defence")
    expect(attack).to_be_visible()
    assert in_view(ann, attack.get_by_role("button", name="Attack with the picked cards for Alma"))
    page.screenshot(path=str(SCREENS / "keep-shadows-phone-defended.png"))
    assert not ann.page_errors, ann.page_errors


def test_a_passages_declaration_on_a_phone_keeps_the_player_where_they_act(make_table) -> None:
    table = make_table(system="passages")
    gm = table.gm
    ann = table.join_player("Ann", **PHONE)
    make_character(ann, table.url, "Trayer", skills="Soldiery: 18", combat_skill="Soldiery",
                   defense_skill="Soldiery", weapon="Long Blade", weapon_damage=3)
    make_character(gm, table.url, "Garbo", npc=True, skills="Two-Hander: 25", weapon="flail", weapon_damage=3)
    gm.page.locator("#start-fight > summary").click()
    with gm.expect_answer("/commands/combat_start/") as answer:
        gm.page.locator("form[aria-label='Start a fight']").get_by_role("button", name="Start the fight").click()
    assert answer.status == 200
    page = ann.page
    panel = page.locator("#passages-panel")
    declare = page.locator("form[aria-label='Declare Trayer IN']")
    expect(declare).to_be_visible()
    declare.get_by_label("Intent").fill("to drive him off the deck")
    button = declare.get_by_role("button", name="Declare IN for Trayer")
    put_at(ann, button, 0.45)
    before = panel.evaluate(WHERE_JS)
    tap(ann, button, "declare")
    row = page.locator("#passages-panel li.fighter:has(.who-line strong:text-is('Trayer'))")
    expect(row.locator(".declared")).to_contain_text("IN: to drive him off the deck")
    settle(ann)
    assert_stayed(before, panel.evaluate(WHERE_JS), "after Ann's declaration")
    assert in_view(ann, row.locator(".declared")), "Trayer's declaration is off Ann's screen"
    page.screenshot(path=str(SCREENS / "keep-passages-phone-declared.png"))

    # Ann reads the log at the foot of the page; the Director declares, and her Combat Roll,
    # her turn now, comes into view by itself.
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    roll = page.get_by_role("button", name="Combat Roll for Trayer")
    garbo = gm.page.locator("form[aria-label='Declare Garbo IN']")
    garbo.get_by_label("Attack").select_option(label="Trayer")
    with gm.expect_answer("/commands/declare/") as answer:
        garbo.get_by_role("button", name="Declare IN for Garbo").click()
    assert answer.status == 200
    expect(page.locator("#turn-banner")).to_contain_text("Your turn: make Trayer's Combat Roll.")
    page.wait_for_function("""() => { const b = [...document.querySelectorAll('#passages-panel button')]
        .find((x) => x.textContent.includes('Combat Roll') && x.offsetParent); if (!b) return false;
        const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }""", timeout=5000)
    settle(ann)
    assert in_view(ann, roll)
    page.screenshot(path=str(SCREENS / "keep-passages-phone-turn.png"))
    assert not ann.page_errors, ann.page_errors


def test_a_card_s_meaning_does_not_float_over_the_hand_after_play(make_table) -> None:
    from tests.browser.test_cards_ui import bring_out_deck
    table = make_table()
    bring_out_deck(table.gm, "tarot")
    ann = table.join_player("Ann")
    draw = ann.page.locator(".deck form").first
    draw.locator("input[name=count]").fill("4")
    draw.get_by_role("button", name="Draw").click()
    cards = ann.page.locator("#hands .card-row > li")
    expect(cards).to_have_count(4)
    first = cards.first
    first.locator(".card-face").hover()
    meanings = ann.page.evaluate(MEANINGS_JS)
    assert len(meanings) == 1, meanings  # pointed at, a card shows its meaning by it
    assert_meanings_by_their_cards(ann, "pointing at a card")
    first.get_by_role("button", name="Play").click()
    expect(ann.page.locator("#play-area .card-face")).to_have_count(1)
    expect(cards).to_have_count(3)
    ann.page.wait_for_timeout(700)  # the card's deal-in on the felt done
    assert_meanings_by_their_cards(ann, "after Play")
    # the next card slid under the pointer, which did not move: nobody pointed at it, and its
    # meaning does not stand over "Your hand"
    shown = ann.page.evaluate(MEANINGS_JS)
    assert shown == [], f"after Play, a meaning nobody pointed at shows: {shown}"
    ann.page.screenshot(path=str(SCREENS / "keep-after-play.png"))
    # the card that slid under the pointer opens its meaning once the pointer moves on it
    box = cards.first.locator(".card-face").bounding_box()
    ann.page.mouse.move(box["x"] + box["width"] / 2 + 3, box["y"] + box["height"] / 2 + 3)
    expect(cards.first.locator(".card-meaning")).to_be_visible()
    assert_meanings_by_their_cards(ann, "pointing at the next card")


def test_the_docked_hand_leaves_shadows_odds_readable_at_1400_by_900(make_table) -> None:
    table = make_table(system="shadows")
    gm = table.gm
    ann = table.join_player("Ann", width=1400, height=900)
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alma", quickness=9, body=6, physical=6, skills="Melee: 20")
    make_character(bob, table.url, "Bram", quickness=3, body=5, physical=4, skills="Melee: 4")
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, body=4, physical=2, health=60, life=60)
    bring_out_the_arcana(gm)
    # the GM shows a board, as at most tables: the fight's panel sits under it
    make_board(gm, "The mill")
    show(gm, "The mill")
    start_and_deal(gm, (ann, "Alma"), (gm, "Ghoul"), (bob, "Bram"))
    page = ann.page
    expect(page.locator("#scene-stage .scene-name")).to_have_text("The mill")
    attack = page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Bram")
    attack.locator("select[name=weapon]").select_option("Sword")
    attack.locator("select[name=skill]").select_option("melee")
    odds = attack.get_by_role("button", name="Show the odds for Alma")
    # the player scrolls down to the button until it shows just above the docked hand
    free = page.evaluate(FREE_JS)
    assert free < 900, "the hand is not docked"
    odds.evaluate(f"b => scrollBy(0, b.getBoundingClientRect().bottom - {free} + 12)")
    page.wait_for_timeout(150)
    assert in_view(ann, odds)
    tap(ann, odds, "aim")
    result = page.locator("[id^=through-]")
    expect(result.locator("li")).to_have_count(14)
    settle(ann)
    box = result.evaluate("el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }")
    dock = page.locator("#hands-panel").evaluate(
        "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }")
    assert box[3] <= dock[1] or box[1] >= dock[3], f"the docked hand {dock} covers the odds {box}"
    assert result.evaluate("""el => { const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)); }"""), (
        "something stands over the odds' centre")
    assert in_view(ann, odds), "the button the player used left the screen"
    page.screenshot(path=str(SCREENS / "keep-shadows-odds-1400.png"))
    assert not ann.page_errors, ann.page_errors
