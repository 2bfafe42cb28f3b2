"""One-line summaries of Action Rounds events, for the log a table shows.

The engine's events hold the numbers; this gives the ``Event.summary`` text, so the
Django side does not need to know what each event means. Names come from the state.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from games.contract import GM_PART
from games.core import clock as time
from games.core.words import count
from games.demon_city.actions import DEFEND, EXOTIC, GRAB, MELEE, OTHER, SHOOT
from games.demon_city.combatant import SHEET_FIELDS, stat_label
from games.demon_city.events import BROKE_FREE, GRABBER_OUT
from games.demon_city.healing import healed_line
from games.demon_city.state import npcs

# What an announcement says of its kind, in words, not the engine's codes.
ANNOUNCED = {
    MELEE: "close combat", GRAB: "a grab", SHOOT: "a shot", EXOTIC: "an exotic weapon attack",
    DEFEND: "a defence", OTHER: "another action",
}

Event = Mapping[str, Any]

# What the Host's correction of a yes-or-no field says, for yes and for no.
MARKS = {
    "unaware": ("unaware", "aware"), "grabbed": ("grabbed", "not grabbed"),
    "injured": ("injured", "not injured"), "out_of_fight": ("out of the fight", "back in the fight"),
    "present": ("present", "gone from the scene"), "dead": ("dead", "alive"),
    "supernatural": ("supernatural", "not supernatural"),
}
LABELS = {f["name"]: f["label"] for f in SHEET_FIELDS}

# An NPC's figures: its sheet's stats and skills, what it is, and an injury from before the
# fight (a Lost Die's reason). Its Toughness now and of its base is the harm everyone watches
# (its card's track; each hit rolls that many dice in the open), and its side, whom it fights.
FIGURES = frozenset({"agility", "armour", "hand_to_hand", "firearms", "exotic_weapons", "skills",
                     "supernatural", "injured_before"})


def field_label(name: str) -> str:
    return LABELS.get(name) or stat_label(name)


def _corrected(e: Event, who: str) -> str:
    field, value = e["field"], e["value"]
    if field in MARKS and isinstance(value, bool):
        return f"The Host marks {who} {MARKS[field][0 if value else 1]}."
    if isinstance(value, bool):
        value = "yes" if value else "no"
    elif isinstance(value, Mapping):
        value = ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
    return f"The Host sets {who}'s {field_label(field)} to {value}."


# The Host's change to a pool, by (change, die), in words: the die's name and what it does.
ADJUSTED = {
    ("grant", "situation"): "The Host grants {who} a Situation Die",
    ("remove", "situation"): "The Host takes back {who}'s Situation Die",
    ("grant", "lost"): "The Host takes a die from {who}: a Lost Die",
    ("remove", "lost"): "The Host gives {who} back a Lost Die",
}


def _adjusted(e: Event, who: str) -> str:
    return ADJUSTED[(e["change"], e["die"])].format(who=who) + f" ({e['reason']})."


def _dice(values: list[int]) -> str:
    return ", ".join(map(str, values))


def summary(event: Event, names: Mapping[str, str], hidden: Collection[str] = frozenset()) -> str:
    """A short sentence for ``event``; ``names`` maps combatant ids to display names.

    ``hidden``: the NPCs whose figures the reader may not see (the GM's: ``audiences``). Every die
    is public, and what came of it; an NPC's pool before the roll (how many dice, and why) and
    its sheet's values are not, so its line leaves them out."""

    def secret(cid: str | None) -> bool:
        return (cid or "") in hidden

    def n(cid: str | None) -> str:
        return names.get(cid or "", cid or "nobody")

    def clash(e: Event) -> str:
        rolls = "; ".join(f"{n(c)} rolls {_dice(r['dice'])} (best {r['best']})"
                          for c, r in e["rolls"].items())
        if e["winner"] is None:
            return f"Clash: {rolls}. {e['prompt']}"
        crit = ": a critical success" if e["critical"] else ""
        if e["outcome"] == "same_side_tie":
            return f"Clash: {rolls}. {n(e['winner'])} acts, chosen at random among allies tied highest."
        return f"Clash: {rolls}. {n(e['winner'])} rolls highest and acts{crit}."

    def unresisted(e: Event) -> str:
        task = e["task"]
        if task is None:
            return f"{n(e['combatant'])}'s action is unresisted and happens."
        return (f"{n(e['combatant'])} rolls {_dice(task['dice'])} against difficulty "
                f"{task['target_number']}: {task['outcome']}.")

    def grab_ended(e: Event) -> str:
        holders = " and ".join(n(g) for g in e["grabbers"])
        if e["reason"] == BROKE_FREE:
            return f"{n(e['target'])} breaks free" + (f" of {holders}." if holders else ".")
        if e["reason"] == GRABBER_OUT:
            return f"{holders} is out of the fight and lets go of {n(e['target'])}."
        return f"The Host ends the grab on {n(e['target'])}."

    def damage(e: Event) -> str:
        how = "the highest (Massive Damage)" if e["massive"] else "the lowest"
        down = ": out of the fight" if e["out_of_fight"] else ""
        keeps = (f" {n(e['target'])} keeps the Injury result {e['keeps']}, not yet healed: a conclusive "
                 "result is never replaced by a later roll." if e.get("keeps") else "")
        return (f"{n(e['attacker'])} hits {n(e['target'])}: rolls {_dice(e['dice'])} and takes {how}, "
                f"{e['taken']}. Toughness {e['before']} falls to {e['after']}{down}.{keeps}")

    def ended(e: Event) -> str:
        """The fight's damage ends with it (the decided reading "003, damage belongs to the
        fight"): said of whom it gives back what."""
        restored = " and ".join(n(c) for c in e.get("restored") or ())
        back = " and ".join(n(c) for c in e.get("back") or ())
        return "Action Rounds end." + (
            f" Current Toughness returns to Base for {restored}." if restored else "") + (
            f" {back} {'are' if len(e.get('back') or ()) > 1 else 'is'} no longer out of the fight;"
            " the Injury result stays until it heals." if back else "")

    texts: dict[str, Callable[[Event], str]] = {
        "action_rounds_started": lambda e: "Action Rounds! Announcing from slowest: "
                                           + ", ".join(n(c) for c in e["order"]) + "."
                                           + (" Injuries from before the fight count."
                                              if e.get("injuries_count") else ""),
        "combatant_added": lambda e: f"{n(e['combatant']['id'])} joins the fight.",
        "announced": lambda e: f"{n(e['action']['actor'])} announces {ANNOUNCED[e['action']['kind']]}"
                               + (" at " + ", ".join(n(t) for t in e["action"]["targets"])
                                  if e["action"]["targets"] else "")
                               + ("." if secret(e["action"]["actor"])
                                  else f" ({count(e['pool']['size'], 'die', 'dice')})."),
        "extra_targets_allowed": lambda e: f"{n(e['combatant'])} may target more than one.",
        "pool_adjusted": lambda e: f"The Host adjusts {n(e['combatant'])}'s pool." if secret(e["combatant"])
        else _adjusted(e, n(e["combatant"])),
        "difficulty_set": lambda e: f"{n(e['combatant'])} must roll over "
                                    f"{e['target_number']}.",
        "condition_set": lambda e: f"The Host corrects {n(e['combatant'])}'s {field_label(e['field'])}."
        if secret(e["combatant"]) and e["field"] in FIGURES else _corrected(e, n(e["combatant"])),
        "injury_table_set": lambda e: "The Host changes the Injury table.",
        "ties_settled": lambda e: "The Host settles ties in Agility again: the next fight draws them afresh."
        if e.get("order") is None else "The Host settles ties in Agility again. Announcing from slowest: "
        + ", ".join(n(c) for c in e["order"]) + ".",
        "dice_collected": lambda e: f"Dice collected: {count(len(e['clashes']), 'Clash', 'Clashes')}, "
                                    f"{count(len(e['unresisted']), 'unresisted action')}.",
        "unresisted_resolved": unresisted,
        "clash_rolled": clash,
        "damage_rolled": damage,
        "grabbed": lambda e: f"{n(e['attacker'])} grabs {n(e['target'])}.",
        "grab_ended": grab_ended,
        "defended": lambda e: f"{n(e['combatant'])} defends successfully.",
        "injury_rolled": lambda e: f"{n(e['combatant'])} rolls {e['die']} on the Injury "
                                   f"table: {e['entry']['result']}.",
        "round_resolved": lambda e: f"Round {e['round']} resolved.",
        "round_started": lambda e: f"Round {e['round']} begins.",
        "action_rounds_ended": ended,
        # time heals a kept Injury result; an NPC's, as everyone reads it, names no injury
        "injury_healed": lambda e: healed_line({k: v for k, v in e.items() if not (GM_PART in e and k == "injury")}),
        "undone": lambda e: f"The Host undoes step {e['undoes_step']}.",
    }
    return texts[event["type"]](event) + _pools_now(event, n, secret)


def _pools_now(event: Event, n: Callable[[str], str], secret: Callable[[str], bool]) -> str:
    """The pools an event changed, already announced (``state.pools_changed``): "Pools
    now: Alfie 2 dice." A hidden NPC's pool before the roll is the GM's, so its reader's line
    leaves it out."""
    shown = [f"{n(cid)} {count(size, 'die', 'dice')}" for cid, size in event.get("pools_now") or ()
             if not secret(cid)]
    return f" Pools now: {', '.join(shown)}." if shown else ""


def names_of(state: Mapping[str, Any]) -> dict[str, str]:
    """Display names from a state: the sheet name, or the id when the name is blank."""
    return {cid: c.get("name") or cid for cid, c in state["combatants"].items()}


def line(event: Event, state: Mapping[str, Any]) -> str:
    """``event``'s line as everyone reads it (``Engine.summary``), from the state it leaves: an
    NPC's figures left out (the GM reads the whole line, in the event's GM's part)."""
    return summary(event, names_of(state), npcs(state))


def step_line(event: Event, state: Mapping[str, Any]) -> str:
    """What the GM's undo list says of a step, by its first event: the roll by its round, any
    other step by its line as everyone reads it (the undo's own event repeats it)."""
    if event["type"] == "dice_collected":
        return f"the roll of round {event['round']}"
    if event["type"] in time.EVENTS:  # the clock's own step: its own line
        return time.line(event)
    return line(event, state)
