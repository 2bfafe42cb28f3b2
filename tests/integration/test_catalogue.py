"""Issue 34: "A catalogue of event kinds: each kind, platform or system, declared once with its
audience, its schema and how it is framed ... A schema check per kind in the tests".

Every event the suite appends is checked against its kind's declaration (``TABLETOP_CHECK_EVENTS``,
on in tests/conftest.py); these tests show that the check can fail, and that the catalogue holds
every kind the code can log."""

from __future__ import annotations

import ast
import re
import random
from pathlib import Path

import pytest
from django.template import engines

from games import registry
from tabletop import services
from tabletop.feed import catalogue, parts
from tabletop.feed.catalogue import Envelope, UnknownKind
from tabletop.models import Event
from tabletop.services.base import append, lock_table

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_kind_is_refused_before_anything_is_written(table) -> None:
    before = Event.objects.count()
    with pytest.raises(UnknownKind, match="no event kind 'chat.whispered'"):
        append(lock_table(table.row.pk), "chat.whispered", actor=table.ann, summary="psst")
    assert Event.objects.count() == before
    table.row.refresh_from_db()
    assert table.row.next_seq == Event.objects.filter(table=table.row).count() + 1


def test_an_event_that_does_not_match_its_declaration_is_caught(table) -> None:
    with pytest.raises(AssertionError, match="chat.posted: its payload lacks 'text'"):
        append(lock_table(table.row.pk), "chat.posted", actor=table.ann, summary="hi", payload={"words": "hi"})
    with pytest.raises(AssertionError, match="its payload's 'text' is a int, not str"):
        append(lock_table(table.row.pk), "chat.posted", actor=table.ann, summary="hi", payload={"text": 7})
    with pytest.raises(AssertionError, match="link.regenerated is logged for 'gm', not 'everyone'"):
        append(lock_table(table.row.pk), "link.regenerated", actor=table.gm, summary="new", payload={"which": "player"})


def test_append_returns_the_envelope_that_carries_the_event_to_the_feed(table) -> None:
    roll = services.dice_roll(table=table.row, actor=table.ann, notation="1d6", mode="blind", rng=random.Random(1))
    envelope = Envelope.of(roll)
    assert envelope.kind is catalogue.kind_of("dice.rolled")
    assert set(envelope.sights) == {"gm", "public"}  # a blind roll: its private part is the GM's
    assert "roll" in envelope.sights["gm"].data and "roll" not in envelope.sights["public"].data
    assert envelope.sights["gm"].position == str(roll.seq)


def test_every_kind_the_platform_logs_is_in_the_catalogue() -> None:
    """Each kind the services name in code (the second argument of ``append`` or ``card_event``)."""
    named = set()
    for path in (ROOT / "tabletop" / "services").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "append", "card_event") and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                named.add(node.args[1].value)
            if isinstance(node, ast.IfExp) and all(isinstance(b, ast.Constant) and isinstance(b.value, str)
                                                   and re.fullmatch(r"[a-z_]+\.[a-z_]+", b.value) for b in (node.body, node.orelse)):
                named |= {node.body.value, node.orelse.value}
    assert len(named) > 20
    missing = {kind for kind in named if kind not in catalogue.KINDS}
    assert not missing


def test_every_kind_of_every_system_is_in_the_catalogue_with_its_line() -> None:
    for key, game in registry.SYSTEMS.items():
        for type_ in game.event_kinds():
            kind = catalogue.kind_of(f"{key}.{type_}")
            assert kind.audience == "system" and kind.line == game.log_lines.get(type_, catalogue.DEFAULT_LINE)


@pytest.mark.parametrize("kind", catalogue.every_kind(), ids=lambda k: k.name)
def test_each_kind_s_line_and_parts_exist(kind: catalogue.Kind) -> None:
    engines["log"].get_template(kind.line)
    assert set(kind.parts) <= set(parts.PARTS)
    assert kind.audience in ("everyone", "owner", "gm", "any", "system")
