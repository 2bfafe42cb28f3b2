"""How each Passages log line came out (issue 23): the arithmetic step by step and the rule
it applied, in the seed's own words (seed 001), unfolded under the line as "How".

A working is built from the event alone, with the Personae's names from the state: never a
figure read out of the state. Where an event holds an NPC's figures (a BASE, Selected Combat
or Defense, a weapon's damage, armour: ``screen.FIGURES``), the event has a Director's part:
the whole working goes there, for the Director alone, as the private twin of a public one built
from the event's public part (``twin``); an event with no such part is everyone's whole, so its
working names nothing the line's readers may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Working
from games.passages import combat, contest
from games.passages.rules import LABELS
from games.passages.state import names_of

Event = Mapping[str, Any]

# The seed's words for each band ("CHECKS").
BAND_RULES = {
    "critical_fail": "CRITICAL FAIL: A roll of precisely 100% means the Action fails. This applies even to "
                     "Mastered Skills (95%)",
    "blown": "BLOWN ROLL: A roll higher than the Double Up value. The Action Fails.",
    "double_up": "DOUBLE UP SUCCESS: A roll higher than the Skill BASE and lower than or equal to double the "
                 "Skill BASE results as a DU. The Action partially succeeds.",
    "success": "SKILLS SUCCESS: A roll equal to or less than Skill BASE and more than 1/2(Skill BASE). The "
               "attempt succeeded as intended.",
    "double_down": "DOUBLE DOWN SUCCESS: A roll equal to or less than 1/2 Skills BASE value. The attempt is "
                   "wildly successful, and the Director will embellish the result,",
}
CHALLENGE_RULE = "CHALLENGES are Actions hindered by certain circumstances, or specific Conditions decided on " \
                 "by the Director. Challenges use the Skill's Core Value."
PRACTICE_RULE = "A player may 'practice' any skill, but they will automatically succeed. That is the purpose " \
                "of practice.There is no need to roll dice; you just do it."
ATTACK_RULE = "Roll your Combat Roll and add your Selected Combat value. Compare the sum with the Selected " \
              "Defense of the Opponent. If the modified Combat Roll is higher than the Selected Defense, the " \
              "result is a 'Potential Wound.'"
DOUBLED_READING = " Reading (the tabletop's): a Combined Attack above double the Selected Defense is the " \
                  "greater success, as a check's Double bands are."
PAIRING_RULES = {
    combat.BOTH_MISS: "If both Actors miss, the Combat continues, and each suffers a Tick of Fatigue for the "
                      "effort, which takes effect at the Resolution Point.",
    combat.ONE_SUCCEEDS: "If one Actor succeeds and the other fails, then the Actor's Intended Condition will "
                         "resolve and the other's will not. Further, the succeeding Actor will not suffer "
                         "Fatigue, but the other will suffer an injury and the attendant fatigue, plus one "
                         "Tick for failing.",
    combat.EQUAL: "If Both succeed equally, neither Condition will resolve, both will suffer a Wound but "
                  "neither will lose extra Fatigue, and the Engagement Continues",
    combat.UNEQUAL: "If Both succeed unequally, neither Condition will resolve, the greater will not suffer "
                    "injury, the lesser will suffer the injury but not lose extra Fatigue and the Engagement "
                    "continues.",
    combat.SINGLE: "Failure will mean an extra point of fatigue, whether the opponent succeeds or not. ... If "
                   "you succeed and your opponent fails, you get to Resolve a Condition.",
}
DAMAGE_RULE = " Damage from an Attack Action can be no more than the value of the Attacker's Skill. Once the " \
              "Damage is determined, it is mitigated/exacerbated by armor type."
CONTEST_RULES = {
    "all_fail": "IF ALL PARTIES FAIL, the engagement continues, but all actors in the Engagement suffer one "
                "Tick of Fatigue.",
    "same": "IF ALL PARTIES have the same level of SUCCESS, the Engagement continues, but no Fatigue is "
            "Suffered.",
    "lower": "IF ANY PARTY in the Contest rolls a lower level of success (DD over Success over DU), they "
             "suffer one Tick of Fatigue. (2 if DD over DU) but the Engagement continues.",
    "won": "Once one succeeds and the other fails, the Engagement is over.",
}
RESOLUTION_RULE = "After all Combat Rolls have been made for the Round, the Resolution Point occurs. Damage " \
                  "results tally first ... Fatigue Reduction for all Combat Actions tallies next. ... Each " \
                  "Untended Wound Point costs an additional point of Fatigue at the Resolution Point"


def check_working(check: Mapping[str, Any]) -> Working:
    """A check, challenge or practice: the value rolled against, its Double Up and Double Down,
    the d100 and the band it falls in, and the seed's words for that band."""
    skill, base = check["skill"], check["base"]
    if check["practice"]:
        return Working(steps=(f"{skill} (BASE {base}) practised: no roll, it succeeds",),
                       rule=PRACTICE_RULE, source="Checks")
    if check["challenge"]:
        value = f"Core {check['value']}"
        steps = [f"{skill} BASE {base}; a challenge uses its Core: {base} / 5, rounded up = {check['value']}"]
    else:
        value = f"BASE {base}"
        steps = [f"{skill} BASE {base}"]
    steps.append(f"Double Up = double {check['value']} = {check['du']}; "
                 f"Double Down = half, rounded down = {check['dd']}")
    steps.append(f"d100 roll: {check['roll']}")
    return banded(steps, check["roll"], check["band"], bool(check["challenge"]), str(value),
                  f"Double Up {check['du']}", f"Double Down {check['dd']}")


