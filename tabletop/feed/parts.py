"""What an event redraws on a page besides its log line, for one seat through one reading: a
member's row, character cards, the card panels, the scene. The catalogue names each kind's parts
(``Kind.parts``); ``draw`` draws them, and the card faces the panels and pages show.

Every part is drawn from the event's own row: its public payload for anyone, with the private
part its reading sees (``Sight.data``); the template is given the seat, and draws only what
that seat may use. A token's event on a scene nobody else sees (``shown`` false) changes no
page: the GM's page shows the shown scene.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.html import format_html

from games.core.cards import OrientedCard
from tabletop.feed.seat import Reading, Seat, may
from tabletop.models import Membership, Role
from tabletop.permissions import may_see_hand

if TYPE_CHECKING:
    from tabletop.feed.catalogue import Envelope

TABLE = "tabletop/table.html"
CARDS = "tabletop/cards.html"
SCENE = "tabletop/scene.html"
CAMPAIGN = "tabletop/campaign.html"
NPCS = "tabletop/npcs.html"


def _member(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """A member joined, or was renamed: their row, and a player's options in the card forms."""
    event = envelope.event
    member = event.payload["member"]
    found = [render_to_string(f"{TABLE}#member_row", {"m": member, "is_gm": reading == "gm", "oob": True,
                                                     "table_id": event.table_id, "seat": seat})]
    if member["role"] == "player":
        context = {"m": member, "oob": True, "seat": seat}
        found.append(render_to_string(f"{CARDS}#player_option", context))
        found.append(render_to_string(f"{CARDS}#deal_checkbox", context))  # a player may deal too
        found.append(render_to_string(f"{CARDS}#owner_option", context))  # the GM's "Whose deck"
    return "".join(found)


