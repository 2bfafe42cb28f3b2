"""The state machine: ``decide(state, command, rng, cards) -> events``.

``decide`` checks a command against the rules and the sender, draws whatever cards the
rules call for through the cards port, and returns the events (every card drawn is in
them, as a token); ``events.apply`` folds each event into the state and never draws. A
refusal raises a ``RuleError`` subclass before anything is drawn or changed.

Every command is a dict with ``type`` and ``actor = {"is_gm", "controls", "member",
"name"}`` (the platform's ``Member.actor()``). See ``COMMANDS`` and the package docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.cards_port import Cards
from games.core.rng import Rng
from games.shadows import combat as cb
from games.shadows import criticals as crit
from games.shadows import deck, resolution, weapons
from games.shadows import state as st
from games.shadows.errors import GMOnly, NotEnoughAP, NotInHand, NotYourCharacter, RuleError, WrongStep
from games.shadows.events import apply
from games.shadows.sheet import attribute_value, profile, skill_key, skill_value

Event = dict[str, Any]
Command = Mapping[str, Any]

# Reading: the seed leaves each action's AP cost "as specified elsewhere"; an attack costs
# its weapon's AP (1 unless the GM's table says more), any other action in a round 1 AP
# unless the GM says otherwise (as a counter: "one Action Point (or more, if the GM deems
# it appropriate)").
ACTION_AP = 1
MAX_REDEAL = 3
# Ties in an opposed action "draw an additional card, continuing to do so until one side
# succeeds"; past this many the GM is asked to decide (decks are finite).
MAX_TIE_DRAWS = 20


@dataclass(frozen=True)
class Actor:
    is_gm: bool
    controls: frozenset[str]
    member: int | None
    name: str

    @classmethod
    def of(cls, command: Command) -> Actor:
        data = command.get("actor")
        if not isinstance(data, Mapping):
            raise RuleError("A command needs its sender (actor).")
        member = data.get("member")
        return cls(bool(data.get("is_gm")), frozenset(map(str, data.get("controls") or ())),
                   member if isinstance(member, int) and not isinstance(member, bool) else None,
                   str(data.get("name") or ""))

    def require_gm(self, what: str) -> None:
        if not self.is_gm:
            raise GMOnly(f"Only the GM can {what}.")

    def require_control(self, cid: str, name: str) -> None:
        """The GM acts for anyone (NPCs, an absent player); a player only for their own."""
        if not (self.is_gm or cid in self.controls):
            raise NotYourCharacter(f"You do not play {name}: you act only for your own character.")


def _int(command: Command, key: str, default: int = 0, *, low: int | None = None,
         high: int | None = None, what: str = "") -> int:
    raw = command.get(key, default)
    if raw in (None, ""):
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int):
        try:
            raw = int(str(raw))
        except ValueError:
            raise RuleError(f"{what or key} is a whole number.") from None
    if (low is not None and raw < low) or (high is not None and raw > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        raise RuleError(f"{what or key} is {span}.")
    return raw


def _tokens(command: Command, key: str) -> list[str]:
    raw = command.get(key) or []
    if isinstance(raw, str):
        raw = [raw]
    tokens = [str(t) for t in raw]
    if len(set(tokens)) != len(tokens):
        raise RuleError("The same card is named twice.")
    for t in tokens:
        if not deck.is_minor(t):
            raise NotInHand(f"{t!r} is not a Minor Arcana card.")
    return tokens


def _from_hand(person: Mapping[str, Any], tokens: Sequence[str]) -> None:
    missing = [t for t in tokens if t not in person["hand"]]
    if missing:
        raise NotInHand(f"{deck.names(missing)} {'is' if len(missing) == 1 else 'are'} not in "
                        f"{person['name']}'s hand.")


def _spend(person: Mapping[str, Any], ap: int) -> None:
    if ap > person["ap"]:
        raise NotEnoughAP(f"{person['name']} has {person['ap']} AP left; that takes {ap}.")


def _person(state: Mapping[str, Any], command: Command) -> dict[str, Any]:
    """The character a command is about: from the combat when it is in one (its AP, hand and
    focus), else from the sheet the command carries (``character``)."""
    raw = command.get("character")
    cid = str(command.get("combatant") or (raw.get("id") if isinstance(raw, Mapping) else "") or "")
    fighting = st.in_combat(state, cid) if cid else None
    if fighting is not None:
        return fighting
    if not isinstance(raw, Mapping):
        raise RuleError("Choose a character.")
    return profile(raw)


def _new_id(state: Mapping[str, Any], events: Sequence[Event] = ()) -> int:
    taken = [e["id"] for e in events if isinstance(e.get("id"), int)]
    return max([state["next_id"], *(i + 1 for i in taken)])


def _holder(state: Mapping[str, Any], person: Mapping[str, Any], actor: Actor) -> int:
    """Whose hand a character's cards go to: its player's, or the GM's for an NPC."""
    for member in (person.get("owner"), state.get("gm_member") if not person.get("owner") else None,
                   actor.member):
        if isinstance(member, int):
            return member
    raise RuleError("Nobody at the table can hold those cards.")


