"""Combat commands: a combat's start and end, attacks, defences, damage and criticals (a
round's hands are in ``hands``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.cards_port import Cards, UnknownDeck
from games.core.rng import Rng
from games.shadows import combat as cb
from games.shadows import criticals as crit
from games.shadows import deck, decks, weapons
from games.shadows import state as st
from games.shadows.actor import (
    Actor, Command, Event, new_id, npc_flag, play_from_hand, require_ap, require_in_hand, tokens_of, whole,
)
from games.core.engine import RuleError
from games.shadows.errors import GMOnly, NotEnoughAP, WrongStep
from games.shadows.hits import resolve
from games.shadows.profile import profile, skill_value
from games.shadows.sheet import TRACK_LABELS, skill_key


def _fresh(person: Mapping[str, Any]) -> dict[str, Any]:
    ap = cb.action_points(person["attributes"]["quickness"])
    return {**person, "focus": None, "ap": ap, "ap_max": ap, "hand": [], "dealt": False,
            "redealt": False, "actions": 0, "done": False, "in_fight": True,
            "fallen": st.harm(person)}


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


def _lined_up(state: Mapping[str, Any], command: Command, actor: Actor) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The attacker (whom the sender plays), its target and the weapon an attack or an aim names."""
    if st.combat(state)["phase"] != "acting":
        raise WrongStep("Deal the hands before anyone attacks.")
    me = st.fighter(state, command.get("combatant"))
    actor.require_control(me["id"], me["name"])
    st.require_standing(me)
    if not me["dealt"] or not me["in_fight"]:
        raise WrongStep(f"{me['name']} has no hand to attack with.")
    target = st.fighter(state, command.get("target"))
    if target["id"] == me["id"] or not target["in_fight"]:
        raise RuleError("Choose someone else in the fight to attack.")
    if st.fallen(target):
        raise RuleError(f"{target['name']} is {st.fallen_as_seen(target)}: choose someone still in the fight.")
    return me, target, weapons.find(state["weapons"], str(command.get("weapon") or ""))


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
    if fight["pending"] and fight["phase"] == "acting":
        raise WrongStep("An attack is waiting for its defence; resolve it first.")
    me, target, weapon = _lined_up(state, command, actor)
    tokens = tokens_of(command, "cards")
    if not tokens:
        raise RuleError("Play a card from the hand to attack.")
    require_in_hand(me, tokens)
    ap = whole(command, "ap", weapon["ap"], low=1, high=13, what="The AP")
    if ap < weapon["ap"]:
        raise NotEnoughAP(f"An attack with {weapon['name']} costs {weapon['ap']} AP.")
    require_ap(me, ap)
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
    modifier = whole(command, "modifier", 0, low=-50, high=50, what="The modifier")
    if modifier and not actor.is_gm:
        raise GMOnly("Only the GM adds a modifier to an attack.")
    play_from_hand(cards, me, tokens)
    event: Event = {
        "type": "attack_declared", "id": new_id(state), "attacker": me["id"], "target": target["id"],
        "weapon": weapon, "cards": tokens, "ap": ap, "extra_effort": effort,
        "skill": skill_key(skill) if skill else "", "skill_value": skill_v, "accuracy": accuracy,
        "off_focus": off, "modifier": modifier,
        "value": sum(deck.value(t) for t in tokens) + skill_v + off + modifier,
        "fumble": None, **npc_flag(me),
    }
    if deck.value(tokens[0]) <= cb.COMBAT_FUMBLE_TOP:
        [extra] = cards.draw(decks.for_rules(state, cards), 1, to="discard")
        event["fumble"] = {"card": extra.token, "fumble_value": weapon["fumble"],
                           "fumbled": cb.combat_fumble(extra.token, weapon["fumble"])}
        if event["fumble"]["fumbled"]:
            cards.discard(decks.of_hand(me), tokens)  # a fumble is done with its cards at once
    return [event]


