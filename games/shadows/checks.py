"""All-or-nothing checks outside combat (they may happen during a round too): a check set
up, called off or drawn, and the assistance the GM approves for it.

Each handler is ``handle(state, args, turn)`` (games/core/engine.py): the character is
``args["combatant"]``, whose player (or the GM) the core has let send it; its sheet is read as
the table has it now (``turn.characters``), or from the fight that holds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Args, Event, RuleError, Turn
from games.shadows import access, decks, resolution
from games.shadows import combat as cb
from games.shadows import state as st
from games.shadows.arcana import guide_for, guides_back, major_for
from games.shadows.assist import helper_rows
from games.shadows.conditions import draw_bonus
from games.shadows.contests import counters_against
from games.shadows.errors import GMOnly, WrongStep
from games.shadows.hands import play_from_hand, require_in_hand
from games.shadows.profile import attribute_value, name_of, person_of, skill_value
from games.shadows.sheet import skill_key

# What a check set up keeps of its arguments, to draw it later as it was set up.
_INPUTS = ("skill", "attribute", "complexity", "modifier", "helpers")


def _setup(state: Mapping[str, Any], args: Args, turn: Turn, *, trusted: bool = False) -> dict[str, Any]:
    """What an all-or-nothing action adds to the card: the character, its skill and attribute,
    the complexity, assistance, the GM's modifier and, in a round, the -3 off focus.
    ``trusted``: a check the GM or the player already set up (``prepare_check``), whose GM-only
    parts were checked then."""
    person = person_of(state, str(args["combatant"]), turn)
    if st.in_combat(state, person["id"]):
        st.require_standing(person)
    level = resolution.complexity(str(args.get("complexity") or "normal"))
    skill = str(args.get("skill") or "")
    attribute = str(args.get("attribute") or "")
    skill_v, attribute_v = skill_value(person, skill), attribute_value(person, attribute)
    modifier = int(args.get("modifier") or 0)
    if modifier and not trusted:
        access.gm_only(turn.member, "Only the GM adds a modifier to a check.")
    helpers = _helpers(state, args, turn, person, skill, trusted=trusted)
    assist = resolution.assistance([h["skill"] for h in helpers])
    fighting = st.acting(state, person["id"])
    off = cb.off_focus(fighting["focus"], cb.category_of(attribute)) if fighting is not None else 0
    condition = draw_bonus(state, person["id"])  # a lasting condition on the character (conditions.py)
    return {"person": person, "level": level, "skill": skill, "attribute": attribute,
            "skill_value": skill_v, "attribute_value": attribute_v, "modifier": modifier,
            "helpers": helpers, "assistance": assist, "fighting": fighting, "off_focus": off,
            "condition": condition, "total": skill_v + attribute_v + assist + modifier + off + condition}


def _screen(person: Mapping[str, Any], helpers: list[dict[str, Any]]) -> dict[str, bool]:
    """The check's figures are the GM's when its character is an NPC, and when an NPC helps:
    half (or a quarter of) an NPC's skill is a figure of its sheet (reading, issue 25)."""
    return {"npc": True} if person.get("npc") or any(h.get("npc") for h in helpers) else {}


def _condition(setup: Mapping[str, Any]) -> dict[str, int]:
    """What lasting conditions add to the draw, in its event when they add anything."""
    return {"condition": setup["condition"]} if setup["condition"] else {}


