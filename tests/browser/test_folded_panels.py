"""Issue 38, item 10, in the browser: "each panel shows first the one thing the viewer does now,
the rest folded; a short 'how to play this here' page per system, linked from its panel".

At a Harsh Light fight Ann (on a phone) acts first: Alfie's attack is the first control of her
panel, open, and the panel opens with "Your turn"; Bob (at a desk) reads whose turn it is, his
own moves folded. Ann opens "Other moves"; the Storyteller ends Alfie's action, every panel is
redrawn live, and her fold stays open. Her panel's "How to play this here" opens the page.
Screenshots go to ``test-artifacts/screens/folded-*.png``, at 1280x900 and 390x844."""

from __future__ import annotations

import html
import re

from playwright.sync_api import expect

from tests.browser import test_screens as screens
from tests.browser.axe_check import serious_violations
from tests.browser.test_demon_city_round import make_character

POST_JS = """
async ([command, fields]) => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
    const body = new URLSearchParams();
    for (const [k, v] of fields) body.append(k, v);
    const r = await fetch(location.pathname + 'commands/' + command + '/', {method: 'POST',
        body: body, headers: {'X-CSRFToken': token, 'HX-Request': 'true'}});
    return [r.status, await r.text()];
}
"""
# the first thing in the panel one can use: a field, a button, or a fold's summary
FIRST_CONTROL_JS = """
() => {
    const panel = document.getElementById('harsh_light-panel');
    const all = panel.querySelectorAll('button, select, textarea, input:not([type=hidden]), summary');
    const first = [...all].find(el => el.getClientRects().length > 0);
    const details = first.closest('details');
    return {text: first.textContent.trim(), inNow: !!first.closest('#harsh_light-now'),
            open: details ? details.open : null, form: first.closest('details')?.querySelector('form')?.getAttribute('aria-label')};
}
"""


def panel(person):
    return person.page.locator("#harsh_light-panel")


def shot(person, name: str) -> None:
    screens.shot(person, f"folded-{name}")


def post(person, command: str, fields: list[tuple[str, str]]) -> None:
    status, text = person.page.evaluate(POST_JS, [command, fields])
    assert status == 200 and 'role="alert"></p>' in html.unescape(text), (command, text[:300])


def pk_of(person, name: str) -> str:
    """A character's id, from its card beside the table."""
    card = person.page.locator("#characters article.character", has=person.page.locator(
        "h3", has_text=re.compile(f"^{name}$")))
    return card.first.get_attribute("id").removeprefix("character-")


def now_line(person):
    return panel(person).locator("#harsh_light-now > p.now-line")


def test_the_acting_form_comes_first_the_rest_is_folded_and_stays_as_the_player_left_it(make_table) -> None:
    table = make_table(system="harsh_light")
    gm = table.gm
    ann = table.join_player("Ann", width=390, height=844)
    bob = table.join_player("Bob")
    make_character(ann, table.url, "Alfie", strength=4, dexterity=3, wits=2, skills="Brawl: 3")
    make_character(bob, table.url, "Betty", strength=3, dexterity=3, wits=3, skills="Brawl: 2")
    make_character(gm, table.url, "Ghoul", npc=True, strength=3, dexterity=3, wits=3, skills="Brawl: 2")
    order = [("order", pk_of(gm, who)) for who in ("Alfie", "Betty", "Ghoul")]
    post(gm, "set_order", order)

    # Ann acts: her panel opens with her turn, and Alfie's attack is its first control, open
    expect(now_line(ann)).to_have_text("Your turn: act for Alfie: set up a pull, Dodge, or end the action.")
    attack = panel(ann).locator("#harsh_light-now form[aria-label='Attack with Alfie']")
    expect(attack).to_be_visible()
    first = ann.page.evaluate(FIRST_CONTROL_JS)
    assert first == {"text": "Attack with Alfie", "inNow": True, "open": True, "form": "Attack with Alfie"}, first
    other = panel(ann).locator("#harsh_light-other-moves")
    expect(other).not_to_have_attribute("open", re.compile(".*"))
    expect(panel(ann).get_by_text("Set up a pull for Alfie")).to_be_hidden()
    shot(ann, "ann-acts-390")

    # Bob has nothing to do now: his panel says whose turn it is; his moves are folded
    expect(now_line(bob)).to_have_text("Now: Alfie acts.")
    expect(panel(bob).locator("#harsh_light-now form")).to_have_count(0)
    expect(panel(bob).get_by_text("Attack with Betty")).to_be_hidden()
    panel(bob).screenshot(path=str(screens.SCREENS / "folded-bob-waits-1280.png"))

    # Ann opens her other moves; the Storyteller ends Alfie's action: every panel is redrawn
    other.locator("> summary").click()
    expect(panel(ann).get_by_text("Set up a pull for Alfie")).to_be_visible()
    post(gm, "end_turn", [("combatant", f"c{pk_of(gm, 'Alfie')}")])
    expect(now_line(ann)).to_have_text("Now: Betty acts.")
    expect(panel(ann).locator("#harsh_light-other-moves")).to_have_attribute("open", "")
    expect(panel(ann).get_by_text("Set up a pull for Alfie")).to_be_visible()
    expect(panel(ann).locator("#harsh_light-now form")).to_have_count(0)
    shot(ann, "ann-after-redraw-390")

    # now Bob acts: Betty's attack is first on his page, open
    expect(now_line(bob)).to_have_text("Your turn: act for Betty: set up a pull, Dodge, or end the action.")
    first = bob.page.evaluate(FIRST_CONTROL_JS)
    assert first == {"text": "Attack with Betty", "inNow": True, "open": True, "form": "Attack with Betty"}, first
    shot(bob, "bob-acts-1280")

    # the panel's "How to play this here" opens the system's page
    panel(ann).get_by_role("link", name="How to play this here").click()
    ann.page.wait_for_url("**/systems/harsh_light/how-to-play/")
    expect(ann.page.get_by_role("heading", level=1)).to_have_text("How to play Harsh Light here")
    assert serious_violations(ann.page) == []
    shot(ann, "how-to-play-390")
