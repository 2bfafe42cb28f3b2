"""The public log line of each event: ``summary(event, state)``.

A summary goes to everyone, so it never names a card still in a hand: dealt and re-dealt
cards are counted, not named; a fumble's guide and a Major Critical's effect are not named
until the GM shows or announces them. Cards played, and cards drawn face up, are named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core.fights import side_line
from games.core.words import count
from games.shadows import campaign, deck, story
from games.shadows.story import Namer
from games.shadows.combat import FOCUS_LABELS
from games.shadows.resolution import COMPLEXITIES

Event = Mapping[str, Any]


def namer(state: Mapping[str, Any], event: Event) -> Callable[[str | None], str]:
    names = dict(state.get("names") or {})
    fight = state.get("combat") or {}
    names.update({cid: p["name"] for cid, p in (fight.get("combatants") or {}).items()})
    names.update(event.get("names") or {})

    def n(cid: str | None) -> str:
        return names.get(cid or "", cid or "nobody")
    return n


def _signed(x: int) -> str:
    return f"+{x}" if x >= 0 else str(x)


def _opposed(e: Event, n: Callable[[str | None], str]) -> str:
    sides = []
    for side, draws, total in zip(e["sides"], e["draws"], e["totals"]):
        sides.append(f"{side['name']} draws {'; then '.join(deck.names(d) for d in draws)} for {total}")
    end = f"{n(e['winner'])} wins." if e["winner"] else "Still tied: the GM decides."
    ties = f" after {count(e['ties'], 'tie')}" if e["ties"] else ""
    return f"Opposed: {', '.join(sides)}{ties}. {end}{_ap_line(e, n)}"


def _ap_line(e: Event, n: Callable[[str | None], str]) -> str:
    """What an action in a round cost its sides, as any action's AP is told."""
    spent = e.get("ap") or {}
    return (" (" + ", ".join(f"{n(c)} {count(ap, 'AP', 'AP')}" for c, ap in spent.items()) + ")") if spent else ""


def _contest_drawn(e: Event, n: Callable[[str | None], str], state: Mapping[str, Any]) -> str:
    contest = (state.get("contests") or {}).get(str(e["contest"])) or {}
    names = [s["name"] for s in contest.get("sides") or ()] or ["", ""]
    made = [f"{name}'s {deck.names(c)} makes {t}" if name else f"{deck.names(c)} = {t}"
            for name, c, t in zip(names, e["cards"], e["totals"])]
    return (f"Draw {e['number']}: {' against '.join(made)}; "
            f"{n(e['leader']) + ' leads' if e['leader'] else 'level'}"
            + (f". {n(e['winner'])} wins." if e["winner"] else ".") + _ap_line(e, n))


def prepared_line(e: Event, *, figures: bool | None = None) -> str:
    """A check set up: with what it adds to the card, unless it is an NPC's (``npc``), whose
    figures are the GM's (``figures`` True: the GM's whole line)."""
    level = COMPLEXITIES[e["complexity"]].label
    if not (figures if figures is not None else not e.get("npc")):
        return f"{e['name']} gets ready to draw on a {level} check: one card or three?"
    skill = e["skill"].replace("_", " ").capitalize() if e["skill"] else "no skill"
    return (f"{e['name']} gets ready to draw: {skill} {e['skill_value']} + "
            f"{e['attribute'].capitalize()} {e['attribute_value']}"
            + (f", help {_signed(e['assistance'])}" if e["assistance"] else "")
            + (f", GM {_signed(e['modifier'])}" if e["modifier"] else "")
            + (f", off focus {e['off_focus']}" if e["off_focus"] else "")
            + (f", conditions {_signed(e['condition'])}" if e.get("condition") else "")
            + f" (total {_signed(e['total'])}) on a {level} check: one card or three?")


# why a check set up is called off by the rules, not by its player (issue 35)
_CALLED_OFF = {"fight": ": the fight it was set up in is over.", "time": ": time has passed."}

_FIELD_WORDS = {"ap": "AP", "health": "Health", "life": "Life", "aessence": "Æssence"}


