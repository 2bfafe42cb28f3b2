"""Combat moves: a combat's start and end, attacks, defences, damage and criticals (a round's
hands are in ``hands``).

Each handler is ``handle(state, args, turn)`` (games/core/engine.py): who may send it the core
has checked (a combatant's moves name it in ``combatant``); none changes the state it is given.
A combatant enters the fight as the table has it then (``turn.characters``): the fight's record,
which the fight changes (its tracks, AP and hand) and writes back (writeback.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import UnknownDeck
from games.core.engine import Args, Event, RuleError, Turn
from games.shadows import access, assist, deck, decks, weapons
from games.shadows import combat as cb
from games.shadows import state as st
from games.shadows.errors import NotEnoughAP, WrongStep
from games.shadows.hands import play_from_hand, require_in_hand
from games.shadows.conditions import draw_bonus
from games.shadows.contests import counters_met
from games.shadows.hits import resolve
from games.shadows.profile import npc_flag, profile_of, skill_value
from games.shadows.sheet import TRACK_LABELS, skill_key


def _fresh(person: Mapping[str, Any]) -> dict[str, Any]:
    ap = cb.action_points(person["attributes"]["quickness"])
    return {**person, "focus": None, "ap": ap, "ap_max": ap, "hand": [], "dealt": False,
            "redealt": False, "actions": 0, "done": False, "in_fight": True,
            "fallen": st.harm(person)}


def _entering(turn: Turn, cid: str) -> dict[str, Any]:
    """A table's character as it enters the fight: as the table has it now."""
    character = turn.character(cid)
    if character is None:
        raise RuleError(f"No character {cid[:40]!r} at this table.")
    return _fresh(profile_of(character))


