"""How each event changes the state (``FOLDS``: the core folds each event into a copy of the
state). A fold never draws: every card a move drew is in its events (as tokens and values), so
a log folds back exactly.

Beside its own keys any event may carry what its move recorded of the table (reckon.py):
``names`` (the characters it concerns, as the table calls them) and ``reckoned`` /
``reckoned_gm`` (what the rules make of the sheets after the move: each one's Health and Defence
as they stand, each pull waiting to be made as it would be made); every fold takes those in.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from games.core import clock as time
from games.core.fights import SIDE_SET, fold_side
from games.harsh_light.audiences import RECKONED_GM, whole
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


def _willpower(state: State, e: Event) -> None:
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


def _reaction_opened(state: State, e: Event) -> None:
    state["reaction"] = {k: copy.deepcopy(e.get(k)) for k in ("combatant", "target", "against", "label", "args")}


def _reaction_answered(state: State, e: Event) -> None:
    state["reaction"] = None


def _pull_set_up(state: State, e: Event) -> None:
    state["prepared"][e["combatant"]] = {"args": dict(e["args"]), "step": e.get("step")}


def _put_away(state: State, e: Event) -> None:
    state["prepared"].pop(e["combatant"], None)


def _dodged(state: State, e: Event) -> None:
    now = _status(state, e["combatant"])
    now["dodging"], now["acted"] = True, True


def _moved(state: State, e: Event) -> None:
    if state["combat"]:
        _status(state, e["combatant"])["moved"] = True


def _order_set(state: State, e: Event) -> None:
    state["combat"] = True
    state["order"] = list(e["order"])
    # an NPC's initiative modifier and total, and its record's figures, come apart (audiences.py)
    figures = e.get("figures") or {}
    state["initiative"] = {cid: {**i, **figures.get("initiative", {}).get(cid, {})}
                           for cid, i in copy.deepcopy(dict(e.get("initiative") or {})).items()}
    for record in e.get("records", []):
        _remember(state, whole(record, figures.get("records", {}).get(record["combatant"])), e)
    _new_turn(state, e["turn"])
    state["prepared"] = {}  # a new order: what was set up before it is put away
    state["reaction"] = None  # and a pull waiting for an answer is not made
    state["acting"] = e["order"][0]
    _begin_action(state, e["order"][0])


def _turn_ended(state: State, e: Event) -> None:
    if not state["combat"]:  # the GM's "new turn" outside combat
        _new_turn(state, state["turn"])
        for cid in list(state["status"]):  # and Defence comes back: the attacks' toll, an All-Out Attack
            _begin_action(state, cid)
        return
    if e["new_turn"]:
        _new_turn(state, e["turn"])
    state["prepared"].pop(e["combatant"], None)  # its action is over: a pull not made is put away
    state["acting"] = e["next"]
    _begin_action(state, e["next"])


def _options_set(state: State, e: Event) -> None:
    state["options"] = {"untrained": bool(e["untrained"])}


def _combat_ended(state: State, e: Event) -> None:
    """What belongs to the fight ends with it: the turn order and its turn, the Storyteller's
    sides, and each one's flags of the turn (the attacks against its Defence, an All-Out Attack
    or a Dodge, which last "until their next action"; the instant action taken; the Willpower
    point of the turn, "one Willpower per turn", and the +2 kept to resist; the Stamina pull
    made this turn). Health stays as the fight left it."""
    state.update(combat=False, order=[], acting=None, initiative={}, turn=0, prepared={}, reaction=None)
    state.pop("sides", None)
    for cid in list(state["status"]):
        state["status"][cid] = fresh_status()


def _extended_started(state: State, e: Event) -> None:
    state["extended"][e["id"]] = {
        "id": e["id"], "combatant": e["combatant"], "label": e["label"], "pool": dict(e["pool"]),
        "needed": e["needed"], "unit": e["unit"], "gathered": 0, "pulls": [], "done": False,
        "outcome": None, "limit": e.get("limit") or 0, "lose": bool(e.get("lose")),
    }
    state["next_id"] += 1


def _extended_pulled(state: State, e: Event) -> None:
    action = state["extended"][e["id"]]
    action["pulls"] = [*action["pulls"], whole(e["record"], e.get("figures"))]
    action["gathered"] = e["gathered"]
    if e["done"]:
        action["done"], action["outcome"] = True, "succeeded"
    elif e.get("failed"):  # its last pull, as the Storyteller limited them
        action["done"], action["outcome"] = True, "failed"
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


def _harmed(state: State, e: Event) -> None:
    """A wound, a healing or a Stamina pull: the Health it leaves is everyone's (``track``), and
    one it puts out of the fight can no longer make the pull it set up."""
    state["people"].setdefault(e["combatant"], {})["track"] = dict(e["track"])
    if e["track"]["out"]:
        state["prepared"].pop(e["combatant"], None)


def _consciousness_pulled(state: State, e: Event) -> None:
    _status(state, e["combatant"])["kept_conscious"] = True
    _remember(state, whole(e["record"], e.get("figures")), e)
    _harmed(state, e)


def _rested(state: State, e: Event) -> None:
    """Time's healing and Willpower (campaign.py): the Health it leaves, and the nights of rest
    counted toward the next lethal or aggravated box."""
    if "track" in e:
        _harmed(state, e)
        rest = state.setdefault("rest", {})
        if e.get("banked"):
            rest[e["combatant"]] = e["banked"]
        else:
            rest.pop(e["combatant"], None)


def _beats_gained(state: State, e: Event) -> None:
    """Beats are the sheet's (writeback.py): nothing of the table's state changes."""


def _recorded(fold: Callable[[State, Event], None]) -> Callable[[State, Event], None]:
    """``fold``, with what the move recorded of the table taken in: the names first (the event's
    own line reads them), what the rules reckoned last (it was reckoned after the whole move)."""
    def folded(state: State, e: Event) -> None:
        people = state.setdefault("people", {})
        for cid, called in (e.get("names") or {}).items():
            people.setdefault(cid, {})["name"] = called
        fold(state, e)
        for part in ("reckoned", RECKONED_GM):
            _reckoned(state, e.get(part) or {})
    return folded


def _reckoned(state: State, reckoned: Mapping[str, Any]) -> None:
    for cid, now in (reckoned.get("people") or {}).items():
        state["people"].setdefault(cid, {}).update(now)
    for cid, now in (reckoned.get("prepared") or {}).items():
        if cid in state["prepared"]:
            state["prepared"][cid]["now"] = now
    for x, now in (reckoned.get("extended") or {}).items():
        state["extended"][x]["now"] = now
    for k, sides in (reckoned.get("contests") or {}).items():
        state["contests"][k]["now"] = {**(state["contests"][k].get("now") or {}), **sides}


FOLDS: dict[str, Callable[[State, Event], None]] = {kind: _recorded(fold) for kind, fold in {
    "willpower_spent": _willpower,
    "pulled": _pulled,
    "pull_set_up": _pull_set_up,
    "pull_put_away": _put_away,
    "reaction_opened": _reaction_opened,
    "reaction_answered": _reaction_answered,
    "dodged": _dodged,
    "moved": _moved,
    "order_set": _order_set,
    "turn_ended": _turn_ended,
    "combat_ended": _combat_ended,
    SIDE_SET: fold_side,
    "options_set": _options_set,
    "extended_started": _extended_started,
    "extended_pulled": _extended_pulled,
    "extended_stopped": _stopped("extended"),
    "contest_started": _contest_started,
    "contest_pulled": _contest_pulled,
    "contest_round": _contest_round,
    "contest_stopped": _stopped("contests"),
    "damaged": _harmed,
    "healed": _harmed,
    "consciousness_pulled": _consciousness_pulled,
    "rested": _rested,
    "beats_gained": _beats_gained,
    # the clock's own events (games/core/clock.py), folded as the core folds them, with what the
    # move recorded of the table taken in like any other event's
    **time.FOLDS,
}.items()}
