"""A Shadows of Humanity combat round in four browsers: a GM, two players and a spectator.

Seed 000: "combat is handled by the GM shuffling the Minor Arcana and dealing out a number of
cards to each player"; "only the GM and the particular player will see their own card draws,
due to how players will "play cards from their hand""; a dodge "by spending an AP ... resulting
in the use of one card ... from their hand"; damage "further increased by an additional card
drawn from the deck ... if the attack card played was a face card and the defense card was not
a face card" (a Minor Critical). Everyone sees each step live; no browser but the holder's and
the GM's ever receives a hand's card before it is played. Screenshots go to
test-artifacts/screens/shadows-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.core.cards import card_by_id
from tests.browser import test_screens as screens
from tests.browser.test_demon_city_round import make_character
from tests.browser.test_screens import no_sideways_scroll

MAX_DEALS = 6  # nine cards with no face card among them: about 3% a deal
# A shuffle's sealed order, revealed for Verify only once no card of the deck is in a hand.
ORDERS = re.compile(r'data-order="[^"]*"')


def shot(person, name: str) -> None:
    screens.shot(person, f"shadows-{name}")


def click(person, locator, command: str) -> None:
    """Clicks a panel control and waits for its command's answer, which must be done (200)."""
    with person.expect_answer(f"/commands/{command}/") as answer:
        locator.click()
    assert answer.status == 200, answer.text()


def bring_out_the_arcana(gm) -> None:
    """The GM brings out the two decks the rules draw from, from the panel's own buttons."""
    decks = gm.page.locator("#shadows-decks")
    for name in ("Bring out the Minor Arcana", "Bring out the Major Arcana"):
        with gm.expect_answer("/decks/new/") as answer:
            decks.get_by_role("button", name=name).click()
        assert answer.status == 200


def start_and_deal(gm, *declaring) -> None:
    """The GM starts the combat; each (person, character name) declares a focus; the GM deals."""
    gm.page.locator("#shadows-start > summary").click()
    click(gm, gm.page.get_by_role("button", name="Start the combat"), "start_combat")
    for person, who in declaring:
        click(person, person.page.get_by_role("button", name=f"Declare {who}'s focus"), "declare_focus")
    click(gm, gm.page.get_by_role("button", name="Shuffle and deal the hands"), "deal")


def hand_of(person, holder) -> list[str]:
    """The card ids in ``holder``'s hand as ``person``'s page shows it."""
    return person.page.locator(f"#hand-{holder.member_id} .card-pick").evaluate_all(
        "els => els.map(e => e.dataset.card)")


def value(card_id: str) -> int:
    return card_by_id(card_id).value


def pick(person, holder, card_id: str) -> None:
    card = person.page.locator(f'#hand-{holder.member_id} .card-pick[data-card="{card_id}"]')
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")


def unseen(text: str, card_ids: list[str]) -> list[str]:
    """Which of these cards ``text`` names, by id or by name (revealed past orders aside)."""
    text = ORDERS.sub("", text)
    return [c for c in card_ids if card_by_id(c).name in text or re.search(re.escape(c) + r"(?![0-9])", text)]


def where(text: str, cards: list[str]) -> list[str]:
    """Where in ``text`` each card is named: for a failure's message."""
    text = ORDERS.sub("", text)
    out = []
    for c in cards:
        at = text.find(card_by_id(c).name)
        at = at if at >= 0 else text.find(c)
        out.append(text[max(0, at - 300): at + 80])
    return out