# ----------------------------------------------------------------- outside combat


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


def check(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """An all-or-nothing action: one card or three, "decided before any the process is
    started"; during a combat round it costs AP and may play cards from the hand."""
    person = _person(state, command)
    actor.require_control(person["id"], person["name"])
    level = resolution.complexity(str(command.get("complexity", "normal")))
    count = _int(command, "cards", 1, what="The number of cards")
    if count not in (1, 3):
        raise RuleError("Draw one card or three: it is decided before drawing.")
    skill = str(command.get("skill") or "")
    attribute = str(command.get("attribute") or "")
    skill_v, attribute_v = skill_value(person, skill), attribute_value(person, attribute)
    modifier = _int(command, "modifier", 0, low=-50, high=50, what="The modifier")
    if modifier and not actor.is_gm:
        raise GMOnly("Only the GM adds a modifier to a check.")
    helpers = _helpers(state, command, actor, person, skill)
    assist = resolution.assistance([h["skill"] for h in helpers])
    fighting = st.acting(state, person["id"])
    chosen = _tokens(command, "from_hand")
    ap, off = 0, 0
    if fighting is not None:
        ap = _int(command, "ap", ACTION_AP, low=0, high=13, what="The AP")
        if ap != ACTION_AP and not actor.is_gm:
            raise GMOnly("Only the GM changes what an action costs.")
        _spend(fighting, ap)
        off = cb.off_focus(fighting["focus"], cb.category_of(attribute))
        if chosen:
            _from_hand(fighting, chosen)
    elif chosen:
        raise WrongStep("Cards come from a hand only during a combat round, once dealt.")
    holder = _holder(state, person, actor)  # before any card moves: a refusal draws nothing
    drawn = resolution.draw_all_or_nothing(cards, count, chosen=chosen)
    total_modifier = skill_v + attribute_v + assist + modifier + off
    judged = resolution.judge(drawn.values, drawn.extra_value, total_modifier, level)
    counters = _counters(state, person["id"], judged.drawn, cards)
    reduction = sum(c["reduction"] for c in counters)
    total = judged.total - reduction
    outcome = judged.band if judged.fumble else resolution.band(total, level)
    check_id = _new_id(state)
    event: Event = {
        "type": "check_made", "id": check_id, "combatant": person["id"], "name": person["name"],
        "complexity": level.key, "count": count, "cards": list(drawn.cards), "extra": drawn.extra,
        "from_hand": bool(chosen), "drawn": judged.drawn, "skill": skill_key(skill) if skill else "",
        "skill_value": skill_v, "attribute": attribute, "attribute_value": attribute_v,
        "helpers": helpers, "assistance": assist, "modifier": modifier, "off_focus": off,
        "counters": counters, "reduction": reduction, "total": total, "band": outcome,
        "ap": ap, "queen": judged.queen,
    }
    events = [event]
    if judged.queen:
        events.append(_major_for(state, person, holder, cards, check_id))
    if outcome == resolution.FUMBLE:
        events.append(_guide(state, person, actor, cards, check_id, check_id + 1))
    return events


def _helpers(state: Mapping[str, Any], command: Command, actor: Actor, person: Mapping[str, Any],
             skill: str) -> list[dict[str, Any]]:
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
    if not actor.is_gm:
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
    return [{"type": "help_approved", "combatant": cid, "helpers": helpers, "names": _names(command)}]


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
    holders = [_holder(state, side, actor) for side in sides]
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
    check_id = _new_id(state)
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
        ap = _int(command, "ap", ACTION_AP, low=1, high=13, what="The AP")
        _spend(fighting, ap)
    return [{"type": "counter_declared", "id": _new_id(state), "counterer": counterer,
             "target": target, "suits": sorted(set(suits)), "ap": ap, "names": _names(command)}]


def _names(command: Command) -> dict[str, str]:
    """Display names a parser sends along ({cid: name}), for the log's lines."""
    raw = command.get("names") or {}
    return {str(k): str(v)[:60] for k, v in raw.items()} if isinstance(raw, Mapping) else {}


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
    contest: Event = {"type": "contest_started", "id": _new_id(state), "label": str(command.get("label") or "")[:80],
                      "sides": sides, "mode": mode, "scoring": scoring if mode == "draws" else "points"}
    if mode == "draws":
        contest["draws"] = _int(command, "draws", 3, low=1, high=50, what="The number of draws")
    else:
        contest["margin"] = _int(command, "margin", 10, low=1, high=500, what="The margin")
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


# ----------------------------------------------------------------- combat


def _fresh(person: Mapping[str, Any]) -> dict[str, Any]:
    ap = cb.action_points(person["attributes"]["quickness"])
    return {**person, "focus": None, "ap": ap, "ap_max": ap, "hand": [], "dealt": False,
            "redealt": False, "actions": 0, "in_fight": True}


def start_combat(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("start a combat")
    if state.get("combat"):
        raise WrongStep("A combat is already under way; end it first.")
    raw = command.get("combatants") or []
    if not raw:
        raise RuleError("Choose who is in the combat.")
    people = {}
    for item in raw:
        person = _fresh(profile(item))
        if person["id"] in people:
            raise RuleError(f"{person['name']} is named twice.")
        people[person["id"]] = person
    return [{"type": "combat_started", "combatants": people, "order": st.order_of(people),
             "names": {cid: p["name"] for cid, p in people.items()}},
            {"type": "round_started", "round": 1}]


def add_combatant(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("add someone to the combat")
    fight = st.combat(state)
    person = _fresh(profile(command.get("character") or {}))
    if person["id"] in fight["combatants"]:
        raise RuleError(f"{person['name']} is already in the combat.")
    people = {**fight["combatants"], person["id"]: person}
    return [{"type": "combatant_added", "combatant": person, "name": person["name"],
             "order": st.order_of(people)}]


def new_round(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Each round the GM gathers the Minor Arcana, shuffles, and deals again (seed: "combat
    is handled by the GM shuffling the Minor Arcana and dealing out a number of cards")."""
    actor.require_gm("start the next round")
    fight = st.combat(state)
    if fight["pending"]:
        raise WrongStep("An attack is waiting for its defence; resolve it first.")
    return [{"type": "round_started", "round": fight["round"] + 1}]


def declare_focus(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    person = st.fighter(state, command.get("combatant"))
    actor.require_control(person["id"], person["name"])
    if person["dealt"]:
        raise WrongStep(f"{person['name']}'s cards are dealt: the focus holds for the round.")
    focus = str(command.get("focus") or "")
    if focus not in cb.FOCI:
        raise RuleError("The focus is Physical, Mental or Spiritual.")
    return [{"type": "focus_declared", "combatant": person["id"], "focus": focus,
             "size": cb.hand_size(person["attributes"], focus)}]


def deal(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The GM deals each combatant "a number of cards ... based on that player's appropriate
    combat Attributes for their stated focus", face down into its player's hand (the GM's,
    for an NPC). At a round's first deal the whole Minor Arcana must be back in the deck
    (the GM gathers and shuffles it: the deck's Recall does both)."""
    actor.require_gm("deal the hands")
    fight = st.combat(state)
    waiting = [fight["combatants"][cid] for cid in fight["order"]
               if fight["combatants"][cid]["in_fight"] and not fight["combatants"][cid]["dealt"]]
    if not waiting:
        raise WrongStep("Every hand is dealt for this round.")
    undecided = [p["name"] for p in waiting if p["focus"] is None]
    if undecided:
        raise WrongStep("Waiting for a focus from " + ", ".join(undecided) + ".")
    if not any(p["dealt"] for p in fight["combatants"].values()):
        out = 56 - len(cards.left(deck.MINOR))
        if out > 0:
            raise WrongStep(f"Gather and shuffle the Minor Arcana first: {out} of its cards are "
                            "still out (Recall on the deck gathers and shuffles).")
    holders = [person["owner"] if isinstance(person.get("owner"), int) else actor.member for person in waiting]
    if None in holders:
        raise RuleError("The GM must be seated to hold an NPC's hand.")
    events: list[Event] = []
    for person, holder in zip(waiting, holders):
        size = cb.hand_size(person["attributes"], person["focus"])
        dealt = [c.token for c in cards.draw(deck.MINOR, size, to="hand", holder=holder)] if size else []
        events.append({"type": "hand_dealt", "combatant": person["id"], "focus": person["focus"],
                       "count": len(dealt), "holder": holder, "cards": dealt})
    return events


def redeal(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Seed: "Each player has the option to have their character forego their first AP of
    action and instead discard and be re-dealt up to three cards"."""
    person = st.fighter(state, command.get("combatant"))
    actor.require_control(person["id"], person["name"])
    if not person["dealt"]:
        raise WrongStep(f"{person['name']} has no hand yet.")
    if person["redealt"] or person["actions"] or person["ap"] != person["ap_max"]:
        raise WrongStep("Only the first AP of the round can be given up to be re-dealt.")
    tokens = _tokens(command, "cards")
    if not 1 <= len(tokens) <= MAX_REDEAL:
        raise RuleError("Discard one to three cards to be re-dealt.")
    _from_hand(person, tokens)
    _spend(person, 1)
    holder = person["owner"] if isinstance(person.get("owner"), int) else (state.get("gm_member") or actor.member)
    if holder is None:
        raise RuleError("The GM must be seated to hold an NPC's hand.")
    drawn = [c.token for c in cards.draw(deck.MINOR, len(tokens), to="hand", holder=holder)]
    return [{"type": "redealt", "combatant": person["id"], "count": len(tokens), "discarded": tokens,
             "drawn": drawn, "holder": holder}]


def attack(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """An attack spends AP and plays cards from the hand (seed: "Some actions can utilize
    additional AP's ... to add additional cards to their "Action". Likewise, it is also
    possible to use extra cards without any extra AP cost to indicate extra "effort" ...
    however when doing this only non-face-cards can be used for any of the cards used for
    that Action").

    ``cards``: the attack card first (its suit and face decide damage and criticals; the
    others add their values), ``ap``: the AP spent, at least the weapon's cost; each AP beyond
    it pays for one more card, and cards beyond those are extra effort. An Ace as the attack
    card is a possible fumble: "an additional Minor Arcana card is immediately drawn and
    compared to the Fumble value"."""
    fight = st.combat(state)
    if fight["phase"] != "acting":
        raise WrongStep("Deal the hands before anyone attacks.")
    if fight["pending"]:
        raise WrongStep("An attack is waiting for its defence; resolve it first.")
    me = st.fighter(state, command.get("combatant"))
    actor.require_control(me["id"], me["name"])
    if not me["dealt"] or not me["in_fight"]:
        raise WrongStep(f"{me['name']} has no hand to attack with.")
    target = st.fighter(state, command.get("target"))
    if target["id"] == me["id"] or not target["in_fight"]:
        raise RuleError("Choose someone else in the fight to attack.")
    weapon = weapons.find(state["weapons"], str(command.get("weapon") or ""))
    tokens = _tokens(command, "cards")
    if not tokens:
        raise RuleError("Play a card from the hand to attack.")
    _from_hand(me, tokens)
    ap = _int(command, "ap", weapon["ap"], low=1, high=13, what="The AP")
    if ap < weapon["ap"]:
        raise NotEnoughAP(f"An attack with {weapon['name']} costs {weapon['ap']} AP.")
    _spend(me, ap)
    paid = 1 + ap - weapon["ap"]
    if len(tokens) < paid:
        raise RuleError(f"{ap} AP pays for {paid} cards: play them, or spend less.")
    effort = len(tokens) > paid
    if effort and any(deck.is_face(t) for t in tokens):
        raise RuleError("Extra cards without AP are extra effort: then no card of the attack may be "
                        "a face card.")
    skill = str(command.get("skill") or "")
    skill_v = skill_value(me, skill)
    accuracy = int(me["skills"].get("accuracy", 0)) if command.get("accuracy") else 0
    off = cb.off_focus(me["focus"], cb.ATTACK_FOCUS[weapon["type"]])
    modifier = _int(command, "modifier", 0, low=-50, high=50, what="The modifier")
    if modifier and not actor.is_gm:
        raise GMOnly("Only the GM adds a modifier to an attack.")
    event: Event = {
        "type": "attack_declared", "id": _new_id(state), "attacker": me["id"], "target": target["id"],
        "weapon": weapon, "cards": tokens, "ap": ap, "extra_effort": effort,
        "skill": skill_key(skill) if skill else "", "skill_value": skill_v, "accuracy": accuracy,
        "off_focus": off, "modifier": modifier,
        "value": sum(deck.value(t) for t in tokens) + skill_v + off + modifier,
        "fumble": None,
    }
    if deck.value(tokens[0]) <= cb.COMBAT_FUMBLE_TOP:
        [extra] = cards.draw(deck.MINOR, 1, to="discard")
        event["fumble"] = {"card": extra.token, "fumble_value": weapon["fumble"],
                           "fumbled": cb.combat_fumble(extra.token, weapon["fumble"])}
    return [event]


def set_cover(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("set cover or movement")
    pending = st.combat(state)["pending"]
    if not pending:
        raise WrongStep("No attack is waiting for its defence.")
    cover = _int(command, "cover", 0, what="Cover")
    movement = _int(command, "movement", 0, what="Movement")
    cb.cover_bonus(cover, movement)
    return [{"type": "cover_set", "attack": pending["id"], "cover": cover, "movement": movement}]


def defend(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The target answers the attack: no active defence, or dodge/parry cards "for each AP
    they are willing to spend or forfeit, up to a maximum of the AP's spent by the attacker";
    then the attack resolves (damage, its modifier and any critical chain are drawn)."""
    fight = st.combat(state)
    pending = fight["pending"]
    if not pending:
        raise WrongStep("No attack is waiting for a defence.")
    me = st.fighter(state, pending["target"])
    if str(command.get("combatant") or me["id"]) != me["id"]:
        raise RuleError(f"The attack is on {me['name']}: only they defend.")
    actor.require_control(me["id"], me["name"])
    tokens = _tokens(command, "cards")
    if len(tokens) > pending["ap"]:
        raise RuleError(f"At most {pending['ap']} defence cards: one for each AP the attacker spent.")
    _from_hand(me, tokens)
    _spend(me, len(tokens))
    defended: Event = {"type": "defended", "attack": pending["id"], "combatant": me["id"],
                       "cards": tokens, "ap": len(tokens)}
    return [defended, _resolve(state, pending, me, tokens, cards)]


def _resolve(state: Mapping[str, Any], pending: Mapping[str, Any], target: Mapping[str, Any],
             defence_cards: Sequence[str], cards: Cards) -> Event:
    weapon = pending["weapon"]
    kind = weapon["type"]
    bonus = cb.cover_bonus(pending.get("cover", 0), pending.get("movement", 0), pending["accuracy"])
    guard = cb.defence(kind, target["attributes"], bonus=bonus, protection=target["protection"],
                       cards=defence_cards, focus=target["focus"])
    raw = pending["value"] - guard.total
    lead = pending["cards"][0]
    result: Event = {
        "type": "attack_resolved", "attack": pending["id"], "attacker": pending["attacker"],
        "target": target["id"], "weapon": weapon["name"], "attack_type": kind,
        "value": pending["value"], "defence": guard.to_dict(), "raw": raw, "hit": cb.is_hit(raw),
        "suit_match": deck.suit(lead) == cb.ATTACK_SUIT[kind], "base": 0,
        "modifier": None, "chain": [], "critical": None, "critical_prevented": False,
        "total": 0, "damage": 0, "notes": [], "tracks": {}, "criticals": [],
    }
    if not result["hit"]:
        return result
    base = cb.base_damage(raw, lead, kind)
    code = weapon["modifier"]
    drawn = [c.token for c in cards.draw(deck.MINOR, cb.modifier_cards(code), to="discard")] \
        if cb.modifier_cards(code) else []
    added = cb.modifier_value(code, [deck.value(t) for t in drawn])
    result["base"] = base
    result["modifier"] = {"code": code, "cards": drawn, "value": added}
    total = base + added
    if deck.is_face(lead):
        if cb.critical_starts(lead, defence_cards):
            level = 0
            while True:
                level += 1
                [card] = cards.draw(deck.MINOR, 1, to="discard")
                step = cb.chain_step(level, card.token, weapon["critical"])
                result["chain"].append(step)
                total += step["value"]
                if step["kind"] == cb.MAJOR_CRITICAL:
                    c = deck.card(card.token)
                    result["criticals"].append({"card": card.token, "suit": c.suit, "value": c.value,
                                                "effect": crit.effect(state["criticals"], c.suit, c.value)})
                if not step["continues"]:
                    break
            result["critical"] = "major" if any(s["kind"] == cb.MAJOR_CRITICAL for s in result["chain"]) \
                else "minor"
        else:
            result["critical_prevented"] = True
    result["total"] = total
    kinds = [kind, *[m.strip() for m in weapon.get("material", "").split(",")]]
    damage, notes = cb.protected(total, armour=target["armour"], kinds=kinds,
                                 vulnerabilities=target["vulnerabilities"],
                                 resistances=target["resistances"], immunities=target["immunities"])
    result["damage"] = damage
    result["notes"] = notes
    result["tracks"] = cb.tracks_hit(damage, kind, weapon["modern"]) if damage else {}
    return result


def announce_critical(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The GM's critical results are "a surprise to the players": seen by the GM alone until
    the GM announces one (with the words the GM chooses, by default the table's)."""
    actor.require_gm("announce a critical")
    fight = st.combat(state)
    waiting = [c for c in fight["criticals"] if not c["announced"]]
    wanted = command.get("critical")
    chosen = next((c for c in waiting if wanted in (None, "") or str(c["index"]) == str(wanted)), None)
    if chosen is None:
        raise WrongStep("No critical is waiting to be announced.")
    text = str(command.get("text") or chosen["effect"]).strip()[:300]
    return [{"type": "critical_announced", "index": chosen["index"], "attack": chosen["attack"],
             "target": chosen["target"], "card": chosen["card"], "effect": text}]


def set_weapons(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("edit the weapon table")
    return [{"type": "weapons_set", "weapons": weapons.check_table(command.get("weapons") or [])}]


def set_criticals(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("edit the critical tables")
    return [{"type": "criticals_set", "tables": crit.check_tables(command.get("tables"))}]


ADJUSTABLE = ("ap", "health", "life", "aessence", "in_fight")


def adjust(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """The GM corrects a combatant: AP left, Health, Life, Æssence, or in/out of the fight."""
    actor.require_gm("correct a combatant")
    person = st.fighter(state, command.get("combatant"))
    field = str(command.get("field") or "")
    if field not in ADJUSTABLE:
        raise RuleError("Correct AP, Health, Life, Æssence or in the fight.")
    if field == "in_fight":
        value: Any = bool(command.get("value"))
    else:
        value = _int(command, "value", 0, low=0 if field == "ap" else -999, high=999, what=field)
    return [{"type": "adjusted", "combatant": person["id"], "field": field, "value": value}]


def end_combat(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("end the combat")
    fight = st.combat(state)
    return [{"type": "combat_ended", "round": fight["round"],
             "tracks": {cid: {t: p[t] for t in ("health", "life", "aessence")}
                        for cid, p in fight["combatants"].items()}}]


Handler = Callable[[Mapping[str, Any], Command, Actor, Rng, Cards], list[Event]]

COMMANDS: dict[str, Handler] = {
    "check": check,
    "approve_help": approve_help,
    "opposed": opposed,
    "counter": counter,
    "contest_start": contest_start,
    "contest_draw": contest_draw,
    "contest_end": contest_end,
    "draw_guide": draw_guide,
    "show_guide": show_guide,
    "spend_arcana": spend_arcana,
    "end_session": end_session,
    "start_combat": start_combat,
    "add_combatant": add_combatant,
    "new_round": new_round,
    "declare_focus": declare_focus,
    "deal": deal,
    "redeal": redeal,
    "attack": attack,
    "set_cover": set_cover,
    "defend": defend,
    "announce_critical": announce_critical,
    "set_weapons": set_weapons,
    "set_criticals": set_criticals,
    "adjust": adjust,
    "end_combat": end_combat,
}


def decide(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> list[Event]:
    """The events ``command`` causes; ``RuleError`` (a subclass) if the rules refuse it."""
    handler = COMMANDS.get(str(command.get("type", "")))
    if handler is None:
        raise RuleError(f"No command called {command.get('type')!r}.")
    actor = Actor.of(command)
    events = handler(state, command, actor, rng, cards)
    if actor.is_gm and actor.member is not None and state.get("gm_member") != actor.member and events:
        events[0] = {**events[0], "gm_member": actor.member}
    return events


def run(state: Mapping[str, Any], command: Command, rng: Rng, cards: Cards) -> tuple[dict[str, Any], list[Event]]:
    """``decide`` then ``apply`` each event: the new state and the events."""
    events = decide(state, command, rng, cards)
    new = dict(state)
    for event in events:
        new = apply(new, event)
    return new, events
