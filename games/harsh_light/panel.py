"""What the Harsh Light panel shows, as plain data: ``view(state, seat)``.

Every card pulled lies face up, so what the rules decide is everyone's. An NPC's figures are the
GM's (audiences.py): a seat that may not see an NPC's sheet (``seat.hidden``) gets its name, its
acts (it dodged, moved, spent Willpower, was attacked) and its pulls' cards and successes, and
none of its Defence, Speed, Willpower, initiative, pools or the odds counted from them. The view is
JSON-safe and holds words, never codes: the template only lays it out.

The view reads the state alone, and the deck as the platform hands every seat it
(``Seat.decks``): no sheet. What the rules make of the sheets (each one's Health and Defence as
they stand, each pull waiting with the pool it would have) is their record of the last move
(reckon.py); the sheets' own figures (Willpower, Speed, Again) are the platform's to hand the
template, as they stand, for the seats that may see them (``panel.characters[i].view``: sheet.py).

Odds before a pull (the issue: "the exact chance of 0, 1, 2 ... successes and of a Dramatic
Failure for this pool, from the cards actually left in the deck") count every card not lying
face up (deck.counted), so no figure lets anyone work out a card held face down; the panel says
what was counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import SPECTATOR_SEAT, Seat
from games.core import now
from games.core.fights import PCS, NPCS, Fighter, targets_first
from games.core.words import count
from games.harsh_light import deck, health, odds, rules
from games.harsh_light import sheet as sh
from games.harsh_light.panel_pulls import contest, prepared, pull, running_extended
from games.harsh_light.resist import ATTACKS, RESIST_TRAITS
from games.harsh_light.state import DECK, name, new_state, out, status

SHOWN_DONE = 2  # finished extended actions and contests the panel still shows
SHOWN_PULLS = 5  # the latest pulls, with their cards


def _person(state: Mapping[str, Any], cid: str, seat: Seat) -> dict[str, Any]:
    """A character in play: what it did this turn, its Health (everyone's), and its Defence as it
    stands and its initiative where the seat may see its sheet (an NPC's are the GM's: ``figures``
    False, and they are not here)."""
    known = state["people"][cid]
    now = status(state, cid)
    notes = []
    if now["all_out"]:
        notes.append("All-Out Attack: no Defence until its next action")
    elif now["dodging"]:
        notes.append("dodging: Defence doubled")
    if now["attacks"]:
        notes.append(f"{count(now['attacks'], 'attack')} on it since its last action")
    if now["resist_willpower"]:
        notes.append("+2 Willpower against the next resisted test")
    if state["combat"] and cid in state["order"]:
        if now["acted"]:
            notes.append("has taken its instant action")
        if now["moved"]:
            notes.append("has moved")
    acts = {"id": cid, "name": name(state, cid), "acting": state["acting"] == cid, "figures": False,
            "willpower_spent": now["willpower_spent"], "acted": now["acted"], "moved": now["moved"],
            "dodging": now["dodging"], "all_out": now["all_out"], "attacks": now["attacks"], "notes": notes,
            "health": known.get("track"), "out": out(state, cid)}
    if not seat.sees_sheet(cid):
        return acts
    initiative = state["initiative"].get(cid)
    return {**acts, "figures": True, "initiative": initiative["total"] if initiative else None,
            "defence": known.get("defence")}


def _recent_done(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Running ones first, then the last few finished."""
    running = [i for i in items if not i["done"]]
    return running + [i for i in items if i["done"]][-SHOWN_DONE:]


def turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): in a fight the character whose action it is;
    outside one, a contest waiting for a side's pull, a pull set up, or an extended action. A pull
    waiting for its target's answer comes first: nothing else moves until it is answered."""
    waiting = _reaction(state)
    if waiting:
        return {"combatant": waiting["target"], "gm": False, "says": f"{waiting['who']} answers {waiting['by']}'s pull",
                "prompt": f"answer {waiting['by']}'s pull on {waiting['who']}: Willpower for +2 {waiting['against']}, "
                          "or take it"}
    if state["combat"] and state["acting"]:
        who = name(state, state["acting"])
        if out(state, state["acting"]):  # put out by a sheet's change: its player passes the turn
            words = _words(state, state["acting"])
            return {"combatant": state["acting"], "gm": False, "says": f"{who} is {words}",
                    "prompt": f"end {who}'s action: {who} is {words}"}
        if state["acting"] in state["prepared"]:
            return {"combatant": state["acting"], "gm": False, "says": f"{who} is about to pull",
                    "prompt": f"pull for {who}, or put the pull away"}
        if status(state, state["acting"])["acted"]:
            return {"combatant": state["acting"], "gm": False, "says": f"{who} finishes the action",
                    "prompt": f"end {who}'s action when {who} is done"}
        return {"combatant": state["acting"], "gm": False, "says": f"{who} acts",
                "prompt": f"act for {who}: set up a pull, Dodge, or end the action"}
    steps: list[tuple[str, str, str]] = []  # (who, what the table reads, what the player is asked)
    for k in state["contests"].values():
        waiting = [s["combatant"] for s in k["sides"] if s["combatant"] not in k["pulled"]]
        fallen = [c for c in waiting if out(state, c)] if not k["done"] else []
        if fallen:
            who, words = name(state, fallen[0]), _words(state, fallen[0])
            return {"combatant": None, "gm": True, "says": f"{who} is {words}: the Storyteller stops {k['label']}",
                    "prompt": f"stop {k['label']}: {who} is {words}"}
        if not k["done"]:
            steps += [(c, f"{name(state, c)} pulls in {k['label']}", f"pull for {name(state, c)} in {k['label']}")
                      for c in waiting]
    for cid in [c for c in state["prepared"] if not out(state, c)]:
        who = name(state, cid)
        steps.append((cid, f"{who} is about to pull", f"pull for {who}, or put the pull away"))
    for x in state["extended"].values():
        if not x["done"] and not out(state, x["combatant"]):
            who = name(state, x["combatant"])
            steps.append((x["combatant"], f"{who} works at {x['label']}",
                          f"pull for {who}: {x['label']}, {x['gathered']} of {x['needed']} so far"))
    return awaited(steps)


