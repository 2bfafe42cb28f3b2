"""What the Harsh Light panel shows, as plain data: ``view(state, seat)``.

Every card pulled lies face up and every sheet trait in play is public at the table, so the GM,
the players and the spectators see the same panel. The view is JSON-safe (an event carries it)
and holds words, never codes: the template only lays it out.

Odds before a pull (the issue: "the exact chance of 0, 1, 2 ... successes and of a Dramatic
Failure for this pool, from the cards actually left in the deck") are worked out from the state's
``deck_left``: every card not lying face up, counted after every command (deck.counted), so no
figure lets anyone work out a card held face down; the panel says what was counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards import OrientedCard
from games.core.words import count
from games.contract import SPECTATOR_SEAT, Seat
from games.harsh_light import deck, extended, odds, pools, pulls, rules
from games.harsh_light import sheet as sh
from games.harsh_light.errors import RuleError
from games.harsh_light.narrate import ATTACKS, outcome, successes_text
from games.harsh_light.state import DECK, defence_now, name, new_state, status

SHOWN_DONE = 2  # finished extended actions and contests the panel still shows
SHOWN_PULLS = 5  # the latest pulls, with their cards


def card(token: str) -> dict[str, Any]:
    """A pulled card as ``games/core/card_face.html`` draws it (a Card's fields, JSON-safe)."""
    c = OrientedCard.from_token(token).card
    return {"id": c.id, "name": c.name, "value": c.value, "colour": c.colour, "rank_label": c.rank_label,
            "glyph": c.glyph, "reversible": False}


def odds_row(size: int, counts: tuple[int, ...], *, again: int, needed: int = 1) -> dict[str, Any]:
    """One pull's exact chances from the cards the deck holds, as percentages: a Dramatic
    Failure, exactly 0-4 successes and 5 or more, at least ``needed``, Exceptional."""
    exact = odds.exact_from_counts(size, counts, again=again)
    cells = [{"label": str(k), "percent": odds.percent(exact.successes.get(k, 0))} for k in range(5)]
    cells.append({"label": "5+", "percent": odds.percent(exact.at_least(5))})
    return {"pool": size, "again": again, "needed": needed, "cells": cells,
            "dramatic": odds.percent(exact.dramatic), "success": odds.percent(exact.at_least(needed)),
            "exceptional": odds.percent(exact.exceptional), "dramatic_possible": size <= 0,
            "automatic": rules.is_automatic(size, needed)}


def odds_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Odds rows laid out for a narrow screen: one column per pool, one line per outcome."""
    lines = [{"label": "Dramatic Failure", "cells": [r["dramatic"] for r in rows]}]
    for i, cell in enumerate(rows[0]["cells"] if rows else []):
        label = {"0": "no success", "1": "1 success", "5+": "5 or more"}.get(cell["label"], f"{cell['label']} successes")
        lines.append({"label": label, "cells": [r["cells"][i]["percent"] for r in rows]})
    return {"heads": [f"{r.get('what', 'Chance')} (%)" for r in rows], "lines": lines}


def _pool(pool: pools.Pool) -> dict[str, Any]:
    """A pool's parts as words: 'Strength 3', '+ Brawl 2', '− Bob's Defence 2'."""
    parts = [{"reason": r, "value": abs(v), "sign": "" if i == 0 and v >= 0 else ("+" if v >= 0 else "−")}
             for i, (r, v) in enumerate(pool.parts)]
    return {"size": pool.size, "parts": parts}


def _person(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    person = state["characters"][cid]
    now = status(state, cid)
    initiative = state["initiative"].get(cid)
    base, defence = sh.defence(person), defence_now(state, cid)
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
    return {
        "id": cid, "name": name(state, cid), "acting": state["acting"] == cid,
        "initiative": initiative["total"] if initiative else None,
        "defence": defence, "defence_base": base, "defence_changed": defence != base,
        "willpower_points": sh.willpower_points(person), "willpower_dots": sh.willpower_dots(person),
        "willpower_spent": now["willpower_spent"], "speed": sh.speed(person), "again": sh.again(person),
        "acted": now["acted"], "moved": now["moved"], "dodging": now["dodging"], "all_out": now["all_out"],
        "attacks": now["attacks"], "notes": notes,
    }


def _prepared(state: Mapping[str, Any], cid: str, kept: Mapping[str, Any],
              counts: tuple[int, ...]) -> dict[str, Any]:
    """A pull set up and not made: its pool as it stands now (a Defence may have dropped since),
    what it needs, and its odds; or why it can no longer be made as it is."""
    args = kept["args"]
    target = args.get("target")
    label = args.get("label") or ("an attack" if args.get("attack") else "a pull")
    shown: dict[str, Any] = {
        "id": cid, "name": name(state, cid), "label": label,
        "target_name": name(state, target) if target else "",
        "attack": ATTACKS.get(args.get("attack") or "", ""), "all_out": bool(args.get("all_out")),
        "willpower": bool(args.get("willpower")), "reflexive": args.get("action") == pulls.REFLEXIVE,
        "problem": "",
    }
    try:
        made = pulls.plan(state, {**args, "combatant": cid}, cid)
    except RuleError as exc:
        return {**shown, "problem": str(exc), "pool": None, "odds": None, "odds_table": None}
    row = odds_row(made.pool.size, counts, again=made.again, needed=made.needed)
    return {**shown, "pool": _pool(made.pool), "needed": made.needed, "automatic": made.automatic,
            "odds": row, "odds_table": odds_table([row])}


def _pull(record: Mapping[str, Any]) -> dict[str, Any]:
    pool = pools.Pool.from_dict(record["pool"])
    return {**record, "cards": [card(t) for t in record.get("cards", [])], "pool_view": _pool(pool),
            "outcome": outcome(record) if record.get("kind") != "initiative" else f"initiative {record['total']}",
            "attack_words": ATTACKS.get(record.get("attack") or "", "")}


def _with_willpower(state: Mapping[str, Any], cid: str, pool: pools.Pool, counts: tuple[int, ...],
                    again: int, needed: int = 1) -> list[dict[str, Any]]:
    """The odds of the next pull as the pool stands, and with a Willpower point (+3) while the
    character may still spend one this turn."""
    rows = [{"what": f"Pool {pool.size}", **odds_row(pool.size, counts, again=again, needed=needed)}]
    person = state["characters"].get(cid, {})
    if not status(state, cid)["willpower_spent"] and sh.willpower_points(person) > 0:
        size = pool.size + pools.WILLPOWER_POOL
        rows.append({"what": f"With Willpower, {size}", **odds_row(size, counts, again=again, needed=needed)})
    return odds_table(rows)


def _extended(state: Mapping[str, Any], x: Mapping[str, Any], counts: tuple[int, ...]) -> dict[str, Any]:
    cid = x["combatant"]
    shown = {**x, "name": name(state, cid), "pulls": [_pull(p) for p in x["pulls"]],
             "left": max(0, x["needed"] - x["gathered"]), "odds": [], "pool_view": None}
    if not x["done"] and cid in state["characters"]:
        person = state["characters"][cid]
        pool = extended.spec_pool(person, x["pool"])
        shown.update(pool_view=_pool(pool), odds=_with_willpower(state, cid, pool, counts, sh.again(person)))
    return shown


def _contest(state: Mapping[str, Any], k: Mapping[str, Any], counts: tuple[int, ...]) -> dict[str, Any]:
    sides = []
    for side in k["sides"]:
        cid = side["combatant"]
        person = state["characters"].get(cid)
        shown: dict[str, Any] = {"id": cid, "name": name(state, cid), "gathered": k["gathered"].get(cid, 0),
                                 "pulled": k["pulled"].get(cid), "odds": [], "pool_view": None}
        if shown["pulled"]:
            shown["pulled"] = _pull(shown["pulled"])
        if not k["done"] and person is not None:
            pool = extended.spec_pool(person, side)
            if k["supernatural"]:
                bonus = pools.supernatural_bonus(person, tuple(t for t in (side["attribute"], side["skill"]) if t))
                if bonus:
                    pool = pool.plus("Blood Potency", bonus)
            shown.update(pool_view=_pool(pool), odds=_with_willpower(state, cid, pool, counts, sh.again(person)))
        sides.append(shown)
    rounds = [{"round": r["round"], "winner": name(state, r["winner"]) if r["winner"] else "",
               "successes": [f"{name(state, c)} {successes_text(n)}" for c, n in r["successes"].items()]}
              for r in k["rounds"]]
    return {**k, "sides": sides, "rounds_view": rounds, "winner_name": name(state, k["winner"]) if k["winner"] else "",
            "waiting_for": [s["name"] for s in sides if not s["pulled"]]}


def _recent_done(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Running ones first, then the last few finished."""
    running = [i for i in items if not i["done"]]
    return running + [i for i in items if i["done"]][-SHOWN_DONE:]


def turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): in a fight the character whose action it is;
    outside one, a contest waiting for a side's pull, a pull set up, or an extended action."""
    if state["combat"] and state["acting"]:
        who = name(state, state["acting"])
        if state["acting"] in state["prepared"]:
            return {"combatant": state["acting"], "gm": False, "says": f"{who} is about to pull",
                    "prompt": f"pull for {who}, or put the pull away"}
        if status(state, state["acting"])["acted"]:
            return {"combatant": state["acting"], "gm": False, "says": f"{who} finishes the action",
                    "prompt": f"end {who}'s action when {who} is done"}
        return {"combatant": state["acting"], "gm": False, "says": f"{who} acts",
                "prompt": f"act for {who}: set up a pull, Dodge, or end the action"}
    for k in state["contests"].values():
        waiting = [s["combatant"] for s in k["sides"] if s["combatant"] not in k["pulled"]]
        if not k["done"] and waiting:
            who = name(state, waiting[0])
            return {"combatant": waiting[0], "gm": False, "says": f"{who} pulls in {k['label']}",
                    "prompt": f"pull for {who} in {k['label']}"}
    for cid in state["prepared"]:
        who = name(state, cid)
        return {"combatant": cid, "gm": False, "says": f"{who} is about to pull",
                "prompt": f"pull for {who}, or put the pull away"}
    for x in state["extended"].values():
        if not x["done"]:
            who = name(state, x["combatant"])
            return {"combatant": x["combatant"], "gm": False, "says": f"{who} works at {x['label']}",
                    "prompt": f"pull for {who}: {x['label']}, {x['gathered']} of {x['needed']} so far"}
    return None


