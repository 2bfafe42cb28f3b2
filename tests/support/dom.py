"""A page as the browser holds it, and a live frame swapped into it as htmx and the page's
script swap it (static/js/tabletop.js), in Python, for tests in the style of Zulip's
``verify_action`` (issue 28): a seat's page, with the frames an action sends that seat swapped
in, must read as the page that seat would load afresh.

What is mimicked, and nothing more: htmx's websocket extension swaps every top-level element of
a frame out of band (``hx-swap-oob``: "true" or none replaces the element of the same id,
"delete" removes it, "beforeend:#id" appends the element's children there); before that, the
page's script makes room in a list for an item it does not hold yet (``data-upsert-into``, the
list's ``data-empty`` line removed), and afterwards takes out of a player's ``mine-only``
selects the options of characters that are not theirs.
"""

from __future__ import annotations

import re

from lxml import html as lhtml
from lxml.etree import ParserError

Element = lhtml.HtmlElement


def page(text: str) -> Element:
    return lhtml.document_fromstring(text)


def by_id(root: Element, ident: str) -> Element | None:
    found = root.xpath("//*[@id=$i]", i=ident)
    return found[0] if found else None


def _top_elements(frame: str) -> list[Element]:
    try:
        return list(lhtml.fragments_fromstring(frame.strip()))
    except ParserError:
        return []


def _make_room(root: Element, item: Element) -> None:
    for wanted in item.iter():
        target = wanted.get("data-upsert-into") if isinstance(wanted.tag, str) else None
        ident = wanted.get("id") if target else None
        if not ident or by_id(root, ident) is not None:
            continue
        room = by_id(root, target.removeprefix("#"))
        if room is None:
            continue
        room.append(lhtml.Element(wanted.tag, id=ident))
        for empty in room.xpath(".//*[@data-empty]"):
            empty.drop_tree()


def swap(root: Element, frame: str, *, player_member: int | None = None) -> list[str]:
    """Swaps ``frame`` into the page ``root``; returns the ids it found no target for."""
    missing = []
    items = [e for e in _top_elements(frame) if isinstance(e, Element)]
    for item in items:
        _make_room(root, item)
    for item in items:
        how = item.get("hx-swap-oob") or "true"
        item.attrib.pop("hx-swap-oob", None)
        if how.startswith("beforeend:"):
            target = by_id(root, how.split(":", 1)[1].removeprefix("#"))
            if target is None:
                missing.append(how)
                continue
            for child in list(item):
                target.append(child)
            continue
        ident = item.get("id")
        target = by_id(root, ident) if ident else None
        if target is None:
            if ident:
                missing.append(ident)
            continue
        if how == "delete":
            target.drop_tree()
        else:
            target.getparent().replace(target, item)
    if player_member is not None:
        for option in root.xpath("//select[contains(concat(' ', @class, ' '), ' mine-only ')]/option"):
            if option.get("data-controller") != str(player_member):
                option.drop_tree()
    return missing


def text_of(element: Element | None) -> str:
    """An element's markup, normalised: whitespace runs as one space, no swap attributes."""
    if element is None:
        return ""
    markup = lhtml.tostring(element, encoding="unicode")
    # how a swap is made, not what it shows: a frame's element carries its swap; the page's
    # hand counts are hx-preserve'd against their row's redraw, a frame's may not be (htmx would
    # keep the old count in place of the new)
    markup = re.sub(r'\s+(?:hx-swap-oob|data-upsert-into|hx-preserve)="[^"]*"', "", markup)
    markup = re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r'\1""', markup)
    markup = re.sub(r'\s+data-last-seq="[^"]*"', "", markup)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", markup)).strip()
