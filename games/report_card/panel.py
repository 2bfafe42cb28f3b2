"""The Report Card panel: the check under way (its cards, the rule that decided, the choice it
waits for, the odds of the next draw), the last checks, the Day, and whose turn it is; and what
it shows of each character (``character_view``: the Report Card as its sheet holds it now).

Every card a check draws lies face up and an NPC never takes a check, so nothing in the state
is secret: every seat is drawn the same view. Pure Python; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Seat
from games.core import now
from games.report_card.meanings import meaning
from games.report_card.narrate import lasting_text, reason_text
from games.report_card.reading import deck_odds
from games.report_card.rules import OUTCOME_LABELS, RANK_LABELS, card_of
from games.report_card.sheet import CIRCLES, clean_sheet
from games.report_card.skills import SKILLS
from games.report_card.state import (
    MODES, coming_edge, drawable, final, helped, joined, last, lasting, may_draw, names, next_rank, status,
)
from games.sheets import SheetError


def card_view(token: str) -> dict[str, Any]:
    """A card as the panel draws it (what ``games/core/card_face.html`` reads), with its Tarot
    meaning for the GM to weave in."""
    oriented = card_of(token)
    card = oriented.card
    return {"token": token, "id": card.id, "name": card.name, "rank_label": card.rank_label,
            "symbol": card.symbol, "colour": card.colour, "arcana": card.arcana, "value": card.value,
            "glyph": card.glyph, "reversible": card.reversible,
            "reversed": oriented.reversed, **{k: v for k, v in meaning(token).items() if k != "name"}}


def draw_view(draw: Mapping[str, Any]) -> dict[str, Any]:
    return {**card_view(draw["card"]), "second": card_view(draw["second"]) if draw["second"] else None,
            "outcome": draw["outcome"], "outcome_label": OUTCOME_LABELS[draw["outcome"]],
            "rule": draw["rule"], "happenstance": draw["happenstance"], "closeness": draw["closeness"],
            # how near it came, in a word or two under the card: "a near miss", "a clear success"
            "near": draw["closeness"]["text"].split(":")[0] if draw["closeness"] else "",
            "trigger": draw["trigger"]}


def attempt_view(attempt: Mapping[str, Any]) -> dict[str, Any]:
    """One attempt's cards, and the rule that decided said once (both cards of a Bonus or a
    Penalty are judged at the same rank, so mostly by the same rule)."""
    draws = [draw_view(d) for d in attempt["draws"]]
    shown = draws if attempt["chosen"] is None else [draws[attempt["chosen"]]]
    return {"rank": RANK_LABELS[attempt["rank"]], "draws": draws, "chosen": attempt["chosen"],
            "suggested": attempt["suggested"], "pending": attempt["pending"],
            "outcome": OUTCOME_LABELS.get(attempt["outcome"] or "", ""),
            "rules": list(dict.fromkeys(d["rule"] for d in shown)),
            "needed": next((d["closeness"]["needed"] for d in shown if d["closeness"]), "")}


def _edge_label(check: Mapping[str, Any], part: Mapping[str, Any], lasts: Mapping[str, list[str]]) -> str:
    """The Bonus or Penalty of the part's next draw: "Penalty", or "Penalty (Splinted Leg,
    lasting)" when a lasting condition gives it and nothing else does."""
    edged = coming_edge(check, part, lasts)
    if edged is None:
        return ""
    label = {"bonus": "Bonus", "penalty": "Penalty"}[edged]
    if coming_edge(check, part) == edged:
        return label
    return f"{label} ({', '.join(lasts[edged])}, lasting)"


