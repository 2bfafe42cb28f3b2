"""Opposed and multi-draw actions and counters, outside combat (they may happen during a
round too). A counter declared against a character draws its card when that character next
acts (``counters_against``: a check's draw or an opposed action's first card; ``counters_met``: its
attack in a round).

Each handler is ``handle(state, args, turn)`` (games/core/engine.py); all of these are the GM's
moves (the core's check). A side is read as the fight has it, or as the table has it now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import Args, Event, Turn
from games.shadows import access, assist, deck, decks, resolution
from games.shadows import combat as cb
from games.shadows import state as st
from games.shadows.arcana import major_for
from games.shadows.conditions import draw_bonus
from games.shadows.errors import WrongStep
from games.shadows.profile import attribute_value, name_of, npc_flag, person_of, skill_value
from games.shadows.sheet import skill_key

# Ties in an opposed action "draw an additional card, continuing to do so until one side
# succeeds"; past this many the GM is asked to decide (decks are finite).
MAX_TIE_DRAWS = 20


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


def _side(state: Mapping[str, Any], raw: Mapping[str, Any], turn: Turn) -> dict[str, Any]:
    """One side (``character``, ``skill``, ``attribute``) and what it adds to its card."""
    person = person_of(state, str(raw["character"]), turn)
    if st.in_combat(state, person["id"]):
        st.require_standing(person)
    skill = str(raw.get("skill") or "")
    attribute = str(raw.get("attribute") or "")
    fighting = st.acting(state, person["id"])
    off = cb.off_focus(fighting["focus"], cb.category_of(attribute)) if fighting else 0
    condition = draw_bonus(state, person["id"])  # a lasting condition on the character (conditions.py)
    return {"id": person["id"], "name": person["name"],
            "skill": skill_key(skill) if skill else "", "attribute": attribute,
            "modifier": skill_value(person, skill) + attribute_value(person, attribute) + off + condition,
            "off_focus": off, **({"condition": condition} if condition else {}), **npc_flag(person)}


def _assisted(state: Mapping[str, Any], side: dict[str, Any], turn: Turn) -> dict[str, Any]:
    """A side with the help the GM approved for its character's next attempt (assist.py): half
    the second character's skill, a quarter of the third's, added to what the side adds to its
    card. An NPC's help is a figure of its sheet: the side's figures are then the GM's (``npc``)."""
    help_ = assist.approved(state, turn, side, side["skill"])
    if not help_["helpers"]:
        return side
    return {**side, "modifier": side["modifier"] + help_["assistance"], "assistance": help_["assistance"],
            "helpers": [{"id": h["id"], "name": h["name"]} for h in help_["helpers"]],
            **({"npc": True} if help_["screened"] else {})}


def _help_used(sides: list[dict[str, Any]]) -> dict[str, Any]:
    used = [s["id"] for s in sides if s.get("helpers")]
    return {"help_used": used} if used else {}


def costs(state: Mapping[str, Any], cids: list[str], args: Args) -> dict[str, int]:
    """What an action in a round costs each of its sides who is acting in the fight: ``ap`` (the
    GM's say, "or more, if the GM deems it appropriate"), else one AP like any other action;
    refused, before any card moves, when a side lacks it. Nothing outside a round."""
    ap = st.ACTION_AP if args.get("ap") is None else int(args["ap"])
    out = {}
    for cid in cids:
        fighting = st.acting(state, cid)
        if fighting is not None:
            st.require_ap(fighting, ap)
            out[cid] = ap
    return out


def _leaders(totals: list[int]) -> list[int]:
    """The sides with the highest total (one: it wins; more: they are tied)."""
    top = max(totals)
    return [i for i, total in enumerate(totals) if total == top]


def _one_draw(state: Mapping[str, Any], cards: Cards) -> tuple[list[str], int]:
    """One card, and "if a single card was used and it is a King" another added."""
    drawn = resolution.draw_all_or_nothing(cards, 1, source=decks.for_rules(state, cards))
    tokens = [*drawn.cards, *([drawn.extra] if drawn.extra else [])]
    return tokens, drawn.values[0] + (drawn.extra_value or 0)


