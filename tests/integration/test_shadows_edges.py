"""The edges of a Shadows of Humanity fight (issue 33), through the real views as the page posts
them and as each seat's page and live frames show them.

The decided reading "All systems, fights": "who is out is the system's to say (... 000 fallen
...); the out are not targets of a rule move unless a seed's rule allows it; when one side has no
one able to act, the fight is over". Seed 000: damage to Health is how "to put someone down (for
them to go unconscious or become physically "incapacitated")". The decided reading on counters:
"an unused counter lapses at the end of the round"."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from tabletop.models import Event
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tests.integration.test_shadows_table import cid, dealt_fight, ok, post, sh, state, t  # noqa: F401
from tests.support.frames import logged, seat_frame

pytestmark = pytest.mark.django_db
SEATS = ("gm", "ann", "bob", "watcher")


def page(sh: dict[str, Any], who: str) -> str:
    return sh["clients"][who].get(reverse("table", args=[sh["table"].pk])).content.decode()


def banner(text: str) -> str:
    """The turn banner's words, as the seat reads them."""
    found = re.search(r'<div id="turn-banner"[^>]*>(.*?)</div>', text, re.S)
    assert found is not None
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1)))).strip()


def attack_form(text: str, who: str) -> str:
    found = re.search(rf"<form[^>]*aria-label=\"Attack for {who}\".*?</form>", text, re.S)
    return found.group(0) if found else ""


def whom(text: str, who: str) -> tuple[list[str], str | None]:
    """``who``'s attack form's "Whom" list, and the name chosen in it before anyone touches it
    (a browser takes the first option when none is marked)."""
    select = re.search(r'name="target"[^>]*>(.*?)</select>', attack_form(text, who), re.S)
    assert select is not None, f"no attack form for {who}"
    options = re.findall(r"<option([^>]*)>([^<]*)</option>", select.group(1))
    chosen = [name for attrs, name in options if "selected" in attrs] or [options[0][1]]
    return [name for _, name in options], chosen[0]


def skill_chosen(text: str, who: str) -> str:
    select = re.search(r'name="skill">(.*?)</select>', attack_form(text, who), re.S)
    assert select is not None
    chosen = re.search(r'<option value="([^"]*)" selected>', select.group(1))
    return chosen.group(1) if chosen else ""


def fell_the_ghoul(sh: dict[str, Any]) -> list[Event]:
    """Alma's Swords 5 + Melee 6 against Defence 5 fells the Ghoul, which the GM brought to 2 Health."""
    ok(sh, "gm", "adjust", combatant=cid(sh["ghoul"]), field="health", value="2")
    ok(sh, "ann", "attack", combatant=cid(sh["alma"]), target=cid(sh["ghoul"]), weapon="Blade", skill="melee",
       cards=[t("S5")])
    with logged() as events:
        ok(sh, "gm", "defend", combatant=cid(sh["ghoul"]), cards=[])
    return list(events)


def test_the_whom_list_starts_on_a_standing_enemy_and_the_skill_on_the_best_attack_skill(sh) -> None:
    """Issue 33: "the first name in 'Whom' is a fellow PC, the Shadows skill defaults to 'none';
    one quick submit had Kestrel kill Oren". Bram (quickest last) was offered Alma first."""
    dealt_fight(sh)
    for who in ("gm", "bob"):
        names, first = whom(page(sh, who), "Bram")
        assert names == ["Ghoul", "Alma"] and first == "Ghoul", who
    assert whom(page(sh, "ann"), "Alma") == (["Ghoul", "Bram"], "Ghoul")
    assert whom(page(sh, "gm"), "Ghoul")[1] == "Alma"  # the Ghoul's foes are the PCs
    # Bram's best skill is Stealth 8, but his attack skill is Melee 5; the Ghoul's, Claws
    assert skill_chosen(page(sh, "bob"), "Bram") == "melee" and skill_chosen(page(sh, "ann"), "Alma") == "melee"
    assert skill_chosen(page(sh, "gm"), "Ghoul") == "claws"
    # a quick submit of Bram's form as it stands strikes the Ghoul, with Melee
    ok(sh, "bob", "attack", combatant=cid(sh["bram"]), target=cid(sh["ghoul"]), weapon="Blade", skill="melee",
       cards=[t("C9")])
    assert state(sh)["combat"]["pending"]["target"] == cid(sh["ghoul"])


