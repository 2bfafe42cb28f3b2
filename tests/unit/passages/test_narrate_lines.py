"""Every kind of Passages event reads as it did: ``narrate.summary`` over a corpus of events
taken from the passages tests (and their every outcome and reason), each read by a seat that
sees every sheet, by the seat the test had, and by one that sees none, against the lines the
log printed for them before ``summary`` became one function per kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.passages import narrate

LINES = json.loads((Path(__file__).parent / "narrate_lines.json").read_text(encoding="utf-8"))


def test_the_corpus_holds_every_kind_the_engine_narrates() -> None:
    assert {item["event"]["type"] for item in LINES} == set(narrate.LINES)


@pytest.mark.parametrize("item", LINES, ids=lambda item: item["event"]["type"])
def test_each_event_reads_as_it_did(item: dict) -> None:
    assert narrate.summary(item["event"], item["state"], frozenset(item["hidden"])) == item["line"]
