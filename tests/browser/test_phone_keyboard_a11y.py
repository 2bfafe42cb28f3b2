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
        assert person.page.locator("#log").get_attribute("role") == "log", person.name
        controls = person.page.locator("input:not([type=hidden]), select, textarea, button").count()
        assert controls > 0
        missing = person.page.evaluate(accessible_names_js)
        assert missing == [], f"{person.name}'s page has unnamed controls: {missing}"
        duplicates = person.page.evaluate(duplicate_ids_js)
        assert duplicates == [], f"{person.name}'s page repeats ids: {duplicates}"


def test_focus_stays_where_the_player_went_while_a_roll_was_on_its_way(player_table):
    """On a slow connection a player rolls, then starts typing in the chat box before the
    roll's answer comes back. The answer must not pull focus (and the rest of their typing)
    back into the dice box."""
    table, gm, player = player_table
    page = player.page
    held = []
    page.route("**/roll/", lambda route: held.append(route))
    try:
        page.locator("#id_notation").fill("1d8")
        page.locator("#roll-form button[type=submit]").click()
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the roll request never left the page"

        page.locator("#id_text").click()
        page.keyboard.type("good ")
        page.evaluate(SETTLE_ON_ROLL_JS)
        held[0].continue_()
        page.wait_for_function("window.__rollSettled === true", timeout=10_000)
        page.keyboard.type("luck")
    finally:
        page.unroute("**/roll/")

    expect(player.entry("1d8").locator(".total")).to_have_count(1)
    focused = page.evaluate("document.activeElement && document.activeElement.id")
    typed = {"chat": page.locator("#id_text").input_value(), "dice": page.locator("#id_notation").input_value()}
    assert (focused, typed) == ("id_text", {"chat": "good luck", "dice": ""})


SETTLE_ON_ROLL_JS = """
() => {
  window.__rollSettled = false;
  document.addEventListener("htmx:afterSettle", function done(e) {
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (elt && elt.id === "roll-form") {
      // Let tabletop.js's own afterSettle listener run first.
      setTimeout(() => { window.__rollSettled = true; }, 0);
      document.removeEventListener("htmx:afterSettle", done);
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
