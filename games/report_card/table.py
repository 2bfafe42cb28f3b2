"""How Report Card plugs into a table: the panel's view of the state, whose turn it is, the
character cards at a glance and the writeback.

Every card a check draws lies face up, so nothing in the state is secret: the panel is the
same through every lens. Pure Python; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Glance
from games.report_card import odds
from games.report_card.draws import deck_of
from games.report_card.meanings import meaning
from games.report_card.narrate import reason_text
from games.report_card.reading import edge_key, percents, unseen_count
from games.report_card.rules import ABILITIES, OUTCOME_LABELS, RANK_LABELS, SKILLS, card_of, major_id
from games.report_card.sheet import CIRCLES, clean_sheet, major_label
from games.report_card.state import (
    MODES, coming_edge, drawable, last, may_draw, name_of, next_rank, status,
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


def _odds(state: Mapping[str, Any], cid: str, rank: str, edged: str | None) -> dict[str, Any]:
    """The odds of the character's next draw: from the cards of its deck not yet face up as last
    read (when the check was called, or after its last draw), else from a fresh deck."""
    person = state["characters"].get(cid, {})
    read = (state.get("decks") or {}).get(cid)
    if read is not None:
        by_rank = read["odds"].get(edge_key(edged))
        chances = None if by_rank is None else by_rank[rank]
        return {"chances": chances, "unseen": unseen_count(read), "deck": read["deck"], "fresh": False}
    own = major_id(person["major"]) if person.get("major") is not None else None
    chances = percents(odds.check(rank, own_major=own, bonus=edged == "bonus", penalty=edged == "penalty"))
    return {"chances": chances, "unseen": None, "deck": deck_of(person, cid), "fresh": True}


def part_view(state: Mapping[str, Any], check: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    person = state["characters"].get(part["cid"], {})
    found = status(part)
    attempt = last(part)
    upcoming = next_rank(check, part)
    index = check["parts"].index(part)
    drawing = may_draw(check, index)
    edged = coming_edge(check, part)
    pending = attempt["pending"] if found == "picking" else ("player" if found == "failed" else None)
    return {
        "cid": part["cid"], "name": name_of(state, part["cid"]), "player": person.get("player"),
        "role": part["role"], "skill": part["skill"], "task": part["task"],
        "base_rank": RANK_LABELS[part["base_rank"]], "rank": RANK_LABELS[part["rank"]], "note": part["note"],
        "edge": {"bonus": "Bonus", "penalty": "Penalty"}.get(edged or "", ""), "status": found,
        "deck": deck_of(person, part["cid"]),
        "attempts": [attempt_view(a) for a in part["attempts"]],
        # who must act now: "player" (a Bonus pick, or retry / let it stand), "gm" (a Penalty pick)
        "pending": pending,
        "may_draw": drawing,
        # a main check waiting for its helper: "waits for <helper>'s help"
        "waits": found == "waiting" and not drawing,
        "may_retry": found == "failed" and person.get("corruption", 0) < CIRCLES,
        "corruption": person.get("corruption", 0),
        "next_rank": RANK_LABELS[upcoming],
        # the odds of the next draw (the first, or a retry), beside its button
        "odds": _odds(state, part["cid"], upcoming, edged) if drawing or found == "failed" else None,
    }


def check_view(state: Mapping[str, Any], check: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": check["id"], "task": check["task"], "mode": check["mode"], "mode_label": MODES[check["mode"]],
            "skill": check["skill"], "rank": RANK_LABELS[check["rank"]],
            "inconsequential": check["inconsequential"], "hold": check["hold"],
            "outcome": OUTCOME_LABELS.get(check.get("outcome") or "", ""),
            "reason": reason_text(state, check.get("reason") or "", check.get("winners", [])),
            "winners": [name_of(state, c) for c in check.get("winners", [])],
            "parts": [part_view(state, check, p) for p in check["parts"]]}


def character_view(state: Mapping[str, Any], cid: str, person: Mapping[str, Any]) -> dict[str, Any]:
    filled = int(person.get("corruption", 0))
    read = (state.get("decks") or {}).get(cid)
    return {"cid": cid, "name": person.get("name", cid), "player": person.get("player"),
            "a_plus": person.get("a_plus"), "f_skill": person.get("f_skill"),
            "major": major_label(person.get("major")), "corruption": filled,
            "circles": "●" * filled + "○" * (CIRCLES - filled), "rechoose": filled >= CIRCLES,
            "deck": deck_of(person, cid), "unseen": None if read is None else unseen_count(read)}


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): a card to choose (a Bonus: the player; a
    Penalty: the GM), a failure to retry or let stand (the player), a card to draw (the
    player). None while no check is open: the GM calls the next one when the story needs it."""
    check = state["check"]
    if check is None:
        return None
    for part in check["parts"]:
        cid, name = part["cid"], name_of(state, part["cid"])
        found = status(part)
        if found == "picking" and last(part)["pending"] == "gm":  # type: ignore[index]
            return {"combatant": None, "gm": True, "says": f"The GM chooses the worse of {name}'s two cards",
                    "prompt": f"choose the worse of {name}'s two cards (Penalty)"}
        if found == "picking":
            return {"combatant": cid, "gm": False, "says": f"{name}'s player chooses which card to keep",
                    "prompt": f"choose which of {name}'s two cards to keep (Bonus)"}
        if found == "failed":
            return {"combatant": cid, "gm": False, "says": f"{name} failed and may retry",
                    "prompt": f"retry with a Corruption Point, or let {name}'s failure stand"}
    waiting = [check["parts"][i] for i in drawable(check)]
    if waiting:
        names = [name_of(state, p["cid"]) for p in waiting]
        who = _names(names)
        return {"combatant": waiting[0]["cid"], "gm": False, "says": f"{who} draw{'s' if len(names) == 1 else ''}",
                "prompt": f"draw {names[0]}'s card", "waiting": [p["cid"] for p in waiting],
                "prompts": {p["cid"]: f"draw {n}'s card" for p, n in zip(waiting, names)}}
    return None


