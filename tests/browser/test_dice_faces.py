"""Issue 23: "Dice as dice. Every roll shows its dice drawn as dice (d10, d20, d6, d100 as two
d10s), kept and dropped dice told apart, the best die marked where the system counts it, with a
short roll animation that respects prefers-reduced-motion. The same in the log line."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_a_roll_is_drawn_as_its_dice_and_tumbles_in_unless_motion_is_reduced(player_table, people) -> None:
    table, gm, ann = player_table
    calm = people.new("Calm")
    calm.page.emulate_media(reduced_motion="reduce")
    assert calm.goto(table.spectator_path) == 200
    calm.page.get_by_role("button", name="Start watching").click()
    calm.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    calm.wait_live()
    ann.roll("4d10kh1")
    ann.roll("1d100")
    ann.roll("1d20+2d6")
    for person in (gm, ann, calm):
        kh = person.entry("4d10kh1")
        expect(kh.locator(".die.d10")).to_have_count(4)
        expect(kh.locator(".die.dropped")).to_have_count(3)
        expect(kh.locator(".die:not(.dropped) polygon")).to_have_count(1)
        percent = person.entry("1d100")
        expect(percent.locator(".die.d10")).to_have_count(2)  # the tens and the units
        total = int(percent.locator(".total").inner_text())
        tens, units = percent.locator(".die text").all_text_contents()
        assert tens == f"{(total // 10) % 10}0" and units == str(total % 10)
        assert percent.locator(".die").first.get_attribute("aria-label") == f"{total} on a d100"
        mixed = person.entry("1d20+2d6")
        expect(mixed.locator(".die.d20")).to_have_count(1)
        expect(mixed.locator(".die.d6")).to_have_count(2)
    # a roll that came live tumbles in; not for a viewer who asked for less motion
    moving = ann.entry("1d20+2d6").locator(".die").first
    assert moving.evaluate("el => getComputedStyle(el).animationName") == "tumble"
    still = calm.entry("1d20+2d6").locator(".die").first
    assert still.evaluate("el => getComputedStyle(el).animationName") == "none"
    ann.page.reload()
    ann.wait_live()
    assert ann.entry("1d20+2d6").locator(".die").first.evaluate("el => getComputedStyle(el).animationName") == "none"
