"""A session's close grants what each system's advancement says (issue 36, "Done means"), through
the platform's ``session.close`` (the GM's button and the close fields the GM's campaign box
draws), at a table of each system: a GM, Ann and Bob with the sample characters, a spectator.

The decided readings quoted:
- "000, 003, 004, advancement (the seeds give none): the GM awards experience at a session's
  close, with a reason, logged": the experience awarded on the sheets, a line for everyone;
- "002, advancement: Beats as the World of Darkness games count them (a Dramatic Failure, a
  session's end, a Storyteller's award)": a Beat to each player character present;
- "001, advancement: ... when the session closes the Director approves a rise of each marked
  skill's BASE (default +1, a table option), never past 95".
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop.models import Character, Event, PlaySession
from tests.support.kit import KitTable, fold, make_table, snapshot, stored_state

pytestmark = pytest.mark.django_db

AWARDING = ["shadows", "demon_city", "report_card"]


def pcs(kt: KitTable) -> list[Character]:
    return list(Character.objects.filter(table=kt.table, is_npc=False).order_by("pk"))


def sheet(character: Character) -> dict:
    character.refresh_from_db()
    return character.sheet


def page(kt: KitTable, seat) -> str:
    return seat.client.get(reverse("table", args=[kt.table.pk])).content.decode()


def open_session(kt: KitTable) -> None:
    assert kt.post(kt.gm, reverse("session_open", args=[kt.table.pk]), {}) == 200


def close(kt: KitTable, data: dict) -> int:
    return kt.post(kt.gm, reverse("session_close", args=[kt.table.pk]), data)


@pytest.mark.parametrize("system", AWARDING)
def test_the_close_grants_the_experience_the_gm_awards(system: str) -> None:
    kt = make_table(system, f"growth-close-{system}")
    ann, bob = pcs(kt)
    open_session(kt)
    gm_page = page(kt, kt.gm)
    for pc in (ann, bob):  # an amount for each player character, and one reason, in the GM's close
        assert f'name="xp_{pc.pk}" min="0" max="50" value="" form="session-close"' in gm_page
    assert 'name="xp_reason"' in gm_page
    assert all(f'name="xp_{npc.pk}"' not in gm_page for npc in kt.npcs)
    for seat in (*kt.players, kt.watcher):
        assert 'name="xp_reason"' not in page(kt, seat)
    # an award with no reason refuses the close, and changes nothing
    before = snapshot(kt.table)
    assert close(kt, {f"xp_{ann.pk}": "3"}) == 400
    assert snapshot(kt.table) == before and PlaySession.objects.get(table=kt.table).closed is None
    assert close(kt, {f"xp_{ann.pk}": "3", f"xp_{bob.pk}": "", "xp_reason": "survived the mill"}) == 200
    assert (sheet(ann)["xp"], sheet(bob).get("xp", 0)) == (3, 0)
    awarded = Event.objects.get(table=kt.table, kind=f"{system}.experience_awarded")
    assert awarded.summary == f"The GM awards {ann.name} 3 experience: survived the mill."
    assert awarded.audience == "everyone"
    assert PlaySession.objects.get(table=kt.table).closed is not None
    assert fold(kt.table) == stored_state(kt.table)


@pytest.mark.parametrize("system", AWARDING)
def test_the_gm_awards_experience_from_the_campaign_box_and_no_one_else_may(system: str) -> None:
    kt = make_table(system, f"growth-award-{system}")
    ann, _ = pcs(kt)
    url = reverse("campaign_command", args=[kt.table.pk, "award"])
    assert url in page(kt, kt.gm) and url not in page(kt, kt.players[0])
    data = {"character": str(ann.pk), "amount": "4", "reason": "held the door"}
    before = snapshot(kt.table)
    assert kt.post(kt.players[0], url, data) == 400  # only the GM awards
    assert kt.post(kt.watcher, url, data) == 403
    assert kt.post(kt.gm, url, {**data, "amount": "60"}) == 400
    assert kt.post(kt.gm, url, {"character": str(kt.npcs[0].pk), "amount": "4", "reason": "x"}) == 400
    assert snapshot(kt.table) == before
    assert kt.post(kt.gm, url, data) == 200
    assert sheet(ann)["xp"] == 4
    assert ("Experience", "4") in kt.game.glance(sheet(ann)).stats  # on the character's card


def test_harsh_lights_close_gives_a_beat_to_each_player_character_present() -> None:
    kt = make_table("harsh_light", "growth-close-hl")
    ann, bob = pcs(kt)
    open_session(kt)
    assert close(kt, {"absent": [f"c{bob.pk}"]}) == 200
    assert (sheet(ann)["beats"], sheet(bob).get("beats", 0)) == (1, 0)
    assert Event.objects.filter(table=kt.table, kind="harsh_light.beats_gained").count() == 1
    assert all(not sheet(npc).get("beats") for npc in kt.npcs)


class Dice:
    """The platform's rng, scripted: each d100 in turn."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


def test_passages_close_raises_a_marked_skill_the_director_approves(monkeypatch) -> None:
    kt = make_table("passages", "growth-close-passages")
    trayer, betty = pcs(kt)
    open_session(kt)
    monkeypatch.setattr("tabletop.actions.system_rng", lambda: Dice(40))
    checked = kt.post(kt.players[0], reverse("table_check", args=[kt.table.pk, "check"]),
                      {"character": str(trayer.pk), "skill": "Campfire", "mode": "check"})
    assert checked == 200
    assert f'name="approve" value="c{trayer.pk}:Campfire" form="session-close" checked' in page(kt, kt.gm)
    assert close(kt, {"approving": "1", "approve": [f"c{trayer.pk}:Campfire"]}) == 200
    assert sheet(trayer)["skills"]["Campfire"] == 34
    rise = Event.objects.get(table=kt.table, kind="passages.skills_advanced")
    assert rise.summary == "The session closes; skills used in earnest rise: Trayer's Campfire 33 → 34."
    assert fold(kt.table) == stored_state(kt.table)
