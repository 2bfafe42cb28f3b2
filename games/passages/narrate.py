"""One plain-English line per event, for the table's log (``public_line``: as everyone reads it;
``summary``: as a reader who may see the given sheets does). Names come from the state."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from games.core import clock as time
from games.core.fights import SIDE_SET, side_line
from games.passages import combat
from games.passages.campaign import advanced_line, recovered_line
from games.passages.resolution import KIND_LABELS
from games.passages.rules import LABELS
from games.passages.state import IN, REST, TEND, names_of, npcs

Event = Mapping[str, Any]
TRACK_LABELS = {"wounds": "Wounds", "fatigue": "Fatigue", "untended": "Untended Wounds",
                "magic": "Magical Resources"}


def describe_check(who: str, check: Mapping[str, Any], *, secret: bool = False) -> str:
    """"Ann checks Lockpicking (BASE 32): rolls 43, Double Up success." and the like. A
    ``secret`` sheet's check (an NPC's, behind the Director's screen) names the skill, the
    roll and its band, made in the open, and none of the sheet's figures (BASE, Core, DU, DD)."""
    if secret:
        if check["practice"]:
            return f"{who} practises {check['skill']}: no roll needed, it succeeds."
        kind = "makes a challenge of" if check["challenge"] else "checks"
        return f"{who} {kind} {check['skill']}: rolls {check['roll']}, {LABELS[check['band']]}."
    if check["practice"]:
        return f"{who} practises {check['skill']} (BASE {check['base']}): no roll needed, it succeeds."
    # the Double Up and Double Down the roll was judged by are in the line's working (``working``)
    if check["challenge"]:
        how = f"{who} makes a challenge of {check['skill']} (Core {check['value']} of BASE {check['base']})"
    else:
        how = f"{who} checks {check['skill']} (BASE {check['base']})"
    return f"{how}: rolls {check['roll']}, {LABELS[check['band']]}."


def tending_word(band: str) -> str:
    """How much of a patient's untended Wounds a tending of this band tends (recovery.py)."""
    return {"success": "all", "double_down": "all", "double_up": "half"}.get(band, "none")


@dataclass(frozen=True)
class Reader:
    """Who reads a line: the scene (``state``: its Personae's names, its mode) and ``hidden``,
    the Personae whose sheets the reader may not see."""

    state: Mapping[str, Any]
    hidden: Collection[str]
    names: Mapping[str, str]

    def secret(self, cid: object) -> bool:
        return str(cid) in self.hidden

    def name(self, cid: object) -> str:
        return self.names.get(str(cid), str(cid))

    def joined(self, ids: list[str]) -> str:
        return ", ".join(self.name(c) for c in ids) or "nobody"

    def check(self, cid: object, check: Mapping[str, Any]) -> str:
        """``describe_check`` for the Persona ``cid``, its figures left out if its sheet is hidden."""
        return describe_check(self.name(cid), check, secret=self.secret(cid))


def summary(event: Event, state: Mapping[str, Any], hidden: Collection[str] = frozenset()) -> str:
    """The event's log line. ``hidden``: the Personae whose sheets the reader may not see (the
    NPCs, behind the Director's screen): the line keeps what happens in the open (the dice, the
    result, the tracks) and leaves out their figures (a BASE, Selected Combat or Defense, weapon
    damage, armour). Every roll is made in the open; the numbers on an NPC's sheet are the
    Director's. Each kind's line is its function in ``LINES``."""
    return LINES[event["type"]](event, Reader(state, hidden, names_of(state)))


def _under_attack(e: Event) -> str:
    return " (a challenge: they are under attack)" if e.get("forced") else ""


def _checked(e: Event, r: Reader) -> str:
    return r.check(e["combatant"], e["check"]) + _under_attack(e)


def _practised(e: Event, r: Reader) -> str:
    return r.check(e["combatant"], e["check"])


