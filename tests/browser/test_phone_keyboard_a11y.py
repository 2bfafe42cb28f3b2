"""The table on a phone, from the keyboard alone, and with a screen reader's needs."""

from __future__ import annotations

from playwright.sync_api import expect

PHONE_WIDTH = 390

OVERFLOW_JS = """
(limit) => [...document.querySelectorAll("body *")]
  .filter((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    // Content scrolled inside its own box (the log) is not page overflow.
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (["auto", "scroll", "hidden", "clip"].includes(s.overflowX)) return false;
    }
    return r.right > limit + 0.5;
  })
  .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}: right=${el.getBoundingClientRect().right}`)
"""


def _assert_fits(person):
    scroll_width = person.page.evaluate("document.documentElement.scrollWidth")
    overflowing = person.page.evaluate(OVERFLOW_JS, PHONE_WIDTH)
    assert scroll_width <= PHONE_WIDTH and not overflowing, (person.name, scroll_width, overflowing)
    person.assert_no_blank_below()


def test_the_table_works_and_fits_on_a_390_pixel_phone(make_table):
    table = make_table(gm_width=PHONE_WIDTH, gm_height=844)
    gm = table.gm
    player = table.join_player("Ann", width=PHONE_WIDTH, height=844)

    player.roll("4d10kh1")
    player.chat("On my phone")
    gm.roll("2d6+3")
    for person in (gm, player):
        expect(person.entry("4d10kh1").locator(".total")).to_have_count(1)
        expect(person.entry("On my phone")).to_have_count(1)
        expect(person.entry("2d6+3").locator(".total")).to_have_count(1)
        for control in ("#id_notation", "#id_mode", "#roll-form button", "#id_text", "#chat-form button"):
            box = person.page.locator(control).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH, (control, box)
        _assert_fits(person)

    # A pasted link is one long word; it wraps instead of widening the page.
    word = "https://example.org/" + "x" * 120
    player.chat(word)
    for person in (gm, player):
        expect(person.entry(word)).to_have_count(1)
        _assert_fits(person)


def test_a_player_reaches_the_dice_with_tab_and_rolls_with_enter(player_table):
    table, gm, player = player_table
    page = player.page
    page.locator("body").focus()

    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == "id_notation":
            break
    else:
        raise AssertionError("Tab never reached the dice input #id_notation")

    page.keyboard.type("2d10")
    page.keyboard.press("Enter")
    expect(player.entry("2d10").locator(".total")).to_have_count(1)
    expect(gm.entry("2d10").locator(".total")).to_have_count(1)

    # Focus comes back to the (new) dice input, so the next roll is just typing again.
    expect(page.locator("#id_notation")).to_be_focused()
    expect(page.locator("#id_notation")).to_have_value("")
    page.keyboard.type("1d3")
    page.keyboard.press("Enter")
    expect(player.entry("1d3").locator(".total")).to_have_count(1)


def test_the_log_is_a_live_region_and_every_control_has_an_accessible_name(
    full_table, accessible_names_js, duplicate_ids_js
):
    table, gm, player, spectator = full_table
    # Fill the page: a character to claim, a roll and a chat line, and live-inserted rows.
    gm.page.get_by_role("link", name="New character or NPC").click()
    gm.page.locator("#id_name").fill("Spare Hero")
    gm.page.get_by_role("button", name="Save").click()
    gm.page.wait_for_url(table.url)
    gm.wait_live()
    bo = table.join_player("Bo")  # arrives live on the other pages
    expect(gm.page.locator(f"#member-{bo.member_id}")).to_have_count(1)
    expect(player.page.locator("#characters article", has_text="Spare Hero")).to_have_count(1)
    player.roll("1d6")
    player.chat("hi")
    table.sync(player, gm, spectator, bo)

    for person in (gm, player, spectator, bo):
        # The log announces additions, also after live updates swapped entries into it.
        assert person.page.locator("#log").get_attribute("aria-live") in ("polite", "assertive"), person.name
        # a list of entries (axe: an <li> belongs to a list, which role="log" took away), read
        # out as it grows (aria-live)
        assert person.page.locator("#log").evaluate("el => el.tagName") == "OL", person.name
        controls = person.page.locator("input:not([type=hidden]), select, textarea, button").count()
        assert (controls > 0) == (person is not spectator), person.name  # a spectator is sent none
        missing = person.page.evaluate(accessible_names_js)
        assert missing == [], f"{person.name}'s page has unnamed controls: {missing}"
        duplicates = person.page.evaluate(duplicate_ids_js)
        assert duplicates == [], f"{person.name}'s page repeats ids: {duplicates}"


