"""How Demon City plugs into a table: its sheet as the platform's form fields, sheet
cleaning, and a compact view of the Action Rounds state for the table's panel.

Pure Python like the rest of the engine; the platform renders what this returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.demon_city import odds
from games.demon_city.actions import KINDS
from games.demon_city.clash import side_of
from games.demon_city.errors import RuleError
from games.demon_city.injury import validate_table
from games.demon_city.narrate import summary
from games.demon_city.sheet import SHEET_FIELDS, STAT_NAMES, Combatant, derived_values, stat_label
from games.demon_city.state import current_pools, grouping, next_announcer, ready_to_roll
from games.contract import Glance
from games.sheets import SheetError, SheetField

_KIND = {"str": "text", "int": "int", "bool": "bool", "stats": "skills"}

# Character.name is the sheet's name; the rest of SHEET_FIELDS is the sheet.
FIELDS: tuple[SheetField, ...] = tuple(
    SheetField(
        key=f["name"], label=f["label"], kind=_KIND[f["kind"]],  # type: ignore[arg-type]
        default=f["default"] if f["default"] is not None else "",
        max_length=40, help=f["help"],
    )
    for f in SHEET_FIELDS
    if f["name"] != "name"
)


def _int(key: str, value: Any, *, blank: int | None = None) -> int | None:
    if value in (None, ""):
        return blank
    if isinstance(value, bool):
        raise SheetError(key, f"{stat_label(key)} must be a whole number.")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SheetError(key, f"{stat_label(key)} must be a whole number.") from None


def parse_skills(value: Any) -> dict[str, int]:
    """GM-added skills from a mapping or 'Name: rating' lines; ``SheetError`` names the fault."""
    if isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        from games.sheets import parse_stats

        pairs = [(n, v) for n, v in parse_stats(str(value or ""))]
    skills: dict[str, int] = {}
    seen: dict[str, str] = {}
    for name, rating in pairs:
        # A skill keeps the name the GM typed ("Driving" stays "Driving"; issue 13, bug 8):
        # only spaces are tidied. Names are told apart without case, so "driving" and
        # "Driving" are one skill, and none may pass for one of the sheet's own stats.
        key = " ".join(str(name).split())
        folded = key.casefold().replace(" ", "_").replace("-", "_")
        if not key:
            raise SheetError("skills", "A skill needs a name.")
        if folded in STAT_NAMES:
            raise SheetError("skills", f"{key} is one of the sheet's own stats, not another skill.")
        if folded in seen:
            raise SheetError("skills", f"{seen[folded]} and {key} are the same skill.")
        seen[folded] = key
        skills[key] = _int("skills", rating) or 0
    return skills


def clean_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A submitted sheet as the engine will read it; ``SheetError`` names the field at fault."""
    sheet: dict[str, Any] = {}
    for spec in FIELDS:
        value = data.get(spec.key, spec.default)
        if spec.kind == "bool":
            sheet[spec.key] = value in (True, "1", "on", "true", "True")
        elif spec.kind == "int":
            blank = None if spec.key == "current_toughness" else int(spec.default or 0)
            sheet[spec.key] = _int(spec.key, value, blank=blank)
        elif spec.kind == "skills":
            sheet[spec.key] = parse_skills(value)
        else:
            sheet[spec.key] = str(value or "").strip()[: spec.max_length]
    try:
        Combatant.from_dict({"id": "sheet", **sheet})
    except RuleError as exc:
        raise SheetError(_field_of(str(exc)), str(exc)) from None
    return sheet


def _field_of(message: str) -> str:
    lowered = message.lower()
    for spec in FIELDS:
        if spec.label.lower() in lowered or spec.key in lowered:
            return spec.key
    return "__all__"