def start_combat(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM starts a combat of ``combatants`` (the table's characters, by combatant id),
    quickest first, and its first round."""
    if state.get("combat"):
        raise WrongStep("A combat is already under way; end it first.")
    people = {}
    for cid in args["combatants"]:
        person = _entering(turn, str(cid))
        if person["id"] in people:
            raise RuleError(f"{person['name']} is named twice.")
        people[person["id"]] = person
    return [{"type": "combat_started", "combatants": people, "order": st.order_of(people),
             "names": {cid: p["name"] for cid, p in people.items()}},
            {"type": "round_started", "round": 1}]


def add_combatant(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    fight = st.combat(state)
    person = _entering(turn, str(args["character"]))
    if person["id"] in fight["combatants"]:
        raise RuleError(f"{person['name']} is already in the combat.")
    people = {**fight["combatants"], person["id"]: person}
    return [{"type": "combatant_added", "combatant": person, "name": person["name"],
             "order": st.order_of(people)}]


def _lined_up(state: Mapping[str, Any], args: Args) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The attacker (whom the sender plays), its target and the weapon an attack or an aim names."""
    if st.combat(state)["phase"] != "acting":
        raise WrongStep("Deal the hands before anyone attacks.")
    me = st.fighter(state, args["combatant"])
    st.require_standing(me)
    if not me["dealt"] or not me["in_fight"]:
        raise WrongStep(f"{me['name']} has no hand to attack with.")
    target = st.fighter(state, args["target"])
    if target["id"] == me["id"] or not target["in_fight"]:
        raise RuleError("Choose someone else in the fight to attack.")
    if st.fallen(target):
        raise RuleError(f"{target['name']} is {st.fallen_as_seen(target)}: choose someone still in the fight.")
    return me, target, weapons.find(state["weapons"], str(args.get("weapon") or ""))


def attack(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """An attack spends AP and plays cards from the hand (seed: "Some actions can utilize
    additional AP's ... to add additional cards to their "Action". Likewise, it is also
    possible to use extra cards without any extra AP cost to indicate extra "effort" ...
    however when doing this only non-face-cards can be used for any of the cards used for
    that Action").

    ``cards``: the attack card first (its suit and face decide damage and criticals; the
    others add their values), ``ap``: the AP spent, at least the weapon's cost; each AP beyond
    it pays for one more card, and cards beyond those are extra effort. An Ace among the cards
    played is a possible fumble: "an additional Minor Arcana card is immediately drawn and
    compared to the Fumble value"."""
    cards = turn.cards
    fight = st.combat(state)
    if fight["pending"] and fight["phase"] == "acting":
        raise WrongStep("An attack is waiting for its defence; resolve it first.")
    me, target, weapon = _lined_up(state, args)
    tokens = list(args.get("cards") or ())
    if not tokens:
        raise RuleError("Play a card from the hand to attack.")
    require_in_hand(me, tokens)
    ap = _ap(args, weapon)
    st.require_ap(me, ap)
    paid = 1 + ap - weapon["ap"]
    if len(tokens) < paid:
        raise RuleError(f"{ap} AP pays for {paid} cards: play them, or spend less.")
    effort = len(tokens) > paid
    if effort and any(deck.is_face(t) for t in tokens):
        raise RuleError("Extra cards without AP are extra effort: then no card of the attack may be "
                        "a face card.")
    skill = str(args.get("skill") or "")
    skill_v = skill_value(me, skill)
    accuracy = int(me["skills"].get("accuracy", 0)) if args.get("accuracy") else 0
    off = cb.off_focus(me["focus"], cb.ATTACK_FOCUS[weapon["type"]])
    modifier = int(args.get("modifier") or 0)
    if modifier:
        access.gm_only(turn.member, "Only the GM adds a modifier to an attack.")
    helped = _helped(state, turn, me, skill)
    condition = draw_bonus(state, me["id"])  # a lasting condition on the attacker (conditions.py)
    play_from_hand(cards, me, tokens)
    event: Event = {
        "type": "attack_declared", "id": st.new_id(state), "attacker": me["id"], "target": target["id"],
        "weapon": weapon, "cards": tokens, "ap": ap, "extra_effort": effort,
        "skill": skill_key(skill) if skill else "", "skill_value": skill_v, "accuracy": accuracy,
        "off_focus": off, "modifier": modifier,
        "value": sum(deck.value(t) for t in tokens) + skill_v + off + modifier + condition,
        "fumble": None, **({"condition": condition} if condition else {}), **npc_flag(me),
    }
    event.update(helped)
    event["value"] += helped.get("assistance", 0)
    # an Ace anywhere among the cards played risks it, not only as the attack card (issue 25)
    if any(deck.value(t) <= cb.COMBAT_FUMBLE_TOP for t in tokens):
        [extra] = cards.draw(decks.for_rules(state, cards), 1, to="discard")
        event["fumble"] = {"card": extra.token, "fumble_value": weapon["fumble"],
                           "fumbled": cb.combat_fumble(extra.token, weapon["fumble"])}
        if event["fumble"]["fumbled"]:
            cards.discard(decks.of_hand(me), tokens)  # a fumble is done with its cards at once
            return [event]
    return [event, *counters_met(state, event, cards)]


def _helped(state: Mapping[str, Any], turn: Turn, me: Mapping[str, Any], skill: str) -> dict[str, Any]:
    """The help the GM approved for the attacker's next attempt, added to "the value of the
    attempt" (assist.py), and used up by it; an NPC's help is a figure of its sheet, so the attack's
    own figures are then the GM's (``npc``), as an NPC attacker's are."""
    help_ = assist.approved(state, turn, me, skill)
    if not help_["helpers"]:
        return {}
    return {"assistance": help_["assistance"], "helpers": [{"id": h["id"], "name": h["name"]} for h in help_["helpers"]],
            "help_used": [me["id"]], **({"npc": True} if help_["screened"] else {})}


def _ap(args: Args, weapon: Mapping[str, Any]) -> int:
    """The AP an attack spends: ``ap``, or the weapon's cost; never less than the weapon's."""
    ap = weapon["ap"] if args.get("ap") is None else int(args["ap"])
    if ap < weapon["ap"]:
        raise NotEnoughAP(f"An attack with {weapon['name']} costs {weapon['ap']} AP.")
    return ap


def aim(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """Before playing a card: whom, with what and which skill. Nothing is spent or drawn; the
    panel then shows the chance each attack card gets the damage through (issue 16: "for an
    attack, given the card chosen from the hand, the chance the damage gets through")."""
    me, target, weapon = _lined_up(state, args)
    skill = str(args.get("skill") or "")
    skill_value(me, skill)  # a skill it does not have is refused now, not at the attack
    ap = _ap(args, weapon)
    helped = _helped(state, turn, me, skill)
    return [{"type": "attack_aimed", "attacker": me["id"], "target": target["id"], "weapon": weapon["name"],
             "skill": skill_key(skill) if skill else "", "ap": ap,
             "accuracy": bool(args.get("accuracy")), **npc_flag(me),
             # the help the attack will carry, counted in the odds (an NPC's, the GM's figure, is not)
             **({"assistance": helped["assistance"]} if helped and not helped.get("npc") else {})}]


def end_turn(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """A combatant is done acting for now: the turn passes to whoever is next. It keeps its AP
    and its hand to dodge or parry, and may still act "towards the end of each round" (seed)."""
    fight = st.combat(state)
    if fight["phase"] != "acting":
        raise WrongStep("The round has not started: the hands are not dealt yet.")
    me = st.fighter(state, args["combatant"])
    st.require_standing(me)
    if not me["dealt"] or me.get("done"):
        raise WrongStep(f"{me['name']} is not acting now.")
    return [{"type": "turn_ended", "combatant": me["id"], "ap": me["ap"], **npc_flag(me)}]


def set_cover(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's cover or movement against the attack waiting (``combat.cover_bonus``)."""
    pending = st.combat(state)["pending"]
    if not pending:
        raise WrongStep("No attack is waiting for its defence.")
    cover, movement = int(args.get("cover") or 0), int(args.get("movement") or 0)
    cb.cover_bonus(cover, movement)
    return [{"type": "cover_set", "attack": pending["id"], "cover": cover, "movement": movement}]


def defend(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The target answers the attack: no active defence, or dodge/parry cards "for each AP
    they are willing to spend or forfeit, up to a maximum of the AP's spent by the attacker";
    then the attack resolves (damage, its modifier and any critical chain are drawn).

    The defender is the waiting attack's target, read here under the lock: a move naming
    another (``combatant``) is refused; one naming nobody is the GM's (the core lets a player
    send it only for a character they play)."""
    cards = turn.cards
    fight = st.combat(state)
    pending = fight["pending"]
    if not pending:
        raise WrongStep("No attack is waiting for a defence.")
    me = st.fighter(state, pending["target"])
    if str(args.get("combatant") or me["id"]) != me["id"]:
        raise RuleError(f"The attack is on {me['name']}: only they defend.")
    tokens = list(args.get("cards") or ())
    if tokens:
        # fallen while the attack waited (the GM's correction): it takes the blow, it cannot dodge
        st.require_standing(me)
    if len(tokens) > pending["ap"]:
        raise RuleError(f"At most {pending['ap']} defence cards: one for each AP the attacker spent.")
    require_in_hand(me, tokens)
    st.require_ap(me, len(tokens))
    play_from_hand(cards, me, tokens)
    defended: Event = {"type": "defended", "attack": pending["id"], "combatant": me["id"],
                       "cards": tokens, "ap": len(tokens)}
    resolved = resolve(state, pending, me, tokens, cards)
    # the attack is done with its cards, and the dodge with its own: onto the discard, so that
    # the draw pile refills from them (decks.py)
    cards.discard(decks.of_hand(st.fighter(state, pending["attacker"])), pending["cards"])
    if tokens:
        cards.discard(decks.of_hand(me), tokens)
    return [defended, resolved]


def announce_critical(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM's critical results are "a surprise to the players": seen by the GM alone until
    the GM announces one (with the words the GM chooses, by default the table's)."""
    fight = st.combat(state)
    waiting = [c for c in fight["criticals"] if not c["announced"]]
    wanted = args.get("critical")
    chosen = next((c for c in waiting if wanted in (None, "") or str(c["index"]) == str(wanted)), None)
    if chosen is None:
        raise WrongStep("No critical is waiting to be announced.")
    text = str(args.get("text") or chosen["effect"])
    return [{"type": "critical_announced", "index": chosen["index"], "attack": chosen["attack"],
             "target": chosen["target"], "card": chosen["card"], "effect": text}]


ADJUSTABLE = ("ap", "health", "life", "aessence", "in_fight")


def adjust(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    """The GM corrects a combatant: AP left (0 to its AP for the round), Health, Life or
    Æssence (0 to the whole: a track stops at nothing), or in/out of the fight. Set to nothing,
    it falls at once; set back above nothing, it comes back into the fight at the next round.
    ``field`` is one of ``ADJUSTABLE`` (the parser's)."""
    person = st.fighter(state, args["combatant"])
    field = args["field"]
    value: Any = bool(args["value"])
    if field != "in_fight":
        high, what = ((person["ap_max"], f"{person['name']}'s AP left") if field == "ap" else
                      (person["maxima"][field], f"{person['name']}'s {TRACK_LABELS[field]}"))
        value = int(args["value"] or 0)
        if not 0 <= value <= high:
            raise RuleError(f"{what} is from 0 to {high}.")
    return [{"type": "adjusted", "combatant": person["id"], "field": field, "value": value,
             "was": person[field], **npc_flag(person)}]  # a correction is logged with what it was


def end_combat(state: Mapping[str, Any], args: Args, turn: Turn) -> list[Event]:
    fight = st.combat(state)
    for name in decks.of_fight(state):
        try:
            turn.cards.gather(name)  # the hands of the fight go back into the deck
        except UnknownDeck:
            pass  # a fight that never dealt needs no deck to end
    # a check set up during the fight is called off with it: its moment, and its AP, were the fight's
    called_off = [{"type": "check_cancelled", "combatant": cid, "name": entry["name"], "check": entry["id"],
                   "why": "fight"} for cid, entry in sorted((state.get("prepared") or {}).items())
                  if entry.get("round") is not None]
    return [*called_off, {"type": "combat_ended", "round": fight["round"],
             "tracks": {cid: {t: p[t] for t in ("health", "life", "aessence")}
                        for cid, p in fight["combatants"].items()},
             "whole": {cid: dict(p["maxima"]) for cid, p in fight["combatants"].items()}}]
