"""How each log line came out (``Engine.working``): the card against the rank and why it
succeeded or failed, the rank's path (A+, F, a retry), Bonus and Penalty, a group's verdict, in
the seed's own words.

Every Report Card event is everyone's (every card lies face up) and only players' characters
draw (an NPC has no deck, calls.reported): a working names what its event carries, the names from
the state, and the check's parts as the public ``check_called`` gave them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Working
from games.core.cards import OrientedCard
from games.report_card.meanings import card_name
from games.report_card.rules import FAILS_AT_OR_BELOW, OUTCOME_LABELS, RANK_LABELS
from games.report_card.state import check_by_id

Event = Mapping[str, Any]

RESOLVING, CRIT_S, CRIT_F = "Resolving a Skill Check", "Critical Success", "Critical Failure"
# Seed 004, "Resolving a Skill Check", word for word.
RANK_RULES = {
    "automatic": "Automatic: The player can not fail this check.",
    "trivial": "Trivial: Only fails on a Critical Failure.",
    "easy": "Easy: Fails on any Minor Arcana <= 5, otherwise succeeds.",
    "medium": "Medium: Fails on any Minor Arcana <= 9, otherwise succeeds.",
    "hard": "Hard: Fails on any Minor Arcana, otherwise succeeds.",
    "unlikely": "Unlikely: Success on a Critical Success, otherwise fails",
    "impossible": "Impossible: The player can not succeed at this check.",
}
TRIGGERS = {
    "fool": ("A Fool is always a Critical Success", CRIT_S),
    "world": ("The World is always a Critical Success", CRIT_S),
    "sun": ("The Sun is always a Critical Success", CRIT_S),
    "own_major": ("The player's own Major Arcana card always triggers a Critical Success", CRIT_S),
    "tower": ("A Tower is always a Critical Failure.", CRIT_F),
    "devil": ("The Devil is always a Critical Failure.", CRIT_F),
    "death": ("Death is always a Critical Failure.", CRIT_F),
    "wheel": ("Draw a second card: If the card is an Ace through a Nine: Critical Failure. If the card is a 10, "
              "Page, Knight, Queen, King, or Major Arcana: Critical Success", "The Wheel of Fortune"),
}
UNLIKELY_CS = "On an Unlikely check, a Critical Success is just a success"
BONUS = ("While they have Bonus, they draw two cards and use whichever of the two cards they would prefer.",
         "Bonus / Penalty")
PENALTY = ("While they have Penalty, they draw two cards and use whichever card the GM decides is the worse of "
           "the two.", "Bonus / Penalty")
HELP = ("If the helping player can make an argument for how, exactly, they're helping ..., and they succeed at "
        "whatever they're doing, grant the player making the check Bonus. If they fail at whatever they're doing "
        "to help, grant the player making the check Penalty.", "One Player Helps Another")
A_PLUS = ("Any Skill Check that the player performs against a Skill that they have chosen becomes easier by one "
          "rank", "Choose a Skill")
A_PLUS_IMPOSSIBLE = ("The decided reading: an A+ makes an Impossible check one rank easier, Unlikely, as the rule says; "
                     "the example \"an Impossible check becomes Hard\" skips a rank and is not followed.",
                     "The decided reading, on Choose a Skill")
F_SKILL = ("Any skill check against a failed Skill becomes Unlikely for the player.", "Fail a Skill")
CANCEL = "Bonus and Penalty cancel one another out, and do not stack."
RETRY = ("The player can take 1 Corruption Point to retry the check. Each time the player attempts to re-try the "
         "check, it becomes one step easier: an Unlikely check becomes merely Hard, a Hard check becomes Medium, "
         "etc.", "Failure")
HELD = ("At the GM's discretion, a check can remain at its current difficulty level during a retry", "Failure")
ONLY_ONE = ("whichever player draws the highest card succeeds \"the most\" and is the player who actually "
            "accomplishes the task at hand. If no player succeeds, the whole task fails.",
            "Only One Player Needs to Succeed")
EVERYONE = ("only two players need to succeed at the check. If any player gets a Critical Success, they succeed "
            "for everyone. If any player gets a Critical Failure, they fail for everyone.",
            "Every Player Needs to Succeed")
GRANTED = ("They can even skip the check itself and grant automatic failure or success.",
           "Inconsequential Skill Checks")
RECHOSEN = ("When all three of the Corruption Circles are filled, you may gain a new Skill, and fail a new skill.",
            "Skill Corruption")


def card_steps(draw: Mapping[str, Any], rank: str) -> list[str]:
    """The card, what kind of card it is, and the rank's verdict on it."""
    card = OrientedCard.from_token(draw["card"]).card
    label = RANK_LABELS[rank]
    if draw["trigger"] == "wheel":
        second = card_name(draw["second"])
        steps = [f"{card_name(draw['card'])}: draw a second card", f"second card: {second}: {OUTCOME_LABELS[draw['critical']]}"]
    elif draw["trigger"]:
        steps = [f"{card_name(draw['card'])}: {OUTCOME_LABELS[draw['critical']]}, whatever the rank"]
    elif card.arcana == "major":
        steps = [f"{card_name(draw['card'])}: a Major Arcana, no critical"]
    else:
        steps = [f"{card_name(draw['card'])}: a Minor Arcana of {card.value}"]
        if rank == "hard":
            steps.append("Hard fails on any Minor Arcana")
        elif rank in FAILS_AT_OR_BELOW:
            line = FAILS_AT_OR_BELOW[rank]
            steps.append(f"{label} fails on {line} or less: {card.value} {'≤' if card.value <= line else '>'} {line}")
    steps.append(f"against {label}: {OUTCOME_LABELS[draw['outcome']]}"
                 + (" (blind luck, not skill)" if draw["happenstance"] else ""))
    if draw.get("closeness"):
        steps.append(draw["closeness"]["text"])
    return steps


