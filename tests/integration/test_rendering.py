"""The log line, as the feed and the page render it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template.defaultfilters import date as date_filter

from tabletop import services
from tabletop.feed import frames as framing
from tabletop.feed.seat import SPECTATOR
from tabletop.models import Event


@pytest.mark.parametrize(
    "created",
    [dt.datetime(2026, 11, 22, 21, 5, 9, 123456, tzinfo=dt.UTC),
     dt.datetime(2026, 1, 2, 3, 4, 0, 0, tzinfo=dt.UTC),
     dt.datetime(2026, 6, 30, 23, 59, 59, 1, tzinfo=dt.timezone(dt.timedelta(hours=-5)))],
)
def test_a_log_line_s_time_is_what_django_s_date_filter_prints(table, created) -> None:
    event = services.chat_post(table=table.row, actor=table.ann, text="hi")
    Event.objects.filter(pk=event.pk).update(created=created)
    event.refresh_from_db()
    entry = framing.event_entry(event, "public")
    expected = f'<time datetime="{date_filter(event.created, "c")}">{date_filter(event.created, "H:i")}</time>'
    assert expected in entry


def test_each_kind_renders_its_own_body_and_an_unknown_kind_the_default(table, rng) -> None:
    roll = services.dice_roll(table=table.row, actor=table.ann, notation="2d6", mode="public", rng=rng)
    assert 'class="dice"' in framing.event_entry(roll, "public")
    odd = services.chat_post(table=table.row, actor=table.ann, text="<b>x</b>")
    odd.kind = "something.unheard_of"
    line = framing.event_entry(odd, "public")
    assert odd.summary.replace("<", "&lt;").replace(">", "&gt;") in line and "<b>" not in line


def test_a_log_line_escapes_what_a_player_typed_text_and_attributes_alike(table) -> None:
    """The log's lines are Jinja2 templates with autoescaping on: markup a player types is
    shown as text, never run, and nothing breaks out of an attribute."""
    import html
    import re

    typed = """<script>alert("x")</script> & 'quotes' "too" """.strip()
    event = services.chat_post(table=table.row, actor=table.ann, text=typed)
    line = framing.event_entry(event, "public")
    assert "<script" not in line and '"too"' not in line
    (shown,) = re.findall(r'<span class="chat-text">(.*?)</span>', line)
    assert html.unescape(shown) == typed
    frame = framing.frame_for(event, "public", SPECTATOR)
    assert frame.count("<li ") == 1 and line in frame  # the line goes into the frame as it is
