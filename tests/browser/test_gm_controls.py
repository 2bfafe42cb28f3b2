"""The GM manages the table: removes a member, replaces a link."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_a_removed_player_is_cut_off_at_once_and_cannot_come_back(full_table):
    table, gm, player, spectator = full_table
    member_id = player.member_id
    row = gm.page.locator(f"#member-{member_id}")
    expect(row).to_contain_text("Ann")

    row.locator("details summary").click()
    remove = row.get_by_role("button", name="Remove Ann")

    # Dismissing the confirmation changes nothing.
    gm.accept_dialogs = False
    remove.click()
    table.sync(player, gm, spectator)
    assert any("Remove Ann" in d for d in gm.dialogs), gm.dialogs
    player.wait_live()
    expect(row).to_have_count(1)

    gm.accept_dialogs = True
    with gm.page.expect_response(lambda r: "/remove/" in r.url) as info:
        remove.click()
    assert info.value.status == 200

    expect(player.page.locator("#connection")).to_have_attribute("data-state", "closed")
    expect(gm.page.locator(f"#member-{member_id}")).to_have_count(0)
    expect(spectator.page.locator(f"#member-{member_id}")).to_have_count(0)
    expect(gm.entry("removed Ann")).to_have_count(1)
    gm.wait_live()
    spectator.wait_live()
    # The removed player's page does not try to reconnect behind their back.
    table.sync(gm, spectator)
    expect(player.page.locator("#connection")).to_have_attribute("data-state", "closed")

    assert player.goto(table.url) == 403
    assert player.goto(table.player_link) == 403


def test_a_new_player_link_retires_the_old_one(player_table):
    table, gm, player = player_table
    old_link = table.player_link
    link_input = gm.page.locator("#link-player")
    assert link_input.input_value() == old_link
    # issue 13, bug 2: the QR code draws (it had been a broken image: no xmlns)
    gm.page.get_by_text("QR code", exact=False).first.click()
    qr = gm.page.get_by_alt_text("QR code of the Player link")
    expect(qr).to_be_visible()
    gm.page.wait_for_function("img => img.complete", arg=qr.element_handle())
    assert qr.evaluate("img => img.naturalWidth") > 0

    gm.accept_dialogs = True
    gm.page.get_by_role("button", name="New player link").click()
    expect(link_input).not_to_have_value(old_link)
    new_link = link_input.input_value()
    assert re.search(r"/join/[^/]+/$", new_link), new_link
    assert any("Replace the player link" in d for d in gm.dialogs), gm.dialogs
    # The spectator link is untouched.
    assert gm.page.locator("#link-spectator").input_value() == table.spectator_link

    stranger = table.people.new("stranger")
    assert stranger.goto(old_link) == 404

    table.player_link = new_link
    bo = table.join_player("Bo")
    expect(gm.page.locator(f"#member-{bo.member_id}")).to_contain_text("Bo")

    # A player who came in through the old link keeps their seat.
    player.page.reload(wait_until="domcontentloaded")
    player.wait_live()
    assert player.goto(table.url) == 200
