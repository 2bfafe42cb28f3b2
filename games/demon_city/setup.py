"""Commands that set the scene: start Action Rounds, add an entity, GM corrections.

Each handler checks the command and returns events without ``step``; ``decide`` stamps
them. None of them change the state they are given.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

from games.core.rng import Rng
from games.demon_city import state as st
from games.demon_city.errors import RuleError
from games.demon_city.events import GRABBER_OUT, HOST_RELEASED
from games.demon_city.injury import DEFAULT_INJURY_TABLE, validate_table
from games.demon_city.permissions import Actor, require_gm
from games.demon_city.sheet import Combatant
from games.demon_city.writeback import lasting

Event = dict[str, Any]
# The GM may correct any of these mid-fight; ``id`` is identity, never a condition.
CORRECTABLE = frozenset(f for f in Combatant.__dataclass_fields__ if f != "id")


def require_phase(state: Mapping[str, Any], *allowed: str) -> None:
    if state["phase"] not in allowed:
        raise RuleError(f"Not now: Action Rounds are {state['phase']!r}, "
                        f"this needs {' or '.join(map(repr, allowed))}.")


def find_combatant(state: Mapping[str, Any], cid: object) -> Combatant:
    if not isinstance(cid, str) or cid not in state["combatants"]:
        raise RuleError(f"No combatant {cid!r} in this fight.")
    return st.combatant(state, cid)


def start(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
          rng: Rng) -> list[Event]:
    """The Host announces Action Rounds: fix the announcement order once.

    Seed: "write down player characters' names in ascending order of Agility, so you can
    do this the same every time. Resolve ties between player at the beginning of the game
    to make life simple." Ties are shuffled here, once, and the order is kept all fight.
    """
    require_gm(actor, "start Action Rounds")
    require_phase(state, st.IDLE, st.ENDED)
    raw = command.get("combatants")
    if not isinstance(raw, list) or not raw:
        raise RuleError("Action Rounds need at least one combatant.")
    people = fighters(raw, command.get("injuries_count", False))
    if len({p.id for p in people}) != len(people):
        raise RuleError("Two combatants share an id.")
    order: list[str] = []
    ties: list[list[str]] = []
    for _, same in groupby(sorted(people, key=lambda p: p.agility), key=lambda p: p.agility):
        block = [p.id for p in same]
        if len(block) > 1:
            rng.shuffle(block)
            ties.append(list(block))
        order += block
    table = validate_table(command.get("injury_table") or DEFAULT_INJURY_TABLE)
    npcs = command.get("npcs") or []
    if not isinstance(npcs, list) or not set(npcs) <= {p.id for p in people}:
        raise RuleError("The NPCs named are not among the combatants.")
    return [{"type": "action_rounds_started", "round": 1,
             "combatants": [p.to_dict() for p in people], "order": order, "ties": ties,
             "injury_table": table, "injuries_count": command.get("injuries_count", False),
             "npcs": list(npcs)}]


def fighters(sheets: list[Any], injuries_count: object) -> list[Combatant]:
    """Sheets as they enter a fight. Seed: "Anyone who has taken at least one injury during
    the fight loses a single die (the Lost Die for Injury)": an injury from before costs no
    die unless the Host says it counts (``injuries_count``); it is kept aside
    (``injured_before``) and goes back on the sheet when the fight ends."""
    if not isinstance(injuries_count, bool):
        raise RuleError("Say yes or no to counting injuries from before the fight.")
    people = [Combatant.from_dict(c) for c in sheets]
    if injuries_count:
        return people
    return [p.with_changes(injured=False, injured_before=True) if p.injured else p for p in people]


def add_combatant(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                  rng: Rng) -> list[Event]:
    """Someone joins the fight; a tie in Agility puts them at a random place among equals.
    An injury from before counts as at the start: only if the Host says (``injuries_count``)."""
    require_gm(actor, "add a combatant")
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    [person] = fighters([command.get("combatant") or {}], command.get("injuries_count", False))
    if person.id in state["combatants"]:
        raise RuleError(f"{person.id!r} is already in the fight.")
    order = place(person, state["order"], st.combatants(state), rng)
    return [{"type": "combatant_added", "combatant": person.to_dict(), "order": order,
             "npc": command.get("npc") is True}]


def place(person: Combatant, order: list[str], people: Mapping[str, Combatant],
          rng: Rng) -> list[str]:
    """``order`` with ``person`` inserted by Agility; among equals at a random place, as
    the seed decides ties, while the ties already decided between others stay put."""
    rest = [c for c in order if c != person.id]
    agility = [people[c].agility for c in rest]
    first = sum(1 for a in agility if a < person.agility)
    equals = sum(1 for a in agility if a == person.agility)
    at = first + (rng.randint(0, equals) if equals else 0)
    return [*rest[:at], person.id, *rest[at:]]


def set_condition(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                  rng: Rng) -> list[Event]:
    """The GM corrects a sheet value or condition (injured, grabbed, unaware, present...).

    Ending a grab (grabbed: no) is logged as the grab ending, for whoever held it; taking a
    grabber out of the fight (or out of the scene) ends the grabs it held.
    """
    require_gm(actor, "correct a combatant")
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    person = find_combatant(state, command.get("combatant"))
    name = command.get("field")
    if name not in CORRECTABLE:
        raise RuleError(f"{name!r} is not a field the Host can set.")
    changed = person.with_changes(**{name: command.get("value")})
    if name == "grabbed" and person.grabbed and not changed.grabbed:
        return [{"type": "grab_ended", "target": person.id, "grabbers": list(person.grabbed_by),
                 "reason": HOST_RELEASED}]
    order = list(state["order"])
    if changed.agility != person.agility:
        order = place(changed, order, st.combatants(state), rng)
    events: list[Event] = [{"type": "condition_set", "combatant": person.id, "field": name,
                            "value": changed.to_dict()[name], "order": order}]
    if person.able and not changed.able:
        events += [{"type": "grab_ended", "target": held, "grabbers": [person.id],
                    "reason": GRABBER_OUT} for held in st.holds_of(state, person.id)]
    return events


def set_injury_table(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                     rng: Rng) -> list[Event]:
    require_gm(actor, "edit the Injury table")
    return [{"type": "injury_table_set", "table": validate_table(command.get("table") or [])}]


def end(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
        rng: Rng) -> list[Event]:
    require_gm(actor, "end Action Rounds")
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    return [{"type": "action_rounds_ended"}]


def undo(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
         rng: Rng) -> list[Event]:
    """The GM takes back the last step; the undo itself stays in the log. It names the
    combatants whose sheet values (Toughness, injuries) it restores, so their sheets follow
    (``writeback``): only within a fight, since before one the sheets themselves are the truth."""
    require_gm(actor, "undo")
    if not state["undo"]:
        raise RuleError("Nothing to undo.")
    before = state["undo"][-1]
    restores = []
    if before["phase"] in (st.ANNOUNCE, st.RESOLVED):
        restores = [cid for cid, person in before["combatants"].items()
                    if cid in state["combatants"] and lasting(person) != lasting(state["combatants"][cid])]
    return [{"type": "undone", "undoes_step": state["step"], "restores": restores}]
