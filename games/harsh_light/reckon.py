"""What a move records of the table beside its own events (``Engine.settle``): the rules' record,
never a copy of a sheet.

- a Beat for each Dramatic Failure a player character pulled (campaign.py), added to the move's
  events;
- ``was``, on each event that writes on a sheet: what it overwrites there, as the sheet held it
  before the move (an NPC's Willpower in ``was_gm``, the GM's part), which the Storyteller's undo
  writes back (undo.py);
- ``names``, on the move's first event: the characters its events concern, as the table calls
  them now, so each line names them as they were called when it happened.
- ``reckoned``, on its last event: what the rules make of the sheets and the state once the move
  is done, where that changed: each character's Health (everyone's: harm everyone watches) and
  Defence as it stands against the next attack, and each pull waiting to be made (one set up, an
  extended action's next, a contest side's) with the pool it would have now, or why it cannot be
  made; and each one's side (roster.py), which the panel's target lists read. The panel shows these before any card (the issue: the pool and its odds "before the
  pull"); a rule never reads them back: the next move reckons from the sheets again
  (state.in_play). What is an NPC's figure goes in ``reckoned_gm``, the GM's part (audiences.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from games.core.engine import UNDONE, RuleError, Turn
from games.harsh_light import health, undo
from games.harsh_light import sheet as sh
from games.harsh_light.audiences import RECKONED_GM, npc, secret_pool
from games.harsh_light.campaign import dramatic_beats
from games.harsh_light.extended import contest_pool, spec_pool
from games.harsh_light.pulls import plan
from games.harsh_light.roster import one
from games.harsh_light.state import defence_now, dice, in_play, status, untrained_penalty
from games.harsh_light.writeback import after, writeback

Event = dict[str, Any]


def settle(state: Mapping[str, Any], events: list[Event], turn: Turn) -> list[Event]:
    """The move's events as they are logged: each with the turn it happened in, the first with the
    names of the characters they concern, the last with what the rules reckon after them."""
    if not events:  # a session's close that changes nothing (the core settles it as a move)
        return events
    if events[0]["type"] == UNDONE:  # the Storyteller's undo: the sheets put back (undo.py)
        return undo.settle(state, events, turn, writeback)
    view = in_play(state, turn)
    events += dramatic_beats(view, events)  # a player character's Dramatic Failure: a Beat (campaign.py)
    for event in events:
        event.setdefault("turn", state["turn"])
    named = dict.fromkeys(cid for event in events for cid in _mentioned(event, turn.characters))
    events[0]["names"] = {cid: turn.characters[cid].name for cid in named}
    seen: set[tuple[str, str]] = set()
    for event in events:
        undo.remember(view, event, writeback(event), seen)  # what it overwrites, for the Storyteller's undo
        view = after(view, event)
    public, secret = reckon(view)
    if public:
        events[-1]["reckoned"] = public
    if secret:
        events[-1][RECKONED_GM] = secret
        events[-1]["gm_figures"] = [*events[-1].get("gm_figures", ()), RECKONED_GM]
    return events


def _mentioned(value: Any, cids: Mapping[str, Any]) -> Iterator[str]:
    """Every combatant id in an event, as a value or a key, in order."""
    if isinstance(value, str):
        if value in cids:
            yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _mentioned(key, cids)
            yield from _mentioned(item, cids)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _mentioned(item, cids)


def reckon(view: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What changed of the rules' record once a move is done (a rule's view, after its events):
    everyone's part, and the GM's (an NPC's figures)."""
    parts: tuple[dict[str, Any], dict[str, Any]] = ({}, {})

    def put(where: str, key: str, now: dict[str, Any], secret: bool) -> None:
        parts[secret].setdefault(where, {}).setdefault(key, {}).update(now)

    sheets = view["characters"]
    for cid, known in view["people"].items():
        if cid not in sheets:
            continue
        track = health.shown(sheets[cid])
        if known.get("track") != track:
            put("people", cid, {"track": track}, False)
        if known.get("defence") != defence_now(view, cid):
            put("people", cid, {"defence": defence_now(view, cid)}, npc(view, cid))
        side = one(view, cid).side  # no secret: every seat sees whom each fights for (roster.py)
        if known.get("side") != side:
            put("people", cid, {"side": side}, False)
    for cid, kept in view["prepared"].items():
        now = pending(view, kept["args"], cid)
        if cid in sheets and kept.get("now") != now:
            target = kept["args"].get("target")
            put("prepared", cid, now, secret_pool(view, cid, target, now.get("target_parts", ())))
    for x in view["extended"].values():
        cid = x["combatant"]
        if not x["done"] and cid in sheets:
            now = next_pull(view, cid, spec_pool(sheets[cid], x["pool"], untrained_penalty(view), dice(view, cid)))
            if x.get("now") != now:
                put("extended", x["id"], now, npc(view, cid))
    for k in view["contests"].values():
        for side in k["sides"] if not k["done"] else ():
            cid = side["combatant"]
            if cid in sheets:
                now = next_pull(view, cid, contest_pool(sheets[cid], k, side, untrained_penalty(view),
                                                        dice(view, cid)))
                if (k.get("now") or {}).get(cid) != now:
                    put("contests", k["id"], {cid: now}, npc(view, cid))
    return parts


def pending(view: Mapping[str, Any], args: Mapping[str, Any], cid: str) -> dict[str, Any]:
    """A pull set up, as it would be made now: its pool, what it needs, whether the pool alone
    reaches it, its again, the parts that are its target's figures and whether it is an attack;
    or the ``problem`` that keeps it from being made as it is."""
    if cid not in view["characters"]:
        return {"problem": "That is not a character at this table."}
    try:
        made = plan(view, {**args, "combatant": cid}, cid)
    except RuleError as exc:
        return {"problem": exc.message}
    return {"pool": made.pool.to_dict(), "needed": made.needed, "automatic": made.automatic, "again": made.again,
            "target_parts": list(made.target_parts), "attack": made.facts["attack"]}


def next_pull(view: Mapping[str, Any], cid: str, pool: Any) -> dict[str, Any]:
    """A running action's next pull: its pool, its again, and whether a Willpower point (+3) may
    still be spent on it this turn."""
    sheet = view["characters"][cid]
    spend = not status(view, cid)["willpower_spent"] and sh.willpower_points(sheet) > 0
    return {"pool": pool.to_dict(), "again": sh.again(sheet), "willpower": spend}
