"""``FOLDS``: for each event kind, how it changes the state (``fold(state, event)``, on the copy
games/core/engine.py hands it): the folds of checks, contests and the Major Arcana here, a
combat's in fight_record.py. A fold never draws, never rolls: every card is in the event, so
folding the log from ``new_state()`` again rebuilds the state exactly.

Every fold also keeps the names the event gives (``names``) and the next free id (past the
event's ``id``), for the panel's lines and the next check's number."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core.engine import Fold
from games.shadows.campaign import FOLDS as CAMPAIGN_FOLDS
from games.shadows.edges import FOLDS as EDGE_FOLDS
from games.shadows.fight_record import FIGHT_FOLDS, acted, entry, played
from games.shadows.state import RECENT_CHECKS

State = dict[str, Any]
Event = Mapping[str, Any]


def _recent(state: State, entry: dict[str, Any]) -> None:
    state["checks"] = [*state["checks"], entry][-RECENT_CHECKS:]


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
        acted(person, e["ap"])
    if person is not None and e["from_hand"]:
        played(state, person, list(e["cards"]))
        state["combat"]["played"] += e["cards"]


def _prepared(state: State, e: Event) -> None:
    state["names"][e["combatant"]] = e["name"]
    state.setdefault("prepared", {})[e["combatant"]] = entry(e)


def _major_kept(state: State, e: Event) -> None:
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
    _spend(state, e)


def _spend(state: State, e: Event) -> None:
    """The AP an opposed or multi-draw action cost the sides acting in the round."""
    for cid, ap in (e.get("ap") or {}).items():
        person = (state.get("combat") or {}).get("combatants", {}).get(cid)
        if person is not None and ap:
            acted(person, ap)


def _lowers(state: State, e: Event) -> bool:
    """A counter spent on the attack waiting (``e["attack"]``), which it lowers; False when that
    attack is not the one waiting."""
    pending = (state.get("combat") or {}).get("pending")
    if e.get("attack") is None or not pending or pending["id"] != e["attack"]:
        return False
    pending["value"] -= e["reduction"]
    pending["countered"] = pending.get("countered", 0) + e["reduction"]
    return True


def _counter_applied(state: State, e: Event) -> None:
    """A counter declared before its target attacked, met by the attack (contests.counters_met)."""
    state["counters"] = [c for c in state["counters"] if c["id"] != e["counter"]]
    _lowers(state, e)


def _counter(state: State, e: Event) -> None:
    # an Active Dodge is spent on the attack waiting, which it lowers (contests._active_dodge);
    # any other counter waits for its target's next action
    if not _lowers(state, e):
        state["counters"].append({k: e[k] for k in ("id", "counterer", "target", "suits", "ap", "round")
                                  if k in e})
    person = (state.get("combat") or {}).get("combatants", {}).get(e["counterer"])
    if person is not None and e["ap"]:
        acted(person, e["ap"])


def _contest_started(state: State, e: Event) -> None:
    for side in e["sides"]:
        state["names"][side["id"]] = side["name"]
    contest = entry(e, "names")
    state["contests"][str(e["id"])] = {**contest, "score": [0, 0], "drawn": 0, "winner": None,
                                       "history": []}


def _contest_drawn(state: State, e: Event) -> None:
    contest = state["contests"][str(e["contest"])]
    contest["score"] = list(e["score"])
    _spend(state, e)
    contest["drawn"] = e["number"]
    contest["winner"] = e["winner"]
    contest["history"] = [*contest["history"], {"cards": e["cards"], "totals": e["totals"],
                                                "leader": e["leader"]}][-20:]


def _help_approved(state: State, e: Event) -> None:
    state["help"][e["combatant"]] = list(e["helpers"])
    state.setdefault("asked", {}).pop(e["combatant"], None)  # the request is answered


def _spent(state: State, e: Event) -> None:
    if e.get("pending"):  # waits for the GM's word (arcana.judge_spend), the card still held
        state.setdefault("spending", {})[str(e["id"])] = {
            k: e[k] for k in ("id", "combatant", "name", "card", "reversed", "meaning")}
        return
    _unheld(state, e)  # logged before issue 25: spent at once


def _unheld(state: State, e: Event) -> None:
    held = list(state["held"].get(e["combatant"], []))
    if e["card"] in held:
        held.remove(e["card"])
    state["held"][e["combatant"]] = held


def _judged(state: State, e: Event) -> None:
    state.setdefault("spending", {}).pop(str(e["spend"]), None)
    if e["type"] == "arcana_approved":
        _unheld(state, e)


def _session_ended(state: State, e: Event) -> None:
    state["held"] = {cid: [card] for cid, card in e["kept"].items()}
    state["prepared"] = {}
    state["guides"] = []
    state["help"] = {}
    state["asked"] = {}
    state["spending"] = {}
    state["counters"] = []


_BY_KIND: dict[str, Callable[[State, Event], None]] = {
    "check_prepared": _prepared,
    "check_cancelled": lambda s, e: s.setdefault("prepared", {}).pop(e["combatant"], None),
    "check_made": _check_made,
    "major_arcana_kept": _major_kept,
    "guide_pending": lambda s, e: _guide(s, e, None),
    "guide_drawn": lambda s, e: _guide(s, e, e["card"]),
    "guide_shown": _guide_shown,
    "guide_returned": _guide_returned,
    "help_asked": lambda s, e: s.setdefault("asked", {}).__setitem__(e["combatant"], list(e["helpers"])),
    "help_approved": _help_approved,
    "help_refused": lambda s, e: s.setdefault("asked", {}).pop(e["combatant"], None),
    "opposed_resolved": _opposed,
    "counter_declared": _counter,
    "counter_applied": _counter_applied,
    "contest_started": _contest_started,
    "contest_drawn": _contest_drawn,
    "contest_ended": lambda s, e: s["contests"].pop(str(e["contest"]), None),
    "arcana_spent": _spent,
    "arcana_approved": _judged,
    "arcana_refused": _judged,
    "session_ended": _session_ended,
    "weapons_set": lambda s, e: s.__setitem__("weapons", [dict(w) for w in e["weapons"]]),
    "criticals_set": lambda s, e: s.__setitem__("criticals", {k: dict(v) for k, v in e["tables"].items()}),
    **FIGHT_FOLDS,
    **EDGE_FOLDS,  # a side set, and what ends with the fight (edges.py)
    **CAMPAIGN_FOLDS,  # recovery, a raise, a correction outside a fight (campaign.py)
}


def _folding(fold: Callable[[State, Event], None]) -> Fold:
    def folded(state: State, event: Event) -> None:
        if isinstance(event.get("names"), Mapping) and event["type"] != "combat_started":
            state["names"].update(event["names"])
        if isinstance(event.get("id"), int):
            state["next_id"] = max(state["next_id"], event["id"] + 1)
        fold(state, event)
        for cid in event.get("help_used") or ():  # the GM's approval served this attempt (assist.py)
            state["help"].pop(cid, None)
    return folded


FOLDS: dict[str, Fold] = {kind: _folding(fold) for kind, fold in _BY_KIND.items()}
