"""How a log line came out (issue 23): ``working(event, state)``, the arithmetic step by step
and the rule it applied, in seed 000's own words (``Working``), unfolded under the line.

Built only from what the event itself carries (the state gives names alone), so a working
never names a figure its event does not. Where an event has a private part (an NPC's check,
declared attack or focus, an opposed action with an NPC side, a Major Critical's effect), the
working is built twice: from the event's public part (what the platform's ``_public`` leaves),
saying "the GM's figure" where an NPC's enters the sum, for everyone; and from the whole event,
as its ``private`` twin, for the GM (``Working.private``; tabletop/services/procedure.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import Working, public_part, twinned
from games.shadows import deck
from games.shadows.audiences import audience
from games.shadows.combat import FOCUS_FORMULA, MODIFIERS
from games.shadows.narrate import namer
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES
from games.shadows.story import SUIT_OF_ATTACK, TRACK_WORDS, Namer, signed, skill_label

Event = Mapping[str, Any]

ALL_OR_NOTHING = "All or Nothing Actions"
COMBAT = "Combat Actions"
# Seed 000, word for word (its curly apostrophes and quotes kept).
ADDED = ("To the randomized value of the card draw is added the character’s skill value and for that action "
         "and the most appropriate Attribute value for that action.")
MIDDLE = ("If three cards are drawn, then the middle value of the three cards is used, otherwise the value of "
          "the single card drawn is used.")
KING = "If a single card was used and it is a King, then an additional card is drawn and its value added."
FUMBLE = ("However, if a one or ace value card is drawn on either a single card-draw or as the middle value card "
          "(meaning that two cards with a value of 1 or “ace” have been drawn), then this indicates a possible "
          "fumble.")
FUMBLE_CHECK = ("If this occurs when performing a skill check, the skill check automatically fails and the GM draws a "
                "Major Arcana card, which is then used as a guide as to what the failing results of the attempt are "
                "and what went wrong.")
ATTACK = ("Damage is determined by the attacker’s attack value, which is determined by an attack card played "
          "from the attacker’s hand (players choice) minus their opponents Defense value plus the attacker’s "
          "attack skill value. If this is positive, then apply the following guidelines for damage dealt")
COMBAT_FUMBLE = ("If this occurs in combat, then an additional Minor Arcana card is immediately drawn and compared "
                 "to the Fumble value for the attack/weapon being used and if it is equal to or less than this "
                 "value, a fumble occurs.")
FULL = ("If the suit of the attack card played is the suit associated with that type of attack (Staves/Wands for "
        "Mana based magic, Cups/Chalice for Spiritual based magic or attacks and Swords for Physical attacks) then "
        "the full (positive, after the defensive adjustment) value is applied with a damage modifier for the "
        "weapon or attack being used.")
ONE = ("If the suit of the attack is not the associated suit (Staves/Wands for Mana based magic, Cups/Chalice for "
       "Spiritual based magic or attacks and Swords for Physical attacks) then if the attack is positive it does "
       "one point of damage plus the damage modifier for the weapon or attack that was used, indicating a lesser "
       "but still connecting attack.")
CRITICAL = ("It can also be further increased by an additional card drawn from the deck (not from the attacker’s "
            "hand) if the attack card played was a face card and the defense card was not a face card. With the "
            "value of this drawn card also being added to the result as a minor critical.")
PREVENTED = ("If this defense card is a face card, then it will allow for the countering of (prevention of) one "
             "level of critical if the attack would have resulted in such.")
OPPOSED = ("They are determined by those who are competing in the Opposed Action, each drawing a single card from "
           "the Minor Arcana deck and adding their appropriate skill and attribute for the task or action and then "
           "comparing the results, with the higher result being successful. If this results in a tie, then both "
           "sides draw an additional card, continuing to do so until one side succeeds.")
HANDS = {
    "physical": "Physical (physical attacks, movement, physical skills, etc): Body + 1/2xPhysical",
    "mental": "Mental (mental activities or mental based magical effects): Mind + 1/2xMental",
    "spiritual": "Spiritual (spiritual activities or spiritual based magical effects): Spirit + 1/2xEmotional",
}
MULTI = "Then multiple separate draws are made, with each draw indicating who is in the lead for that portion of time."
MAJOR = ("This third card and any additional cards do more than just add additional damage; they also add effects "
         "indicating a Major Critical")


def _card(token: str) -> str:
    return f"{deck.name(token)}: {deck.value(token)}"


def check(e: Event, n: Namer) -> Working:
    """A check's card (the middle of three), a King's extra card, what is added, the total
    against the complexity's bands."""
    level = COMPLEXITIES[e["complexity"]]
    if e["count"] == 3:
        steps = [f"{deck.names(e['cards'])}: the middle value, {e['drawn']}"]
    else:
        steps = [_card(e["cards"][0])]
    if e["band"] == "fumble":
        steps.append(f"{e['drawn']} is in the fumble band of a {level.label} check "
                     f"(a draw value of {level.fumble_top} or less): a fumble, the check fails")
        return Working(tuple(steps), f"{FUMBLE} … {FUMBLE_CHECK}", ALL_OR_NOTHING)
    if e["extra"]:
        steps.append(f"+ the King's extra card, {_card(e['extra'])}")
    if "skill_value" not in e:  # an NPC's check, as everyone reads it: what it adds is its sheet's
        steps.append("+ its skill and attribute, and any help or GM's modifier (the GM's figures)")
    else:
        steps += [f"+ {skill_label(e['skill'])} {e['skill_value']}",
                  f"+ {e['attribute'].capitalize()} {e['attribute_value']}"]
    for label, key in (("help", "assistance"), ("GM", "modifier"), ("off focus", "off_focus"),
                       ("for conditions", "condition")):
        if e.get(key):
            steps.append(f"{'+' if e[key] > 0 else '-'} {abs(e[key])} {label}")
    for c in e["counters"]:
        if c["reduction"]:
            steps.append(f"- {c['reduction']}: {n(c['counterer'])}'s counter with {deck.name(c['card'])}")
    steps.append(f"= {e['total']} on a {level.label} check (success {level.success}+, critical success "
                 f"{level.critical}+): a {BAND_LABELS[e['band']].lower()}")
    rule = " ".join([*([MIDDLE] if e["count"] == 3 else [KING] if e["extra"] else []), ADDED])
    return Working(tuple(steps), rule, ALL_OR_NOTHING)


