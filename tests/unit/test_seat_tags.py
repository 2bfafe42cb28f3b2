"""The seat's view in templates (tabletop/templatetags/seat_tags.py): each filter decides, from a
seat and the data an element is drawn from, what tabletop/feed/marks.py decides from that element's
marks; a context without a seat keeps everything; and every marked element of the templates is
drawn under the filter of its mark."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.template import Context, Template

from tabletop.feed import seat as seat_rules
from tabletop.feed.marks import _keeps, attributes
from tabletop.feed.seat import GM, SPECTATOR, Seat
from tabletop.templatetags import seat_tags

ANN = Seat("player", 7)
BOB = Seat("player", 8)
SEATS = (GM, ANN, BOB, SPECTATOR)
MEMBERS = (7, 8, None, "", "7", "8")
ROOT = Path(__file__).resolve().parents[2]


def kept(seat: Seat, tag: str, *, in_mine_only: bool = False) -> bool:
    """What tabletop/feed/marks.py decides of the element that opens with ``tag``."""
    attrs = attributes(tag)
    return _keeps(seat, "div", attrs, set(attrs.get("class", "").split()), in_mine_only)


def written(member: Any) -> str:
    """A member id as a template writes it into an attribute (``{{ x|default:'' }}``)."""
    return str(member) if member not in (None, "") else ""


@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.key)
def test_may_decides_as_the_gm_player_and_data_only_marks(seat: Seat) -> None:
    assert seat_tags.may(seat, "gm") == kept(seat, 'class="gm-only"') == kept(seat, 'data-only="gm"')
    assert seat_tags.may(seat, "player") == kept(seat, 'class="player-only"')
    assert seat_tags.may(seat, "seated") == kept(seat, 'data-only="seated"')
    assert [seat_tags.may(seat, w) for w in seat_rules.WHO] == {
        "gm": [True, False, True], "player": [False, True, True], "spectator": [False, False, False]}[seat.role]


@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.key)
def test_acts_decides_as_posting_and_the_card_and_deck_tools(seat: Seat) -> None:
    assert seat_tags.acts(seat) == (seat.role != "spectator")
    for tag in ('hx-post="/tables/1/chat/"', 'action="/tables/1/roll/"', 'class="card-tools"',
                'class="deck-tools deal-tools"', 'class="deck-use" data-open="true"'):
        assert seat_tags.acts(seat) == kept(seat, tag), tag
    assert kept(seat, 'action="/accounts/login/"')  # a form that does not post to the table


@pytest.mark.parametrize("member", MEMBERS)
@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.key)
def test_controls_and_owns_decide_as_the_controller_owner_and_mine_only_marks(seat: Seat, member: Any) -> None:
    m = written(member)
    assert seat_tags.controls(seat, member) == kept(seat, f'class="controller-only" data-controller="{m}"')
    assert seat_tags.controls(seat, member) == kept(seat, f'data-controller="{m}"', in_mine_only=True)
    assert seat_tags.owns(seat, member) == kept(seat, f'class="edit-link" data-owner="{m}"')
    assert seat_tags.controls(seat, member) == (seat.role == "gm" or (m != "" and m == str(seat.member)))


@pytest.mark.parametrize("dealers", ["", "7", "8", "7 8", "78"])
@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.key)
def test_deals_decides_as_the_dealers_mark(seat: Seat, dealers: str) -> None:
    assert seat_tags.deals(seat, dealers) == kept(seat, f'data-dealers="{dealers}"')
    assert seat_tags.deals(seat, dealers) == kept(seat, f'class="dealer-tools" data-dealers="{dealers}"')
    assert seat_tags.deals(seat, dealers) == seat_rules.deals(seat, [int(d) for d in dealers.split()])


@pytest.mark.parametrize("owner", [7, 8, None])
@pytest.mark.parametrize("open_to_players", [True, False])
@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.key)
def test_draws_decides_as_the_deck_use_mark(seat: Seat, open_to_players: bool, owner: Any) -> None:
    deck = {"players_may_use": open_to_players, "owner_id": owner}
    tag = f'class="deck-use" data-open="{str(open_to_players).lower()}" data-owner="{written(owner)}"'
    assert seat_tags.draws(seat, deck) == kept(seat, tag)


def test_without_a_seat_every_filter_keeps_the_element() -> None:
    for seat in (None, ""):
        assert seat_tags.may(seat, "gm") and seat_tags.may(seat, "player") and seat_tags.acts(seat)
        assert seat_tags.controls(seat, 8) and seat_tags.owns(seat, None) and seat_tags.deals(seat, "")
        assert seat_tags.draws(seat, {"players_may_use": False, "owner_id": None})
    template = Template('{% load seat_tags %}{% if seat|may:"gm" %}a{% endif %}{% if seat|controls:c %}b{% endif %}'
                        '{% if seat|acts %}c{% endif %}')
    assert template.render(Context({"c": 8})) == "abc"
    assert template.render(Context({"c": 8, "seat": ANN})) == "c"
    assert template.render(Context({"c": 8, "seat": BOB})) == "bc"
    assert template.render(Context({"c": 8, "seat": SPECTATOR})) == ""
    assert template.render(Context({"c": 8, "seat": GM})) == "abc"


def test_a_seat_is_the_gms_a_players_or_seated_and_nothing_else() -> None:
    with pytest.raises(ValueError, match="not 'dm'"):
        seat_tags.may(GM, "dm")


# The templates: every element marked for some seats is drawn under the filter of its mark.

MARKED = re.compile(r'class="[^"]*\b(gm-only|player-only|controller-only|edit-link|deck-use|card-tools|'
                    r'dealer-tools|deal-tools)\b|data-only=|data-dealers=')
START = re.compile(r"<[a-z][a-z0-9-]*\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>")
GUARD = re.compile(r"\{% if [^%]*\bseat\|[^%]*%\}(?:\{% if [^%]*%\})?$")
TEMPLATES = sorted([*(ROOT / "templates" / "tabletop").glob("*.html"), *(ROOT / "templates" / "games").glob("*/*.html")])


def unguarded(source: str) -> list[str]:
    """Each start tag in ``source`` that carries a seat's mark and is not drawn right after a
    ``{% if ... seat|... %}`` (within a ``{% with %}`` that names what it reads, or an ``{% if %}``
    it holds)."""
    out = []
    for match in START.finditer(source):
        tag = match.group(0)
        if not MARKED.search(tag):
            continue
        before = source[:match.start()]
        before = re.sub(r"\{% if p\.next %\}$|\{% else %\}$", "", before)  # a start tag chosen between two
        before = re.sub(r"\{% with [^%]*%\}(?=\{% if [^%]*\bseat\|[^%]*%\}$)", "", before)
        if not GUARD.search(before) and not _after_a_guarded_branch(source, match.start()):
            out.append(tag[:90])
    return out


def _after_a_guarded_branch(source: str, at: int) -> bool:
    """``{% if seat|... %}{% if p.next %}<div ...>{% else %}<details ...>``: the second start tag
    stands under the same guard as the first."""
    line_start = source.rfind("\n", 0, at) + 1
    return bool(re.match(r"\s*\{% if [^%]*\bseat\|[^%]*%\}\{% if p\.next %\}", source[line_start:at]))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_marked_element_is_drawn_under_its_seat_filter(path: Path) -> None:
    source = path.read_text()
    assert unguarded(source) == []
    if MARKED.search(source):
        assert re.search(r"\{% load [^%]*\bseat_tags\b", source)


def test_the_check_of_the_templates_finds_an_element_drawn_without_its_filter() -> None:
    assert unguarded('<div><details class="gm-only"><p>x</p></details></div>') == ['<details class="gm-only">']
    assert unguarded('{% if seat|may:"gm" %}<details class="gm-only">x</details>{% endif %}') == []
    assert unguarded('{% if is_gm %}<option data-only="gm">x</option>{% endif %}') == ['<option data-only="gm">']
    assert unguarded('<p class="sh-hint">x</p><button hx-post="/x">y</button>') == []