def aim(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """Before playing a card: whom, with what and which skill. Nothing is spent or drawn; the
    panel then shows the chance each attack card gets the damage through (issue 16: "for an
    attack, given the card chosen from the hand, the chance the damage gets through")."""
    me, target, weapon = _lined_up(state, command, actor)
    skill = str(command.get("skill") or "")
    skill_value(me, skill)  # a skill it does not have is refused now, not at the attack
    ap = whole(command, "ap", weapon["ap"], low=1, high=13, what="The AP")
    if ap < weapon["ap"]:
        raise NotEnoughAP(f"An attack with {weapon['name']} costs {weapon['ap']} AP.")
    return [{"type": "attack_aimed", "attacker": me["id"], "target": target["id"], "weapon": weapon["name"],
             "skill": skill_key(skill) if skill else "", "ap": ap,
             "accuracy": bool(command.get("accuracy")), **npc_flag(me)}]


def end_turn(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    """A combatant is done acting for now: the turn passes to whoever is next. It keeps its AP
    and its hand to dodge or parry, and may still act "towards the end of each round" (seed)."""
    fight = st.combat(state)
    if fight["phase"] != "acting":
        raise WrongStep("The round has not started: the hands are not dealt yet.")
    me = st.fighter(state, command.get("combatant"))
    actor.require_control(me["id"], me["name"])
    st.require_standing(me)
    if not me["dealt"] or me.get("done"):
        raise WrongStep(f"{me['name']} is not acting now.")
    return [{"type": "turn_ended", "combatant": me["id"], "ap": me["ap"], **npc_flag(me)}]


def set_cover(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("set cover or movement")
    pending = st.combat(state)["pending"]
    if not pending:
        raise WrongStep("No attack is waiting for its defence.")
    cover = whole(command, "cover", 0, what="Cover")
    movement = whole(command, "movement", 0, what="Movement")
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
    tokens = tokens_of(command, "cards")
    if tokens:
        # fallen while the attack waited (the GM's correction): it takes the blow, it cannot dodge
        st.require_standing(me)
    if len(tokens) > pending["ap"]:
        raise RuleError(f"At most {pending['ap']} defence cards: one for each AP the attacker spent.")
    require_in_hand(me, tokens)
    require_ap(me, len(tokens))
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
    """The GM corrects a combatant: AP left (0 to its AP for the round), Health, Life or
    Æssence (0 to the whole: a track stops at nothing), or in/out of the fight. Set to nothing,
    it falls at once; set back above nothing, it comes back into the fight at the next round."""
    actor.require_gm("correct a combatant")
    person = st.fighter(state, command.get("combatant"))
    field = str(command.get("field") or "")
    if field not in ADJUSTABLE:
        raise RuleError("Correct AP, Health, Life, Æssence or in the fight.")
    if field == "in_fight":
        value: Any = bool(command.get("value"))
    elif field == "ap":
        value = whole(command, "value", 0, low=0, high=person["ap_max"], what=f"{person['name']}'s AP left")
    else:
        value = whole(command, "value", 0, low=0, high=person["maxima"][field],
                      what=f"{person['name']}'s {TRACK_LABELS[field]}")
    return [{"type": "adjusted", "combatant": person["id"], "field": field, "value": value, **npc_flag(person)}]


def end_combat(state: Mapping[str, Any], command: Command, actor: Actor, rng: Rng, cards: Cards) -> list[Event]:
    actor.require_gm("end the combat")
    fight = st.combat(state)
    for name in decks.of_fight(state):
        try:
            cards.gather(name)  # the hands of the fight go back into the deck
        except UnknownDeck:
            pass  # a fight that never dealt needs no deck to end
    return [{"type": "combat_ended", "round": fight["round"],
             "tracks": {cid: {t: p[t] for t in ("health", "life", "aessence")}
                        for cid, p in fight["combatants"].items()},
             "whole": {cid: dict(p["maxima"]) for cid, p in fight["combatants"].items()}}]