def _contest_started(e: Event, r: Reader) -> str:
    kind = "A magic duel" if e["magic"] else "A contest"
    line = f"{kind} begins: {r.joined([p['id'] for p in e['personae']])}."
    if e["challenge"]:
        line += f" Rolled as challenges by {r.joined(e['challenge'])}."
    if e["cost"] != 5:
        line += f" A tick costs {e['cost']}."
    return line


def _contest_rolled(e: Event, r: Reader) -> str:
    return "In the contest, " + r.check(e["combatant"], e["check"])


def _contest_round(e: Event, r: Reader) -> str:
    bands = "; ".join(f"{r.name(c)} {LABELS[b]}" for c, b in e["bands"].items())
    track = "Magical Resources" if e["resource"] == "magic" else "Fatigue"
    costs = [f"{r.name(c)} loses {p} {track} (now {e['after'][c]})" for c, p in e["costs"].items() if p]
    line = f"Contest round {e['round']}: {bands}."
    if costs:
        line += " " + "; ".join(costs) + "."
    if e["collapsed"]:
        line += f" {r.joined(e['collapsed'])} collapses."
    return line


def _contest_cost_set(e: Event, r: Reader) -> str:
    return f"The Director sets a contest tick at {e['cost']}."


def _contest_broken_off(e: Event, r: Reader) -> str:
    return f"{r.name(e['combatant'])} breaks off the contest."


def _contest_ended(e: Event, r: Reader) -> str:
    why = {"won": f"{r.joined(e['winners'])} prevails", "broke_off": "someone broke off",
           "collapsed": "exhaustion", "director": "the Director ends it"}[e["reason"]]
    if e["reason"] == "collapsed" and e["winners"]:
        why = f"exhaustion; {r.joined(e['winners'])} is left standing"
    return f"The contest is over: {why}."


def _combat_started(e: Event, r: Reader) -> str:
    return f"A fight begins: {r.joined([p['id'] for p in e['personae']])}."


def _game_state_row(row: Mapping[str, Any], r: Reader) -> str:
    status = f" ({row['status']})" if row.get("status") else ""
    if row.get("present") is False:
        return f"{r.name(row['combatant'])} has left the Scene{status}"
    return (f"{r.name(row['combatant'])} {row['wounds']} Wounds / {row['fatigue']} Fatigue"
            + (" (Unconscious)" if row["unconscious"] else " (Downed)" if row["downed"] else "")
            + (f", {row['status']}" if row.get("status") else ""))


def _turn_started(e: Event, r: Reader) -> str:
    people = "; ".join(_game_state_row(row, r) for row in e["game_state"])
    where = f" Conditions: {e['conditions']}." if e["conditions"] else ""
    return f"Turn {e['turn']}. Game State: {people}.{where}"


def _declared(e: Event, r: Reader) -> str:
    d = e["declaration"]
    who = r.name(d["combatant"])
    if d["stance"] == IN:
        shot = " (ranged)" if d["ranged"] else ""
        if r.secret(d["combatant"]):
            return f"{who} is IN: {d['intent']} against {r.name(d['target'])}{shot}."
        return (f"{who} is IN: {d['intent']} against {r.name(d['target'])}{shot}, "
                f"with {d['combat_skill']} {d['combat']}, defending with {d['defense_skill'] or 'nothing'} "
                f"{d['defense']}.")
    if d["action"] == REST:
        return f"{who} is OUT and rests."
    if d["action"] == TEND:
        whom = "their own wounds" if d["patient"] == d["combatant"] else f"{r.name(d['patient'])}'s wounds"
        return f"{who} is OUT, tending {whom}."
    return f"{who} is OUT: {d['action']}."


def _timing_set(e: Event, r: Reader) -> str:
    reason = f" ({e['reason']})" if e["reason"] else ""
    return (f"The Director sets {r.name(e['combatant'])}'s Timing at {e['modifier']:+d}{reason}: "
            "it modifies their Combat Roll.")


