"""``apply(state, event) -> state``: folds one event into the state. Never draws, never
rolls: every card is in the event, so replaying the log from ``new_state()`` rebuilds the
state exactly."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.shadows.combat import action_points
from games.shadows.deck import MINOR
from games.shadows.state import RECENT_CHECKS, harm

State = dict[str, Any]
Event = Mapping[str, Any]


def _recent(state: State, entry: dict[str, Any]) -> None:
    state["checks"] = [*state["checks"], entry][-RECENT_CHECKS:]


def _take(hand: list[str], tokens: list[str]) -> list[str]:
    return [t for t in hand if t not in tokens]


def _seen(state: State, person: Mapping[str, Any], tokens: list[str]) -> None:
    """Cards of a hand laid face up this round, by the deck they came from (for the odds of
    what other hands of that deck may hold: state.unseen_by)."""
    seen = state["combat"].setdefault("seen", {})
    name = str(person.get("deck") or MINOR)
    seen[name] = [*seen.get(name, []), *tokens]


def _check_made(state: State, e: Event) -> None:
    state["names"][e["combatant"]] = e["name"]
    if e.get("prepared") is not None:
        state.setdefault("prepared", {}).pop(e["combatant"], None)
    _recent(state, {k: e[k] for k in ("id", "combatant", "name", "complexity", "count", "cards", "extra",
                                      "drawn", "total", "band", "reduction")} | {"kind": "check"})
    state["help"].pop(e["combatant"], None)
    state["counters"] = [c for c in state["counters"] if c["target"] != e["combatant"]]
    person = (state.get("combat") or {}).get("combatants", {}).get(e["combatant"])
    if person is not None and e["ap"]:
        person["ap"] -= e["ap"]
        person["actions"] += 1
    if person is not None and e["from_hand"]:
        person["hand"] = _take(person["hand"], e["cards"])
        state["combat"]["played"] += e["cards"]
        _seen(state, person, list(e["cards"]))


def _prepared(state: State, e: Event) -> None:
    state["names"][e["combatant"]] = e["name"]
    entry = {k: v for k, v in e.items() if k not in ("type", "gm_member")}
    state.setdefault("prepared", {})[e["combatant"]] = entry


def _aimed(state: State, e: Event) -> None:
    aims = state["combat"].setdefault("aims", {})
    aims[e["attacker"]] = {k: v for k, v in e.items() if k not in ("type", "gm_member")}


def _turn_ended(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["done"] = True
    person["actions"] += 1


def _kept(state: State, e: Event) -> None:
    state["names"][e["combatant"]] = e["name"]
    state["held"][e["combatant"]] = [*state["held"].get(e["combatant"], []), e["card"]]


def _guide(state: State, e: Event, card: str | None) -> None:
    for guide in state["guides"]:
        if guide["id"] == e["id"]:
            guide["card"] = card
            return
    state["guides"].append({"id": e["id"], "check": e["check"], "combatant": e["combatant"],
                            "card": card, "shown": False})


def _guide_returned(state: State, e: Event) -> None:
    # back in the deck unseen: nothing of it is left to show
    state["guides"] = [g for g in state["guides"] if g["id"] != e["id"]]


def _guide_shown(state: State, e: Event) -> None:
    for guide in state["guides"]:
        if guide["id"] == e["id"]:
            guide["shown"] = True


def _opposed(state: State, e: Event) -> None:
    ids = [s["id"] for s in e["sides"]]
    for side in e["sides"]:
        state["names"][side["id"]] = side["name"]
    _recent(state, {"id": e["id"], "kind": "opposed", "sides": [s["name"] for s in e["sides"]],
                    "totals": e["totals"], "winner": e["winner"], "draws": e["draws"]})
    state["counters"] = [c for c in state["counters"] if c["target"] not in ids]


def _counter(state: State, e: Event) -> None:
    state["counters"].append({k: e[k] for k in ("id", "counterer", "target", "suits", "ap")})
    person = (state.get("combat") or {}).get("combatants", {}).get(e["counterer"])
    if person is not None and e["ap"]:
        person["ap"] -= e["ap"]
        person["actions"] += 1


def _contest_started(state: State, e: Event) -> None:
    for side in e["sides"]:
        state["names"][side["id"]] = side["name"]
    contest = {k: v for k, v in e.items() if k not in ("type", "gm_member", "names")}
    state["contests"][str(e["id"])] = {**contest, "score": [0, 0], "drawn": 0, "winner": None,
                                       "history": []}


def _contest_drawn(state: State, e: Event) -> None:
    contest = state["contests"][str(e["contest"])]
    contest["score"] = list(e["score"])
    contest["drawn"] = e["number"]
    contest["winner"] = e["winner"]
    contest["history"] = [*contest["history"], {"cards": e["cards"], "totals": e["totals"],
                                                "leader": e["leader"]}][-20:]


def _spent(state: State, e: Event) -> None:
    held = list(state["held"].get(e["combatant"], []))
    held.remove(e["card"])
    state["held"][e["combatant"]] = held


def _session_ended(state: State, e: Event) -> None:
    state["held"] = {cid: [card] for cid, card in e["kept"].items()}
    state["prepared"] = {}
    state["guides"] = []
    state["help"] = {}
    state["counters"] = []


def _combat_started(state: State, e: Event) -> None:
    state["names"].update(e["names"])
    state["combat"] = {"round": 0, "phase": "focus", "combatants": copy.deepcopy(e["combatants"]),
                       "order": list(e["order"]), "pending": None, "played": [], "set_aside": [],
                       "attacks": [], "criticals": [], "aims": {}, "seen": {}}


def _round_started(state: State, e: Event) -> None:
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
    person = copy.deepcopy(dict(e["combatant"]))
    state["names"][person["id"]] = person["name"]
    state["combat"]["combatants"][person["id"]] = person
    state["combat"]["order"] = list(e["order"])


def _person(state: State, cid: str) -> dict[str, Any]:
    return state["combat"]["combatants"][cid]


def _dealt(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["hand"] = list(e["cards"])
    person["holder"] = e["holder"]
    person["dealt"] = True
    person["deck"] = e.get("deck") or MINOR
    state["combat"]["phase"] = "acting"
    if e.get("decks"):
        state["combat"]["decks"] = list(e["decks"])


def _redealt(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["hand"] = _take(person["hand"], e["discarded"]) + list(e["drawn"])
    person["ap"] -= 1
    person["redealt"] = True
    state["combat"]["set_aside"] += e["discarded"]
    _seen(state, person, list(e["discarded"]))


def _attack(state: State, e: Event) -> None:
    fight = state["combat"]
    person = _person(state, e["attacker"])
    person["ap"] -= e["ap"]
    person["actions"] += 1
    person["hand"] = _take(person["hand"], e["cards"])
    fight["played"] += e["cards"]
    _seen(state, person, list(e["cards"]))
    fight.setdefault("aims", {}).pop(e["attacker"], None)
    pending = {k: v for k, v in e.items() if k not in ("type", "gm_member")}
    if e["fumble"] and e["fumble"]["fumbled"]:
        fight["attacks"].append({"attack": e["id"], "attacker": e["attacker"], "target": e["target"],
                                 "weapon": e["weapon"]["name"], "cards": e["cards"], "fumbled": True})
    else:
        fight["pending"] = {**pending, "cover": 0, "movement": 0}


def _cover(state: State, e: Event) -> None:
    state["combat"]["pending"].update(cover=e["cover"], movement=e["movement"])


def _defended(state: State, e: Event) -> None:
    person = _person(state, e["combatant"])
    person["hand"] = _take(person["hand"], e["cards"])
    person["ap"] -= e["ap"]
    state["combat"]["played"] += e["cards"]
    _seen(state, person, list(e["cards"]))


def _resolved(state: State, e: Event) -> None:
    fight = state["combat"]
    pending = fight["pending"] or {}
    fight["pending"] = None
    target = _person(state, e["target"])
    for track, amount in e["tracks"].items():
        # a track stops at nothing: the seed gives damage past it no meaning (down, or dead, is all)
        target[track] = max(0, target[track] - amount)
    _maybe_fallen(state, target)
    entry = {k: v for k, v in e.items() if k not in ("type", "gm_member")}
    entry["cards"] = pending.get("cards", [])
    entry["fumbled"] = False
    fight["attacks"].append(entry)
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


def _ended(state: State, e: Event) -> None:
    state["combat"] = None


_APPLY: dict[str, Callable[[State, Event], None]] = {
    "check_prepared": _prepared,
    "check_cancelled": lambda s, e: s.setdefault("prepared", {}).pop(e["combatant"], None),
    "check_made": _check_made,
    "major_arcana_kept": _kept,
    "guide_pending": lambda s, e: _guide(s, e, None),
    "guide_drawn": lambda s, e: _guide(s, e, e["card"]),
    "guide_shown": _guide_shown,
    "guide_returned": _guide_returned,
    "help_approved": lambda s, e: s["help"].__setitem__(e["combatant"], list(e["helpers"])),
    "opposed_resolved": _opposed,
    "counter_declared": _counter,
    "contest_started": _contest_started,
    "contest_drawn": _contest_drawn,
    "contest_ended": lambda s, e: s["contests"].pop(str(e["contest"]), None),
    "arcana_spent": _spent,
    "session_ended": _session_ended,
    "combat_started": _combat_started,
    "round_started": _round_started,
    "combatant_added": _added,
    "focus_declared": lambda s, e: _person(s, e["combatant"]).__setitem__("focus", e["focus"]),
    "hand_dealt": _dealt,
    "redealt": _redealt,
    "attack_aimed": _aimed,
    "attack_declared": _attack,
    "turn_ended": _turn_ended,
    "cover_set": _cover,
    "defended": _defended,
    "attack_resolved": _resolved,
    "critical_announced": _announced,
    "weapons_set": lambda s, e: s.__setitem__("weapons", [dict(w) for w in e["weapons"]]),
    "criticals_set": lambda s, e: s.__setitem__("criticals", copy.deepcopy(dict(e["tables"]))),
    "adjusted": _adjusted,
    "combat_ended": _ended,
}
EVENT_TYPES = tuple(_APPLY)


def apply(state: Mapping[str, Any], event: Event) -> State:
    """The state after ``event``; the given state is left as it was."""
    new = copy.deepcopy(dict(state))
    if isinstance(event.get("gm_member"), int):
        new["gm_member"] = event["gm_member"]
    if isinstance(event.get("names"), Mapping) and event["type"] != "combat_started":
        new["names"].update(event["names"])
    for key in ("id",):
        if isinstance(event.get(key), int):
            new["next_id"] = max(new["next_id"], event[key] + 1)
    handler = _APPLY.get(event["type"])
    if handler is None:
        raise ValueError(f"unknown event type {event['type']!r}")
    handler(new, event)
    return new
