"""A Shadows of Humanity fight in which the Ghoul falls (issue 22), in three browsers.

Seed 000: damage to Health is how "to put someone down (for them to go unconscious or become
physically "incapacitated")". Once the Ghoul's Health is gone it is down: nobody is offered a
blow at it, it is not offered an action, the next round asks it no focus and deals it no hand,
and the form for the next fight leaves it unticked. Screenshots go to
test-artifacts/screens/shadows-fallen-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.core.cards import card_by_id
from tests.browser import test_screens as screens
from tests.browser.test_screens import no_sideways_scroll
from tests.browser.test_shadows_edges import move_to_side, seated
from tests.browser.test_shadows_table import click, start_and_deal


def shot(person, name: str) -> None:
    screens.shot(person, f"shadows-fallen-{name}")


def row(person, name: str):
    names = person.page.locator(".sh-name", has_text=re.compile(f"^{name}$"))
    return person.page.locator("#shadows-combat .sh-order > li").filter(has=names)


def targets(person, who: str) -> list[str]:
    """The names ``person`` is offered in ``who``'s attack form (open or folded away)."""
    return person.page.locator(f"form[aria-label='Attack for {who}'] select[name=target] option").evaluate_all(
        "els => els.map(e => e.textContent)")


def test_the_ghoul_felled_is_offered_no_blow_no_action_and_no_hand(make_table, accessible_names_js) -> None:
    # Alma (Melee 20) is quickest and gets through any dodge; the Ghoul has 1 Health to lose (and
    # Life enough to live).
    _, gm, ann, bob = seated(make_table, health=1, life=99)
    everyone = (gm, ann, bob)
    start_and_deal(gm, (ann, "Alma"), (gm, "Ghoul"), (bob, "Bram"))
    # Bram fights for a side of his own, so that the fight goes on once the Ghoul falls (a fight
    # whose last foe falls is over: tests/browser/test_shadows_edges.py)
    move_to_side(gm, "Bram", "Rivals")
    expect(ann.page.locator(f"#hand-{ann.member_id} .card-pick")).to_have_count(4)
    assert targets(ann, "Alma") == ["Ghoul", "Bram"]

    # Alma strikes the Ghoul with her best card; the GM takes the blow for it.
    cards = ann.page.locator(f"#hand-{ann.member_id} .card-pick").evaluate_all("els => els.map(e => e.dataset.card)")
    best = max(cards, key=lambda c: card_by_id(c).value)
    attack = ann.page.locator("form[aria-label='Attack for Alma']")
    attack.locator("select[name=target]").select_option(label="Ghoul")
    attack.locator("select[name=skill]").select_option("melee")
    ann.page.locator(f'#hand-{ann.member_id} .card-pick[data-card="{best}"]').click()
    click(ann, attack.get_by_role("button", name="Attack with the picked cards for Alma"), "attack")
    click(gm, gm.page.get_by_role("button", name="Take it: no active defence for Ghoul"), "defend")

    # The Ghoul is down, for everyone; nobody is offered a blow at it, nor it an action.
    for person in everyone:
        expect(row(person, "Ghoul").locator(".sh-fallen")).to_have_text("down")
        expect(row(person, "Ghoul")).to_have_class(re.compile(r"\bis-out\b"))
        expect(person.entry("Ghoul is down.")).to_have_count(1)
    # the Ghoul's card says so at once, to the players too (its sheet, figures and all, stays the GM's)
    expect(ann.page.locator("#characters article", has_text="Ghoul").locator(".tag", has_text="Down")).to_have_count(1)
    expect(ann.page.locator("#characters article", has_text="Ghoul")).not_to_contain_text("Health")
    expect(bob.page.locator("#turn-banner")).to_contain_text("Your turn: act for Bram")
    expect(gm.page.locator("form[aria-label='Attack for Ghoul']")).to_have_count(0)
    expect(gm.page.get_by_text("Act now for Ghoul")).to_have_count(0)
    assert targets(bob, "Bram") == ["Alma"] and targets(gm, "Bram") == ["Alma"]
    expect(ann.page.locator("details.sh-act summary", has_text="Act now for Alma")).to_have_count(1)
    assert targets(ann, "Alma") == ["Bram"]
    # Ann lines up a blow at Bram, out of turn: each card's chance reads as a number, never "<0.1"
    ann.page.locator("details.sh-act summary", has_text="Act now for Alma").click()
    attack.locator("select[name=target]").select_option(label="Bram")
    click(ann, attack.get_by_role("button", name="Show the odds for Alma"), "aim")
    through = ann.page.locator("[id^=through-] li")
    expect(through).to_have_count(14)
    ann.page.locator("details.sh-act summary", has_text="Act now for Alma").click()  # the redraw folded it
    expect(through.first).to_be_visible()
    assert not [t for t in through.all_inner_texts() if "<" in t or not re.search(r"\d", t)]
    shot(gm, "gm")
    shot(ann, "player")
    assert gm.page.evaluate(accessible_names_js) == []

    # The next round asks the Ghoul no focus and deals it no hand: the GM holds no card.
    click(gm, gm.page.get_by_role("button", name="Next round"), "new_round")
    expect(gm.page.get_by_role("button", name="Declare Ghoul's focus")).to_have_count(0)
    for person, who in ((ann, "Alma"), (bob, "Bram")):
        click(person, person.page.get_by_role("button", name=f"Declare {who}'s focus"), "declare_focus")
    click(gm, gm.page.get_by_role("button", name="Shuffle and deal the hands"), "deal")
    for person in everyone:
        expect(row(person, "Alma")).to_contain_text("4 cards in hand")
        expect(row(person, "Ghoul")).not_to_contain_text("in hand")
    expect(gm.page.locator(f"#hand-{gm.member_id} .card-pick")).to_have_count(0)
    expect(gm.page.locator("form[aria-label='Attack for Ghoul']")).to_have_count(0)
    assert targets(ann, "Alma") == ["Bram"]
    expect(gm.page.locator("#turn-banner")).not_to_contain_text("Ghoul")
    gm.page.set_viewport_size({"width": 390, "height": 844})
    shot(gm, "gm-390-next-round")
    no_sideways_scroll(gm)
    gm.page.set_viewport_size({"width": 1280, "height": 900})

    # After the fight its card says it is down, and the next fight's form leaves it unticked.
    click(gm, gm.page.get_by_role("button", name="End the combat"), "end_combat")
    expect(gm.page.locator("#characters article", has_text="Ghoul").locator(".tag", has_text="Down")).to_have_count(1)
    gm.page.locator("#shadows-start > summary").click()
    start = gm.page.locator("#shadows-start")
    expect(start.get_by_role("checkbox", name="Ghoul (down)")).not_to_be_checked()
    expect(start.get_by_role("checkbox", name="Alma")).to_be_checked()
    shot(gm, "gm-next-fight")
    for person in everyone:
        assert not person.page_errors, person.page_errors