def derived(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    try:
        values = derived_values(sheet)
    except RuleError:
        return []
    return [
        ("Damage dice against it", str(values["damage_dice"])),
        ("Out of the fight at", str(values["out_of_fight_at"])),
    ]


def glance(sheet: Mapping[str, Any]) -> Glance:
    """The character card: the stats a fight turns on, Toughness now of base, and its harm."""
    try:
        person = Combatant.from_dict({"id": "sheet", **sheet})
    except RuleError:
        return Glance()
    stats = [(stat_label("agility"), str(person.agility))]
    stats += [(stat_label(n), str(person.stat(n))) for n in ("hand_to_hand", "firearms", "exotic_weapons")
              if person.stat(n)]
    stats += [(name, str(rating)) for name, rating in person.skills.items() if rating]
    if person.armour:
        stats.append((stat_label("armour"), str(person.armour)))
    out = person.out_of_fight or person.current_toughness <= -1
    tags = [t for t, on in (("Injured", person.injured), ("Supernatural", person.supernatural),
                            ("Out of the fight", out)) if on]
    return Glance(stats=tuple(stats), tracks=((
        "Toughness", person.current_toughness, person.toughness),), tags=tuple(tags), out=out)


# What the GM's "Correct" form offers mid-fight (the engine takes any sheet field or condition).
CORRECTABLE = [
    ("current_toughness", "Current Toughness"), ("injured", "Injured"), ("out_of_fight", "Out of the fight"),
    ("unaware", "Unaware"), ("grabbed", "Grabbed"), ("present", "Present"), ("dead", "Dead"),
    ("agility", "Agility"), ("armour", "Armour"),
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


def panel(state: Mapping[str, Any]) -> dict[str, Any]:
    """What the Action Rounds panel shows, computed once per event for every viewer.

    Nothing in Demon City's state is secret ("every die is public"), so one view serves all.
    While announcing, it shows each pool as it stands and each announcer's chance against the
    side it faces; once the round is rolled, the pools and dice that were rolled and what came
    of them (issue 13, bug 6: not pools recomputed from the state the roll left).
    """
    names = {cid: c.get("name") or cid for cid, c in state["combatants"].items()}
    stats = [(name, stat_label(name)) for name in STAT_NAMES]

    def own(c: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What an entity may roll with: the sheet's stats and its own skills."""
        return stats + [(k, k) for k in (c.get("skills") or {})]

    if state["phase"] in ("idle", "ended"):
        # no round is under way: the heading names none (it had said "round 2" after the end)
        return {"phase": state["phase"], "round": None, "stats": stats,
                "injury_table": state["injury_table"],
                "injury_text": format_injury_table(state["injury_table"])}
    rolled = _rolled(state, names) if state["phase"] == "resolved" else None
    if rolled is None:
        plan = grouping(state)
        live = current_pools(state)
        pools = {cid: _pool_view(p.to_dict()) for cid, p in live.items()}
        clashes = [_clash_odds(state, clash.members, clash.actors, live, names)
                   for clash in plan.clashes]
        unresisted = [{"name": names[a]} for a in plan.unresisted]
        dice: dict[str, dict[str, Any]] = {}
        waiting = list(plan.unresisted)  # the Host may set their difficulties
    else:
        pools, clashes, unresisted, dice = (rolled["pools"], rolled["clashes"],
                                            rolled["unresisted"], rolled["dice"])
        waiting = []
    actions = {a["actor"]: a for a in state["actions"]}
    order = []
    for cid in state["order"]:
        c = state["combatants"][cid]
        action = actions.get(cid)
        order.append({
            "id": cid, "name": names[cid], "agility": c["agility"], "side": c["side"],
            "toughness": c["current_toughness"], "base_toughness": c["toughness"],
            "out": c["out_of_fight"] or c.get("dead", False), "injured": c["injured"],
            "hurt_before": c.get("injured_before", False) and not c["injured"],
            "unaware": c.get("unaware", False), "grabbed": c.get("grabbed", False),
            "grabbed_by": [names.get(g, g) for g in c.get("grabbed_by") or []],
            "action": None if action is None else {
                "kind": action["kind"], "label": KINDS[action["kind"]],
                "targets": [names.get(t, t) for t in action["targets"]],
                "description": action.get("description", ""),
            },
            "stat_choices": own(c),
            "pool": pools.get(cid),
            "rolled": dice.get(cid),
        })
    return {
        "phase": state["phase"],
        "round": state["round"],
        "turn": _turn(state, names),
        "order": order,
        "next": next_announcer(state),
        "next_name": names.get(next_announcer(state) or "", ""),
        "ready": ready_to_roll(state),
        "unresisted": unresisted,
        "difficulties": [_difficulty(state, a, names[a], own(state["combatants"][a]))
                         for a in waiting],
        "against_choices": stats + sorted(
            {k: k for c in state["combatants"].values() for k in c.get("skills") or {}}.items(),
            key=lambda kv: kv[0].casefold()),
        "extra_targets": list(state["extra_targets"]),
        "clashes": clashes,
        "happened": [] if rolled is None else rolled["happened"],
        "kinds": list(KINDS.items()),
        "correctable": CORRECTABLE,
        "stats": stats,
        "injury_table": state["injury_table"],
        "injury_text": format_injury_table(state["injury_table"]),
    }


DIE_LABELS = {"base": "The die everyone rolls", "skill": "Skill Die", "defense": "Defense Die",
              "distraction": "Distraction Die", "situation": "Situation Die",
              "lost_injury": "Lost Die for Injury", "lost_misc": "Lost Die"}


def _pool_view(pool: Mapping[str, Any]) -> dict[str, Any]:
    return {"size": pool["size"],
            "dice": [{"kind": d["kind"], "label": DIE_LABELS.get(d["kind"], d["kind"]),
                      "reason": d["reason"], "sign": d["sign"]} for d in pool["dice"]]}


def _clash_odds(state: Mapping[str, Any], members: Sequence[str], actors: Sequence[str],
                pools: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A Clash being announced, with each announcer's own chance against the side it faces.

    Seed, step 6: "Whoever rolls highest in a Clash takes their action"; a tie "between
    characters on opposing sides" means nobody acts. So each announcer's figures are its best
    die against the best die of everyone on other sides in the Clash, whose dice count as one
    pool; allies are never its opponents (their tie is "decided randomly").
    """
    sides = {cid: state["combatants"][cid]["side"] for cid in actors}
    chances = []
    for cid in actors:
        if cid not in pools:
            continue
        foes = [f for f in actors if f in pools and side_of(f, sides) != side_of(cid, sides)]
        entry: dict[str, Any] = {"id": cid, "name": names[cid], "size": pools[cid].size,
                                 "against": [names[f] for f in foes]}
        if foes:
            o = odds.clash(pools[cid].size, sum(pools[f].size for f in foes))
            entry.update(against_size=sum(pools[f].size for f in foes), win=odds.percent(o.win),
                         tie=odds.percent(o.tie), lose=odds.percent(o.lose))
        chances.append(entry)
    return {"members": [names[m] for m in members], "chances": chances}


_OUTCOME_WORDS = {"critical": "critical success", "success": "succeeds", "tie": "a tie",
                  "failure": "fails", "fumble": "fumbles", "both_fumble": "both fumble"}
_HAPPENED = ("damage_rolled", "grabbed", "grab_ended", "defended", "injury_rolled")


def _rolled(state: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any] | None:
    """The round as it was rolled, from its own events; ``None`` if they are missing."""
    results = state["results"]
    collected = next((e for e in results if e["type"] == "dice_collected"), None)
    if collected is None:
        return None
    pools = {cid: _pool_view(p) for cid, p in collected["pools"].items()}
    dice: dict[str, dict[str, Any]] = {}
    unresisted = []
    for e in (e for e in results if e["type"] == "unresisted_resolved"):
        cid, task = e["combatant"], e["task"]
        if task is None:
            pools.pop(cid, None)  # nothing was rolled: it simply happened
            unresisted.append({"name": names[cid], "result": "unresisted: it happens"})
            continue
        pools[cid] = _pool_view(task["pool"])
        dice[cid] = {"dice": task["dice"], "best": task["best"]}
        unresisted.append({"name": names[cid], "result": (
            f"{stat_label(task['stat'])} against difficulty {task['target_number']}: "
            f"best {task['best']}, {_OUTCOME_WORDS.get(task['outcome'], task['outcome'])}")})
    clashes = []
    for e in (e for e in results if e["type"] == "clash_rolled"):
        rolls = []
        for cid, r in e["rolls"].items():
            pools[cid] = _pool_view(r["pool"])
            dice[cid] = {"dice": r["dice"], "best": r["best"]}
            rolls.append({"name": names[cid], "size": len(r["dice"]), "dice": r["dice"], "best": r["best"]})
        if e["winner"] is None:
            outcome = e["prompt"] or "Nobody acts."
        else:
            outcome = f"{names[e['winner']]} acts" + (
                " after a random tie-break between allies" if e["outcome"] == "same_side_tie" else "") + (
                " (critical!)" if e["critical"] else "") + "."
        clashes.append({"members": [names[m] for m in e["members"]], "rolls": rolls, "outcome": outcome})
    return {"pools": pools, "dice": dice, "clashes": clashes, "unresisted": unresisted,
            "happened": [summary(e, names) for e in results if e["type"] in _HAPPENED]}


def _difficulty(state: Mapping[str, Any], cid: str, name: str,
                choices: list[tuple[str, str]]) -> dict[str, Any]:
    """An unresisted action's difficulty form: the stat it rolls defaults to the one the
    action named ("anything else"), then Agility, as ``procedure.set_difficulty`` does."""
    action = next((a for a in state["actions"] if a["actor"] == cid), {})
    current = state["difficulties"].get(cid, {})
    chosen = current.get("stat") or action.get("stat") or "agility"
    return {"id": cid, "name": name, **current, "choices": choices, "chosen": chosen,
            "stat_label": stat_label(current["stat"]) if current else ""}


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


# The Injury table as text a GM can edit: one row a line,
#   low-high | Result | dead or alive | final or roll again | description

_DEAD = {"dead": True, "alive": False}
_FINAL = {"final": True, "roll again": False}


def format_injury_table(rows: list[Mapping[str, Any]]) -> str:
    return "\n".join(
        f"{r['low']}-{r['high']} | {r['result']} | {'dead' if r['dead'] else 'alive'} | "
        f"{'final' if r['conclusive'] else 'roll again'} | {r['description']}"
        for r in rows
    )


def parse_injury_table(text: str) -> list[dict[str, Any]]:
    """Reads the text form back; ``RuleError`` names the line at fault."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 5:
            raise RuleError(f"Injury line {number}: write 'low-high | result | dead or alive | "
                            "final or roll again | description'.")
        span, result, dead, final, description = parts
        low, _, high = span.partition("-")
        try:
            low_n, high_n = int(low), int(high or low)
        except ValueError:
            raise RuleError(f"Injury line {number}: {span!r} is not a range like 2-3.") from None
        if dead.lower() not in _DEAD or final.lower() not in _FINAL:
            raise RuleError(f"Injury line {number}: say 'dead' or 'alive', then 'final' or 'roll again'.")
        rows.append({"low": low_n, "high": high_n, "result": result[:60], "dead": _DEAD[dead.lower()],
                     "conclusive": _FINAL[final.lower()], "description": description[:300]})
    return validate_table(rows)


# A task outside Action Rounds: against a static number, or against the Host's roll.


def task(
    sheet: Mapping[str, Any],
    *,
    name: str,
    stat: str,
    rng: Any,
    target_number: int | None = None,
    other: Mapping[str, Any] | None = None,
    other_name: str = "",
    other_stat: str = "agility",
    distracted: bool = False,
    situation: tuple[str, ...] = (),
    lost: tuple[str, ...] = (),
) -> tuple[dict[str, Any], str]:
    """Rolls a task and returns (the event's data, its log line).

    Seed: a task is rolled "against a static number" chosen by the Host, or against the
    Host's roll for whoever opposes; the higher stat earns the Skill Die and the best die is
    the roll. An injury on the sheet costs no die by itself: the Lost Die for Injury is for
    "anyone who has taken at least one injury during the fight"; outside one, "the Host may
    subtract up to two Lost Dice ... to account for problems" (``lost``, with the reason).
    """
    from games.demon_city.dice import build_pool, roll_against_target, roll_opposed
    from games.demon_city.sheet import stat_label as label

    me = Combatant.from_dict({"id": "me", **sheet})
    # Seed 003: "At Current Toughness -1 they are out of the fight"; the sheet's own help for
    # Out of the fight says "Cannot announce or roll" (issue 13, bug 5: a task had been rolled).
    if me.out_of_fight or me.dead or me.current_toughness <= -1:
        raise RuleError(f"{name} is out of the fight and cannot roll.")
    if not me.has_stat(stat):
        raise RuleError(f"{name} has no stat or skill called {label(stat)}.")
    rating = me.stat(stat)
    distraction = "the target is distracted or unaware" if distracted else None
    if other is None:
        if target_number is None or target_number < 0:
            raise RuleError("A task needs a difficulty (0 or more) or an opponent.")
        skill = f"{label(stat)} {rating} > difficulty {target_number}" if rating > target_number else None
        pool = build_pool(skill=skill, distraction=distraction, situation=situation,
                          misc_lost=lost)
        result = roll_against_target(pool, target_number, rng)
        data = {"kind": "static", "name": name, "stat": stat, "rating": rating,
                "target_number": target_number, "roll": result.to_dict()}
        line = (f"{name} tries {label(stat)} {rating} against difficulty {target_number}: "
                f"{', '.join(map(str, result.dice))} (best {result.best}): {result.outcome}.")
        return data, line + (f" {result.prompt}" if result.prompt else "")
    them = Combatant.from_dict({"id": "them", **other})
    if not them.has_stat(other_stat):
        raise RuleError(f"{other_name} has no stat or skill called {label(other_stat)}.")
    theirs = them.stat(other_stat)
    # The higher stat earns the Skill Die.
    mine_pool = build_pool(
        skill=f"{label(stat)} {rating} > {theirs}" if rating > theirs else None,
        distraction=distraction, situation=situation, misc_lost=lost)
    their_pool = build_pool(
        skill=f"{label(other_stat)} {theirs} > {rating}" if theirs > rating else None)
    mine, opposing = roll_opposed(mine_pool, their_pool, rng)
    data = {"kind": "opposed", "name": name, "stat": stat, "rating": rating,
            "other": other_name, "other_stat": other_stat, "other_rating": theirs,
            "roll": mine.to_dict(), "other_roll": opposing.to_dict()}
    line = (f"{name} ({label(stat)} {rating}) against {other_name} ({label(other_stat)} {theirs}): "
            f"{', '.join(map(str, mine.dice))} (best {mine.best}) v {', '.join(map(str, opposing.dice))} "
            f"(best {opposing.best}): {name} {mine.outcome}.")
    return data, line + (f" {mine.prompt}" if mine.prompt else "")


# What a fight leaves on the characters' sheets when Action Rounds end.
LASTING = ("current_toughness", "injured", "out_of_fight")


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """When Action Rounds end, each combatant's Toughness and injuries go back to its sheet."""
    if event.get("type") != "action_rounds_ended":
        return {}
    # An injury from before the fight stays on the sheet though it cost no Lost Die here.
    return {cid: {**{k: c[k] for k in LASTING},
                  "injured": bool(c["injured"] or c.get("injured_before"))}
            for cid, c in state["combatants"].items()}