def _attack_terms(e: Event, gm: int) -> list[str]:
    """The cards played, then what the attacker adds; an NPC's skill is the GM's (carried only
    in the GM's part of its declared attack, and not at all by the public resolution)."""
    steps = [_card(e["cards"][0]) + " (the attack card)", *[f"+ {_card(t)}" for t in e["cards"][1:]]]
    if e.get("attacker_npc") or (e.get("npc") and "skill_value" not in e):
        steps.append("+ its skill (the GM's figure)")
    elif e.get("skill"):
        steps.append(f"+ {skill_label(e['skill'])} {e['skill_value']}")
    if e.get("off_focus"):
        steps.append(f"- {-e['off_focus']} off focus")
    steps += _help_terms(e)
    steps += _condition_terms(e)
    if gm:
        steps.append(f"{'+' if gm > 0 else '-'} {abs(gm)} from the GM")
    return [*steps, f"= attack {e['value']}"]


def _condition_terms(e: Mapping[str, Any]) -> list[str]:
    """What lasting conditions add to a draw (conditions.py)."""
    amount = int(e.get("condition") or 0)
    return [f"{'+' if amount > 0 else '-'} {abs(amount)} for conditions"] if amount else []


def _help_terms(e: Mapping[str, Any]) -> list[str]:
    """What help adds to an opposed side or an attack (assist.py), with who gave it."""
    if not e.get("assistance"):
        return []
    return [f"+ {e['assistance']} help ({' and '.join(h['name'] for h in e.get('helpers') or ())})"]


