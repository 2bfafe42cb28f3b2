"""Commands outside combat (they may happen during a round too): all-or-nothing checks,
assistance, opposed and multi-draw actions, counters, fumble guides and held Major Arcana."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import combat as cb
from games.shadows import deck, resolution
from games.shadows import state as st
from games.shadows.actor import (
    ACTION_AP, MAX_TIE_DRAWS, Actor, Command, Event, holder_of, names_of, new_id, person_of,
    play_from_hand, require_ap, require_in_hand, tokens_of, whole,
)
from games.shadows.errors import GMOnly, NotInHand, RuleError, WrongStep
from games.shadows.sheet import attribute_value, profile, skill_key, skill_value


def _counters(state: Mapping[str, Any], cid: str, drawn_value: int, cards: Cards) -> list[dict[str, Any]]:
    """Counters declared against ``cid``: each draws one card now and takes off its excess."""
    out = []
    for counter in state["counters"]:
        if counter["target"] != cid:
            continue
        [card] = cards.draw(deck.MINOR, 1, to="discard")
        out.append({"id": counter["id"], "counterer": counter["counterer"], "card": card.token,
                    "suits": counter["suits"],
                    "reduction": resolution.counter_effect(card.token, drawn_value, counter["suits"])})
    return out


def _major_for(state: Mapping[str, Any], person: Mapping[str, Any], holder: int, cards: Cards,
               check_id: int) -> Event:
    """Seed: on a Queen "the character can also draw a card from the Major Arcana deck, which
    can be used from a story perspective". It goes to the hand of whoever plays the
    character (the GM for an NPC), and the sheet shows it."""
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=holder)
    return {"type": "major_arcana_kept", "check": check_id, "combatant": person["id"],
            "name": person["name"], "card": arcanum.token, "holder": holder}


def _guide(state: Mapping[str, Any], person: Mapping[str, Any], actor: Actor, cards: Cards,
           check_id: int, guide_id: int) -> Event:
    """Seed: on a fumble "the skill check automatically fails and the GM draws a Major Arcana
    card, which is then used as a guide as to what the failing results of the attempt are".
    It goes to the GM's hand (the GM's eyes only, until the GM shows it); if the engine does
    not yet know who the GM is, it waits for the GM's "draw the guide"."""
    gm = actor.member if actor.is_gm else state.get("gm_member")
    if not isinstance(gm, int):
        return {"type": "guide_pending", "id": guide_id, "check": check_id, "combatant": person["id"]}
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=gm)
    return {"type": "guide_drawn", "id": guide_id, "check": check_id, "combatant": person["id"],
            "card": arcanum.token, "holder": gm}


def _setup(state: Mapping[str, Any], command: Command, actor: Actor, *, trusted: bool = False) -> dict[str, Any]:
    """What an all-or-nothing action adds to the card: the character, its skill and attribute,
    the complexity, assistance, the GM's modifier and, in a round, the -3 off focus.
    ``trusted``: a check the GM or the player already set up (``prepare_check``), whose GM-only
    parts were checked then."""
    person = person_of(state, command)
    actor.require_control(person["id"], person["name"])
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
             "inputs": {k: command[k] for k in _INPUTS if k in command}}]


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
        play_from_hand(cards, fighting, chosen)  # face up from the real hand
    drawn = resolution.draw_all_or_nothing(cards, count, chosen=chosen)
    judged = resolution.judge(drawn.values, drawn.extra_value, setup["total"], level)
    counters = _counters(state, person["id"], judged.drawn, cards)
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
    }
    events = [event]
    if judged.queen:
        events.append(_major_for(state, person, holder, cards, check_id))
    if outcome == resolution.FUMBLE:
        events.append(_guide(state, person, actor, cards, check_id, check_id + 1))
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


def _side(state: Mapping[str, Any], raw: Any, actor: Actor) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise RuleError("Each side needs a character, a skill and an attribute.")
    person = st.in_combat(state, str((raw.get("character") or {}).get("id", ""))) or profile(raw.get("character") or {})
    skill = str(raw.get("skill") or "")
    attribute = str(raw.get("attribute") or "")
    fighting = st.acting(state, person["id"])
    off = cb.off_focus(fighting["focus"], cb.category_of(attribute)) if fighting else 0
    return {"id": person["id"], "name": person["name"], "owner": person.get("owner"),
            "skill": skill_key(skill) if skill else "", "attribute": attribute,
            "modifier": skill_value(person, skill) + attribute_value(person, attribute) + off,
            "off_focus": off}


