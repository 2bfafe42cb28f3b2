"""How each Passages log line came out (issue 23): the arithmetic step by step and the rule
it applied, in the seed's own words (seed 001), unfolded under the line as "How".

A working is built from the event alone, with the Personae's names from the state: never a
figure read out of the state. Where an event holds an NPC's figures (a BASE, Selected Combat
or Defense, a weapon's damage, armour: ``audiences.FIGURES``), the event has a Director's part:
the whole working goes there, for the Director alone, as the private twin of a public one that
the same maker builds from the event's public part (``public_part``: never a key the Director's
part holds), with "the Director's figure" where an NPC's figure enters the sum. Every roll is
made in the open (the d100, its band, a Combat Roll's level, the points a wound deals), and
the seed's rule is its text: both stay in. An event with no such part is everyone's whole, so
its working names nothing the line's readers may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Working, public_part, screened, twinned
from games.passages import combat, contest
from games.passages.audiences import check_visibility
from games.passages.rules import LABELS
from games.passages.state import names_of

Event = Mapping[str, Any]
Name = Callable[[object], str]
FIGURE = "the Director's figure"

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
    the d100 and the band it falls in, and the seed's words for that band. Told only what is
    rolled in the open (an NPC's: its skill, the d100, the band; no ``base``), its BASE, the
    Core a challenge uses, its Double Up and Double Down are the Director's figures."""
    skill, figures = check["skill"], "base" in check
    base = check.get("base")
    if check["practice"]:
        named = f"{skill} (BASE {base})" if figures else skill
        return Working(steps=(f"{named} practised: no roll, it succeeds",), rule=PRACTICE_RULE, source="Checks")
    challenge = bool(check["challenge"])
    if not figures:
        value = "Core" if challenge else "BASE"
        steps = [f"the BASE of {skill}: {FIGURE}" + ("; a challenge uses its Core (BASE / 5, rounded up)"
                                                   if challenge else ""),
                 f"Double Up (double the {value}) and Double Down (half, rounded down): from {FIGURE}",
                 f"d100 roll: {check['roll']}"]
        return banded(steps, check["roll"], check["band"], challenge, f"the {value}", "Double Up", "Double Down")
    if challenge:
        value = f"Core {check['value']}"
        steps = [f"{skill} BASE {base}; a challenge uses its Core: {base} / 5, rounded up = {check['value']}"]
    else:
        value = f"BASE {base}"
        steps = [f"{skill} BASE {base}"]
    steps.append(f"Double Up = double {check['value']} = {check['du']}; "
                 f"Double Down = half, rounded down = {check['dd']}")
    steps.append(f"d100 roll: {check['roll']}")
    return banded(steps, check["roll"], check["band"], challenge, value, f"Double Up {check['du']}",
                  f"Double Down {check['dd']}")


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


def _rolled(e: Event, n: Name) -> Working:
    """A Combat Roll: the d100, Timing, Selected Combat, against the target's Selected Defense;
    an NPC's figure, where the event's reader is not told it, is the Director's."""
    steps = [f"Combat Roll (d100): {e['die']}"]
    if e["timing"]:
        steps.append(f"Timing {e['timing']:+d}: {e['die'] + e['timing']}")
    if "combat" in e:
        steps.append(f"+ Selected Combat ({e['combat_skill']}) {e['combat']} = {e['total']}")
        total = str(e["total"])
    else:
        steps.append(f"+ Selected Combat: {FIGURE}")
        total = "the sum"
    if "defense" in e:
        defense = f"{n(e['target'])}'s Selected Defense ({e['defense_skill'] or 'none'}) {e['defense']}"
        double = f"double {defense} ({2 * e['defense']})"
    else:
        defense = f"{n(e['target'])}'s Selected Defense ({FIGURE})"
        double = f"double {defense}"
    steps.append({combat.MISS: f"{total} is not above {defense}: a miss",
                  combat.LANDED: f"{total} is above {defense}: a Potential Wound",
                  combat.DOUBLED: f"{total} is above {double}: a Potential Wound, the greater success"}[e["level"]])
    rule = ATTACK_RULE + (DOUBLED_READING if e["level"] == combat.DOUBLED else "")
    return Working(steps=tuple(steps), rule=rule, source="Combat")


