"""All-or-nothing checks outside combat (they may happen during a round too): a check set
up, called off or drawn, and the assistance the GM approves for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import combat as cb
from games.shadows import decks, resolution
from games.shadows import state as st
from games.shadows.actor import (
    ACTION_AP, Actor, Command, Event, holder_of, names_of, new_id, npc_flag, person_of, play_from_hand,
    require_ap, require_in_hand, tokens_of, whole,
)
from games.shadows.arcana import guide_for, guides_back, major_for
from games.shadows.contests import counters_against
from games.core.engine import RuleError
from games.shadows.errors import GMOnly, WrongStep
from games.shadows.profile import attribute_value, profile, skill_value
from games.shadows.sheet import skill_key


def _setup(state: Mapping[str, Any], command: Command, actor: Actor, *, trusted: bool = False) -> dict[str, Any]:
    """What an all-or-nothing action adds to the card: the character, its skill and attribute,
    the complexity, assistance, the GM's modifier and, in a round, the -3 off focus.
    ``trusted``: a check the GM or the player already set up (``prepare_check``), whose GM-only
    parts were checked then."""
    person = person_of(state, command)
    actor.require_control(person["id"], person["name"])
    if st.in_combat(state, person["id"]):
        st.require_standing(person)
    level = resolution.complexity(str(command.get("complexity", "normal")))
    skill = str(command.get("skill") or "")
    attribute = str(command.get("attribute") or "")
    skill_v, attribute_v = skill_value(person, skill), attribute_value(person, attribute)
    modifier = whole(command, "modifier", 0, low=-50, high=50, what="The modifier")
    if modifier and not (actor.is_gm or trusted):
        raise GMOnly("Only the GM adds a modifier to a check.")
    helpers = _helpers(state, command, actor, person, skill, trusted=trusted)
    assist = resolution.assistance([h["skill"] for h in helpers])
    fighting = st.acting(state, person["id"])
    off = cb.off_focus(fighting["focus"], cb.category_of(attribute)) if fighting is not None else 0
    return {"person": person, "level": level, "skill": skill, "attribute": attribute,
            "skill_value": skill_v, "attribute_value": attribute_v, "modifier": modifier,
            "helpers": helpers, "assistance": assist, "fighting": fighting, "off_focus": off,
            "total": skill_v + attribute_v + assist + modifier + off}


_INPUTS = ("character", "combatant", "skill", "attribute", "complexity", "modifier", "helpers")


def prepare_check(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Sets up an all-or-nothing action without drawing, so that its player sees the exact
    odds of one card and of three before choosing (seed: one card or three "must be decided
    before any the process is started"; issue 16, "Odds before drawing")."""
    setup = _setup(state, command, actor)
    person = setup["person"]
    return [{"type": "check_prepared", "id": new_id(state), "combatant": person["id"], "name": person["name"],
             "complexity": setup["level"].key, "skill": skill_key(setup["skill"]) if setup["skill"] else "",
             "skill_value": setup["skill_value"], "attribute": setup["attribute"],
             "attribute_value": setup["attribute_value"], "assistance": setup["assistance"],
             "helper_names": [h["name"] for h in setup["helpers"]], "modifier": setup["modifier"],
             "off_focus": setup["off_focus"], "total": setup["total"],
             "inputs": {k: command[k] for k in _INPUTS if k in command}, **npc_flag(person)}]


