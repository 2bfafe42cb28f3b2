"""Nobody receives what they may not see: not in the page, not in a socket frame."""

from __future__ import annotations

from playwright.sync_api import expect


def test_a_gm_only_roll_reaches_the_gm_alone(full_table):
    table, gm, player, spectator = full_table

    gm.roll("1d20+37", mode="gm")

    line = gm.entry("1d20+37")
    expect(line).to_have_count(1)
    expect(line.locator(".total")).to_have_count(1)
    event_id = line.get_attribute("id")
    assert event_id and event_id.startswith("event-")

    token = table.sync(player, gm, spectator)  # anything sent to them before this has arrived
    for person in (player, spectator):
        assert person.frames_with(token), f"{person.name}'s socket frames were not recorded"
        assert "1d20+37" not in person.log_text(), person.name
        assert person.frames_with("1d20+37") == [], person.name
        # Nor that it happened: their lines are numbered 1, 2, 3... with no gap where it was
        # (issue 11; the GM's line has the table's seq, which counts it)
        ids = person.page.locator("#log > li").evaluate_all("lines => lines.map(l => l.id)")
        assert ids == [f"event-{n}" for n in range(1, len(ids) + 1)], (person.name, ids)
        # Nor after a reload, from the page the server renders.
        person.page.reload(wait_until="domcontentloaded")
        person.wait_live()
        assert "1d20+37" not in person.page.content(), person.name


def test_a_blind_roll_shows_the_player_that_they_rolled_and_only_the_gm_the_result(full_table):
    table, gm, player, spectator = full_table

    player.roll("1d20+29", mode="blind")

    gm_line = gm.entry("1d20+29")
    expect(gm_line).to_have_count(1)
    expect(gm_line.locator(".die")).to_have_count(1)
    total = int(gm_line.locator(".total").inner_text())
    assert 30 <= total <= 49
    event_id = gm_line.get_attribute("id")

    mine = player.entry("1d20+29")
    expect(mine).to_have_count(1)
    # the player numbers it as their own first hidden line after the last public one (issue 11)
    my_id = mine.get_attribute("id")
    assert my_id.endswith(".1") and my_id != event_id, (my_id, event_id)
    expect(mine).to_contain_text("blind")
    expect(mine.locator(".total")).to_have_count(0)
    expect(mine.locator(".die")).to_have_count(0)
    frames = player.frames_with(f'id="{my_id}"')
    assert frames
    for frame in frames:
        assert 'class="total"' not in frame and 'class="die' not in frame, frame

    token = table.sync(gm, player, spectator)
    assert spectator.frames_with(token), "the spectator's socket frames were not recorded"
    assert "1d20+29" not in spectator.log_text()
    assert spectator.frames_with("1d20+29") == []
    assert spectator.frames_with(f'id="{my_id}"') == []
    ids = spectator.page.locator("#log > li").evaluate_all("lines => lines.map(l => l.id)")
    assert ids == [f"event-{n}" for n in range(1, len(ids) + 1)], ids  # no gap where it was

    # The server-rendered page keeps the same secrets.
    response = player.page.reload(wait_until="domcontentloaded")
    assert response is not None and response.status == 200
    player.wait_live()
    expect(player.entry("1d20+29")).to_have_count(1)
    expect(player.entry("1d20+29").locator(".total")).to_have_count(0)


def test_chat_markup_shows_as_text_and_never_runs(make_table):
    table = make_table()
    gm = table.gm
    player = table.join_player("<i>Mal</i>")
    spectator = table.join_spectator()
    everyone = (gm, player, spectator)
    payload = "<img src=x onerror=alert(1)>"

    player.chat(payload)

    for person in everyone:
        line = person.page.locator("#log li .chat-text", has_text=payload)
        expect(line).to_have_count(1)
        expect(line).to_have_text(payload)
        expect(person.page.locator("#log img")).to_have_count(0)
        # The display name is text too, in the log and in the member list.
        expect(person.page.locator("#log i, #members i")).to_have_count(0)
        expect(person.page.locator("#members .member-name", has_text="<i>Mal</i>")).to_have_count(1)

    for person in (gm, spectator):  # and again from the server-rendered page, both lenses
        person.page.reload(wait_until="domcontentloaded")
        person.wait_live()
        expect(person.page.locator("#log li .chat-text", has_text=payload)).to_have_count(1)
        expect(person.page.locator("#log img")).to_have_count(0)

    table.sync(player, gm, spectator)  # gives a late alert() time to fire
    for person in everyone:
        assert person.dialogs == [], f"{person.name} saw a dialog: {person.dialogs}"
        assert person.page_errors == [], f"{person.name}: {person.page_errors}"
