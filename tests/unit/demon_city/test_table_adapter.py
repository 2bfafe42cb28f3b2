"""The seam between the Demon City engine and a table: sheet cleaning, the GM's Injury table
as text, and the odds shown beside a Clash of three or more."""

from __future__ import annotations

from itertools import product

import pytest

from games.core.engine import RuleError
from games.demon_city.injury import DEFAULT_INJURY_TABLE
from games.demon_city.sheet import clean_sheet
from games.demon_city.injury_text import format_injury_table, parse_injury_table
from games.demon_city.round_view import sole_highest
from games.sheets import SheetError


def test_injury_table_text_round_trips() -> None:
    assert parse_injury_table(format_injury_table(DEFAULT_INJURY_TABLE)) == DEFAULT_INJURY_TABLE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-10 | Fine | alive | final", "line 1"),
        ("one | Fine | alive | final | x", "not a range"),
        ("1-10 | Fine | maybe | final | x", "dead' or 'alive"),
        ("1-5 | Fine | alive | final | x", "cover every roll"),
        ("1-10 | A | alive | final | x\n5-5 | B | dead | final | y", "exactly once"),
    ],
)
def test_a_bad_injury_table_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        parse_injury_table(text)


def brute_sole_highest(sizes: dict[str, int]) -> dict[str, float]:
    ids = list(sizes)
    wins = dict.fromkeys(ids, 0)
    total = 0
    for rolls in product(*[list(product(range(1, 11), repeat=sizes[i])) for i in ids]):
        total += 1
        bests = {i: max(r) for i, r in zip(ids, rolls)}
        top = max(bests.values())
        leaders = [i for i in ids if bests[i] == top]
        if len(leaders) == 1:
            wins[leaders[0]] += 1
    return {i: wins[i] / total for i in ids}


@pytest.mark.parametrize("sizes", [{"a": 1, "b": 1, "c": 1}, {"a": 2, "b": 1, "c": 1}, {"a": 1, "b": 2, "c": 2}])
def test_odds_of_rolling_highest_alone_in_a_big_clash_are_exact(sizes: dict[str, int]) -> None:
    """Seed: "In each clash the highest roller acts" - with three or more rolling, the
    panel shows each one's chance of rolling highest alone."""
    exact = sole_highest(sizes)
    expected = brute_sole_highest(sizes)
    for cid in sizes:
        assert exact[cid] == pytest.approx(expected[cid], abs=1e-12)
    assert sole_highest({"a": 1, "b": 1, "c": 1})["a"] == pytest.approx(0.285)


def test_sheet_cleaning_reads_form_values_and_refuses_bad_ones() -> None:
    sheet = clean_sheet({"agility": "4", "toughness": "3", "skills": "Driving: 6", "supernatural": "",
                         "injured": "on", "side": "players"})
    assert sheet["agility"] == 4 and sheet["skills"] == {"Driving": 6} and sheet["injured"] is True
    assert sheet["current_toughness"] is None  # blank: equal to Base Toughness
    with pytest.raises(SheetError) as bad:
        clean_sheet({"agility": "fast"})
    assert bad.value.field == "agility"
    with pytest.raises(SheetError):
        clean_sheet({"toughness": "2", "current_toughness": "5"})
