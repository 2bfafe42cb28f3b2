"""Harsh Light played in four browsers: a GM, two players and a spectator (issue 15, Tests: "A
browser test: GM, two players, spectator; a resisted attack with Defence dropping after each
attack, an extended action to five successes, a contested action; all four see it live").

Seed 002: "Each attack on an enemy lowers their Defence by 1 until their next action"; "The
player pulls cards until they have accumulated however many successes are needed"; in a
contest "Both pull a card, add their pools and compare successes, with the higher number of
successes winning". The Ghoul is an NPC: its Defence, and the odds of an attack on it, are the
GM's (the decided reading: "Odds that depend on a secret figure are shown to the GM alone").
Issue 22, "Fights that end": a fight played through the page until the Ghoul falls unconscious
(the World of Darkness's Health track and its Stamina pull, harsh_light/health.py and harm.py).
Issue 26: an attack waits for its target's answer: Ann spends Alfie's Willpower for +2 Defence
when the Ghoul attacks him. Screenshots go to ``test-artifacts/screens/harsh_light-*.png``.
"""

from __future__ import annotations

import html
import re

from playwright.sync_api import expect

from tests.browser import test_screens as screens
from tests.browser.test_demon_city_round import make_character

MAX_PULLS = 15  # five successes from a pool of 6 take two to five pulls; fifteen never fail
MAX_ROUNDS = 8  # a contest round tied eight times in a row is vanishingly rare

POST_JS = """
async ([command, fields]) => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
    const r = await fetch(location.pathname + 'commands/' + command + '/', {method: 'POST',
        body: new URLSearchParams(fields), headers: {'X-CSRFToken': token, 'HX-Request': 'true'}});
    return [r.status, await r.text()];
}
"""


def shot(person, name: str) -> None:
    screens.shot(person, f"harsh_light-{name}")


def panel(person):
    return person.page.locator("#harsh_light-panel")


def cid_of(person, name: str) -> str:
    """A character's combatant id, as the panel's own buttons send it."""
    return person.page.locator("#harsh_light-panel [data-combatant]", has=person.page.locator(
        ".name", has_text=re.compile(f"^{name}$"))).first.get_attribute("data-combatant")


def post(person, command: str, **fields: str) -> tuple[int, str]:
    """A command sent as the page would send it, with the person's own session."""
    status, text = person.page.evaluate(POST_JS, [command, fields])
    return status, html.unescape(text)


def click(person, button, command: str) -> None:
    with person.expect_answer(f"/commands/{command}/") as answer:
        button.click()
    assert answer.status == 200, answer.text()


def bring_out(gm) -> None:
    """The GM's button on the panel: the ordinary deck route makes the 40-card deck."""
    with gm.expect_answer("/decks/new/") as made:
        panel(gm).get_by_role("button", name="Bring out the Harsh Light deck").click()
    assert made.status == 200, made.text()


def opened(details):
    """A <details>, open (a click on an open one would close it)."""
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    return details


def set_up(person, who: str, attribute: str, skill: str = "", *, target: str = "", weapon: str = "") -> None:
    """The player opens the pull form of their character, builds the pool, and shows it."""
    page = person.page
    opened(page.locator("#harsh_light-other-moves"))  # folded under "Other moves" (issue 38, 10)
    box = page.locator("details.pull-setup", has=page.locator("summary", has_text=f"Set up a pull for {who}"))
    expect(box).to_be_visible()
    form = opened(box).locator("form")
    form.locator("select[name=attribute]").select_option(attribute)
    form.locator("select[name=skill]").select_option(skill)
    if target:
        opened(form.locator("details.resisted"))
        form.locator("select[name=target]").select_option(label=target)
        form.locator("select[name=resist]").select_option("defence")
        form.locator("select[name=attack]").select_option("melee")
        if weapon:
            form.locator("select[name=weapon]").select_option(label=weapon)
    click(person, form.get_by_role("button", name=f"Show the pool and odds for {who}"), "set_up_pull")


def answer(person, who: str, *, willpower: bool = False) -> None:
    """The target's answer to a pull waiting for it (its panel's reaction): Willpower for +2, or
    take it (the GM's for an NPC)."""
    name = f"Spend Willpower: +2 Defence for {who}" if willpower else f"Take it without Willpower ({who})"
    button = panel(person).locator("article.reaction").get_by_role("button", name=name)
    expect(button).to_be_visible()
    click(person, button, "answer")