def _combat_rolled(e: Event, r: Reader) -> str:
    timing = f" with Timing {e['timing']:+d}" if e["timing"] else ""
    adds = "" if r.secret(e["combatant"]) else f" + {e['combat_skill']} {e['combat']} = {e['total']}"
    defense = "" if r.secret(e["target"]) else f" {e['defense']}"
    return (f"{r.name(e['combatant'])} rolls {e['die']}{timing}{adds} "
            f"against {r.name(e['target'])}'s Defense{defense}: {combat.LEVEL_LABELS[e['level']]}.")


def _wound(w: Mapping[str, Any], r: Reader) -> str:
    # the points dealt land on a public track; the weapon's damage and the armour's effect
    # are the sheets' figures, the Director's when either sheet is behind the screen
    if r.secret(w["to"]) or r.secret(w["by"]):
        return f"{r.name(w['to'])} takes {w['damage']['dealt']}"
    d = w["damage"]
    capped = f", no more than the Skill: {d['capped']}" if d["capped"] < d["weapon"] else ""
    armour = {"halve": "halved by armour", "double": "doubled by armour", "none": "no armour"}.get(
        d["armour"], f"armour {d['armour']}")
    kind = f" {d['type']}" if d.get("type") else ""
    return f"{r.name(w['to'])} takes {d['dealt']}{kind} ({w.get('weapon') or 'weapon'} {d['weapon']}{capped}, {armour})"


def _pairing_outcome(e: Event, r: Reader) -> str:
    outcome = e["outcome"]
    if outcome == combat.BOTH_MISS:
        return "both miss; each will lose a Fatigue tick"
    if outcome == combat.ONE_SUCCEEDS:
        return f"{r.joined(e['resolves'])} succeeds and resolves their Intent"
    if outcome == combat.EQUAL:
        return "both succeed equally; both are wounded"
    if outcome == combat.UNEQUAL:
        return "both succeed, unequally; only the lesser is wounded"
    if outcome == combat.SINGLE:
        return f"{r.name(e['a'])}'s attack succeeds" if e["resolves"] else \
            f"{r.name(e['a'])}'s attack fails; a Fatigue tick for failing"
    raise KeyError(outcome)


def _pairing_resolved(e: Event, r: Reader) -> str:
    parts = _pairing_outcome(e, r)
    wounds = "; ".join(_wound(w, r) for w in e["wounds"])
    who = (f"{r.name(e['a'])} and {r.name(e['b'])}" if e["kind"] == "mutual"
           else f"{r.name(e['a'])} on {r.name(e['b'])}")
    return f"Roll-off, {who}: {parts}." + (f" Wounds at the Resolution Point: {wounds}." if wounds else "")


def _resolution_point(e: Event, r: Reader) -> str:
    rows = []
    for row in e["rows"]:
        state_word = " Unconscious" if row["unconscious"] else " Downed" if row["downed"] else ""
        rows.append(f"{r.name(row['combatant'])} {row['after']['wounds']} Wounds / {row['after']['fatigue']} Fatigue"
                    + (f",{state_word}" if state_word else ""))
    return f"Resolution Point, Turn {e['turn']}: " + "; ".join(rows) + "."


def _conditions_set(e: Event, r: Reader) -> str:
    return (f"Conditions: {e['conditions'] or 'none'}"
            + (f"; {e['modifier']:+d} to every Combat Roll until they change" if e.get("modifier") else "")
            + ("; they hinder: one-off rolls are Challenges" if e.get("hinder") else "") + ".")


def _status_set(e: Event, r: Reader) -> str:
    return (f"{r.name(e['combatant'])}: {e['status'] or 'no particular status'}"
            + ("" if e["present"] else "; leaves the Scene")
            + (f" and recovers Fatigue to {e['recovered']}" if "recovered" in e else "")
            + ("; the Conditions hinder them: their checks are challenges" if e.get("hindered") else "")
            + (f"; {e['modifier']:+d} to their Combat Roll until it changes" if e.get("modifier") else "") + ".")


def _track_corrected(e: Event, r: Reader) -> str:
    return (f"The Director sets {e.get('name') or r.name(e['combatant'])}'s "
            f"{TRACK_LABELS[e['track']]} from {e['before']} to {e['value']}.")


