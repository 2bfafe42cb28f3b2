"""``apply(state, event) -> state``: the only way the state changes. It never draws: every
card a command drew is in its events (as tokens and values), so a log replays exactly."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.harsh_light import health
from games.harsh_light.secrecy import whole
from games.harsh_light.state import RECENT, State, fresh_status

Event = Mapping[str, Any]


def _status(state: State, cid: str) -> dict[str, Any]:
    return state["status"].setdefault(cid, fresh_status())


def _begin_action(state: State, cid: str) -> None:
    """A character's next action begins: what lasted "until their next action" ends (the
    attacks against its Defence, an All-Out Attack, a Dodge)."""
    now = _status(state, cid)
    now["attacks"], now["all_out"], now["dodging"] = 0, False, False


def _new_turn(state: State, turn: int) -> None:
    state["turn"] = turn
    for now in state["status"].values():
        # Willpower kept for a resisting trait lasts the turn it was spent in; the Stamina pull to
        # stay conscious is made again each turn.
        now["acted"] = now["moved"] = now["willpower_spent"] = now["resist_willpower"] = False
        now["kept_conscious"] = False


def _sheet_read(state: State, e: Event) -> None:
    state["characters"][e["combatant"]] = dict(e["sheet"])
    _status(state, e["combatant"])


def _willpower(state: State, e: Event) -> None:
    state["characters"][e["combatant"]]["willpower_points"] = e["points_left"]
    now = _status(state, e["combatant"])
    now["willpower_spent"] = True
    if e["use"] == "resist":
        now["resist_willpower"] = True


def _remember(state: State, record: Mapping[str, Any], e: Event) -> None:
    state["recent"] = [*state["recent"], {**record, "step": e.get("step")}][-RECENT:]


def _pulled(state: State, e: Event) -> None:
    cid, target = e["combatant"], e.get("target")
    state["prepared"].pop(cid, None)  # a pull set up is made
    if not state["combat"]:
        _begin_action(state, cid)  # outside a turn order, its pull is its next action
    now = _status(state, cid)
    if e.get("instant_in_combat"):
        now["acted"] = True
    if e.get("all_out"):
        now["all_out"] = True
    if target is not None:
        theirs = _status(state, target)
        if e.get("resist_willpower_used"):
            theirs["resist_willpower"] = False
        if e.get("defence_applied"):
            theirs["attacks"] += 1
    # No test ends a turn: Willpower comes back with the next turn alone (_new_turn), which
    # outside a fight the Storyteller calls (turn_ended), whatever the point bought.
    _remember(state, whole(e["record"], e.get("figures")), e)


def _pull_set_up(state: State, e: Event) -> None:
    state["prepared"][e["combatant"]] = {"args": dict(e["args"]), "step": e.get("step")}


def _put_away(state: State, e: Event) -> None:
    state["prepared"].pop(e["combatant"], None)


def _deck_counted(state: State, e: Event) -> None:
    pass  # the count itself is every event's "deck_left" (apply)


def _dodged(state: State, e: Event) -> None:
    now = _status(state, e["combatant"])
    now["dodging"], now["acted"] = True, True


def _moved(state: State, e: Event) -> None:
    if state["combat"]:
        _status(state, e["combatant"])["moved"] = True


def _order_set(state: State, e: Event) -> None:
    state["combat"] = True
    state["order"] = list(e["order"])
    # an NPC's initiative modifier and total, and its record's figures, come apart (secrecy.py)
    figures = e.get("figures") or {}
    state["initiative"] = {cid: {**i, **figures.get("initiative", {}).get(cid, {})}
                           for cid, i in copy.deepcopy(dict(e.get("initiative") or {})).items()}
    for record in e.get("records", []):
        _remember(state, whole(record, figures.get("records", {}).get(record["combatant"])), e)
    _new_turn(state, e["turn"])
    state["prepared"] = {}  # a new order: what was set up before it is put away
    state["acting"] = e["order"][0]
    _begin_action(state, e["order"][0])


def _turn_ended(state: State, e: Event) -> None:
    if not state["combat"]:  # the GM's "new turn" outside combat
        _new_turn(state, state["turn"])
        return
    if e["new_turn"]:
        _new_turn(state, e["turn"])
    state["prepared"].pop(e["combatant"], None)  # its action is over: a pull not made is put away
    state["acting"] = e["next"]
    _begin_action(state, e["next"])


def _combat_ended(state: State, e: Event) -> None:
    state.update(combat=False, order=[], acting=None, initiative={}, turn=0, prepared={})
    for cid in list(state["status"]):
        state["status"][cid] = fresh_status()


def _extended_started(state: State, e: Event) -> None:
    state["extended"][e["id"]] = {
        "id": e["id"], "combatant": e["combatant"], "label": e["label"], "pool": dict(e["pool"]),
        "needed": e["needed"], "unit": e["unit"], "gathered": 0, "pulls": [], "done": False,
        "outcome": None,
    }
    state["next_id"] += 1


def _extended_pulled(state: State, e: Event) -> None:
    action = state["extended"][e["id"]]
    action["pulls"] = [*action["pulls"], whole(e["record"], e.get("figures"))]
    action["gathered"] = e["gathered"]
    if e["done"]:
        action["done"], action["outcome"] = True, "succeeded"
    _pulled(state, {**e, "target": None})


def _stopped(kind: str) -> Callable[[State, Event], None]:
    def stop(state: State, e: Event) -> None:
        state[kind][e["id"]]["done"] = True
        state[kind][e["id"]]["outcome"] = "stopped"
    return stop


def _contest_started(state: State, e: Event) -> None:
    state["contests"][e["id"]] = {
        "id": e["id"], "label": e["label"], "needed": e["needed"], "unit": e["unit"],
        "supernatural": e["supernatural"], "sides": copy.deepcopy(e["sides"]), "round": 1,
        "pulled": {}, "gathered": {s["combatant"]: 0 for s in e["sides"]}, "rounds": [],
        "done": False, "winner": None, "outcome": None,
    }
    state["next_id"] += 1


def _contest_pulled(state: State, e: Event) -> None:
    contest = state["contests"][e["id"]]
    contest["pulled"] = {**contest["pulled"], e["combatant"]: whole(e["record"], e.get("figures"))}
    _pulled(state, {**e, "target": None})


def _contest_round(state: State, e: Event) -> None:
    contest = state["contests"][e["id"]]
    contest["rounds"] = [*contest["rounds"], {"round": e["round"], "successes": dict(e["successes"]),
                                              "winner": e["winner"]}]
    contest["gathered"] = dict(e["gathered"])
    contest["pulled"] = {}
    if e["done"]:
        contest["done"], contest["winner"], contest["outcome"] = True, e["winner"], "won"
    else:
        contest["round"] = e["round"] + 1


def _track(state: State, e: Event) -> dict[str, Any]:
    person = state["characters"][e["combatant"]]
    person.update(e["health"])
    if health.out(person):  # a pull set up can no longer be made
        state["prepared"].pop(e["combatant"], None)
    return person


def _damaged(state: State, e: Event) -> None:
    _track(state, e)


def _healed(state: State, e: Event) -> None:
    person = _track(state, e)
    if e["woke"]:
        person["unconscious"] = False


def _consciousness_pulled(state: State, e: Event) -> None:
    cid = e["combatant"]
    _status(state, cid)["kept_conscious"] = True
    _remember(state, whole(e["record"], e.get("figures")), e)
    if not e["conscious"]:
        state["characters"][cid]["unconscious"] = True
        state["prepared"].pop(cid, None)


APPLIERS: dict[str, Callable[[State, Event], None]] = {
    "sheet_read": _sheet_read,
    "willpower_spent": _willpower,
    "pulled": _pulled,
    "pull_set_up": _pull_set_up,
    "pull_put_away": _put_away,
    "deck_counted": _deck_counted,
    "dodged": _dodged,
    "moved": _moved,
    "order_set": _order_set,
    "turn_ended": _turn_ended,
    "combat_ended": _combat_ended,
    "extended_started": _extended_started,
    "extended_pulled": _extended_pulled,
    "extended_stopped": _stopped("extended"),
    "contest_started": _contest_started,
    "contest_pulled": _contest_pulled,
    "contest_round": _contest_round,
    "contest_stopped": _stopped("contests"),
    "damaged": _damaged,
    "healed": _healed,
    "consciousness_pulled": _consciousness_pulled,
}
EVENT_TYPES = tuple(APPLIERS)


def apply(state: Mapping[str, Any], event: Event) -> State:
    """A new state with ``event`` folded in; ``state`` itself is left as it was."""
    applier = APPLIERS.get(event.get("type", ""))
    if applier is None:
        raise ValueError(f"Unknown Harsh Light event {event.get('type')!r}.")
    new = copy.deepcopy(dict(state))
    new.setdefault("prepared", {})  # a state kept before pulls were set up
    if "step" in event:
        new["step"] = max(new["step"], int(event["step"]))
    applier(new, event)
    if "deck_left" in event:  # the cards the odds count, as counted with this event (deck.counted)
        new["deck_left"] = list(event["deck_left"]) if event["deck_left"] is not None else None
        new["deck_from"] = event.get("deck_from", "unseen")
    return new
