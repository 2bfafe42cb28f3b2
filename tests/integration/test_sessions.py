"""Sessions, the table's clock and lasting conditions through the real views (issue 35): the GM
opens and closes a session, the log reads in chapters, an export and a recap read one session as
the seat may; the GM moves the clock on and adds a condition, which ends by itself; a player or a
spectator may do none of it, and a condition on an NPC is the GM's unless shown.

The system is tests/support/high_card.py with a clock of its own (a toy recovery: "Luck" back by
one a night), registered for each test: the platform's side does not wait on any one system."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import registry
from games.core import clock
from tabletop import services
from tabletop.models import Event, PlaySession, Role
from tests.support import high_card

pytestmark = pytest.mark.django_db


def rested(state: Any, span: str, turn: Any) -> list[dict[str, Any]]:
    return [{"type": "rested", "span": span}] if span != clock.SCENE else []


def _rested(state: dict[str, Any], event: Any) -> None:
    state["rested"] = int(state.get("rested", 0)) + 1


CLOCKED = dataclasses.replace(
    high_card.SYSTEM,
    engine=dataclasses.replace(
        high_card.SYSTEM.engine, folds={**high_card.SYSTEM.engine.folds, "rested": _rested},  # type: ignore[union-attr]
        working=lambda event, state: None if event["type"] == "rested" else high_card.working(event, state),
        clock=clock.Clock(passes=rested, says={clock.NIGHT: "Luck back by one"},
                          effects={"luck": "Luck on every draw"})),
    audiences={**high_card.SYSTEM.audiences, "rested": high_card.PUBLIC},
)


@pytest.fixture
def game(monkeypatch):
    monkeypatch.setitem(registry.SYSTEMS, "high_card", registry.check_registration(CLOCKED))
    gm_user = get_user_model().objects.create_user("se-gm", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name="Long road", system="high_card")
    gm = table.members.get(role=Role.GM)
    ann = services.membership_join(table=table, user=services.guest_user_create(), role=Role.PLAYER,
                                   display_name="Ann")
    watcher = services.membership_join(table=table, user=services.guest_user_create(), role=Role.SPECTATOR)
    hero = services.character_create(table=table, actor=ann, name="Alfie", sheet={})
    ghoul = services.character_create(table=table, actor=gm, name="Ghoul", sheet={}, npc=True)
    return table, gm, ann, watcher, hero, ghoul


def client(member) -> Client:
    c = Client()
    c.force_login(member.user)
    return c


def post(member, url: str, data: dict[str, str] | None = None):
    return client(member).post(url, data or {}, HTTP_HX_REQUEST="true")


def kinds(table) -> list[str]:
    return list(Event.objects.filter(table=table).order_by("seq").values_list("kind", flat=True))


def test_the_gm_opens_and_closes_sessions_and_nobody_else_may(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    base = f"/tables/{table.pk}/sessions"
    for who in (ann, watcher):
        assert post(who, f"{base}/open/").status_code == 403
    assert PlaySession.objects.filter(table=table).count() == 0
    assert post(gm, f"{base}/open/").status_code == 200
    answer = post(gm, f"{base}/open/")
    assert answer.status_code == 400 and "Session 1 is open" in answer.content.decode()
    assert post(ann, f"{base}/close/").status_code == 403
    assert post(gm, f"{base}/close/").status_code == 200
    answer = post(gm, f"{base}/close/")
    assert answer.status_code == 400 and "No session is open" in answer.content.decode()
    assert post(gm, f"{base}/open/").status_code == 200
    assert [s.number for s in PlaySession.objects.filter(table=table)] == [1, 2]
    assert [k for k in kinds(table) if k.startswith("session.")] == ["session.opened", "session.closed", "session.opened"]
    page = client(ann).get(f"/tables/{table.pk}/").content.decode()
    # the log reads in chapters: each session under its own heading, with its date
    assert 'class="chapter" role="heading"' in page and "Session 2" in page
    assert "Close session 2" not in page  # the GM's button is the GM's
    assert "Close session 2" in client(gm).get(f"/tables/{table.pk}/").content.decode()


def test_time_passes_at_the_gms_word_and_the_system_says_what_it_restores(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    url = f"/tables/{table.pk}/campaign/pass_time/"
    assert post(ann, url, {"span": "night"}).status_code == 400  # a GM's move, never offered to a player
    assert "time_passed" not in " ".join(kinds(table))
    assert post(gm, url, {"span": "year"}).status_code == 400
    assert post(gm, url, {"span": "night"}).status_code == 200
    assert kinds(table)[-2:] == ["high_card.time_passed", "high_card.rested"]
    page = client(ann).get(f"/tables/{table.pk}/").content.decode()
    assert "Day 2, scene 2" in page and "A night passes." in page
    assert "Luck back by one" not in page  # what each span does is shown beside the GM's buttons
    assert "Luck back by one" in client(gm).get(f"/tables/{table.pk}/").content.decode()
    assert post(gm, f"/tables/{table.pk}/campaign/undo/").status_code == 404  # only the clock's moves here


def test_a_condition_shows_as_a_badge_to_whom_it_is_shown_and_ends_by_itself(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    add = f"/tables/{table.pk}/campaign/add_condition/"
    assert post(ann, add, {"character": str(hero.pk), "name": "Cursed"}).status_code == 400
    assert post(gm, add, {"character": str(hero.pk), "name": "Splinted leg", "effect": "luck", "amount": "-1",
                          "lasts": "night"}).status_code == 200
    assert post(gm, add, {"character": str(ghoul.pk), "name": "Zqxv-wounded", "lasts": "scene"}).status_code == 200
    gm_page = client(gm).get(f"/tables/{table.pk}/").content.decode()
    for who in (ann, watcher):
        page = client(who).get(f"/tables/{table.pk}/").content.decode()
        assert f'id="conditions-{hero.pk}"' in page and "Splinted leg" in page and "until a night passes" in page
        assert "Zqxv" not in page  # an NPC's condition is the GM's unless shown
    assert "Zqxv-wounded" in gm_page and "(GM only)" in gm_page
    # the scene ends: what lasted it ends by itself, and the log says so (the GM's line for the GM's condition)
    assert post(gm, f"/tables/{table.pk}/campaign/pass_time/", {"span": "scene"}).status_code == 200
    ended = Event.objects.get(table=table, kind="high_card.condition_ended")
    assert ended.audience == "gm" and ended.summary == "Ghoul is no longer Zqxv-wounded: the scene ended."
    assert "Splinted leg" in client(ann).get(f"/tables/{table.pk}/").content.decode()
    assert post(gm, f"/tables/{table.pk}/campaign/pass_time/", {"span": "night"}).status_code == 200
    page = client(ann).get(f"/tables/{table.pk}/").content.decode()
    assert "is no longer Splinted leg: a night passed" in page
    assert f'<p id="conditions-{hero.pk}" class="conditions"></p>' in page


def test_a_recap_tells_the_session_to_each_seat_through_its_own_lens(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    assert post(gm, f"/tables/{table.pk}/sessions/open/").status_code == 200
    post(gm, f"/tables/{table.pk}/campaign/add_condition/", {"character": str(ghoul.pk), "name": "Zqxv-hexed"})
    post(gm, f"/tables/{table.pk}/campaign/add_condition/", {"character": str(hero.pk), "name": "Bruised"})
    post(gm, f"/tables/{table.pk}/campaign/pass_time/", {"span": "night"})
    services.chat_post(table=table, actor=ann, text="We rest at the inn.")
    assert post(gm, f"/tables/{table.pk}/sessions/close/").status_code == 200
    recap_url = f"/tables/{table.pk}/sessions/1/recap/"
    gm_recap = client(gm).get(recap_url).content.decode()
    assert "Ghoul is Zqxv-hexed" in gm_recap and "A night passes." in gm_recap
    for who in (ann, watcher):
        page = client(who).get(recap_url)
        assert page.status_code == 200
        text = page.content.decode()
        assert "Alfie is Bruised" in text and "A night passes." in text and "Zqxv" not in text
    md = client(ann).get(recap_url + "?format=md")
    assert md["Content-Type"].startswith("text/markdown")
    body = md.content.decode()
    assert body.startswith("# Long road: session 1") and "## How it went" in body and "Zqxv" not in body
    assert "Ann" in body.split("## Who was there")[1].split("##")[0]
    assert client(ann).get(f"/tables/{table.pk}/sessions/9/recap/").status_code == 404
    stranger = get_user_model().objects.create_user("nobody", password="a long password 22")
    c = Client()
    c.force_login(stranger)
    assert c.get(recap_url).status_code in (403, 404)


def test_an_export_reads_one_session_or_all_of_them_in_chapters(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    services.chat_post(table=table, actor=ann, text="Before any session.")
    post(gm, f"/tables/{table.pk}/sessions/open/")
    services.chat_post(table=table, actor=ann, text="In the first.")
    post(gm, f"/tables/{table.pk}/sessions/close/")
    post(gm, f"/tables/{table.pk}/sessions/open/")
    services.chat_post(table=table, actor=ann, text="In the second.")
    whole = b"".join(client(ann).get(f"/tables/{table.pk}/export.md").streaming_content).decode()
    assert "## Session 1 ·" in whole and "## Session 2 ·" in whole and "Before any session" in whole
    first = client(ann).get(f"/tables/{table.pk}/export.md?session=1")
    assert 'session-1.md' in first["Content-Disposition"]
    text = b"".join(first.streaming_content).decode()
    assert "In the first" in text and "In the second" not in text and "Before any session" not in text
    second = b"".join(client(ann).get(f"/tables/{table.pk}/export.json?session=2").streaming_content).decode()
    assert "In the second" in second and "In the first" not in second
    for bad in ("9", "x", "99999999999999999999"):
        assert client(ann).get(f"/tables/{table.pk}/export.md?session={bad}").status_code == 404


def test_a_condition_shows_on_the_characters_token_and_leaves_it_when_it_ends(game) -> None:
    """"It shows as a badge on the sheet, on the character's card and on its token in the scene":
    a token shows the conditions everyone sees; one the GM keeps to themselves stays off it."""
    from tabletop.feed.frames import event_frames
    from tabletop.services.base import recording

    table, gm, ann, watcher, hero, ghoul = game
    scene = services.scene_create(table=table, actor=gm, name="Crossroads", colour="#335577")
    services.scene_show(scene=scene, actor=gm)
    services.token_place(scene=scene, character=hero, actor=gm)
    services.token_place(scene=scene, character=ghoul, actor=gm)
    with recording() as logged:
        assert post(gm, f"/tables/{table.pk}/campaign/add_condition/",
                    {"character": str(hero.pk), "name": "Dazed", "lasts": "scene"}).status_code == 200
    # the live redraw carries the token's badges to every seat
    frames, own = event_frames(logged[-1])
    assert len(own) == 3 and all(f'id="token-conditions-{hero.pk}"' in text and "Dazed" in text for text in own.values())
    post(gm, f"/tables/{table.pk}/campaign/add_condition/", {"character": str(ghoul.pk), "name": "Zqxv-marked"})
    token_slot = f'<span id="token-conditions-{hero.pk}" class="token-conditions"><span class="condition">Dazed</span></span>'
    for who in (gm, ann, watcher):
        page = client(who).get(f"/tables/{table.pk}/").content.decode()
        assert token_slot in page
        assert f'<span id="token-conditions-{ghoul.pk}" class="token-conditions"></span>' in page
    post(gm, f"/tables/{table.pk}/campaign/pass_time/", {"span": "scene"})
    page = client(ann).get(f"/tables/{table.pk}/").content.decode()
    assert f'<span id="token-conditions-{hero.pk}" class="token-conditions"></span>' in page


def test_a_condition_shows_on_the_characters_sheet_to_whom_it_is_shown(game) -> None:
    table, gm, ann, watcher, hero, ghoul = game
    post(gm, f"/tables/{table.pk}/campaign/add_condition/", {"character": str(hero.pk), "name": "Limping",
                                                            "lasts": "week"})
    post(gm, f"/tables/{table.pk}/campaign/add_condition/", {"character": str(hero.pk), "name": "Zqxv-marked",
                                                            "seen": "gm"})
    sheet = client(ann).get(f"/tables/{table.pk}/characters/{hero.pk}/edit/").content.decode()
    assert "Limping" in sheet and "until a week passes" in sheet and "Zqxv" not in sheet
    gm_sheet = client(gm).get(f"/tables/{table.pk}/characters/{hero.pk}/edit/").content.decode()
    assert "Limping" in gm_sheet and "Zqxv-marked" in gm_sheet


def test_a_recap_tells_each_fight_and_how_it_ended() -> None:
    """The recap's story holds a fight's start and end lines (each system's own kinds) and the
    moments that mattered, and no line of the rest."""
    from types import SimpleNamespace

    from tabletop.selectors import recap

    def seen(kind: str, summary: str, actor: str = "Gail") -> Any:
        return SimpleNamespace(event=SimpleNamespace(kind=kind, actor=SimpleNamespace(display_name=actor)),
                               summary=summary)

    import datetime

    session = SimpleNamespace(number=3, opened=datetime.datetime(2026, 12, 2, 20, 0), closed=None)
    table = SimpleNamespace(name="Long road")
    me = SimpleNamespace(display_name="Ann")
    told = recap.build(table, me, session, [  # type: ignore[arg-type]
        seen("session.opened", "Session 3 opens."),
        seen("demon_city.action_rounds_started", "Action Rounds begin: Alfie, Kemp."),
        seen("demon_city.damage_rolled", "Kemp hits Alfie: Toughness 3 falls to 1."),
        seen("demon_city.injury_rolled", "Alfie rolls 7 on the Injury table: Knocked out.", "Ann"),
        seen("demon_city.action_rounds_ended", "Action Rounds end: the players' side stands."),
        seen("shadows.attack_resolved", "Alma's attack is a critical: the Ghoul falls."),
        seen("dice.rolled", "Ann rolls 2d6: 7.", "Ann"),
    ])
    assert told.story == ["Session 3 opens.", "Action Rounds begin: Alfie, Kemp.",
                          "Action Rounds end: the players' side stands."]
    assert told.moments == ["Alfie rolls 7 on the Injury table: Knocked out.",
                            "Alma's attack is a critical: the Ghoul falls."]
    assert told.present == ["Gail", "Ann"] and told.rolls == 3 and told.lines == 7
    assert "## How it went" in told.markdown() and "(still open)" in told.markdown()