def declared(e: Event, n: Namer) -> Working:
    steps = _attack_terms(e, e.get("modifier", 0))
    fumble = e["fumble"]
    if not fumble:
        return Working(tuple(steps), ATTACK, COMBAT)
    steps.append(f"An Ace leads: {_card(fumble['card'])} drawn against Fumble {fumble['fumble_value']}: "
                 + ("a fumble" if fumble["fumbled"] else "no fumble"))
    return Working(tuple(steps), COMBAT_FUMBLE, COMBAT)


def _defence(e: Event, n: Namer) -> str:
    d = e["defence"]
    if "base" in d:
        terms = [f"{d['attribute'].capitalize()} {d['base']}"]
        if d["protection"]:
            terms.append(f"protection {d['protection']}")
    else:
        terms = [f"{n(e['target'])}'s own (the GM's figure)"]
    if d["bonus"]:
        terms.append(f"cover or movement {d['bonus']}")
    if d["card_total"]:
        doubled = " (Pentacles count double)" if any(deck.suit(c) == "pentacles" for c in d["cards"]) else ""
        terms.append(f"{deck.names(d['cards'])} {d['card_total']}{doubled}")
    if d["penalty"]:
        terms.append(f"off focus {d['penalty']}")
    return f"Defence: {' + '.join(terms)} = {d['total']}".replace("+ off focus -", "- off focus ")


def resolved(e: Event, n: Namer) -> Working:
    steps = _attack_terms(e, e.get("attack_modifier", 0)) if e.get("cards") else [f"Attack {e['value']}"]
    steps.append(_defence(e, n))
    if not e["hit"]:
        steps.append(f"{e['value']} - {e['defence']['total']} = {e['raw']}: not positive, a miss")
        return Working(tuple(steps), ATTACK, COMBAT)
    suit = SUIT_OF_ATTACK[e["attack_type"]]
    steps.append(f"{e['value']} - {e['defence']['total']} = {e['raw']}: a hit")
    steps.append(f"The attack card is of {suit}, the attack's own suit: the full {e['raw']}" if e["suit_match"]
                 else f"The attack card is not of {suit}, the attack's own suit: 1 point")
    mod = e["modifier"] or {}
    if mod.get("cards"):
        steps.append(f"+ {mod['code']} ({MODIFIERS[mod['code']][1].lower()}): {deck.names(mod['cards'])}: {mod['value']}")
    elif mod.get("value"):
        steps.append(f"+ the weapon's {signed(mod['value'])}")
    words = {"minor": "(a Minor Critical)", "major": "(a Major Critical: its effect is on the GM's table)",
             "added": "(not the weapon's critical suit: its value is added)"}
    steps += [f"+ {_card(s['card'])} {words[s['kind']]}" for s in e["chain"]]
    # the GM's part: each Major Critical's effect, read on the GM's own table (the twin alone)
    steps += [f"The GM's table: {deck.name(c['card'])}: {c['effect']}" for c in e.get("criticals") or ()]
    if e["critical_prevented"]:
        steps.append("A face card in the defence: no critical")
    steps.append(f"= {e['total']} damage")
    if e["notes"]:
        steps.append(f"{'; '.join(e['notes'])}: {e['damage']}")
    if e["tracks"]:
        steps.append(", ".join(f"{TRACK_WORDS[k]} -{v}" for k, v in e["tracks"].items())
                     + (f": {n(e['target'])} is {e['falls']}" if e.get("falls") else ""))
    rule = (CRITICAL if e["chain"] else PREVENTED if e["critical_prevented"] else FULL if e["suit_match"] else ONE)
    return Working(tuple(steps), rule, COMBAT)