def card_rule(draw: Mapping[str, Any], rank: str) -> tuple[str, str]:
    """The seed's words for what decided a card: a critical's trigger, else the rank's line."""
    if draw["trigger"] in TRIGGERS and draw["critical"] is not None:
        said, where = TRIGGERS[draw["trigger"]]
        if rank == "unlikely" and draw["critical"] == "critical_success":
            return f"{said}. {UNLIKELY_CS}", f"{where}; {CRIT_S}"
        if draw["outcome"] != draw["critical"]:  # the rank overruled it (Automatic, Impossible...)
            return f"{said.rstrip('.')}. {RANK_RULES[rank]}", f"{where}; {RESOLVING}"
        return said, where
    return RANK_RULES[rank], RESOLVING


def _rank_path(part: Mapping[str, Any]) -> list[str]:
    """'FREE at Hard', 'A+ skill: one rank easier: Medium'."""
    steps = [f"{part['skill']} at {RANK_LABELS[part['base_rank']]}"]
    if part["note"]:
        steps.append(f"{part['note'].split(':')[0]}: {RANK_LABELS[part['rank']]}")
    return steps


def _drawn(event: Event, state: Mapping[str, Any]) -> Working:
    attempt, rank = event["attempt"], event["attempt"]["rank"]
    check = check_by_id(state, event["check"])
    steps = _rank_path(check["parts"][event["part"]]) if check and not event["retry"] else []
    if event["retry"]:
        steps.append(f"a retry, at {RANK_LABELS[rank]}")
    if event.get("help"):
        steps.append({"bonus": "the help succeeded: Bonus", "penalty": "the help failed: Penalty"}.get(
            event["help"], "one helper succeeded, one failed: Bonus and Penalty cancel"))
    lasts = event.get("lasting") or {}
    for key, label in (("penalty", "Penalty"), ("bonus", "Bonus")):
        if lasts.get(key):  # a lasting condition on the character (campaign)
            steps.append(f"{label} from a lasting condition: {', '.join(lasts[key])}")
    if lasts and attempt["edge"] is None:
        steps.append("Bonus and Penalty cancel out")
    if attempt["pending"] is None:
        rule, source = card_rule(attempt["draws"][0], rank)
        if event.get("help"):
            rule, source = f"{HELP[0]} {rule}", f"{HELP[1]}; {source}"
        if lasts:
            rule, source = f"{CANCEL} {rule}", f"Bonus / Penalty; {source}"
        return Working(steps=tuple(steps + card_steps(attempt["draws"][0], rank)), rule=rule, source=source)
    for draw in attempt["draws"]:
        steps.append(f"{card_name(draw['card'])}: {OUTCOME_LABELS[draw['outcome']]}")
    who = "the player keeps the one preferred" if attempt["edge"] == "bonus" else "the GM names the worse"
    rule, source = BONUS if attempt["edge"] == "bonus" else PENALTY
    return Working(steps=(*steps, f"two cards: {who}"), rule=rule, source=source)


