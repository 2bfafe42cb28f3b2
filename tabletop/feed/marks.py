"""What a seat may not use does not reach it. Templates mark what only some seats may use (the same marks the page's CSS reads):

- ``gm-only``: the GM's; ``player-only``: a player's (not even the GM's, who stands in for players
  elsewhere: a choice only its player makes, a claim);
- ``controller-only`` with ``data-controller="<member id>"``: that member's (and the GM's);
- ``edit-link`` with ``data-owner``: the sheet's owner's (and the GM's);
- an element with ``data-dealers="<member ids>"``: those dealers' (and the GM's);
- ``deck-use`` with ``data-open="false"`` and ``data-owner``: the deck's owner's (and the GM's);
- inside an element of class ``mine-only``, an element with ``data-controller``: that member's;
- ``data-only="gm"``: the GM's; ``data-only="seated"``: the GM's and the players' (an item a
  frame adds to, or deletes from, a list only those seats' pages hold);
- ``card-tools``, ``deck-use``, ``dealer-tools``, ``deal-tools``: never a spectator's; nor is
  anything that posts to the table (``hx-post``, a form whose ``action`` is under ``/tables/``):
  a spectator watches (permissions.MATRIX).

``strip(html, seat)`` removes each such element, with all it holds, from the HTML a seat is sent;
the GM's loses only what is a player's alone. The templates are the project's own, so the HTML is well formed; a tag's
attributes may still hold ``>`` inside quotes, and a ``<script>`` or ``<style>`` is raw text.
"""

from __future__ import annotations

import re

from django.conf import settings

from tabletop.feed import seat as rules
from tabletop.feed.seat import Seat

# What a piece of HTML must hold for any of it to be taken out: when none is there (a chat line,
# a roll, most of the log), the HTML is every seat's as it is.
MARKS = ("gm-only", "player-only", "controller-only", "edit-link", "data-dealers", "deck-use", "mine-only",
         "card-tools", "dealer-tools", "deal-tools", "data-only")
_MARKED = re.compile("|".join(re.escape(m) for m in MARKS))
_PLAYER_ONLY = re.compile("player-only")
_SPECTATOR_MARKED = re.compile("|".join(re.escape(m) for m in (*MARKS, "hx-post", 'action="/tables/')))
_TAG = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
)
_ATTR = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
RAW = frozenset({"script", "style"})
_SPECTATORS_NEVER = frozenset({"card-tools", "deck-use", "dealer-tools", "deal-tools"})



def attributes(source: str) -> dict[str, str]:
    return {m.group(1).lower(): next((g for g in m.group(2, 3, 4) if g is not None), "")
            for m in _ATTR.finditer(source)}


def _keeps(seat: Seat, name: str, attrs: dict[str, str], classes: set[str], in_mine_only: bool) -> bool:
    """Whether ``seat`` keeps an element with these attributes, by the rules the templates draw by
    (tabletop/feed/seat.py), read off its marks."""
    only = attrs.get("data-only")
    if only in ("gm", "seated") and not rules.may(seat, only):
        return False
    if ("hx-post" in attrs or attrs.get("action", "").startswith("/tables/")) and not rules.acts(seat):
        return False
    if ("gm-only" in classes and not rules.may(seat, "gm")) or ("player-only" in classes and not rules.may(seat, "player")):
        return False
    if "controller-only" in classes and not rules.controls(seat, attrs.get("data-controller")):
        return False
    if "edit-link" in classes and not rules.owns(seat, attrs.get("data-owner")):
        return False
    if "data-dealers" in attrs and not rules.deals(seat, attrs["data-dealers"]):
        return False
    if classes & _SPECTATORS_NEVER and not rules.acts(seat):
        return False
    if "deck-use" in classes and not rules.draws(seat, attrs.get("data-open") != "false", attrs.get("data-owner")):
        return False
    return not (in_mine_only and "data-controller" in attrs and not rules.controls(seat, attrs["data-controller"]))


def strip(html: str, seat: Seat) -> str:
    """``html`` without what ``seat`` may not use or see (the module's marks)."""
    marked = _PLAYER_ONLY if seat.role == "gm" else _SPECTATOR_MARKED if seat.role == "spectator" else _MARKED
    if not marked.search(html):
        return html
    out: list[str] = []
    kept_from = 0
    stack: list[tuple[str, bool]] = []  # open elements: (name, is a mine-only container)
    skip_name: str | None = None  # the element being taken out, and how deep in it we are
    depth = 0
    pos = 0
    while True:
        match = _TAG.search(html, pos)
        if match is None:
            break
        closing, name, attrs_src, self_closing = match.group(1), match.group(2).lower(), match.group(3), match.group(4)
        pos = match.end()
        if not closing and name in RAW:  # raw text: jump to its end tag
            end = html.lower().find(f"</{name}", pos)
            pos = len(html) if end < 0 else end
            if skip_name is None:
                continue
        if skip_name is not None:
            if name == skip_name and name not in VOID:
                depth += -1 if closing else (0 if self_closing else 1)
                if depth == 0:
                    kept_from = match.end()
                    skip_name = None
            continue
        if closing:
            if stack and stack[-1][0] == name:
                stack.pop()
            continue
        attrs = attributes(attrs_src) if marked.search(attrs_src) or (stack and stack[-1][1]) else {}
        classes = set(attrs.get("class", "").split())
        in_mine_only = any(mine for _, mine in stack)
        if attrs and not _keeps(seat, name, attrs, classes, in_mine_only):
            out.append(html[kept_from:match.start()])
            if name in VOID or self_closing:
                kept_from = match.end()
            else:
                skip_name, depth = name, 1
            continue
        if name not in VOID and not self_closing:
            stack.append((name, "mine-only" in classes or in_mine_only))
    if skip_name is not None:  # never closed: nothing after it is kept, as a browser would nest it
        return "".join(out)
    out.append(html[kept_from:])
    return "".join(out)


class DrawnForAnother(AssertionError):
    """A template drew for a seat what the seat's rules say it may not use."""


def checked(html: str, seat: Seat) -> str:
    """``html`` as ``seat`` is sent it. The templates draw each seat's view by its rules
    (feed/seat.py), so there is nothing to take out: with ``TABLETOP_CHECK_SEATS`` on (the test
    suite) anything the pass would take out fails loudly, naming what; otherwise the pass takes
    it out, so a template that forgot to ask still hands no seat another's control."""
    kept = strip(html, seat)
    if kept != html and settings.TABLETOP_CHECK_SEATS:
        raise DrawnForAnother(f"drawn for {seat} though it may not use it: {_first_cut(html, kept)}")
    return kept


def _first_cut(html: str, kept: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(html, kept)) if a != b), len(kept))
    return html[max(0, at - 80):at + 200]
