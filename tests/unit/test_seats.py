"""tabletop/feed/marks.py: what a seat may not use is not in its HTML (issue 21: "no control or figure
a viewer may not use or see is in its HTML"). Checked against a slow reference built on the
standard library's HTML parser, over hand-written cases and generated ones."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.feed.seat import GM, SPECTATOR, Seat
from tabletop.feed.marks import VOID, _keeps, attributes, strip

ANN = Seat("player", 7)
BOB = Seat("player", 8)


def test_the_gm_gets_everything_but_a_player_s_own_choices_and_unmarked_html_is_everyone_s() -> None:
    html = '<div class="gm-only"><button>Deal</button></div><p>Ann rolls 7.</p>'
    assert strip(html, GM) is html
    choice = '<button class="player-only controller-only" data-controller="7">Retry</button><p>x</p>'
    assert strip(choice, GM) == "<p>x</p>" and strip(choice, ANN) == choice
    plain = "<p>Ann rolls 7.</p><ol><li>x</li></ol>"
    assert strip(plain, ANN) is plain and strip(plain, SPECTATOR) is plain


def test_gm_only_controls_and_all_they_hold_leave_a_player_s_and_a_spectator_s_html() -> None:
    html = ('<section><h2>Fight</h2><details class="gm-only"><summary>GM</summary>'
            '<details><summary>inner</summary><form><input name="x"></form></details>'
            '<p>Ghoul: Claws 4</p></details><p>Round 2</p></section>')
    for seat in (ANN, SPECTATOR):
        assert strip(html, seat) == "<section><h2>Fight</h2><p>Round 2</p></section>"


def test_a_controller_s_control_reaches_that_player_alone() -> None:
    html = ('<div><button class="controller-only small" data-controller="7">Draw for Marieta</button>'
            '<button class="controller-only" data-controller="8">Draw for Jo</button>'
            '<button class="player-only controller-only" data-controller="">Claim</button></div>')
    assert strip(html, ANN) == '<div><button class="controller-only small" data-controller="7">Draw for Marieta</button></div>'
    assert strip(html, BOB) == '<div><button class="controller-only" data-controller="8">Draw for Jo</button></div>'
    assert strip(html, SPECTATOR) == "<div></div>"


def test_the_cards_tools_follow_who_may_use_each_deck() -> None:
    html = ('<div class="deck"><div class="deck-use" data-open="false" data-owner="7"><button>Draw</button></div>'
            '<div class="dealer-tools" data-dealers="7 9"><button>Deal</button></div>'
            '<select id="deal-deck"><option data-dealers="7">Ann\'s Tarot</option><option data-dealers="">Fate</option></select>'
            '<div class="card-tools"><button>Discard</button></div></div>')
    ann, bob, watcher = strip(html, ANN), strip(html, BOB), strip(html, SPECTATOR)
    assert "Draw" in ann and "Deal" in ann and "Ann's Tarot" in ann and "Fate" not in ann
    assert "Draw" not in bob and "Deal" not in bob and "Ann's Tarot" not in bob and "Discard" in bob
    assert "Draw" not in watcher and "Deal" not in watcher and "Discard" not in watcher


def test_a_mine_only_list_offers_a_player_only_their_own_characters() -> None:
    html = ('<select class="mine-only" name="character"><option value="1" data-controller="7">Marieta</option>'
            '<option value="2" data-controller="8">Jo</option><option value="3" data-controller="">Ghoul</option></select>')
    assert strip(html, ANN) == '<select class="mine-only" name="character"><option value="1" data-controller="7">Marieta</option></select>'


def test_quoted_angle_brackets_void_elements_and_raw_text_do_not_confuse_it() -> None:
    html = ('<style>.gm-only { display: none } a > b {}</style>'
            '<script>if (a < b && c > d) { x("<div class=\\"gm-only\\">") }</script>'
            '<form hx-on::after-request="if (n > 2) go()"><input class="gm-only" name="secret">'
            '<img src="x.png" class="gm-only" alt="">'
            '<br class="gm-only"/><input name="kept"></form>')
    out = strip(html, ANN)
    assert out == ('<style>.gm-only { display: none } a > b {}</style>'
                   '<script>if (a < b && c > d) { x("<div class=\\"gm-only\\">") }</script>'
                   '<form hx-on::after-request="if (n > 2) go()"><input name="kept"></form>')


class _Reference(HTMLParser):
    """The slow, obviously right way: the standard parser, dropping marked subtrees."""

    def __init__(self, seat: Seat) -> None:
        super().__init__(convert_charrefs=False)
        self.seat = seat
        self.out: list[str] = []
        self.skipping = 0
        self.stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        void = tag in VOID
        if self.skipping:
            self.skipping += 0 if void else 1
            return
        values = {k: v or "" for k, v in attrs}
        mine = any(self.stack)
        if not _keeps(self.seat, tag, values, set(values.get("class", "").split()), mine):
            self.skipping = 0 if void else 1
            return
        self.out.append(self.get_starttag_text() or "")
        if not void:
            self.stack.append("mine-only" in values.get("class", "").split() or mine)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if not self.skipping and _keeps(self.seat, tag, values, set(values.get("class", "").split()), any(self.stack)):
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
            return
        if self.stack:
            self.stack.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


def reference(html: str, seat: Seat) -> str:
    parser = _Reference(seat)
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


MARK_CLASSES = ["gm-only", "player-only", "controller-only", "edit-link", "card-tools", "deck-use", "dealer-tools",
                "deal-tools", "mine-only", "small", "quiet"]


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
        tag = draw(st.sampled_from(["div", "p", "span", "details", "select", "option", "input", "br", "button"]))
        attrs = []
        classes = draw(st.lists(st.sampled_from(MARK_CLASSES), max_size=2))
        if classes:
            attrs.append(f'class="{" ".join(classes)}"')
        for name in ("data-controller", "data-owner", "data-dealers", "data-open", "hx-post", "data-only"):
            if draw(st.booleans()):
                attrs.append(f'{name}="{draw(st.sampled_from(["", "7", "8", "7 8", "false", "true", "gm", "seated"]))}"')
        start = f"<{tag}{''.join(' ' + a for a in attrs)}>"
        if tag in VOID:
            parts.append(start)
        else:
            parts.append(start + draw(st.sampled_from(["", "text", "a &gt; b"])) + draw(trees(depth + 1)) + f"</{tag}>")
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(trees(), st.sampled_from([ANN, BOB, SPECTATOR, GM]))
def test_the_fast_strip_agrees_with_the_reference(html: str, seat: Seat) -> None:
    assert strip(html, seat) == reference(html, seat)


def test_a_spectator_is_sent_nothing_that_posts_to_the_table() -> None:
    html = ('<form method="post" action="/accounts/logout/"><button>Log out</button></form>'
            '<form hx-post="/tables/3/commands/prepare_check/"><select id="check-who"></select></form>'
            '<form method="post" action="/tables/3/roll/"><input name="notation"></form>'
            '<button type="button" hx-post="/tables/3/cards/play/">Play</button><p>Round 2</p>')
    assert strip(html, SPECTATOR) == '<form method="post" action="/accounts/logout/"><button>Log out</button></form><p>Round 2</p>'
    assert strip(html, ANN) == html


def test_an_item_for_some_seats_lists_only_reaches_those_seats() -> None:
    html = '<option id="o1" data-only="gm">Ann</option><label id="d1" data-only="seated">Ann</label><p>x</p>'
    assert strip(html, GM) == html
    assert strip(html, ANN) == '<label id="d1" data-only="seated">Ann</label><p>x</p>'
    assert strip(html, SPECTATOR) == "<p>x</p>"


def test_attributes_read_every_kind_of_quoting() -> None:
    assert attributes(' class="a b" data-x=\'1 > 2\' hidden data-y=z') == {
        "class": "a b", "data-x": "1 > 2", "hidden": "", "data-y": "z"}