def test_a_combat_round_with_hidden_hands_a_dodge_and_a_critical_seen_live(
        make_table, accessible_names_js, duplicate_ids_js) -> None:
    table = make_table(system="shadows")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    # Alma is quickest and deals in Melee 20: any face card gets through a dodge; the Ghoul is
    # next, then Bram. Hands: Alma 6 + 3 = 9 cards, the Ghoul 4 + 1 = 5, Bram 5 + 2 = 7.
    make_character(ann, table.url, "Alma", quickness=9, body=6, physical=6, skills="Melee: 20\nStealth: 6")
    make_character(bob, table.url, "Bram", quickness=3, body=5, physical=4, skills="Melee: 4")
    # Alma's critical blow must not fell it (Health 0 is down, Life 0 dead): a chain of criticals
    # once felled a Ghoul of Health 60, and then Bram acted next, not the Ghoul
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, body=4, physical=2, health=400, life=400,
                   skills="Claws: 5")
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    players = (ann, bob, spectator)
    # The Ghoul's sheet is the GM's: the others see its card with its name alone.
    for person in (ann, spectator):
        ghoul_card = person.page.locator("#characters article", has_text="Ghoul")
        expect(ghoul_card).to_contain_text("Its sheet is the GM's.")
        expect(ghoul_card).not_to_contain_text("Health")
        expect(ghoul_card).not_to_contain_text("Claws")
    expect(gm.page.locator("#characters article", has_text="Ghoul")).to_contain_text("Claws")

    # The decks: the panel offers the GM the two it needs, and forgets them once they are out.
    decks = gm.page.locator("#shadows-decks")
    expect(decks).to_be_visible()
    for person in players:
        expect(person.page.locator("#shadows-decks")).to_be_hidden()
    for name in ("Bring out the Minor Arcana", "Bring out the Major Arcana"):
        with gm.expect_answer("/decks/new/") as answer:
            decks.get_by_role("button", name=name).click()
        assert answer.status == 200
    expect(decks).to_be_hidden()
    for person in everyone:
        expect(person.page.locator('.deck[data-deck-name="Minor Arcana"]')).to_have_count(1)

    gm.page.locator("#shadows-start > summary").click()
    click(gm, gm.page.get_by_role("button", name="Start the combat"), "start_combat")
    for person in everyone:
        expect(person.page.locator("#shadows-combat .sh-order > li")).to_have_count(3)
    assert gm.page.locator("#shadows-combat .sh-order .sh-name").all_inner_texts() == ["Alma", "Ghoul", "Bram"]

    face = None
    for deal in range(1, MAX_DEALS + 1):
        if deal > 1:
            click(gm, gm.page.get_by_role("button", name="Next round"), "new_round")
        # each chooses a focus, all at once; the banner tells each player whose choice it is
        expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: choose Alma's focus for this round.")
        expect(bob.page.locator("#turn-banner")).to_contain_text("Your turn: choose Bram's focus for this round.")
        expect(spectator.page.locator("#turn-banner .turn-other")).to_contain_text("Alma, Ghoul and Bram choose a focus")
        for person, who in ((ann, "Alma"), (gm, "Ghoul"), (bob, "Bram")):
            click(person, person.page.get_by_role("button", name=f"Declare {who}'s focus"), "declare_focus")
        expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: shuffle the Minor Arcana and deal the hands.")
        # what each browser has seen before this deal (an earlier round's own hand) is no leak later
        before = {p.name: "\n".join(p.frames) + p.page.content() for p in everyone}
        click(gm, gm.page.get_by_role("button", name="Shuffle and deal the hands"), "deal")
        for person in everyone:
            expect(person.page.locator("#shadows-combat")).to_contain_text("9 cards in hand")
            expect(person.page.locator(f"#hand-count-{ann.member_id}")).to_have_text("9")
        expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(9)
        expect(bob.page.locator(f"#hand-{bob.member_id} .card-pick")).to_have_count(7)
        expect(gm.page.locator(f"#hand-{gm.member_id} .card-pick")).to_have_count(5)
        alma_hand = hand_of(ann, ann)
        faces = [c for c in alma_hand if value(c) >= 11]
        # the round below needs Alma's face card, a card below the face cards for the Ghoul's
        # dodge and another above the Ace for its attack (the GM's hand is the Ghoul's), and one
        # below the face cards for Bram's dodge: a deal without them (about 0.1 %) is dealt again
        ghoul_hand = hand_of(gm, gm)
        ghoul_dodge = next((c for c in ghoul_hand if value(c) < 11), None)
        if (faces and ghoul_dodge and any(c != ghoul_dodge and value(c) > 1 for c in ghoul_hand)
                and any(value(c) < 11 for c in hand_of(bob, bob))):
            face = faces[0]
            break
    assert face is not None, f"no deal in {MAX_DEALS} gave the cards the round needs"
    bram_hand = hand_of(bob, bob)
    # Each hand reaches its holder and the GM only; the others and the spectator see counts.
    expect(gm.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(9)
    expect(bob.page.locator(f"#hand-{ann.member_id}")).to_have_count(0)
    expect(spectator.page.locator(".hand .card-pick")).to_have_count(0)
    expect(spectator.page.locator(f"#hand-count-{bob.member_id}")).to_have_text("7")

    # Alma's turn: Ann lines up an attack on Bram and sees each card's chance; she picks her face card.
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: act for Alma")
    for person in (gm, bob, spectator):
        expect(person.page.locator("#turn-banner .turn-other")).to_contain_text("Alma acts (10 AP left)")
    attack = ann.page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Bram")
    attack.locator("select[name=weapon]").select_option("Sword")
    attack.locator("select[name=skill]").select_option("melee")
    click(ann, attack.get_by_role("button", name="Show the odds for Alma"), "aim")
    through = ann.page.locator("[id^=through-] li")
    expect(through).to_have_count(14)
    pick(ann, ann, face)
    picked = ann.page.locator(f"[id^=through-] li[data-value='{value(face)}']")
    expect(picked).to_have_css("font-weight", "700")  # the picked card's chance stands out
    shot(ann, "player-desktop")
    # Against the Ghoul the chances come from its Defence and hand, the GM's figures: Ann reads
    # why she has none, the GM sees them.
    attack.locator("select[name=target]").select_option(label="Ghoul")
    click(ann, attack.get_by_role("button", name="Show the odds for Alma"), "aim")
    expect(ann.page.locator("[id^=through-]")).to_contain_text("depends on Ghoul's Defence and hand, the GM's figures")
    expect(through).to_have_count(0)
    expect(gm.page.locator("[id^=through-] li")).to_have_count(14)
    expect(gm.page.locator("[id^=through-]")).to_contain_text("Chance the damage gets through Ghoul")
    for person in (gm, ann):  # every control named, no id twice, with the whole panel drawn
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name
    click(ann, attack.get_by_role("button", name="Attack with the picked cards for Alma"), "attack")
    face_name = card_by_id(face).name
    for person in everyone:
        expect(person.page.locator("#shadows-pending")).to_contain_text("Alma attacks Ghoul")
        expect(person.page.locator("#shadows-pending .card-name")).to_have_text(face_name)
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: defend Ghoul")
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(8)

    # The GM dodges for the Ghoul with one of its cards (not a face card): the panel names which
    # of the GM's cards are the Ghoul's.
    listed = gm.page.locator("#shadows-pending .sh-hint").inner_text()
    ghoul_cards = gm.page.locator(f"#hand-{gm.member_id} .card-pick").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.querySelector('.card-name').textContent])")
    dodge = next(c for c, name in ghoul_cards if name in listed and value(c) < 11)
    shot(gm, "gm-desktop")
    pick(gm, gm, dodge)
    click(gm, gm.page.get_by_role("button", name="Dodge or parry with the picked cards"), "defend")
    for person in everyone:
        result = person.page.locator("#shadows-combat .sh-attack").first
        expect(result).to_contain_text("a hit")
        # a face card against a dodge with none: a Minor Critical, or a Major one if the chain goes on
        expect(result).to_contain_text(re.compile(r"a (Minor|Major) Critical"))
        expect(result.locator(".sh-cards > li", has_text="Minor Critical")).to_have_count(1)
        expect(person.entry("Minor Critical:")).to_have_count(1)
    # Issue 23: the blow reads as a story and unfolds ("How") to its sum and the seed's rule; the
    # Ghoul's own Defence is the GM's figure (its sheet is the GM's). A Major Critical's effect
    # stays the GM's: everyone unfolds the chain's arithmetic, the GM's twin adds the effect.
    major = "Major Critical:" in gm.entry("Alma strikes Ghoul with Sword").inner_text()
    for person in (ann, spectator, gm):
        strike = person.entry("Alma strikes Ghoul with Sword")
        expect(strike).to_contain_text(f"{face_name} + Melee 20 against Defence ")
        strike.locator("details.working > summary").click()
        how = strike.locator("details.working")
        expect(how.locator("ol.steps > li").first).to_have_text(f"{face_name}: {value(face)} (the attack card)")
        expect(how).to_contain_text("Defence: Ghoul's own (the GM's figure)")
        expect(how.locator("blockquote.rule cite")).to_have_text("Combat Actions")
        expect(how).to_contain_text("additional card drawn from the deck")  # the seed's critical rule
        if person is not gm:
            expect(how).not_to_contain_text("Claws")
            expect(how).not_to_contain_text("The GM's table:")
        elif major:
            expect(how).to_contain_text("The GM's table:")
    # the log scrolls in its own box: shoot the line with its working's start, then its end
    ann.page.locator("#log").evaluate(
        "(log, text) => [...log.querySelectorAll('li')].find(li => li.textContent.includes(text))"
        ".scrollIntoView({block: 'start'})", "Alma strikes Ghoul with Sword")
    ann.page.locator("#log").screenshot(path=str(screens.SCREENS / "shadows-log-line.png"))
    ann.entry("Alma strikes Ghoul with Sword").locator("blockquote.rule").scroll_into_view_if_needed()
    ann.page.locator("#log").screenshot(path=str(screens.SCREENS / "shadows-log-how.png"))

    # The Ghoul acts next and claws Bram; Bob dodges with one of his own cards.
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: act for Ghoul")
    claws = gm.page.locator("form[aria-label='Attack for Ghoul']")
    claws.locator("select[name=target]").select_option(label="Bram")
    claws.locator("select[name=weapon]").select_option("Unarmed")
    left = [c for c, name in ghoul_cards if name in listed and c != dodge and value(c) > 1]
    pick(gm, gm, left[0])
    click(gm, claws.get_by_role("button", name="Attack with the picked cards for Ghoul"), "attack")
    expect(bob.page.locator("#turn-banner")).to_contain_text("Your turn: defend Bram")
    # The Ghoul's declared attack (its skill in the GM's part) unfolds for every seat: its skill
    # is "the GM's figure" for Bob and the spectator; the GM reads the whole sum, its twin.
    for person in (bob, spectator, gm):
        declared = person.entry("Ghoul attacks Bram with Unarmed")
        declared.locator("details.working > summary").click()
        how = declared.locator("details.working")
        expect(how.locator("ol.steps > li").first).to_contain_text("(the attack card)")
        expect(how.locator("blockquote.rule cite")).to_have_text("Combat Actions")
        if person is gm:
            expect(how).not_to_contain_text("its skill (the GM's figure)")
        else:
            expect(how).to_contain_text("+ its skill (the GM's figure)")
            expect(how).not_to_contain_text("Claws")
    bob.page.set_viewport_size({"width": 390, "height": 844})
    shot(bob, "player-390")
    no_sideways_scroll(bob)
    bram_dodge = next(c for c in bram_hand if value(c) < 11)
    pick(bob, bob, bram_dodge)
    click(bob, bob.page.get_by_role("button", name="Dodge or parry with the picked cards"), "defend")
    dodge_name = card_by_id(bram_dodge).name
    for person in everyone:
        expect(person.entry(f"Bram dodges/parries with {dodge_name}")).to_have_count(1)
        expect(person.page.locator("#shadows-combat .sh-attack")).to_have_count(2)
    shot(spectator, "spectator-desktop")
    no_sideways_scroll(bob)
    gm.page.set_viewport_size({"width": 390, "height": 844})
    shot(gm, "gm-390")
    no_sideways_scroll(gm)

    # Not one byte Bob's or the spectator's browser received names a card of Alma's hand she has
    # not played, nor the Ghoul's; nor does Ann's or the spectator's name Bram's unplayed cards.
    ghoul_hidden = [c for c, name in ghoul_cards if name in listed and c not in (dodge, left[0])]
    alma_hidden = [c for c in alma_hand if c != face]
    bram_hidden = [c for c in bram_hand if c != bram_dodge]
    for person, cards in ((bob, alma_hidden + ghoul_hidden), (spectator, alma_hidden + ghoul_hidden + bram_hidden),
                          (ann, bram_hidden + ghoul_hidden)):
        cards = [c for c in cards if c not in unseen(before[person.name], cards)]
        assert cards  # the check has something to find
        received = "\n".join(person.frames) + person.page.content()
        assert unseen(received, cards) == [], (person.name, where(received, unseen(received, cards)))
        assert unseen(received, [face, bram_dodge]) == [face, bram_dodge]  # what was played, all see
    for person in everyone:
        assert not person.page_errors, person.page_errors

    # The odds page: a table and a chart of every complexity, one card and three.
    assert spectator.goto("/games/shadows/odds/?modifier=12") == 200
    expect(spectator.page.locator("svg.shadows-chart rect")).to_have_count(8 * 2 * 4)
    expect(spectator.page.locator("table.odds").first.locator("tbody tr")).to_have_count(16)
    shot(spectator, "odds")
    no_sideways_scroll(spectator)


