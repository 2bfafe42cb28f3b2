"""Passages (NycosRPG) in five browsers: a Director, two players, a spectator (and one of the
players on a 390 px phone) through a contest and one combat turn to the Resolution Point, each
step seen live by everyone (issue 17, Tests).

Seed 001: contests go on "until one party succeeds and the other fails, one or both collapse
from fatigue, or one breaks off"; a combat turn runs "GAME STATE", "DECLARATION", "TIMING"
(each pairing's roll-off) and ends at the Resolution Point. Screenshots go to
``test-artifacts/screens/passages-*.png`` (kept out of git) for people to look at.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import make_character
from tests.browser.test_screens import SCREENS, no_sideways_scroll
from tests.browser.test_screens import shot as screen_shot

CONTEST_ROUNDS = 3  # then Betty breaks off, so the contest ends whatever the dice say


def shot(person, name: str) -> None:
    screen_shot(person, f"passages-{name}")


def panel(person):
    return person.page.locator("#passages-panel")


def answered(person, command: str, click) -> int:
    """Clicks through the page's own control and returns the status of the command's answer."""
    with person.expect_answer(f"/commands/{command}/") as answer:
        click()
    return answer.status


def test_a_contest_and_a_combat_turn_to_the_resolution_point_seen_live(make_table, accessible_names_js,
                                                                      duplicate_ids_js) -> None:
    table = make_table(system="passages")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    bob.accept_dialogs = True
    # The worked example's duellists, and Betty
    make_character(ann, table.url, "Trayer", skills="Soldiery: 18\nCampfire: 33\nIntimidation: 32",
                   combat_skill="Soldiery", defense_skill="Soldiery", weapon="Long Blade", weapon_damage=3,
                   armour="brigantine", armour_effect="halve")
    make_character(bob, table.url, "Betty", skills="Stealth: 40\nBrawl: 30", weapon="cudgel", weapon_damage=2)
    make_character(gm, table.url, "Garbo", npc=True, skills="Two-Hander: 25", weapon="flail", weapon_damage=3,
                   armour="Naturally Armored hide", armour_effect="-1")
    make_character(gm, table.url, "Mook", npc=True, skills="Brawl: 20", weapon="club", weapon_damage=2)
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)

    # Outside any scene: each player sees their own Persona's check form and its odds, nobody else's.
    trayer_check = ann.page.locator("form[aria-label='A check for Trayer']")
    expect(trayer_check).to_be_visible()
    expect(ann.page.locator("form[aria-label='A check for Betty']")).to_be_hidden()
    expect(spectator.page.locator("form[aria-label='A check for Trayer']")).to_be_hidden()
    sheet = ann.page.locator("#passages-panel article.sheet", has_text="Trayer")
    expect(sheet.locator(".skill-odds")).to_contain_text("check: BASE 33")
    expect(sheet.locator(".boxes.wounds .box")).to_have_count(20)
    trayer_check.locator("select[name=skill]").select_option("Intimidation")
    trayer_check.get_by_role("button", name="Roll a check for Trayer").click()
    for person in everyone:
        expect(person.entry("Trayer checks Intimidation (BASE 32): rolls")).to_have_count(1)
    # issue 23: the line unfolds to its working, the arithmetic and the seed's words, for everyone
    how = spectator.entry("Trayer checks Intimidation (BASE 32): rolls").locator("details.working")
    how.locator("summary").click()
    expect(how.locator("ol.steps li").first).to_have_text("Intimidation BASE 32")
    expect(how.locator("ol.steps li").nth(1)).to_have_text(
        "Double Up = double 32 = 64; Double Down = half, rounded down = 16")
    expect(how.locator("blockquote.rule cite")).to_have_text("Checks")
    spectator.entry("Trayer checks Intimidation (BASE 32): rolls").screenshot(path=str(SCREENS / "passages-log-how.png"))

    # A contest: the Director starts it, each player rolls for their own Persona.
    gm.page.locator("#start-contest > summary").click()
    shot(gm, "idle-gm-desktop")
    shot(ann, "idle-player-desktop")
    start = gm.page.locator("form[aria-label='Start a contest']")
    start.get_by_label("Trayer").first.check()
    start.get_by_label("Betty").first.check()
    assert answered(gm, "contest_start", lambda: start.get_by_role("button", name="Start the contest").click()) == 200
    for person in everyone:
        expect(panel(person).locator("h2")).to_contain_text("A contest, round 1")
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: roll for Trayer in the contest.")
    expect(spectator.page.locator("#turn-banner .turn-other")).to_have_text(
        "Contest, round 1: waiting for Trayer and Betty to roll.")
    expect(ann.page.locator("form[aria-label='Roll for Betty in the contest']")).to_be_hidden()
    expect(bob.page.locator("form[aria-label='Roll for Betty in the contest']")).to_be_visible()
    # A refusal shows in the notice line, and the page stays: Bob cannot roll for Trayer.
    bob.mark_page()
    status = bob.page.evaluate(
        """async () => {
            const party = [...document.querySelectorAll('#passages-panel li.party')]
                .find(li => li.querySelector('strong').textContent === 'Trayer').dataset.combatant;
            const done = new Promise(resolve => document.addEventListener('htmx:afterRequest',
                e => resolve(e.detail.xhr.status), {once: true}));
            htmx.ajax('POST', location.pathname + 'commands/contest_roll/', {target: '#passages-notice',
                swap: 'outerHTML', values: {combatant: party, skill: 'Campfire'}});
            return await done;
        }"""
    )
    assert status == 403
    expect(bob.page.locator("#passages-notice")).to_have_text("You act only for the characters you control.")
    bob.assert_not_reloaded()

    shot(ann, "contest-player-desktop")
    contest_lines = 0
    for round_number in range(1, CONTEST_ROUNDS + 1):
        for person, who, skill in ((ann, "Trayer", "Campfire"), (bob, "Betty", "Stealth")):
            form = person.page.locator(f"form[aria-label='Roll for {who} in the contest']")
            form.locator("select[name=skill]").select_option(skill)
            assert answered(person, "contest_roll",
                            lambda form=form, who=who: form.get_by_role("button", name=f"Roll for {who}").click()) == 200
        contest_lines += 1
        for person in everyone:
            expect(person.entry(f"Contest round {round_number}:")).to_have_count(1)
        if gm.page.locator("#log li", has_text="The contest is over").count():
            break
        for person in everyone:
            expect(panel(person).locator("h2")).to_contain_text(f"A contest, round {round_number + 1}")
    else:
        breaking = bob.page.locator("#passages-panel li.party:has(.who-line strong:text-is('Betty'))")
        assert answered(bob, "contest_break_off",
                        lambda: breaking.get_by_role("button", name="Break off Betty").click()) == 200
    for person in everyone:
        expect(person.entry("The contest is over")).to_have_count(1)
        expect(panel(person).locator("h2")).to_have_text("Passages")
    lines = gm.page.locator("#log li", has_text="Contest round").all_inner_texts()
    assert len(lines) == contest_lines
    for person in (ann, bob, spectator):
        assert person.page.locator("#log li", has_text="Contest round").all_inner_texts() == lines

    # One combat turn: the Game State, each Declaration, the roll-off, the Resolution Point.
    gm.page.locator("#start-fight > summary").click()
    fight = gm.page.locator("form[aria-label='Start a fight']")
    # issue 33: the form starts with everyone at the table ticked; the Director leaves Mook out
    for name in ("Trayer", "Betty", "Garbo", "Mook"):
        expect(fight.get_by_label(name)).to_be_checked()
    fight.get_by_label("Mook").uncheck()
    fight.get_by_label("Conditions").fill("a duel on a sinking deck")
    assert answered(gm, "combat_start", lambda: fight.get_by_role("button", name="Start the fight").click()) == 200
    for person in everyone:
        expect(panel(person).locator("h2")).to_contain_text("A fight, Turn 1: Declaration")
        expect(person.entry("Turn 1. Game State: Trayer")).to_have_count(1)
        expect(panel(person).locator("li.fighter")).to_have_count(3)
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: declare Trayer IN or OUT of the combat.")
    # issue 23: every seat the declarations wait for is told, Bob for Betty, the Director for Garbo
    expect(bob.page.locator("#turn-banner")).to_contain_text("Your turn: declare Betty IN or OUT of the combat.")
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: declare Garbo IN or OUT of the combat.")
    expect(spectator.page.locator("#turn-banner .turn-other")).to_have_text(
        "Turn 1: waiting for the Declaration of Trayer, Betty and Garbo.")
    expect(bob.page.locator("form[aria-label='Declare Trayer IN']")).to_be_hidden()

    declare = ann.page.locator("form[aria-label='Declare Trayer IN']")
    declare.get_by_label("Attack").select_option(label="Garbo")
    declare.get_by_label("Intent").fill("to drive him off the deck")
    assert answered(ann, "declare", lambda: declare.get_by_role("button", name="Declare IN for Trayer").click()) == 200
    for person in everyone:
        expect(panel(person).locator("li.fighter:has(.who-line strong:text-is('Trayer')) .declared")).to_contain_text(
            "IN: to drive him off the deck against Garbo")
    betty = bob.page.locator("#passages-panel li.fighter:has(.who-line strong:text-is('Betty'))")
    assert answered(bob, "rest", lambda: betty.get_by_role("button", name="Rest Betty").click()) == 200
    garbo = gm.page.locator("form[aria-label='Declare Garbo IN']")
    garbo.get_by_label("Attack").select_option(label="Trayer")
    assert answered(gm, "declare", lambda: garbo.get_by_role("button", name="Declare IN for Garbo").click()) == 200

    # Timing: each side's chance of a Potential Wound, before anyone rolls: counted from Garbo's
    # Combat and Defense, the Director's alone while NPC sheets are behind the screen (issue 21)
    for person in everyone:
        expect(panel(person).locator("h2")).to_contain_text("A fight, Turn 1: the Combat Rolls")
    expect(panel(gm).locator(".pairing")).to_contain_text("Chance of a Potential Wound: Trayer 93%, Garbo 100%.")
    for person in (ann, bob, spectator):
        expect(panel(person).locator(".pairing")).to_contain_text("The odds depend on the Director's figures.")
        expect(panel(person).locator(".pairing")).not_to_contain_text("Chance of a Potential Wound")
    expect(ann.page.locator("#turn-banner")).to_contain_text("Your turn: make Trayer's Combat Roll.")

    for person in everyone:  # every control has a name, and no id is used twice
        assert person.page.evaluate(accessible_names_js) == [], person.name
        assert person.page.evaluate(duplicate_ids_js) == [], person.name
    shot(gm, "gm-desktop")
    shot(ann, "player-desktop")
    shot(spectator, "spectator-desktop")
    bob.page.set_viewport_size({"width": 390, "height": 844})
    expect(bob.page.locator("#passages-panel")).to_be_visible()
    shot(bob, "player-390")
    bob.page.locator("#passages-panel").screenshot(path=str(SCREENS / "passages-player-390-panel.png"))
    no_sideways_scroll(bob)
    for person in (gm, ann, spectator):
        no_sideways_scroll(person)

    assert answered(ann, "combat_roll", lambda: ann.page.get_by_role("button", name="Combat Roll for Trayer").click()) == 200
    for person in everyone:
        expect(person.entry("Trayer rolls ")).to_have_count(1)
        # the d100 drawn as two d10s, tens and units, on everyone's panel
        expect(panel(person).locator("li.fighter", has_text="Trayer").locator(".rolled .die")).to_have_count(2)
    # the roll is against Garbo's Defense, a figure of an NPC's sheet: the whole working is the
    # Director's; the spectator unfolds its public twin, Garbo's Defense said as the Director's figure
    how = gm.entry("Trayer rolls ").locator("details.working")
    how.locator("summary").click()
    expect(how.locator("ol.steps li").first).to_contain_text("Combat Roll (d100): ")
    twin = spectator.entry("Trayer rolls ").locator("details.working")
    twin.locator("summary").click()
    expect(twin.locator("ol.steps li").last).to_contain_text("Garbo's Selected Defense (the Director's figure)")
    spectator.entry("Trayer rolls ").screenshot(path=str(SCREENS / "passages-log-how-spectator.png"))
    gm.entry("Trayer rolls ").screenshot(path=str(SCREENS / "passages-log-how-gm.png"))
    panel(spectator).screenshot(path=str(SCREENS / "passages-panel-dice.png"))
    assert answered(gm, "combat_roll", lambda: gm.page.get_by_role("button", name="Combat Roll for Garbo").click()) == 200
    for person in everyone:
        expect(person.entry("Roll-off, Trayer and Garbo:")).to_have_count(1)
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: call the Resolution Point.")
    assert answered(gm, "resolve", lambda: gm.page.get_by_role("button", name="Call the Resolution Point").click()) == 200
    for person in everyone:
        expect(person.entry("Resolution Point, Turn 1:")).to_have_count(1)
        expect(panel(person).locator("table.resolution caption")).to_have_text("Resolution Point, Turn 1")
        expect(panel(person).locator("h2")).to_contain_text("A fight, Turn 2: Declaration")
    # the character cards beside the table follow: each card's tracks are the Game State's
    for name in ("Trayer", "Garbo"):
        row = spectator.page.locator(f"#passages-panel li.fighter:has(.who-line strong:text-is('{name}'))")
        wounds = row.locator(".boxes.wounds + .track-value").inner_text()
        card = spectator.page.locator("#characters article", has_text=name)
        expect(card.locator(".track", has_text="Wounds").locator(".track-value")).to_have_text(f"{wounds} / 100")
    resolution = gm.page.locator("#log li", has_text="Resolution Point, Turn 1:").inner_text()
    for person in (ann, bob, spectator):
        assert person.page.locator("#log li", has_text="Resolution Point, Turn 1:").inner_text() == resolution
    shot(gm, "gm-resolution")
    shot(bob, "player-390-resolution")
    no_sideways_scroll(bob)
    for person in everyone:
        assert not person.page_errors, person.page_errors
    reinforcements_a_departure_a_status_and_a_rest(gm, ann, bob, spectator)

    # The odds page: every band of a BASE as a check and as a challenge, a chart, a roll-off.
    assert spectator.goto("/games/passages/odds/?base=26") == 200
    expect(spectator.page.locator("svg.band-chart")).to_have_count(2)
    expect(spectator.page.locator("table.odds").first).to_contain_text("BASE 26 (DU 52, DD 13)")
    shot(spectator, "odds")
    spectator.page.set_viewport_size({"width": 390, "height": 844})
    no_sideways_scroll(spectator)


def reinforcements_a_departure_a_status_and_a_rest(gm, ann, bob, spectator) -> None:
    """Issue 27: in Turn 2 the Director brings Mook in (at the next Turn's Declarations), sets
    Trayer's Combat Status and sends Betty away; everyone's Game State shows it, nobody is offered
    Betty as a target; the fight ends and Trayer rests, his sheet keeping what the rest restores."""
    everyone = (gm, ann, bob, spectator)

    def tools():
        """The Director's tools of the fight, open (drawn anew, closed, when the roster changes)."""
        found = gm.page.locator("#passages-panel details.gm-only.tools")
        if not found.evaluate("d => d.open"):
            found.locator("summary").click()
        return found

    join = tools().locator("form[aria-label='Reinforcements']")
    join.get_by_label("Mook").check()
    assert answered(gm, "join", lambda: join.get_by_role("button", name="Bring them in").click()) == 200
    status = tools().locator("form[aria-label='Combat Status']")
    status.get_by_label("Combat Status of").select_option(label="Trayer")
    status.get_by_label("Status", exact=True).fill("on the stairs, bleeding")
    assert answered(gm, "set_status", lambda: status.get_by_role("button", name="Set the status").click()) == 200
    status = tools().locator("form[aria-label='Combat Status']")
    status.get_by_label("Combat Status of").select_option(label="Betty")
    status.get_by_label("Status", exact=True).fill("fled below deck")
    status.get_by_label("Still in the Scene").select_option("no")
    assert answered(gm, "set_status", lambda: status.get_by_role("button", name="Set the status").click()) == 200
    def fighter(person, name: str):
        return panel(person).locator(f"li.fighter:has(.who-line strong:text-is('{name}')) .who-line")

    for person in everyone:
        expect(fighter(person, "Mook")).to_contain_text("joins at the next Turn's Declarations")
        expect(fighter(person, "Trayer")).to_contain_text("Status: on the stairs, bleeding")
        expect(fighter(person, "Betty")).to_contain_text("has left the Scene")
        expect(person.entry("Betty: fled below deck; leaves the Scene and recovers Fatigue to 100.")).to_have_count(1)
    targets = ann.page.locator("form[aria-label='Declare Trayer IN'] select[name=target] option")
    expect(targets).to_have_text(["Garbo"])
    shot(gm, "fight-joined-gm")
    shot(spectator, "fight-joined-spectator")
    trayer = ann.page.locator("#passages-panel li.fighter:has(.who-line strong:text-is('Trayer'))")
    assert answered(ann, "rest", lambda: trayer.get_by_role("button", name="Rest Trayer").click()) == 200
    garbo = gm.page.locator("#passages-panel li.fighter:has(.who-line strong:text-is('Garbo'))")
    assert answered(gm, "rest", lambda: garbo.get_by_role("button", name="Rest Garbo").click()) == 200
    assert answered(gm, "resolve", lambda: gm.page.get_by_role("button", name="Call the Resolution Point").click()) == 200
    for person in everyone:
        expect(person.entry("Turn 3. Game State:")).to_contain_text("Mook 100 Wounds / 100 Fatigue")
        expect(person.entry("Turn 3. Game State:")).to_contain_text("Betty has left the Scene (fled below deck)")
    expect(gm.page.locator("#turn-banner")).to_contain_text("Your turn: declare Garbo IN or OUT of the combat.")
    tools()
    assert answered(gm, "end", lambda: gm.page.get_by_role("button", name="End the fight").click()) == 200
    for person in everyone:
        expect(panel(person).locator("h2")).to_have_text("Passages")
    # between fights the Director sets a track by hand (an Effect, a long march), and Trayer rests
    idle = gm.page.locator("#idle-tools")
    idle.locator("summary").click()
    correct = idle.locator("form[aria-label=\"Correct a sheet's track\"]")
    correct.get_by_label("Correct").select_option(label="Trayer")
    correct.get_by_label("track").select_option("fatigue")
    correct.get_by_label("to").fill("50")
    assert answered(gm, "correct", lambda: correct.get_by_role("button", name="Set").click()) == 200
    sheet = ann.page.locator("#passages-panel article.sheet", has_text="Trayer")
    expect(sheet.locator(".boxes.fatigue + .track-value")).to_have_text("50")
    assert answered(ann, "rest", lambda: sheet.get_by_role("button", name="Rest Trayer").click()) == 200
    for person in everyone:
        expect(person.entry("Trayer rests: Fatigue 50 →")).to_have_count(1)
    expect(sheet.locator(".boxes.fatigue + .track-value")).not_to_have_text("50")
    card = ann.page.locator("#characters article", has_text="Trayer").locator(".track", has_text="Fatigue")
    expect(card.locator(".track-value")).to_have_text(sheet.locator(".boxes.fatigue + .track-value").inner_text()
                                                      + " / 100")
    shot(ann, "rest-after-the-fight")
    shot(gm, "idle-after-the-fight-gm")
    for person in everyone:
        assert not person.page_errors, person.page_errors
