"""Issue 35 in the browser: a GM closes a session and every seat reads its own recap; a condition
with a duration shows on a character's card and token and ends by itself. The screenshots go to
test-artifacts/screens (look at them)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_demon_city_round import SCREENS


def test_a_gm_closes_a_session_and_every_seat_reads_its_own_recap(full_table) -> None:
    table, gm, ann, spectator = full_table
    everyone = (gm, ann, spectator)
    for person in (ann, spectator):
        expect(person.page.get_by_role("button", name="Open session 1")).to_have_count(0)
    gm.page.get_by_role("button", name="Open session 1").click()
    for person in everyone:
        expect(person.page.locator("#session-box")).to_contain_text("Session 1")
        expect(person.page.locator("#log li.kind-session-opened")).to_contain_text("Session 1")
    ann.chat("We take the mountain road.")
    gm.roll("1d20", "gm")  # the GM's own roll: in the GM's recap, in nobody else's
    ann.roll("2d6")
    table.sync(gm, ann, spectator)
    gm.accept_dialogs = True  # "Close session 1? Its end-of-session rules run now."
    gm.page.get_by_role("button", name="Close session 1").click()
    for person in everyone:
        expect(person.page.locator("#session-box")).to_contain_text("Session 1 closed")
        expect(person.page.locator("#log li.kind-session-closed")).to_contain_text("End of session 1")
    expect(gm.page.get_by_role("button", name="Open session 2")).to_be_visible()
    gm.page.locator("#session-box").screenshot(path=str(SCREENS / "session-box-gm.png"))

    counts = {}
    for person, name in ((gm, "gm"), (ann, "player"), (spectator, "spectator")):
        person.page.get_by_role("link", name="Recap of session 1").click()
        person.page.wait_for_url("**/sessions/1/recap/")
        recap = person.page.locator("article.recap")
        expect(recap.get_by_role("heading", level=1)).to_have_text(f"{table.name}: session 1")
        expect(recap).to_contain_text("Who was there")
        expect(recap).to_contain_text("Session 1 opens.")
        expect(recap).to_contain_text("Session 1 closes.")
        expect(recap.locator("ol.recap-story")).to_contain_text("Ann: We take the mountain road.")
        counts[name] = recap.locator("p.muted").last.inner_text()
        person.page.screenshot(path=str(SCREENS / f"recap-{name}.png"), full_page=True)
    # each seat reads its own lens: the GM's roll only in the GM's
    assert "2 of them rolls" in counts["gm"] and "1 of them rolls" in counts["player"], counts
    assert counts["player"] == counts["spectator"] or "1 of them rolls" in counts["spectator"], counts


def test_a_condition_with_a_duration_shows_on_the_card_and_the_token_and_ends_by_itself(make_table) -> None:
    """"It shows as a badge on the sheet, on the character's card and on its token in the scene";
    "it ends by itself, and the log says so"; "a condition on a secret NPC is the GM's unless
    shown"."""
    from tests.browser.test_demon_city_round import make_character
    from tests.browser.test_scenes import make_board, place, show, token

    table = make_table(system="demon_city")
    gm = table.gm
    gm.accept_dialogs = True
    ann = table.join_player("Ann")
    spectator = table.join_spectator()
    everyone = (gm, ann, spectator)
    make_character(ann, table.url, "Alfie", agility=2, toughness=3, hand_to_hand=2)
    make_character(gm, table.url, "Kemp", npc=True, agility=3, toughness=2)
    make_board(gm, "Crossroads")
    show(gm, "Crossroads")
    place(gm, "Alfie")
    place(gm, "Kemp")
    for person in everyone:
        expect(token(person, "Alfie")).to_have_count(1)

    box = gm.page.locator("#campaign")
    box.locator("summary", has_text="Add a condition").click()
    form = box.locator("details.condition-form form")
    form.locator("#condition-who").select_option(label="Alfie")
    form.locator("#condition-name").fill("Dazed")
    form.locator("#condition-effect").select_option(index=1)  # the first effect the rules read
    form.locator("#condition-amount").fill("1")
    form.locator("#condition-lasts").select_option("scene")
    with gm.expect_answer("/campaign/add_condition/") as answer:
        form.get_by_role("button", name="Add the condition").click()
    assert answer.status == 200
    form.locator("#condition-who").select_option(label="Kemp (NPC)")
    form.locator("#condition-name").fill("Zqxv-cursed")
    form.locator("#condition-lasts").select_option("scene")
    with gm.expect_answer("/campaign/add_condition/") as answer:
        form.get_by_role("button", name="Add the condition").click()
    assert answer.status == 200

    for person in everyone:
        expect(token(person, "Alfie").locator(".token-conditions")).to_have_text("Dazed")
        expect(person.page.locator("article.character", has_text="Alfie").locator(".conditions")).to_contain_text(
            "until the scene ends")
        expect(person.page.locator("#campaign")).to_contain_text("Dazed")
    expect(gm.page.locator("#campaign")).to_contain_text("Zqxv-cursed")
    for person in (ann, spectator):
        expect(person.page.locator("#campaign")).not_to_contain_text("Zqxv")
        assert not person.frames_with("Zqxv"), "a condition the GM keeps reached another seat"
        expect(token(person, "Kemp").locator(".token-conditions")).to_have_text("")
    SCREENS.mkdir(parents=True, exist_ok=True)
    ann.page.screenshot(path=str(SCREENS / "condition-token-player.png"), full_page=True)
    gm.page.locator("#campaign").screenshot(path=str(SCREENS / "campaign-box-gm.png"))

    gm.page.locator("#campaign").get_by_role("button", name="The scene ends").click()
    for person in everyone:
        expect(person.entry("Alfie is no longer Dazed: the scene ended.")).to_have_count(1)
        expect(token(person, "Alfie").locator(".token-conditions")).to_have_text("")
        expect(person.page.locator("article.character", has_text="Alfie").locator(".conditions")).to_have_text("")
    expect(gm.entry("Kemp is no longer Zqxv-cursed: the scene ended.")).to_have_count(1)
    assert not ann.frames_with("Zqxv") and not spectator.frames_with("Zqxv")