def _adjusted(e: Event, n: Callable[[str | None], str]) -> str:
    if e["field"] == "in_fight":
        return (f"The GM puts {n(e['combatant'])} back into the fight." if e["value"] else
                f"The GM takes {n(e['combatant'])} out of the fight.")
    what = f"{n(e['combatant'])}'s {_FIELD_WORDS.get(e['field'], e['field'])}"
    if "was" in e:  # a correction is logged with what it was (issue 35)
        return f"The GM corrects {what}: {e['was']} → {e['value']}."
    return f"The GM sets {what} to {e['value']}."


def _took(e: Event) -> str:
    """What a counter took off the attack it met."""
    return (f"-{e['reduction']} off the attack" if e["reduction"] else
            "no effect (it must be of a suit that counts and higher than the attack card)")


def _counter(e: Event, n: Namer) -> str:
    """A counter declared; as an Active Dodge, the card it drew and what it took off the attack."""
    line = (f"{n(e['counterer'])} counters {n(e['target'])} ({', '.join(s.capitalize() for s in e['suits'])} count)"
            + (f", for {count(e['ap'], 'AP', 'AP')}" if e["ap"] else ""))
    if e.get("attack") is None:
        return line + (": it lapses at the end of the round unless used." if e.get("round") else ".")
    took = _took(e)
    return f"{line}, an Active Dodge: {deck.name(e['card'])} against the attack card's {e['attack_card']}: {took}."


def _counter_applied(e: Event, n: Namer) -> str:
    """A counter declared before its target attacked, met by that attack (decided reading, "Active Dodge")."""
    took = _took(e)
    return (f"{n(e['counterer'])}'s counter meets {n(e['target'])}'s attack: {deck.name(e['card'])} against "
            f"the attack card's {e['attack_card']}: {took}.")


def _dealt(e: Event, n: Namer) -> str:
    """A hand dealt; an NPC's size is "Body + 1/2xPhysical" (or the like) of its sheet, the GM's."""
    if e.get("npc"):
        return f"{n(e['combatant'])} is dealt a hand ({FOCUS_LABELS[e['focus']]} focus; how many cards is the GM's)."
    return f"{n(e['combatant'])} is dealt {count(e['count'], 'card')} ({FOCUS_LABELS[e['focus']]} focus)."