def opposed(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: "each drawing a single card from the Minor Arcana deck and adding their
    appropriate skill and attribute ... with the higher result being successful. If this
    results in a tie, then both sides draw an additional card, continuing to do so until one
    side succeeds."

    Readings: an opposed action uses "the same basic mechanic", so a King draws another card
    and a Queen earns a Major Arcana; the fumble band belongs to the complexity table, which
    an opposed action has none of, so there is no fumble. A tie's additional cards are added
    to each side's total (so the tie is broken by the higher new card). Counters declared
    against a side work on its first card. ``sides``: two characters or more (the parser's:
    each once): "two or more people trying to argue a point"; with more than two, only the
    sides tied for the lead draw again."""
    cards = turn.cards
    sides = [_assisted(state, _side(state, s, turn), turn) for s in args["sides"]]
    holders = [access.holder(turn, side["id"]) for side in sides]
    spent = costs(state, [s["id"] for s in sides], args)  # in a round, like any action
    every = range(len(sides))
    draws: list[list[list[str]]] = [[] for _ in every]
    totals = [s["modifier"] for s in sides]
    counters: list[list[dict[str, Any]]] = [[] for _ in every]
    for i in every:
        tokens, worth = _one_draw(state, cards)
        draws[i].append(tokens)
        totals[i] += worth
        counters[i] = counters_against(state, sides[i]["id"], deck.value(tokens[0]), cards)
        totals[i] -= sum(c["reduction"] for c in counters[i])
    ties = 0
    # Reading (more than two sides): only the sides tied for the lead draw again; the rest are out
    while len(leaders := _leaders(totals)) > 1 and ties < MAX_TIE_DRAWS:
        ties += 1
        for i in leaders:
            tokens, worth = _one_draw(state, cards)
            draws[i].append(tokens)
            totals[i] += worth
    leaders = _leaders(totals)
    winner = leaders[0] if len(leaders) == 1 else None
    check_id = st.new_id(state)
    events: list[Event] = [{
        "type": "opposed_resolved", "id": check_id, "sides": sides, "draws": draws,
        "counters": counters, "totals": totals, "ties": ties, "ap": spent,
        "winner": None if winner is None else sides[winner]["id"],
        **_shown_sides(sides), **_help_used(sides),
    }]
    for i in every:
        if deck.value(draws[i][0][0]) == deck.QUEEN:
            kept = major_for(sides[i], holders[i], cards, check_id)
            events.extend([kept] if kept is not None else [])
    return events


def counter(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed: "the player simply lets the GM know that they want to "counter" or "distract"";
    in a combat round it "results in a delay of one Action Point (or more, if the GM deems it
    appropriate". The GM names the suits that count as appropriate ("the decision of the GM
    being final"); the counter card is drawn when the target next acts. ``combatant`` counters
    ``target`` (two characters, the parser's), ``suits`` are suits of the Minor Arcana."""
    counterer, target = str(args["combatant"]), str(args["target"])
    ap = 0
    fighting = st.acting(state, counterer)
    if (person := st.in_combat(state, counterer)) is not None:
        st.require_standing(person)
    if fighting is not None:
        ap = st.ACTION_AP if args.get("ap") is None else int(args["ap"])
        st.require_ap(fighting, ap)
    event: Event = {"type": "counter_declared", "id": st.new_id(state), "counterer": counterer,
                    "target": target, "suits": sorted(set(args["suits"])), "ap": ap,
                    "names": {cid: name_of(state, turn, cid) for cid in (counterer, target)}}
    if person is not None:
        # declared in a round: it lapses at the round's end (events.py), used or not
        event["round"] = st.combat(state)["round"]
        event.update(_active_dodge(state, target, event["suits"], turn.cards))
    return [event]


def _active_dodge(state: Mapping[str, Any], target: str, suits: list[str], cards: Cards) -> dict[str, Any]:
    """Seed: a counter "can also be used in combat as an Active Dodge". Decided reading:
    declared against an attack before it resolves, it draws its card at once and lowers that
    attack's value. Reading: the "card draw for the action being performed" by an
    attacker is its attack card (the first played, the one whose suit and face count). Nothing
    when ``target`` has no attack waiting: the counter then waits for its next action this round."""
    pending = (state.get("combat") or {}).get("pending")
    if not pending or pending["attacker"] != target:
        return {}
    lead = deck.value(pending["cards"][0])
    [card] = cards.draw(decks.for_rules(state, cards), 1, to="discard")
    return {"attack": pending["id"], "card": card.token, "attack_card": lead,
            "reduction": resolution.counter_effect(card.token, lead, suits)}


def counters_met(state: Mapping[str, Any], attack: Mapping[str, Any], cards: Cards) -> list[Event]:
    """Counters declared against an attacker before it attacked, met by its attack now. Decided
    reading, "Active Dodge": a counter in combat "lowers that attack's value; an
    unused counter lapses at the end of the round"; declared before its target acts, it waits for
    that target's action in the round (seed: "one person is trying to counter an action being
    performed by someone else"), and an attack is one. Each draws its card now and takes off its
    excess over the attack card, as an Active Dodge does (``_active_dodge``). A fumbled attack
    never comes to be answered: the counters wait for the next action."""
    lead = deck.value(attack["cards"][0])
    out: list[Event] = []
    for counter in state["counters"]:
        if counter["target"] != attack["attacker"]:
            continue
        [card] = cards.draw(decks.for_rules(state, cards), 1, to="discard")
        out.append({"type": "counter_applied", "counter": counter["id"], "counterer": counter["counterer"],
                    "target": counter["target"], "attack": attack["id"], "suits": counter["suits"],
                    "card": card.token, "attack_card": lead,
                    "reduction": resolution.counter_effect(card.token, lead, counter["suits"])})
    return out


def contest_start(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Seed, multi-draw: "the GM [decides] how long the event will continue (how many draws
    are made and keeping track of either the number of "draws" won by each player or the
    total points ...). Or the GM can decide that to win, one opponent has to out-score the
    other by a certain amount ... (it is best of the GM does not let either party know what
    this difference value is". A margin is the GM's secret (``audience``). ``mode`` "draws"
    (with ``draws`` and ``scoring``, wins or points) or "margin" (with ``margin``): the parser's."""
    sides = [_assisted(state, _side(state, s, turn), turn) for s in args["sides"]]
    mode = args["mode"]
    contest: Event = {"type": "contest_started", "id": st.new_id(state), "label": args.get("label", ""),
                      "sides": sides, "mode": mode, "scoring": args["scoring"] if mode == "draws" else "points",
                      **_help_used(sides)}
    if mode == "draws":
        contest["draws"] = int(args["draws"])
    else:
        contest["margin"] = int(args["margin"])
    return [contest]


def contest_draw(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """One draw of a multi-draw action: "each draw indicating who is in the lead for that
    portion of time". Reading: each draw is a single card (a King adds another) plus skill
    and attribute; a tied draw leads nobody; a fixed number of draws that ends level goes on
    draw by draw until one side leads, as an opposed tie does. No Major Arcana: a draw only
    says who leads for a while."""
    contest = state["contests"].get(str(args.get("contest")))
    if contest is None or contest["winner"] is not None:
        raise WrongStep("No such multi-draw action is running.")
    # each draw is an action of both sides: in a round, it costs them AP (reading, issue 25)
    spent = costs(state, [s["id"] for s in contest["sides"]], args)
    hands, totals = [], []
    for side in contest["sides"]:
        tokens, worth = _one_draw(state, turn.cards)
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
             "score": score, "ap": spent,
             "winner": None if winner is None else contest["sides"][winner]["id"]}]


def contest_end(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    contest = state["contests"].get(str(args.get("contest")))
    if contest is None:
        raise WrongStep("No such multi-draw action.")
    return [{"type": "contest_ended", "contest": contest["id"]}]
