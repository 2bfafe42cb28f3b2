"""A fight at the table: the ``combat_start``, ``declare``, ``rest``, ``tend``, ``timing``,
``combat_roll`` and ``resolve`` moves, the Game State that opens each Turn, and each
pairing resolved once its rolls are in (the arithmetic is ``combat``'s, the Resolution
Point ``resolution``'s).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.core.engine import Turn
from games.passages import checks, combat, persona, recovery, rules
from games.passages import state as st
from games.core.fights import refuse_out, refuse_when_over
from games.passages.access import find, require_able, require_mode, require_turn_open
from games.passages.errors import BadValue, CannotAct, NotNow
from games.passages.events import Event, after, take_in
from games.passages.resolution import resolution_rows
from games.passages.sides import over, roster


def _defense(person: Mapping[str, Any], name: object = None) -> dict[str, Any]:
    skill_name, value = persona.selected(person, "defense", name)
    return {"defense_skill": skill_name, "defense": value}


def _game_state(state: Mapping[str, Any], turn: int) -> Event:
    """Seed: "The Game State is an overview or reminder of every General Conditions of the
    Scene, each Persona's Health, Fatigue, Combat Eligibility and Combat Status". The
    Downed are set to rest and the Unconscious to nothing, as the seed allows them."""
    rows, auto = [], []
    for cid in st.in_scene(state):
        person = state["personae"][cid]
        # one who has left stays in the Game State, not eligible ("or the Persona is teleported away")
        rows.append({"combatant": cid, "wounds": person["wounds"], "fatigue": person["fatigue"],
                     "untended": person["untended"], "eligible": st.eligible(person),
                     "downed": bool(person.get("downed")), "unconscious": bool(person.get("unconscious")),
                     "status": person.get("status", ""), "present": bool(person.get("present", True))})
        if not person.get("present", True):
            continue
        if person.get("unconscious"):
            auto.append({"combatant": cid, "stance": st.OUT, "action": "unconscious", "auto": True,
                         **_defense(person)})
        elif person.get("downed"):
            auto.append({"combatant": cid, "stance": st.OUT, "action": st.REST, "auto": True,
                         **_defense(person)})
    return {"type": "turn_started", "turn": turn, "conditions": state.get("scene_conditions", ""), "game_state": rows,
            "auto": auto}


def combat_start(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A fight begins, under the Conditions the Director gives (the Scene's as they were, when
    none is given), and its first Turn opens with the Game State."""
    require_mode(state, st.IDLE)
    people = persona.scene_personae(args["combatants"], turn)
    started: Event = {"type": "combat_started", "personae": people,
                      "conditions": args.get("conditions") or state.get("scene_conditions", "")}
    return [started, _game_state(after(state, started), 1)]


def _open_declarations(state: Mapping[str, Any], person: Mapping[str, Any]) -> None:
    require_mode(state, st.COMBAT)
    require_turn_open(state)
    if state["combat"]["phase"] != st.DECLARE:
        raise NotNow("Everyone has declared: declarations are fixed until the next Turn.")
    if not person.get("present", True):
        raise CannotAct(f"{person['name']} is not in the fight.")
    if person.get("unconscious"):
        raise CannotAct(f"{person['name']} is Unconscious and cannot act until revived.")


