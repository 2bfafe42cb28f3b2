"""The table procedure as a state machine: ``decide(state, command, rng) -> events``.

``decide`` checks a command against the rules and returns the events it causes, every die
in them; ``events.apply`` folds each into the state. A refused command raises a
``RuleError`` subclass and nothing changes. Every command is a dict with ``type`` and
``actor`` = ``{"is_gm", "controls", "member", "name"}``; the Director (the GM) plays every
Persona, a player only their own: nobody rolls for another's Persona.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core.rng import Rng
from games.passages import combat, contest, rules, sheet, tracks
from games.passages import state as st
from games.passages.errors import BadValue, CannotAct, NotNow, NotYours
from games.passages.events import apply
from games.passages.resolution import resolution_rows

Event = dict[str, Any]
MAX_TEXT = 200


@dataclass(frozen=True)
class Actor:
    """Who sent a command, as the platform vouches for it."""

    is_gm: bool = False
    controls: frozenset[str] = frozenset()
    member: int | None = None
    name: str = ""

    @classmethod
    def from_dict(cls, data: object) -> Actor:
        if not isinstance(data, Mapping):
            raise NotYours("A command needs its sender: {'is_gm': bool, 'controls': [ids]}.")
        controls = data.get("controls") or []
        if not isinstance(controls, (list, tuple, set, frozenset)):
            raise NotYours("actor.controls is a list of Persona ids.")
        member = data.get("member")
        return cls(is_gm=bool(data.get("is_gm", False)), controls=frozenset(map(str, controls)),
                   member=member if isinstance(member, int) else None, name=str(data.get("name") or ""))

    def plays(self, cid: str) -> bool:
        """The Director stands in for every Persona, as at a real table; a player only for
        their own."""
        return self.is_gm or cid in self.controls


def require_gm(actor: Actor, what: str) -> None:
    if not actor.is_gm:
        raise NotYours(f"Only the Director can {what}.")


def require_plays(actor: Actor, person: Mapping[str, Any]) -> None:
    if not actor.plays(person["id"]):
        raise NotYours(f"You do not play {person['name']}: nobody rolls for another's Persona.")


def require_mode(state: Mapping[str, Any], mode: str) -> None:
    if state["mode"] != mode:
        doing = {st.IDLE: "nothing is under way", st.CONTEST: "a contest is under way",
                 st.COMBAT: "a fight is under way"}[state["mode"]]
        wanted = {st.IDLE: "when nothing else is under way", st.CONTEST: "during a contest",
                  st.COMBAT: "during a fight"}[mode]
        raise NotNow(f"That is only for {wanted}; {doing}.")


def require_able(person: Mapping[str, Any]) -> None:
    """Seed: Unconscious Personae "cannot perform any Actions until revived"; "When your
    Fatigue reaches zero, you cannot continue to take Actions other than rest"."""
    if person.get("unconscious") or person["wounds"] <= 0:
        raise CannotAct(f"{person['name']} is Unconscious and cannot act until revived.")
    if person.get("downed") or person["fatigue"] <= 0:
        raise CannotAct(f"{person['name']} is Downed and may only rest.")


def find(state: Mapping[str, Any], cid: object) -> dict[str, Any]:
    if not isinstance(cid, str) or cid not in st.in_scene(state):
        raise BadValue(f"There is no Persona {cid!r} in this scene.")
    person: dict[str, Any] = state["personae"][cid]
    return person


def _text(command: Mapping[str, Any], key: str, default: str = "", limit: int = MAX_TEXT) -> str:
    raw = command.get(key)
    text = " ".join(str(raw).split()) if raw is not None else ""
    if len(text) > limit:
        raise BadValue(f"{key.capitalize()} is at most {limit} characters.")
    return text or default


def _int(command: Mapping[str, Any], key: str, low: int, high: int, label: str,
         default: int | None = None) -> int:
    raw = command.get(key, default)
    if raw in (None, "") and default is not None:
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise BadValue(f"{label} is a whole number from {low} to {high}.")
    return raw


