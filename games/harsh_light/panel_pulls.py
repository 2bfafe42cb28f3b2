"""What the panel shows of pulls, for one seat: a pull set up (its pool and odds before the card),
the pulls made (their cards, total and outcome), and the extended actions and contests running.

A pull waiting to be made is shown as the rules reckoned it after the last move (reckon.py: its
pool as it would be made, or why it cannot be). A pool that holds an NPC's figures (its own, or
an attack on its Defence) is the GM's, and so are its odds and a pull's total (audiences.py): a
seat that may not see that NPC's sheet gets the cards, the successes and what they come to, what
may be shown of the pool ('Strength 3 + Brawl 2 - Ghoul's Defence (the GM's)'), and a line
saying why the rest is not there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Seat
from games.core.cards import OrientedCard
from games.harsh_light import audiences, odds, pools, rules
from games.harsh_light.narrate import outcome, successes_text
from games.harsh_light.access import ACTION_WORDS
from games.harsh_light.resist import ATTACKS
from games.harsh_light.state import name


def card(token: str) -> dict[str, Any]:
    """A pulled card as ``games/core/card_face.html`` draws it (a Card's fields, JSON-safe)."""
    c = OrientedCard.from_token(token).card
    return {"id": c.id, "name": c.name, "value": c.value, "colour": c.colour, "rank_label": c.rank_label,
            "glyph": c.glyph, "reversible": False}


def odds_row(size: int, counts: odds.Counted, *, again: int, needed: int = 1) -> dict[str, Any]:
    """One pull's exact chances from the cards counted, as percentages: a Dramatic Failure,
    exactly 0-4 successes and 5 or more, at least ``needed``, Exceptional."""
    exact = odds.exact_from_counts(size, counts.counts, again=again, refill=counts.refill)
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


def pool_view(pool: pools.Pool) -> dict[str, Any]:
    """A pool's parts as words: 'Strength 3', '+ Brawl 2', '− Bob's Defence 2'."""
    parts = [{"reason": r, "value": abs(v), "sign": "" if i == 0 and v >= 0 else ("+" if v >= 0 else "−")}
             for i, (r, v) in enumerate(pool.parts)]
    return {"size": pool.size, "parts": parts}


def gm_line(state: Mapping[str, Any], cid: str, target: str | None, seat: Seat) -> str:
    """Why a seat sees no pool size or odds: whose figures they depend on."""
    if not seat.sees_sheet(cid):
        return f"{name(state, cid)}'s pool and its odds are the GM's: they come from the GM's figures."
    return (f"The odds depend on {name(state, target)}'s figures, which are the GM's: only the GM sees "
            "them, the pool's size, and whether it succeeds without a card.")


def shows(record: Mapping[str, Any], seat: Seat) -> bool:
    """Whether ``seat`` may see a pull's pool and total: neither is counted from the sheet of an
    NPC it may not see (an attack on a hidden target that met none of its traits is shown)."""
    if not seat.sees_sheet(record["combatant"]):
        return False
    target = record.get("target")
    return not target or seat.sees_sheet(target) or record.get("target_figures") == []


def prepared(state: Mapping[str, Any], cid: str, kept: Mapping[str, Any], counts: odds.Counted,
             seat: Seat) -> dict[str, Any]:
    """A pull set up and not made: its pool as the last move left it (a Defence may have dropped
    since it was set up), what it needs, and its odds; or why it can no longer be made as it is."""
    args = kept["args"]
    target = args.get("target")
    label = args.get("label") or ("an attack" if args.get("attack") else "a pull")
    shown: dict[str, Any] = {
        "id": cid, "name": name(state, cid), "label": label,
        "target_name": name(state, target) if target else "",
        "attack": ATTACKS.get(args.get("attack") or "", ""), "all_out": bool(args.get("all_out")),
        "willpower": bool(args.get("willpower")), "reflexive": ACTION_WORDS.get(args.get("action") or "", ""),
        "problem": "", "gm_line": "", "pool_words": "",
    }
    none = {"pool": None, "odds": None, "odds_table": None}
    now = kept.get("now") or {"problem": "it waits for the next move to be reckoned."}
    if "problem" in now:
        if not seat.sees_sheet(cid):  # why an NPC's pull cannot be made may name its figures
            return {**shown, **none, "gm_line": gm_line(state, cid, target, seat)}
        return {**shown, **none, "problem": now["problem"]}
    if not now["attack"]:  # only an attack says its kind (a pull set up before that was so)
        shown.update(attack="", all_out=False, label=args.get("label") or "a pull")
    parts = tuple(now["target_parts"])
    if not seat.sees_sheet(cid) or (target and not seat.sees_sheet(target) and parts):
        words = audiences.pool_words(now["pool"], parts if seat.sees_sheet(cid) else None)
        return {**shown, **none, "needed": now["needed"], "pool_words": words,
                "gm_line": gm_line(state, cid, target, seat)}
    row = odds_row(now["pool"]["size"], counts, again=now["again"], needed=now["needed"])
    return {**shown, "pool": pool_view(pools.Pool.from_dict(now["pool"])), "needed": now["needed"],
            "automatic": now["automatic"], "odds": row, "odds_table": odds_table([row])}


def pull(record: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """A pull made, with its cards; its pool and total only where ``seat`` may see them."""
    shown = {**record, "cards": [card(t) for t in record.get("cards", [])],
             "attack_words": ATTACKS.get(record.get("attack") or "", ""), "secret": False}
    if not shows(record, seat):
        # a record kept before its target's parts were marked shows nothing of its pool
        own = not seat.sees_sheet(record["combatant"]) or "target_figures" not in record
        words = audiences.pool_words(record["pool"], None if own else record["target_figures"])
        for key in audiences.FIGURES:
            shown.pop(key, None)
        shown.update(secret=True, pool_view=None, pool_words=words, total=None,
                     outcome=outcome(record) if record.get("kind") != "initiative" else "initiative")
        return shown
    return {**shown, "pool_view": pool_view(pools.Pool.from_dict(record["pool"])),
            "outcome": outcome(record) if record.get("kind") != "initiative" else f"initiative {record['total']}"}


def _next(now: Mapping[str, Any] | None, counts: odds.Counted) -> dict[str, Any]:
    """A running action's next pull as the last move left it (reckon.next_pull): its pool, and the
    odds as it stands and with a Willpower point (+3) while one may still be spent this turn."""
    if not now:
        return {"pool_view": None, "odds": []}
    size, again = now["pool"]["size"], now["again"]
    rows = [{"what": f"Pool {size}", **odds_row(size, counts, again=again)}]
    if now["willpower"]:
        more = size + pools.WILLPOWER_POOL
        rows.append({"what": f"With Willpower, {more}", **odds_row(more, counts, again=again)})
    return {"pool_view": pool_view(pools.Pool.from_dict(now["pool"])), "odds": odds_table(rows)}


def running_extended(state: Mapping[str, Any], x: Mapping[str, Any], counts: odds.Counted,
                     seat: Seat) -> dict[str, Any]:
    cid = x["combatant"]
    shown = {**{k: v for k, v in x.items() if k != "now"}, "name": name(state, cid), "odds": [], "pool_view": None,
             "left": max(0, x["needed"] - x["gathered"]), "pulls": [pull(p, seat) for p in x["pulls"]], "gm_line": ""}
    if not seat.sees_sheet(cid):
        shown.pop("pool", None)  # its spec holds the GM's modifier
        if not x["done"]:
            shown["gm_line"] = gm_line(state, cid, None, seat)
    elif not x["done"]:
        shown.update(_next(x.get("now"), counts))
    return shown


def contest(state: Mapping[str, Any], k: Mapping[str, Any], counts: odds.Counted, seat: Seat) -> dict[str, Any]:
    sides = []
    for side in k["sides"]:
        cid = side["combatant"]
        shown: dict[str, Any] = {"id": cid, "name": name(state, cid), "gathered": k["gathered"].get(cid, 0),
                                 "pulled": k["pulled"].get(cid), "odds": [], "pool_view": None, "gm_line": ""}
        if shown["pulled"]:
            shown["pulled"] = pull(shown["pulled"], seat)
        if k["done"]:
            pass
        elif not seat.sees_sheet(cid):
            shown["gm_line"] = gm_line(state, cid, None, seat)
        else:
            shown.update(_next((k.get("now") or {}).get(cid), counts))
        sides.append(shown)
    rounds = [{"round": r["round"], "winner": name(state, r["winner"]) if r["winner"] else "",
               "successes": [f"{name(state, c)} {successes_text(n)}" for c, n in r["successes"].items()]}
              for r in k["rounds"]]
    # each side's pull this round is in its side, drawn for the seat: never the records whole
    return {**{key: v for key, v in k.items() if key not in ("sides", "pulled", "now")}, "sides": sides,
            "rounds_view": rounds, "winner_name": name(state, k["winner"]) if k["winner"] else "",
            "waiting_for": [s["name"] for s in sides if not s["pulled"]]}