def storyteller_tools(gm):
    """The GM's tools, opened (they close when a fight starts or ends: other tools inside)."""
    return opened(gm.page.locator("details.hl-tools"))


def defence_of(person, name: str):
    row = panel(person).locator("li.combatant", has=person.page.locator(".name", has_text=re.compile(f"^{name}$")))
    return row.locator(".defence strong")


def ghoul_row(person):
    return panel(person).locator("li.combatant", has=person.page.locator(".name", has_text=re.compile("^Ghoul$")))


def test_a_fight_an_extended_action_and_a_contest_seen_live_by_everyone(
    make_table, accessible_names_js, duplicate_ids_js
) -> None:
    table = make_table(system="harsh_light")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alfie", strength=4, dexterity=3, wits=2, skills="Brawl: 3\nLarceny: 3")
    make_character(bob, table.url, "Betty", strength=3, dexterity=3, wits=3, skills="Brawl: 2\nAthletics: 2")
    # Stamina 5: Health 10, so two blows never fill it (this test is about Defence; the next, Health)
    make_character(gm, table.url, "Ghoul", npc=True, strength=3, dexterity=3, wits=3, stamina=5, skills="Brawl: 2")
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    players = (ann, bob, spectator)  # the seats that may not see the Ghoul's sheet

    # No deck yet: the GM's panel offers one; brought out, no page asks for it any more, and the
    # next redraw counts it (the panel reads the deck as the table hands every seat)
    expect(panel(gm).get_by_role("button", name="Bring out the Harsh Light deck")).to_be_visible()
    for person in (ann, bob, spectator):
        expect(panel(person).get_by_role("button", name="Bring out the Harsh Light deck")).to_be_hidden()
    bring_out(gm)
    for person in everyone:
        expect(panel(person).locator(".need-deck")).to_be_hidden()

    # The Storyteller sets the order: Alfie, Betty, the Ghoul. Whose action it is, live.
    click(gm, storyteller_tools(gm).get_by_role("button", name="Set the order"), "set_order")
    for person in everyone:
        expect(panel(person).locator("li.is-next .name")).to_have_text("Alfie")
        expect(panel(person).locator(".deck-line")).to_contain_text("40 cards not lying face up")
    expect(defence_of(gm, "Ghoul")).to_have_text("3")
    for person in players:
        expect(ghoul_row(person)).to_contain_text("its other figures are the GM's")
        expect(defence_of(person, "Ghoul")).to_have_count(0)
        expect(defence_of(person, "Alfie")).to_have_text("2")
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: act for Alfie")
    for person in (gm, bob, spectator):
        expect(person.page.locator("#turn-banner .turn-other")).to_have_text("Alfie acts.")
    alfie, betty = cid_of(ann, "Alfie"), cid_of(bob, "Betty")

    # Out of turn, and for another's character: refused by the server, nothing changes.
    status, text = post(bob, "set_up_pull", combatant=betty, attribute="strength")
    assert status == 400 and "Alfie's action" in text
    status, text = post(bob, "set_up_pull", combatant=alfie, attribute="strength")
    assert status == 403
    status, _ = post(spectator, "end_turn")
    assert status == 403
    expect(bob.page.locator("details.pull-setup", has_text="Set up a pull for Alfie")).to_be_hidden()

    # Alfie attacks the Ghoul: the pool shows before the pull, with its odds, to everyone.
    set_up(ann, "Alfie", "strength", "brawl", target="Ghoul")
    for person in everyone:
        ready = panel(person).locator("article.prepared")
        expect(ready).to_contain_text("Alfie is about to pull: an attack against Ghoul, in melee")
    ready = panel(gm).locator("article.prepared")
    expect(ready.locator(".pool")).to_contain_text("Pool 4 = Strength 4 + Brawl 3 − Ghoul's Defence 3")
    expect(ready.locator("table.odds")).to_contain_text("Dramatic")
    for person in players:  # the odds count the Ghoul's Defence: the GM's alone
        ready = panel(person).locator("article.prepared")
        expect(ready.locator(".pool")).to_have_text("Pool: Strength 4 + Brawl 3 - Ghoul's Defence (the GM's)")
        expect(ready).to_contain_text("The odds depend on Ghoul's figures, which are the GM's")
        expect(ready.locator("table.odds")).to_have_count(0)
    expect(panel(bob).get_by_role("button", name="Pull for Alfie", exact=True)).to_be_hidden()
    click(ann, panel(ann).get_by_role("button", name="Pull for Alfie", exact=True), "pull")
    for person in everyone:  # the attack waits for the Ghoul's answer: the GM's, an NPC's
        expect(panel(person).locator("article.reaction")).to_contain_text("Alfie attacks Ghoul")
    for person in players:
        expect(panel(person).locator("article.reaction button")).to_have_count(0)
    answer(gm, "Ghoul")
    for person in everyone:
        expect(panel(person).locator(".latest-pulls li.pull-result")).to_have_count(1)
        expect(panel(person).locator(".latest-pulls .card-face").first).to_be_visible()
        expect(panel(person).locator(".deck-line")).to_contain_text(re.compile(r"3[89] cards not lying face up"))
    expect(defence_of(gm, "Ghoul")).to_have_text("2")
    status, text = post(ann, "set_up_pull", combatant=alfie, attribute="strength")
    assert status == 400 and "already taken an instant action" in text
    click(ann, panel(ann).get_by_role("button", name="End Alfie's action"), "end_turn")
    for person in everyone:
        expect(panel(person).locator("li.is-next .name")).to_have_text("Betty")

    # Betty: a Willpower point once a turn, then a second attack on the Ghoul.
    click(bob, panel(bob).get_by_role("button", name="Willpower: +2 to resist for Betty"), "willpower")
    status, text = post(bob, "willpower", combatant=betty, use="power")
    assert status == 400 and "already spent a Willpower point this turn" in text
    set_up(bob, "Betty", "strength", "brawl", target="Ghoul")
    expect(panel(gm).locator("article.prepared .pool")).to_contain_text("− Ghoul's Defence 2")
    for person in players:
        expect(panel(person).locator("article.prepared .pool")).to_contain_text("- Ghoul's Defence (the GM's)")

    shot(gm, "gm-desktop")
    shot(ann, "player-desktop")
    shot(spectator, "spectator-desktop")
    bob.page.set_viewport_size({"width": 390, "height": 844})
    expect(panel(bob).get_by_role("button", name="Pull for Betty", exact=True)).to_be_visible()
    shot(bob, "player-390")
    for person in (bob, gm, ann, spectator):
        screens.no_sideways_scroll(person)
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name

    click(bob, panel(bob).get_by_role("button", name="Pull for Betty", exact=True), "pull")
    answer(gm, "Ghoul")
    for person in everyone:
        expect(panel(person).locator(".latest-pulls li.pull-result")).to_have_count(2)
    expect(defence_of(gm, "Ghoul")).to_have_text("1")
    click(bob, panel(bob).get_by_role("button", name="End Betty's action"), "end_turn")

    # The Ghoul's turn is the GM's (an NPC): its own action ends the attacks' toll, and a Dodge
    # doubles its Defence; then a new turn.
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: act for Ghoul")
    click(gm, panel(gm).get_by_role("button", name="Dodge with Ghoul"), "dodge")
    expect(defence_of(gm, "Ghoul")).to_have_text("6")
    for person in players:
        expect(ghoul_row(person)).to_contain_text("dodging: Defence doubled")
        # no 6 (the doubled Defence) but in its Health, everyone's (issue 22): 6 bashing may be dealt
        assert "6" not in re.sub(r"Health: [^.]*\.", "", ghoul_row(person).inner_text()), person
    click(gm, panel(gm).get_by_role("button", name="End Ghoul's action"), "end_turn")
    for person in everyone:
        expect(panel(person).locator("h2")).to_contain_text("turn 2")
        expect(panel(person).locator("li.is-next .name")).to_have_text("Alfie")
    click(gm, storyteller_tools(gm).get_by_role("button", name="End the fight"), "end_combat")
    for person in everyone:
        expect(panel(person).locator("ol.turn-order")).to_have_count(0)

    # An extended action to five successes: Dexterity 3 + Larceny 3, a pull each turn.
    tools = storyteller_tools(gm)
    start = tools.locator("form[aria-label='Start an extended action']")
    start.locator("select[name=combatant]").select_option(label="Alfie")
    start.locator("select[name=attribute]").select_option("dexterity")
    start.locator("select[name=skill]").select_option("larceny")
    start.locator("input[name=label]").fill("picking the lock")
    click(gm, start.get_by_role("button", name="Start it"), "extended_start")
    lock = "article.running[aria-label='Alfie: picking the lock']"
    for person in everyone:
        expect(panel(person).locator(lock)).to_contain_text("0 of 5 successes")
    for _ in range(MAX_PULLS):
        if "done" in panel(ann).locator(lock).inner_text():
            break
        pulls = panel(ann).locator(f"{lock} .pull-list li").count()
        click(ann, panel(ann).get_by_role("button", name="Pull for Alfie (picking the lock)"), "extended_pull")
        expect(panel(ann).locator(f"{lock} .pull-list li")).to_have_count(pulls + 1)
    final = panel(ann).locator(lock).inner_text()
    assert "done" in final, final
    for person in everyone:
        expect(panel(person).locator(lock)).to_contain_text("done")
        assert panel(person).locator(lock).inner_text() == final

    # Issue 23: a line unfolds to its working. Alfie's extended pull is everyone's: Ann opens its
    # "How" and reads the pool's parts, the card, the total and the seed's words.
    line = ann.page.locator("#log li", has_text="Alfie's pull").last
    line.locator("details.working > summary").click()
    how = line.locator("details.working")
    for words in ("Dexterity 3", "+ Larceny 3", "= pool 6", "= total",
                  "The player pulls cards until they have accumulated"):
        expect(how).to_contain_text(words)
    how.scroll_into_view_if_needed()
    shot(ann, "log-how")
    # The attack on the Ghoul met its Defence: the GM's working names it; the others unfold the
    # same line live, the Ghoul's Defence and the pool said as the GM's figure (issue 23's twin).
    attack = "Alfie attacks Ghoul in melee"
    expect(gm.page.locator("#log li", has_text=attack).locator("details.working")).to_contain_text(
        "- Ghoul's Defence 3")
    for person in players:
        expect(person.page.locator("#log li", has_text=attack)).to_have_count(1)
        how = person.page.locator("#log li", has_text=attack).locator("details.working")
        how.locator("summary").click()
        for words in ("Strength 4 + Brawl 3 - Ghoul's Defence (the GM's figure)", "= pool: the GM's figure",
                      "= total: the GM's figure", "Resisted rolls are where you subtract"):
            expect(how).to_contain_text(words)
        expect(how).not_to_contain_text("Defence 3")
    how.scroll_into_view_if_needed()
    shot(spectator, "log-how-npc")

    # A contest: Alfie's Wits + Composure against Betty's; each pulls for their own.
    contest = tools.locator("form[aria-label='Call a contest']")
    contest.locator("select[name=combatant_a]").select_option(label="Alfie")
    contest.locator("select[name=attribute_a]").select_option("wits")
    contest.locator("select[name=combatant_b]").select_option(label="Betty")
    contest.locator("select[name=attribute_b]").select_option("wits")
    contest.locator("input[name=label]").fill("a staring match")
    click(gm, contest.get_by_role("button", name="Call the contest"), "contest_start")
    match = "article.running[aria-label='Contest: a staring match']"
    for _ in range(MAX_ROUNDS):
        for person in everyone:
            expect(panel(person).locator(match)).to_contain_text("waiting for Alfie and Betty")
        assert post(bob, "contest_pull", contest="k2", combatant=alfie)[0] == 403  # not Bob's
        click(ann, panel(ann).get_by_role("button", name="Pull for Alfie in a staring match"), "contest_pull")
        for person in everyone:
            expect(panel(person).locator(match)).to_contain_text("waiting for Betty")
        click(bob, panel(bob).get_by_role("button", name="Pull for Betty in a staring match"), "contest_pull")
        expect(panel(gm).locator(f"{match} .pull-list li").last).to_contain_text("Round")
        if "wins" in panel(gm).locator(match).inner_text():
            break
    for person in everyone:
        expect(panel(person).locator(match)).to_contain_text("wins")
    contests = [person.page.locator("#log li", has_text="wins the contest").all_inner_texts() for person in everyone]
    assert contests[0] and all(c == contests[0] for c in contests)
    for person in everyone:
        assert not person.page_errors, person.page_errors


