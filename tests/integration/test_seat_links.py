"""Issue 13, bug 4: a guest who logged out lost the seat for good. A personal seat link
(shown to the player, revocable by the GM) restores the seat on any device, and a guest is
warned before logging out."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tabletop import services
from tabletop.models import Event, Membership


def seat_url(member: Membership) -> str:
    return reverse("seat", args=[Membership.objects.get(pk=member.pk).seat_token])


def test_a_seat_link_takes_the_seat_back_in_another_browser(table) -> None:
    ann_phone = Client()
    page = ann_phone.get(seat_url(table.ann))
    assert page.status_code == 200 and "Take your seat at Night Shift" in page.content.decode()
    assert "Ann" in page.content.decode()
    assert ann_phone.get(reverse("table", args=[table.row.pk])).status_code == 302  # not yet
    taken = ann_phone.post(seat_url(table.ann))
    assert taken.status_code == 302 and taken["Location"] == reverse("table", args=[table.row.pk])
    at_table = ann_phone.get(reverse("table", args=[table.row.pk]))
    assert at_table.status_code == 200 and "You are <strong>Ann</strong>" in at_table.content.decode()


def test_logging_out_then_coming_back_through_the_link_keeps_the_same_member(table) -> None:
    ann = table.client(table.ann)
    assert ann.get(reverse("leave")).status_code == 200
    ann.post(reverse("logout"))
    assert ann.get(reverse("table", args=[table.row.pk])).status_code == 302
    ann.post(seat_url(table.ann))
    assert ann.get(reverse("table", args=[table.row.pk])).status_code == 200
    assert Membership.objects.filter(table=table.row, display_name="Ann").count() == 1


def test_a_guest_is_warned_before_logging_out_and_shown_the_seat_link(table) -> None:
    page = table.client(table.ann).get(reverse("leave")).content.decode()
    assert "only your seat link brings you back" in page
    assert Membership.objects.get(pk=table.ann.pk).seat_token in page
    nav = table.client(table.ann).get(reverse("table", args=[table.row.pk])).content.decode()
    assert f'href="{reverse("leave")}"' in nav  # the guest's Log out opens the warning
    gm_nav = table.client(table.gm).get(reverse("home")).content.decode()
    assert f'action="{reverse("logout")}"' in gm_nav  # a GM with a password logs out at once


def test_only_the_member_and_the_gm_see_a_seat_link(table) -> None:
    link = reverse("seat_link", args=[table.row.pk, table.ann.pk])
    token = Membership.objects.get(pk=table.ann.pk).seat_token
    for member, status in ((table.ann, 200), (table.gm, 200), (table.bob, 403), (table.watcher, 403)):
        answer = table.client(member).get(link)
        assert answer.status_code == status, member
        assert (token in answer.content.decode()) == (status == 200)
    assert Client().get(link).status_code == 302  # logged out: to the login page


def test_the_seat_link_is_on_no_table_page_and_in_no_event(table) -> None:
    token = Membership.objects.get(pk=table.ann.pk).seat_token
    for member in (table.gm, table.ann, table.bob, table.watcher):
        page = table.client(member).get(reverse("table", args=[table.row.pk])).content.decode()
        assert token not in page
    services.membership_replace_seat_link(target=table.ann, actor=table.gm)
    new = Membership.objects.get(pk=table.ann.pk).seat_token
    for event in Event.objects.filter(table=table.row):
        assert token not in str(event.payload) + str(event.private) + event.summary
        assert new not in str(event.payload) + str(event.private) + event.summary


def test_the_gm_replaces_a_seat_link_and_the_old_one_stops_working(table) -> None:
    old = seat_url(table.ann)
    gm = table.client(table.gm)
    answer = gm.post(reverse("seat_link_replace", args=[table.row.pk, table.ann.pk]))
    assert answer.status_code == 302
    assert Client().get(old).status_code == 404
    assert Client().post(old).status_code == 404
    assert Client().get(seat_url(table.ann)).status_code == 200
    line = Event.objects.filter(table=table.row, kind="member.seat_link_replaced").get()
    assert line.audience == "gm" and "replaced Ann's seat link" in line.summary


def test_nobody_but_the_gm_replaces_a_seat_link_and_a_refusal_changes_nothing(table) -> None:
    before = Membership.objects.get(pk=table.bob.pk).seat_token
    for member in (table.ann, table.bob, table.watcher):
        answer = table.client(member).post(reverse("seat_link_replace", args=[table.row.pk, table.bob.pk]))
        assert answer.status_code == 403
    assert Membership.objects.get(pk=table.bob.pk).seat_token == before


def test_a_removed_member_s_link_and_an_account_s_link_do_not_seat_anyone(table) -> None:
    services.membership_remove(target=table.bob, actor=table.gm)
    assert Client().post(seat_url(table.bob)).status_code == 403
    assert Client().post(seat_url(table.gm)).status_code == 403  # the GM logs in with a password
    assert Client().get("/seat/not-a-token/").status_code == 404
