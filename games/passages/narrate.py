"""One plain-English line per event, for the table's log (``public_line``: as everyone reads it;
``summary``: as a reader who may see the given sheets does). Names come from the state."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from games.core.fights import SIDE_SET, side_line
from games.passages import combat
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


def summary(event: Event, state: Mapping[str, Any], hidden: Collection[str] = frozenset()) -> str:
    """The event's log line. ``hidden``: the Personae whose sheets the reader may not see (the
    NPCs, behind the Director's screen): the line keeps what happens in the open (the dice, the
    result, the tracks) and leaves out their figures (a BASE, Selected Combat or Defense, weapon
    damage, armour). Every roll is made in the open; the numbers on an NPC's sheet are the
    Director's."""
    names = names_of(state)

    def secret(cid: object) -> bool:
        return str(cid) in hidden

    def n(cid: object) -> str:
        return names.get(str(cid), str(cid))

    def joined(ids: list[str]) -> str:
        return ", ".join(n(c) for c in ids) or "nobody"

    def started_contest(e: Event) -> str:
        kind = "A magic duel" if e["magic"] else "A contest"
        line = f"{kind} begins: {joined([p['id'] for p in e['personae']])}."
        if e["challenge"]:
            line += f" Rolled as challenges by {joined(e['challenge'])}."
        if e["cost"] != 5:
            line += f" A tick costs {e['cost']}."
        return line

    def contest_round(e: Event) -> str:
        bands = "; ".join(f"{n(c)} {LABELS[b]}" for c, b in e["bands"].items())
        costs = [f"{n(c)} loses {p} {'Magical Resources' if e['resource'] == 'magic' else 'Fatigue'}"
                 f" (now {e['after'][c]})" for c, p in e["costs"].items() if p]
        line = f"Contest round {e['round']}: {bands}."
        if costs:
            line += " " + "; ".join(costs) + "."
        if e["collapsed"]:
            line += f" {joined(e['collapsed'])} collapses."
        return line

    def contest_ended(e: Event) -> str:
        why = {"won": f"{joined(e['winners'])} prevails", "broke_off": "someone broke off",
               "collapsed": "exhaustion", "director": "the Director ends it"}[e["reason"]]
        if e["reason"] == "collapsed" and e["winners"]:
            why = f"exhaustion; {joined(e['winners'])} is left standing"
        return f"The contest is over: {why}."

    def game_state_row(r: Mapping[str, Any]) -> str:
        status = f" ({r['status']})" if r.get("status") else ""
        if r.get("present") is False:
            return f"{n(r['combatant'])} has left the Scene{status}"
        return (f"{n(r['combatant'])} {r['wounds']} Wounds / {r['fatigue']} Fatigue"
                + (" (Unconscious)" if r["unconscious"] else " (Downed)" if r["downed"] else "")
                + (f", {r['status']}" if r.get("status") else ""))

    def turn_started(e: Event) -> str:
        people = "; ".join(game_state_row(r) for r in e["game_state"])
        where = f" Conditions: {e['conditions']}." if e["conditions"] else ""
        return f"Turn {e['turn']}. Game State: {people}.{where}"

    def declared(e: Event) -> str:
        d = e["declaration"]
        if d["stance"] == IN:
            shot = " (ranged)" if d["ranged"] else ""
            if secret(d["combatant"]):
                return f"{n(d['combatant'])} is IN: {d['intent']} against {n(d['target'])}{shot}."
            return (f"{n(d['combatant'])} is IN: {d['intent']} against {n(d['target'])}{shot}, "
                    f"with {d['combat_skill']} {d['combat']}, defending with {d['defense_skill'] or 'nothing'} "
                    f"{d['defense']}.")
        if d["action"] == REST:
            return f"{n(d['combatant'])} is OUT and rests."
        if d["action"] == TEND:
            whom = "their own wounds" if d["patient"] == d["combatant"] else f"{n(d['patient'])}'s wounds"
            return f"{n(d['combatant'])} is OUT, tending {whom}."
        return f"{n(d['combatant'])} is OUT: {d['action']}."

    def rolled(e: Event) -> str:
        timing = f" with Timing {e['timing']:+d}" if e["timing"] else ""
        adds = "" if secret(e["combatant"]) else f" + {e['combat_skill']} {e['combat']} = {e['total']}"
        defense = "" if secret(e["target"]) else f" {e['defense']}"
        return (f"{n(e['combatant'])} rolls {e['die']}{timing}{adds} "
                f"against {n(e['target'])}'s Defense{defense}: {combat.LEVEL_LABELS[e['level']]}.")

    def wound(w: Mapping[str, Any]) -> str:
        # the points dealt land on a public track; the weapon's damage and the armour's effect
        # are the sheets' figures, the Director's when either sheet is behind the screen
        if secret(w["to"]) or secret(w["by"]):
            return f"{n(w['to'])} takes {w['damage']['dealt']}"
        d = w["damage"]
        capped = f", no more than the Skill: {d['capped']}" if d["capped"] < d["weapon"] else ""
        armour = {"halve": "halved by armour", "double": "doubled by armour", "none": "no armour"}.get(
            d["armour"], f"armour {d['armour']}")
        kind = f" {d['type']}" if d.get("type") else ""
        return f"{n(w['to'])} takes {d['dealt']}{kind} ({w.get('weapon') or 'weapon'} {d['weapon']}{capped}, {armour})"

    def pairing(e: Event) -> str:
        parts = {
            combat.BOTH_MISS: "both miss; each will lose a Fatigue tick",
            combat.ONE_SUCCEEDS: f"{joined(e['resolves'])} succeeds and resolves their Intent",
            combat.EQUAL: "both succeed equally; both are wounded",
            combat.UNEQUAL: "both succeed, unequally; only the lesser is wounded",
            combat.SINGLE: (f"{n(e['a'])}'s attack succeeds" if e["resolves"]
                            else f"{n(e['a'])}'s attack fails; a Fatigue tick for failing"),
        }[e["outcome"]]
        wounds = "; ".join(wound(w) for w in e["wounds"])
        who = f"{n(e['a'])} and {n(e['b'])}" if e["kind"] == "mutual" else f"{n(e['a'])} on {n(e['b'])}"
        return f"Roll-off, {who}: {parts}." + (f" Wounds at the Resolution Point: {wounds}." if wounds else "")

    def resolution(e: Event) -> str:
        rows = []
        for r in e["rows"]:
            state_word = " Unconscious" if r["unconscious"] else " Downed" if r["downed"] else ""
            rows.append(f"{n(r['combatant'])} {r['after']['wounds']} Wounds / {r['after']['fatigue']} Fatigue"
                        + (f",{state_word}" if state_word else ""))
        return f"Resolution Point, Turn {e['turn']}: " + "; ".join(rows) + "."

    def rested(e: Event) -> str:
        before, now = e["before"], e["after"]
        wounds = f", Wounds {before['wounds']} → {now['wounds']}" if now["wounds"] != before["wounds"] else ""
        return f"{e['name']} rests: Fatigue {before['fatigue']} → {now['fatigue']}{wounds}."

    def tended(e: Event) -> str:
        names = e["names"]
        tender, patient = names[e["tender"]], names[e["patient"]]
        whom = "their own wounds" if e["tender"] == e["patient"] else f"{patient}'s wounds"
        rolled = describe_check(tender, e["check"], secret=secret(e["tender"]))
        left = e["after"][e["patient"]]["untended"]
        return (f"{tender} tends {whom}. {rolled} {e['points']} untended Wound points tended ({left} left); "
                f"{tender} spends a Fatigue tick.")

    texts: dict[str, Callable[[Event], str]] = {
        "checked": lambda e: describe_check(n(e["combatant"]), e["check"], secret=secret(e["combatant"]))
        + (" (a challenge: they are under attack)" if e.get("forced") else ""),
        "practised": lambda e: describe_check(n(e["combatant"]), e["check"], secret=secret(e["combatant"])),
        "contest_started": started_contest,
        "contest_rolled": lambda e: "In the contest, " + describe_check(n(e["combatant"]), e["check"],
                                                                        secret=secret(e["combatant"])),
        "contest_round": contest_round,
        "contest_cost_set": lambda e: f"The Director sets a contest tick at {e['cost']}.",
        "contest_broken_off": lambda e: f"{n(e['combatant'])} breaks off the contest.",
        "contest_ended": contest_ended,
        "combat_started": lambda e: f"A fight begins: {joined([p['id'] for p in e['personae']])}.",
        "turn_started": turn_started,
        "declared": declared,
        "timing_set": lambda e: f"The Director sets {n(e['combatant'])}'s Timing at {e['modifier']:+d}"
        + (f" ({e['reason']})" if e["reason"] else "") + ": it modifies their Combat Roll.",
        "combat_rolled": rolled,
        "pairing_resolved": pairing,
        "resolution_point": resolution,
        "conditions_set": lambda e: f"Conditions: {e['conditions'] or 'none'}"
        + (f"; {e['modifier']:+d} to every Combat Roll until they change" if e.get("modifier") else "")
        + ("; they hinder: one-off rolls are Challenges" if e.get("hinder") else "") + ".",
        "status_set": lambda e: f"{n(e['combatant'])}: {e['status'] or 'no particular status'}"
        + ("" if e["present"] else "; leaves the Scene")
        + (f" and recovers Fatigue to {e['recovered']}" if "recovered" in e else "")
        + ("; the Conditions hinder them: their checks are challenges" if e.get("hindered") else "")
        + (f"; {e['modifier']:+d} to their Combat Roll until it changes" if e.get("modifier") else "") + ".",
        "track_corrected": lambda e: f"The Director sets {e.get('name') or n(e['combatant'])}'s "
        f"{TRACK_LABELS[e['track']]} from {e['before']} to {e['value']}.",
        "rested": rested,
        "result_entered": lambda e: f"The Director enters {KIND_LABELS[e['kind']]} for {n(e['combatant'])}"
        + (f" ({e['text']})" if e["text"] else "") + f": {e['wounds']} Wounds, {e['fatigue']} Fatigue, "
        "at the Resolution Point.",
        "joined": lambda e: f"{joined([p['id'] for p in e['personae']])} "
        + ("joins" if len(e["personae"]) == 1 else "join")
        + (" the fight at the next Turn's Declarations." if state["mode"] == "combat"
           else " the contest from its next round."),
        "tend_rolled": lambda e: f"Tending {n(e['patient'])}'s wounds, "
        + describe_check(n(e["combatant"]), e["check"], secret=secret(e["combatant"]))
        + (" (a challenge: they are under attack)" if e.get("forced") else "")
        + f" It tends {tending_word(e['check']['band'])} of the untended points, at the Resolution Point.",
        "tended": tended,
        "combat_ended": lambda e: f"The fight ends in Turn {e['turn']}.",
        SIDE_SET: lambda e: side_line(e) + ".",
    }
    return texts[event["type"]](event)


def public_line(event: Event, state: Mapping[str, Any]) -> str:
    """The line everyone reads (the engine's ``summary``): no NPC's figures. The Director's
    whole line rides in the event's Director's part (``audiences.settle``)."""
    return summary(event, state, npcs(state) | set(event.get("npcs") or ()))


def undone_line(event: Event, state: Mapping[str, Any]) -> str:
    """The undo's line: the step taken back, as everyone read it."""
    return f"The Director takes back the last step ({str(event.get('what') or 'the last one').rstrip('.')})."
