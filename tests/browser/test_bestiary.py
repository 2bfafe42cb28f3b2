"""Issue 36 in the browser: "the GM fields three Ghouls from the bestiary in one step, the fight
runs, the fallen are retired". At a Demon City table the GM saves a Ghoul to the bestiary from its
card, puts the Ghoul itself away, brings three from the bestiary (each its own card and token on
the shown scene, on the player's page live), an Action Round runs through the panel's own
controls until a Ghoul is out of the fight, and "Retire the fallen" takes the fallen's tokens off
the player's scene live, while the log keeps them. The screenshots go to test-artifacts/screens.

Seed 003: "At Current Toughness -1 they are out of the fight" ("any successful hit on someone with
0 Toughness puts them in the Injured box"); step 9: "If characters are still involved in Action
after all that, start over at 1 above."
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import SCREENS, gm_approves, make_character
from tests.browser.test_scenes import make_board, show, token

GHOULS = ("Ghoul 1", "Ghoul 2", "Ghoul 3")
MAX_ROUNDS = 10  # Alfie's hand-to-hand against Ghouls busy elsewhere: a hit lands within four rounds as a rule


def card(person, name: str):
    return person.page.locator("#characters article").filter(
        has=person.page.locator("h3", has_text=name))


def listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def announce(person, who: str, kind: str, target: str | None = None) -> None:
    """Announces ``kind`` for ``who``: at the target the form starts on (``target`` None: a
    standing foe), or at nobody (``target`` "")."""
    form = person.page.locator(f"form.announce-form[aria-label='Announce for {who}']")
    expect(form).to_be_visible()
    form.locator("select[name=kind]").select_option(kind)
    if target is not None:
        form.locator("select[name=target]").select_option(target)
    with person.expect_answer("/commands/announce/") as answer:
        form.get_by_role("button", name=f"Announce for {who}").click()
    assert answer.status == 200


def test_the_gm_fields_three_ghouls_from_the_bestiary_and_retires_the_fallen(make_table) -> None:
    table = make_table(system="demon_city")
    gm = table.gm
    gm.accept_dialogs = True  # "Retire Ghoul? ..."
    ann = table.join_player("Ann")
    make_character(ann, table.url, "Alfie", agility=2, toughness=9, hand_to_hand=6, side="players")
    gm_approves(gm, ann, "Alfie")  # Toughness 9 is past a new character's: the Host grants it
    make_character(gm, table.url, "Ghoul", npc=True, agility=3, toughness=0, hand_to_hand=2, side="ghouls",
                   skills="Grave Rending: 4")
    spectator = table.join_spectator()
    everyone = (gm, ann, spectator)
    make_board(gm, "The Crypt")
    show(gm, "The Crypt")
    SCREENS.mkdir(parents=True, exist_ok=True)

    # the GM saves the Ghoul to the bestiary from its card (over one saved at an earlier table)
    ghoul = card(gm, "Ghoul")
    ghoul.locator("summary", has_text="Manage").click()
    ghoul.get_by_label("over one of the same name").check()
    with gm.expect_answer("/bestiary/save/") as answer:
        ghoul.get_by_role("button", name="Save to your bestiary").click()
    assert answer.status == 200
    bestiary = gm.page.locator("#bestiary")
    expect(bestiary.locator(".bestiary-name", has_text="Ghoul")).to_have_count(1)
    ghoul.screenshot(path=str(SCREENS / "npc-card-tools-gm.png"))
    for person in (ann, spectator):
        expect(person.page.locator("#bestiary")).to_have_count(0)
        expect(card(person, "Ghoul").locator(".npc-tools")).to_have_count(0)
        assert not person.frames_with("Grave Rending"), "the NPC's sheet reached another seat"

    # the template itself is put away: gone from every list, kept in the log and the GM's list
    with gm.expect_answer("/npcs/retire/") as answer:
        ghoul.get_by_role("button", name="Retire Ghoul").click()
    assert answer.status == 200
    for person in everyone:
        expect(card(person, "Ghoul")).to_have_count(0)
        expect(person.entry("retires Ghoul: gone from the lists and the scene")).to_have_count(1)
    expect(gm.page.locator("#npc-retired")).to_contain_text("Retired (1)")

    # three from the bestiary in one step: three cards and three tokens, on Ann's page live
    entry = bestiary.locator("li").filter(has=gm.page.locator(".bestiary-name", has_text="Ghoul"))
    entry.locator("input[name=count]").fill("3")
    with gm.expect_answer("/bestiary/bring/") as answer:
        entry.get_by_role("button", name="Bring Ghoul").click()
    assert answer.status == 200
    for person in everyone:
        for name in GHOULS:
            expect(card(person, name)).to_have_count(1)
            expect(token(person, name)).to_have_count(1)
        expect(person.entry("brings in Ghoul 1, Ghoul 2 and Ghoul 3 from the bestiary")).to_have_count(1)
    # the GM's scene tools follow: each new token may be hidden from there
    for name in GHOULS:
        expect(gm.page.locator("#scene-tools .token-list li", has_text=name)).to_have_count(1)
    boxes = [token(ann, name).bounding_box() for name in GHOULS]
    assert len({(round(b["x"]), round(b["y"])) for b in boxes if b}) == 3, "two Ghouls' tokens stand on one another"
    assert not ann.frames_with("Grave Rending") and not spectator.frames_with("Grave Rending")
    ann.page.screenshot(path=str(SCREENS / "bestiary-three-ghouls-player.png"), full_page=True)
    gm.page.locator("#npc-desk").screenshot(path=str(SCREENS / "npc-desk-gm.png"))

    # the fight, through the panel's own controls, until a Ghoul is out of the fight
    gm.page.get_by_role("button", name="Start Action Rounds").click()
    for person in everyone:
        expect(person.page.locator("#rounds-panel li.is-next")).to_contain_text("Alfie")
    out: list[str] = []
    for round_number in range(1, MAX_ROUNDS + 1):
        announce(ann, "Alfie", "melee")  # at a standing Ghoul, as the form starts
        for _ in GHOULS:  # the Ghouls, in the order their tie was drawn: each howls at nobody
            form = gm.page.locator("form.announce-form[aria-label^='Announce for Ghoul']")
            expect(form).to_have_count(1)
            announce(gm, form.get_attribute("aria-label").removeprefix("Announce for "), "other", "")
        gm.page.get_by_role("button", name="Roll every Clash").click()
        for person in everyone:
            expect(person.entry(f"Round {round_number} resolved.")).to_have_count(1)
        out = gm.page.locator("#rounds-panel li.combatant.is-out strong").all_inner_texts()
        if out:
            break
        gm.page.get_by_role("button", name="Next round").click()
        expect(ann.page.locator("#rounds-panel li.is-next")).to_contain_text("Alfie")
    assert out and set(out) <= set(GHOULS), f"no Ghoul out of the fight in {MAX_ROUNDS} rounds: {out}"
    standing = [name for name in GHOULS if name not in out]
    gm.page.screenshot(path=str(SCREENS / "bestiary-ghoul-out-gm.png"), full_page=True)

    # retire the fallen: their cards and tokens leave every page live, the standing stay
    with gm.expect_answer("/npcs/retire/") as answer:
        gm.page.locator("#npc-desk").get_by_role("button", name="Retire the fallen").click()
    assert answer.status == 200
    for person in everyone:
        for name in out:
            expect(token(person, name)).to_have_count(0)
            expect(card(person, name)).to_have_count(0)
        for name in standing:
            expect(token(person, name)).to_have_count(1)
        expect(person.entry(f"retires the fallen: {listed(out)}.")).to_have_count(1)
    expect(gm.page.locator("#npc-retired")).to_contain_text(f"Retired ({1 + len(out)})")
    # nor is a token offered for the fallen in the GM's scene tools
    tools = gm.page.locator("#scene-tools")
    for name in out:
        expect(tools.locator(".token-list li", has_text=name)).to_have_count(0)
        expect(tools.locator("#place-character option", has_text=name)).to_have_count(0)
    expect(tools.locator("#place-character option", has_text="Alfie")).to_have_count(1)
    # the fight's panel still names the fallen: its state keeps them
    expect(gm.page.locator("#rounds-panel")).to_contain_text(out[0])
    ann.page.screenshot(path=str(SCREENS / "bestiary-fallen-retired-player.png"), full_page=True)
    gm.page.locator("#npc-retired details summary").click()
    gm.page.locator("#npc-desk").screenshot(path=str(SCREENS / "npc-retired-list-gm.png"))
    for person in everyone:
        assert not person.page_errors, person.page_errors