def panel(state: Mapping[str, Any]) -> dict[str, Any]:
    """What the Report Card panel shows; the same for the GM, players and spectators.

    ``report_cards`` (not ``characters``: the platform adds its own list of the table's
    characters under that name) are the characters the checks have met so far."""
    return {
        "day": state["day"], "players_call": state["players_call"],
        "turn": turn(state),
        "ranks": list(RANK_LABELS.items()),
        "skills": [{"key": s.key, "covers": s.covers, "abilities": [a.capitalize() for a in s.abilities]}
                   for s in SKILLS],
        "modes": [(k, v) for k, v in MODES.items() if k in ("only_one", "everyone")],
        "check": check_view(state, state["check"]) if state["check"] else None,
        "today": [{"task": e["task"], "by": [name_of(state, c) for c in e["by"]],
                   "outcome": OUTCOME_LABELS.get(e["outcome"] or "", "under way")} for e in state["today"]],
        "history": [check_view(state, c) for c in reversed(state["history"])],
        "report_cards": [character_view(state, cid, p) for cid, p in state["characters"].items()],
    }


def glance(sheet: Mapping[str, Any]) -> Glance:
    """The character card: the Abilities, the A+ and F skills, one's own Major Arcana, the
    Corruption circles as a track, and a tag once all three are filled."""
    try:
        clean = clean_sheet(sheet)
    except SheetError:
        return Glance()
    filled = clean["corruption"]
    stats = (("A+", clean["a_plus"]), ("F", clean["f_skill"]),
             ("Own card", major_label(clean["major"])),
             ("Abilities", ", ".join(a.capitalize() for a in ABILITIES if clean[a]) or "none"))
    tags = ("New A+ and F due",) if filled >= CIRCLES else ()
    return Glance(stats=stats, tracks=(("Corruption", filled, CIRCLES),), tags=tags)


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Corruption Points and newly chosen skills go back on the character's sheet."""
    if event.get("type") == "retried":
        return {event["cid"]: {"corruption": event["corruption"]}}
    if event.get("type") == "skills_rechosen":
        person = event["person"]
        return {event["cid"]: {"a_plus": person["a_plus"], "f_skill": person["f_skill"], "corruption": 0}}
    return {}

