"""The public twin of a working behind the GM's screen (issue 23): everyone unfolds the line.

An event that holds an NPC's figures keeps them in its GM's part (``screen``), and its whole
working with them. The players and spectators still unfold the line: their working is built
from the event's public part alone (what the audience leaves everyone: ``public_part``), never
from a key the GM's part holds nor from the state; where an NPC's figure enters (a pool before
the roll, a rating), it says "the GM's figure". Every die is public (seed 003), so the dice,
the best of each roll and what came of it are in it; the seed's rule is its text, public too.
The GM reads the whole working instead (``Working.private``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Visibility, Working, public_part, screened, twinned
from games.demon_city.sheet import stat_label
from games.demon_city import working
from games.demon_city.working import (BEST_RULE, OUTCOMES, POOL_RULE, STATIC_RULE, UNRESISTED_RULE,
                                      _outcome_rule, dice_text)

Event = Mapping[str, Any]
Name = Callable[[object], str]
GMS = "the GM's figure"
POOLS = f"How many dice each side rolled, and why: {GMS} (an NPC's stats weigh in each pool)"


def _clash(e: Event, n: Name) -> Working:
    return working.clash(e, n, [POOLS], e["rolled"])


def _announced(e: Event, n: Name) -> Working:
    if "pool" in e:  # the pool is everyone's (only another's size changed behind the screen)
        return working._announced(e, n)
    # the pool's dice and their reasons (a Skill Die names both stats) are the GM's, so the
    # seed's words for each kind of die would tell which dice it holds: only step 2's heading
    who = n(e["action"]["actor"]) if "action" in e else "The NPC"
    return Working(steps=(f"{who}: how many dice, and why: {GMS} (an NPC's stats weigh in this pool)",
                          "its dice are everyone's once rolled"),
                   rule=POOL_RULE, source="Action Rounds: Slow Motion Phase, step 2")


def _unresisted(e: Event, n: Name) -> Working | None:
    if "rolled" not in e:  # no roll behind the screen (no difficulty): the whole is everyone's
        return working._unresisted(e, n)
    task = e["rolled"]
    who = n(e["combatant"])
    steps = [f"{who}: how many dice, and why: {GMS}", f"rolls {dice_text(task['dice'])}: best {task['best']}"]
    if task["outcome"] == "fumble":
        steps.append(f"a best die of 1 against difficulty {task['target_number']}: a fumble")
    else:
        steps.append(f"{task['best']} against difficulty {task['target_number']}: must roll over it: "
                     f"{OUTCOMES[task['outcome']]}")
    rule = " ".join(r for r in (UNRESISTED_RULE, BEST_RULE, _outcome_rule(task["outcome"])) if r)
    return Working(steps=tuple(steps), rule=rule, source="Action Rounds: Slow Motion, step 4")


MAKERS: dict[str, Callable[[Event, Name], Working | None]] = {
    "clash_rolled": _clash, "announced": _announced, "unresisted_resolved": _unresisted,
}


def twin(event: Event, whole: Working | None, n: Name) -> Working | None:
    """``whole``, the event's full working, as the private twin of a public one when the event
    has a GM's part; as it was when the event is everyone's whole (or has no working)."""
    seen = screened(event)
    if whole is None or not (seen.private or seen.private_summary):
        return whole
    make = MAKERS.get(event["type"])
    # a line no rule of the seed explains to everyone stays the GM's alone, as before
    return twinned(make(public_part(event, seen), n) if make else None, whole)


def _stat(data: Mapping[str, Any], key: str, rating: str) -> str:
    """A side's stat as everyone may read it: its name (an NPC's own skill's is the GM's) and
    its rating, or "the GM's figure" where it is an NPC's."""
    stat = data.get(key)
    named = "a skill of its own" if stat is None else stat_label(stat)
    return f"{named} {data[rating]}" if rating in data else f"{named}, {GMS}"


def task(data: Mapping[str, Any], whole: Working, seen: Visibility) -> Working:
    """The public twin of a task for or against an NPC, from the task's public data: the dice
    rolled (``rolled``), the difficulty, the PC's rating; each NPC's rating is the GM's."""
    pub = public_part(data, seen)
    name, roll = pub["name"], pub["rolled"]["roll"]
    mine = _stat(pub, "stat", "rating")
    pools = f"how many dice, and why: {GMS} (an NPC's stat decides the Skill Die)"
    if pub["kind"] == "static":
        steps = [f"{name} ({mine}): {pools}", f"rolls {dice_text(roll['dice'])}: best {roll['best']}",
                 f"a best die of 1 against difficulty {pub['target_number']}: a fumble" if roll["outcome"] == "fumble"
                 else f"{roll['best']} against difficulty {pub['target_number']}: must roll over it: "
                      f"{OUTCOMES[roll['outcome']]}"]
        rule = " ".join(r for r in (STATIC_RULE, BEST_RULE, _outcome_rule(roll["outcome"])) if r)
        return Working(steps=tuple(steps), rule=rule, source=whole.source, private=whole)
    other, theirs = pub["other"], pub["rolled"]["other_roll"]
    steps = [pools[0].upper() + pools[1:],
             f"{name} rolls {dice_text(roll['dice'])}: best {roll['best']}",
             f"{other} rolls {dice_text(theirs['dice'])}: best {theirs['best']}",
             f"{name} ({mine}) {roll['best']} against {other} ({_stat(pub, 'other_stat', 'other_rating')}) "
             f"{theirs['best']}: {OUTCOMES[roll['outcome']]} for {name}"]
    return Working(steps=tuple(steps), rule=whole.rule, source=whole.source, private=whole)
