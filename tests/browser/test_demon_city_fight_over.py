"""Issue 33 in four browsers (a GM, two players and a spectator): the last foe falls in a Demon
City fight, every seat reads that the fight is over, no new round is offered, and the GM ends it
from the banner. The target lists start on a standing enemy, never an ally.

Seed 003: "At Current Toughness -1 they are out of the fight" ("any successful hit on someone with
0 Toughness puts them in the Injured box"); step 9: "If characters are still involved in Action
after all that, start over at 1 above." The decided reading "003, damage belongs to the fight":
when a fight ends, "out of the fight" ends with it for the living, who keep their Injury result.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import SCREENS, a_table_of_three, gm_approves, make_character

OVER = "The fight is over: the players' side stands."
MAX_ROUNDS = 8  # the players roll five dice to Kemp's one: eight rounds without a hit, negligible


def announce_on_default(person, who: str, kind: str, target: str) -> None:
    """Announces ``kind`` for ``who`` at the target the form starts on, which must be ``target``."""
    form = person.page.locator(f"form.announce-form[aria-label='Announce for {who}']")
    expect(form).to_be_visible()
    form.locator("select[name=kind]").select_option(kind)
    chosen = form.locator("select[name=target] option:checked")
    expect(chosen).to_have_text(target)
    with person.expect_answer("/commands/announce/") as answer:
        form.get_by_role("button", name=f"Announce for {who}").click()
    assert answer.status == 200


def test_the_last_foe_falls_and_every_seat_reads_that_the_fight_is_over(make_table) -> None:
    table, gm, ann, bob = a_table_of_three(make_table)
    make_character(ann, table.url, "Alfie", agility=2, toughness=9, hand_to_hand=6)
    make_character(bob, table.url, "Betty", agility=5, toughness=9, firearms=6)
    gm_approves(gm, ann, "Alfie")  # Toughness 9 is past a new character's: the Host grants it
    gm_approves(gm, bob, "Betty")
    make_character(gm, table.url, "Kemp", npc=True, agility=3, toughness=0)
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)

    gm.page.get_by_role("button", name="Start Action Rounds").click()
    for person in everyone:
        expect(person.page.locator("#rounds-panel li.is-next")).to_contain_text("Alfie")
    # the attack's target list starts on the foe, never on Betty, Alfie's ally
    targets = ann.page.locator("form.announce-form select[name=target] option")
    expect(targets).to_have_text(["Kemp", "Betty", "nobody"])
    ann.page.locator("#rounds-panel").screenshot(path=str(SCREENS / "demon-city-target-defaults-to-enemy.png"))

    for round_number in range(1, MAX_ROUNDS + 1):
        announce_on_default(ann, "Alfie", "melee", "Kemp")
        announce_on_default(gm, "Kemp", "melee", "Alfie")
        announce_on_default(bob, "Betty", "shoot", "Kemp")
        gm.page.get_by_role("button", name="Roll every Clash").click()
        for person in everyone:
            expect(person.entry(f"Round {round_number} resolved.")).to_have_count(1)
        if gm.page.locator("#log li", has_text="hits Kemp").count():
            break
        gm.page.get_by_role("button", name="Next round").click()
        for person in everyone:
            expect(person.page.locator("#rounds-panel li.is-next")).to_contain_text("Alfie")
    assert gm.page.locator("#log li", has_text="hits Kemp").count() == 1, f"no hit on Kemp in {MAX_ROUNDS} rounds"

    SCREENS.mkdir(parents=True, exist_ok=True)
    for person, name in ((gm, "gm"), (ann, "player"), (spectator, "spectator")):
        banner = person.page.locator("#turn-banner")
        expect(banner).to_have_text(OVER if person is not gm else OVER + " End the fight")
        expect(person.page.locator("#rounds-panel .fight-over")).to_contain_text(OVER)
        kemp = person.page.locator("#rounds-panel li.combatant").filter(
            has=person.page.locator("strong", has_text="Kemp"))
        expect(kemp).to_contain_text("out of the fight")
        expect(kemp).to_have_class("combatant is-out")
        person.page.screenshot(path=str(SCREENS / f"demon-city-fight-over-{name}.png"))
    expect(bob.page.locator("#turn-banner")).to_have_text(OVER)
    for person in (ann, bob, spectator):
        expect(person.page.locator("#turn-banner button")).to_have_count(0)
    # no new round is offered: the GM ends the fight from the banner
    expect(gm.page.get_by_role("button", name="Next round")).to_have_count(0)
    gm.page.locator("#turn-banner").get_by_role("button", name="End the fight").click()
    for person in everyone:
        expect(person.page.locator("#rounds-panel")).to_contain_text("Action Rounds have ended.")
        expect(person.page.locator("#turn-banner")).not_to_contain_text("The fight is over")
        kemp = person.page.locator("#characters article", has_text="Kemp")
        # "out of the fight" ends with the fight for the living; the Injury result stays
        expect(kemp.locator(".tag", has_text="Out of the fight")).to_have_count(0)
    # the Injury result stays (on the card the GM sees of an NPC behind the screen)
    expect(gm.page.locator("#characters article", has_text="Kemp").locator(".tags")).to_contain_text("Injury: ")
    gm.page.screenshot(path=str(SCREENS / "demon-city-fight-ended-gm.png"))
    for person in everyone:
        assert not person.page_errors, person.page_errors
