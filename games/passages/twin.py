"""The public twin of a working behind the Director's screen (issue 23): everyone unfolds the line.

An event that holds an NPC's figures (a BASE, Selected Combat or Defense, a weapon's damage,
armour) keeps them in its Director's part (``screen``), and its whole working with them. The
players and spectators still unfold the line: their working is built from the event's public
part alone (``public_part``: never a key the Director's part holds, never the state), with
"the Director's figure" where an NPC's figure enters the sum. Every roll is made in the open
(the d100, its band, a Combat Roll's level, the points a wound deals), and the seed's rule is
its text: both stay in. The Director reads the whole working instead (``Working.private``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Visibility, Working, public_part, screened, twinned
from games.passages import combat
from games.passages.working import (ATTACK_RULE, DAMAGE_RULE, DOUBLED_READING, PAIRING_RULES, PRACTICE_RULE,
                                    banded)

Event = Mapping[str, Any]
Name = Callable[[object], str]
FIGURE = "the Director's figure"


def check(rolled: Mapping[str, Any]) -> Working:
    """An NPC's check from what is rolled in the open (its skill, the d100, the band): its BASE,
    the Core a challenge uses, its Double Up and Double Down are the Director's figures."""
    skill, band = rolled["skill"], rolled["band"]
    if rolled["practice"]:
        return Working(steps=(f"{skill} practised: no roll, it succeeds",), rule=PRACTICE_RULE, source="Checks")
    value = "Core" if rolled["challenge"] else "BASE"
    steps = [f"the BASE of {skill}: {FIGURE}" + ("; a challenge uses its Core (BASE / 5, rounded up)"
                                           if rolled["challenge"] else ""),
             f"Double Up (double the {value}) and Double Down (half, rounded down): from {FIGURE}",
             f"d100 roll: {rolled['roll']}"]
    return banded(steps, rolled["roll"], band, bool(rolled["challenge"]), f"the {value}", "Double Up", "Double Down")


def _rolled(e: Event, n: Name) -> Working:
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


def _pairing(e: Event, n: Name) -> Working:
    steps = [f"{n(cid)}: {combat.LEVEL_LABELS[lv]}" for cid, lv in e["levels"].items()]
    for w in e.get("dealt") or ():
        steps.append(f"{n(w['by'])}'s damage, no more than their Skill, and {n(w['to'])}'s armour: "
                     f"{FIGURE}s: {w['dealt']} off Wounds and Fatigue")
    for cid, ticks in e["fail_ticks"].items():
        if ticks:
            steps.append(f"{n(cid)}: a Fatigue tick for failing, at the Resolution Point")
    rule = PAIRING_RULES[e["outcome"]] + (DAMAGE_RULE if e.get("dealt") else "")
    return Working(steps=tuple(steps), rule=rule, source="Combat")


MAKERS: dict[str, Callable[[Event, Name], Working]] = {
    "checked": lambda e, n: check(e["rolled"]), "practised": lambda e, n: check(e["rolled"]),
    "contest_rolled": lambda e, n: check(e["rolled"]), "combat_rolled": _rolled, "pairing_resolved": _pairing,
}


def twin(event: Event, whole: Working | None, n: Name) -> Working | None:
    """``whole``, the event's full working, as the private twin of a public one when the event
    has a Director's part; as it was when the event is everyone's whole (or has no working)."""
    seen = screened(event)
    if whole is None or not (seen.private or seen.private_summary):
        return whole
    make = MAKERS.get(event["type"])
    # a line no rule explains to everyone stays the Director's alone, as before
    return twinned(make(public_part(event, seen), n) if make else None, whole)


def one_off(data: Mapping[str, Any], whole: Working, seen: Visibility) -> Working:
    """The one-off check of an NPC: its public twin, from the check's public data."""
    return twinned(check(public_part(data, seen)), whole)