def _picked(event: Event, state: Mapping[str, Any]) -> Working | None:
    check = check_by_id(state, event["check"])
    if check is None:
        return None
    attempt = check["parts"][event["part"]]["attempts"][-1]
    draw, rank = attempt["draws"][event["index"]], attempt["rank"]
    others = [card_name(d["card"]) for i, d in enumerate(attempt["draws"]) if i != event["index"]]
    kept = ("kept by the player (Bonus)" if event["by"] == "player" else "the worse, named by the GM (Penalty)")
    rule, source = card_rule(draw, rank)
    edge = BONUS if attempt["edge"] == "bonus" else PENALTY
    return Working(steps=(f"{card_name(draw['card'])} {kept}; set aside: {', '.join(others)}",
                          *card_steps(draw, rank)),
                   rule=f"{edge[0]} {rule}", source=f"{edge[1]}; {source}")


def _called(event: Event, state: Mapping[str, Any]) -> Working | None:
    steps, rules = [], []
    for part in event["check"]["parts"]:
        who = part["name"]
        steps += [f"{who}: {s}" for s in _rank_path(part)]
        if part["note"].startswith("A+"):
            rules.append(A_PLUS_IMPOSSIBLE if part["base_rank"] == "impossible" else A_PLUS)
        elif part["note"].startswith("F"):
            rules.append(F_SKILL)
        if part["bonus"] and part["penalty"]:
            steps.append(f"{who}: Bonus and Penalty cancel out")
            rules.append((CANCEL, "Bonus / Penalty"))
    if not rules:
        return None  # each faces the rank called: nothing to work out
    return Working(steps=tuple(steps), rule=" ".join(r for r, _ in rules),
                   source="; ".join(dict.fromkeys(s for _, s in rules)))


def _closed(event: Event, state: Mapping[str, Any]) -> Working | None:
    check = check_by_id(state, event["check"])
    if event["reason"] == "granted":
        return Working(steps=(f"granted: {OUTCOME_LABELS[event['outcome']]}, no card drawn",),
                       rule=GRANTED[0], source=GRANTED[1])
    if check is None or check["mode"] not in ("only_one", "everyone"):
        return None  # a single check ends as its card said: its draw's working says why
    steps = []
    for part in check["parts"]:
        last = part["attempts"][-1] if part["attempts"] else None
        got = OUTCOME_LABELS.get((last or {}).get("outcome") or "", "no card")
        steps.append(f"{part['name']}: {got}")
    rule, source = ONLY_ONE if check["mode"] == "only_one" else EVERYONE
    steps.append(f"{OUTCOME_LABELS[event['outcome']] if event['outcome'] else 'no result'}")
    if event["reason"] == "critical_failure":
        rule += (" (the decided reading: a Critical Failure fails the task for everyone, and no retry buys it off: "
                 "\"once the card is drawn, the results are final\".)")
    return Working(steps=tuple(steps), rule=rule, source=source)


def _retried(event: Event, state: Mapping[str, Any]) -> Working:
    before = event["corruption"] - 1
    how = (f"the GM holds the rank: {RANK_LABELS[event['rank']]}" if event["held"]
           else f"one rank easier: {RANK_LABELS[event['rank']]}")
    rule, source = HELD if event["held"] else RETRY
    return Working(steps=(f"Corruption {before} + 1 = {event['corruption']} of 3", how), rule=rule, source=source)


def _rechosen(event: Event, state: Mapping[str, Any]) -> Working:
    return Working(steps=("three Corruption Circles filled", f"new A+: {event['a_plus']}",
                          f"new F: {event['f_skill']}", "the circles empty"), rule=RECHOSEN[0], source=RECHOSEN[1])


WORKINGS: dict[str, Callable[[Event, Mapping[str, Any]], Working | None]] = {
    "drawn": _drawn, "picked": _picked, "check_called": _called, "retried": _retried, "check_closed": _closed,
    "skills_rechosen": _rechosen,
}


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """The working of ``event``'s line, or None for bookkeeping (a Day, who may call checks)."""
    found = WORKINGS.get(event["type"])
    return found(event, state) if found is not None else None