def _wound(w: Mapping[str, Any], n: Name) -> str:
    d = w["damage"]
    weapon = f"{w['weapon']} " if w.get("weapon") else ""
    return (f"{n(w['by'])}'s {weapon}damage {d['weapon']}, no more than their Skill: {d['capped']}; "
            f"{n(w['to'])}'s armour ({d['armour']}): {d['dealt']} off Wounds and Fatigue")


def _dealt(w: Mapping[str, Any], n: Name) -> str:
    return (f"{n(w['by'])}'s damage, no more than their Skill, and {n(w['to'])}'s armour: "
            f"{FIGURE}s: {w['dealt']} off Wounds and Fatigue")


def _pairing(e: Event, n: Name) -> Working:
    """A roll-off: each side's level, each wound (its weapon and armour, or only the points it
    deals where those are an NPC's: ``dealt``), the ticks for failing, the seed's case."""
    steps = [f"{n(cid)}: {combat.LEVEL_LABELS[lv]}" for cid, lv in e["levels"].items()]
    if "wounds" in e:
        steps += [_wound(w, n) for w in e["wounds"]]
    else:
        steps += [_dealt(w, n) for w in e.get("dealt") or ()]
    for cid, ticks in e["fail_ticks"].items():
        if ticks:
            steps.append(f"{n(cid)}: a Fatigue tick for failing, at the Resolution Point")
    rule = PAIRING_RULES[e["outcome"]] + (DAMAGE_RULE if e.get("wounds") or e.get("dealt") else "")
    return Working(steps=tuple(steps), rule=rule, source="Combat")


def _contest_round(e: Event, n: Name) -> Working:
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


# Each part of a Resolution Point row, in the seed's order, as its working says it.
ROW_PARTS = (("damage", "damage {} off Wounds and Fatigue"), ("action", "{} Fatigue for a Combat Action"),
             ("magic_spent", "{} Magical Resources for a spell"), ("failing", "{} Fatigue for failing"),
             ("tending", "{} Fatigue for tending"), ("tended", "{} untended Wound points tended"),
             ("drain", "{} Fatigue for Untended Wounds"))


def _resolution(e: Event, n: Name) -> Working:
    steps = []
    for r in e["rows"]:
        parts = [text.format(int(r[key])) for key, text in ROW_PARTS if r.get(key)]
        parts += [f"{said} (the Director's entry)" for said in r.get("said", ())]
        if r.get("recovered"):
            parts.append(f"{r['recovered']} Fatigue regained for no Combat Action")
        before, after = r["before"], r["after"]
        steps.append(f"{n(r['combatant'])}: " + (", ".join(parts) or "nothing due")
                     + f": Wounds {before['wounds']} to {after['wounds']}, "
                       f"Fatigue {before['fatigue']} to {after['fatigue']}")
    return Working(steps=tuple(steps), rule=RESOLUTION_RULE,
                   source="Wounds, Fatigue, and the Effects of Damage")


def _in_check(e: Event, n: Name) -> Working:
    """A check in the scene: the whole event's ``check``, or what was rolled in the open."""
    return check_working(e["check"] if "check" in e else e["rolled"])


MAKERS: dict[str, Callable[[Event, Name], Working]] = {
    "checked": _in_check, "practised": _in_check, "contest_rolled": _in_check, "combat_rolled": _rolled,
    "tended": _in_check, "tend_rolled": _in_check,
    "pairing_resolved": _pairing, "contest_round": _contest_round, "resolution_point": _resolution,
}


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line (``Engine.working``), or None for bookkeeping (a scene
    begins, a status). An event with a Director's part unfolds for everyone to the working of its
    public part, the whole its private twin, the Director's."""
    make = MAKERS.get(event["type"])
    if make is None:
        return None
    names = names_of(state)

    def n(cid: object) -> str:
        return names.get(str(cid), str(cid))

    seen = screened(event)
    if not (seen.private or seen.private_summary):
        return make(event, n)
    return twinned(make(public_part(event, seen), n), make(event, n))


def check_rolled_working(data: Mapping[str, Any]) -> Working:
    """The one-off check's working (``Check.working``), from its data. An NPC's (its figures in
    the Director's part: ``audiences.CHECK_FIGURES``) is the twin of the public one."""
    if "gm_line" not in data:
        return check_working(data)
    return twinned(check_working(public_part(data, check_visibility(data))), check_working(data))