def summary(event: Event, state: Mapping[str, Any]) -> str:
    """One plain-English public line for ``event``."""
    n = namer(state, event)
    e = event
    texts: dict[str, Callable[[], str]] = {
        "check_made": lambda: story.check_line(e),
        "major_arcana_kept": lambda: f"A Queen: {e['name']} draws a Major Arcana to keep: "
                                     f"{deck.name(e['card'])}.",
        "guide_pending": lambda: f"The GM is to draw a Major Arcana as the guide to what went wrong "
                                 f"for {n(e['combatant'])}.",
        "guide_drawn": lambda: f"The GM draws a Major Arcana as the guide to what went wrong for "
                               f"{n(e['combatant'])}.",
        "guide_shown": lambda: f"The GM shows the guide to {n(e['combatant'])}'s fumble: "
                               f"{deck.name(e['card'])} ({e['meaning']})"
                               + ("; it goes back into the Major Arcana." if e.get("returned") else "."),
        "guide_returned": lambda: f"The guide to {n(e['combatant'])}'s fumble goes back into the Major "
                                  "Arcana, unseen.",
        "help_asked": lambda: f"{n(e['combatant'])} asks the GM to let {' and '.join(n(h) for h in e['helpers'])} "
                              "help with their next check.",
        "help_refused": lambda: f"The GM does not let {' and '.join(n(h) for h in e['helpers'])} help "
                                f"{n(e['combatant'])} this time.",
        "help_approved": lambda: f"The GM lets {' and '.join(n(h) for h in e['helpers'])} help "
                                 f"{n(e['combatant'])}.",
        "opposed_resolved": lambda: _opposed(e, n),
        "counter_declared": lambda: _counter(e, n),
        "counter_applied": lambda: _counter_applied(e, n),
        "contest_started": lambda: f"A multi-draw action{': ' + e['label'] if e['label'] else ''}: "
                                   f"{e['sides'][0]['name']} against {e['sides'][1]['name']}, "
                                   + (f"{count(e['draws'], 'draw')}, counting {e['scoring']}."
                                      if e["mode"] == "draws" else "until the GM's margin is reached."),
        "contest_drawn": lambda: _contest_drawn(e, n, state),
        "contest_ended": lambda: "The GM ends the multi-draw action.",
        "arcana_spent": lambda: f"{e['name']} calls on {deck.name(deck.bare(e['card']))}, "
                                f"{'reversed' if e['reversed'] else 'upright'}: {e['meaning']} "
                                + ("(pending the GM's approval)." if e.get("pending") else
                                   "(pending the GM's approval); it goes back into the Major Arcana."),
        "arcana_approved": lambda: f"The GM approves {e['name']}'s call on {deck.name(deck.bare(e['card']))} "
                                   f"({'reversed' if e['reversed'] else 'upright'}: {e['meaning']}); "
                                   "spent, it goes back into the Major Arcana.",
        "arcana_refused": lambda: f"The GM refuses {e['name']}'s call on {deck.name(deck.bare(e['card']))}; "
                                  "the card stays in their hand.",
        "session_ended": lambda: "The session ends; " + (
            ", ".join(f"{n(c)} keeps {deck.name(t)}" for c, t in e["kept"].items())
            or "no Major Arcana carries over") + (
            "; the cards dropped go back into the Major Arcana." if e["dropped"] else "."),
        "combat_started": lambda: "Combat! Quickest first: " + ", ".join(n(c) for c in e["order"]) + ".",
        "round_started": lambda: f"Round {e['round']}: every card is gathered back into the Minor "
                                 "Arcana and shuffled; everyone declares a focus."
                                 if e.get("gathered") else f"Round {e['round']}: everyone declares a focus.",
        "combatant_added": lambda: f"{e['name']} joins the combat.",
        "side_set": lambda: side_line(e) + ".",
        "focus_declared": lambda: f"{n(e['combatant'])} focuses on {FOCUS_LABELS[e['focus']]} actions this round.",
        "hand_dealt": lambda: _dealt(e, n),
        "redealt": lambda: f"{n(e['combatant'])} gives up their first AP to discard "
                           f"{deck.names(e['discarded'])} and be re-dealt {count(e['count'], 'card')}.",
        "check_prepared": lambda: prepared_line(e),
        "check_cancelled": lambda: f"{e['name']} will not draw for that action after all"
                                   + _CALLED_OFF.get(str(e.get("why") or ""), "."),
        "attack_aimed": lambda: f"{n(e['attacker'])} takes aim at {n(e['target'])} with {e['weapon']}.",
        "turn_ended": lambda: f"{n(e['combatant'])} is done acting for now"
                              + (f" ({count(e['ap'], 'AP', 'AP')} left for defence)."
                                 if e.get("ap") and not e.get("npc") else "."),
        "attack_declared": lambda: story.attack_line(e, n),
        "cover_set": lambda: (f"Cover adds {e['cover']} to the Defence against this attack." if e["cover"] else
                              f"Movement adds {e['movement']} to the Defence against this attack." if e["movement"] else
                              "No cover or movement against this attack."),
        "defended": lambda: (f"{n(e['combatant'])} dodges/parries with {deck.names(e['cards'])} "
                             f"({count(e['ap'], 'AP', 'AP')})." if e["cards"] else
                             f"{n(e['combatant'])} takes no active defence."),
        "attack_resolved": lambda: story.resolved_line(e, n),
        "critical_announced": lambda: f"Major Critical on {n(e['target'])} "
                                      f"({deck.name(e['card'])}): {e['effect']}",
        "weapons_set": lambda: "The GM changes the weapon table.",
        "criticals_set": lambda: "The GM changes the critical tables.",
        "adjusted": lambda: _adjusted(e, n),
        "combat_ended": lambda: "The combat ends.",
        **{kind: lambda: campaign.line(e) for kind in campaign.FOLDS},
    }
    text = texts.get(e["type"])
    return text() if text else e["type"].replace("_", " ").capitalize() + "."
