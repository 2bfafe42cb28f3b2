"""A round's pools and Clashes as the Action Rounds panel shows them: each pool's dice with
their labels, each announcer's chance in its Clash while announcing, the round as it was rolled,
and the exact chance of being the sole highest roller in a Clash of three or more.

``hidden``: the NPCs whose figures the seat may not see (``Seat.hidden``). Reading (seed 003,
"every die is public"): the dice rolled and what came of them are everyone's, and so is how
many dice an NPC rolled once it has rolled them; before the roll an NPC's pool (how many dice,
and why each) is its sheet's figure, the GM's, and so is any chance counted from it. A
character's own pool is its player's (they collect their dice), less any NPC figure in a
reason ("Alfie's Hand-to-Hand 4 > Demon's Agility" keeps the Demon's Agility back).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.demon_city import odds
from games.demon_city.clash import side_of
from games.demon_city.combatant import stat_label
from games.demon_city.narrate import summary
from games.demon_city.thrown import happened_dice, thrown

DIE_LABELS = {"base": "The die everyone rolls", "skill": "Skill Die", "defense": "Defense Die",
              "distraction": "Distraction Die", "situation": "Situation Die",
              "lost_injury": "Lost Die for Injury", "lost_misc": "Lost Die"}


SECRET_ODDS = "the odds depend on the GM's figures"


def _censor(reason: str, secret_names: Collection[str]) -> str:
    """A die's reason without the value of a hidden NPC's stat ("Demon's Agility 3" reads
    "Demon's Agility"): a Skill Die's reason names both sides' stats (pools.skill_reason)."""
    for name in secret_names:
        reason = re.sub(rf"({re.escape(name)}'s [^,;>]+?) -?\d+(?=$|[,;]| >)", r"\1", reason)
    return reason


def pool_view(pool: Mapping[str, Any], secret_names: Collection[str] = (), *,
               bare: bool = False) -> dict[str, Any]:
    """A pool with a label and a reason for each die; ``bare``: how many dice alone (an NPC's
    pool as it was rolled, for a seat that may not see its figures)."""
    if bare:
        return {"size": pool["size"], "dice": []}
    return {"size": pool["size"],
            "dice": [{"kind": d["kind"], "label": DIE_LABELS.get(d["kind"], d["kind"]),
                      "reason": _censor(d["reason"], secret_names), "sign": d["sign"]} for d in pool["dice"]]}


def clash_odds(state: Mapping[str, Any], members: Sequence[str], actors: Sequence[str],
                pools: Mapping[str, Any], names: Mapping[str, str],
                hidden: Collection[str] = frozenset()) -> dict[str, Any]:
    """A Clash being announced, with each announcer's own chance against the side it faces.

    Seed, step 6: "Whoever rolls highest in a Clash takes their action"; a tie "between
    characters on opposing sides" means nobody acts. So each announcer's figures are its best
    die against the best die of everyone on other sides in the Clash, whose dice count as one
    pool; allies are never its opponents (their tie is "decided randomly"). A chance counted
    from a hidden NPC's pool (its own, or the side it faces) is the GM's: ``secret`` says so.
    """
    sides = {cid: state["combatants"][cid]["side"] for cid in actors}
    chances = []
    for cid in actors:
        if cid not in pools:
            continue
        foes = [f for f in actors if f in pools and side_of(f, sides) != side_of(cid, sides)]
        entry: dict[str, Any] = {"id": cid, "name": names[cid], "size": pools[cid].size,
                                 "against": [names[f] for f in foes]}
        if cid in hidden or any(f in hidden for f in foes):
            entry.update(secret=SECRET_ODDS)
            if cid in hidden:
                del entry["size"]
        elif foes:
            o = odds.clash(pools[cid].size, sum(pools[f].size for f in foes))
            entry.update(against_size=sum(pools[f].size for f in foes), win=odds.percent(o.win),
                         tie=odds.percent(o.tie), lose=odds.percent(o.lose))
        chances.append(entry)
    return {"members": [names[m] for m in members], "chances": chances}


_OUTCOME_WORDS = {"critical": "critical success", "success": "succeeds", "tie": "a tie",
                  "failure": "fails", "fumble": "fumbles", "both_fumble": "both fumble"}
_HAPPENED = ("damage_rolled", "grabbed", "grab_ended", "defended", "injury_rolled")


def rolled_round(state: Mapping[str, Any], names: Mapping[str, str],
            hidden: Collection[str] = frozenset()) -> dict[str, Any] | None:
    """The round as it was rolled, from its own events; ``None`` if they are missing."""
    results = state["results"]
    collected = next((e for e in results if e["type"] == "dice_collected"), None)
    if collected is None:
        return None
    secret_names = [names[c] for c in hidden if c in names]

    def shown(cid: str, pool: Mapping[str, Any]) -> dict[str, Any]:
        return pool_view(pool, secret_names, bare=cid in hidden)

    pools = {cid: shown(cid, p) for cid, p in collected["pools"].items()}
    dice: dict[str, dict[str, Any]] = {}
    faces: dict[str, list[dict[str, Any]]] = {}  # each die drawn, the best kept (``thrown``)
    unresisted = []
    for e in (e for e in results if e["type"] == "unresisted_resolved"):
        cid, task = e["combatant"], e["task"]
        if task is None:
            pools.pop(cid, None)  # nothing was rolled: it simply happened
            unresisted.append({"name": names[cid], "result": "unresisted: it happens"})
            continue
        pools[cid] = shown(cid, task["pool"])
        dice[cid] = {"dice": task["dice"], "best": task["best"]}
        faces[cid] = thrown(task["dice"])
        unresisted.append({"name": names[cid], "result": (
            f"{stat_label(task['stat'])} against difficulty {task['target_number']}: "
            f"best {task['best']}, {_OUTCOME_WORDS.get(task['outcome'], task['outcome'])}")})
    clashes = []
    for e in (e for e in results if e["type"] == "clash_rolled"):
        rolls = []
        for cid, r in e["rolls"].items():
            pools[cid] = shown(cid, r["pool"])
            dice[cid] = {"dice": r["dice"], "best": r["best"]}
            faces[cid] = thrown(r["dice"])
            rolls.append({"name": names[cid], "size": len(r["dice"]), "dice": r["dice"], "best": r["best"],
                          "thrown": faces[cid]})
        if e["winner"] is None:
            outcome = e["prompt"] or "Nobody acts."
        else:
            outcome = f"{names[e['winner']]} acts" + (
                " after a random tie-break between allies" if e["outcome"] == "same_side_tie" else "") + (
                " (critical!)" if e["critical"] else "") + "."
        clashes.append({"members": [names[m] for m in e["members"]], "rolls": rolls, "outcome": outcome})
    return {"pools": pools, "dice": dice, "faces": faces, "clashes": clashes, "unresisted": unresisted,
            "happened": [{"line": summary(e, names), "thrown": happened_dice(e)}
                         for e in results if e["type"] in _HAPPENED]}


def sole_highest(sizes: Mapping[str, int]) -> dict[str, Any]:
    """Exact chance that each entity's best die beats every other best die in its Clash
    (the highest roller acts; ties for first are not counted here)."""
    from fractions import Fraction

    best = {cid: odds.best_of(n) for cid, n in sizes.items()}

    def below(cid: str, face: int) -> Fraction:
        return sum((p for k, p in best[cid].items() if k < face), Fraction(0))

    chances = {}
    for cid in sizes:
        total = Fraction(0)
        for face, p in best[cid].items():
            term = p
            for other in sizes:
                if other != cid:
                    term *= below(other, face)
            total += term
        chances[cid] = float(total)
    return chances
