"""The combat part of the panel, for one seat (``fight_view(state, seat)``).

What a seat that may not see a combatant's sheet (``Seat.sees_sheet``: an NPC's, while the
table keeps NPC sheets behind the GM's screen) gets of it: its name, its focus (declared
aloud), how many cards it holds (dealt at the table, counted on the GM's hand pile), whether
it is done, out, down or dead (it falls before everyone's eyes; a GM's correction since is the
GM's), and what the rules make public as it happens: every card played, and a resolved
attack's own figures (the attack's value, the Defence it met and what made it up, the
damage done), so the players can check the rules were kept. Not its skills, attributes, AP
(left or whole), hand size by focus, tracks or protection, and no odds counted from them: an
aim's chances against it and the Defence a waiting attack on it must beat are the GM's until
the attack resolves (the panel says the odds depend on the GM's figures). An attack it makes
shows its value, as the log line does (the defender answers it), not the skill behind it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.contract import Seat
from games.core.engine import RuleError
from games.shadows import deck, decks, weapons
from games.shadows import state as st
from games.shadows.combat import (
    ATTACK_FOCUS, ATTACK_LABELS, ATTACK_SUIT, DEFENCE_ATTRIBUTE, FOCI, FOCUS_LABELS, MODIFIERS, cover_bonus,
    defence, hand_size, off_focus,
)
from games.shadows.faces import card_face, chance
from games.shadows.odds import through_by_value
from games.shadows.conditions import draw_bonus
from games.shadows.profile import skill_value
from games.shadows.sheet import TRACK_LABELS, TRACKS

_RANKS = {1: "A", 11: "P", 12: "Kn", 13: "Q", 14: "K"}
# What the panel keeps of a waiting attack by a combatant whose sheet the seat may not see:
# the skill behind its value is the GM's (and Accuracy is a skill).
_ATTACKER_FIGURES = ("skill", "skill_value", "accuracy")


def _row(p: Mapping[str, Any], seat: Seat, nxt: str | None) -> dict[str, Any]:
    # "npc" here only says whose hand it is and draws the badge; what the seat may see of the
    # sheet is the seat's to say (``sees_sheet``), never guessed from the owner
    npc = bool(p.get("npc")) or not isinstance(p.get("owner"), int)
    shown = seat.sees_sheet(p["id"])
    row: dict[str, Any] = {
        "id": p["id"], "name": p["name"], "npc": npc, "sheet_shown": shown, "focus": p["focus"],
        "focus_label": FOCUS_LABELS.get(p["focus"] or "", ""), "hand_count": len(p["hand"]),
        "dealt": p["dealt"], "redealt": p["redealt"], "in_fight": p["in_fight"], "done": bool(p.get("done")),
        "holder": p.get("holder"), "next": p["id"] == nxt,
        # whether it is down or dead everyone sees happen (a blow's line says it): not a figure
        "standing": st.standing(p), "fallen": st.fallen_label(p) if shown else st.fallen_as_seen(p),
    }
    if not shown:
        del row["hand_count"]  # an NPC's hand size is a figure of its sheet (Body + half Physical...)
        return row
    row.update(
        ap=p["ap"], ap_max=p["ap_max"],
        can_redeal=p["dealt"] and not p["redealt"] and not p["actions"] and p["ap"] == p["ap_max"],
        skills=[{"key": k, "label": k.replace("_", " ").capitalize(), "value": v} for k, v in p["skills"].items()],
        hand_sizes=[{"key": f, "label": FOCUS_LABELS[f], "size": hand_size(p["attributes"], f)} for f in FOCI],
        # max(0, ...): a fight stored before tracks stopped at nothing may hold less
        tracks=[{"key": t, "label": TRACK_LABELS[t], "value": max(0, p[t]), "of": (p.get("maxima") or {}).get(t, p[t])}
                for t in TRACKS],
    )
    if seat.is_gm and npc:
        # the NPCs' hands lie together in the GM's one hand pile: which card is whose
        row["npc_cards"] = [deck.name(t) for t in p["hand"]]
    return row


def _may_hold(fight: Mapping[str, Any], me: Mapping[str, Any], them: Mapping[str, Any]) -> list[str]:
    """The cards the target's hand may hold, as the one who aims may know them (the project's rule: odds
    from what the viewer may know; an aim is its player's, and the GM reads the same figures):
    every card of the target's deck not face up this round, less the hands of that deck the
    attacker's holder holds (the player's own; for an NPC, the GM's NPCs')."""
    pool = Counter(st.unseen_by(fight, them["id"]))
    pool.subtract(st.held_cards(fight, them.get("deck") or deck.MINOR, me.get("holder"), but=them["id"]))
    return list((+pool).elements())


def _aim(state: Mapping[str, Any], fight: Mapping[str, Any], aim: Mapping[str, Any],
         seat: Seat) -> dict[str, Any] | None:
    """An attack lined up: the chance that each attack card, played alone, gets the damage
    through the target's Defence and its best dodge or parry cards (as many as the AP the
    attack spends allow, from a hand of unknown cards: every card of the deck its hand came
    from not yet face up this round, less the hands the attacker's holder holds: ``_may_hold``). Against a target whose sheet the seat may not see, only
    that the odds are the GM's."""
    people = fight["combatants"]
    me, them = people.get(aim["attacker"]), people.get(aim["target"])
    if me is None or them is None or not seat.sees_sheet(me["id"]) or not (st.standing(me) and st.standing(them)):
        return None  # an aim by or at someone fallen since is void
    named = {"attacker": me["id"], "target": them["id"], "attacker_name": me["name"], "target_name": them["name"],
             "weapon": aim["weapon"]}
    if not seat.sees_sheet(them["id"]):
        return {**named, "hidden": True}
    try:
        row = weapons.find(state["weapons"], aim["weapon"])
        skill = skill_value(me, aim["skill"]) if aim["skill"] else 0
    except RuleError:
        return None
    kind = row["type"]
    off = off_focus(me["focus"], ATTACK_FOCUS[kind])
    guard = defence(kind, them["attributes"], protection=them["protection"]).total
    k = min(aim["ap"], them["ap"], len(them["hand"]))
    # what the attack adds to its cards: skill, off focus, help, and lasting conditions (conditions.py)
    adds = skill + off + aim.get("assistance", 0) + draw_bonus(state, me["id"])
    chances = through_by_value(adds, guard, defender_hand=len(them["hand"]), defence_cards=k,
                               unseen=_may_hold(fight, me, them))
    return {**aim, **named, "type_label": ATTACK_LABELS[kind], "suit": ATTACK_SUIT[kind].capitalize(),
            "skill_label": aim["skill"].replace("_", " ").capitalize(), "skill_value": skill, "off_focus": off,
            "defence": guard, "defence_attribute": DEFENCE_ATTRIBUTE[kind].capitalize(), "dodge_cards": k,
            "target_hand": len(them["hand"]),
            "odds": [{"value": v, "rank": _RANKS.get(v, str(v)), "chance": chance(p)} for v, p in chances.items()],
            "none_through": not any(chances.values())}