def _deck_line(state: Mapping[str, Any]) -> str:
    """What the odds count, in words (deck.counted)."""
    left = sum(state["deck_left"])
    if state.get("deck_from") == deck.DISCARD:
        return (f"The draw pile is empty: the next pull shuffles the discard pile back in, and the odds count "
                f"its {count(left, 'card')}.")
    return (f"{count(left, 'card')} not lying face up: the draw pile and any cards held in hands. The odds "
            f"count them all, so no card held face down can be worked out from them.")


def view(state: Mapping[str, Any], seat: Seat = SPECTATOR_SEAT) -> dict[str, Any]:
    """The panel for any seat (nothing is secret); JSON-safe."""
    state = {**new_state(), **state}  # the table may hold no state yet
    in_order = [cid for cid in state["order"] if cid in state["characters"]]
    others = [cid for cid in state["characters"] if cid not in in_order]
    known = state.get("deck_left") is not None
    counts = tuple(state["deck_left"]) if known and sum(state["deck_left"]) else odds.FRESH
    return {
        "deck": DECK, "deck_known": known, "deck_left": list(counts),
        "deck_count": sum(state["deck_left"]) if known else None, "deck_line": _deck_line(state) if known else "",
        "combat": state["combat"], "turn_number": state["turn"], "turn": turn(state),
        "acting": state["acting"], "acting_name": name(state, state["acting"]) if state["acting"] else "",
        "order": [_person(state, cid) for cid in in_order],
        "others": [_person(state, cid) for cid in others],
        "prepared": [_prepared(state, cid, kept, counts) for cid, kept in state["prepared"].items()],
        "prepared_ids": list(state["prepared"]),
        "extended": [_extended(state, x, counts) for x in _recent_done(list(state["extended"].values()))],
        "contests": [_contest(state, k, counts) for k in _recent_done(list(state["contests"].values()))],
        "recent": [_pull(r) for r in reversed(state["recent"][-SHOWN_PULLS:])],
        "attributes": [[k, label] for k, (label, _) in sh.ATTRIBUTES.items()],
        "skills": [[k, label] for k, (label, _) in sh.SKILLS.items()],
        "resist_traits": [[t, sh.trait_label(t)] for t in pulls.RESIST_TRAITS],
        "attacks": [[k, label] for k, label in ATTACKS.items()],
        "agains": [[a, f"{rules.again_word(a).capitalize()}-again"] for a in rules.AGAIN_VALUES],
    }
