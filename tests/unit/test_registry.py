from __future__ import annotations

import pytest

from games import registry
from games.freeform import sheet as freeform
from games.sheets import SheetError, format_stats, parse_stats


def test_freeform_and_demon_city_are_available() -> None:
    assert [s.key for s in registry.available()] == ["freeform", "demon_city"]


def test_the_seed_systems_not_yet_landed_are_listed_as_coming() -> None:
    names = {s.name for s in registry.coming()}
    assert names == {"Shadows of Humanity", "Passages (NycosRPG)", "Harsh Light", "Report Card"}


def test_unknown_system_is_refused_by_name() -> None:
    with pytest.raises(registry.UnknownSystem, match="nope"):
        registry.get("nope")


def test_freeform_sheet_has_colour_notes_and_stats() -> None:
    keys = [f.key for f in registry.get("freeform").sheet_fields]
    assert keys == ["colour", "notes", "stats"]


def test_freeform_sheet_cleans_stats_text() -> None:
    cleaned = freeform.clean({"colour": "#A1B2C3", "notes": "brave", "stats": "Str: 3\n\nWits : 5"})
    assert cleaned == {"colour": "#a1b2c3", "notes": "brave", "stats": [["Str", "3"], ["Wits", "5"]]}
    assert registry.get("freeform").derived(cleaned) == [("Stats", "2")]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"colour": "red"}, "colour"),
        ({"colour": "#123456\"><script>"}, "colour"),
        ({"notes": "x" * 4001}, "notes"),
        ({"stats": "no colon here"}, "stats"),
        ({"stats": "\n".join(f"s{i}: 1" for i in range(41))}, "stats"),
        ({"stats": "n" * 41 + ": 1"}, "stats"),
    ],
)
def test_freeform_sheet_refuses_bad_values(data: dict, field: str) -> None:
    with pytest.raises(SheetError) as raised:
        freeform.clean(data)
    assert raised.value.field == field


def test_stats_text_round_trips() -> None:
    stats = [["Strength", "3"], ["Luck", "d6"]]
    assert parse_stats(format_stats(stats)) == stats
