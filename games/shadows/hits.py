"""An attack resolved (seed 000, "Combat Actions"): the attack against its target's Defence,
the damage with its modifier's cards and the critical chain drawn from the deck, armour and the
being's nature, the tracks it lowers, and whether the blow fells its target."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.cards_port import Cards
from games.core.engine import Event
from games.shadows import combat as cb
from games.shadows import criticals as crit
from games.shadows import deck, decks
from games.shadows import state as st


def resolve(state: Mapping[str, Any], pending: Mapping[str, Any], target: Mapping[str, Any],
            defence_cards: Sequence[str], cards: Cards) -> Event:
    """The attack ``pending`` against ``target``, who played ``defence_cards``: the
    ``attack_resolved`` event, with every card the damage modifier and the critical chain drew."""
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
        "value": pending["value"], "defence": _guard(guard, target), "raw": raw, "hit": cb.is_hit(raw),
        "suit_match": deck.suit(lead) == cb.ATTACK_SUIT[kind], "base": 0,
        "modifier": None, "chain": [], "critical": None, "critical_prevented": False,
        "total": 0, "damage": 0, "notes": [], "tracks": {}, "criticals": [],
        **_made_of(pending), **({"target_npc": True} if target.get("npc") else {}),
    }
    if pending.get("countered"):
        result["countered"] = pending["countered"]  # an Active Dodge lowered it (contests.py)
    if not result["hit"]:
        return result
    base = cb.base_damage(raw, lead, kind)
    code = weapon["modifier"]
    drawn = [c.token for c in cards.draw(decks.for_rules(state, cards), cb.modifier_cards(code), to="discard")] \
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
                source = decks.for_rules(state, cards)
                if not cards.left(source):
                    break  # every card is in a hand or in play: the chain ends here (never in a fight
                    # dealt to leave ten to draw, but no rule dead-ends)
                [card] = cards.draw(source, 1, to="discard")
                step = cb.chain_step(level, card.token, weapon["critical"])
                result["chain"].append(step)
                total += step["value"]
                if step["kind"] == cb.MAJOR_CRITICAL:
                    c = deck.card(card.token)
                    result["criticals"].append({"card": card.token, "suit": c.suit, "value": c.value,
                                                "effect": crit.effect(state["criticals"], c.suit, c.value)})
                if not step["continues"]:
                    break
            if result["chain"]:
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
    result["notes"] = [_plain(n) for n in notes] if target.get("npc") else notes
    result["tracks"] = cb.tracks_hit(damage, kind, weapon["modern"]) if damage else {}
    result["falls"] = _falls(target, result["tracks"])
    return result


def _falls(target: Mapping[str, Any], tracks: Mapping[str, int]) -> str:
    """What a hit leaves of a target standing until now: "dead" (its Life gone), "down" (its
    Health gone), or "" (it stands): everyone sees a combatant fall."""
    after = {**target, **{t: target[t] - v for t, v in tracks.items()}}
    return st.harm(after) if st.standing(target) else ""


# What an attack's line and working unfold (working.py), carried by the event itself so that
# neither reads a figure out of the state: the cards played, and the attacker's skill and the
# rest of the sum when the attacker is not an NPC (an NPC's skill is the GM's: audiences.py).
_SUM = ("skill", "skill_value", "off_focus", "assistance", "helpers", "condition")


def _made_of(pending: Mapping[str, Any]) -> dict[str, Any]:
    made: dict[str, Any] = {"cards": list(pending["cards"])}
    if pending.get("npc"):
        made["attacker_npc"] = True
    else:
        made.update({k: pending[k] for k in _SUM if k in pending})
        made["attack_modifier"] = pending.get("modifier", 0)  # the GM's; "modifier" is the damage's
    return made


def _guard(guard: cb.Defence, target: Mapping[str, Any]) -> dict[str, Any]:
    """The Defence the attack met. Decided reading (an NPC's sheet is the GM's): its total
    is the resolution's and everyone's, as are the cards played, cover and the -3; what an NPC's
    own part is made of (its attribute's value, its protection) is its sheet's, and the event,
    public, does not carry it: the GM reads it on the sheet."""
    shown = guard.to_dict()
    if target.get("npc"):
        del shown["base"], shown["protection"]
    return shown


def _plain(note: str) -> str:
    """An NPC's armour value and the materials it is weak to, resists or is immune to are its
    sheet's (the GM's); the effect on the damage is the hit's, and everyone's."""
    words = {"armour": "its armour", "immune": "immune", "vulnerable": "vulnerable (double)",
             "resists": "resistant (half)"}
    return words.get(note.split(" ")[0], "its nature")