def prepare_check(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Sets up an all-or-nothing action without drawing, so that its player sees the exact
    odds of one card and of three before choosing (seed: one card or three "must be decided
    before any the process is started"; issue 16, "Odds before drawing")."""
    setup = _setup(state, args, turn)
    person = setup["person"]
    return [{"type": "check_prepared", "id": st.new_id(state), "combatant": person["id"], "name": person["name"],
             "complexity": setup["level"].key, "skill": skill_key(setup["skill"]) if setup["skill"] else "",
             "skill_value": setup["skill_value"], "attribute": setup["attribute"],
             "attribute_value": setup["attribute_value"], "assistance": setup["assistance"],
             "helper_names": [h["name"] for h in setup["helpers"]], "modifier": setup["modifier"],
             "off_focus": setup["off_focus"], "total": setup["total"], **_condition(setup),
             # the helpers as set up (the approved ones when the form named none), drawn as set up
             "inputs": {**{k: args[k] for k in _INPUTS if k in args}, "helpers": [h["id"] for h in setup["helpers"]]},
             # set up during a fight: the fight's end calls it off (fight.end_combat)
             **({"round": st.combat(state)["round"]} if st.in_combat(state, person["id"]) else {}),
             **_screen(person, setup["helpers"])}]


def cancel_check(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    cid = str(args["combatant"])
    entry = state.get("prepared", {}).get(cid)
    if entry is None:
        raise WrongStep("No check is waiting to be drawn for that character.")
    return [{"type": "check_cancelled", "combatant": cid, "name": entry["name"], "check": entry["id"]}]


def _as_set_up(prepared: Mapping[str, Any], args: Args) -> Args:
    """The arguments of a check set up before, with what its draw says (one card or three, the
    cards played from the hand, the AP). A check set up before issue 24 kept its character's
    sheet and its helpers' among its inputs: the helpers are named by their ids now."""
    inputs = {k: v for k, v in prepared["inputs"].items() if k in _INPUTS}
    inputs["helpers"] = [h.get("id") if isinstance(h, Mapping) else h for h in inputs.get("helpers") or ()]
    return {**inputs, "combatant": prepared["combatant"],
            **{k: args[k] for k in ("cards", "from_hand", "ap") if k in args}}


def check(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """An all-or-nothing action: one card or three (``cards``, 1 or 3: the parser's), "decided
    before any the process is started"; during a combat round it costs AP and may play cards
    from the hand.

    With ``prepared`` the action is the one set up for ``combatant`` (``prepare_check``) and
    the move only says one card or three (and the cards played from the hand)."""
    cards = turn.cards
    prepared = None
    if args.get("prepared"):
        prepared = state.get("prepared", {}).get(str(args["combatant"]))
        if prepared is None:
            raise WrongStep("No check is waiting to be drawn for that character.")
        args = _as_set_up(prepared, args)
    setup = _setup(state, args, turn, trusted=prepared is not None)
    person, level, fighting = setup["person"], setup["level"], setup["fighting"]
    count = int(args.get("cards") or 1)
    chosen = list(args.get("from_hand") or ())
    ap = 0
    if fighting is not None:
        ap = st.ACTION_AP if args.get("ap") is None else int(args["ap"])
        if ap != st.ACTION_AP:
            access.gm_only(turn.member, "Only the GM changes what an action costs.")
        st.require_ap(fighting, ap)
        if chosen:
            require_in_hand(fighting, chosen)
    elif chosen:
        raise WrongStep("Cards come from a hand only during a combat round, once dealt.")
    if chosen and len(chosen) != count:
        raise RuleError(f"Play {count} card{'s' if count > 1 else ''} from the hand, as many as the draw.")
    holder = access.holder(turn, person["id"])  # before any card moves: a refusal draws nothing
    if chosen:
        # face up from the real hand, and done with at once: onto the discard (decks.py)
        play_from_hand(cards, fighting, chosen, to="discard")
    # the character's earlier fumble is over: its guide, unshown, goes back into the Major Arcana
    returned = guides_back(cards, [g for g in state["guides"] if g["combatant"] == person["id"]])
    drawn = resolution.draw_all_or_nothing(cards, count, chosen=chosen, source=decks.for_rules(state, cards))
    judged = resolution.judge(drawn.values, drawn.extra_value, setup["total"], level)
    counters = counters_against(state, person["id"], judged.drawn, cards)
    reduction = sum(c["reduction"] for c in counters)
    total = judged.total - reduction
    outcome = judged.band if judged.fumble else resolution.band(total, level)
    check_id = st.new_id(state)
    skill = setup["skill"]
    event: Event = {
        "type": "check_made", "id": check_id, "combatant": person["id"], "name": person["name"],
        "complexity": level.key, "count": count, "cards": list(drawn.cards), "extra": drawn.extra,
        "from_hand": bool(chosen), "drawn": judged.drawn, "skill": skill_key(skill) if skill else "",
        "skill_value": setup["skill_value"], "attribute": setup["attribute"],
        "attribute_value": setup["attribute_value"], "helpers": setup["helpers"],
        "assistance": setup["assistance"], "modifier": setup["modifier"], "off_focus": setup["off_focus"],
        "counters": counters, "reduction": reduction, "total": total, "band": outcome,
        "ap": ap, "queen": judged.queen, "prepared": prepared["id"] if prepared else None, **_condition(setup),
        **_screen(person, setup["helpers"]),  # an NPC's skill, attribute and what else it adds are the GM's (audiences.py)
    }
    events = [*returned, event]
    if judged.queen:
        kept = major_for(person, holder, cards, check_id)
        if kept is None:
            event["no_major_left"] = True  # every Major Arcana card is held: the Queen earns none
        else:
            events.append(kept)
    if outcome == resolution.FUMBLE:
        events.append(guide_for(person, turn, cards, check_id, check_id + 1))
    return events


def _helpers(state: Mapping[str, Any], args: Args, turn: Turn, person: Mapping[str, Any],
             skill: str, *, trusted: bool = False) -> list[dict[str, Any]]:
    """Assistance "subject to GM approval": the GM names helpers in their own move, or
    approves them first (``approve_help``) for a player's next check. Each helper is read as
    the fight has it, or as the table has it now."""
    raw = [str(h) for h in args.get("helpers") or ()]
    if not raw and not trusted:
        # a player's form has no helper boxes (they are the GM's): the help the GM approved for
        # this character's next check is what it carries, whoever sends it
        raw = [str(h) for h in state["help"].get(person["id"], [])]
    if not raw:
        return []
    helpers = helper_rows(state, turn, person, raw, skill)
    if not (turn.member.is_gm or trusted):
        approved = state["help"].get(person["id"], [])
        if [h["id"] for h in helpers] != list(approved)[: len(helpers)] or len(helpers) > len(approved):
            raise GMOnly("Assistance needs the GM's approval first.")
    return helpers


def ask_help(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """A player asks for assistance "subject to GM approval": the GM's panel shows the request
    with a button to approve it (``approve_help``); approved, it counts on the character's next
    check, the player's own included. ``helpers``: one or two others (the parser's)."""
    cid = str(args["combatant"])
    helpers = [str(h) for h in args["helpers"]]
    for helper in helpers:
        if (person := st.in_combat(state, helper)) is not None:
            st.require_standing(person)  # a combatant down or dead helps nobody
    return [{"type": "help_asked", "combatant": cid, "helpers": helpers,
             "names": {c: name_of(state, turn, c) for c in (cid, *helpers)}}]


def refuse_help(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM refuses a player's request for help (the seed: assistance is "subject to GM
    approval"); the request is answered, and the player may ask again."""
    cid = str(args["combatant"])
    asked = (state.get("asked") or {}).get(cid)
    if not asked:
        raise RuleError(f"{name_of(state, turn, cid)} has not asked for help.")
    return [{"type": "help_refused", "combatant": cid, "helpers": list(asked),
             "names": {c: name_of(state, turn, c) for c in (cid, *asked)}}]


def approve_help(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM approves one or two helpers, in order, for a character's next check."""
    cid = str(args["combatant"])
    helpers = [str(h) for h in args["helpers"]]
    if not helpers or len(helpers) > 2 or cid in helpers or len(set(helpers)) != len(helpers):
        raise RuleError("Name the character and one or two others to help, in order.")
    return [{"type": "help_approved", "combatant": cid, "helpers": helpers,
             "names": {c: name_of(state, turn, c) for c in (cid, *helpers)}}]