def test_focus_stays_where_the_player_went_while_a_roll_was_on_its_way(player_table):
    """On a slow connection a player rolls, then starts typing in the chat box before the
    roll's answer comes back. The answer must not pull focus (and the rest of their typing)
    back into the dice box. The roll goes as an act frame on the live socket; its answer is
    held on the way back."""
    table, gm, player = player_table
    page = player.page
    held: list[str] = []

    def hold_the_answer(message: str | bytes) -> bool:
        if isinstance(message, str) and 'id="socket-ack"' in message and not held:
            held.append(message)  # the roll's answer waits here
            return True
        return False

    routes = relay(page, to_page=hold_the_answer)
    player.wait_live()
    page.locator("#id_notation").fill("1d8")
    page.locator("#roll-form button[type=submit]").click()
    expect(player.entry("1d8").locator(".total")).to_have_count(1)  # the roll is done and shown
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the roll's answer never came"
    expect(page.locator("#roll-form")).to_have_attribute("aria-busy", "")

    page.locator("#id_text").click()
    page.keyboard.type("good ")
    page.evaluate(ANSWERED_JS)
    routes[-1].send(held[0])
    page.wait_for_function("window.__rollAnswered === true", timeout=10_000)
    page.keyboard.type("luck")

    focused = page.evaluate("document.activeElement && document.activeElement.id")
    typed = {"chat": page.locator("#id_text").input_value(), "dice": page.locator("#id_notation").input_value()}
    assert (focused, typed) == ("id_text", {"chat": "good luck", "dice": ""})
    expect(page.locator("#roll-form")).not_to_have_attribute("aria-busy", "")


def test_with_the_socket_down_the_dice_box_still_rolls_through_its_form(player_table):
    """While the socket cannot connect the page is not live, and the dice box posts its
    form as before: the roll is logged, the GM's live page shows it, and the player's own
    page shows it once its socket is back."""
    table, gm, player = player_table
    page = player.page
    down = [True]

    def socket(ws):
        if down[0]:
            ws.close(code=1011, reason="down")
        else:
            ws.connect_to_server()

    page.route_web_socket("**/ws/tables/**", socket)
    page.reload()
    expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    page.locator("#id_notation").fill("3d4")
    with page.expect_response(lambda r: r.url.endswith("/roll/") and r.request.method == "POST") as info:
        page.locator("#roll-form button[type=submit]").click()
    assert info.value.status == 204  # done; the page empties the form itself
    expect(page.locator("#id_notation")).to_have_value("")
    expect(gm.entry("3d4").locator(".total")).to_have_count(1)  # the GM's live page got it
    down[0] = False
    player.wait_live(timeout_ms=30_000)  # the ws extension retries with a growing delay
    expect(player.entry("3d4").locator(".total")).to_have_count(1)