def _pending(fight: Mapping[str, Any], seat: Seat) -> dict[str, Any] | None:
    """The attack waiting for its defence: its cards and value, and the target's Defence and what
    a dodge must add to keep all damage off, where the seat may see the figures they come from."""
    pending = fight["pending"]
    if not pending:
        return None
    people = fight["combatants"]
    target, attacker = people[pending["target"]], people[pending["attacker"]]
    kind = pending["weapon"]["type"]
    shown = {k: v for k, v in pending.items() if seat.sees_sheet(attacker["id"]) or k not in _ATTACKER_FIGURES}
    if pending.get("npc") and not seat.is_gm:  # an NPC's help is a figure of its sheet (assist.py)
        shown = {k: v for k, v in shown.items() if k not in ("assistance", "helpers")}
    out = {**shown, "attack_label": ATTACK_LABELS[kind], "cards_named": deck.names(pending["cards"]),
           "faces": [card_face(t) for t in pending["cards"]], "target_name": target["name"],
           "attacker_name": attacker["name"], "face_attack": deck.is_face(pending["cards"][0]),
           "attack_hidden": not seat.sees_sheet(attacker["id"]),
           "defence_hidden": not seat.sees_sheet(target["id"])}
    if out["defence_hidden"]:
        return out
    bonus = cover_bonus(pending.get("cover", 0), pending.get("movement", 0), pending["accuracy"])
    standing = defence(kind, target["attributes"], bonus=bonus, protection=target["protection"])
    return {**out, "defence_now": standing.total, "defence_attribute": standing.attribute.capitalize(),
            "need": max(0, pending["value"] - standing.total),
            "max_cards": min(pending["ap"], target["ap"], len(target["hand"]))}


