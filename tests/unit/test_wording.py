"""Issue 13, bug 10: "Wording: '1 discarded cards', '(1 dice)', '1 Clash(es)', internal codes in
the log ('announces melee / other')". The log speaks as a person would."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from games.core.words import count
from games.demon_city.narrate import summary

NAMES = {"c1": "Ann", "c2": "Bob"}


@pytest.mark.parametrize(("n", "said"), [(0, "0 dice"), (1, "1 die"), (3, "3 dice")])
def test_a_count_is_singular_for_exactly_one(n: int, said: str) -> None:
    assert count(n, "die", "dice") == said
    assert count(n, "card") == said.replace("dice", "cards").replace("die", "card")


def announced(kind: str, size: int) -> str:
    event = {"type": "announced", "action": {"actor": "c1", "kind": kind, "targets": ["c2"]},
             "pool": {"size": size}}
    return summary(event, NAMES)


def test_an_announcement_names_its_kind_in_words_and_counts_its_dice() -> None:
    assert announced("melee", 1) == "Ann announces close combat at Bob (1 die)."
    assert announced("shoot", 3) == "Ann announces a shot at Bob (3 dice)."
    said = {announced(kind, 2) for kind in ("melee", "grab", "shoot", "exotic", "defend", "other")}
    assert len(said) == 6 and not any(code in line for line in said for code in ("melee", "shoot", "defend"))


def test_collected_dice_count_clashes_and_actions_in_words() -> None:
    one = summary({"type": "dice_collected", "clashes": [["c1", "c2"]], "unresisted": ["c1"]}, NAMES)
    assert one == "Dice collected: 1 Clash, 1 unresisted action."
    two = summary({"type": "dice_collected", "clashes": [[], []], "unresisted": []}, NAMES)
    assert two == "Dice collected: 2 Clashes, 0 unresisted actions."


def test_the_odds_page_speaks_of_the_rulebook_not_the_seed(client) -> None:
    page = client.get("/games/demon_city/odds/").content.decode()
    assert "rulebook's table of odds" in page and "seed" not in page.lower()


def test_a_card_line_opens_with_a_sentence_for_any_move_label() -> None:
    """Issue 38, 6: log lines "For Pip's choose a card...", "For demo-gm's end the combat...":
    every line a player reads is a plain sentence about the game."""
    from games.core.words import for_whom

    assert for_whom("Pip", "Choose a card") == "As Pip chooses a card"
    assert for_whom("demo-gm", "End the combat") == "As demo-gm ends the combat"
    assert for_whom("Ann", "Call the Resolution Point") == "As Ann calls the Resolution Point"
    assert for_whom("Jo", "Approve the check") == "As Jo approves the check"
    assert for_whom("Ghoul", "Defence") == "For Ghoul's defence"  # a noun reads as before
    assert for_whom("Marieta", "Draw") == "For Marieta's draw"


_SEED = re.compile(r"\bseeds?(?:'s)?\b", re.IGNORECASE)
_ROOT = pathlib.Path(__file__).resolve().parents[2]


def _strings_a_page_may_show(path: pathlib.Path) -> list[tuple[int, str]]:
    """Every string constant of a module but its docstrings (the words code may put on a page)."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_word_a_player_reads_speaks_of_the_seed() -> None:
    """Issue 38, 6: "the seed's own jargon on the screen ("the seed's indicators", "the seed's
    normal 6 to 13 AP": players do not know what a seed is)". No string the games or the platform
    may show, and no template, says "seed"; the code's comments and docstrings may."""
    found = []
    for package in ("games", "tabletop"):
        for path in sorted((_ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            found += [f"{path.relative_to(_ROOT)}:{line}: {text[:80]!r}"
                      for line, text in _strings_a_page_may_show(path) if _SEED.search(text)]
    for path in sorted((_ROOT / "templates").rglob("*.html")):
        found += [f"{path.relative_to(_ROOT)}: {m.group(0)!r}" for m in _SEED.finditer(path.read_text())]
    assert found == []