def test_a_refused_roll_on_the_socket_shows_its_message_in_the_dice_box(player_table):
    table, gm, player = player_table
    page = player.page
    player.wait_live()
    page.locator("#id_notation").fill("2d6 + banana")
    assert player.submit("roll-form", "a bad roll") == "refused"
    error = page.locator("#roll-form .form-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).not_to_be_empty()
    assert page.locator("#id_notation").input_value() == "2d6 + banana"  # kept, to be fixed
    page.locator("#id_notation").fill("2d6")
    assert player.submit("roll-form", "a good roll") == "done"
    expect(error).to_have_count(0)
    expect(player.entry("2d6").locator(".total")).to_have_count(1)


def test_a_roll_whose_answer_a_dropped_socket_cut_off_says_so_and_is_not_resent(player_table):
    """The act frame never reaches the server and the socket drops: the dice box says the
    answer did not come and to check the log; the page sends nothing again by itself."""
    table, gm, player = player_table
    page = player.page
    acts: list[str] = []
    routes = relay(page, to_server=swallowing_acts(acts))
    player.wait_live()
    page.locator("#id_notation").fill("7d7")
    page.locator("#roll-form button[type=submit]").click()
    for _ in range(100):
        if acts:
            break
        page.wait_for_timeout(50)
    assert len(acts) == 1
    routes[-1].close(code=1011, reason="gone")
    expect(page.locator("#roll-form .form-error")).to_contain_text("check the log")
    player.wait_live(timeout_ms=30_000)
    table.sync(gm, player)
    assert len(acts) == 1  # not sent again on reconnect
    expect(gm.entry("7d7")).to_have_count(0)
    expect(player.entry("7d7")).to_have_count(0)


def relay(page, *, to_page=None, to_server=None) -> list:
    """Routes the page's table socket through Playwright to the server and reloads the page.
    A filter that returns True keeps that message back. Returns the routes, newest last."""
    routes = []

    def handler(ws) -> None:
        routes.append(ws)
        server = ws.connect_to_server()
        if to_page is not None:
            server.on_message(lambda message: None if to_page(message) else ws.send(message))
        if to_server is not None:
            ws.on_message(lambda message: None if to_server(message) else server.send(message))

    page.route_web_socket("**/ws/tables/**", handler)
    page.reload()
    return routes


def test_an_answer_that_never_comes_frees_the_dice_box_and_says_so(player_table):
    """The server never hears of the roll and the socket stays open: after the wait the dice
    box is usable again and tells the player to check the log, and nothing was sent twice."""
    table, gm, player = player_table
    page = player.page
    acts: list[str] = []
    relay(page, to_server=swallowing_acts(acts))
    player.wait_live()
    page.evaluate("document.getElementById('socket').dataset.answerTimeoutMs = '1500'")
    page.locator("#id_notation").fill("9d9")
    page.locator("#roll-form button[type=submit]").click()
    expect(page.locator("#roll-form button[type=submit]")).to_be_disabled()
    expect(page.locator("#roll-form .form-error")).to_contain_text("No answer yet")
    expect(page.locator("#roll-form button[type=submit]")).to_be_enabled()
    assert len(acts) == 1
    expect(player.page.locator("#connection")).to_have_attribute("data-state", "live")


def swallowing_acts(acts: list[str]):
    """A filter for ``relay``: keeps every act frame back (the server never hears of it)."""

    def swallow(message: str | bytes) -> bool:
        if isinstance(message, str) and '"type":"act"' in message.replace(" ", ""):
            acts.append(message)
            return True
        return False

    return swallow


ANSWERED_JS = """
() => {
  window.__rollAnswered = false;
  document.addEventListener("tabletop:answered", function done(e) {
    if (e.target.id === "roll-form") {
      // Let tabletop.js's own handling (focus) run first.
      setTimeout(() => { window.__rollAnswered = true; }, 0);
      document.removeEventListener("tabletop:answered", done);
    }
  });
}
"""


def test_the_character_form_names_its_fields_and_points_at_its_help(player_table, accessible_names_js):
    table, gm, player = player_table
    player.page.get_by_role("link", name="Create your character").click()
    player.page.wait_for_url(table.url + "characters/new/")
    assert player.page.evaluate(accessible_names_js) == []
    dangling = player.page.evaluate(
        """() => [...document.querySelectorAll("[aria-describedby]")].flatMap((el) =>
             el.getAttribute("aria-describedby").split(/\\s+/)
               .filter((id) => !document.getElementById(id))
               .map((id) => `${el.id} -> #${id}`))"""
    )
    assert dangling == [], f"aria-describedby points at nothing: {dangling}"
