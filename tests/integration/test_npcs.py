"""Issue 36, "NPCs in numbers": "Copy an NPC; add N from one sheet with numbered names, each its
own combatant and token; reset one's tracks; retire the fallen (gone from lists and the scene,
kept in the log); a bestiary per GM: an NPC saved once and brought to any of the GM's tables of
the same system. NPC secrecy holds for every copy." Before it, NPCs were made one by one, the
dead could not be removed, and a reused NPC kept its damage ("one ended a run at 21 Wounds").

Through the real doors: the htmx POSTs of the GM's NPC tools and the act frames of the table's
socket (tabletop/actions.py), with the sample characters of each system (games/<key>/samples.py).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import registry
from tabletop import services
from tabletop.feed import panels
from tabletop.feed.seat import GM, SPECTATOR, seat_of
from tabletop.models import BestiaryEntry, Character, Deck, Event, Role, Scene, Token
from tabletop.selectors import procedure_state
from tests.integration.test_contract_kit import OOB, bytes_of
from tests.integration.test_demon_city_fights_end import Dice  # a scripted Rng, so a test stages a hit
from tests.support.frames import logged, seat_frame
from tests.support.kit import SENTINEL, KitTable, make_table
from tests.support.pictures import picture

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def post(kt: KitTable, who: str, name: str, data: dict[str, Any]) -> tuple[int, str]:
    """An htmx POST of one of the NPC tools (``npc.copy``, ``bestiary.bring``...) by a seat."""
    kind, _, action = name.partition(".")
    seat = {s.name: s for s in kt.seats}[who]
    answer = seat.client.post(reverse(f"{kind}_action", args=[kt.table.pk, action]), data, **HTMX)
    return answer.status_code, html.unescape(answer.content.decode())


def npcs(kt: KitTable) -> list[Character]:
    return list(Character.objects.filter(table=kt.table, is_npc=True).order_by("pk"))


def named(kt: KitTable, name: str) -> Character:
    return Character.objects.get(table=kt.table, name=name)


def page(kt: KitTable, who: str) -> str:
    seat = {s.name: s for s in kt.seats}[who]
    return seat.client.get(reverse("table", args=[kt.table.pk])).content.decode()


def board(kt: KitTable, name: str = "The Crypt", show: bool = True) -> Scene:
    scene = services.scene_create(table=kt.table, actor=kt.gm.member, name=name, colour="#333333")
    if show:
        services.scene_show(scene=scene, actor=kt.gm.member)
    return scene


def state(kt: KitTable) -> tuple:
    """Everything a refusal must leave as it was."""
    return (list(Event.objects.filter(table=kt.table).values_list("seq", flat=True)),
            list(Character.objects.filter(table=kt.table).values_list("pk", "name", "sheet", "retired", "version")),
            list(Token.objects.filter(scene__table=kt.table).values_list("pk", "character_id", "x", "y")),
            list(BestiaryEntry.objects.order_by("pk").values_list("pk", "owner_id", "system", "name", "sheet")),
            list(Deck.objects.filter(table=kt.table).values_list("pk", flat=True)))


def cid(character: Character) -> str:
    return f"c{character.pk}"


def command(kt: KitTable, rng: Any, **cmd: Any) -> list[Event]:
    return services.procedure_command(table=kt.table, actor=kt.gm.member, command=cmd, rng=rng)


def kit(system: str, tag: str) -> KitTable:
    """A table of ``system`` with its sample characters (tests/support/kit.py), its GM called Gail."""
    kt = make_table(system, tag)
    services.membership_rename(target=kt.gm.member, actor=kt.gm.member, display_name="Gail")
    kt.gm.member.refresh_from_db()
    return kt


@pytest.fixture
def dc() -> KitTable:
    """A Demon City table: Ann plays Alfie, Bob plays Betty, the GM has the Demon (sheet behind the
    screen, its skills carrying the kit's marker word)."""
    return kit("demon_city", "dc")


# Copy


def test_a_copy_is_a_new_npc_with_the_same_sheet_and_portrait_fresh_tracks_and_a_numbered_name(dc) -> None:
    """Seed 003: "So if you have Base and Current Toughness 3"; a copy starts whole whatever its
    original went through (issue 36: "a reused NPC keeps its damage")."""
    demon = dc.npcs[0]
    services.character_update(character=demon, actor=dc.gm.member, name="Demon",
                              sheet={**demon.sheet, "current_toughness": -2, "out_of_fight": True, "injured": True})
    services.character_portrait(character=demon, actor=dc.gm.member,
                                image=SimpleUploadedFile("d.png", picture(size=(40, 40)), content_type="image/png"))
    demon.refresh_from_db()
    first = Event.objects.filter(table=dc.table).latest("seq").seq
    status, body = post(dc, "gm", "npc.copy", {"character": demon.pk})
    assert status == 200, body
    copy = named(dc, "Demon 2")
    assert copy.is_npc and copy.owner is None and not copy.retired
    kept = {"current_toughness", "out_of_fight", "injured", "injury"}
    assert {k: v for k, v in copy.sheet.items() if k not in kept} == {k: v for k, v in demon.sheet.items() if k not in kept}
    assert (copy.sheet["current_toughness"], copy.sheet["out_of_fight"], copy.sheet["injured"]) == (None, False, False)
    glance = registry.get("demon_city").glance(copy.sheet)
    assert glance.tracks == (("Toughness", 3, 3),) and not glance.out
    # a picture of its own, the same as the original's
    assert copy.portrait.name and copy.portrait.name != demon.portrait.name
    assert copy.portrait.read() == demon.portrait.read()
    # one line, the same for everyone: its names are everyone's, its sheet the GM's
    (line,) = Event.objects.filter(table=dc.table, seq__gt=first)
    assert (line.kind, line.summary, line.private_summary) == ("npcs.added", "Gail copies Demon: Demon 2.", "")
    # the copy of the copy is the next number
    assert post(dc, "gm", "npc.copy", {"character": copy.pk})[0] == 200
    assert [c.name for c in npcs(dc)] == ["Demon", "Demon 2", "Demon 3"]


def test_a_copy_is_its_own_combatant_for_the_rules(dc) -> None:
    """Seed 003: "Whatever entity involved has the lowest Agility ... announces": each copy is an
    entity of its own in Action Rounds."""
    demon = dc.npcs[0]
    post(dc, "gm", "npc.copy", {"character": demon.pk})
    copy = named(dc, "Demon 2")
    start = reverse("table_command", args=[dc.table.pk, "start"])
    answer = dc.gm.client.post(start, {"characters": [demon.pk, copy.pk, *[c.pk for c in Character.objects.filter(
        table=dc.table, is_npc=False)]]}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    roster = panels.current(dc.table, dc.gm.member)
    assert {cid(demon), cid(copy)} <= set(roster["controllers"])
    assert {cid(demon), cid(copy)} <= set(procedure_state(dc.table)["combatants"])


# Add N


def test_three_from_one_sheet_are_numbered_each_its_own_character_with_a_token_spread_on_the_shown_scene(dc) -> None:
    scene = board(dc)
    demon = dc.npcs[0]
    services.token_place(scene=scene, character=demon, actor=dc.gm.member)
    # a name taken is skipped, in any case
    services.character_create(table=dc.table, actor=dc.gm.member, name="demon 2", sheet=demon.sheet, npc=True)
    first = Event.objects.filter(table=dc.table).latest("seq").seq
    with logged() as events:
        status, body = post(dc, "gm", "npc.add", {"character": demon.pk, "count": "3"})
    assert status == 200, body
    made = [named(dc, n) for n in ("Demon 1", "Demon 3", "Demon 4")]
    assert all(m.is_npc and m.sheet == made[0].sheet for m in made)
    assert len({m.pk for m in made}) == 3
    tokens = list(Token.objects.filter(scene=scene, character__in=made))
    assert len(tokens) == 3 and not any(t.hidden for t in tokens)
    spots = {(t.x, t.y) for t in Token.objects.filter(scene=scene)}
    assert len(spots) == 4  # none stands on another, nor on the Demon's
    # one line for the lot, which every seat reads
    (line,) = [e for e in Event.objects.filter(table=dc.table, seq__gt=first) if not e.kind.startswith("deck.")]
    assert line.kind == "npcs.added"
    assert line.summary == "Gail brings in Demon 1, Demon 3 and Demon 4, their tokens on The Crypt."
    # Ann's page, live: three cards and three tokens, none of their figures
    frame = seat_frame(events[0], seat_of(dc.players[0].member)) or ""
    for m in made:
        assert f'id="character-{m.pk}"' in frame
    for t in tokens:
        assert f'id="token-{t.pk}"' in frame
    assert SENTINEL not in frame and "Its sheet is the GM" in frame
    # each its own combatant: every seat's panel lists them; the task form offers each to the GM
    view = panels.current(dc.table, dc.players[0].member)
    assert {m.pk for m in made} <= {c["id"] for c in view["characters"]}


def test_added_npcs_with_hidden_tokens_or_on_a_scene_not_shown_are_the_gms(dc) -> None:
    board(dc)
    demon = dc.npcs[0]
    with logged() as events:
        assert post(dc, "gm", "npc.add", {"character": demon.pk, "count": "2", "hidden": "on"})[0] == 200
    line = events[0]
    assert line.summary == "Gail brings in Demon 1 and Demon 2."
    assert line.private_summary == "Gail brings in Demon 1 and Demon 2, their tokens on The Crypt (hidden: only you see them)."
    hidden = list(Token.objects.filter(character__name__in=["Demon 1", "Demon 2"]))
    assert len(hidden) == 2 and all(t.hidden for t in hidden)
    for seat in (seat_of(dc.players[0].member), SPECTATOR):
        frame = seat_frame(line, seat) or ""
        assert "token-" not in frame and "The Crypt" not in frame
    assert all(f'id="token-{t.pk}"' in (seat_frame(line, GM) or "") for t in hidden)
    # the GM may pick a scene not shown: its tokens are the GM's too
    backstage = board(dc, "Backstage", show=False)
    with logged() as events:
        assert post(dc, "gm", "npc.add", {"character": demon.pk, "count": "1", "scene": backstage.pk})[0] == 200
    assert Token.objects.get(scene=backstage).character.name == "Demon 3"
    assert "Backstage" not in events[0].summary and "Backstage" in events[0].private_summary


# Reset, per system


def damaged_then_reset(system: str, harm: dict[str, Any]) -> tuple[Character, Character, Event]:
    """The system's sample NPC, harmed by the GM's edit of what its rules keep, then reset: the
    sheet before the reset, after it, and the reset's line."""
    kt = kit(system, f"r-{system}")
    npc = kt.npcs[0]
    services.character_update(character=npc, actor=kt.gm.member, name=npc.name, sheet={**npc.sheet, **harm})
    npc.refresh_from_db()
    before = Character.objects.get(pk=npc.pk)
    assert all(before.sheet.get(k) == v for k, v in harm.items())
    status, body = post(kt, "gm", "npc.reset", {"character": npc.pk})
    assert status == 200, body
    npc.refresh_from_db()
    line = Event.objects.filter(table=kt.table).latest("seq")
    assert line.kind == "character.reset"
    # nothing but the tracks changed; a second reset has nothing to do
    kept = {f.key for f in registry.get(system).sheet_fields if f.rules == "kept"}
    assert {k: v for k, v in npc.sheet.items() if k not in kept} == {k: v for k, v in before.sheet.items() if k not in kept}
    status, body = post(kt, "gm", "npc.reset", {"character": npc.pk})
    assert status == 400 and f"{npc.name}'s tracks are fresh already." in body
    return before, npc, line


def test_demon_city_reset_brings_current_toughness_back_to_base() -> None:
    """Seed 003: "So if you have Base and Current Toughness 3"; the decided reading: "Current
    Toughness returns to Base"; the sheet: "Empty means equal to Base Toughness"."""
    before, after, line = damaged_then_reset("demon_city", {"current_toughness": -4, "injured": True,
                                                            "out_of_fight": True, "injury": "Bleeding out"})
    assert (after.sheet["current_toughness"], after.sheet["injured"], after.sheet["out_of_fight"],
            after.sheet["injury"]) == (None, False, False, "")
    glance = registry.get("demon_city").glance(after.sheet)
    assert glance.tracks == (("Toughness", 3, 3),) and not glance.out and glance.tags == ("Supernatural",)
    # the Demon's sheet is the GM's: the others read that it is whole, the GM its figures
    assert line.summary == "Gail sets Demon's tracks back to fresh."
    assert line.private_summary.startswith("Gail sets Demon's tracks back to fresh: Current Toughness -4 → blank")


def test_shadows_reset_makes_health_life_and_aessence_whole() -> None:
    """Seed 000 gives Health, Life and Æssence; the decided reading: "A fallen character stays
    fallen until the GM raises them (a rule move, logged)": the reset is the GM's, logged."""
    _, after, line = damaged_then_reset("shadows", {"health_now": 0, "life_now": 7, "aessence_now": 3})
    assert (after.sheet["health_now"], after.sheet["life_now"], after.sheet["aessence_now"]) == (None, None, None)
    assert not registry.get("shadows").glance(after.sheet).out
    assert "Health now 0 → blank" in line.private_summary


def test_passages_reset_fills_wounds_and_fatigue_and_ends_untended_wounds() -> None:
    """Seed 001: "On the Persona Sheet, Wounds and Fatigue each has a track of 20 5% spaces"; the
    decided reading models each track "as 100 points"; the issue's NPC "ended a run at 21 Wounds"."""
    _, after, _ = damaged_then_reset("passages", {"wounds": 21, "fatigue": 10, "untended": 3})
    assert (after.sheet["wounds"], after.sheet["fatigue"], after.sheet["untended"]) == (100, 100, 0)


def test_harsh_light_reset_gives_back_willpower_and_heals_every_wound() -> None:
    """Seed 002: "Spending a point of Willpower adds 3 to your pool"; a fresh NPC has all of it,
    and no bashing, lethal or aggravated wound."""
    harm = {"willpower_points": 1, "bashing": 2, "lethal": 1, "aggravated": 1, "unconscious": True}
    _, after, _ = damaged_then_reset("harsh_light", harm)
    assert after.sheet["willpower_points"] in (None, "")
    assert (after.sheet["bashing"], after.sheet["lethal"], after.sheet["aggravated"], after.sheet["unconscious"]) == (
        0, 0, 0, False)


def test_report_card_reset_empties_the_corruption_circles() -> None:
    """Seed 004: "Players can mark Corruption Points on the "Skill Corruption" box"; an NPC
    reused starts with its circles empty."""
    _, after, _ = damaged_then_reset("report_card", {"corruption": 2})
    assert after.sheet["corruption"] == 0


def test_a_reset_is_refused_while_the_fight_holds_the_npc_and_for_a_player_s_character(dc) -> None:
    demon, alfie = dc.npcs[0], Character.objects.get(table=dc.table, name="Alfie")
    services.character_update(character=demon, actor=dc.gm.member, name="Demon",
                              sheet={**demon.sheet, "current_toughness": 1})
    command(dc, Dice([]), type="start", combatants=[cid(demon), cid(alfie)], injuries_count=False)
    before = state(dc)
    status, body = post(dc, "gm", "npc.reset", {"character": demon.pk})
    assert status == 400 and "Demon is in the fight under way: reset its tracks once the fight is over." in body
    status, body = post(dc, "gm", "npc.reset", {"character": alfie.pk})
    assert status == 400 and "Alfie is not an NPC" in body
    assert state(dc) == before
    # the decided reading "003, damage belongs to the fight": "when a fight ends, Current Toughness
    # returns to Base for everyone not out of it": nothing is left to reset
    command(dc, Dice([]), type="end")
    status, body = post(dc, "gm", "npc.reset", {"character": demon.pk})
    assert status == 400 and "Demon's tracks are fresh already." in body
    services.character_update(character=demon, actor=dc.gm.member, name="Demon",
                              sheet={**named(dc, "Demon").sheet, "current_toughness": -1, "injury": "Bleeding out"})
    assert post(dc, "gm", "npc.reset", {"character": demon.pk})[0] == 200


# Retire


def test_a_retired_npc_leaves_the_lists_the_forms_and_the_scene_live_and_the_log_keeps_it(dc) -> None:
    scene = board(dc)
    demon = dc.npcs[0]
    token = services.token_place(scene=scene, character=demon, actor=dc.gm.member)
    with logged() as events:
        status, body = post(dc, "gm", "npc.retire", {"character": demon.pk})
    assert status == 200, body
    demon.refresh_from_db()
    assert demon.retired and not Token.objects.filter(pk=token.pk).exists()
    (line,) = events
    assert (line.kind, line.summary) == ("characters.retired", "Gail retires Demon: gone from the lists and the scene.")
    ann = seat_of(dc.players[0].member)
    frame = seat_frame(line, ann) or ""
    assert f'<article id="character-{demon.pk}" hx-swap-oob="delete">' in frame
    assert f'<span id="token-{token.pk}" hx-swap-oob="delete">' in frame
    gm_frame = seat_frame(line, GM) or ""
    assert 'id="npc-retired"' in gm_frame and "Bring back" in gm_frame and "npc-retired" not in frame
    # gone from every list and form: the cards, the panel's characters, the scene's tools
    for who in ("gm", "ann", "watcher"):
        assert f'id="character-{demon.pk}"' not in page(dc, who)
    assert demon.pk not in [c["id"] for c in panels.current(dc.table, dc.gm.member)["characters"]]
    assert f'<option value="{demon.pk}">' not in page(dc, "gm").split('id="place-character"')[1].split("</select>")[0]
    start = reverse("table_command", args=[dc.table.pk, "start"])
    assert dc.gm.client.post(start, {"characters": [demon.pk]}, **HTMX).status_code == 400
    # the log still names it, for everyone, and in the exports
    assert "Gail retires Demon" in page(dc, "ann")
    export = b"".join(dc.players[0].client.get(reverse("export", args=[dc.table.pk, "md"])).streaming_content).decode()
    assert "Gail retires Demon" in export
    # the GM brings it back: its card again, for every seat (its sheet still the GM's)
    with logged() as events:
        assert post(dc, "gm", "npc.return", {"character": demon.pk})[0] == 200
    (back,) = events
    assert back.summary == "Gail brings Demon back to the table."
    assert f'id="character-{demon.pk}"' in (seat_frame(back, ann) or "") and SENTINEL not in (seat_frame(back, ann) or "")
    assert f'id="character-{demon.pk}"' in page(dc, "ann")
    assert "No one retired." in (seat_frame(back, GM) or "")


def test_a_character_standing_in_the_fight_is_not_retired_one_out_of_it_is(dc) -> None:
    """The decided reading "All systems, fights": "who is out is the system's to say (003 out of the
    fight or dead ...)". Seed 003: "At Current Toughness -1 they are out of the fight"."""
    demon, alfie = dc.npcs[0], Character.objects.get(table=dc.table, name="Alfie")
    command(dc, Dice([]), type="start", combatants=[cid(demon), cid(alfie)], injuries_count=False)
    before = state(dc)
    status, body = post(dc, "gm", "npc.retire", {"character": demon.pk})
    assert status == 400 and "Demon is in the fight under way and can still act" in body
    assert state(dc) == before
    command(dc, Dice([]), type="set_condition", combatant=cid(demon), field="out_of_fight", value=True)
    assert post(dc, "gm", "npc.retire", {"character": demon.pk})[0] == 200
    # the fight's state still names it, and the fight goes on and ends
    view = panels.current(dc.table, dc.gm.member)
    assert "Demon" in json.dumps(view)
    assert dc.gm.client.get(reverse("table", args=[dc.table.pk])).status_code == 200
    with logged() as events:
        command(dc, Dice([]), type="end")
    # a write-back that names it takes no card back onto a page
    for e in events:
        for seat in (GM, seat_of(dc.players[0].member)):
            assert f'<article id="character-{demon.pk}" class=' not in (seat_frame(e, seat) or "")
    assert f'id="character-{demon.pk}"' not in page(dc, "gm")


def test_retire_the_fallen_retires_every_npc_out_of_the_fight_in_one_line(dc) -> None:
    scene = board(dc)
    demon = dc.npcs[0]
    post(dc, "gm", "npc.add", {"character": demon.pk, "count": "3"})
    one, two, three = (named(dc, f"Demon {n}") for n in (1, 2, 3))
    alfie = Character.objects.get(table=dc.table, name="Alfie")
    command(dc, Dice([]), type="start", combatants=[cid(c) for c in (one, two, three, alfie)], injuries_count=False)
    for fallen in (one, three):
        command(dc, Dice([]), type="set_condition", combatant=cid(fallen), field="out_of_fight", value=True)
    tokens = {t.character_id: t.pk for t in Token.objects.filter(scene=scene)}
    with logged() as events:
        status, body = post(dc, "gm", "npc.retire", {"fallen": "1"})
    assert status == 200, body
    (line,) = events
    assert line.summary == "Gail retires the fallen: Demon 1 and Demon 3."
    assert [c.name for c in Character.objects.filter(table=dc.table, retired=True)] == ["Demon 1", "Demon 3"]
    frame = seat_frame(line, SPECTATOR) or ""
    for gone in (one, three):
        assert f'<span id="token-{tokens[gone.pk]}" hx-swap-oob="delete">' in frame
    assert f"token-{tokens[two.pk]}" not in frame
    # no one else is out: a second press says so and changes nothing
    before = state(dc)
    status, body = post(dc, "gm", "npc.retire", {"fallen": "1"})
    assert status == 400 and "No NPC is out of the fight" in body
    assert state(dc) == before
    # after the fight, whoever its end leaves out (Current Toughness past -1) is fallen too
    command(dc, Dice([]), type="end")
    services.character_update(character=two, actor=dc.gm.member, name=two.name,
                              sheet={**named(dc, "Demon 2").sheet, "current_toughness": -2})
    assert post(dc, "gm", "npc.retire", {"fallen": "1"})[0] == 200
    assert named(dc, "Demon 2").retired and not named(dc, "Demon").retired


def swapped_into_nothing(frame: str, ids: set[str]) -> set[str]:
    """The ids a frame swaps out of band into elements neither the page holds nor the frame drew
    before (a new card's conditions, redrawn with the panel after the card itself)."""
    missing = set()
    for match in OOB.finditer(frame):
        target = match.group(1) or match.group(2)
        if "data-upsert-into" not in match.group(0) and target not in ids \
                and frame.find(f'id="{target}"') >= match.start():
            missing.add(target)
    return missing


def test_every_frame_of_the_npc_tools_swaps_into_what_its_seat_s_page_holds(dc) -> None:
    """Issue 23: no htmx:oobErrorNoTarget: each element a frame swaps in by id is on the page of the
    seat it is sent to (as the page stood before the event)."""
    board(dc)
    demon = dc.npcs[0]
    steps = [("npc.add", lambda: {"character": demon.pk, "count": "2"}),
             ("npc.copy", lambda: {"character": demon.pk}),
             ("npc.retire", lambda: {"character": named(dc, "Demon 1").pk}),
             ("npc.return", lambda: {"character": named(dc, "Demon 1").pk}),
             ("bestiary.save", lambda: {"character": demon.pk}),
             ("bestiary.forget", lambda: {"entry": BestiaryEntry.objects.get().pk})]
    kinds = set()
    for name, data in steps:
        pages = {seat.name: set(re.findall(r'\bid="([^"]+)"', page(dc, seat.name))) for seat in dc.seats}
        with logged() as events:
            assert post(dc, "gm", name, data())[0] == 200
        for event in events:
            kinds.add(event.kind)
            for seat in dc.seats:
                missing = swapped_into_nothing(seat_frame(event, seat_of(seat.member)) or "", pages[seat.name])
                assert not missing, f"{seat.name}'s page has no {sorted(missing)} for {event.kind}"
    assert kinds == {"npcs.added", "characters.retired", "character.returned", "bestiary.saved", "bestiary.forgotten"}


# The bestiary


def test_the_bestiary_is_the_gm_s_brought_to_another_table_of_the_same_system_and_no_other(dc) -> None:
    demon = dc.npcs[0]
    services.character_update(character=demon, actor=dc.gm.member, name="Demon",
                              sheet={**demon.sheet, "current_toughness": -3})
    with logged() as events:
        status, body = post(dc, "gm", "bestiary.save", {"character": demon.pk})
    assert status == 200, body
    entry = BestiaryEntry.objects.get(owner=dc.gm.member.user, system="demon_city", name="Demon")
    assert entry.sheet["current_toughness"] is None and entry.sheet["skills"] == demon.sheet["skills"]
    (line,) = events
    assert (line.kind, line.audience, line.summary) == ("bestiary.saved", "gm", "Gail saves Demon to the bestiary.")
    for seat in (*dc.players, dc.watcher):
        assert seat_frame(line, seat_of(seat.member)) is None
        assert 'id="bestiary"' not in page(dc, seat.name)
    assert 'Demon</span>' in (seat_frame(line, GM) or "")
    # the same name again: refused without the GM's say, replaced with it
    before = state(dc)
    status, body = post(dc, "gm", "bestiary.save", {"character": demon.pk})
    assert status == 400 and "Your bestiary holds Demon already" in body
    assert state(dc) == before
    services.character_update(character=demon, actor=dc.gm.member, name="Demon", sheet={**demon.sheet, "agility": 5})
    assert post(dc, "gm", "bestiary.save", {"character": demon.pk, "replace": "on"})[0] == 200
    entry.refresh_from_db()
    assert entry.sheet["agility"] == 5 and BestiaryEntry.objects.count() == 1

    # the GM's second Demon City table: three from the bestiary in one step
    second = services.table_create(gm=dc.gm.member.user, name="Second night", system="demon_city")
    gm2 = second.members.get(role=Role.GM)
    assert f'name="entry" value="{entry.pk}"' in dc.gm.client.get(reverse("table", args=[second.pk])).content.decode()
    answer = dc.gm.client.post(reverse("bestiary_action", args=[second.pk, "bring"]),
                               {"entry": entry.pk, "count": "3"}, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    made = list(Character.objects.filter(table=second, is_npc=True).order_by("pk"))
    assert [m.name for m in made] == ["Demon 1", "Demon 2", "Demon 3"]
    assert all(m.sheet == entry.sheet for m in made)
    assert Event.objects.filter(table=second, kind="npcs.added").get().summary == (
        f"{gm2.display_name} brings in Demon 1, Demon 2 and Demon 3 from the bestiary.")

    # not offered at the GM's table of another system, nor taken there
    other = services.table_create(gm=dc.gm.member.user, name="Elsewhere", system="shadows")
    other_page = dc.gm.client.get(reverse("table", args=[other.pk])).content.decode()
    assert f'name="entry" value="{entry.pk}"' not in other_page and 'id="bestiary"' in other_page
    refused = dc.gm.client.post(reverse("bestiary_action", args=[other.pk, "bring"]),
                                {"entry": entry.pk, "count": "1"}, **HTMX)
    assert refused.status_code == 404 and not Character.objects.filter(table=other).exists()

    # another GM never sees it, nor brings it, nor forgets it
    rival = get_user_model().objects.create_user("rival", password="a long rival password")
    theirs = services.table_create(gm=rival, name="Rival night", system="demon_city")
    client = Client()
    client.force_login(rival)
    assert f'name="entry" value="{entry.pk}"' not in client.get(reverse("table", args=[theirs.pk])).content.decode()
    for action, data in (("bring", {"entry": entry.pk, "count": "2"}), ("forget", {"entry": entry.pk})):
        assert client.post(reverse("bestiary_action", args=[theirs.pk, action]), data, **HTMX).status_code == 404
    assert BestiaryEntry.objects.filter(pk=entry.pk).exists()
    # the GM forgets it: the NPCs made from it stay
    assert post(dc, "gm", "bestiary.forget", {"entry": entry.pk})[0] == 200
    assert not BestiaryEntry.objects.exists() and Character.objects.filter(table=second).count() == 3


# Who may, and bad input


NAMES = ["npc.copy", "npc.add", "npc.reset", "npc.retire", "npc.return", "bestiary.save", "bestiary.bring",
         "bestiary.forget"]


def good_args(kt: KitTable, entry: BestiaryEntry) -> dict[str, dict[str, str]]:
    demon = str(kt.npcs[0].pk)
    return {"npc.copy": {"character": demon}, "npc.add": {"character": demon, "count": "2"},
            "npc.reset": {"character": demon}, "npc.retire": {"character": demon}, "npc.return": {"character": demon},
            "bestiary.save": {"character": demon}, "bestiary.bring": {"entry": str(entry.pk), "count": "2"},
            "bestiary.forget": {"entry": str(entry.pk)}}


def test_players_and_spectators_are_refused_every_npc_tool_over_http(dc) -> None:
    entry = BestiaryEntry.objects.create(owner=dc.gm.member.user, system="demon_city", name="Demon", sheet={})
    before = state(dc)
    for name, data in good_args(dc, entry).items():
        for who in ("ann", "watcher"):
            status, body = post(dc, who, name, data)
            assert status == 403, (who, name, body)
    assert state(dc) == before
    # and none of the tools is drawn on their pages
    for who in ("ann", "bob", "watcher"):
        text = page(dc, who)
        assert "npc-tools" not in text and "npc-desk" not in text and 'id="bestiary"' not in text
        assert not re.search(r"/(npcs|bestiary)/[a-z]+/", text)  # no control posts to them
    assert "npc-tools" in page(dc, "gm") and "Retire the fallen" in page(dc, "gm")


@pytest.mark.django_db(transaction=True)
async def test_players_and_spectators_are_refused_every_npc_tool_over_the_socket(connect) -> None:
    sync = database_sync_to_async
    kt = await sync(make_table)("demon_city", "sock")
    entry = await sync(BestiaryEntry.objects.create)(owner=kt.gm.member.user, system="demon_city", name="Demon",
                                                     sheet={})
    args = await sync(good_args)(kt, entry)
    before = await sync(state)(kt)
    for who in (kt.players[0], kt.watcher):
        socket = await connect(kt.table, who.member, resume=None)
        for i, name in enumerate(NAMES):
            await socket.send({"type": "act", "ref": f"r{i}", "action": name, "args": args[name]})
            got = (await socket.until(f'data-ref="r{i}"'))[-1]
            assert 'data-outcome="refused"' in got and 'data-error="not-allowed"' in got, (who.name, name, got)
        await socket.close()
    assert await sync(state)(kt) == before
    # the GM's act frame does it
    socket = await connect(kt.table, kt.gm.member, resume=None)
    await socket.send({"type": "act", "ref": "g1", "action": "npc.add", "args": args["npc.add"]})
    got = (await socket.until('data-ref="g1"'))[-1]
    assert 'data-outcome="done"' in got
    await socket.close()
    assert await sync(lambda: Character.objects.filter(table=kt.table, name__in=["Demon 1", "Demon 2"]).count())() == 2


@pytest.mark.django_db(transaction=True)
async def test_bad_input_is_refused_at_both_doors_and_changes_nothing(connect) -> None:
    sync = database_sync_to_async
    kt = await sync(make_table)("demon_city", "bad")
    other = await sync(make_table)("demon_city", "other")
    theirs = str(other.npcs[0].pk)
    demon = str(kt.npcs[0].pk)
    alfie = await sync(lambda: str(Character.objects.get(table=kt.table, name="Alfie").pk))()
    cases: list[tuple[str, dict[str, str], int, str, str]] = [
        ("npc.add", {"character": demon, "count": "0"}, 400, "invalid", "Field 1 to 20 at a time."),
        ("npc.add", {"character": demon, "count": "500"}, 400, "invalid", "Field 1 to 20 at a time."),
        ("npc.add", {"character": demon, "count": "x"}, 400, "invalid", ""),
        ("npc.add", {"character": "999999", "count": "2"}, 404, "not-found", "There is no such character"),
        ("npc.add", {"character": theirs, "count": "2"}, 404, "not-found", "There is no such character"),
        ("npc.add", {"character": alfie, "count": "2"}, 400, "invalid", "Alfie is not an NPC"),
        ("npc.add", {"character": demon, "count": "2", "scene": "999999"}, 404, "not-found", "no such scene"),
        ("npc.copy", {"character": theirs}, 404, "not-found", "There is no such character"),
        ("npc.copy", {"character": "-1"}, 400, "invalid", "There is no such one"),
        ("npc.reset", {"character": theirs}, 404, "not-found", "There is no such character"),
        ("npc.retire", {"character": theirs}, 404, "not-found", "There is no such character"),
        ("npc.retire", {}, 400, "invalid", "Choose the character to retire."),
        ("npc.return", {"character": demon}, 400, "invalid", "Demon is not retired."),
        ("bestiary.save", {"character": theirs}, 404, "not-found", "There is no such character"),
        ("bestiary.bring", {"entry": "999999", "count": "2"}, 404, "not-found", "no such entry in your bestiary"),
        ("bestiary.bring", {"entry": "1", "count": "21"}, 400, "invalid", "Field 1 to 20 at a time."),
        ("bestiary.forget", {"entry": "999999"}, 404, "not-found", "no such entry in your bestiary"),
    ]
    before = await sync(state)(kt)
    others_before = await sync(state)(other)
    socket = await connect(kt.table, kt.gm.member, resume=None)
    for i, (name, data, status, code, words) in enumerate(cases):
        got, body = await sync(post)(kt, "gm", name, data)
        assert got == status and words in body, (name, data, got, body)
        await socket.send({"type": "act", "ref": f"b{i}", "action": name, "args": data})
        frame = html.unescape((await socket.until(f'data-ref="b{i}"'))[-1])
        assert 'data-outcome="refused"' in frame and f'data-error="{code}"' in frame and words in frame, (name, frame)
    await socket.close()
    assert await sync(state)(kt) == before
    assert await sync(state)(other) == others_before


# Secrecy


def test_no_copy_of_a_secret_npc_leaks_its_sheet_to_a_player_or_a_spectator(dc) -> None:
    """The decided reading: "an NPC's sheet is the GM's unless the GM shows it ... other seats see
    its name and what the rules make public (a total, a track) and nothing more": for every copy.
    The sample Demon's skills carry the kit's marker word."""
    board(dc)
    demon = dc.npcs[0]
    assert SENTINEL in json.dumps(demon.sheet)
    with logged() as events:
        post(dc, "gm", "npc.copy", {"character": demon.pk})
        post(dc, "gm", "npc.add", {"character": demon.pk, "count": "3"})
        post(dc, "gm", "bestiary.save", {"character": demon.pk})
        post(dc, "gm", "bestiary.bring", {"entry": BestiaryEntry.objects.get().pk, "count": "2"})
        services.character_update(character=named(dc, "Demon 2"), actor=dc.gm.member, name="Demon 2",
                                  sheet={**named(dc, "Demon 2").sheet, "current_toughness": 0})
        post(dc, "gm", "npc.reset", {"character": named(dc, "Demon 2").pk})
        post(dc, "gm", "npc.retire", {"character": named(dc, "Demon 3").pk})
        post(dc, "gm", "npc.return", {"character": named(dc, "Demon 3").pk})
    made = [c for c in npcs(dc) if c.name != "Demon"]
    assert len(made) == 6 and all(SENTINEL in json.dumps(c.sheet) for c in made)
    events = list(events)
    everything = {seat.name: bytes_of(dc, seat, events) for seat in dc.seats}
    assert SENTINEL in everything["gm"]
    for seat in (*dc.players, dc.watcher):
        assert SENTINEL.lower() not in everything[seat.name].lower(), f"{seat.name} received an NPC's hidden sheet"
        assert "Demon 4" in everything[seat.name]  # its name is everyone's


# What the rules hand a retired character


def test_no_night_heals_a_retired_npc_and_its_rules_still_heal_the_others() -> None:
    """The decided reading "000, recovery": "Health returns by the character's Body each night";
    a retired NPC is handed to no rule outside the fight that held it."""
    kt = kit("shadows", "night")
    ghoul = kt.npcs[0]
    services.character_update(character=ghoul, actor=kt.gm.member, name="Ghoul", sheet={**ghoul.sheet, "health_now": 5})
    post(kt, "gm", "npc.copy", {"character": ghoul.pk})
    copy = named(kt, "Ghoul 2")
    services.character_update(character=copy, actor=kt.gm.member, name=copy.name, sheet={**copy.sheet, "health_now": 5})
    assert post(kt, "gm", "npc.retire", {"character": ghoul.pk})[0] == 200
    command(kt, Dice([]), type="pass_time", span="night")
    body = int(ghoul.sheet["body"])
    assert named(kt, "Ghoul").sheet["health_now"] == 5
    assert named(kt, "Ghoul 2").sheet["health_now"] == 5 + body


def test_a_name_at_its_longest_keeps_its_number() -> None:
    kt = kit("freeform", "long")
    long = services.character_create(table=kt.table, actor=kt.gm.member, name="G" * 60, sheet={}, npc=True)
    assert post(kt, "gm", "npc.copy", {"character": long.pk})[0] == 200
    assert post(kt, "gm", "npc.add", {"character": long.pk, "count": "2"})[0] == 200
    names = [c.name for c in npcs(kt) if c.name.startswith("G" * 58) and c.pk != long.pk]
    assert names == ["G" * 58 + " 2", "G" * 58 + " 1", "G" * 58 + " 3"]
    assert all(len(n) <= 60 for n in names)


def test_each_npc_fielded_gets_the_decks_its_system_gives_a_new_character(monkeypatch) -> None:
    """A system may give each character a deck of its own (games/contract.py, DeckSpec): a copy
    and each of several fielded at once gets its own, made and sealed with it."""
    import dataclasses

    from games.contract import DeckSpec
    from tests.support import high_card

    own = dataclasses.replace(high_card.SYSTEM, character_decks=lambda c: (DeckSpec(f"Deck of {c.name}", "tarot"),))
    monkeypatch.setitem(registry.SYSTEMS, "high_card", registry.check_registration(own))
    user = get_user_model().objects.create_user("decks-gm", password="a long gm password 1")
    table = services.table_create(gm=user, name="Decks", system="high_card")
    gm = table.members.get(role=Role.GM)
    brute = services.character_create(table=table, actor=gm, name="Brute", sheet={}, npc=True)
    services.npc_copy(character=brute, actor=gm)
    services.npc_add(table=table, actor=gm, count=2, character=brute)
    names = sorted(Deck.objects.filter(table=table).values_list("name", flat=True))
    assert names == ["Deck of Brute", "Deck of Brute 1", "Deck of Brute 2", "Deck of Brute 3"]


def test_a_fallen_npc_retired_mid_fight_still_counts_in_the_fight_its_rules_read() -> None:
    """The decided reading "All systems, fights": "when one side has no one able to act, the fight
    is over" (002: incapacitated). The Ghoul, dead and put away mid-fight, still stands in its
    fight's order for the rules: its side has no one left, so the turn goes no further and the
    Storyteller ends the fight."""
    import random

    kt = kit("harsh_light", "hl-fight")
    ghoul, alfie = kt.npcs[0], Character.objects.get(table=kt.table, name="Alfie")
    rng = random.Random(5)
    command(kt, rng, type="set_order", order=[cid(alfie), cid(ghoul)])
    command(kt, rng, type="harm", combatant=cid(ghoul), points=12, kind="aggravated", reason="a fall")
    assert registry.get("harsh_light").glance(named(kt, "Ghoul").sheet).out
    assert post(kt, "gm", "npc.retire", {"fallen": "1"})[0] == 200
    with pytest.raises(services.ServiceError, match="The fight is over"):
        command(kt, rng, type="end_turn")
    assert "fight_over" in json.dumps(panels.current(kt.table, kt.gm.member))
    command(kt, rng, type="end_combat")
    assert not procedure_state(kt.table)["combat"]


def in_order(page: Any) -> Any:
    """The page with its character cards in the order of their ids: a card brought back live is
    added at the end of the list, and a page loaded afresh lists it where it was made."""
    cards = page.get_element_by_id("characters")
    for card in sorted(cards, key=lambda el: int(el.get("id", "character-0").rsplit("-", 1)[-1])):
        cards.append(card)
    return page


def test_each_seat_s_page_with_the_npc_tools_frames_swapped_in_reads_as_its_page_loaded_afresh(dc) -> None:
    """Issue 28's check (tests/integration/test_frames_keep_the_page.py) for the NPC tools: each
    seat's page as it loaded, with every frame it was sent swapped in as the browser swaps it,
    reads as the page it loads afresh: the cards, the tokens, the GM's retired list and bestiary."""
    from tests.integration.test_frames_keep_the_page import differences
    from tests.support import dom
    from tests.support.frames import committed

    scene = board(dc)
    demon = dc.npcs[0]
    services.token_place(scene=scene, character=demon, actor=dc.gm.member)
    url = reverse("table", args=[dc.table.pk])
    csrf = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
    live = {seat.name: dom.page(csrf.sub("", seat.client.get(url).content.decode())) for seat in dc.seats}
    alfie = Character.objects.get(table=dc.table, name="Alfie")
    steps = [("npc.add", lambda: {"character": demon.pk, "count": "3"}),
             ("npc.copy", lambda: {"character": demon.pk}),
             ("bestiary.save", lambda: {"character": demon.pk}),
             ("npc.retire", lambda: {"character": demon.pk}),
             ("npc.retire", lambda: {"character": alfie.pk}),
             ("npc.return", lambda: {"character": demon.pk}),
             ("bestiary.bring", lambda: {"entry": BestiaryEntry.objects.get().pk, "count": "2", "hidden": "on"}),
             ("npc.reset", lambda: {"character": named(dc, "Demon 1").pk}),  # refused: fresh already
             ("bestiary.forget", lambda: {"entry": BestiaryEntry.objects.get().pk})]
    with logged() as recorded:
        for name, data in steps:
            post(dc, "gm", name, data())
            services.character_update(character=named(dc, "Demon 2"), actor=dc.gm.member, name="Demon 2",
                                      sheet={**named(dc, "Demon 2").sheet, "current_toughness": 1}) \
                if name == "npc.copy" else None
            events = committed(list(recorded))
            recorded.clear()
            for seat in dc.seats:
                member = seat.member.pk if seat.role == "player" else None
                for event in events:
                    frame = seat_frame(event, seat_of(seat.member))
                    if frame:
                        missing = dom.swap(live[seat.name], frame, player_member=member)
                        assert not missing, f"{seat.name}'s page has no {missing} for {event.kind}"
                # a form a frame redraws carries no CSRF field (htmx sends the page's token)
                fresh = dom.page(csrf.sub("", seat.client.get(url).content.decode()))
                assert differences(in_order(live[seat.name]), in_order(fresh)) == [], f"{seat.name}, after {name}"