def opposed(e: Event, n: Namer) -> Working:
    """Each side's cards and what it adds. With an NPC side, ``sides`` is the GM's part
    (audiences.py) and everyone reads ``shown_sides``: an NPC side's name alone, its skill and
    attribute "the GM's figures"."""
    steps = []
    for side, draws, total in zip(e.get("sides") or e.get("shown_sides") or (), e["draws"], e["totals"]):
        cards = "; then ".join(deck.names(d) for d in draws)
        if "modifier" not in side:
            steps.append(f"{side['name']}: {cards} + its skill and attribute (the GM's figures) = {total}")
            continue
        adds = " and ".join([*([skill_label(side["skill"])] if side["skill"] else []), side["attribute"].capitalize()])
        own = side["modifier"] - side.get("assistance", 0) - side.get("condition", 0)
        steps.append(" ".join([f"{side['name']}: {cards} + {adds} {own}", *_help_terms(side), *_condition_terms(side),
                               f"= {total}"]))
    if e["ties"]:
        steps.append(f"{e['ties']} tie{'s' if e['ties'] > 1 else ''}: each side drew another card, added")
    steps.append(f"{n(e['winner'])} is higher and wins" if e["winner"] else "Still tied: the GM decides")
    return Working(tuple(steps), OPPOSED, "Opposed Actions")


def contest_drawn(e: Event, n: Namer, sides: list[str]) -> Working:
    """A multi-draw's draw: only what the event carries (each side's cards and total; what a
    side adds stays on its sheet), who leads and the score."""
    steps = [f"{name}: {deck.names(cards)}, with skill and attribute: {total}"
             for name, cards, total in zip(sides, e["cards"], e["totals"])]
    steps.append(f"{n(e['leader'])} leads this draw" if e["leader"] else "Level: nobody leads this draw")
    steps.append("Score: " + ", ".join(f"{name} {score}" for name, score in zip(sides, e["score"]))
                 + (f": {n(e['winner'])} wins" if e["winner"] else ""))
    return Working(tuple(steps), MULTI, "Opposed Actions: multi-draw")


def focus(e: Event, n: Namer) -> Working | None:
    """The hand a focus deals: the whole attribute and half the other, the half rounded up
    (a reading: the seed gives no rounding here; AP's half rounds up)."""
    if e.get("npc") and "size" not in e:  # an NPC's, as everyone reads it: the attributes are its sheet's
        whole, half = FOCUS_FORMULA[e["focus"]]
        return Working((f"{whole.capitalize()} + half of {half.capitalize()}, rounded up: the GM's figures",
                        "= its hand for the round (the GM's figure)"), HANDS[e["focus"]], COMBAT)
    if "hand_from" not in e:
        return None  # a focus declared before the event carried its attributes
    whole, half = FOCUS_FORMULA[e["focus"]]  # not the stored mapping's order: a database may sort its keys
    w_value, h_value = e["hand_from"][whole], e["hand_from"][half]
    steps = (f"{whole.capitalize()} {w_value}", f"+ half of {half.capitalize()} {h_value}, rounded up: {-(-h_value // 2)}",
             f"= {e['size']} cards for the round")
    return Working(steps, HANDS[e["focus"]], COMBAT)


def announced(e: Event, n: Namer) -> Working:
    return Working((f"{deck.name(e['card'])}: a Major Critical on {n(e['target'])}", f"The GM's table: {e['effect']}"),
                   MAJOR, "Criticals")


WORKINGS: dict[str, Callable[[Event, Namer], Working | None]] = {
    "check_made": check, "attack_declared": declared, "attack_resolved": resolved,
    "opposed_resolved": opposed, "critical_announced": announced, "focus_declared": focus,
}


def _built(event: Event, n: Namer, state: Mapping[str, Any]) -> Working | None:
    if event.get("type") == "contest_drawn":  # the sides' names, from the state (names only)
        contest = (state.get("contests") or {}).get(str(event["contest"])) or {}
        return contest_drawn(event, n, [s["name"] for s in contest.get("sides") or ()])
    build = WORKINGS.get(str(event.get("type")))
    return build(event, n) if build else None


def working(event: Event, state: Mapping[str, Any]) -> Working | None:
    """``Engine.working``: how ``event``'s line came out, or None for bookkeeping. An event
    with a private part gets a public working built from what its audience leaves everyone (the
    same builder, on the event without its private keys), the whole one as its ``private`` twin."""
    n = namer(state, event)
    whole = _built(event, n, state)
    if whole is None:
        return None
    seen = audience(event)
    if not seen.private:
        return whole
    return twinned(_built(public_part(event, seen), n, state), whole)
