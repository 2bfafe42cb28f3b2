"""What the Demon City Action Rounds panel shows one seat: the round, whose turn it is, the
Host's difficulty forms and the "Correct" form's fields.

The pools and Clashes of the round it shows are worked out in ``round_view``, which also says
what of an NPC is the GM's (its stats, its pool before the roll, odds counted from it) for a
seat that may not see its sheet (``Seat.hidden``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.contract import Seat
from games.core import now
from games.core.fights import default_target, targets_first
from games.demon_city.actions import KINDS
from games.demon_city.combatant import STAT_NAMES, stat_label
from games.demon_city.edges import roster, why_out
from games.demon_city.injury_text import format_injury_table
from games.demon_city.round_view import clash_odds, pool_view, rolled_round
from games.demon_city.state import current_pools, grouping, next_announcer, ready_to_roll

# What the GM's "Correct" form offers mid-fight (the engine takes any sheet field or condition).
CORRECTABLE = [
    ("current_toughness", "Current Toughness"), ("injured", "Injured"), ("out_of_fight", "Out of the fight"),
    ("unaware", "Unaware"), ("grabbed", "Grabbed"), ("present", "Present"), ("dead", "Dead"),
    ("agility", "Agility"), ("armour", "Armour"), ("side", "Side"),
]


def _turn(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any] | None:
    """Whose turn it is (games/contract.py, Panel): the slowest still to announce, then the
    Host, who rolls every Clash and starts the next round."""
    nxt = next_announcer(state)
    if nxt is not None:
        name = names.get(nxt, "")
        return {"combatant": nxt, "gm": False, "says": f"{name} announces",
                "prompt": f"announce what {name} does"}
    if ready_to_roll(state):
        return {"combatant": None, "gm": True, "says": "The Host rolls every Clash",
                "prompt": "roll every Clash"}
    if state["phase"] == "resolved":
        return {"combatant": None, "gm": True, "says": "The Host starts the next round",
                "prompt": "start the next round (or end Action Rounds)"}
    return None


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """``Panel.view``: the panel for one seat, without the figures of the sheets it may not see."""
    drawn = panel(state, frozenset() if seat.is_gm else seat.hidden)
    return {**drawn, "now": now.line(drawn.get("turn"), seat)}


def panel(state: Mapping[str, Any], hidden: Collection[str] = frozenset()) -> dict[str, Any]:
    """What the Action Rounds panel shows a seat that may not see the sheets of ``hidden``
    (none: the GM's view).

    Every die is public in Demon City. While announcing, it shows each pool as it stands and
    each announcer's chance against the side it faces; once the round is rolled, the pools and
    dice that were rolled and what came of them (issue 13, bug 6: not pools recomputed from the
    state the roll left). A hidden NPC's Agility, its pool before the roll, its skills and the
    chances counted from its pool are left out (``round_view``).
    """
    names = {cid: c.get("name") or cid for cid, c in state["combatants"].items()}
    stats = [(name, stat_label(name)) for name in STAT_NAMES]
    secret_names = [names[c] for c in hidden if c in names]

    def own(cid: str) -> list[tuple[str, str]]:
        """What an entity may roll with: the sheet's stats and its own skills (the GM's for a
        hidden NPC: the stats' names alone)."""
        skills = {} if cid in hidden else state["combatants"][cid].get("skills") or {}
        return stats + [(k, k) for k in skills]

    if state["phase"] in ("idle", "ended"):
        # no round is under way: the heading names none (it had said "round 2" after the end)
        return {"phase": state["phase"], "round": None, "stats": stats, "undo": undoable(state),
                "ties_kept": bool(state.get("settled")),
                "injury_table": state["injury_table"],
                "injury_text": format_injury_table(state["injury_table"])}
    rolled = rolled_round(state, names, hidden) if state["phase"] == "resolved" else None
    if rolled is None:
        plan = grouping(state)
        live = current_pools(state)
        # a hidden NPC's pool before the roll is the GM's
        pools = {cid: pool_view(p.to_dict(), secret_names) for cid, p in live.items() if cid not in hidden}
        clashes = [clash_odds(state, clash.members, clash.actors, live, names, hidden)
                   for clash in plan.clashes]
        unresisted = [{"name": names[a]} for a in plan.unresisted]
        dice: dict[str, dict[str, Any]] = {}
        faces: dict[str, list[dict[str, Any]]] = {}
        # the Host may set their difficulties (a hidden NPC's form offers its skills: the GM's)
        waiting = [a for a in plan.unresisted if a not in hidden]
    else:
        pools, clashes, unresisted, dice, faces = (rolled["pools"], rolled["clashes"],
                                                   rolled["unresisted"], rolled["dice"], rolled["faces"])
        waiting = []
    actions = {a["actor"]: a for a in state["actions"]}
    fighters = roster(state)
    order = []
    for cid in state["order"]:
        c = state["combatants"][cid]
        action = actions.get(cid)
        secret = cid in hidden
        order.append({
            "id": cid, "name": names[cid], "agility": None if secret else c["agility"], "side": c["side"],
            "toughness": c["current_toughness"], "base_toughness": c["toughness"],
            "out": c["out_of_fight"] or c.get("dead", False), "injured": c["injured"],
            "why_out": why_out(c), "injury": c.get("injury") or "",  # rolled in the open
            "hurt_before": c.get("injured_before", False) and not c["injured"] and not secret,
            "unaware": c.get("unaware", False), "grabbed": c.get("grabbed", False),
            "grabbed_by": [names.get(g, g) for g in c.get("grabbed_by") or []],
            "action": None if action is None else {
                "kind": action["kind"], "label": KINDS[action["kind"]],
                "targets": [names.get(t, t) for t in action["targets"]],
                "description": action.get("description", ""),
            },
            # whom it may aim at: standing foes first, the first of them chosen; never the out
            "targets": [{"id": f.cid, "name": f.name} for f in targets_first(fighters, cid)],
            "target_default": default_target(fighters, cid),
            "stat_choices": own(cid),
            "pool": pools.get(cid),
            "secret": secret,
            "rolled": dice.get(cid),
            "thrown": faces.get(cid, []),  # the rolled dice drawn as dice, the best marked
        })
    return {
        "phase": state["phase"],
        "round": state["round"],
        "turn": _turn(state, names),
        "order": order,
        "in_fight": list(state["combatants"]),  # the others may join (add_combatant)
        "next": next_announcer(state),
        "next_name": names.get(next_announcer(state) or "", ""),
        "ready": ready_to_roll(state),
        "unresisted": unresisted,
        "difficulties": [_difficulty(state, a, names[a], own(a)) for a in waiting],
        "against_choices": stats + sorted(
            {k: k for cid, c in state["combatants"].items() if cid not in hidden
             for k in c.get("skills") or {}}.items(),
            key=lambda kv: kv[0].casefold()),
        "extra_targets": list(state["extra_targets"]),
        # the Host may settle the ties in Agility again before anyone announces (fight.settle_ties)
        "ties_kept": bool(state.get("settled")) and (state["phase"] == "resolved" or not state["actions"]),
        "clashes": clashes,
        "happened": [] if rolled is None else rolled["happened"],
        "kinds": list(KINDS.items()),
        "correctable": CORRECTABLE,
        "undo": undoable(state),
        "stats": stats,
        "injury_table": state["injury_table"],
        "injury_text": format_injury_table(state["injury_table"]),
    }


def undoable(state: Mapping[str, Any]) -> str | None:
    """What the GM's undo would take back (the core's undo list: the newest step's line as
    everyone reads it), or None when there is nothing to undo."""
    steps = state.get("undo") or []
    return str(steps[-1].get("what") or "the last step") if steps else None


def _difficulty(state: Mapping[str, Any], cid: str, name: str,
                choices: list[tuple[str, str]]) -> dict[str, Any]:
    """An unresisted action's difficulty form: the stat it rolls defaults to the one the
    action named ("anything else"), then Agility, as ``rounds.set_difficulty`` does."""
    action = next((a for a in state["actions"] if a["actor"] == cid), {})
    current = state["difficulties"].get(cid, {})
    chosen = current.get("stat") or action.get("stat") or "agility"
    return {"id": cid, "name": name, **current, "choices": choices, "chosen": chosen,
            "stat_label": stat_label(current["stat"]) if current else ""}