def test_the_hand_docks_beside_the_attack_and_picked_cards_stay_picked_after_a_refusal(make_table) -> None:
    """Issue 23: "a player's hand sits at the bottom of the screen, next to the action it feeds
    (Shadows' attack and defence), and picked cards stay picked after a refusal". While Alma's
    attack form is on Ann's page and her hand holds cards, the hand is docked at the bottom of
    the screen (sticky: it keeps its place in the page, after the panel, so it covers nothing for
    good) and carries the attack's button; an attack the rules refuse (2 AP with one card) leaves
    her pick as it was, and the same pick then attacks from the dock's button."""
    table = make_table(system="shadows")
    gm = table.gm
    ann = table.join_player("Ann")
    make_character(ann, table.url, "Alma", quickness=9, body=6, physical=6, skills="Melee: 20")
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, body=4, physical=2, health=60, life=60)
    bring_out_the_arcana(gm)
    hands = ann.page.locator("#hands-panel")
    expect(hands).not_to_have_css("position", "sticky")  # no fight, no dock
    start_and_deal(gm, (ann, "Alma"), (gm, "Ghoul"))
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(9)

    # Docked: at the bottom of the screen while the page is scrolled to its top, after the panel.
    expect(hands).to_have_css("position", "sticky")
    ann.page.evaluate("window.scrollTo(0, 0)")
    box = hands.bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - 900) <= 2, box
    order = ann.page.evaluate("""() => {
        const panel = document.getElementById('shadows-panel'), hands = document.getElementById('hands-panel');
        return [panel.getBoundingClientRect().bottom, hands.offsetTop, panel.offsetTop];
    }""")
    assert order[1] > order[2], order  # its place in the page is after the panel, not over it for good
    bar = ann.page.locator(f"#hand-{ann.member_id} .pick-bar")
    expect(bar).to_be_visible()
    expect(bar.get_by_role("button", name="Attack for Alma")).to_have_count(1)

    attack = ann.page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Ghoul")
    attack.locator("select[name=weapon]").select_option("Sword")
    attack.locator("select[name=skill]").select_option("melee")
    attack.locator("input[name=ap]").fill("2")
    card = [c for c in hand_of(ann, ann) if 1 < value(c) < 11][0]  # an Ace might fumble: no defence to wait for
    pick(ann, ann, card)
    expect(bar).to_contain_text("1 picked")
    from tests.browser.axe_check import serious_violations  # a pick is a button holding no other control
    found = serious_violations(ann.page)
    assert found == [], found
    with ann.expect_answer("/commands/attack/") as answer:
        attack.get_by_role("button", name="Attack with the picked cards for Alma").click()
    assert 400 <= answer.status < 500, answer.status
    expect(ann.page.locator("#shadows-notice")).to_contain_text("2 AP pays for 2 cards")
    picked = ann.page.locator(f'#hand-{ann.member_id} .card-pick[data-card="{card}"]')
    expect(picked).to_have_attribute("aria-pressed", "true")  # the refusal kept the pick
    expect(picked).to_have_attribute("data-pick-order", "1")
    expect(bar).to_contain_text("1 picked")
    ann.page.set_viewport_size({"width": 390, "height": 844})
    ann.page.evaluate("window.scrollTo(0, 0)")
    ann.page.wait_for_timeout(600)  # the cards' deal-in done
    ann.page.screenshot(path=str(screens.SCREENS / "shadows-docked-hand-390.png"))
    no_sideways_scroll(ann)
    ann.page.set_viewport_size({"width": 1280, "height": 900})
    attack.locator("input[name=ap]").fill("1")
    click(ann, bar.get_by_role("button", name="Attack for Alma"), "attack")
    for person in (gm, ann):
        expect(person.page.locator("#shadows-pending .card-name")).to_have_text(card_by_id(card).name)
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(8)
    expect(ann.page.locator('.card-pick[aria-pressed="true"]')).to_have_count(0)  # used up by the attack
    shot(ann, "docked-hand")
    assert not ann.page_errors, ann.page_errors


