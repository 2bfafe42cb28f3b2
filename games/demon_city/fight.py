"""The moves that set the scene: start Action Rounds, add an entity, the Host's corrections, the
end, and what an undo puts back on the sheets.

Each handler (``handle(state, args, turn)``, games/core/engine.py) checks its move against the
rules and returns events without ``step``; the core stamps them. Who may send each is the core's
check (all of these are the GM's): none repeats it. None changes the state it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character
from games.core.engine import RuleError, Turn
from games.demon_city import edges, ties
from games.demon_city import state as st
from games.demon_city.combatant import Combatant
from games.demon_city.errors import NotInFight, NotNow
from games.demon_city.events import GRABBER_OUT, HOST_RELEASED, folded
from games.demon_city.injury import roll_injury, validate_table
from games.demon_city.writeback import lasting

Event = dict[str, Any]
# The GM may correct any of these mid-fight; ``id`` is identity, never a condition.
CORRECTABLE = frozenset(f for f in Combatant.__dataclass_fields__ if f != "id")
# The side a sheet left blank joins: NPCs oppose the players by default, so a tie between a
# player's character and an NPC is "between characters on opposing sides" (nobody acts) and
# characters teaming up on an NPC earn the Distraction Die.
PLAYERS_SIDE, NPC_SIDE = "players", "opponents"


def require_phase(state: Mapping[str, Any], *allowed: str) -> None:
    if state["phase"] not in allowed:
        raise NotNow(f"Not now: Action Rounds are {state['phase']!r}, "
                     f"this needs {' or '.join(map(repr, allowed))}.")


def find_combatant(state: Mapping[str, Any], cid: object) -> Combatant:
    if not isinstance(cid, str) or cid not in state["combatants"]:
        raise NotInFight(f"No combatant {cid!r} in this fight.")
    return st.combatant(state, cid)


def seated(turn: Turn, cid: object) -> Character:
    """The table's character ``cid`` names, as the table has it now (read under its lock)."""
    character = turn.character(cid) if isinstance(cid, str) else None
    if character is None:
        raise NotInFight(f"No character {str(cid)[:40]!r} at this table.")
    return character


def fighter(character: Character) -> dict[str, Any]:
    """A table's character as it enters a fight: its sheet as the table has it now, a blank side
    filled in by who plays it. The fight's event records it: the rules' record of the entity as
    it entered, which the fight then changes (Toughness, conditions) and writes back."""
    combatant = character.combatant
    if not str(combatant.get("side") or "").strip():
        combatant["side"] = NPC_SIDE if character.is_npc else PLAYERS_SIDE
    return combatant


def start(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The Host announces Action Rounds for ``combatants`` (the table's characters, by combatant
    id): fix the announcement order once.

    Seed: "write down player characters' names in ascending order of Agility, so you can
    do this the same every time. Resolve ties between player at the beginning of the game
    to make life simple." Ties are drawn once and kept, all fight and the next (``ties``). A new
    fight keeps the table's own Injury table, as the GM last edited it; the NPCs among the
    combatants are the table's (their figures are the GM's: ``audiences``).
    """
    require_phase(state, st.IDLE, st.ENDED)
    raw = args.get("combatants")
    if not isinstance(raw, list) or not raw:
        raise RuleError("Action Rounds need at least one combatant.")
    if len(set(map(str, raw))) != len(raw):
        raise RuleError("Two combatants share an id.")
    chosen = [seated(turn, cid) for cid in raw]
    people = fighters([fighter(c) for c in chosen], args.get("injuries_count", False))
    assert turn.rng is not None
    kept = ties.settled(state)
    order, drawn = ties.ordered(people, kept, turn.rng)
    return [{"type": "action_rounds_started", "round": 1,
             "combatants": [p.to_dict() for p in people], "order": order, "ties": drawn,
             "settled": ties.merged(kept, drawn),
             "injury_table": validate_table(state["injury_table"]),
             "injuries_count": args.get("injuries_count", False), "npcs": [c.cid for c in chosen if c.is_npc]}]


def fighters(sheets: list[Any], injuries_count: object) -> list[Combatant]:
    """Sheets as they enter a fight. Seed: "Anyone who has taken at least one injury during
    the fight loses a single die (the Lost Die for Injury)": a bare "Injured" from before costs
    no die unless the Host says it counts (``injuries_count``); it is kept aside
    (``injured_before``) and goes back on the sheet when the fight ends. An Injury result kept
    from an earlier fight always costs it: the decided reading, "the Lost Die for Injury lasts
    while an injury does"."""
    if not isinstance(injuries_count, bool):
        raise RuleError("Say yes or no to counting injuries from before the fight.")
    people = [Combatant.from_dict(c) for c in sheets]
    return [p.with_changes(injured=True) if p.injury and not p.out_of_fight
            else p.with_changes(injured=False, injured_before=True) if p.injured and not injuries_count
            else p for p in people]