def cancel_check(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    cid = str(command.get("combatant") or "")
    entry = state.get("prepared", {}).get(cid)
    if entry is None:
        raise WrongStep("No check is waiting to be drawn for that character.")
    actor.require_control(cid, entry["name"])
    return [{"type": "check_cancelled", "combatant": cid, "name": entry["name"], "check": entry["id"]}]


def check(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """An all-or-nothing action: one card or three, "decided before any the process is
    started"; during a combat round it costs AP and may play cards from the hand.

    With ``prepared`` the action is the one set up for ``combatant`` (``prepare_check``) and
    the command only says one card or three (and the cards played from the hand)."""
    prepared = None
    if command.get("prepared"):
        cid = str(command.get("combatant") or "")
        prepared = state.get("prepared", {}).get(cid)
        if prepared is None:
            raise WrongStep("No check is waiting to be drawn for that character.")
        actor.require_control(cid, prepared["name"])
        command = {**prepared["inputs"], "combatant": cid,
                   **{k: command[k] for k in ("cards", "from_hand", "ap") if k in command}}
    setup = _setup(state, command, actor, trusted=prepared is not None)
    person, level, fighting = setup["person"], setup["level"], setup["fighting"]
    count = whole(command, "cards", 1, what="The number of cards")
    if count not in (1, 3):
        raise RuleError("Draw one card or three: it is decided before drawing.")
    chosen = tokens_of(command, "from_hand")
    ap = 0
    if fighting is not None:
        ap = whole(command, "ap", ACTION_AP, low=0, high=13, what="The AP")
        if ap != ACTION_AP and not actor.is_gm:
            raise GMOnly("Only the GM changes what an action costs.")
        require_ap(fighting, ap)
        if chosen:
            require_in_hand(fighting, chosen)
    elif chosen:
        raise WrongStep("Cards come from a hand only during a combat round, once dealt.")
    if chosen and len(chosen) != count:
        raise RuleError(f"Play {count} card{'s' if count > 1 else ''} from the hand, as many as the draw.")
    holder = holder_of(state, person, actor)  # before any card moves: a refusal draws nothing
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
    check_id = new_id(state)
    skill = setup["skill"]
    event: Event = {
        "type": "check_made", "id": check_id, "combatant": person["id"], "name": person["name"],
        "complexity": level.key, "count": count, "cards": list(drawn.cards), "extra": drawn.extra,
        "from_hand": bool(chosen), "drawn": judged.drawn, "skill": skill_key(skill) if skill else "",
        "skill_value": setup["skill_value"], "attribute": setup["attribute"],
        "attribute_value": setup["attribute_value"], "helpers": setup["helpers"],
        "assistance": setup["assistance"], "modifier": setup["modifier"], "off_focus": setup["off_focus"],
        "counters": counters, "reduction": reduction, "total": total, "band": outcome,
        "ap": ap, "queen": judged.queen, "prepared": prepared["id"] if prepared else None,
        **npc_flag(person),  # an NPC's skill, attribute and what else it adds are the GM's (audiences.py)
    }
    events = [*returned, event]
    if judged.queen:
        kept = major_for(state, person, holder, cards, check_id)
        if kept is None:
            event["no_major_left"] = True  # every Major Arcana card is held: the Queen earns none
        else:
            events.append(kept)
    if outcome == resolution.FUMBLE:
        events.append(guide_for(state, person, actor, cards, check_id, check_id + 1))
    return events


def _helpers(state: Mapping[str, Any], command: Command, actor: Actor, person: Mapping[str, Any],
             skill: str, *, trusted: bool = False) -> list[dict[str, Any]]:
    """Assistance "subject to GM approval": the GM names helpers in their own command, or
    approves them first (``approve_help``) for a player's next check."""
    raw = command.get("helpers") or []
    if not raw:
        return []
    if len(raw) > 2:
        raise RuleError("At most two others can help: a second and a third character.")
    helpers = []
    for item in raw:
        helper = st.in_combat(state, str(item.get("id", ""))) if isinstance(item, Mapping) else None
        if helper is not None:
            st.require_standing(helper)  # a combatant down or dead helps nobody
        helper = helper or profile(item)
        if helper["id"] == person["id"]:
            raise RuleError("A character cannot help themself.")
        key = skill_key(skill) if skill else ""
        helpers.append({"id": helper["id"], "name": helper["name"],
                        "skill": int(helper["skills"].get(key, 0)) if key else 0})
    if not (actor.is_gm or trusted):
        approved = state["help"].get(person["id"], [])
        if [h["id"] for h in helpers] != list(approved)[: len(helpers)] or len(helpers) > len(approved):
            raise GMOnly("Assistance needs the GM's approval first.")
    return helpers


def approve_help(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("approve assistance")
    cid = str(command.get("combatant") or "")
    helpers = [str(h) for h in command.get("helpers") or []]
    if not cid or not helpers or len(helpers) > 2 or cid in helpers or len(set(helpers)) != len(helpers):
        raise RuleError("Name the character and one or two others to help, in order.")
    return [{"type": "help_approved", "combatant": cid, "helpers": helpers, "names": names_of(command)}]