def test_an_active_dodge_and_a_players_own_check_with_approved_help(make_table) -> None:
    """Issue 25. Seed: "Assistance can be provided by a second or even a third character (subject
    to GM approval ...). With one-half the second characters' skill being added"; a counter "can
    also be used in combat as an Active Dodge". Ann asks for Bram's help from her own panel, the
    GM approves, and Alma's own check carries it; in the fight, the GM accepts the Ghoul's
    counter against Alma's waiting attack, which lowers it before it resolves."""
    table = make_table(system="shadows")
    gm = table.gm
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alma", quickness=9, body=6, physical=6, skills="Melee: 20\nStealth: 6")
    make_character(bob, table.url, "Bram", quickness=3, body=5, physical=4, skills="Melee: 4\nStealth: 8")
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, body=4, physical=2, health=400, life=400,
                   skills="Claws: 5")
    bring_out_the_arcana(gm)

    # Help: asked from Ann's own panel, approved by the GM, carried by Alma's own check.
    ask = ann.page.locator("#shadows-ask-help")
    ask.locator("select[name=helpers]").first.select_option(label="Bram")
    click(ann, ask.get_by_role("button", name="Ask for help"), "ask_help")
    expect(gm.page.locator("#shadows-waiting")).to_contain_text("Alma asks for help from Bram (waiting for the GM)")
    expect(bob.page.locator("#shadows-waiting")).to_contain_text("Alma asks for help from Bram")
    expect(ann.page.get_by_role("button", name="Approve Alma's help")).to_have_count(0)
    shot(gm, "help-asked")
    click(gm, gm.page.get_by_role("button", name="Approve Alma's help"), "approve_help")
    expect(ann.page.locator("#shadows-waiting")).to_contain_text("The GM lets Bram help Alma: it counts on Alma's next check, opposed or multi-draw action, or attack.")
    form = ann.page.locator("#shadows-draw-form")
    form.locator("select[name=skill]").select_option(label="Stealth 6")  # from Alma's sheet, never typed
    click(ann, form.get_by_role("button", name="See the odds, then draw"), "prepare_check")
    expect(ann.page.locator(".sh-now", has_text="one card or three")).to_contain_text("+ help 4 (Bram)")
    expect(ann.page.locator(".sh-now", has_text="one card or three")).to_contain_text("Counted from the ")
    shot(ann, "help-odds")
    click(ann, ann.page.get_by_role("button", name="Draw one card for Alma"), "check")
    for person in (gm, ann, bob):
        expect(person.page.locator("#log")).to_contain_text("with help")
    # the help is spent (the box itself may stay: a fumbled draw leaves its guide there)
    for person in (gm, ann):
        expect(person.page.locator("#shadows-waiting", has_text="help")).to_have_count(0)

    # The fight: Alma attacks the Ghoul; the GM accepts the Ghoul's counter as an Active Dodge.
    start_and_deal(gm, (ann, "Alma"), (gm, "Ghoul"), (bob, "Bram"))
    # the Minor Arcana dealt: a Queen drawn in the check above gave Alma a Major Arcana to hold too
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick:not([data-card^='tarot:major'])")).to_have_count(9)
    minors = [c for c in hand_of(ann, ann) if not c.startswith("tarot:major")]
    card = next((c for c in minors if 1 < value(c) < 11), None) or minors[0]
    attack = ann.page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Ghoul")
    attack.locator("select[name=weapon]").select_option("Sword")
    attack.locator("select[name=skill]").select_option("melee")
    pick(ann, ann, card)
    click(ann, attack.get_by_role("button", name="Attack with the picked cards for Alma"), "attack")
    if value(card) == 1 and gm.page.locator("#shadows-pending").count() == 0:
        return  # an Ace fumbled: nothing waits to be countered (every other card is above the Ace)
    dodge = gm.page.locator("form[id^=counter-]")
    expect(dodge).to_contain_text("Active Dodge: Ghoul counters this attack")
    expect(ann.page.locator("form[id^=counter-]")).to_have_count(0)
    for suit in ("cups", "pentacles", "swords", "wands"):
        dodge.locator(f"input[value={suit}]").check()
    shot(gm, "active-dodge")
    click(gm, dodge.get_by_role("button", name=re.compile("Counter it")), "counter")
    for person in (gm, ann, bob):
        expect(person.entry("counters Alma")).to_contain_text("an Active Dodge:")
    click(gm, gm.page.get_by_role("button", name="Take it: no active defence for Ghoul"), "defend")
    for person in (gm, ann, bob):  # the attack resolved, as the counter left it
        expect(person.page.locator("#shadows-combat .sh-attack")).to_have_count(1)
    shot(ann, "after-active-dodge")
    for person in (gm, ann, bob):
        assert not person.page_errors, person.page_errors
