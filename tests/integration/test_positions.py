"""Each viewer numbers the log by what it may see (issue 11, finding 4).

"A player's page carries data-last-seq, which counts events hidden from them, so others can
tell that and when a GM-only or blind roll happened (never its result)." Now the GM numbers
events by the table's seq, and everyone else by ``Event.position``: the public events up to
one, and a player's own hidden events after the last public one. These tests hold that a
hidden event changes no number another viewer receives, and that a resume from any position
replays exactly what followed it.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import services
from tabletop.models import Table, Event, Role
from tabletop.selectors import events_for, seq_at, viewer_of

pytestmark = pytest.mark.django_db

IDS = re.compile(r'id="event-([0-9.]+)"')
LAST = re.compile(r'data-last-seq="([0-9.]+)"')


def seat_table(name: str):
    gm_user = get_user_model().objects.create_user(f"gm-{name}", password="a long gm password 1")
    table = services.table_create(gm=gm_user, name=name, system="freeform")
    gm = table.members.get(role=Role.GM)
    people = {
        who: services.membership_join(table=table, user=services.guest_user_create(), role=role,
                                      display_name=who.title())
        for who, role in (("ann", Role.PLAYER), ("bob", Role.PLAYER), ("sam", Role.SPECTATOR))
    }
    return table, gm, people


def play(table: Table, gm, people, *, hidden: bool) -> None:
    """The same public game at two tables; at one of them, hidden events in between."""
    rng = random.Random(7)
    ann, bob = people["ann"], people["bob"]
    for i in range(3):
        services.chat_post(table=table, actor=bob, text=f"line {i}")
        if hidden:
            services.dice_roll(table=table, actor=gm, notation="1d20", mode="gm", rng=rng)
            services.dice_roll(table=table, actor=ann, notation="1d6", mode="blind", rng=rng)
            services.dice_roll(table=table, actor=ann, notation="1d8", mode="gm", rng=rng)
            services.table_regenerate_link(table=table, actor=gm, which="player")
        services.dice_roll(table=table, actor=gm, notation="2d6", mode="public", rng=random.Random(i))


def page(client, table: Table) -> str:
    return client.get(f"/tables/{table.pk}/").content.decode()


def exported(client, table: Table, fmt: str) -> str:
    return b"".join(client.get(f"/tables/{table.pk}/export.{fmt}").streaming_content).decode()


def client_of(member):
    from django.test import Client

    client = Client()
    client.force_login(member.user)
    return client


def test_hidden_events_change_no_number_that_others_receive() -> None:
    quiet, quiet_gm, quiet_people = seat_table("Quiet")
    busy, busy_gm, busy_people = seat_table("Busy")
    play(quiet, quiet_gm, quiet_people, hidden=False)
    play(busy, busy_gm, busy_people, hidden=True)
    assert busy.events.count() > quiet.events.count() + 10
    for who in ("bob", "sam"):
        quiet_page = page(client_of(quiet_people[who]), quiet)
        busy_page = page(client_of(busy_people[who]), busy)
        assert LAST.search(busy_page).group(1) == LAST.search(quiet_page).group(1)
        assert IDS.findall(busy_page) == IDS.findall(quiet_page)
        quiet_export = json.loads(exported(client_of(quiet_people[who]), quiet, "json"))
        busy_export = json.loads(exported(client_of(busy_people[who]), busy, "json"))
        assert [e["position"] for e in busy_export["events"]] == [e["position"] for e in quiet_export["events"]]
        assert all("seq" not in e for e in busy_export["events"])
        markdown = exported(client_of(busy_people[who]), busy, "md")
        assert re.findall(r"\*\*#([0-9.]+)\*\*", markdown) == [e["position"] for e in busy_export["events"]]
    # Ann sees her own hidden rolls, numbered after the public line before them
    ann_ids = IDS.findall(page(client_of(busy_people["ann"]), busy))
    assert [i for i in ann_ids if "." in i] == ["5.1", "5.2", "7.1", "7.2", "9.1", "9.2"]
    # and the GM numbers everything by the table's seq
    gm_page = page(client_of(busy_gm), busy)
    assert LAST.search(gm_page).group(1) == str(busy.events.order_by("-seq").first().seq)


AUDIENCES = st.sampled_from(("everyone", "everyone", "everyone", "gm", "ann", "bob"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(AUDIENCES, st.booleans()), min_size=1, max_size=25))
def test_a_resume_from_any_position_replays_exactly_what_followed(table, steps) -> None:
    """For every viewer and every line it has seen: its position names that line again
    (``seq_at``), positions rise as the log does, and a resume from one replays exactly the
    lines after it that the viewer may see."""
    Event.objects.filter(table=table.row).delete()
    Table.objects.filter(pk=table.row.pk).update(next_seq=1, public_seq=0)
    table.row.refresh_from_db()
    rng = random.Random(3)
    people = {"gm": table.gm, "ann": table.ann, "bob": table.bob}
    for audience, chat in steps:
        if audience == "everyone":
            actor = table.ann if chat else table.gm
            services.chat_post(table=table.row, actor=actor, text="hi")
        elif audience == "gm":
            services.table_regenerate_link(table=table.row, actor=table.gm, which="spectator")
        else:
            mode = "blind" if chat else "gm"
            services.dice_roll(table=table.row, actor=people[audience], notation="1d6", mode=mode, rng=rng)
        table.row.refresh_from_db()
    for member in (table.gm, table.ann, table.bob, table.watcher):
        viewer = viewer_of(member)
        seen = events_for(viewer, table.row.pk)
        positions = [s.event.position(gm=viewer.is_gm) for s in seen]
        keys = [tuple(int(p) for p in f"{pos}.0".split(".")[:2]) for pos in positions]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert seq_at(viewer, table.row.pk, "0") == 0
        for i, pos in enumerate(positions):
            at = seq_at(viewer, table.row.pk, pos)
            assert at == seen[i].event.seq
            assert [s.event.seq for s in events_for(viewer, table.row.pk, after=at)] == [
                s.event.seq for s in seen[i + 1:]
            ]
        if not viewer.is_gm:  # the public numbers never count what the viewer cannot see
            public = [s for s in seen if s.event.audience == "everyone"]
            assert [s.event.public_no for s in public] == list(range(1, len(public) + 1))


def test_a_position_that_names_no_line_of_the_viewer_is_refused(table) -> None:
    rng = random.Random(1)
    services.chat_post(table=table.row, actor=table.gm, text="one")
    secret = services.dice_roll(table=table.row, actor=table.ann, notation="1d6", mode="gm", rng=rng)
    ann_position = secret.position(gm=False)
    assert seq_at(viewer_of(table.ann), table.row.pk, ann_position) == secret.seq
    # Bob cannot resume from Ann's hidden line, nor learn that it exists
    assert seq_at(viewer_of(table.bob), table.row.pk, ann_position) is None
    assert seq_at(viewer_of(table.bob), table.row.pk, f"{secret.public_no}.9") is None
    for bad in ("", "-1", "1e3", "01", "3.0", "1." + "9" * 12, "9" * 30, "12345", "1.2.3"):
        assert seq_at(viewer_of(table.bob), table.row.pk, bad) is None, bad
    assert seq_at(viewer_of(table.gm), table.row.pk, "99999") is None
    assert seq_at(viewer_of(table.gm), table.row.pk, ann_position) is None


@pytest.mark.django_db(transaction=True)
async def test_a_resume_from_a_position_the_viewer_never_saw_gets_the_error_frame(table, connect) -> None:
    from channels.db import database_sync_to_async

    secret = await database_sync_to_async(services.dice_roll)(
        table=table.row, actor=table.ann, notation="1d6", mode="gm", rng=random.Random(2))
    ann = await connect(table.row, table.ann, resume=None)
    await ann.send({"type": "resume", "after": secret.position(gm=False)})  # her own: fine
    await ann.send({"type": "act", "ref": "a1", "action": "chat.post", "args": {"text": "after"}})
    frames = await ann.until('data-ref="a1"')
    assert not any('id="socket-error"' in f for f in frames)
    bob = await connect(table.row, table.bob, resume=None)
    for after, code in ((secret.position(gm=False), "unknown-position"), ("999", "unknown-position"),
                        (999, "unknown-position"), ("10" * 15, "unexpected-frame"), (10**30, "unexpected-frame")):
        await bob.send({"type": "resume", "after": after})
        frame = (await bob.until('id="socket-error"'))[-1]
        assert f'data-error="{code}"' in frame, after
    await bob.send({"type": "resume", "after": "0"})
    await bob.until(f'data-frame-seq="{secret.public_no + 1}"')  # Ann's chat line
    assert not any("1d6" in f for f in bob.received)
    await ann.close()
    await bob.close()
