"""What the Harsh Light panel shows, as plain data: ``view(state, lens)``.

Every card pulled lies face up and every sheet trait in play is public at the table, so the GM,
the players and the spectators see the same panel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards import OrientedCard
from games.harsh_light import odds, procedure
from games.harsh_light import sheet as sh
from games.harsh_light.state import DECK, defence_now, name, new_state, status


def _person(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    person = state["characters"][cid]
    now = status(state, cid)
    initiative = state["initiative"].get(cid)
    return {
        "id": cid, "name": name(state, cid), "acting": state["acting"] == cid,
        "initiative": initiative["total"] if initiative else None,
        "defence": defence_now(state, cid), "defence_base": sh.defence(person),
        "attacks": now["attacks"], "dodging": now["dodging"], "all_out": now["all_out"],
        "willpower_points": sh.willpower_points(person), "willpower_dots": sh.willpower_dots(person),
        "willpower_spent": now["willpower_spent"], "resist_willpower": now["resist_willpower"],
        "acted": now["acted"], "moved": now["moved"], "speed": sh.speed(person), "again": sh.again(person),
    }


def _pull(record: Mapping[str, Any]) -> dict[str, Any]:
    return {**record, "card_names": [OrientedCard.from_token(t).card.name for t in record.get("cards", [])]}


def view(state: Mapping[str, Any], lens: str = "spectator") -> dict[str, Any]:
    """The panel for any lens (nothing is secret); JSON-safe, as an event carries it."""
    state = {**new_state(), **state}  # the table may hold no state yet
    in_order = [cid for cid in state["order"] if cid in state["characters"]]
    others = [cid for cid in state["characters"] if cid not in in_order]
    counts = tuple(state["deck_left"]) if state.get("deck_left") and sum(state["deck_left"]) else odds.FRESH
    agains = sorted({10} | {sh.again(p) for p in state["characters"].values()}, reverse=True)
    return {
        "deck": DECK,
        "combat": state["combat"], "turn": state["turn"],
        "acting": state["acting"], "acting_name": name(state, state["acting"]) if state["acting"] else "",
        "order": [_person(state, cid) for cid in in_order],
        "others": [_person(state, cid) for cid in others],
        "extended": [
            {**x, "name": name(state, x["combatant"]), "pulls": [_pull(p) for p in x["pulls"]]}
            for x in state["extended"].values()
        ],
        "contests": [
            {**k, "names": {s["combatant"]: name(state, s["combatant"]) for s in k["sides"]},
             "waiting_for": [name(state, s["combatant"]) for s in k["sides"] if s["combatant"] not in k["pulled"]]}
            for k in state["contests"].values()
        ],
        "recent": [_pull(r) for r in reversed(state["recent"])],
        "deck_left": list(counts), "deck_known": state.get("deck_left") is not None,
        # Odds before the pull: from the cards the deck held after its last pull at this table
        # (a fresh deck before any), for every again in play, pools -3..15.
        "odds": [{"again": again, "rows": odds.table_rows(again=again, counts=counts)} for again in agains],
        "attributes": [[k, label] for k, (label, _) in sh.ATTRIBUTES.items()],
        "skills": [[k, label] for k, (label, _) in sh.SKILLS.items()],
        "resist_traits": [[t, sh.trait_label(t)] for t in procedure.RESIST_TRAITS],
        "attacks": [[k, label] for k, label in procedure.ATTACKS.items()],
        "agains": list(procedure.rules.AGAIN_VALUES),
    }