MAX_STEPS = 90  # thirty rounds: the Ghoul's Stamina 1 fails its pull three times in five


def whose_action(person) -> str:
    return panel(person).locator("li.is-next .name").inner_text()


def wounds_of(person, name: str) -> tuple[int, int]:
    """The boxes filled of a character's Health, and its size, as the panel's row says them."""
    row = panel(person).locator("li.combatant", has=person.page.locator(".name", has_text=re.compile(f"^{name}$")))
    words = re.search(r"Health: (.*?)\.", row.locator(".health-line").inner_text())
    assert words, row.inner_text()
    if words.group(1).startswith("unharmed"):
        return 0, int(re.search(r"(\d+) boxes", words.group(1)).group(1))
    filled, size = words.group(1).rsplit(" of ", 1)
    return sum(int(n) for n in re.findall(r"\d+", filled)), int(size)


def end_action(person, who: str) -> None:
    click(person, panel(person).get_by_role("button", name=f"End {who}'s action"), "end_turn")


def end_unless_over(person, who: str) -> None:
    """Ends the action, unless the blow before it ended the fight (the last foe out): then the
    panel says the fight is over and offers no end of an action (issue 33: nobody acts)."""
    if panel(person).locator("#harsh_light-over").count():
        expect(panel(person).locator("#harsh_light-over")).to_contain_text("The fight is over: the PCs' side stands")
        expect(panel(person).get_by_role("button", name=f"End {who}'s action")).to_have_count(0)
        return
    end_action(person, who)


