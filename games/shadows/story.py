"""The log lines of the events most read, told as a story (issue 23): who, did what, with
what, and what came of it, the figures that matter named ("Melee 20", "Defence 5"); the
arithmetic step by step is the line's working (``working.py``).

An NPC's figures are the GM's (the decided reading: "other seats see its name and what the rules make
public (a total, a track) and nothing more"): a line about an NPC names the cards it played and
the totals the resolution made (an attack's value, the Defence met, the damage), never the
skill or attribute behind them; the GM reads those in the event's GM part.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.shadows import deck
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES

Event = Mapping[str, Any]
Namer = Callable[[str | None], str]

SUIT_OF_ATTACK = {"physical": "Swords", "mana": "Wands", "spiritual": "Cups"}
TRACK_WORDS = {"health": "Health", "life": "Life", "aessence": "Æssence"}


def signed(x: int) -> str:
    return f"+{x}" if x >= 0 else str(x)


def skill_label(key: str) -> str:
    return key.replace("_", " ").capitalize() if key else "no skill"


def attack_sum(e: Event) -> str:
    """"King of Cups + Melee 20": the cards played and what the attacker adds; an NPC's skill
    is the GM's, so its attack reads as its cards and its value."""
    cards = " + ".join(deck.name(t) for t in e["cards"])
    if e.get("npc") or e.get("attacker_npc"):
        return f"{cards} (attack {e['value']})"
    terms = [cards]
    if e.get("skill"):
        terms.append(f"{skill_label(e['skill'])} {e['skill_value']}")
    if e.get("off_focus"):
        terms.append(f"off focus {e['off_focus']}")
    if e.get("assistance"):  # the help the GM approved (assist.py)
        terms.append(f"help {e['assistance']}")
    if e.get("condition"):  # lasting conditions (conditions.py)
        terms.append(f"conditions {signed(e['condition'])}")
    gm = e.get("attack_modifier", 0) if e["type"] == "attack_resolved" else e.get("modifier", 0)
    if gm:
        terms.append(f"GM {signed(gm)}")
    return (" + ".join(terms).replace("+ off focus -", "- off focus ").replace("+ GM -", "- GM ")
            .replace("+ conditions -", "- conditions "))


def check_line(e: Event) -> str:
    level = COMPLEXITIES[e["complexity"]].label
    how = "plays" if e["from_hand"] else "draws"
    cards = deck.names(e["cards"])
    middle = f" (the middle card: {e['drawn']})" if e["count"] == 3 else ""
    extra = f", and {deck.name(e['extra'])} is added for the King" if e["extra"] else ""
    # the help approved was spent on this check, a fumble too: the line says it came
    others = " with help" if e.get("assistance") and not e.get("npc") else ""
    if e["band"] == "fumble":
        return f"{e['name']} {how} {cards}{middle}{others} on a {level} check: a fumble! The check fails at once."
    adds = "" if e.get("npc") else (f" + {skill_label(e['skill'])} {e['skill_value']}"
                                    f" + {e['attribute'].capitalize()} {e['attribute_value']}"
                                    + (f", conditions {signed(e['condition'])}" if e.get("condition") else ""))
    countered = " after a counter" if e.get("reduction") else ""
    none_left = (" A Queen, but every Major Arcana card is held: there is none to draw."
                 if e.get("no_major_left") else "")
    return (f"{e['name']} {how} {cards}{middle}{extra}{adds}{others} on a {level} check: "
            f"{e['total']}{countered}, a {BAND_LABELS[e['band']].lower()}.{none_left}")


def npc_check_note(e: Event) -> str:
    """The GM's rest of an NPC's check line: the figures behind its total."""
    terms = [f"{skill_label(e['skill'])} {e['skill_value']}", f"{e['attribute'].capitalize()} {e['attribute_value']}"]
    for label, key in (("help", "assistance"), ("GM", "modifier"), ("off focus", "off_focus"),
                       ("conditions", "condition")):
        if e.get(key):
            terms.append(f"{label} {signed(e[key])}")
    return f"(GM: {', '.join(terms)}.)"


def attack_line(e: Event, n: Namer) -> str:
    line = (f"{n(e['attacker'])} attacks {n(e['target'])} with {e['weapon']['name']}: {attack_sum(e)}"
            + ("" if e.get("npc") else f" = attack {e['value']}")
            + (f", {e['ap']} AP" if e["ap"] > 1 else "") + (", with extra effort" if e["extra_effort"] else "") + ".")
    fumble = e["fumble"]
    if fumble:
        verdict = "a fumble!" if fumble["fumbled"] else "no fumble."
        line += (f" An Ace: {deck.name(fumble['card'])} is drawn against Fumble {fumble['fumble_value']}: {verdict}")
    return line


def resolved_line(e: Event, n: Namer) -> str:
    """"Alma strikes Ghoul with Sword: King of Swords + Melee 20 against Defence 5 -> 29, Swords
    deal it in full; H2 adds 9: 38 damage (Health -38, Life -38)."."""
    made = attack_sum(e) if e.get("cards") else f"attack {e['value']}"
    if e.get("countered"):  # an Active Dodge took this off (contests.py)
        made += (f", after a counter of -{e['countered']}" if e.get("attacker_npc")
                 else f" - {e['countered']} countered")
    met = f"{made} against Defence {e['defence']['total']}"
    if not e["hit"]:
        return f"{n(e['attacker'])} attacks {n(e['target'])} with {e['weapon']}: {met}: a miss."
    suit = SUIT_OF_ATTACK[e["attack_type"]]
    lead = str(deck.suit(e["cards"][0])).capitalize() if e.get("cards") else "Its suit"
    base = f"{suit} deal it in full" if e["suit_match"] else f"but {lead} are not {suit}: 1 point"
    line = f"{n(e['attacker'])} strikes {n(e['target'])} with {e['weapon']}: {met} -> {e['raw']}, {base}"
    mod = e["modifier"] or {}
    if mod.get("value"):
        line += f"; {mod.get('code')} adds {mod['value']}" if mod.get("cards") else f"; {signed(mod['value'])}"
    for step in e["chain"]:  # drawn face up from the deck: named, as the cards played are
        drawn = f"{deck.name(step['card'])} +{step['value']}"
        line += f"; {drawn} added" if step["kind"] == "added" else \
            f"; {'Minor' if step['kind'] == 'minor' else 'Major'} Critical: {drawn}"
    if e["critical_prevented"]:
        line += "; the face card in the defence stops the critical"
    tracks = ", ".join(f"{TRACK_WORDS[k]} -{v}" for k, v in e["tracks"].items())
    line += f": {e['damage']} damage" + (f" ({tracks})" if tracks else "") + "."
    if e.get("falls"):  # "down" (no Health left) or "dead" (no Life left): out of the fight
        line += f" {n(e['target'])} is {e['falls']}."
    if e["critical"] == "major":
        line += " The GM has the Major Critical's effect."
    return line