def _one_draw(cards: Cards) -> tuple[list[str], int]:
    """One card, and "if a single card was used and it is a King" another added."""
    drawn = resolution.draw_all_or_nothing(cards, 1)
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
        tokens, worth = _one_draw(cards)
        draws[i].append(tokens)
        firsts.append(deck.value(tokens[0]))
        totals[i] += worth
        counters[i] = _counters(state, sides[i]["id"], firsts[i], cards)
        totals[i] -= sum(c["reduction"] for c in counters[i])
    ties = 0
    while resolution.opposed_winner(*totals) is None and ties < MAX_TIE_DRAWS:
        ties += 1
        for i in (0, 1):
            tokens, worth = _one_draw(cards)
            draws[i].append(tokens)
            totals[i] += worth
    winner = resolution.opposed_winner(*totals)
    check_id = new_id(state)
    events: list[Event] = [{
        "type": "opposed_resolved", "id": check_id, "sides": sides, "draws": draws,
        "counters": counters, "totals": totals, "ties": ties,
        "winner": None if winner is None else sides[winner]["id"],
    }]
    for i in (0, 1):
        if deck.value(draws[i][0][0]) == deck.QUEEN:
            events.append(_major_for(state, sides[i], holders[i], cards, check_id))
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
        tokens, worth = _one_draw(cards)
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


def draw_guide(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("draw a fumble's guide")
    guide = _find_guide(state, command)
    if guide["card"] is not None:
        raise WrongStep("That guide is already drawn.")
    if actor.member is None:
        raise RuleError("The guide goes to the GM's hand; the GM must be seated.")
    [arcanum] = cards.draw(deck.MAJOR, 1, to="hand", holder=actor.member)
    return [{"type": "guide_drawn", "id": guide["id"], "check": guide["check"],
             "combatant": guide["combatant"], "card": arcanum.token, "holder": actor.member}]


def show_guide(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The GM "chooses whether to show it" (issue 16): shown, it is public with its meaning."""
    actor.require_gm("show a fumble's guide")
    guide = _find_guide(state, command)
    if guide["card"] is None:
        raise WrongStep("Draw the guide first.")
    if guide["shown"]:
        raise WrongStep("That guide is already shown.")
    return [{"type": "guide_shown", "id": guide["id"], "combatant": guide["combatant"],
             "card": guide["card"], "meaning": deck.meaning(guide["card"])}]


def _find_guide(state: Mapping[str, Any], command: Command) -> dict[str, Any]:
    wanted = command.get("guide")
    guides = state["guides"]
    if wanted in (None, "") and guides:
        return guides[-1]
    for guide in guides:
        if str(guide["id"]) == str(wanted):
            return guide
    raise WrongStep("No such fumble guide.")


def spend_arcana(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "Characters can choose to use the meaning of a Major Arcana card at any time to
    influence the environment or story as Fate or Destiny intervening on their behalf ...
    based off of the standard or inverted (players choice) meaning ... pending GM's approval"."""
    cid = str(command.get("combatant") or "")
    name = state["names"].get(cid, cid)
    actor.require_control(cid, name)
    token = str(command.get("card") or "")
    held = state["held"].get(cid, [])
    match = next((t for t in held if deck.bare(t) == deck.bare(token)), None)
    if match is None:
        raise NotInHand(f"{name} does not hold that Major Arcana card.")
    flipped = bool(command.get("reversed"))
    return [{"type": "arcana_spent", "combatant": cid, "name": name, "card": match,
             "reversed": flipped, "meaning": deck.meaning(deck.bare(match), flipped)}]


def end_session(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "The GM may allow for up to one Major Arcana to be carried over into the next
    session". ``keep`` maps a character to the one card it keeps (if any)."""
    actor.require_gm("end the session")
    keep = command.get("keep") or {}
    kept: dict[str, str] = {}
    for cid, token in keep.items():
        if not token:
            continue
        held = state["held"].get(str(cid), [])
        match = next((t for t in held if deck.bare(t) == deck.bare(str(token))), None)
        if match is None:
            raise NotInHand(f"{state['names'].get(str(cid), cid)} does not hold that card.")
        kept[str(cid)] = match
    dropped = {cid: [t for t in held if t != kept.get(cid)] for cid, held in state["held"].items()}
    return [{"type": "session_ended", "kept": kept, "dropped": {c: d for c, d in dropped.items() if d}}]
