"""Opposed and multi-draw actions and counters, outside combat (they may happen during a
round too). A counter declared against a character draws its card when that character next
acts (``counters_against``: a check's draw or an opposed action's first card)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import combat as cb
from games.shadows import deck, decks, resolution
from games.shadows import state as st
from games.shadows.actor import (
    ACTION_AP, MAX_TIE_DRAWS, Actor, Command, Event, npc_flag, holder_of, names_of, new_id, require_ap, whole,
)
from games.shadows.arcana import major_for
from games.core.engine import RuleError
from games.shadows.errors import WrongStep
from games.shadows.profile import attribute_value, profile, skill_value
from games.shadows.sheet import skill_key


def counters_against(state: Mapping[str, Any], cid: str, drawn_value: int, cards: Cards) -> list[dict[str, Any]]:
    """Counters declared against ``cid``: each draws one card now and takes off its excess."""
    out = []
    for counter in state["counters"]:
        if counter["target"] != cid:
            continue
        [card] = cards.draw(decks.for_rules(state, cards), 1, to="discard")
        out.append({"id": counter["id"], "counterer": counter["counterer"], "card": card.token,
                    "suits": counter["suits"],
                    "reduction": resolution.counter_effect(card.token, drawn_value, counter["suits"])})
    return out


def _shown_sides(sides: list[dict[str, Any]]) -> dict[str, Any]:
    """With an NPC side, ``sides`` is the GM's part (audiences.py): what everyone reads of the
    sides instead, for the line's working: an NPC side's name (its skill and attribute are its
    sheet's), a player's side whole (what it adds is on a sheet its table sees)."""
    if not any(s.get("npc") for s in sides):
        return {}
    return {"shown_sides": [{"name": s["name"], "npc": True} if s.get("npc") else s for s in sides]}


def _side(state: Mapping[str, Any], raw: Any, actor: Actor) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise RuleError("Each side needs a character, a skill and an attribute.")
    person = st.in_combat(state, str((raw.get("character") or {}).get("id", ""))) or profile(raw.get("character") or {})
    if st.in_combat(state, person["id"]):
        st.require_standing(person)
    skill = str(raw.get("skill") or "")
    attribute = str(raw.get("attribute") or "")
    fighting = st.acting(state, person["id"])
    off = cb.off_focus(fighting["focus"], cb.category_of(attribute)) if fighting else 0
    return {"id": person["id"], "name": person["name"], "owner": person.get("owner"),
            "skill": skill_key(skill) if skill else "", "attribute": attribute,
            "modifier": skill_value(person, skill) + attribute_value(person, attribute) + off,
            "off_focus": off, **npc_flag(person)}


def _one_draw(state: Mapping[str, Any], cards: Cards) -> tuple[list[str], int]:
    """One card, and "if a single card was used and it is a King" another added."""
    drawn = resolution.draw_all_or_nothing(cards, 1, source=decks.for_rules(state, cards))
    tokens = [*drawn.cards, *([drawn.extra] if drawn.extra else [])]
    return tokens, drawn.values[0] + (drawn.extra_value or 0)


def opposed(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "each drawing a single card from the Minor Arcana deck and adding their
    appropriate skill and attribute ... with the higher result being successful. If this
    results in a tie, then both sides draw an additional card, continuing to do so until one
    side succeeds."

    Readings: an opposed action uses "the same basic mechanic", so a King draws another card
    and a Queen earns a Major Arcana; the fumble band belongs to the complexity table, which
    an opposed action has none of, so there is no fumble. A tie's additional cards are added
    to each side's total (so the tie is broken by the higher new card). Counters declared
    against a side work on its first card."""
    actor.require_gm("run an opposed action")
    raw = command.get("sides") or []
    if len(raw) != 2:
        raise RuleError("An opposed action has two sides.")
    sides = [_side(state, s, actor) for s in raw]
    if sides[0]["id"] == sides[1]["id"]:
        raise RuleError("A character cannot oppose themself.")
    holders = [holder_of(state, side, actor) for side in sides]
    draws: list[list[list[str]]] = [[], []]
    totals = [s["modifier"] for s in sides]
    firsts = []
    counters: list[list[dict[str, Any]]] = [[], []]
    for i in (0, 1):
        tokens, worth = _one_draw(state, cards)
        draws[i].append(tokens)
        firsts.append(deck.value(tokens[0]))
        totals[i] += worth
        counters[i] = counters_against(state, sides[i]["id"], firsts[i], cards)
        totals[i] -= sum(c["reduction"] for c in counters[i])
    ties = 0
    while resolution.opposed_winner(*totals) is None and ties < MAX_TIE_DRAWS:
        ties += 1
        for i in (0, 1):
            tokens, worth = _one_draw(state, cards)
            draws[i].append(tokens)
            totals[i] += worth
    winner = resolution.opposed_winner(*totals)
    check_id = new_id(state)
    events: list[Event] = [{
        "type": "opposed_resolved", "id": check_id, "sides": sides, "draws": draws,
        "counters": counters, "totals": totals, "ties": ties,
        "winner": None if winner is None else sides[winner]["id"],
        **_shown_sides(sides),
    }]
    for i in (0, 1):
        if deck.value(draws[i][0][0]) == deck.QUEEN:
            kept = major_for(state, sides[i], holders[i], cards, check_id)
            events.extend([kept] if kept is not None else [])
    return events


def counter(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "the player simply lets the GM know that they want to "counter" or "distract"";
    in a combat round it "results in a delay of one Action Point (or more, if the GM deems it
    appropriate". The GM names the suits that count as appropriate ("the decision of the GM
    being final"); the counter card is drawn when the target next acts."""
    actor.require_gm("accept a counter")
    counterer = str(command.get("combatant") or "")
    target = str(command.get("target") or "")
    suits = [str(s).lower() for s in command.get("suits") or []]
    if not counterer or not target or counterer == target:
        raise RuleError("A counter needs who counters and whom.")
    if not suits or any(s not in deck.SUITS for s in suits):
        raise RuleError("Name the suits that are appropriate: cups, pentacles, swords or wands.")
    ap = 0
    fighting = st.acting(state, counterer)
    if (person := st.in_combat(state, counterer)) is not None:
        st.require_standing(person)
    if fighting is not None:
        ap = whole(command, "ap", ACTION_AP, low=1, high=13, what="The AP")
        require_ap(fighting, ap)
    return [{"type": "counter_declared", "id": new_id(state), "counterer": counterer,
             "target": target, "suits": sorted(set(suits)), "ap": ap, "names": names_of(command)}]


def contest_start(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed, multi-draw: "the GM [decides] how long the event will continue (how many draws
    are made and keeping track of either the number of "draws" won by each player or the
    total points ...). Or the GM can decide that to win, one opponent has to out-score the
    other by a certain amount ... (it is best of the GM does not let either party know what
    this difference value is". A margin is the GM's secret (``audience``)."""
    actor.require_gm("start a multi-draw action")
    raw = command.get("sides") or []
    if len(raw) != 2:
        raise RuleError("A multi-draw action has two sides.")
    sides = [_side(state, s, actor) for s in raw]
    mode = str(command.get("mode") or "draws")
    if mode not in ("draws", "margin"):
        raise RuleError("A multi-draw action runs a number of draws, or until a margin is reached.")
    scoring = str(command.get("scoring") or "wins")
    if scoring not in ("wins", "points"):
        raise RuleError("Count draws won (wins) or points.")
    contest: Event = {"type": "contest_started", "id": new_id(state), "label": str(command.get("label") or "")[:80],
                      "sides": sides, "mode": mode, "scoring": scoring if mode == "draws" else "points"}
    if mode == "draws":
        contest["draws"] = whole(command, "draws", 3, low=1, high=50, what="The number of draws")
    else:
        contest["margin"] = whole(command, "margin", 10, low=1, high=500, what="The margin")
    return [contest]


def contest_draw(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """One draw of a multi-draw action: "each draw indicating who is in the lead for that
    portion of time". Reading: each draw is a single card (a King adds another) plus skill
    and attribute; a tied draw leads nobody; a fixed number of draws that ends level goes on
    draw by draw until one side leads, as an opposed tie does. No Major Arcana: a draw only
    says who leads for a while."""
    actor.require_gm("draw for a multi-draw action")
    contest = state["contests"].get(str(command.get("contest")))
    if contest is None or contest["winner"] is not None:
        raise WrongStep("No such multi-draw action is running.")
    hands, totals = [], []
    for side in contest["sides"]:
        tokens, worth = _one_draw(state, cards)
        hands.append(tokens)
        totals.append(worth + side["modifier"])
    leader = resolution.opposed_winner(*totals)
    score = list(contest["score"])
    if contest["scoring"] == "wins":
        if leader is not None:
            score[leader] += 1
    else:
        score = [score[0] + totals[0], score[1] + totals[1]]
    number = contest["drawn"] + 1
    winner = None
    if contest["mode"] == "draws":
        if number >= contest["draws"] and score[0] != score[1]:
            winner = 0 if score[0] > score[1] else 1
    elif abs(score[0] - score[1]) >= contest["margin"]:
        winner = 0 if score[0] > score[1] else 1
    return [{"type": "contest_drawn", "contest": contest["id"], "number": number, "cards": hands,
             "totals": totals, "leader": None if leader is None else contest["sides"][leader]["id"],
             "score": score,
             "winner": None if winner is None else contest["sides"][winner]["id"]}]


def contest_end(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("end a multi-draw action")
    contest = state["contests"].get(str(command.get("contest")))
    if contest is None:
        raise WrongStep("No such multi-draw action.")
    return [{"type": "contest_ended", "contest": contest["id"]}]
