"""The edges of a Shadows of Humanity fight (issue 33), in four browsers: every focus the round
waits for is asked of its own player at once ("Your turn", page and tab title), the "Whom" list
starts on a standing foe and the skill on the best attack skill, and once the last foe falls every
seat reads that the fight is over, no act form is left, and the GM ends it from the banner.

The decided reading "All systems, fights": "when one side has no one able to act, the fight is
over". Screenshots go to test-artifacts/screens/shadows-edges-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.core.cards import card_by_id
from tests.browser import test_screens as screens
from tests.browser.test_demon_city_round import make_character
from tests.browser.test_shadows_table import bring_out_the_arcana, click

SMALL = {"body": 3, "physical": 2}  # hands of 3 + half 2 = 4 cards
OVER = "The fight is over: the PCs' side stands."


def shot(person, name: str) -> None:
    screens.shot(person, f"shadows-edges-{name}")


def chosen(person, form: str, field: str) -> str:
    """The label of the option a form's select shows before anyone touches it."""
    return person.page.locator(f"form[aria-label='{form}'] select[name={field}]").evaluate(
        "s => s.options[s.selectedIndex].textContent")


def move_to_side(gm, who: str, side: str) -> None:
    """The GM moves a combatant to a side, from the fight's tools."""
    tools = gm.page.locator("details[id^=combat-tools-r]")
    if tools.get_attribute("open") is None:
        tools.locator("summary").click()
    form = gm.page.locator("#set-side")
    who_select = form.locator("select[name=character]")
    who_select.select_option(who_select.locator("option", has_text=re.compile(f"^{who} ")).get_attribute("value"))
    form.locator("input[name=side]").fill(side)
    click(gm, form.get_by_role("button", name="Move to the side"), "set_side")


def seated(make_table, bram: str = "Melee: 4", **ghoul: int):
    """A Shadows table: the GM and two players; Alma (Melee 20) is quickest and gets through any
    Defence, then the Ghoul, then Bram; the decks out. Returns the table, the GM, Ann and Bob."""
    table = make_table(system="shadows")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alma", quickness=9, skills="Melee: 20", **SMALL)
    make_character(bob, table.url, "Bram", quickness=3, skills=bram, **SMALL)
    make_character(gm, table.url, "Ghoul", npc=True, quickness=5, skills="Claws: 4", **ghoul, **SMALL)
    bring_out_the_arcana(gm)
    return table, gm, ann, bob


