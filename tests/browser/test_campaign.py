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
        counts[name] = recap.locator("p.muted").last.inner_text()
        person.page.screenshot(path=str(SCREENS / f"recap-{name}.png"), full_page=True)
    # each seat reads its own lens: the GM's roll only in the GM's
    assert "2 of them rolls" in counts["gm"] and "1 of them rolls" in counts["player"], counts
    assert counts["player"] == counts["spectator"] or "1 of them rolls" in counts["spectator"], counts