def test_the_last_foe_fallen_every_seat_reads_the_fight_is_over_and_nothing_goes_on(sh) -> None:
    """Issue 33: "after the Ghoul died, Kestrel's attack form showed an empty 'Whom' list and the
    turn stayed on her". Now every seat reads that the fight is over, nobody is named next, no
    attack form is left (empty or not), no new round starts, and the GM ends the fight from the
    banner."""
    dealt_fight(sh)
    events = fell_the_ghoul(sh)
    over = "The fight is over: the PCs' side stands."
    for who in SEATS:
        text = page(sh, who)
        assert banner(text).startswith(over), (who, banner(text))
        assert not any(attack_form(text, name) for name in ("Alma", "Bram", "Ghoul")) and "Act now for" not in text, who
        assert 'id="shadows-over"' in text and "badge\">acts now" not in text
    # the GM's banner carries "End the fight"; no one else's does
    end_url = reverse("table_command", args=[sh["table"].pk, "end_combat"])
    assert f'class="fight-end" method="post" action="{end_url}"' in page(sh, "gm")
    assert all("fight-end" not in page(sh, who) for who in ("ann", "bob", "watcher"))
    assert "Next round" not in page(sh, "gm")
    # the live frames say so too, to each seat, with the tab's "Your turn" for nobody
    [resolved] = [e for e in events if e.kind == "shadows.attack_resolved"]
    for seat in (GM, SPECTATOR, Seat("player", sh["ann"].pk), Seat("player", sh["bob"].pk)):
        frame = seat_frame(resolved, seat) or ""
        assert "The fight is over: the PCs&#x27; side stands." in frame and "turn-mine" not in frame, seat
    # nothing carries the fight on: a new round, a deal, a blow at the fallen or at a friend
    for who, command, data, says in (
            ("gm", "new_round", {}, "The fight is over: the PCs' side stands: end the fight rather than start a new round."),
            ("gm", "deal", {}, "end the fight rather than deal the hands"),
            ("ann", "attack", {"combatant": cid(sh["alma"]), "target": cid(sh["ghoul"]), "weapon": "Blade",
                               "cards": [t("S12")]}, "Ghoul is down: choose someone still in the fight."),
            ("ann", "attack", {"combatant": cid(sh["alma"]), "target": cid(sh["bram"]), "weapon": "Blade",
                               "cards": [t("S12")]}, "end the fight rather than attack"),
            ("gm", "counter", {"character": sh["bram"].pk, "target": sh["ghoul"].pk, "suits": ["cups"]},
             "Ghoul is down and cannot be countered.")):
        before = Event.objects.filter(table=sh["table"]).count()
        refused = post(sh, who, command, **data)
        assert refused.status_code == 400 and says in html.unescape(refused.content.decode()), (command, refused.content)
        assert Event.objects.filter(table=sh["table"]).count() == before
    # the GM ends it: the banner goes, for everyone
    ok(sh, "gm", "end_combat")
    for who in SEATS:
        assert "The fight is over" not in page(sh, who)


def test_the_gm_moves_a_combatant_to_a_side_for_everyone_to_see_and_the_side_ends_with_the_fight(sh) -> None:
    """games/core/fights.py: "the GM may move one" to a side; a side is no secret; it belongs to
    the fight. Bram turns on Alma: with the Ghoul down, two sides still stand, and the fight goes on."""
    dealt_fight(sh)
    bram = sh["bram"].pk
    # the form is in the GM's fight tools, and only there
    assert 'id="set-side"' in page(sh, "gm") and all('id="set-side"' not in page(sh, w) for w in ("ann", "watcher"))
    refused = post(sh, "bob", "set_side", character=bram, side="Cult")
    assert refused.status_code in (400, 403) and "Only the GM" in html.unescape(refused.content.decode())
    for data, says in (({"character": bram, "side": ""}, "Name the side"),
                       ({"character": bram, "side": "x" * 41}, "at most 40 characters"),
                       ({"character": "999999", "side": "Cult"}, "Choose a character to move."),
                       ({"character": bram, "side": "PCs"}, "Bram is already on the PCs' side.")):
        answer = post(sh, "gm", "set_side", **data)
        assert answer.status_code == 400 and says in html.unescape(answer.content.decode()), data
    ok(sh, "gm", "set_side", character=bram, side="Cult")
    [moved] = Event.objects.filter(table=sh["table"], kind="shadows.side_set")
    assert moved.audience == "everyone" and moved.summary == "The GM moves Bram to the Cult's side."
    for who in SEATS:
        text = page(sh, who)
        assert '<span class="badge sh-side">on the Cult&#x27;s side</span>' in text, who
    assert whom(page(sh, "ann"), "Alma") == (["Ghoul", "Bram"], "Ghoul")
    assert whom(page(sh, "bob"), "Bram") == (["Alma", "Ghoul"], "Alma")
    fell_the_ghoul(sh)
    assert "The fight is over" not in banner(page(sh, "watcher"))
    assert whom(page(sh, "ann"), "Alma") == (["Bram"], "Bram")
    ok(sh, "gm", "new_round")  # two sides stand: the fight goes on
    ok(sh, "gm", "end_combat")
    assert "sides" not in state(sh)
    # a side belongs to a fight: none under way, none to move to
    answer = post(sh, "gm", "set_side", character=bram, side="Cult")
    assert answer.status_code == 400 and "No combat is under way" in answer.content.decode()


