"""The only writer: every change appends events in seq order, and every refusal changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tabletop import services
from tabletop.models import Table, Character, Event, Membership, Role
from tabletop.selectors import events_for, viewer_of
from tabletop.services import Conflict, NotAllowed, ServiceError

pytestmark = pytest.mark.django_db


def snapshot(table: Table) -> tuple:
    """Everything a refusal must leave untouched."""
    table.refresh_from_db()
    return (
        table.next_seq,
        table.player_token,
        table.spectator_token,
        list(Event.objects.filter(table=table).values_list("seq", "kind", "summary")),
        list(Membership.objects.filter(table=table).values_list("pk", "display_name", "removed_at")),
        list(Character.objects.filter(table=table).values_list("pk", "name", "sheet", "owner_id", "version")),
    )


def test_events_get_consecutive_seqs(table, rng) -> None:
    services.chat_post(table=table.row, actor=table.ann, text="hello")
    services.dice_roll(table=table.row, actor=table.bob, notation="2d6", mode="public", rng=rng)
    seqs = list(Event.objects.filter(table=table.row).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    table.row.refresh_from_db()
    assert table.row.next_seq == seqs[-1] + 1


def test_roll_modes_set_audiences(table, rng) -> None:
    public = services.dice_roll(table=table.row, actor=table.ann, notation="1d20", mode="public", rng=rng)
    to_gm = services.dice_roll(table=table.row, actor=table.ann, notation="1d20", mode="gm", rng=rng)
    blind = services.dice_roll(table=table.row, actor=table.ann, notation="1d20", mode="blind", rng=rng)
    assert (public.audience, "roll" in public.payload) == ("everyone", True)
    assert (to_gm.audience, to_gm.private_audience, "roll" in to_gm.payload) == ("owner", "owner", False)
    assert (blind.audience, blind.private_audience, "roll" in blind.payload) == ("owner", "gm", False)
    assert "roll" in to_gm.private and "roll" in blind.private

    def kinds_seen(member):
        return {s.event.seq: s.private for s in events_for(viewer_of(member), table.row.pk)}

    ann, bob, gm, watcher = (kinds_seen(m) for m in (table.ann, table.bob, table.gm, table.watcher))
    assert public.seq in bob and to_gm.seq not in bob and blind.seq not in bob
    assert to_gm.seq not in watcher and blind.seq not in watcher
    assert ann[to_gm.seq] is not None and "roll" in ann[to_gm.seq]  # the roller sees a GM roll
    assert ann[blind.seq] is None  # ...but not the result of a blind one
    assert "roll" in gm[blind.seq]


def test_gm_secret_roll_is_seen_by_the_gm_alone(table, rng) -> None:
    event = services.dice_roll(table=table.row, actor=table.gm, notation="1d6", mode="gm", rng=rng)
    for member in (table.ann, table.bob, table.watcher):
        assert event.seq not in {s.event.seq for s in events_for(viewer_of(member), table.row.pk)}


@pytest.mark.parametrize(
    "attempt",
    [
        lambda t, rng: services.dice_roll(table=t.row, actor=t.watcher, notation="1d6", mode="public", rng=rng),
        lambda t, rng: services.chat_post(table=t.row, actor=t.watcher, text="hi"),
        lambda t, rng: services.membership_remove(target=t.bob, actor=t.ann),
        lambda t, rng: services.membership_rename(target=t.bob, actor=t.ann, display_name="Rob"),
        lambda t, rng: services.table_regenerate_link(table=t.row, actor=t.ann, which="player"),
        lambda t, rng: services.character_create(table=t.row, actor=t.watcher, name="X", sheet={}),
        lambda t, rng: services.character_create(table=t.row, actor=t.ann, name="X", sheet={}, npc=True),
    ],
    ids=["spectator-rolls", "spectator-chats", "player-removes", "player-renames",
         "player-regenerates", "spectator-makes-character", "player-makes-npc"],
)
def test_refusals_change_nothing(table, rng, attempt) -> None:
    before = snapshot(table.row)
    with pytest.raises(NotAllowed):
        attempt(table, rng)
    assert snapshot(table.row) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Type a message"), ("   ", "Type a message"), ("x" * 2001, "at most 2000")],
)
def test_bad_chat_is_refused(table, text, message) -> None:
    before = snapshot(table.row)
    with pytest.raises(ServiceError, match=message):
        services.chat_post(table=table.row, actor=table.ann, text=text)
    assert snapshot(table.row) == before


@pytest.mark.parametrize(
    ("notation", "mode"), [("banana", "public"), ("1d6", "sideways"), ("9999d6", "public"), ("1d6" * 60, "public")]
)
def test_bad_rolls_are_refused(table, rng, notation, mode) -> None:
    before = snapshot(table.row)
    with pytest.raises(ServiceError):
        services.dice_roll(table=table.row, actor=table.ann, notation=notation, mode=mode, rng=rng)
    assert snapshot(table.row) == before


def test_removed_member_cannot_act_and_loses_their_character(table, rng) -> None:
    hero = services.character_create(table=table.row, actor=table.ann, name="Hero", sheet={})
    assert hero.owner_id == table.ann.pk
    services.membership_remove(target=table.ann, actor=table.gm)
    hero.refresh_from_db()
    assert hero.owner_id is None
    before = snapshot(table.row)
    with pytest.raises(NotAllowed):
        services.chat_post(table=table.row, actor=table.ann, text="still here?")
    assert snapshot(table.row) == before
    with pytest.raises(NotAllowed, match="removed"):
        services.membership_join(table=table.row, user=table.ann.user, role=Role.PLAYER, display_name="Ann")


def test_the_gm_cannot_be_removed(table) -> None:
    before = snapshot(table.row)
    with pytest.raises(ServiceError, match="cannot be removed"):
        services.membership_remove(target=table.gm, actor=table.gm)
    assert snapshot(table.row) == before


def test_names_at_a_table_are_unique(table) -> None:
    before = snapshot(table.row)
    with pytest.raises(ServiceError, match="already called"):
        services.membership_join(
            table=table.row, user=services.guest_user_create(), role=Role.PLAYER, display_name="ann"
        )
    with pytest.raises(ServiceError, match="already called"):
        services.membership_rename(target=table.bob, actor=table.gm, display_name="Ann")
    assert snapshot(table.row) == before
    services.membership_rename(target=table.bob, actor=table.gm, display_name="Robert")
    assert Membership.objects.get(pk=table.bob.pk).display_name == "Robert"


def test_joining_twice_returns_the_same_seat(table) -> None:
    again = services.membership_join(
        table=table.row, user=table.ann.user, role=Role.PLAYER, display_name="Another name"
    )
    assert again.pk == table.ann.pk and again.display_name == "Ann"


def test_players_edit_only_their_own_sheet_and_stale_edits_are_refused(table) -> None:
    hero = services.character_create(table=table.row, actor=table.ann, name="Hero", sheet={"stats": "Str: 3"})
    before = snapshot(table.row)
    with pytest.raises(NotAllowed):
        services.character_update(character=hero, actor=table.bob, name="Stolen", sheet={})
    with pytest.raises(NotAllowed):
        services.character_update(character=hero, actor=table.watcher, name="Stolen", sheet={})
    assert snapshot(table.row) == before
    services.character_update(character=hero, actor=table.gm, name="Hero", sheet={"notes": "GM edit"}, version=1)
    before = snapshot(table.row)
    with pytest.raises(Conflict):
        services.character_update(character=hero, actor=table.ann, name="Hero", sheet={}, version=1)
    assert snapshot(table.row) == before


def test_gm_made_characters_can_be_claimed_once(table) -> None:
    pc = services.character_create(table=table.row, actor=table.gm, name="Pregen", sheet={}, for_players=True)
    npc = services.character_create(table=table.row, actor=table.gm, name="Villain", sheet={}, npc=True)
    assert pc.owner_id is None and npc.is_npc
    services.character_claim(character=pc, actor=table.ann)
    with pytest.raises(NotAllowed):
        services.character_claim(character=pc, actor=table.bob)
    with pytest.raises(NotAllowed):
        services.character_claim(character=npc, actor=table.bob)
    assert Character.objects.get(pk=pc.pk).owner_id == table.ann.pk


def test_a_new_player_link_revokes_the_old_and_keeps_players(table) -> None:
    old = table.row.player_token
    row = services.table_regenerate_link(table=table.row, actor=table.gm, which="player")
    assert row.player_token != old and len(row.player_token) >= 22
    assert not Table.objects.filter(player_token=old).exists()
    assert Membership.objects.get(pk=table.ann.pk).removed_at is None


def test_a_new_spectator_link_ends_the_spectators_seats(table) -> None:
    services.table_regenerate_link(table=table.row, actor=table.gm, which="spectator")
    assert Membership.objects.get(pk=table.watcher.pk).removed_at is not None
    assert Membership.objects.get(pk=table.ann.pk).removed_at is None


def test_link_tokens_carry_at_least_128_bits(table) -> None:
    import base64

    for token in (table.row.player_token, table.row.spectator_token):
        assert len(base64.urlsafe_b64decode(token + "==")) * 8 >= 128


def test_an_unknown_system_cannot_host_a_table(db) -> None:
    gm = get_user_model().objects.create_user("hal", password="a long gm password 2")
    with pytest.raises(ServiceError, match="No game system"):
        services.table_create(gm=gm, name="Never", system="nope")
    assert not Table.objects.exists()


def test_sockets_of_a_process_that_stopped_beating_go_offline(table) -> None:
    """A process killed outright never runs its sockets' disconnect handlers: its members
    are online only while its heartbeat is fresh, and the next beat anywhere forgets them."""
    from datetime import timedelta

    from django.utils import timezone

    from tabletop.models import Presence, ProcessBeat
    from tabletop.selectors import online_member_ids

    services.presence_connect(member=table.ann, channel_name="doomed", process="dead-process")
    services.presence_connect(member=table.bob, channel_name="fine", process="live-process")
    assert online_member_ids(table.row.pk) == {table.ann.pk, table.bob.pk}
    ProcessBeat.objects.filter(process="dead-process").update(seen=timezone.now() - timedelta(seconds=31))
    assert online_member_ids(table.row.pk) == {table.bob.pk}
    services.process_heartbeat(process="live-process", dead_after_s=30)
    assert not Presence.objects.filter(process="dead-process").exists()
    assert not ProcessBeat.objects.filter(process="dead-process").exists()
    assert Presence.objects.filter(channel_name="fine").exists()
