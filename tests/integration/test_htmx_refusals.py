"""Issue 23: "A refusal or an expired seat shows a notice in the page, never a whole page drawn
inside a panel." An htmx request refused by the seat (403), for something gone (404) or with a
stale page (CSRF) gets a short notice, retargeted to the page's own notice line."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tabletop import services

HTMX = {"HTTP_HX_REQUEST": "true"}


def assert_notice(answer, status: int, words: str) -> None:
    body = answer.content.decode()
    assert answer.status_code == status
    assert answer["HX-Retarget"] == "#page-notice" and answer["HX-Reswap"] == "outerHTML"
    assert body.startswith('<p id="page-notice"') and words in body
    assert "<html" not in body and "<body" not in body


def test_a_removed_member_s_htmx_post_gets_a_notice_not_a_page(table) -> None:
    services.membership_remove(target=table.bob, actor=table.gm)
    answer = table.client(table.bob).post(reverse("roll", args=[table.row.pk]), {"notation": "1d6"}, **HTMX)
    assert_notice(answer, 403, "The GM removed you from this table.")
    # the same request as a page (no htmx) is the site's whole 403 page
    page = table.client(table.bob).post(reverse("roll", args=[table.row.pk]), {"notation": "1d6"})
    assert page.status_code == 403 and "<html" in page.content.decode()


def test_a_spectator_s_htmx_post_and_a_gone_thing_get_a_notice(table) -> None:
    assert_notice(table.client(table.watcher).post(reverse("roll", args=[table.row.pk]), {"notation": "1d6"}, **HTMX),
                  403, "You are watching this table: a spectator sees the play but does not act.")
    assert_notice(table.client(table.gm).post("/tables/999999/roll/", {"notation": "1d6"}, **HTMX), 404, "")


def test_a_stale_page_s_post_says_to_reload(table) -> None:
    stale = Client(enforce_csrf_checks=True)
    stale.force_login(table.ann.user)
    assert_notice(stale.post(reverse("roll", args=[table.row.pk]), {"notation": "1d6"}, **HTMX), 403,
                  "This page is out of date: reload it")


def test_the_table_page_has_its_notice_line(table) -> None:
    page = table.client(table.ann).get(reverse("table", args=[table.row.pk])).content.decode()
    assert '<p id="page-notice" class="socket-error page-notice" role="alert" hidden></p>' in page


def test_a_player_who_joins_or_leaves_reaches_every_list_that_names_players_live(table) -> None:
    """Issue 23: "Forms that list people or characters follow the table live (the GM's 'Whose
    deck' showed only 'The table's' until a reload)"; and every element a frame swaps in or
    deletes by id is on the page of the seat it is sent to (no htmx:oobErrorNoTarget)."""
    from tabletop.models import Role
    from tabletop.feed.seat import GM, SPECTATOR, Seat
    from tests.integration.test_contract_kit import oob_targets
    from tests.support.frames import logged, seat_frame

    import re

    with logged() as events:
        cleo = services.membership_join(table=table.row, user=services.guest_user_create(), role=Role.PLAYER,
                                        display_name="Cleo")
    [joined] = [e for e in events if e.kind == "member.joined"]
    assert f'id="deck-owner-{cleo.pk}"' in (seat_frame(joined, GM) or "")
    for seat, member in ((SPECTATOR, table.watcher), (Seat("player", table.ann.pk), table.ann)):
        frame = seat_frame(joined, seat) or ""
        assert f'id="deck-owner-{cleo.pk}"' not in frame  # the GM's form alone lists it
        page = table.client(member).get(reverse("table", args=[table.row.pk])).content.decode()
        held = set(re.findall(r'\bid="([^"]+)"', page))
        lists = {m for m in re.findall(r'data-upsert-into="#([^"]+)"', frame)}
        assert lists <= held, (seat, lists - held)  # where each new item goes is on the page
        assert oob_targets(frame) <= held | {f"member-{cleo.pk}"}
    with logged() as events:
        services.membership_remove(target=cleo, actor=table.gm)
    [removed] = [e for e in events if e.kind == "member.removed"]
    for seat, member in ((SPECTATOR, table.watcher), (Seat("player", table.ann.pk), table.ann), (GM, table.gm)):
        frame = seat_frame(removed, seat) or ""
        deleted = set(re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="delete"', frame))
        page = table.client(member).get(reverse("table", args=[table.row.pk])).content.decode()
        before = set(re.findall(r'\bid="([^"]+)"', page)) | {f"member-{cleo.pk}", f"player-opt-{cleo.pk}",
                                                              f"deal-to-{cleo.pk}", f"deck-owner-{cleo.pk}",
                                                              f"hand-{cleo.pk}"}
        page_before = {i for i in before if (seat == GM) or not i.startswith(("deck-owner-", "hand-"))}
        if seat == SPECTATOR:
            page_before.discard(f"deal-to-{cleo.pk}")
        assert deleted <= page_before, (seat, deleted - page_before)


def test_a_sheet_s_every_fault_is_shown_at_its_field_at_once(db) -> None:
    """Issue 23: "Form errors at their fields, all at once." A Harsh Light sheet with a Skill
    that is not one and a bad Again: both said, each beside its own field."""
    from django.contrib.auth import get_user_model

    from tabletop.models import Role

    gm_user = get_user_model().objects.create_user("faults", password="a long gm password 9")
    table = services.table_create(gm=gm_user, name="Faults", system="harsh_light")
    gm = table.members.get(role=Role.GM)
    client = Client()
    client.force_login(gm.user)
    answer = client.post(reverse("character_new", args=[table.pk]), {
        "name": "Alfie", "kind": "npc", "sheet_strength": "3", "sheet_skills": "Sorcery: 3", "sheet_again": "7"})
    body = answer.content.decode()
    assert answer.status_code == 400
    skills = body[body.index('name="sheet_skills"'):body.index('name="sheet_willpower"')]
    again = body[body.index('name="sheet_again"'):body.index('name="sheet_blood_potency"')]
    assert "is not a World of Darkness Skill" in skills and "form-error" in again
    assert not table.characters.exists()


def test_a_players_refused_reveal_says_who_may_and_an_unknown_token_action_says_what_a_token_does(table) -> None:
    """Issue 38, 6: "a player's refused reveal reads 'A token is hidden or shown.'" A player
    asking to show a hidden token hears that the GM manages the map's tokens; a word that is not
    a token's action is named as such, to the GM; neither changes the token."""
    vampire = services.character_create(table=table.row, actor=table.gm, name="Vampire", sheet={}, npc=True)
    scene = services.scene_create(table=table.row, actor=table.gm, name="Harbour", colour="#335544")
    token = services.token_place(scene=scene, character=vampire, actor=table.gm, hidden=True)
    for action in ("show", "reveal"):
        answer = table.client(table.ann).post(
            reverse("token_visibility", args=[table.row.pk, token.pk, action]), **HTMX)
        assert_notice(answer, 403, "Only the GM may manage the scenes, the map, its fog and its tokens.")
    answer = table.client(table.gm).post(reverse("token_visibility", args=[table.row.pk, token.pk, "reveal"]), **HTMX)
    assert_notice(answer, 404, "A token can be hidden or shown, nothing else.")
    token.refresh_from_db()
    assert token.hidden
