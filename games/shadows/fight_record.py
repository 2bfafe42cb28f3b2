"""How each event of a combat changes the fight's record (``state["combat"]``): ``FIGHT_FOLDS``,
one fold for each kind, folded with the others by events.py. A fold never draws, never rolls:
the cards are in the events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.shadows.combat import action_points
from games.shadows.deck import MINOR
from games.shadows.state import harm

State = dict[str, Any]
Event = Mapping[str, Any]
# What a state's copy of an event leaves out: its kind, the step the core stamps, and the GM's
# member id that events logged before issue 24 carried.
_NOT_KEPT = ("type", "step", "gm_member")


def entry(e: Event, *more: str) -> dict[str, Any]:
    """The event as the state keeps it (a check set up, an aim, an attack waiting)."""
    return {k: v for k, v in e.items() if k not in (*_NOT_KEPT, *more)}


def played(state: State, person: dict[str, Any], tokens: list[str]) -> None:
    """Cards a hand lays face up this round: out of the hand, and counted by the deck they came
    from (for the odds of what other hands of that deck may hold: state.unseen_by)."""
    person["hand"] = [t for t in person["hand"] if t not in tokens]
    seen = state["combat"].setdefault("seen", {})
    name = str(person.get("deck") or MINOR)
    seen[name] = [*seen.get(name, []), *tokens]


def acted(person: dict[str, Any], ap: int) -> None:
    """An action in a round: its AP spent, one more action taken."""
    person["ap"] -= ap
    person["actions"] += 1


def _person(state: State, cid: str) -> dict[str, Any]:
    return state["combat"]["combatants"][cid]


def _started(state: State, e: Event) -> None:
    state["names"].update(e["names"])
    state["combat"] = {"round": 0, "phase": "focus", "combatants": dict(e["combatants"]),
                       "order": list(e["order"]), "pending": None, "played": [], "set_aside": [],
                       "attacks": [], "criticals": [], "aims": {}, "seen": {}}


def _lapse(state: State) -> None:
    """Decided reading: "an unused counter lapses at the end of the round"."""
    state["counters"] = [c for c in state.get("counters", []) if "round" not in c]


def _ended(state: State, e: Event) -> None:
    _lapse(state)
    state["combat"] = None


def _round_started(state: State, e: Event) -> None:
    _lapse(state)
    fight = state["combat"]
    fight["round"] = e["round"]
    fight["phase"] = "focus"
    fight["played"], fight["set_aside"], fight["attacks"] = [], [], []
    fight["aims"], fight["seen"] = {}, {}
    for person in fight["combatants"].values():
        ap = action_points(person["attributes"]["quickness"])
        person.update(focus=None, ap=ap, ap_max=ap, hand=[], dealt=False, redealt=False, actions=0,
                      done=False, fallen=harm(person))


def _added(state: State, e: Event) -> None:
    person = dict(e["combatant"])
    state["names"][person["id"]] = person["name"]
    state["combat"]["combatants"][person["id"]] = person
    state["combat"]["order"] = list(e["order"])


def _dealt(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person.update(hand=list(e["cards"]), holder=e["holder"], dealt=True, deck=e.get("deck") or MINOR)
    state["combat"]["phase"] = "acting"
    if e.get("decks"):
        state["combat"]["decks"] = list(e["decks"])


def _redealt(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    played(state, person, list(e["discarded"]))
    person["hand"] += list(e["drawn"])
    person["ap"] -= 1
    person["redealt"] = True
    state["combat"]["set_aside"] += e["discarded"]


def _turn_ended(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["done"] = True
    person["actions"] += 1


def _attack(state: State, e: Event) -> None:
    fight = state["combat"]
    person = _person(state, e["attacker"])
    acted(person, e["ap"])
    played(state, person, list(e["cards"]))
    fight["played"] += e["cards"]
    fight.setdefault("aims", {}).pop(e["attacker"], None)
    if e["fumble"] and e["fumble"]["fumbled"]:
        fight["attacks"].append({"attack": e["id"], "attacker": e["attacker"], "target": e["target"],
                                 "weapon": e["weapon"]["name"], "cards": e["cards"], "fumbled": True})
    else:
        fight["pending"] = {**entry(e), "cover": 0, "movement": 0}


def _defended(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    played(state, person, list(e["cards"]))
    person["ap"] -= e["ap"]
    state["combat"]["played"] += e["cards"]


def _resolved(state: State, e: Event) -> None:
    fight = state["combat"]
    pending = fight["pending"] or {}
    fight["pending"] = None
    target = _person(state, e["target"])
    for track, amount in e["tracks"].items():
        # a track stops at nothing: the seed gives damage past it no meaning (down, or dead, is all)
        target[track] = max(0, target[track] - amount)
    _maybe_fallen(state, target)
    fight["attacks"].append({**entry(e), "cards": pending.get("cards", []), "fumbled": False})
    for found in e["criticals"]:
        fight["criticals"].append({"index": len(fight["criticals"]), "attack": e["attack"],
                                   "target": e["target"], "card": found["card"],
                                   "effect": found["effect"], "announced": False})


def _announced(state: State, e: Event) -> None:
    for found in state["combat"]["criticals"]:
        if found["index"] == e["index"]:
            found.update(announced=True, effect=e["effect"])


def _maybe_fallen(state: State, person: dict[str, Any]) -> None:
    """A combatant whose Health or Life is gone falls: out of the fight for the rest of the
    round (state.standing), and a check it had set up is called off (it draws no more)."""
    if harm(person):
        person["fallen"] = harm(person)  # "down" or "dead", as everyone sees it fall
        state.setdefault("prepared", {}).pop(person["id"], None)


def _adjusted(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person[e["field"]] = e["value"]
    _maybe_fallen(state, person)  # set back above nothing, it stays out until the next round


FIGHT_FOLDS: dict[str, Callable[[State, Event], None]] = {
    "combat_started": _started,
    "round_started": _round_started,
    "combatant_added": _added,
    "focus_declared": lambda s, e: _person(s, e["combatant"]).__setitem__("focus", e["focus"]),
    "hand_dealt": _dealt,
    "redealt": _redealt,
    "attack_aimed": lambda s, e: s["combat"].setdefault("aims", {}).__setitem__(e["attacker"], entry(e)),
    "attack_declared": _attack,
    "turn_ended": _turn_ended,
    "cover_set": lambda s, e: s["combat"]["pending"].update(cover=e["cover"], movement=e["movement"]),
    "defended": _defended,
    "attack_resolved": _resolved,
    "critical_announced": _announced,
    "adjusted": _adjusted,
    "combat_ended": _ended,
}