def test_every_focus_awaited_is_told_whom_defaults_to_a_foe_and_the_last_foe_fallen_ends_the_fight(
        make_table, accessible_names_js) -> None:
    # the Ghoul has 1 Health to lose; Bram's best skill is Stealth, his attack skill Melee
    table, gm, ann, bob = seated(make_table, bram="Melee: 4\nStealth: 8", health=1, life=99)
    spectator = table.join_spectator()
    everyone = (gm, ann, bob, spectator)
    gm.page.locator("#shadows-start > summary").click()
    click(gm, gm.page.get_by_role("button", name="Start the combat"), "start_combat")

    # Every focus is chosen at once: each player, and the GM for the Ghoul, reads "Your turn".
    for person, who in ((ann, "Alma"), (bob, "Bram"), (gm, "Ghoul")):
        expect(person.page.locator("#turn-banner .turn-mine")).to_have_text(
            f"Your turn: choose {who}'s focus for this round.")
        expect(person.page).to_have_title(re.compile("^\u25B6 Your turn"))
    expect(spectator.page.locator("#turn-banner")).to_have_text("Alma, Ghoul and Bram choose a focus.")
    expect(spectator.page).not_to_have_title(re.compile("Your turn"))
    shot(bob, "focus-bob")
    click(ann, ann.page.get_by_role("button", name="Declare Alma's focus"), "declare_focus")
    expect(ann.page.locator("#turn-banner")).to_have_text("Ghoul and Bram choose a focus.")
    expect(ann.page).not_to_have_title(re.compile("Your turn"))
    expect(bob.page.locator("#turn-banner .turn-mine")).to_have_text("Your turn: choose Bram's focus for this round.")
    for person, who in ((gm, "Ghoul"), (bob, "Bram")):
        click(person, person.page.get_by_role("button", name=f"Declare {who}'s focus"), "declare_focus")
    click(gm, gm.page.get_by_role("button", name="Shuffle and deal the hands"), "deal")
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(4)

    # "Whom" starts on the foe, never on a fellow PC; the skill on the attack skill.
    bob.page.locator("details.sh-act summary", has_text="Act now for Bram").click()
    assert chosen(bob, "Attack for Bram", "target") == "Ghoul"
    assert chosen(bob, "Attack for Bram", "skill") == "Melee 4"
    assert chosen(ann, "Attack for Alma", "target") == "Ghoul"
    assert chosen(ann, "Attack for Alma", "skill") == "Melee 20"
    assert chosen(gm, "Attack for Ghoul", "target") == "Alma"
    expect(bob.page.locator("form[aria-label='Attack for Bram'] optgroup[label=Allies] option")).to_have_text(["Alma"])
    shot(bob, "whom-bob")

    # Alma strikes with her best card as the form stands (no target chosen by hand); the GM takes it.
    cards = ann.page.locator(f"#hand-{ann.member_id} .card-pick").evaluate_all("els => els.map(e => e.dataset.card)")
    best = max(cards, key=lambda c: card_by_id(c).value)
    ann.page.locator(f'#hand-{ann.member_id} .card-pick[data-card="{best}"]').click()
    attack = ann.page.locator("form[aria-label='Attack for Alma']")
    click(ann, attack.get_by_role("button", name="Attack with the picked cards for Alma"), "attack")
    click(gm, gm.page.get_by_role("button", name="Take it: no active defence for Ghoul"), "defend")

    # The last foe is down: every seat reads that the fight is over; nobody is offered a blow.
    for person in everyone:
        expect(person.entry("Ghoul is down.")).to_have_count(1)
        expect(person.page.locator("#turn-banner")).to_contain_text(OVER)
        expect(person.page.locator("#turn-banner .turn-mine")).to_have_count(0)
        expect(person.page.locator("#shadows-over")).to_contain_text(OVER)
        expect(person.page.locator("form[aria-label^='Attack for']")).to_have_count(0)
        expect(person.page.locator(".sh-order .badge", has_text="acts now")).to_have_count(0)
        expect(person.page).not_to_have_title(re.compile("Your turn"))
    end = gm.page.locator("#turn-banner").get_by_role("button", name="End the fight")
    expect(end).to_be_visible()
    for person in (ann, bob, spectator):
        expect(person.page.locator("#turn-banner").get_by_role("button")).to_have_count(0)
    expect(gm.page.get_by_role("button", name="Next round")).to_have_count(0)
    shot(gm, "over-gm")
    shot(ann, "over-player")
    shot(spectator, "over-spectator")
    assert gm.page.evaluate(accessible_names_js) == []

    # The GM ends it from the banner: the banner goes for everyone, the next fight's form is back.
    click(gm, end, "end_combat")
    for person in everyone:
        expect(person.page.locator("#turn-banner")).not_to_contain_text("The fight is over")
        expect(person.entry("The combat ends.")).to_have_count(1)
    expect(gm.page.locator("#shadows-start")).to_have_count(1)
    for person in everyone:
        assert not person.page_errors, person.page_errors


def test_the_gm_moves_a_combatant_to_a_side_and_the_fight_goes_on(make_table) -> None:
    """Bram turns on Alma: the GM moves him to a side of his own; everyone sees the badge, and
    Alma's "Whom" then offers him among her foes."""
    _, gm, ann, bob = seated(make_table)
    gm.page.locator("#shadows-start > summary").click()
    click(gm, gm.page.get_by_role("button", name="Start the combat"), "start_combat")
    move_to_side(gm, "Bram", "Rivals")
    for person in (gm, ann, bob):
        expect(person.page.locator(".sh-order .sh-side")).to_have_text(["on the Rivals' side"])
        expect(person.entry("The GM moves Bram to the Rivals' side.")).to_have_count(1)
    shot(gm, "side-gm")
    for person, who in ((ann, "Alma"), (gm, "Ghoul"), (bob, "Bram")):
        click(person, person.page.get_by_role("button", name=f"Declare {who}'s focus"), "declare_focus")
    click(gm, gm.page.get_by_role("button", name="Shuffle and deal the hands"), "deal")
    expect(ann.page.locator("form[aria-label='Attack for Alma'] optgroup[label=Foes] option")).to_have_text(
        ["Ghoul", "Bram"])
    for person in (gm, ann, bob):
        assert not person.page_errors, person.page_errors