def banded(steps: list[str], roll: int, band: str, challenge: bool, value: str, du: str, dd: str) -> Working:
    """A check's working: ``steps`` so far, then where the roll fell against ``value`` and its
    Double Up and Double Down (as the reader may be told them: ``du``, ``dd``), and the rule."""
    steps = [*steps, {
        "critical_fail": "100 exactly: a Critical Fail",
        "blown": f"{roll} is above {du}: a Blown Roll",
        "double_up": f"{roll} is above {value} and at most {du}: a Double Up success",
        "success": f"{roll} is at most {value} and above {dd}: a Success",
        "double_down": f"{roll} is at most {dd}: a Double Down wild success",
    }[band]]
    rule = BAND_RULES[band] + (" " + CHALLENGE_RULE if challenge else "")
    return Working(steps=tuple(steps), rule=rule, source="Challenges and Checks" if challenge else "Checks")


def _rolled(e: Event, n: Callable[[object], str]) -> Working:
    steps = [f"Combat Roll (d100): {e['die']}"]
    sum_so_far = e["die"]
    if e["timing"]:
        sum_so_far += e["timing"]
        steps.append(f"Timing {e['timing']:+d}: {sum_so_far}")
    steps.append(f"+ Selected Combat ({e['combat_skill']}) {e['combat']} = {e['total']}")
    defense = f"{n(e['target'])}'s Selected Defense ({e['defense_skill'] or 'none'}) {e['defense']}"
    if e["level"] == combat.MISS:
        steps.append(f"{e['total']} is not above {defense}: a miss")
    elif e["level"] == combat.LANDED:
        steps.append(f"{e['total']} is above {defense}: a Potential Wound")
    else:
        steps.append(f"{e['total']} is above double {defense} ({2 * e['defense']}): "
                     "a Potential Wound, the greater success")
    rule = ATTACK_RULE + (DOUBLED_READING if e["level"] == combat.DOUBLED else "")
    return Working(steps=tuple(steps), rule=rule, source="Combat")


def _pairing(e: Event, n: Callable[[object], str]) -> Working:
    steps = [f"{n(cid)}: {combat.LEVEL_LABELS[lv]}" for cid, lv in e["levels"].items()]
    for w in e["wounds"]:
        d = w["damage"]
        weapon = f"{w['weapon']} " if w.get("weapon") else ""
        steps.append(f"{n(w['by'])}'s {weapon}damage {d['weapon']}, no more than their Skill: {d['capped']}; "
                     f"{n(w['to'])}'s armour ({d['armour']}): {d['dealt']} off Wounds and Fatigue")
    for cid, ticks in e["fail_ticks"].items():
        if ticks:
            steps.append(f"{n(cid)}: a Fatigue tick for failing, at the Resolution Point")
    rule = PAIRING_RULES[e["outcome"]] + (DAMAGE_RULE if e["wounds"] else "")
    return Working(steps=tuple(steps), rule=rule, source="Combat")


def _contest_round(e: Event, n: Callable[[object], str]) -> Working:
    bands = e["bands"]
    steps = [f"{n(cid)}: {LABELS[b]}" for cid, b in bands.items()]
    resource = "Magical Resources" if e["resource"] == "magic" else "Fatigue"
    for cid, ticks in e["ticks"].items():
        if ticks:
            steps.append(f"{n(cid)}: {ticks} tick{'s' if ticks > 1 else ''}, {e['costs'][cid]} {resource}, "
                         f"now {e['after'][cid]}")
    if e["outcome"] == contest.WON:
        case = "won"
    elif all(contest.level(b) == 0 for b in bands.values()):
        case = "all_fail"
    elif len({contest.level(b) for b in bands.values()}) == 1:
        case = "same"
    else:
        case = "lower"
    return Working(steps=tuple(steps), rule=CONTEST_RULES[case], source="Contests")


def _resolution(e: Event, n: Callable[[object], str]) -> Working:
    steps = []
    for r in e["rows"]:
        parts = []
        if r.get("damage"):
            parts.append(f"damage {r['damage']} off Wounds and Fatigue")
        if r.get("action"):
            parts.append(f"{r['action']} Fatigue for a Combat Action")
        if r.get("failing"):
            parts.append(f"{r['failing']} Fatigue for failing")
        if r.get("drain"):
            parts.append(f"{r['drain']} Fatigue for Untended Wounds")
        if r.get("recovered"):
            parts.append(f"{r['recovered']} Fatigue regained for no Combat Action")
        before, after = r["before"], r["after"]
        steps.append(f"{n(r['combatant'])}: " + (", ".join(parts) or "nothing due")
                     + f": Wounds {before['wounds']} to {after['wounds']}, "
                       f"Fatigue {before['fatigue']} to {after['fatigue']}")
    return Working(steps=tuple(steps), rule=RESOLUTION_RULE,
                   source="Wounds, Fatigue, and the Effects of Damage")


def whole(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The whole working of ``event``'s line, or None for bookkeeping (a scene begins, a
    status): what the Director reads; games/passages/unfold.py gives the others theirs."""
    names = names_of(state)

    def n(cid: object) -> str:
        return names.get(str(cid), str(cid))

    kind = event["type"]
    if kind in ("checked", "practised", "contest_rolled"):
        return check_working(event["check"])
    makers: dict[str, Callable[[Event, Callable[[object], str]], Working]] = {
        "combat_rolled": _rolled, "pairing_resolved": _pairing, "contest_round": _contest_round,
        "resolution_point": _resolution,
    }
    make = makers.get(kind)
    return make(event, n) if make else None
