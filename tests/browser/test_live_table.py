"""The table is live: what one person does, the others see without reloading."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_a_signed_up_gm_creates_a_table_and_finds_it_on_the_home_page(make_table, gm_account):
    table = make_table()
    gm = table.gm
    expect(gm.page.locator("h1")).to_contain_text(table.name)
    expect(gm.page.locator("body")).to_have_attribute("data-seat", "gm")
    expect(gm.page.locator("#links")).to_be_visible()
    assert "/join/" in table.player_link and "/watch/" in table.spectator_link
    assert table.player_link != table.spectator_link

    assert gm.goto("/") == 200
    row = gm.page.locator("ul.tables li", has_text=table.name)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("as GM")


def test_everyone_goes_live_and_sees_a_public_roll_without_a_reload(full_table):
    table, gm, player, spectator = full_table
    everyone = (gm, player, spectator)
    for person in everyone:
        connection = person.page.locator("#connection")
        expect(connection).to_have_attribute("data-state", "live")
        expect(connection).to_have_text(re.compile("live", re.I))
    for person in everyone:
        person.mark_page()
    before = {person.name: len(person.log_ids()) for person in everyone}

    player.roll("3d6+11")

    for person in everyone:
        line = person.entry("3d6+11")
        expect(line).to_have_count(1)
        expect(line.locator(".who")).to_have_text("Ann")
        expect(line.locator(".die")).to_have_count(3)
        total = int(line.locator(".total").inner_text())
        assert 14 <= total <= 29
        assert len(person.log_ids()) == before[person.name] + 1
        person.assert_not_reloaded()
    # Everyone sees the same dice.
    dice = {p.name: p.entry("3d6+11").locator(".dice").inner_text() for p in everyone}
    assert len(set(dice.values())) == 1, dice


def test_a_reload_shows_the_same_log_as_the_live_feed_built(full_table):
    table, gm, player, spectator = full_table
    player.roll("2d8")
    gm.roll("1d12", mode="gm")
    player.chat("Hello from Ann")
    table.sync(player, gm, spectator)

    for person in (gm, player, spectator):
        ids = person.log_ids()
        texts = _entry_texts(person)
        assert len(ids) == len(set(ids)), f"{person.name}'s log repeats an entry: {ids}"
        person.page.reload(wait_until="domcontentloaded")
        person.wait_live()
        assert person.log_ids() == ids, person.name
        assert _entry_texts(person) == texts, person.name

    # After the resume, new events still arrive once, after what was there.
    token = table.sync(gm, player, spectator)
    for person in (gm, player, spectator):
        ids = person.log_ids()
        assert len(ids) == len(set(ids)), f"{person.name}'s log repeats an entry after reload: {ids}"
        assert person.entry(token).get_attribute("id") == ids[-1]


def _entry_texts(person):
    return person.page.eval_on_selector_all(
        "#log li", "els => els.map(e => e.textContent.replace(/\\s+/g, ' ').trim())"
    )


def test_a_players_new_character_appears_live_on_the_gms_page(player_table):
    table, gm, player = player_table
    gm.mark_page()
    expect(gm.page.locator("#no-characters")).to_be_visible()

    player.page.get_by_role("link", name="Create your character").click()
    player.page.wait_for_url(re.compile(r"/characters/new/$"))
    player.page.locator("#id_name").fill("Vex the Unlucky")
    player.page.locator("#id_sheet_stats").fill("Grit: 3\nLuck: 0")
    with player.page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/characters/new/")
    ) as info:
        player.page.get_by_role("button", name="Save").click()
    if info.value.status != 302:
        player.page.wait_for_load_state()
        errors = player.page.locator(".form-error").all_inner_texts()
        raise AssertionError(f"the character form answered {info.value.status}: {errors}")
    player.page.wait_for_url(table.url)

    card = gm.page.locator("#characters article", has_text="Vex the Unlucky")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Played by Ann")
    expect(card.locator(".stats")).to_contain_text("Grit")
    expect(gm.page.locator("#no-characters")).to_have_count(0)
    expect(gm.entry("Vex the Unlucky")).to_have_count(1)
    gm.assert_not_reloaded()
    # The player's own page shows it after the redirect.
    expect(player.page.locator("#characters article", has_text="Vex the Unlucky")).to_have_count(1)


def bring_out(gm, kind: str, name: str):
    if not gm.page.locator("#deck-kind").is_visible():
        gm.page.get_by_text("Bring out a deck").click()
    form = gm.page.locator(".deck-tools form")
    form.locator("#deck-kind").select_option(kind)
    form.locator("#deck-name").fill(name)
    form.locator("input[name=players_may_use]").check()
    with gm.expect_answer("/decks/new/") as answer:
        form.get_by_role("button", name="Bring it out").click()
    return answer


def draw_one(person):
    form = person.page.locator(".deck form", has=person.page.get_by_role("button", name="Draw")).first
    form.locator("input[name=count]").fill("1")
    with person.expect_answer("/decks/draw/") as answer:
        form.get_by_role("button", name="Draw").click()
    return answer


def test_the_cards_controls_take_the_socket_while_live_and_post_while_it_is_down(player_table):
    """Issue 34, "One dispatch": every action takes the socket when the page has one, HTTP
    otherwise, with the same checks and answers. Live, the GM's deck and Ann's draw go as act
    frames and post nothing, and a refusal reads in the cards' notice line as a POST's would;
    with Ann's socket down, the same control posts, and is done the same."""
    table, gm, ann = player_table
    posted: list[str] = []
    for person in (gm, ann):
        person.page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    made = bring_out(gm, "minor_arcana", "Spares")
    assert (made.by, made.status) == ("socket", 200), made.body
    expect(ann.page.locator(".deck")).to_have_count(1)
    again = bring_out(gm, "tarot", "Spares")  # a second deck of the same name is refused
    assert (again.by, again.status) == ("socket", 400)
    expect(gm.page.locator("#cards-notice")).to_have_text("There is already a deck called Spares at this table.")
    drawn = draw_one(ann)
    assert (drawn.by, drawn.status) == ("socket", 200), drawn.body
    expect(gm.page.locator(f"#hand-count-{ann.member_id}")).to_have_text("1")
    assert posted == []

    down = [True]
    ann.page.route_web_socket("**/ws/tables/**", lambda ws: ws.close(code=1011, reason="down") if down[0]
                              else ws.connect_to_server())
    ann.page.reload()
    expect(ann.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    drawn = draw_one(ann)
    assert (drawn.by, drawn.status) == ("http", 200), drawn.body
    assert [url for url in posted if url.endswith("/decks/draw/")], posted
    expect(gm.page.locator(f"#hand-count-{ann.member_id}")).to_have_text("2")  # the GM's live page got it
    expect(ann.page.locator("#cards-notice")).to_have_text("")
    down[0] = False
