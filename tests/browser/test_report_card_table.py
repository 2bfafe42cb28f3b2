"""Report Card at a table in four browsers: a GM, two players and a spectator (issue 14, Tests:
"a Medium check with Bonus, the player picks, a failure, a retry with a Corruption Point, a
group check; all four see each step live; a spectator and the other player never see a card
before it is drawn").

Seed 004: "Skill checks are resolved by having the player draw the top card from their
decks"; with Bonus "they draw two cards and use whichever of the two cards they would prefer";
"The player can take 1 Corruption Point to retry the check".

The GM looks at the top of Marieta's deck (the deck's own GM tools) and puts two failing
cards on top, so the Medium check fails whichever card Ann keeps; the GM's look is the GM's
alone, so those cards are known to the test, and never reach Bob or the spectator before
they come off.

Issue 21: each player's deck is the rules'. The GM deals Ann a card of Marieta's deck by hand;
Ann's page has no button to draw from, shuffle or put back into it, her own hand-made requests
are refused (403) and change nothing, and the odds everyone sees count her card among those
not yet face up.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import test_screens as screens

PANEL = "#report_card-panel"
CARD_ID = re.compile(r"^tarot:(cups|pentacles|swords|wands|major):(\d+)$")


def make_report_card(person, table_url: str, name: str, *, abilities: tuple[str, ...], a_plus: str,
                     f_skill: str, major: str) -> None:
    """Fills the character form as a player does: the Abilities ticked, the A+ and F skills, the
    own Major Arcana (by field id ``#id_sheet_<field>``)."""
    assert person.goto(table_url + "characters/new/") == 200
    page = person.page
    page.locator("#id_name").fill(name)
    for ability in abilities:
        page.locator(f"#id_sheet_{ability}").check()
    page.locator("#id_sheet_a_plus").fill(a_plus)
    page.locator("#id_sheet_f_skill").fill(f_skill)
    page.locator("#id_sheet_major").fill(major)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/tables/*/")
    person.wait_live()


def received(person) -> str:
    """Everything the page has been sent over its socket, and what it shows now."""
    return "\n".join(person.frames) + person.page.content()


def never_seen(people, card_ids, *, baseline: dict[str, int] | None = None) -> None:
    """None of ``people`` has been sent these cards. Two decks of one kind share card ids (Jo's
    Tarot has a Queen of Cups as Marieta's has): ``baseline`` counts, by person's name, how often
    the card's id was already in what they were sent, from the other deck, and no more is allowed."""
    for person in people:
        seen = received(person)
        for card_id in card_ids:
            allowed = (baseline or {}).get(person.name, 0)
            assert seen.count(card_id) <= allowed, f"{person.name} received {card_id} before it was drawn"


def sightings(people, card_id: str) -> dict[str, int]:
    return {person.name: received(person).count(card_id) for person in people}


def deck_widget(person, name: str):
    return person.page.locator("#decks article.deck", has=person.page.locator("h3", has_text=name))


def gm_looks_at_the_top(gm, deck: str, count: int) -> list[str]:
    """The deck's GM tools: look at the top ``count`` cards; their ids, top first."""
    widget = deck_widget(gm, deck)
    widget.locator("details.gm-only > summary").click()
    widget.locator("input[name=count][id^=peek-count]").fill(str(count))
    widget.get_by_role("button", name="Look", exact=True).click()
    faces = widget.locator(".peek .card-face")
    expect(faces).to_have_count(count)
    return [faces.nth(i).get_attribute("data-card-id") or "" for i in range(count)]


def fails_at_medium(card_id: str) -> bool:
    """Seed: "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds"."""
    found = CARD_ID.match(card_id)
    assert found, card_id
    return found.group(1) != "major" and int(found.group(2)) <= 9


def shot(person, name: str) -> None:
    screens.shot(person, f"report_card-{name}")


POST_JS = """async ([command, body]) => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
    const r = await fetch(location.pathname + 'commands/' + command + '/', {method: 'POST',
        body: new URLSearchParams(body), headers: {'X-CSRFToken': token, 'HX-Request': 'true'}});
    return [r.status, await r.text()];
}"""


POST_PATH_JS = """async ([path, body]) => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
    const r = await fetch(location.pathname + path, {method: 'POST', body: new URLSearchParams(body),
        headers: {'X-CSRFToken': token, 'HX-Request': 'true'}});
    return [r.status, await r.text()];
}"""


def the_rules_own_her_deck(gm, ann, table_url: str) -> None:
    """Issue 21: a player's deck is the rules'. The GM deals Ann a card of Marieta's deck by hand
    (only the GM can); Ann's page offers her no button to draw from, shuffle or put back into her
    own deck, and the server refuses each as she would send it by hand, changing nothing."""
    gm.page.locator("summary", has_text=re.compile(r"^Deal$")).click()
    gm.page.locator("#deal-deck").select_option(label="Marieta's Tarot")
    gm.page.locator("#deal-count").fill("1")
    gm.page.locator("#deal-players label", has_text="Ann").locator("input").check()
    with gm.expect_answer("/decks/deal/") as answer:
        gm.page.get_by_role("button", name="Deal", exact=True).click()
    assert answer.status == 200
    mine = ann.page.locator(".hand[data-mine=true]")
    expect(mine.locator(".card-face")).to_have_count(1)
    held = mine.locator(".card-pick").first.get_attribute("data-card") or ""
    widget = deck_widget(ann, "Marieta's Tarot")
    expect(widget.locator(".rules-deck")).to_contain_text("The rules draw from it: only they move its cards")
    expect(widget.locator(".count-draw")).to_have_text("77 in the deck")
    # not hidden: not there at all (the GM's page has them, so these could fail)
    expect(widget.locator("button")).to_have_count(0)
    expect(widget.locator("form")).to_have_count(0)
    expect(mine.locator("button")).to_have_count(0)
    gm_widget = deck_widget(gm, "Marieta's Tarot")
    for name in ("Draw from Marieta's Tarot", "Shuffle Marieta's Tarot"):
        expect(gm_widget.get_by_role("button", name=name)).to_have_count(1)
    expect(gm.page.locator(".hand", has_text="Ann").locator("button", has_text="To top")).to_have_count(1)
    deck = (widget.get_attribute("id") or "").removeprefix("deck-")
    log_before = ann.log_ids()
    for path, body in (("decks/draw/", {"deck": deck, "count": "1", "to": "hand"}),
                       ("decks/draw/", {"deck": deck, "count": "1", "to": "play"}),
                       ("decks/shuffle/", {"deck": deck}),
                       ("cards/return_top/", {"deck": deck, "card": held}),
                       ("cards/return_bottom/", {"deck": deck, "card": held})):
        status, text = ann.page.evaluate(POST_PATH_JS, [path, body])
        assert status == 403, (path, body, status, text[:200])
    assert ann.goto(table_url) == 200  # the server's own account, fresh
    ann.wait_live()
    expect(deck_widget(ann, "Marieta's Tarot").locator(".count-draw")).to_have_text("77 in the deck")
    expect(mine.locator(".card-pick")).to_have_count(1)
    assert mine.locator(".card-pick").first.get_attribute("data-card") == held
    assert ann.log_ids() == log_before
    expect(deck_widget(ann, "Marieta's Tarot").locator("button")).to_have_count(0)
    shot(ann, "player-own-deck")


def refused(person, command: str, **body: str) -> tuple[int, str]:
    """What the server answers this person's own request, sent past the page's controls."""
    status, text = person.page.evaluate(POST_JS, [command, body])
    assert 400 <= status < 500, (person.name, command, status, text[:200])
    return status, text


def part(person, name: str, rows: str = ".combatant"):
    """The check's row for ``name``, by the name itself: a bare has_text would match "Jo" inside
    "Major" (Playwright matches text case-insensitively, by substring)."""
    exact = person.page.locator("strong", has_text=re.compile(rf"^{re.escape(name)}$"))
    return person.page.locator(f"{PANEL} {rows}", has=exact)


def combatant(person, name: str) -> str:
    return part(person, name).first.get_attribute("data-combatant") or ""


def buttons(person, text: str):
    """The panel's buttons with this text, shown or not (a hidden one has no accessible role)."""
    return person.page.locator(f"{PANEL} button", has_text=text)


def shown_only_to(people, text: str, count: int, *seeing) -> None:
    """The ``seeing`` pages have ``count`` such buttons, shown; the others none at all (issue 21:
    what a seat may not use is not in its bytes, not even hidden)."""
    for person in people:
        found = buttons(person, text)
        expect(found).to_have_count(count if person in seeing else 0)
        for i in range(count if person in seeing else 0):
            expect(found.nth(i)).to_be_visible()


def click_in_panel(person, name: str, *, part: str | None = None) -> None:
    scope = person.page.locator(PANEL)
    if part is not None:
        scope = scope.locator(".combatant", has=person.page.locator("strong", has_text=part))
    button = scope.get_by_role("button", name=name).first
    expect(button).to_be_visible()
    with person.expect_answer("/commands/") as answer:
        button.click()
    assert answer.status == 200, answer.text()[:300]
    assert answer.by == "socket"  # a live page sends a game's move as an act frame (issue 34)


def test_a_report_card_evening_seen_live_by_a_gm_two_players_and_a_spectator(make_table) -> None:
    table = make_table(system="report_card")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_report_card(ann, table.url, "Marieta", abilities=("fast", "clever"), a_plus="FREE", f_skill="GYM",
                     major="17")
    make_report_card(bob, table.url, "Jo", abilities=("wise",), a_plus="LAW", f_skill="ART", major="The Hierophant")
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    for person in everyone:  # each player character brought its own deck, face down, to the table
        for deck in ("Marieta's Tarot", "Jo's Tarot"):
            expect(deck_widget(person, deck).locator(".count-draw")).to_have_text("78 in the deck")
        expect(person.page.locator("#characters article", has_text="Marieta").locator(".track-value")).to_have_text(
            "0 / 3")

    the_rules_own_her_deck(gm, ann, table.url)

    # The GM puts two cards that fail at Medium on top of Marieta's deck (the GM's look is the GM's alone).
    top = gm_looks_at_the_top(gm, "Marieta's Tarot", 20)
    failing = [c for c in top if fails_at_medium(c)][:2]
    assert len(failing) == 2, top
    # then two cards for the retry that are not the Wheel (its second card would come off too)
    rest = [c for c in top if c not in failing]
    retry = [c for c in rest if c != "tarot:major:10"][:2]
    order = failing + retry + [c for c in rest if c not in retry]
    widget = deck_widget(gm, "Marieta's Tarot")
    # the GM drags the cards into this order; the page keeps it in the form's hidden "order"
    widget.locator("input[name=order]").evaluate("(input, order) => { input.value = order; }", ", ".join(order))
    widget.get_by_role("button", name="Put them back").click()
    for person in everyone:
        expect(person.entry("of Marieta's Tarot back")).to_have_count(1)
    never_seen((bob, spectator), top)

    # A Medium check with Bonus, called by the GM: Marieta's player draws, everyone sees the odds first.
    gm.page.locator("#rc-who").select_option(label="Marieta")
    gm.page.locator("#rc-task").fill("decipher the lab result")
    gm.page.locator("#rc-skill").select_option("LAW")
    gm.page.locator("#rc-rank").select_option("medium")
    gm.page.locator("#report_card-call input[name=bonus]").check()
    shot(gm, "gm-call")
    click_in_panel(gm, "Call the check")
    for person in everyone:
        expect(person.page.locator(f"{PANEL} .check-head")).to_contain_text("decipher the lab result")
        # Ann holds a card of it face down: the figures count it among the 78 not yet face up
        expect(person.page.locator(f"{PANEL} .odds-line")).to_contain_text(
            "Odds with Bonus at Medium, from the 78 cards of Marieta's Tarot not yet face up")
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: draw Marieta's card.")
    for person in (gm, bob, spectator):
        expect(person.page.locator("#turn-banner .turn-other")).to_have_text("Marieta draws.")
    shown_only_to(everyone, "Draw Marieta's card", 1, gm, ann)
    never_seen((bob, spectator), order[:2])
    shot(ann, "player-draw")
    marieta = combatant(gm, "Marieta")
    assert refused(bob, "draw", character=marieta)[0] == 403

    # Ann draws two cards; only she may choose which to keep.
    click_in_panel(ann, "Draw Marieta's card")
    for person in everyone:
        faces = person.page.locator(f"{PANEL} .attempt .card-face")
        expect(faces).to_have_count(2)
        assert [faces.nth(i).get_attribute("data-card-id") for i in range(2)] == order[:2]
    expect(ann.page.locator("#turn-banner")).to_contain_text(
        "Your turn: choose which of Marieta's two cards to keep (Bonus).")
    for person in (gm, bob, spectator):
        expect(person.page.locator("#turn-banner .turn-other")).to_have_text(
            "Marieta's player chooses which card to keep.")
    shown_only_to(everyone, "Keep this one", 2, ann)
    status, text = refused(gm, "pick", character=marieta, index="0")
    assert status == 400 and "player chooses which card to keep" in text.replace("&#x27;", "'")
    assert refused(bob, "pick", character=marieta, index="0")[0] == 403
    never_seen((bob, spectator), order[2:4])

    shot(gm, "gm")
    shot(ann, "player")
    shot(spectator, "spectator")
    ann.page.set_viewport_size({"width": 390, "height": 844})
    shot(ann, "player-390")
    screens.no_sideways_scroll(ann)
    ann.page.set_viewport_size({"width": 1280, "height": 900})

    ann.page.locator(PANEL).get_by_role("button", name=re.compile("^Keep this one")).first.click()
    for person in everyone:
        expect(person.page.locator(f"{PANEL} .combatant[data-status=failed]")).to_have_count(1)
        expect(person.page.locator(f"{PANEL} .combatant")).to_contain_text(
            "A retry costs a Corruption Point (0 of 3 filled now) and is drawn at Easy.")
        expect(person.page.locator(f"{PANEL} .odds-line")).to_contain_text(
            "the 76 cards of Marieta's Tarot not yet face up")
    expect(ann.page.locator("#turn-banner")).to_contain_text(
        "Your turn: retry with a Corruption Point, or let Marieta's failure stand.")
    shown_only_to(everyone, "Retry with a Corruption Point", 1, ann)
    shown_only_to(everyone, "Let the failure stand", 1, ann, gm)
    status, text = refused(gm, "retry", character=marieta)
    assert status == 400 and "decides to retry" in text
    never_seen((bob, spectator), order[2:4])

    # A retry with a Corruption Point: one rank easier, still with Bonus; it lands on her Report Card.
    click_in_panel(ann, "Retry with a Corruption Point for Marieta")
    for person in everyone:
        expect(person.entry("Marieta takes a Corruption Point (1 of 3) to retry at Easy, one rank easier.")
               ).to_have_count(1)
        expect(person.page.locator(f"{PANEL} .attempt .card-face")).to_have_count(4)
        expect(person.page.locator("#characters article", has_text="Marieta").locator(".track-value")).to_have_text(
            "1 / 3")
    faces = gm.page.locator(f"{PANEL} .attempt .card-face")
    assert [faces.nth(i).get_attribute("data-card-id") for i in (2, 3)] == order[2:4]
    ann.page.locator(PANEL).get_by_role("button", name=re.compile("^Keep this one")).first.click()
    # order[2] fails at Medium; at Easy it may succeed: either the check ends or Ann lets it stand
    expect(gm.page.locator(f"{PANEL} .open-check .combatant[data-status=picking]")).to_have_count(0)
    if gm.page.locator(f"{PANEL} .open-check .combatant[data-status=failed]").count():
        click_in_panel(ann, "Let the failure stand for Marieta")
    for person in everyone:
        expect(person.entry("The check for 'decipher the lab result' ends")).to_have_count(1)
        expect(person.page.locator(f"{PANEL} .open-check")).to_have_count(0)
        expect(person.page.locator(f"{PANEL} .last-check .outcome").first).to_be_visible()

    # A group check: each draws from their own deck; nobody sees Jo's top card before Bob draws it.
    [jo_top] = gm_looks_at_the_top(gm, "Jo's Tarot", 1)
    # Marieta's Tarot may hold a card of the same id, seen already, or coming off her deck now
    known = sightings((ann, spectator), jo_top)
    gm.page.locator("#report_card-group > summary").click()
    gm.page.locator("#rcg-task").fill("search the gym")
    gm.page.locator("#rcg-skill").select_option("LAW")
    gm.page.locator("#rcg-rank").select_option("easy")
    click_in_panel(gm, "Call the group check")
    for person in everyone:
        expect(person.page.locator(f"{PANEL} .check-head")).to_contain_text("only one needs to succeed")
        expect(person.page.locator(f"{PANEL} .odds-line")).to_have_count(2)
    shown_only_to(everyone, "Draw Jo's card", 1, gm, bob)
    shown_only_to(everyone, "Draw Marieta's card", 1, gm, ann)
    never_seen((ann, spectator), [jo_top], baseline=known)
    click_in_panel(ann, "Draw Marieta's card")
    expect(part(gm, "Marieta").locator(".card-face")).not_to_have_count(0)
    marieta_drew = part(gm, "Marieta").locator(".card-face").first
    if marieta_drew.get_attribute("data-card-id") != jo_top:
        never_seen((ann, spectator), [jo_top], baseline=known)
    click_in_panel(bob, "Draw Jo's card")
    expect(gm.page.locator(f"{PANEL} .open-check .combatant[data-status=waiting]")).to_have_count(0)
    for person in everyone:  # the check may have ended at once: its cards stay in view as the last check
        expect(part(person, "Jo").locator(".card-face").first
               ).to_have_attribute("data-card-id", jo_top)
    for name, player in (("Marieta", ann), ("Jo", bob)):
        if part(gm, name, ".open-check .combatant[data-status=failed]").count():
            click_in_panel(player, f"Let the failure stand for {name}")
    for person in everyone:
        expect(person.entry("The check for 'search the gym' ends")).to_have_count(1)
    assert gm.page.locator("#log li", has_text="ends").all_inner_texts() == \
        spectator.page.locator("#log li", has_text="ends").all_inner_texts()
    shot(gm, "gm-after")

    # Issue 23: a line unfolds to its working. The spectator opens a card Marieta kept: the card
    # against the rank and the seed's words for Bonus; and the group check's end, with its rule.
    kept = spectator.page.locator("#log li", has_text="Marieta keeps").first
    kept.locator("details.working > summary").click()
    how = kept.locator("details.working")
    expect(how).to_contain_text("kept by the player (Bonus)")
    expect(how).to_contain_text(re.compile(r"against (Easy|Medium): (critical )?(success|failure)"))
    expect(how).to_contain_text("While they have Bonus, they draw two cards")
    ended = spectator.page.locator("#log li", has_text="The check for 'search the gym' ends")
    ended.locator("details.working > summary").click()
    expect(ended.locator("details.working")).to_contain_text("Only One Player Needs to Succeed")
    kept.scroll_into_view_if_needed()
    shot(spectator, "log-how")
    for person in everyone:
        assert not person.page_errors, person.page_errors

    # Issue 26: the GM lets players call their own checks; Ann calls one with a Bonus, and the GM
    # approves its difficulty and any Bonus before she may draw.
    gm.page.locator("#report_card-day > summary").click()
    click_in_panel(gm, "Let players call their own checks")
    own = ann.page.locator(f"{PANEL} details[id^=report_card-own-]")
    expect(own).to_have_count(1)
    own.locator("summary").click()
    own.locator("input[name=task]").fill("talk my way past the librarian")
    own.locator("select[name=rank]").select_option("easy")
    own.locator("input[name=bonus]").check()
    click_in_panel(ann, "Call the check for Marieta")
    for person in everyone:
        expect(person.page.locator(f"{PANEL} .awaiting")).to_contain_text("the GM approves the difficulty")
    shown_only_to(everyone, "Approve the check", 1, gm)
    shown_only_to(everyone, "Draw", 0)
    expect(part(ann, "Marieta")).not_to_contain_text("help")  # it waits for the GM, not for help
    shot(ann, "player-awaits-approval")
    gm.page.locator("#rc-approve-rank").select_option("hard")
    gm.page.locator(f"{PANEL} form[hx-post$='/approve/'] input[name=bonus]").uncheck()
    click_in_panel(gm, "Approve the check")
    for person in everyone:
        expect(person.entry("The GM approves the check for 'talk my way past the librarian': Hard")).to_have_count(1)
    shown_only_to(everyone, "Draw Marieta's card", 1, gm, ann)
    click_in_panel(ann, "Draw Marieta's card")
    # the draw's frame first: until it comes, the GM's page still shows Marieta waiting to draw
    expect(gm.page.locator(f"{PANEL} .open-check .combatant[data-status=waiting]")).to_have_count(0)
    if gm.page.locator(f"{PANEL} .open-check .combatant[data-status=failed]").count():
        click_in_panel(ann, "Let the failure stand for Marieta")
    for person in everyone:
        expect(person.entry("The check for 'talk my way past the librarian' ends")).to_have_count(1)

    # The odds page, from the panel's link: every rank, plain, with Bonus and with Penalty.
    spectator.page.get_by_role("link", name="Odds of every rank, with Bonus and Penalty").click()
    expect(spectator.page.locator("svg.rc-chart rect")).to_have_count(28)
    expect(spectator.page.locator("table.odds tbody tr")).to_have_count(7)
    shot(spectator, "odds")