def awaited(steps: list[tuple[str, str, str]]) -> dict[str, Any] | None:
    """Outside a fight's turn order, several may be awaited at once (both sides of a contest,
    pulls set up, extended actions running): each of them is named (``waiting``, with its own
    ``prompts``), so each one's player reads "Your turn", and the banner names them all; each
    character's first step is its own. One awaited alone is the step's ``combatant``."""
    first: dict[str, tuple[str, str]] = {}
    for cid, says, prompt in steps:
        first.setdefault(cid, (says, prompt))
    if not first:
        return None
    cid, (says, prompt) = next(iter(first.items()))
    if len(first) == 1:
        return {"combatant": cid, "gm": False, "says": says, "prompt": prompt}
    return {"combatant": None, "gm": False, "waiting": list(first), "prompts": {c: p for c, (_, p) in first.items()},
            "says": "; ".join(s for s, _ in first.values()), "prompt": prompt}


def _reaction(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """A pull waiting for its target's answer (reaction.py), in words: everyone's (its act is
    public; what it was sent with stays out of the view)."""
    waiting = state.get("reaction")
    if not waiting:
        return None
    attack = waiting["against"] == "Defence"  # Defence resists attacks alone
    return {"target": waiting["target"], "who": name(state, waiting["target"]), "by": name(state, waiting["combatant"]),
            "verb": "attacks" if attack else "pulls against", "against": waiting["against"],
            "label": waiting.get("label") or ""}


def _words(state: Mapping[str, Any], cid: str) -> str:
    return (state["people"].get(cid, {}).get("track") or {}).get("state") or "out of the fight"


def targets(state: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Whom each character the rules have met may aim a pull at, as its attack form lists them
    (games/core/fights.py ``targets_first``): standing enemies first, then standing allies, never
    one who is out; each with whether it is an enemy. Sides and Health are everyone's to see."""
    rows = [Fighter(cid, name(state, cid), str(known.get("side") or ""), out=out(state, cid))
            for cid, known in state["people"].items()]
    return {row.cid: [{"id": f.cid, "name": f.name, "enemy": f.side != row.side}
                      for f in targets_first(rows, row.cid)] for row in rows}


def _sides(state: Mapping[str, Any]) -> list[str]:
    """The sides the Storyteller's form offers: the PCs', the NPCs', and any named since."""
    named = [str(k.get("side") or "") for k in state["people"].values()] + list((state.get("sides") or {}).values())
    return list(dict.fromkeys([PCS, NPCS, *(s for s in named if s)]))


def _deck_line(left: int, source: str) -> str:
    """What the odds count, in words (deck.counted)."""
    if source == deck.DISCARD:
        return (f"The draw pile is empty: the next pull shuffles the discard pile back in, and the odds count "
                f"its {count(left, 'card')}.")
    return (f"{count(left, 'card')} not lying face up: the draw pile and any cards held in hands. The odds "
            f"count them all, so no card held face down can be worked out from them.")


def view(state: Mapping[str, Any], seat: Seat = SPECTATOR_SEAT) -> dict[str, Any]:
    """The panel for ``seat``: what the rules make public, and the figures of the sheets it may
    see; JSON-safe."""
    state = {**new_state(), **state}  # the table may hold no state yet
    in_order = [cid for cid in state["order"] if cid in state["people"]]
    others = [cid for cid in state["people"] if cid not in in_order]
    found, source, refill = deck.counted(seat.deck(DECK))
    counts = odds.Counted(found, refill) if found and sum(found) else odds.Counted(odds.FRESH)
    return {
        "deck": DECK, "deck_known": found is not None, "deck_left": list(counts.counts),
        "deck_count": sum(found) if found is not None else None,
        "deck_line": _deck_line(sum(found), source) if found is not None else "",
        "combat": state["combat"], "turn_number": state["turn"], "turn": turn(state),
        "now": now.line(turn(state), seat),
        # whether this seat has moves of its own to fold (the GM's: everyone's; a player's: their characters')
        "has_moves": seat.is_gm or bool(seat.controls),
        "acting": state["acting"], "acting_name": name(state, state["acting"]) if state["acting"] else "",
        "order": [_person(state, cid, seat) for cid in in_order],
        "others": [_person(state, cid, seat) for cid in others],
        "prepared": [prepared(state, cid, kept, counts, seat) for cid, kept in state["prepared"].items()],
        "prepared_ids": list(state["prepared"]),
        "reaction": _reaction(state),
        "options": dict(state.get("options") or {}),  # the Storyteller's (state.untrained_penalty)
        "extended": [running_extended(state, x, counts, seat)
                     for x in _recent_done(list(state["extended"].values()))],
        "contests": [contest(state, k, counts, seat) for k in _recent_done(list(state["contests"].values()))],
        "recent": [pull(r, seat) for r in reversed(state["recent"][-SHOWN_PULLS:])],
        "attributes": [[k, label] for k, (label, _) in sh.ATTRIBUTES.items()],
        "skills": [[k, label] for k, (label, _) in sh.SKILLS.items()],
        "resist_traits": [[t, sh.trait_label(t)] for t in RESIST_TRAITS],
        "attacks": [[k, label] for k, label in ATTACKS.items()],
        "out_ids": [cid for cid in state["people"] if out(state, cid)],
        "targets": targets(state), "known_ids": list(state["people"]), "sides": _sides(state),
        "side_of": {cid: str(k.get("side") or "") for cid, k in state["people"].items()},
        "damage_kinds": [[k, k] for k in health.KINDS],
        "agains": [[a, f"{rules.again_word(a).capitalize()}-again"] for a in rules.AGAIN_VALUES],
        # what the Storyteller's undo would take back: the newest step as everyone read it ("" when
        # none); the template draws the button for the GM alone
        "undo": str(state["undo"][-1].get("what") or "the last step") if state.get("undo") else "",
    }