def _member_gone(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """A member was removed: their row, and each option of theirs where the seat's page has it."""
    member_id = int(envelope.event.payload["member"]["id"])
    found = [format_html('<li id="member-{}" hx-swap-oob="delete"></li>', member_id)]
    for prefix, held_by in (("player-opt", ""), ("deal-to", "seated"), ("deck-owner", "gm"), ("hand", "gm")):
        if not held_by or may(seat, held_by):  # only where the seat's page holds it
            found.append(format_html('<span id="{}-{}" data-only="{}" hx-swap-oob="delete"></span>', prefix,
                                     member_id, held_by))
    return "".join(found)


def _characters(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The character cards an event redraws, as this reading may see them: the GM's part holds
    the whole character when its sheet is the GM's (``selectors.character_shown``); the table's
    NPC setting redraws every NPC's card, and the GM's screen."""
    event = envelope.event
    found = []
    gm = reading == "gm"
    if "characters" in event.payload:  # the table's NPC setting changed: every NPC's card
        if gm:
            table = {"pk": event.table_id, "npc_sheets_secret": event.payload["npc_sheets_secret"]}
            found.append(render_to_string(f"{TABLE}#npc_screen", {"table": table, "oob": True, "seat": seat}))
        shown = list(event.private.get("characters", event.payload["characters"]) if gm
                     else event.payload["characters"])
    else:
        shown = [event.private.get("character", event.payload["character"]) if gm else event.payload["character"]]
    for character in shown:
        if character.get("retired"):  # put away (a write-back may still name it): its card leaves the page
            found.append(_gone("article", f"character-{character['id']}"))
            continue
        found.append(render_to_string(f"{TABLE}#character_card",
                                      {"c": character, "oob": True, "table_id": event.table_id, "seat": seat}))
    return "".join(found)


def _gone(tag: str, element_id: str) -> str:
    """An element every page of the seat holds, taken off it."""
    return format_html('<{} id="{}" hx-swap-oob="delete"></{}>', tag, element_id, tag)


def _npcs(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """NPCs fielded at once (a copy, several from one sheet or from the bestiary): each one's card
    as this reading may see it (an NPC's sheet behind the screen: the GM's part holds it whole),
    and each of their tokens on the shown scene that this reading sees."""
    event = envelope.event
    data = envelope.sights[reading].data
    base = {"oob": True, "table_id": event.table_id, "seat": seat}
    found = [render_to_string(f"{TABLE}#character_card", {**base, "c": c}) for c in data["characters"]]
    if data["shown"]:
        found += [render_to_string(f"{SCENE}#token", {**base, "gm": reading == "gm", "t": t}) for t in data["tokens"]]
    return "".join(found) + _scene_tools(envelope, reading, seat)


def _scene_tools(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The GM's scene tools as the GM's part holds them, read under the lock (the tokens to hide
    or reveal, the characters a token can be placed for), when an event changed who is at the
    table; "" for any other reading."""
    data = envelope.sights[reading].data
    if reading != "gm" or "scene_tools" not in data:
        return ""
    return render_to_string(f"{SCENE}#tools", {"sv": data["scene_tools"], "tools_oob": True, "seat": seat,
                                               "table_id": envelope.event.table_id})


def _retired(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """Characters retired (their cards and their tokens on the shown scene leave every page), or
    one brought back; the GM's list of the retired, redrawn from the GM's part."""
    event = envelope.event
    data = envelope.sights[reading].data
    found = []
    if event.kind == "characters.retired":
        found += [_gone("article", f"character-{pk}") for pk in data["characters"]]
        found += [_gone("span", f"token-{pk}") for pk in data["tokens"]]
    if reading == "gm" and "retired" in data:
        found.append(render_to_string(f"{NPCS}#retired_list", {"retired": data["retired"], "oob": True,
                                                              "table_id": event.table_id, "seat": seat}))
    return "".join(found) + _scene_tools(envelope, reading, seat)


def _bestiary(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The GM's bestiary, after an NPC was saved to it or forgotten (the GM's alone)."""
    data = envelope.sights[reading].data
    return render_to_string(f"{NPCS}#bestiary_list", {"bestiary": data["bestiary"], "system": data["system"],
                                                      "oob": True, "table_id": envelope.event.table_id,
                                                      "seat": seat})


def _cards(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The card panels an event changes: counts and play area for all, the owner's hand for the
    owner and the GM, and the deck itself when it was made or changed."""
    event = envelope.event
    counts = envelope.sights[reading].data["counts"]  # the GM's may differ (seat.GM_ONLY)
    view = counts_context(counts)
    base = {"oob": True, "table_id": event.table_id, "seat": seat}
    found: list[str] = []
    info = event.payload.get("deck_info")
    if info:  # first: a new deck's widget holds the counts swapped in after it
        (row,) = deck_rows([info], counts)
        found.append(render_to_string(f"{CARDS}#deck_widget", {**base, "d": row}))
        found.append(render_to_string(f"{CARDS}#deal_deck_option", {**base, "d": row}))
    found += [render_to_string(f"{CARDS}#deck_counts", {**base, "c": c}) for c in view["deck_counts"]]
    found.append(render_to_string(f"{CARDS}#play_area", {**base, "play": view["play"]}))
    found += [
        format_html('<span id="hand-count-{}" class="hand-count" hx-swap-oob="true">{}</span>', member_id, n)
        for member_id, n in view["hand_counts"].items()
    ]
    owner = event.owner
    if reading == "gm" and "hand" in event.private and owner is not None and owner.role == "gm" \
            and event.owner_id not in view["hand_counts"]:
        # the GM's own count, kept from the others (selectors.gm_hand_is_secret): the GM reads it off their hand
        found.append(format_html('<span id="hand-count-{}" class="hand-count" hx-swap-oob="true">{}</span>',
                                 event.owner_id, len(event.private["hand"])))
    if reading != "public" and "hand" in event.private and event.owner_id:
        found.append(render_to_string(f"{CARDS}#hand", {
            **base,
            "member_id": event.owner_id,
            "member_name": owner.display_name if owner else "",
            # the owner reads "Your hand": a player through the private reading, the GM (the
            # table's one GM) through the GM's
            "me_id": event.owner_id if reading == "private" or (
                reading == "gm" and owner is not None and owner.role == "gm") else None,
            "hand": faces(event.private["hand"]),
        }))
    return "".join(found)


def _scene(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The stage (a scene shown or put away) or a token (placed, moved, hidden, revealed, given a
    portrait); "" when the seat's page shows none of it."""
    event = envelope.event
    gm = reading == "gm"
    data: dict[str, Any] = {**event.payload, **(event.private if gm else {})}  # a hidden token: the GM's part
    base = {"oob": True, "table_id": event.table_id, "gm": gm, "seat": seat}
    if event.kind == "scene.shown":
        return render_to_string(f"{SCENE}#stage", {**base, "scene": data["scene"], "tokens": data["tokens"],
                                                   "drawings": data.get("drawings", [])})
    if event.kind == "scene.deleted":
        return render_to_string(f"{SCENE}#stage", {**base, "scene": None}) if data["scene"]["shown"] else ""
    if event.kind == "character.portrait":
        tokens = data.get("tokens", [])
    elif not data.get("shown"):
        return ""
    elif event.kind == "token.removed" or (event.kind == "token.hidden" and not gm):
        # it leaves the page; nothing of it is sent
        return format_html('<span id="token-{}" hx-swap-oob="delete"></span>', data["token"]["id"])
    else:
        tokens = [data["token"]]
    return "".join(render_to_string(f"{SCENE}#token", {**base, "t": t}) for t in tokens)


MAP_DRAW = "tabletop/map_draw.html"


def _drawings(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """A drawing added to the shown scene, or erased, or the scene's drawings cleared; "" when
    the seat's page shows none of it (a scene not shown: the GM's page shows the shown one).
    Its audience already keeps a drawing out of sight from every reading but the GM's."""
    data = envelope.event.payload
    if not data["shown"]:
        return ""
    if envelope.event.kind == "drawing.added":
        return render_to_string(f"{MAP_DRAW}#added", {"d": data["drawing"], "seat": seat})
    if envelope.event.kind == "drawing.erased":
        return render_to_string(f"{MAP_DRAW}#gone", {"drawing_id": int(data["drawing"]["id"])})
    return render_to_string(f"{MAP_DRAW}#cleared", {"scene_id": int(data["scene"])})


def _grid(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The grid layer of the shown scene, redrawn when the GM sets its grid (a prepared
    scene's grid changes no page: its tools come back to the GM with the answer)."""
    data = envelope.event.payload
    if not data["scene"]["shown"]:
        return ""
    scene = {**data["scene"], "grid": data["grid"]}
    return render_to_string("tabletop/map_grid.html", {"scene": scene, "oob": True, "seat": seat})


def _fog(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The fog changed (tabletop/services/fog.py): the stage redrawn from what this reading
    sees of the event, whatever the stage draws (its picture for this seat, the tokens in its
    sight, the GM's overlay); "" while the scene is the GM's alone (not shown)."""
    data = envelope.sights[reading].data
    if not data.get("shown"):
        return ""
    context = {"oob": True, "table_id": envelope.event.table_id, "gm": reading == "gm", "seat": seat,
               "scene": data["scene"], "tokens": data["tokens"], "drawings": data.get("drawings", [])}
    return render_to_string(f"{SCENE}#stage", context)


def _session(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The session box: which session, whether it is open, and the GM's button to open or close."""
    data = envelope.event.payload
    session = {"number": data["session"], "open": data["open"], "date": data["date"]}
    return render_to_string(f"{CAMPAIGN}#session_box", {"session": session, "oob": True,
                                                        "table_id": envelope.event.table_id, "seat": seat})


REQUESTS = "tabletop/requests.html"


def _requests(envelope: Envelope, reading: Reading, seat: Seat) -> str:
    """The sheet requests box, on the GM's page and the asker's alone: a request filed is an item
    (its diff is in the event's private part, the asker's and the GM's); one decided or withdrawn
    leaves; the table's approvals option redraws the GM's switch."""
    event = envelope.event
    data = event.payload
    context: dict[str, Any] = {"table_id": event.table_id, "seat": seat, "oob": True}
    if "sheet_approvals" in data:
        return render_to_string(f"{REQUESTS}#option", {**context, "approvals": data["sheet_approvals"]}) \
            if reading == "gm" else ""
    if event.kind == "character.requested":
        if reading not in ("gm", "private"):
            return ""
        return render_to_string(f"{REQUESTS}#item", {**context, "r": event.private["request"]})
    if reading == "gm" or (seat.member is not None and seat.member == data.get("asked_by")):
        return render_to_string(f"{REQUESTS}#gone", {"request_id": int(data["request"])})
    return ""


Part = Callable[["Envelope", Reading, Seat], str]
PARTS: Mapping[str, Part] = {"member": _member, "member_gone": _member_gone, "characters": _characters,
                             "cards": _cards, "scene": _scene, "session": _session, "requests": _requests,
                             "npcs": _npcs, "retired": _retired, "bestiary": _bestiary,
                             "drawings": _drawings, "grid": _grid, "fog": _fog}


def draw(envelope: Envelope, seats: Mapping[Seat, Reading]) -> dict[Seat, str]:
    """The parts ``envelope``'s kind redraws, for each seat through its reading ("" for none)."""
    names = envelope.kind.parts
    return {seat: "".join(PARTS[name](envelope, reading, seat) for name in names) for seat, reading in seats.items()}


# Card faces, as the card panels and pages show them: built from the public ``counts`` an event
# carries (or the same counts read now) and from hands the viewer is entitled to; nothing here
# reads a deck's order.

@dataclass(frozen=True)
class Face:
    deck: int
    card: Any
    reversed: bool
    token: str
    by: str = ""  # who laid it in the play area
    rules: bool = False  # of a deck the rules draw from: only they and the GM move it
    by_id: int | None = None  # the member who laid it there: they and the GM move it off the felt

    @property
    def card_id(self) -> str:
        return self.card.id

    @property
    def vals(self) -> str:
        """The card as htmx's ``hx-vals`` sends it with an action."""
        return json.dumps({"deck": str(self.deck), "card": self.card.id})


def face(deck: int, token: str, by: str = "", rules: bool = False, by_id: int | None = None) -> Face:
    oriented = OrientedCard.from_token(token)
    return Face(deck=deck, card=oriented.card, reversed=oriented.reversed, token=token, by=by, rules=rules,
                by_id=by_id)


def faces(entries: list[dict[str, Any]]) -> list[Face]:
    return [face(int(e["deck"]), e["token"], e.get("by", ""), bool(e.get("rules")), e.get("by_id"))
            for e in entries]


def deck_rows(infos: list[dict[str, Any]], counts: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for info in infos:
        c = counts["decks"].get(str(info["id"]), {})
        top = c.get("discard_top")
        rows.append({**info, "draw": c.get("draw", 0), "held": bool(c.get("held")), "discard": c.get("discard", 0),
                     "discard_top": face(info["id"], top) if top else None})
    return rows


def counts_context(counts: dict[str, Any]) -> dict[str, Any]:
    """What the public card panels show, from an event's (or the current) counts."""
    return {
        "counts": counts,
        "deck_counts": [
            {"id": int(deck_id), "draw": c.get("draw", 0), "held": bool(c.get("held")), "discard": c.get("discard", 0),
             "discard_top": face(int(deck_id), c["discard_top"]) if c.get("discard_top") else None}
            for deck_id, c in counts["decks"].items()
        ],
        "hand_counts": {int(k): v for k, v in counts["hands"].items()},
        "play": faces(counts["play"]),
    }


def visible_hands(me: Membership, members: list[Membership], hands: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The hands ``me`` may see: their own, or every player's for the GM."""
    shown = []
    for member in members:
        if member.role == Role.SPECTATOR:
            continue
        if may_see_hand(me, member.pk):
            shown.append({"member": member, "cards": faces(hands.get(member.pk, []))})
    return shown