def declare(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed, DECLARATION: "Each Persona in the Scene declares to be IN, or OUT of the combat
    sequence", and "Combatants state their Intent and Timing. Non-combatants declare their
    Actions only." The Intent names the enemy engaged and the Condition sought; Selected
    Combat and Selected Defense are named skills (the sheet's, else the highest)."""
    person = find(state, args.get("combatant"))
    _open_declarations(state, person)
    if args["stance"] == st.OUT:
        action = args.get("action") or "a non-combat action"
        if person.get("downed") and action != st.REST:
            raise CannotAct(f"{person['name']} is Downed and may only rest.")
        return _declared(person, stance=st.OUT, action=action, **_defense(person, args.get("defense")))
    require_able(person)
    target = args.get("target")
    if target == person["id"]:
        raise BadValue(f"{person['name']} cannot attack themselves.")
    opponent = find(state, target)
    # the out leave every target list (seed: Combat Eligibility is "whether a Persona CAN
    # continue the Combat into the next Turn"): no attack on one Downed, Unconscious or gone
    refuse_out(roster(state), opponent["id"], "be attacked")
    if not opponent.get("present", True):
        raise BadValue(f"{opponent['name']} is not in the fight.")
    combat_name, combat_value = _attack_skill(person, args)
    damage = person["weapon_damage"] if args.get("damage") is None else args["damage"]
    if damage is None:  # "Most Weapons do a set amount of Damage": never a silent 0
        raise BadValue(f"{person['name']}'s weapon has no damage set: name it in the Declaration "
                       "(0 for a blow that harms nothing) or on the sheet.")
    ranged = person["ranged"] if args.get("ranged") is None else args["ranged"]
    return _declared(person, stance=st.IN, target=opponent["id"], intent=args.get("intent") or "to wound",
                     combat_skill=combat_name, combat=combat_value, **_defense(person, args.get("defense")),
                     weapon=person["weapon"], damage=damage, ranged=ranged, damage_type=person.get("weapon_type", ""),
                     magic=bool(args.get("magic")))


def _attack_skill(person: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, int]:
    """Selected Combat, or for a magic attack the Magical Combat Effect. Seed: "Magical Combat
    Effect replaces Selected Combat when that applies"; reading: a spell needs Magical Resources
    left (it spends a tick of them at the Resolution Point, ``resolution``)."""
    if not args.get("magic"):
        return persona.selected(person, "combat", args.get("combat"))
    if person["magic"] <= 0:
        raise CannotAct(f"{person['name']} has no Magical Resources left for a spell.")
    if not person.get("magic_combat"):
        raise BadValue(f"{person['name']} has no Magical Combat Effect on the sheet.")
    return persona.skill(person, person["magic_combat"])


def _declared(person: Mapping[str, Any], **declaration: Any) -> list[Event]:
    return [{"type": "declared", "combatant": person["id"],
             "declaration": {"combatant": person["id"], **declaration, "auto": False}}]


def rest(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """A Resting Action: OUT of the combat, exerting nothing. Seed: "Fatigue is recovered by
    choosing not to exert oneself in combat". Outside a fight, a rest (``recovery``)."""
    if recovery.idle(state):
        return recovery.rest_outside(state, args, turn)
    person = find(state, args.get("combatant"))
    _open_declarations(state, person)
    return _declared(person, stance=st.OUT, action=st.REST, **_defense(person))


def tend(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Tending wounds, a non-combat Action (OUT). Seed: "Wounds must be tended for the
    individual to regain so Fatigue and Wound Ticks"; the tending resolves among the
    Consequences at the Resolution Point, and a tended Wound drains no more Fatigue. Declared
    here; rolled once every Declaration is in (``checks.tend_roll``). Outside a fight, a
    tending of its own (``recovery``)."""
    if recovery.idle(state):
        return recovery.tend_outside(state, args, turn)
    if state["mode"] == st.COMBAT and args.get("skill"):
        return checks.tend_roll(state, args, turn)  # the declared tending's roll names its skill
    person = find(state, args.get("combatant"))
    _open_declarations(state, person)
    require_able(person)
    patient = find(state, args.get("patient") or person["id"])
    if not patient.get("present", True):
        raise BadValue(f"{patient['name']} is not here to be tended.")
    return _declared(person, stance=st.OUT, action=st.TEND, patient=patient["id"], **_defense(person))


def timing(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed: "Timing is a result of Combat Status, and modifies the Combat roll. Timing is
    altered by Weapons mismatches, Skill imbalances, and Conditional Advantages." The
    Director sets it (the torch example: "a Condition modifier of -20")."""
    require_mode(state, st.COMBAT)
    require_turn_open(state)
    person = find(state, args.get("combatant"))
    if person["id"] in state["combat"]["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this Turn.")
    return [{"type": "timing_set", "combatant": person["id"], "modifier": args["modifier"],
             "reason": args.get("reason", "")}]


def _resolve_pairing(state: Mapping[str, Any], pairing: Mapping[str, Any]) -> Event:
    rolls, declared = state["combat"]["rolls"], state["combat"]["declared"]
    a, b = pairing["a"], pairing["b"]
    if pairing["kind"] == "mutual":
        result = combat.roll_off(rolls[a]["level"], rolls[b]["level"])
    else:
        result = combat.single(rolls[a]["level"])
    side = {"a": a, "b": b}
    wounds = []
    for hurt in result.wounded:
        by = b if hurt == "a" else a
        target = state["personae"][side[hurt]]
        dealt = combat.damage(declared[by]["damage"], declared[by]["combat"],
                              combat.parse_armour(target["armour_effect"]), declared[by].get("damage_type", ""))
        wounds.append({"to": side[hurt], "by": by, "weapon": declared[by].get("weapon", ""),
                       "damage": dealt.to_dict()})
    levels = {cid: rolls[cid]["level"] for cid in (a, b) if cid in rolls}
    return {"type": "pairing_resolved", "kind": pairing["kind"], "a": a, "b": b, "levels": levels,
            "outcome": result.outcome, "resolves": [side[s] for s in result.resolves],
            "intents": {side[s]: declared[side[s]].get("intent", "") for s in result.resolves},
            "wounds": wounds, "fail_ticks": {side[s]: n for s, n in result.fail_ticks.items()}}


def _declarations_in(state: Mapping[str, Any]) -> None:
    """The Combat Rolls and the Resolution Point wait for every Declaration."""
    require_turn_open(state)
    if state["combat"]["phase"] != st.TIMING:
        waiting = ", ".join(state["personae"][c]["name"] for c in st.waiting_to_declare(state))
        raise NotNow(f"Not everyone has declared yet (waiting for {waiting}).")


def combat_roll(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """Seed, TIMING: "Each conflict pairing resolves in order, with a roll-off determining
    success or failure of the Combat Action." Each side rolls its own Combat Roll: "Roll
    your Combat Roll and add your Selected Combat value. Compare the sum with the Selected
    Defense of the Opponent." A pairing resolves once both its rolls are in."""
    assert turn.rng is not None
    require_mode(state, st.COMBAT)
    person = find(state, args.get("combatant"))
    _declarations_in(state)
    fight = state["combat"]
    mine = fight["declared"].get(person["id"], {})
    if mine.get("stance") != st.IN:
        raise NotNow(f"{person['name']} declared OUT of the combat this Turn.")
    if person["id"] in fight["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this Turn.")
    require_able(person)
    target = state["personae"][mine["target"]]
    # one out since the Declaration (the Director's correction) is attacked no more
    refuse_out(roster(state), target["id"], "be attacked: the attack lapses")
    warded, value = persona.defense_against(target, fight["declared"].get(target["id"]), bool(mine.get("magic")))
    theirs = {"defense_skill": warded, "defense": value}
    die = rules.roll_d100(turn.rng)
    modifier = st.modifier(state, person["id"])
    total = combat.attack_total(die, mine["combat"], modifier)
    level = combat.attack_level(total, theirs["defense"])
    rolled: Event = {"type": "combat_rolled", "combatant": person["id"], "target": target["id"], "die": die,
                     "timing": modifier, "combat_skill": mine["combat_skill"], "combat": mine["combat"],
                     "total": total, "defense_skill": theirs["defense_skill"], "defense": theirs["defense"],
                     "margin": total - theirs["defense"], "level": level,
                     "level_name": combat.LEVEL_NAMES[level], "ranged": mine["ranged"]}
    now = after(state, rolled)
    pairing = st.pairing_of(now, person["id"])
    events = [rolled]
    if pairing is not None and all(c in now["combat"]["rolls"] for c in (
            (pairing["a"], pairing["b"]) if pairing["kind"] == "mutual" else (pairing["a"],))):
        events.append(_resolve_pairing(now, pairing))
    return events


def _pending_pairings(state: Mapping[str, Any]) -> list[Event]:
    """The pairings whose rolls are all in but that no roll resolved: one whose other side's
    attack lapsed after it rolled (a correction Downed that side) stands alone and resolves now."""
    events: list[Event] = []
    now = state
    done = {(p["a"], p["b"]) for p in state["combat"]["pairings"]}
    for pairing in st.pairings(state):
        needed = (pairing["a"], pairing["b"]) if pairing["kind"] == "mutual" else (pairing["a"],)
        if (pairing["a"], pairing["b"]) not in done and all(c in state["combat"]["rolls"] for c in needed):
            events.append(_resolve_pairing(now, pairing))
            now = after(now, events[-1])
    return events


def resolve(state: Mapping[str, Any], args: dict[str, Any], turn: Turn) -> list[Event]:
    """The Resolution Point, then the next Turn's Game State. Seed: "This Resolution Point
    is when one Turn Ends and the Next Begins. So, the Game State is both the end of one and
    the beginning of the next." See ``resolution`` for the order.

    A fight over starts no new Turn: when the Resolution Point leaves one side with no one
    Combat Eligible (the decided reading: "when one side has no one able to act, the fight is
    over"), the Turn ends there and every seat reads that the fight is over; the Director ends
    it. Should a side stand again before that (reinforcements, a Persona moved to a side), the
    same move starts the next Turn."""
    require_mode(state, st.COMBAT)
    fight = state["combat"]
    if fight["phase"] == st.RESOLVED:
        refuse_when_over(roster(state), "start a new Turn")
        now = copy.deepcopy(dict(state))
        take_in(now)  # reinforcements called since are in the new Turn's Game State
        return [_game_state(now, fight["turn"] + 1)]
    _declarations_in(state)
    waiting = st.rolls_awaited(state)
    if waiting:
        names = st.names_of(state)
        raise NotNow(f"Not every Combat Roll is in (waiting for {', '.join(names[c] for c in waiting)}).")
    events = _pending_pairings(state)
    now = after(state, *events)
    point: Event = {"type": "resolution_point", "turn": fight["turn"], "rows": resolution_rows(now)}
    now = after(now, point)
    if over(now)[0]:
        return [*events, point]
    return [*events, point, _game_state(now, fight["turn"] + 1)]