def _rested(e: Event, r: Reader) -> str:
    before, now = e["before"], e["after"]
    wounds = f", Wounds {before['wounds']} → {now['wounds']}" if now["wounds"] != before["wounds"] else ""
    return f"{e['name']} rests: Fatigue {before['fatigue']} → {now['fatigue']}{wounds}."


def _result_entered(e: Event, r: Reader) -> str:
    text = f" ({e['text']})" if e["text"] else ""
    return (f"The Director enters {KIND_LABELS[e['kind']]} for {r.name(e['combatant'])}{text}: "
            f"{e['wounds']} Wounds, {e['fatigue']} Fatigue, at the Resolution Point.")


def _joined(e: Event, r: Reader) -> str:
    verb = "joins" if len(e["personae"]) == 1 else "join"
    when = (" the fight at the next Turn's Declarations." if r.state["mode"] == "combat"
            else " the contest from its next round.")
    return f"{r.joined([p['id'] for p in e['personae']])} {verb}{when}"


def _tend_rolled(e: Event, r: Reader) -> str:
    return (f"Tending {r.name(e['patient'])}'s wounds, " + r.check(e["combatant"], e["check"]) + _under_attack(e)
            + f" It tends {tending_word(e['check']['band'])} of the untended points, at the Resolution Point.")


def _tended(e: Event, r: Reader) -> str:
    names = e["names"]
    tender, patient = names[e["tender"]], names[e["patient"]]
    whom = "their own wounds" if e["tender"] == e["patient"] else f"{patient}'s wounds"
    rolled = describe_check(tender, e["check"], secret=r.secret(e["tender"]))
    left = e["after"][e["patient"]]["untended"]
    return (f"{tender} tends {whom}. {rolled} {e['points']} untended Wound points tended ({left} left); "
            f"{tender} spends a Fatigue tick.")


def _combat_ended(e: Event, r: Reader) -> str:
    return f"The fight ends in Turn {e['turn']}."


def _side_set(e: Event, r: Reader) -> str:
    return side_line(e, "The Director") + "."


# Each event kind's line, as ``summary`` writes it for a reader.
LINES: dict[str, Callable[[Event, Reader], str]] = {
    "checked": _checked,
    "practised": _practised,
    "contest_started": _contest_started,
    "contest_rolled": _contest_rolled,
    "contest_round": _contest_round,
    "contest_cost_set": _contest_cost_set,
    "contest_broken_off": _contest_broken_off,
    "contest_ended": _contest_ended,
    "combat_started": _combat_started,
    "turn_started": _turn_started,
    "declared": _declared,
    "timing_set": _timing_set,
    "combat_rolled": _combat_rolled,
    "pairing_resolved": _pairing_resolved,
    "resolution_point": _resolution_point,
    "conditions_set": _conditions_set,
    "status_set": _status_set,
    "track_corrected": _track_corrected,
    "rested": _rested,
    "result_entered": _result_entered,
    "joined": _joined,
    "tend_rolled": _tend_rolled,
    "tended": _tended,
    "combat_ended": _combat_ended,
    SIDE_SET: _side_set,
    "time_recovered": lambda e, r: recovered_line(e),
    "skills_advanced": lambda e, r: advanced_line(e),
}


def public_line(event: Event, state: Mapping[str, Any]) -> str:
    """The line everyone reads (the engine's ``summary``): no NPC's figures. The Director's
    whole line rides in the event's Director's part (``audiences.settle``). The clock's own
    events (time passing, a condition, a table option) read as the core writes them: the undo
    list names a step by this line."""
    if event["type"] in time.EVENTS:
        return time.line(event)
    return summary(event, state, npcs(state) | set(event.get("npcs") or ()))


def undone_line(event: Event, state: Mapping[str, Any]) -> str:
    """The undo's line: the step taken back, as everyone read it."""
    return f"The Director takes back the last step ({str(event.get('what') or 'the last one').rstrip('.')})."