def test_a_fight_played_to_the_ghoul_s_unconsciousness(make_table, accessible_names_js, duplicate_ids_js) -> None:
    """Issue 22: "play a fight through the page to a character's unconsciousness". The Storyteller
    throws the Ghoul down the stairs (4 bashing of its 6 boxes: Stamina 1 + Size 5); Alfie and
    Betty beat it until the last box holds bashing (the World of Darkness: "begin making Stamina
    rolls to see if he remains conscious"), then let it pull each turn until it fails. Everyone
    watches its track; its other figures stay the GM's; out, it takes no turn and is offered
    nothing; the Storyteller's healing brings it round."""
    table = make_table(system="harsh_light")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alfie", strength=4, dexterity=3, wits=2, stamina=2, skills="Brawl: 3")
    make_character(bob, table.url, "Betty", strength=3, dexterity=3, wits=3, skills="Brawl: 2\nWeaponry: 2",
                   weapon="Crowbar", weapon_damage=1)
    make_character(gm, table.url, "Ghoul", npc=True, strength=3, dexterity=3, wits=3, stamina=1, skills="Brawl: 2",
                   weapon="Cleaver", weapon_damage=2)
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    bring_out(gm)

    # The Storyteller's harm: down the stairs, 4 bashing. Everyone sees the Ghoul's track.
    tools = storyteller_tools(gm)
    hurt = tools.locator("form[aria-label='Deal harm or heal']")
    hurt.locator("select[name=combatant]").select_option(label="Ghoul")
    hurt.locator("input[name=points]").fill("4")
    hurt.locator("select[name=kind]").select_option("bashing")
    hurt.locator("input[name=reason]").fill("down the stairs")
    click(gm, hurt.get_by_role("button", name="Deal the harm"), "harm")
    for person in everyone:
        expect(person.page.locator("#log")).to_contain_text("The Storyteller deals Ghoul 4 bashing (down the stairs)")
        card = person.page.locator("article.character", has=person.page.locator("h3", has_text="Ghoul"))
        expect(card.locator(".track-value").first).to_have_text("2 / 6")
        expect(card).to_contain_text("Wounded: -1 to pools and Speed")
    for person in (ann, bob, spectator):
        card = person.page.locator("article.character", has=person.page.locator("h3", has_text="Ghoul"))
        expect(card).not_to_contain_text("Defence")
        expect(card).not_to_contain_text("Cleaver")

    click(gm, storyteller_tools(gm).get_by_role("button", name="Set the order"), "set_order")
    ghoul_hit_alfie = False
    for _ in range(MAX_STEPS):
        if "unconscious" in ghoul_row(gm).inner_text():
            break
        acting = whose_action(gm)
        filled, size = wounds_of(gm, "Ghoul")
        if acting == "Ghoul":
            if not ghoul_hit_alfie:  # once: the Ghoul's cleaver, its figures the GM's
                set_up(gm, "Ghoul", "strength", "brawl", target="Alfie", weapon="Cleaver (+2)")
                click(gm, panel(gm).get_by_role("button", name="Pull for Ghoul", exact=True), "pull")
                # issue 26: Alfie is attacked; Ann spends Willpower at that moment, from her panel
                expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: answer Ghoul's pull on Alfie")
                for person in (bob, spectator):
                    expect(panel(person).locator("article.reaction")).to_contain_text("Ghoul attacks Alfie")
                    expect(panel(person).locator("article.reaction button")).to_have_count(0)
                panel(ann).locator("article.reaction").scroll_into_view_if_needed()
                shot(ann, "attacked-player")
                answer(ann, "Alfie", willpower=True)
                for person in everyone:
                    expect(person.page.locator("#log")).to_contain_text(
                        "Alfie answers Ghoul's pull with Willpower: +2 Defence.")
                    expect(panel(person).locator("article.reaction")).to_have_count(0)
                ghoul_hit_alfie = True
            end_action(gm, "Ghoul")
            continue
        person = ann if acting == "Alfie" else bob
        if filled < size:  # blows until the last box; then the Ghoul's own Stamina decides
            set_up(person, acting, "strength", "brawl", target="Ghoul")
            click(person, panel(person).get_by_role("button", name=f"Pull for {acting}", exact=True), "pull")
            answer(gm, "Ghoul")
            # the answer's redraw has reached the player's panel before it reads what is offered
            expect(panel(person).locator("article.reaction")).to_have_count(0)
        end_unless_over(person, acting)
    for person in everyone:
        expect(ghoul_row(person).locator(".hurt-state")).to_have_text("unconscious")
        expect(ghoul_row(person)).to_have_class(re.compile("is-out"))
        expect(person.page.locator("#log")).to_contain_text("Ghoul falls unconscious.")
        card = person.page.locator("article.character", has=person.page.locator("h3", has_text="Ghoul"))
        expect(card).to_have_class(re.compile("is-out"))
        expect(card.locator(".tag", has_text="Unconscious")).to_be_visible()
    # Out of the fight: nothing offered, not even to the GM, who still has the track to correct
    expect(gm.page.locator("details.pull-setup", has_text="Set up a pull for Ghoul")).to_have_count(0)
    expect(ghoul_row(gm).locator("button")).to_have_count(0)
    for person in (ann, bob, spectator):
        expect(ghoul_row(person)).to_contain_text("its other figures are the GM's")
        expect(ghoul_row(person).locator(".defence")).to_have_count(0)
        assert "Cleaver" not in person.page.content(), person.name

    shot(gm, "fight-gm-desktop")
    shot(ann, "fight-player-desktop")
    shot(spectator, "fight-spectator-desktop")
    bob.page.set_viewport_size({"width": 390, "height": 844})
    shot(bob, "fight-player-390")
    for person in everyone:
        screens.no_sideways_scroll(person)
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name

    # The NPCs' one fighter is out: the fight is over, every seat reads it, and no turn passes on
    # by itself; the GM's banner carries "End the fight" (issue 33)
    for person in everyone:
        expect(person.page.locator("#turn-banner")).to_contain_text("The fight is over: the PCs' side stands")
    expect(gm.page.locator("#turn-banner").get_by_role("button", name="End the fight")).to_be_visible()
    for person in (ann, bob, spectator):
        expect(person.page.locator("#turn-banner button")).to_have_count(0)
    shot(ann, "fight-over-player")

    # The Storyteller heals a box: the last box empties and the Ghoul comes to
    tools = storyteller_tools(gm)
    heal = tools.locator("form[aria-label='Deal harm or heal']")
    heal.locator("select[name=combatant]").select_option(label="Ghoul")
    heal.locator("input[name=points]").fill("1")
    heal.locator("select[name=kind]").select_option("")
    click(gm, heal.get_by_role("button", name="Heal the boxes"), "heal")
    for person in everyone:
        expect(person.page.locator("#log")).to_contain_text("Ghoul comes to.")
        expect(ghoul_row(person).locator(".hurt-state")).to_have_count(0)
        expect(person.page.locator("#turn-banner")).not_to_contain_text("The fight is over")
    for person in everyone:
        assert not person.page_errors, person.page_errors