def add_combatant(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """Someone joins the fight (``combatant``: a character at the table); a tie in Agility puts
    them at a random place among equals. An injury from before counts as at the start: only if
    the Host says (``injuries_count``)."""
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    character = seated(turn, args.get("combatant"))
    if character.cid in state["combatants"]:
        raise RuleError(f"{character.cid!r} is already in the fight.")
    [person] = fighters([fighter(character)], args.get("injuries_count", False))
    assert turn.rng is not None
    order, kept = ties.place(person, state["order"], st.combatants(state), ties.settled(state), turn.rng)
    return [{"type": "combatant_added", "combatant": person.to_dict(), "order": order,
             "npc": character.is_npc, "settled": kept}]


def settle_ties(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The Host settles the ties in Agility again (``ties``): between fights, the next fight draws
    them afresh; in a fight, before anyone announces in a round, they are drawn now."""
    if state["phase"] == st.ANNOUNCE and state["actions"]:
        raise NotNow("Settle ties before anyone announces in the round, or once the round is rolled.")
    if state["phase"] not in (st.ANNOUNCE, st.RESOLVED):
        return [{"type": "ties_settled", "order": None, "ties": [], "settled": []}]
    assert turn.rng is not None
    order, drawn = ties.ordered(list(st.combatants(state).values()), [], turn.rng)
    return [{"type": "ties_settled", "order": order, "ties": drawn, "settled": ties.merged([], drawn)}]


def set_condition(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The GM corrects a sheet value or condition (injured, grabbed, unaware, present...).

    Ending a grab (grabbed: no) is logged as the grab ending, for whoever held it; taking a
    grabber out of the fight (or out of the scene) ends the grabs it held.
    """
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    person = find_combatant(state, args.get("combatant"))
    name = args.get("field")
    if name not in CORRECTABLE:
        raise RuleError(f"{name!r} is not a field the Host can set.")
    changed = person.with_changes(**{name: args.get("value")})
    if name == "grabbed" and person.grabbed and not changed.grabbed:
        return [{"type": "grab_ended", "target": person.id, "grabbers": list(person.grabbed_by),
                 "reason": HOST_RELEASED}]
    order, moved = list(state["order"]), {}
    if changed.agility != person.agility:
        assert turn.rng is not None
        order, kept = ties.place(changed, order, st.combatants(state), ties.settled(state), turn.rng)
        moved = {"settled": kept}
    events: list[Event] = [{"type": "condition_set", "combatant": person.id, "field": name,
                            "value": changed.to_dict()[name], "order": order, **moved}]
    if person.able and not changed.able:
        events += [{"type": "grab_ended", "target": held, "grabbers": [person.id],
                    "reason": GRABBER_OUT} for held in st.holds_of(state, person.id)]
    return events


def set_injury_table(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    return [{"type": "injury_table_set", "table": validate_table(args.get("table") or [])}]


# The most Injury rolls the end of a fight makes for one whose result stays open ("roll again").
END_ROLLS = 10


def open_injuries(state: Mapping[str, Any], rng: Any) -> list[Event]:
    """The Injury rolls still open when the fight ends. Seed, step 8: "Anyone who is present,
    out of the fight, still alive, and who needs to roll on the Injury table because their last
    roll wasn't conclusive does"; the rounds that would have rolled them are not played, so the
    end rolls them now, again while the result stays open (at most ``END_ROLLS`` times), and
    nobody is left "Bleeding out" once the fight is over. A conclusive result is never rolled
    again (the decided reading)."""
    rolled: list[Event] = []
    now: Mapping[str, Any] = state
    for cid in state["order"]:
        for _ in range(END_ROLLS):
            person = now["combatants"][cid]
            if not (person.get("out_of_fight") and person.get("injury_pending") and not person.get("dead")):
                break
            die, entry = roll_injury(now["injury_table"], rng)
            event = {"type": "injury_rolled", "round": state["round"], "combatant": cid, "die": die, "entry": entry}
            rolled.append(event)
            now = folded(now, [event])
    return rolled


def end(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """The Host ends the fight ("End Action Rounds", or the banner's "End the fight" once one
    side stands): the Injury rolls still open are rolled (``open_injuries``), and the fight's
    damage ends with it (``edges.ended``, the decided reading "003, damage belongs to the
    fight")."""
    require_phase(state, st.ANNOUNCE, st.RESOLVED)
    rolled = open_injuries(state, turn.rng) if turn.rng is not None else []
    return [*rolled, {"type": "action_rounds_ended", **edges.ended(folded(state, rolled))}]


def undo_says(before: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    """What the GM's undo says beside the step it takes back (``Undo.says``), from the state
    before that step and the state now: ``restores``, the combatants whose sheet values
    (Toughness, injuries) it puts back, so their sheets follow (``writeback``), only within a
    fight, since before one the sheets themselves are the truth; and ``pools_now``, the pools
    already announced that it changes back, which its line states as any event's does."""
    restores = []
    if before["phase"] in (st.ANNOUNCE, st.RESOLVED):
        restores = [cid for cid, person in before["combatants"].items()
                    if cid in now["combatants"] and lasting(person) != lasting(now["combatants"][cid])]
    said: dict[str, Any] = {"restores": restores}
    healed = now.get("healed")
    if healed and healed != before.get("healed"):
        # the step taken back healed injuries (time passed): the sheets hold again what they held
        said["sheets"] = {cid: dict(was) for cid, was in (healed.get("was") or {}).items()}
    changed = st.pools_changed(now, before)
    if changed:
        said["pools_now"] = changed
    return said