def part_view(seat: Seat, check: Mapping[str, Any], part: Mapping[str, Any],
              lasts: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    found = status(part)
    attempt = last(part)
    upcoming = next_rank(check, part)
    drawing = may_draw(check, check["parts"].index(part))
    lasts = lasts or {}
    edged = coming_edge(check, part, lasts)
    said = lasting_text({"lasting": lasts})
    pending = attempt["pending"] if found == "picking" else ("player" if found == "failed" else None)
    return {
        "cid": part["cid"], "name": part["name"], "role": part["role"], "skill": part["skill"], "task": part["task"],
        # whom a helper of a group check helps (a single check has only the one to help)
        "helps": names(check, [helped(check, part)])[0] if part["role"] == "helper" and check["mode"] not in
        ("single", "help") else "",
        "base_rank": RANK_LABELS[part["base_rank"]], "rank": RANK_LABELS[part["rank"]], "note": part["note"],
        "edge": _edge_label(check, part, lasts), "status": found,
        # the lasting conditions its next draw reads: "Splinted Leg's lasting Penalty"
        "lasting": said if found in ("waiting", "failed") else "",
        "deck": part["deck"],
        "attempts": [attempt_view(a) for a in part["attempts"]],
        # who must act now: "player" (a Bonus pick, or retry / let it stand), "gm" (a Penalty pick)
        "pending": pending,
        "may_draw": drawing,
        # a main check waiting for its helper: "waits for <helper>'s help"
        "waits": found == "waiting" and not drawing and check.get("approved") is not False,
        # the circles as the check counts them (a retry counts the sheet's again)
        "may_retry": found == "failed" and part["corruption"] < CIRCLES and not final(check, part),
        "final": found == "failed" and final(check, part),
        "corruption": part["corruption"],
        "next_rank": RANK_LABELS[upcoming],
        # the odds of the next draw (the first, or a retry), beside its button
        "odds": (deck_odds(seat.deck(part["deck"]), part["deck"], upcoming, part["major"], edged)
                 if drawing or (found == "failed" and not final(check, part)) else None),
    }


def check_view(seat: Seat, check: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A check as the panel shows it; ``state`` for the open one, whose next draws read the
    lasting conditions on their characters."""
    winners = check.get("winners", [])
    return {"id": check["id"], "task": check["task"], "mode": check["mode"], "mode_label": MODES[check["mode"]],
            "skill": check["skill"], "rank": RANK_LABELS[check["rank"]],
            "inconsequential": check["inconsequential"], "hold": check["hold"], "by": check["by"],
            "rank_key": check["rank"], "approved": check.get("approved") is not False,
            "outcome": OUTCOME_LABELS.get(check.get("outcome") or "", ""),
            "reason": reason_text(check, check.get("reason") or "", winners),
            "winners": names(check, winners),
            "parts": [part_view(seat, check, p, lasting(state, p["cid"]) if state is not None else None)
                      for p in check["parts"]]}


def turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): a card to choose (a Bonus: the player; a
    Penalty: the GM), a failure to retry or let stand (the player), a card to draw (the
    player). None while no check is open: the GM calls the next one when the story needs it."""
    check = state["check"]
    if check is None:
        return None
    if check.get("approved") is False:
        return {"combatant": None, "gm": True, "says": "The GM looks over the check a player called",
                "prompt": f"approve the difficulty and any Bonus of {check['by']}'s check"}
    for part in check["parts"]:
        cid, name = part["cid"], part["name"]
        found = status(part)
        if found == "picking" and last(part)["pending"] == "gm":  # type: ignore[index]
            return {"combatant": None, "gm": True, "says": f"The GM chooses the worse of {name}'s two cards",
                    "prompt": f"choose the worse of {name}'s two cards (Penalty)"}
        if found == "picking":
            return {"combatant": cid, "gm": False, "says": f"{name}'s player chooses which card to keep",
                    "prompt": f"choose which of {name}'s two cards to keep (Bonus)"}
        if found == "failed" and not final(check, part):
            return {"combatant": cid, "gm": False, "says": f"{name} failed and may retry",
                    "prompt": f"retry with a Corruption Point, or let {name}'s failure stand"}
    waiting = [check["parts"][i] for i in drawable(check)]
    if waiting:
        drawing = [p["name"] for p in waiting]
        return {"combatant": waiting[0]["cid"], "gm": False,
                "says": f"{joined(drawing)} draw{'s' if len(drawing) == 1 else ''}",
                "prompt": f"draw {drawing[0]}'s card", "waiting": [p["cid"] for p in waiting],
                "prompts": {p["cid"]: f"draw {p['name']}'s card" for p in waiting}}
    return None


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """What the Report Card panel shows: the same for every seat (nothing in the state is
    secret, and every seat is handed the same decks).

    ``decks``: every deck the rules draw from, each character's own from the moment it is made,
    as the table has it now (``seat.decks``): how many of its cards are not yet face up."""
    return {
        "day": state["day"], "players_call": state["players_call"],
        "turn": turn(state), "now": now.line(turn(state), seat),
        "ranks": list(RANK_LABELS.items()),
        "skills": [{"key": s.key, "covers": s.covers, "abilities": [a.capitalize() for a in s.abilities]}
                   for s in SKILLS],
        "modes": [(k, v) for k, v in MODES.items() if k in ("only_one", "everyone")],
        "check": check_view(seat, state["check"], state) if state["check"] else None,
        "today": [{"id": e["check"], "task": e["task"], "by": e["names"],
                   "outcome": OUTCOME_LABELS.get(e["outcome"] or "", "under way")} for e in state["today"]],
        "history": [check_view(seat, c) for c in reversed(state["history"])],
        "decks": [{"deck": d.name, "unseen": len(d.unseen)} for d in sorted(seat.decks, key=lambda d: d.name)],
        # what the GM's undo would take back: the newest step as everyone read it ("" when none)
        "undo": (state.get("undo") or [{}])[-1].get("what", ""),
    }


def character_view(character: Character) -> dict[str, Any]:
    """A player character's Report Card as its sheet holds it now, for the panel's forms: its A+
    and F, and whether all three Corruption Circles are filled (then its player may choose new
    ones). Nothing for an NPC, which takes no checks, or a sheet that needs fixing."""
    if character.is_npc:
        return {}
    try:
        sheet = clean_sheet(character.sheet)
    except SheetError:
        return {}
    return {"a_plus": sheet["a_plus"], "f_skill": sheet["f_skill"], "corruption": sheet["corruption"],
            "rechoose": sheet["corruption"] >= CIRCLES}
