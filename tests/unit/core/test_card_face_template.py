"""Static checks of ``templates/games/core/card_face.html``, without Django.

Unit tests stay free of Django, so the template is read as text: plain template language
only, nothing unescaped, nothing fetched, classes prefixed ``card-``, every attribute it
reads exists on :class:`games.core.cards.Card`, and the reversed state is both drawn and
spoken. Rendering it belongs to the integration tests.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from games.core.cards import Card

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "games" / "core" / "card_face.html"
SOURCE = TEMPLATE.read_text(encoding="utf-8")
MARKUP = re.sub(r"\{#.*?#\}", "", SOURCE, flags=re.S)
TAGS = re.findall(r"\{%\s*(.*?)\s*%\}", MARKUP)
VARIABLES = re.findall(r"\{\{\s*(.*?)\s*\}\}", MARKUP)
CARD_ATTRIBUTES = {f.name for f in dataclasses.fields(Card)} | {
    name for name, value in vars(Card).items() if isinstance(value, property)
}
REVERSED_BLOCK = re.compile(r"\{% if reversed and card\.reversible %\}(.*?)\{% endif %\}", re.S)


def test_uses_only_if_blocks_of_the_plain_template_language() -> None:
    assert {tag.split()[0] for tag in TAGS} <= {"if", "else", "endif"}
    assert sum(t.startswith("if ") for t in TAGS) == TAGS.count("endif")


def test_escapes_everything() -> None:
    """No filter at all (so no ``safe``), no ``autoescape off``: Django escapes each value."""
    assert not any("|" in v for v in VARIABLES)
    assert "autoescape" not in MARKUP and "safe" not in MARKUP


def test_reads_only_the_card_and_reversed() -> None:
    for variable in VARIABLES:
        assert variable.startswith("card."), variable
        assert variable.removeprefix("card.") in CARD_ATTRIBUTES, variable
    for tag in TAGS:
        if tag.startswith("if "):
            for word in tag.split()[1:]:
                assert word in {"and", "not", "reversed"} or (
                    word.startswith("card.") and word.removeprefix("card.") in CARD_ATTRIBUTES
                ), tag


@pytest.mark.parametrize("fetching", ["<img", "<image", "<script", "<link", "src=", "href=", "url("])
def test_fetches_nothing(fetching: str) -> None:
    assert fetching not in MARKUP.lower()


def test_every_css_class_is_prefixed_card() -> None:
    classes = [
        name
        for attr in re.findall(r'class="([^"]*)"', MARKUP)
        for name in re.sub(r"\{\{.*?\}\}", "x", re.sub(r"\{%.*?%\}", " ", attr)).split()
    ]
    assert classes
    assert all(c.startswith("card-") for c in classes), classes


def test_is_an_svg_image_with_an_accessible_name() -> None:
    assert re.search(r'<svg[^>]*role="img"', MARKUP)
    title = re.search(r"<title>(.*?)</title>", MARKUP, re.S)
    assert title and "{{ card.name }}" in title.group(1) and "{{ card.value }}" in title.group(1)
    assert "{{ card.name }}" in re.search(r"<figcaption.*?</figcaption>", MARKUP, re.S).group(0)


def test_a_reversible_card_lying_reversed_is_turned_and_says_reversed() -> None:
    conditional = "".join(REVERSED_BLOCK.findall(MARKUP))
    assert "reversed" in conditional.replace("card-reversed", "")
    assert 'transform="rotate(180' in conditional
    outside = REVERSED_BLOCK.sub("", MARKUP)
    assert not re.search(r"<g[^>]*rotate", outside), "only a reversed card may be turned"