def test_a_side_is_only_for_someone_in_the_fight(sh) -> None:
    ok(sh, "gm", "set_weapons", table="Blade | physical | 0 | 3 | cups | muscle | 1 | steel")
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, sh["ghoul"].pk])
    answer = post(sh, "gm", "set_side", character=sh["bram"].pk, side="Cult")
    assert answer.status_code == 400 and "Only someone in the fight takes a side" in answer.content.decode()


def test_an_unused_counter_lapses_with_the_fight(sh) -> None:
    """The decided reading: "an unused counter lapses at the end of the round"; a fight's end
    ends its round."""
    dealt_fight(sh)
    ok(sh, "gm", "counter", character=sh["bram"].pk, target=sh["ghoul"].pk, suits=["cups"])
    assert [c["target"] for c in state(sh)["counters"]] == [cid(sh["ghoul"])]
    assert "Bram counters Ghoul's next draw" in page(sh, "ann")
    ok(sh, "gm", "end_combat")
    assert state(sh)["counters"] == [] and "counters Ghoul's next draw" not in page(sh, "ann")


def test_every_player_a_focus_waits_for_reads_your_turn_and_the_banner_names_them_all(sh) -> None:
    """Issue 33: "Shadows' focus step is simultaneous, but the banner and the tab title say
    'Kestrel chooses a focus (then 2 more)' and only Kestrel's player reads 'Your turn'"."""
    ok(sh, "gm", "start_combat", characters=[sh["alma"].pk, sh["ghoul"].pk, sh["bram"].pk])
    assert banner(page(sh, "ann")) == "Your turn: choose Alma's focus for this round."
    assert banner(page(sh, "bob")) == "Your turn: choose Bram's focus for this round."
    assert banner(page(sh, "gm")) == "Your turn: choose Ghoul's focus for this round."  # the GM plays the Ghoul
    assert banner(page(sh, "watcher")) == "Alma, Ghoul and Bram choose a focus."
    with logged() as events:
        ok(sh, "ann", "declare_focus", combatant=cid(sh["alma"]), focus="physical")
    assert banner(page(sh, "ann")) == "Ghoul and Bram choose a focus."
    assert banner(page(sh, "bob")) == "Your turn: choose Bram's focus for this round."
    # the live frame tells each seat the same
    [declared] = [e for e in events if e.kind == "shadows.focus_declared"]
    assert "Your turn:</strong> choose Bram&#x27;s focus" in seat_frame(declared, Seat("player", sh["bob"].pk))
    assert "turn-mine" not in seat_frame(declared, Seat("player", sh["ann"].pk))
    ok(sh, "gm", "declare_focus", combatant=cid(sh["ghoul"]), focus="physical")
    ok(sh, "bob", "declare_focus", combatant=cid(sh["bram"]), focus="physical")
    assert banner(page(sh, "gm")) == "Your turn: shuffle the Minor Arcana and deal the hands."


def test_two_checks_set_up_at_once_each_wait_for_their_own_player(sh) -> None:
    """Each player's check set up waits for that player's one card or three, at the same time."""
    ok(sh, "ann", "prepare_check", character=sh["alma"].pk, skill="stealth", attribute="quickness")
    ok(sh, "bob", "prepare_check", character=sh["bram"].pk, skill="stealth", attribute="quickness")
    assert banner(page(sh, "ann")) == "Your turn: draw one card or three for Alma."
    assert banner(page(sh, "bob")) == "Your turn: draw one card or three for Bram."
    assert banner(page(sh, "watcher")) == "Alma and Bram choose one card or three."