def _attack_public(entry: Mapping[str, Any], gm: bool, names: Mapping[str, str]) -> dict[str, Any]:
    """A resolved attack: its own figures are everyone's (module docstring); a Major Critical's
    effect is the GM's until announced."""
    shown = {k: v for k, v in entry.items() if k != "criticals" or gm}
    shown["attacker_name"] = names.get(entry["attacker"], "")
    shown["target_name"] = names.get(entry["target"], "")
    shown["cards_named"] = deck.names(entry.get("cards", []))
    shown["faces"] = [card_face(t) for t in entry.get("cards", [])]
    guard = entry.get("defence") or {}
    shown["defence_faces"] = [card_face(t) for t in guard.get("cards", [])]
    shown["chain_faces"] = [{**card_face(step["card"]), "kind": step["kind"], "level": step["level"],
                             "step_value": step["value"]} for step in entry.get("chain", [])]
    modifier = entry.get("modifier") or {}
    shown["modifier_faces"] = [card_face(t) for t in modifier.get("cards", [])]
    shown["modifier_words"] = MODIFIERS.get(modifier.get("code", ""), (0, ""))[1]
    return shown


def fight_view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any] | None:
    """The combat as ``seat`` sees it, or None when no combat is under way."""
    fight = state.get("combat")
    if not fight:
        return None
    gm = seat.is_gm
    people = fight["combatants"]
    nxt = st.next_to_act(state)
    # an aim (its odds) is its player's and the GM's: nobody else learns whom it is aimed at
    aims = (_aim(state, fight, aim, seat) for cid, aim in (fight.get("aims") or {}).items()
            if gm or seat.plays(cid))
    # the cards the hands take count the NPCs' hand sizes: the GM's figure
    extra = decks.next_needed(fight, [d.name for d in seat.decks]) if gm else None
    second = {"wanted": decks.cards_wanted(fight)} if extra == deck.MINOR_2 else None
    more = {"name": extra, "ordinal": extra.split(" ")[0].lower(), "wanted": decks.cards_wanted(fight)} if extra else None
    return {
        "second_deck": second, "next_deck": more, "two_decks": len(decks.of_fight(state)) > 1,
        "deck_count": len(decks.of_fight(state)),
        "round": fight["round"], "phase": fight["phase"], "next": nxt,
        "combatants": [_row(people[cid], seat, nxt) for cid in fight["order"]],
        "pending": _pending(fight, seat),
        "aims": [a for a in aims if a],
        "attacks": [_attack_public(a, gm, {cid: p["name"] for cid, p in people.items()}) for a in fight["attacks"]],
        "criticals": [c | {"face": card_face(c["card"]), "target_name": people.get(c["target"], {}).get("name", "")}
                      for c in fight["criticals"] if gm or c["announced"]],
        "waiting_criticals": sum(1 for c in fight["criticals"] if not c["announced"]),
        "all_focused": all(p["focus"] for p in people.values() if st.standing(p)),
        "to_deal": [p["name"] for cid in fight["order"] if st.standing(p := people[cid]) and not p["dealt"]],
    }