def _sheets(command: Mapping[str, Any], least: int) -> list[dict[str, Any]]:
    raw = command.get("combatants")
    if not isinstance(raw, list) or len(raw) < least:
        raise BadValue(f"Choose at least {least} Personae.")
    people = [sheet.persona(p) for p in raw]
    if len({p["id"] for p in people}) != len(people):
        raise BadValue("The same Persona is listed twice.")
    return people


# Checks, challenges and practice within a scene (outside one, ``table.roll_check``).


def _forced_challenge(state: Mapping[str, Any], cid: str) -> bool:
    """Seed: "A Persona can be attacked (thus the object of COMBAT, without being subject to
    it. In these cases, they can still use non-combat Skills, but any such Action will be a
    CHALLENGE, not a CHECK." So in a fight, once an attack on a Persona who is not itself
    fighting has been declared, that Persona's checks are challenges."""
    if state["mode"] != st.COMBAT:
        return False
    declared = state["combat"]["declared"]
    if declared.get(cid, {}).get("stance") == st.IN:
        return False
    return any(d.get("stance") == st.IN and d.get("target") == cid for d in declared.values())


def check(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """A check (or, by the Director's choice, a challenge) by a Persona in the scene.

    Seed: "Checks occur in the story when their success/failure affects the Conditions of a
    scene, the Director deems them necessary, and the Persona is not opposed."
    """
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: roll a one-off check instead.")
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    forced = _forced_challenge(state, person["id"])
    result = rules.check(name, base, rng, challenge=bool(command.get("challenge")) or forced)
    return [{"type": "checked", "combatant": person["id"], "check": result.to_dict(), "forced": forced}]


def practice(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """Seed: "A player may 'practice' any skill, but they will automatically succeed ...
    There is no need to roll dice". No die is rolled."""
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: practise through the one-off check.")
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    return [{"type": "practised", "combatant": person["id"], "check": rules.practice(name, base).to_dict()}]


# Contests.


def contest_start(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                  rng: Rng) -> list[Event]:
    """Seed: "Contests are Actions opposed by another actor on the stage or Scene. The
    Director determines what is or is not a Contest." Each party's roll "can be a Check OR a
    Challenge by choice of the Director" (``challenge``: the ids rolling challenges); "Magic
    Duels use Magical Resources rather than Fatigue" (``magic``); "the Director can modify up
    or down the cost in Fatigue" (``cost``: points a tick, 5 unless the Director says)."""
    require_gm(actor, "start a contest")
    require_mode(state, st.IDLE)
    people = _sheets(command, 2)
    ids = [p["id"] for p in people]
    raw = command.get("challenge") or []
    challenge = ids if raw is True else [cid for cid in ids if cid in raw] if isinstance(raw, list) else []
    magic = bool(command.get("magic"))
    cost = _int(command, "cost", 0, tracks.FULL, "The cost of a tick", tracks.TICK)
    for person in people:
        require_able(person)
        if magic and person["magic"] <= 0:
            raise CannotAct(f"{person['name']} has no Magical Resources left to duel with.")
    return [{"type": "contest_started", "personae": people, "challenge": challenge, "magic": magic,
             "cost": cost}]


def _contest_progress(state: Mapping[str, Any]) -> list[Event]:
    """Once every party still in has rolled: the round's Fatigue, and whether it ends."""
    contest_state = state["contest"]
    active = list(contest_state["active"])
    if len(active) < 2 or st.contest_waiting(state):
        return []
    bands = {cid: contest_state["rolls"][cid]["band"] for cid in active}
    judged = contest.judge(bands)
    resource = "magic" if contest_state["magic"] else "fatigue"
    costs = {cid: tracks.ticks(judged.ticks[cid], contest_state["cost"]) for cid in active}
    after = {cid: tracks.lose(state["personae"][cid][resource], costs[cid]) for cid in active}
    # "Contests continue until one party succeeds and the other fails, one or both collapse
    # from fatigue, or one breaks off the engagement".
    collapsed = [cid for cid in active if after[cid] == 0 and costs[cid] > 0]
    events: list[Event] = [{"type": "contest_round", "round": contest_state["round"], "bands": bands,
                            "ticks": judged.ticks, "costs": costs, "resource": resource, "after": after,
                            "outcome": judged.outcome, "winners": list(judged.winners),
                            "collapsed": collapsed}]
    standing = [cid for cid in active if cid not in collapsed]
    if judged.outcome == contest.WON:
        events.append({"type": "contest_ended", "reason": "won", "winners": list(judged.winners)})
    elif len(standing) < 2:
        events.append({"type": "contest_ended", "reason": "collapsed", "winners": standing})
    return events


def contest_roll(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                 rng: Rng) -> list[Event]:
    """A party makes its check (or challenge) for this round of the contest."""
    require_mode(state, st.CONTEST)
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    if person["id"] not in state["contest"]["active"]:
        raise NotNow(f"{person['name']} is out of this contest.")
    if person["id"] in state["contest"]["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this round.")
    require_able(person)
    name, base = sheet.skill(person, command.get("skill"))
    challenge = person["id"] in state["contest"]["challenge"]
    result = rules.check(name, base, rng, challenge=challenge)
    rolled: Event = {"type": "contest_rolled", "combatant": person["id"], "round": state["contest"]["round"],
                     "check": result.to_dict()}
    return [rolled, *_contest_progress(apply(state, rolled))]


def contest_break_off(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                      rng: Rng) -> list[Event]:
    """Seed: a contest ends when "one breaks off the engagement by changing their Action to a
    non-contested one in a successive Turn": so before rolling in a round, not after."""
    require_mode(state, st.CONTEST)
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    if person["id"] not in state["contest"]["active"]:
        raise NotNow(f"{person['name']} is out of this contest.")
    if person["id"] in state["contest"]["rolls"]:
        raise NotNow(f"{person['name']} has rolled this round: break off before the next roll.")
    broke: Event = {"type": "contest_broken_off", "combatant": person["id"]}
    after = apply(state, broke)
    if len(after["contest"]["active"]) < 2:
        return [broke, {"type": "contest_ended", "reason": "broke_off", "winners": []}]
    return [broke, *_contest_progress(after)]


def contest_cost(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                 rng: Rng) -> list[Event]:
    """Seed: "the Director can modify up or down the cost in Fatigue as he or she determines"."""
    require_gm(actor, "change what a tick costs")
    require_mode(state, st.CONTEST)
    return [{"type": "contest_cost_set", "cost": _int(command, "cost", 0, tracks.FULL, "The cost of a tick")}]


# Combat.


def _defense(person: Mapping[str, Any], name: object = None) -> dict[str, Any]:
    skill_name, value = sheet.selected(person, "defense", name)
    return {"defense_skill": skill_name, "defense": value}


def _game_state(state: Mapping[str, Any], turn: int) -> Event:
    """Seed: "The Game State is an overview or reminder of every General Conditions of the
    Scene, each Persona's Health, Fatigue, Combat Eligibility and Combat Status". The
    Downed are set to rest and the Unconscious to nothing, as the seed allows them."""
    rows, auto = [], []
    for cid in st.present(state):
        person = state["personae"][cid]
        rows.append({"combatant": cid, "wounds": person["wounds"], "fatigue": person["fatigue"],
                     "untended": person["untended"], "eligible": st.eligible(person),
                     "downed": bool(person.get("downed")), "unconscious": bool(person.get("unconscious")),
                     "status": person.get("status", "")})
        if person.get("unconscious"):
            auto.append({"combatant": cid, "stance": st.OUT, "action": "unconscious", "auto": True,
                         **_defense(person)})
        elif person.get("downed"):
            auto.append({"combatant": cid, "stance": st.OUT, "action": st.REST, "auto": True,
                         **_defense(person)})
    return {"type": "turn_started", "turn": turn, "conditions": state["conditions"], "game_state": rows,
            "auto": auto}


def combat_start(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                 rng: Rng) -> list[Event]:
    require_gm(actor, "start a fight")
    require_mode(state, st.IDLE)
    people = _sheets(command, 2)
    conditions = _text(command, "conditions", state["conditions"], 300)
    started: Event = {"type": "combat_started", "personae": people, "conditions": conditions}
    return [started, _game_state(apply(state, started), 1)]


def _open_declarations(state: Mapping[str, Any], person: Mapping[str, Any], actor: Actor) -> None:
    require_mode(state, st.COMBAT)
    require_plays(actor, person)
    if state["combat"]["phase"] != st.DECLARE:
        raise NotNow("Everyone has declared: declarations are fixed until the next Turn.")
    if not person.get("present", True):
        raise CannotAct(f"{person['name']} is not in the fight.")
    if person.get("unconscious"):
        raise CannotAct(f"{person['name']} is Unconscious and cannot act until revived.")


def declare(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """Seed, DECLARATION: "Each Persona in the Scene declares to be IN, or OUT of the combat
    sequence", and "Combatants state their Intent and Timing. Non-combatants declare their
    Actions only." The Intent names the enemy engaged and the Condition sought; Selected
    Combat and Selected Defense are named skills (the sheet's, else the highest)."""
    person = find(state, command.get("combatant"))
    _open_declarations(state, person, actor)
    stance = command.get("stance")
    if stance == st.OUT:
        action = _text(command, "action", "a non-combat action")
        if person.get("downed") and action != st.REST:
            raise CannotAct(f"{person['name']} is Downed and may only rest.")
        return [{"type": "declared", "combatant": person["id"], "declaration": {
            "combatant": person["id"], "stance": st.OUT, "action": action, "auto": False,
            **_defense(person, command.get("defense"))}}]
    if stance != st.IN:
        raise BadValue("Declare IN or OUT of the combat.")
    require_able(person)
    target = command.get("target")
    if target == person["id"]:
        raise BadValue(f"{person['name']} cannot attack themselves.")
    opponent = find(state, target)
    if not opponent.get("present", True):
        raise BadValue(f"{opponent['name']} is not in the fight.")
    combat_name, combat_value = sheet.selected(person, "combat", command.get("combat"))
    damage = command.get("damage")
    damage = person["weapon_damage"] if damage in (None, "") else _int(
        command, "damage", 0, sheet.MAX_WEAPON_DAMAGE, "A weapon's damage")
    ranged = person["ranged"] if command.get("ranged") is None else bool(command.get("ranged"))
    return [{"type": "declared", "combatant": person["id"], "declaration": {
        "combatant": person["id"], "stance": st.IN, "target": opponent["id"],
        "intent": _text(command, "intent", "to wound"), "combat_skill": combat_name, "combat": combat_value,
        **_defense(person, command.get("defense")), "weapon": person["weapon"], "damage": damage,
        "ranged": ranged, "auto": False}}]


def rest(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """A Resting Action: OUT of the combat, exerting nothing. Seed: "Fatigue is recovered by
    choosing not to exert oneself in combat"."""
    person = find(state, command.get("combatant"))
    _open_declarations(state, person, actor)
    return [{"type": "declared", "combatant": person["id"], "declaration": {
        "combatant": person["id"], "stance": st.OUT, "action": st.REST, "auto": False, **_defense(person)}}]


def tend(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """Tending wounds, a non-combat Action (OUT). Seed: "Wounds must be tended for the
    individual to regain so Fatigue and Wound Ticks"; the tending resolves among the
    Consequences at the Resolution Point, and a tended Wound drains no more Fatigue."""
    person = find(state, command.get("combatant"))
    _open_declarations(state, person, actor)
    require_able(person)
    patient = find(state, command.get("patient") or person["id"])
    if not patient.get("present", True):
        raise BadValue(f"{patient['name']} is not here to be tended.")
    return [{"type": "declared", "combatant": person["id"], "declaration": {
        "combatant": person["id"], "stance": st.OUT, "action": st.TEND, "patient": patient["id"],
        "auto": False, **_defense(person)}}]


def timing(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """Seed: "Timing is a result of Combat Status, and modifies the Combat roll. Timing is
    altered by Weapons mismatches, Skill imbalances, and Conditional Advantages." The
    Director sets it (the torch example: "a Condition modifier of -20")."""
    require_gm(actor, "set Timing")
    require_mode(state, st.COMBAT)
    person = find(state, command.get("combatant"))
    if person["id"] in state["combat"]["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this Turn.")
    modifier = _int(command, "modifier", -100, 100, "A Timing modifier")
    return [{"type": "timing_set", "combatant": person["id"], "modifier": modifier,
             "reason": _text(command, "reason")}]


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
                              combat.parse_armour(target["armour_effect"]))
        wounds.append({"to": side[hurt], "by": by, "weapon": declared[by].get("weapon", ""),
                       "damage": dealt.to_dict()})
    levels = {cid: rolls[cid]["level"] for cid in (a, b) if cid in rolls}
    return {"type": "pairing_resolved", "kind": pairing["kind"], "a": a, "b": b, "levels": levels,
            "outcome": result.outcome, "resolves": [side[s] for s in result.resolves],
            "intents": {side[s]: declared[side[s]].get("intent", "") for s in result.resolves},
            "wounds": wounds, "fail_ticks": {side[s]: n for s, n in result.fail_ticks.items()}}


def combat_roll(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                rng: Rng) -> list[Event]:
    """Seed, TIMING: "Each conflict pairing resolves in order, with a roll-off determining
    success or failure of the Combat Action." Each side rolls its own Combat Roll: "Roll
    your Combat Roll and add your Selected Combat value. Compare the sum with the Selected
    Defense of the Opponent." A pairing resolves once both its rolls are in."""
    require_mode(state, st.COMBAT)
    person = find(state, command.get("combatant"))
    require_plays(actor, person)
    fight = state["combat"]
    if fight["phase"] != st.TIMING:
        waiting = ", ".join(state["personae"][c]["name"] for c in st.waiting_to_declare(state))
        raise NotNow(f"Not everyone has declared yet (waiting for {waiting}).")
    mine = fight["declared"].get(person["id"], {})
    if mine.get("stance") != st.IN:
        raise NotNow(f"{person['name']} declared OUT of the combat this Turn.")
    if person["id"] in fight["rolls"]:
        raise NotNow(f"{person['name']} has already rolled this Turn.")
    require_able(person)
    target = state["personae"][mine["target"]]
    if not target.get("present", True):
        raise NotNow(f"{target['name']} is no longer in the fight.")
    theirs = fight["declared"].get(target["id"]) or _defense(target)
    die = rules.roll_d100(rng)
    modifier = fight["timing"].get(person["id"], {}).get("modifier", 0)
    total = combat.attack_total(die, mine["combat"], modifier)
    level = combat.attack_level(total, theirs["defense"])
    rolled: Event = {"type": "combat_rolled", "combatant": person["id"], "target": target["id"], "die": die,
                     "timing": modifier, "combat_skill": mine["combat_skill"], "combat": mine["combat"],
                     "total": total, "defense_skill": theirs["defense_skill"], "defense": theirs["defense"],
                     "margin": total - theirs["defense"], "level": level,
                     "level_name": combat.LEVEL_NAMES[level], "ranged": mine["ranged"]}
    after = apply(state, rolled)
    pairing = st.pairing_of(after, person["id"])
    events = [rolled]
    if pairing is not None and all(c in after["combat"]["rolls"] for c in (
            (pairing["a"], pairing["b"]) if pairing["kind"] == "mutual" else (pairing["a"],))):
        events.append(_resolve_pairing(after, pairing))
    return events


def resolve(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """The Resolution Point, then the next Turn's Game State. Seed: "This Resolution Point
    is when one Turn Ends and the Next Begins. So, the Game State is both the end of one and
    the beginning of the next." See ``resolution`` for the order."""
    require_gm(actor, "call the Resolution Point")
    require_mode(state, st.COMBAT)
    names = st.names_of(state)
    if state["combat"]["phase"] != st.TIMING:
        waiting = ", ".join(names[c] for c in st.waiting_to_declare(state))
        raise NotNow(f"Not everyone has declared yet (waiting for {waiting}).")
    waiting = [c for c in st.waiting_to_roll(state)
               if state["personae"][state["combat"]["declared"][c]["target"]].get("present", True)]
    if waiting:
        raise NotNow(f"Not every Combat Roll is in (waiting for {', '.join(names[c] for c in waiting)}).")
    point: Event = {"type": "resolution_point", "turn": state["combat"]["turn"], "rows": resolution_rows(state)}
    return [point, _game_state(apply(state, point), state["combat"]["turn"] + 1)]


# The Director's hand: conditions, status, corrections, and the end.


def set_conditions(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
                   rng: Rng) -> list[Event]:
    """Seed: "the Director adds any changes to the Conditions of the Engagement"."""
    require_gm(actor, "set the Conditions")
    return [{"type": "conditions_set", "conditions": _text(command, "conditions", "", 300)}]


def set_status(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor,
               rng: Rng) -> list[Event]:
    """A Persona's Combat Status ("terrain effects, injuries, etc.") and whether it is still
    on the Scene (Combat Eligibility: "or the Persona is teleported away")."""
    require_gm(actor, "set a Persona's status")
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way.")
    person = find(state, command.get("combatant"))
    present = command.get("present", True) is not False
    return [{"type": "status_set", "combatant": person["id"], "status": _text(command, "status", "", 120),
             "present": present}]


def correct(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """The Director sets a track (healing, a Critical Wound, an Effect that restores
    Fatigue). Wounds at 0 leave the Persona Unconscious; above 0 they are revived."""
    require_gm(actor, "correct a track")
    if state["mode"] == st.IDLE:
        raise NotNow("No contest or fight is under way: correct the sheet instead.")
    person = find(state, command.get("combatant"))
    track = command.get("track")
    if track not in sheet.TRACKS:
        raise BadValue(f"A track is one of {', '.join(sheet.TRACKS)}.")
    value = _int(command, "value", 0, tracks.FULL, f"{str(track).capitalize()}")
    changed = {k: person[k] for k in (*sheet.TRACKS, "downed", "unconscious")}
    changed[track] = value
    changed["untended"] = min(changed["untended"], tracks.FULL - changed["wounds"])
    changed["unconscious"] = changed["wounds"] == 0
    if changed["unconscious"]:
        changed["fatigue"] = 0
    changed["downed"] = changed["unconscious"] or changed["fatigue"] == 0
    return [{"type": "track_corrected", "combatant": person["id"], "track": track,
             "before": person[track], "value": value, "person": changed}]


def undo(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    """The Director takes back the last step (a slip of the hand, a wrong Declaration): the
    table is as it was before it, and the undo stays in the log. A roll taken back and made
    again is a new roll, in the log for everyone to see."""
    require_gm(actor, "take back a step")
    kept = state.get("undo") or []
    if not kept:
        raise NotNow("There is nothing to take back.")
    return [{"type": "undone", "what": kept[-1]["what"]}]


def end(state: Mapping[str, Any], command: Mapping[str, Any], actor: Actor, rng: Rng) -> list[Event]:
    require_gm(actor, "end it")
    if state["mode"] == st.CONTEST:
        return [{"type": "contest_ended", "reason": "director", "winners": []}]
    if state["mode"] == st.COMBAT:
        return [{"type": "combat_ended", "turn": state["combat"]["turn"]}]
    raise NotNow("No contest or fight is under way.")


Handler = Callable[[Mapping[str, Any], Mapping[str, Any], Actor, Rng], list[Event]]
COMMANDS: dict[str, Handler] = {
    "check": check,
    "practice": practice,
    "contest_start": contest_start,
    "contest_roll": contest_roll,
    "contest_break_off": contest_break_off,
    "contest_cost": contest_cost,
    "combat_start": combat_start,
    "declare": declare,
    "rest": rest,
    "tend": tend,
    "timing": timing,
    "combat_roll": combat_roll,
    "resolve": resolve,
    "set_conditions": set_conditions,
    "set_status": set_status,
    "correct": correct,
    "end": end,
    "undo": undo,
}
# Commands a player sends for their own Persona (``combatant``); the Director sends the rest.
PLAYER_COMMANDS = frozenset({"check", "practice", "contest_roll", "contest_break_off", "declare", "rest",
                             "tend", "combat_roll"})


def decide(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng) -> list[Event]:
    """The events ``command`` causes, or a ``RuleError``; ``state`` is never changed."""
    handler = COMMANDS.get(str(command.get("type")))
    if handler is None:
        raise BadValue(f"Unknown command {command.get('type')!r}.")
    actor = Actor.from_dict(command.get("actor"))
    events = copy.deepcopy(handler(state, copy.deepcopy(dict(command)), actor, rng))
    step = state["step"] + 1
    for event in events:
        event["step"] = step
    return events


def run(state: Mapping[str, Any], command: Mapping[str, Any], rng: Rng) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng)
    new: dict[str, Any] = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
