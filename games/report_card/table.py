"""How Report Card plugs into a table: the panel's view of the state and the writeback.

Every card a check draws lies face up, so nothing in the state is secret: the panel is the
same through every lens. Pure Python; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.report_card import odds
from games.report_card.draws import deck_name
from games.report_card.meanings import meaning
from games.report_card.rules import OUTCOME_LABELS, RANK_LABELS, SKILLS, card_of, major_id
from games.report_card.sheet import CIRCLES, major_label
from games.report_card.state import MODES, edge, last, name_of, next_rank, status


def card_view(token: str) -> dict[str, Any]:
    """A card as the panel draws it, with its Tarot meaning for the GM to weave in."""
    oriented = card_of(token)
    card = oriented.card
    return {"token": token, "id": card.id, "name": card.name, "rank_label": card.rank_label,
            "symbol": card.symbol, "colour": card.colour, "arcana": card.arcana,
            "reversed": oriented.reversed, **{k: v for k, v in meaning(token).items() if k != "name"}}


def draw_view(draw: Mapping[str, Any]) -> dict[str, Any]:
    return {**card_view(draw["card"]), "second": card_view(draw["second"]) if draw["second"] else None,
            "outcome": draw["outcome"], "outcome_label": OUTCOME_LABELS[draw["outcome"]],
            "rule": draw["rule"], "happenstance": draw["happenstance"], "closeness": draw["closeness"]}


def percents(chances: odds.Odds) -> dict[str, int]:
    """Whole percents for a panel, halves rounded up."""
    return {k: int(getattr(chances, k) * 100 + 0.5) for k in
            ("critical_success", "success", "failure", "critical_failure", "succeeds")}


def part_view(state: Mapping[str, Any], check: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    person = state["characters"].get(part["cid"], {})
    found = status(part)
    attempt = last(part)
    upcoming = next_rank(check, part)
    own = major_id(person["major"]) if person.get("major") is not None else None
    edged = edge(part)
    return {
        "cid": part["cid"], "name": name_of(state, part["cid"]), "player": person.get("player"),
        "role": part["role"], "skill": part["skill"], "task": part["task"],
        "base_rank": RANK_LABELS[part["base_rank"]], "rank": RANK_LABELS[part["rank"]], "note": part["note"],
        "edge": {"bonus": "Bonus", "penalty": "Penalty"}.get(edged or "", ""), "status": found,
        "deck": deck_name(part["cid"]),
        "attempts": [{"rank": RANK_LABELS[a["rank"]], "draws": [draw_view(d) for d in a["draws"]],
                      "chosen": a["chosen"], "suggested": a["suggested"],
                      "outcome": OUTCOME_LABELS.get(a["outcome"] or "", "")} for a in part["attempts"]],
        # who must act now: "player" (a Bonus pick, or retry / let it stand), "gm" (a Penalty pick)
        "pending": attempt["pending"] if found == "picking" else ("player" if found == "failed" else None),
        "may_retry": found == "failed" and person.get("corruption", 0) < CIRCLES,
        "corruption": person.get("corruption", 0),
        "next_rank": RANK_LABELS[upcoming],
        # before the table knows the deck's contents: the odds from a fresh deck (the table may
        # replace them with ``odds.from_cards`` over the cards left in ``deck``)
        "odds": percents(odds.check(upcoming, own_major=own, bonus=edged == "bonus",
                                    penalty=edged == "penalty")),
    }


def check_view(state: Mapping[str, Any], check: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": check["id"], "task": check["task"], "mode": check["mode"], "mode_label": MODES[check["mode"]],
            "skill": check["skill"], "rank": RANK_LABELS[check["rank"]],
            "inconsequential": check["inconsequential"], "hold": check["hold"],
            "outcome": OUTCOME_LABELS.get(check.get("outcome") or "", ""),
            "winners": [name_of(state, c) for c in check.get("winners", [])],
            "parts": [part_view(state, check, p) for p in check["parts"]]}


def character_view(cid: str, person: Mapping[str, Any]) -> dict[str, Any]:
    filled = int(person.get("corruption", 0))
    return {"cid": cid, "name": person.get("name", cid), "player": person.get("player"),
            "a_plus": person.get("a_plus"), "f_skill": person.get("f_skill"),
            "major": major_label(person.get("major")), "corruption": filled,
            "circles": "●" * filled + "○" * (CIRCLES - filled), "rechoose": filled >= CIRCLES,
            "deck": deck_name(cid)}


def panel(state: Mapping[str, Any]) -> dict[str, Any]:
    """What the Report Card panel shows; the same for the GM, players and spectators."""
    return {
        "day": state["day"], "players_call": state["players_call"],
        "ranks": list(RANK_LABELS.items()),
        "skills": [{"key": s.key, "covers": s.covers, "abilities": [a.capitalize() for a in s.abilities]}
                   for s in SKILLS],
        "modes": [(k, v) for k, v in MODES.items() if k in ("only_one", "everyone")],
        "check": check_view(state, state["check"]) if state["check"] else None,
        "today": [{"task": e["task"], "by": [name_of(state, c) for c in e["by"]],
                   "outcome": OUTCOME_LABELS.get(e["outcome"] or "", "under way")} for e in state["today"]],
        "history": [check_view(state, c) for c in reversed(state["history"])],
        "characters": [character_view(cid, p) for cid, p in state["characters"].items()],
    }


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Corruption Points and newly chosen skills go back on the character's sheet."""
    if event.get("type") == "retried":
        return {event["cid"]: {"corruption": event["corruption"]}}
    if event.get("type") == "skills_rechosen":
        person = event["person"]
        return {event["cid"]: {"a_plus": person["a_plus"], "f_skill": person["f_skill"], "corruption": 0}}
    return {}

