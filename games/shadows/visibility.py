"""Who sees what: each event's audience, the panel's view by lens, and a member's hand.

Shadows of Humanity is the system hidden information exists for (seed: "in combat, only
the GM and the particular player will see their own card draws"). The rules:

- A dealt or re-dealt card is named only in the event's private part, for the hand's
  player and the GM (``audience``); the public part and the summary only count them.
- A card is public once it is played (an attack, a dodge or parry, a check from the hand),
  or when it is drawn face up (a draw outside combat, damage modifiers, the critical chain).
- The GM's secrets: a fumble's guide until shown, a Major Critical's effect until announced,
  a multi-draw margin, the critical tables, and NPCs' sheets (the table's ``npc_sheets_secret``: the
  character card, its events and the write-back after a fight show the others its name).
  Reading: a resolution's own figures stay everyone's, as every card played is (the Defence
  an attack met and what made it up, the damage done, an aim's odds against a target), so
  the players can check the rules were kept; the sheet they come from is the GM's.

``view(state, seat)`` is the panel: the "gm" lens sees every hand; "player" and
"spectator" see how many cards each hand holds, never which. Which cards a player holds is
``hand_of(state, member_id)``: a separate pure function, so a platform that draws a
per-member panel can add that member's own hand and nobody else's (the table's own hand
pile shows the same cards, since the deal puts them there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import GM_ONLY, PUBLIC, AudienceRule, Seat, Visibility, public
from games.core.cards import OrientedCard
from games.shadows import criticals as crit
from games.shadows import deck, odds, weapons
from games.shadows import state as st
from games.shadows.combat import (
    ATTACK_FOCUS, ATTACK_LABELS, ATTACK_SUIT, ATTRIBUTE_LABELS, ATTRIBUTES, DEFENCE_ATTRIBUTE, FOCI,
    FOCUS_LABELS, MODIFIERS, cover_bonus, defence, defence_card_value, hand_size, off_focus,
)
from games.shadows.errors import RuleError
from games.shadows.odds import through_by_value
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES
from games.shadows.sheet import TRACK_LABELS, TRACKS, skill_value
from games.shadows.weapons import format_table

Event = Mapping[str, Any]


def _hand_dealt(event: Event) -> Visibility:
    # the private line is read by the hand's player and by the GM: it names whose hand it is
    who = event.get("name") or "You"
    return Visibility(owner=event["combatant"], private={"cards": event["cards"]},
                      private_summary=f"{who} {'is' if who != 'You' else 'are'} dealt "
                                      f"{deck.names(event['cards']) or 'no cards'}.")


def _redealt(event: Event) -> Visibility:
    # the discarded cards lie face up on the discard pile (public); the new ones are hidden
    return Visibility(owner=event["combatant"], private={"drawn": event["drawn"]},
                      private_summary=(f"{event['name']} discards {deck.names(event['discarded'])} and is dealt "
                                       if event.get("name") else
                                       f"You discard {deck.names(event['discarded'])} and are dealt ")
                      + f"{deck.names(event['drawn'])}.")


def _guide_drawn(event: Event) -> Visibility:
    return Visibility(private={"card": event["card"]}, private_audience="gm",
                      private_summary=f"The guide: {deck.name(event['card'])} ({deck.meaning(event['card'])}).")


def _contest_started(event: Event) -> Visibility:
    if "margin" not in event:
        return PUBLIC
    return Visibility(private={"margin": event["margin"]}, private_audience="gm",
                      private_summary=f"The margin to reach is {event['margin']}.")


def _attack_resolved(event: Event) -> Visibility:
    if not event.get("criticals"):
        return PUBLIC
    return Visibility(private={"criticals": event["criticals"]}, private_audience="gm",
                      private_note="The effect (GM only): " + "; ".join(
                          f"{deck.name(c['card'])}: {c['effect']}" for c in event["criticals"]))


def _gm_part(*keys: str) -> Callable[[Event], Visibility]:
    """Public, but for these keys, which only the GM reads."""
    def rule(event: Event) -> Visibility:
        return Visibility(private={k: event[k] for k in keys if k in event}, private_audience="gm")
    return rule


# Who sees each event (games/contract.py: declared, never defaulted).
AUDIENCES: dict[str, AudienceRule] = {
    **public(
        "check_cancelled", "check_made", "major_arcana_kept", "guide_pending", "guide_shown",
        "help_approved", "opposed_resolved", "counter_declared", "contest_drawn", "contest_ended",
        "arcana_spent", "session_ended", "round_started", "focus_declared", "attack_aimed",
        "attack_declared", "turn_ended", "cover_set", "defended", "critical_announced", "weapons_set",
        "adjusted",
    ),
    "hand_dealt": _hand_dealt,
    "redealt": _redealt,
    "guide_drawn": _guide_drawn,
    "contest_started": _contest_started,
    "attack_resolved": _attack_resolved,
    # what a check was set up from (sheets, helpers) is the GM's; the figures are everyone's
    "check_prepared": _gm_part("inputs"),
    "combat_ended": _gm_part("tracks", "whole"),  # what is left of each, and each whole: NPCs' figures
    "combat_started": _gm_part("combatants"),
    "combatant_added": _gm_part("combatant"),
    # seed: "I will not be posting the Critical Tables": the GM's own, every byte of them
    "criticals_set": GM_ONLY,
}


def audience(event: Event) -> Visibility:
    """The declared audience of ``event`` (``AUDIENCES``)."""
    rule = AUDIENCES[event["type"]]
    return rule(event) if callable(rule) else rule


def _card(token: str) -> dict[str, Any]:
    """A card as the panel shows it: plain data ``games/core/card_face.html`` draws (its id,
    name, value, rank, colour and glyph), plus what the rules read of it."""
    oriented = OrientedCard.from_token(token)
    c = oriented.card
    return {"token": token, "id": c.id, "name": deck.name(token), "value": c.value, "suit": c.suit,
            "face": c.is_face, "symbol": c.symbol, "rank_label": c.rank_label, "colour": c.colour,
            "glyph": c.glyph, "reversible": c.reversible, "reversed": oriented.reversed,
            "defence": defence_card_value(token) if c.arcana == "minor" else 0}


def _major(token: str) -> dict[str, Any]:
    bare = deck.bare(token)
    return {**_card(bare), "token": token, "name": deck.name(bare), "upright": deck.meaning(bare, False),
            "reversed_meaning": deck.meaning(bare, True)}


def hand_of(state: Mapping[str, Any], member: int | None) -> list[dict[str, Any]]:
    """The hands member ``member`` holds this round: their own characters', and every NPC's
    when they are the GM. The only way, besides the GM's lens, that hand cards leave the
    state."""
    fight = state.get("combat")
    if not fight or member is None:
        return []
    out = []
    for cid in fight["order"]:
        person = fight["combatants"][cid]
        if person["dealt"] and person.get("holder") == member:
            out.append({"combatant": cid, "name": person["name"], "ap": person["ap"],
                        "cards": [_card(t) for t in person["hand"]]})
    return out


def _attack_public(entry: Mapping[str, Any], gm: bool, names: Mapping[str, str]) -> dict[str, Any]:
    shown = {k: v for k, v in entry.items() if k != "criticals" or gm}
    shown["attacker_name"] = names.get(entry["attacker"], "")
    shown["target_name"] = names.get(entry["target"], "")
    shown["cards_named"] = deck.names(entry.get("cards", []))
    shown["faces"] = [_card(t) for t in entry.get("cards", [])]
    defence = entry.get("defence") or {}
    shown["defence_faces"] = [_card(t) for t in defence.get("cards", [])]
    shown["chain_faces"] = [{**_card(step["card"]), "kind": step["kind"], "level": step["level"],
                             "step_value": step["value"]} for step in entry.get("chain", [])]
    modifier = entry.get("modifier") or {}
    shown["modifier_faces"] = [_card(t) for t in modifier.get("cards", [])]
    shown["modifier_words"] = MODIFIERS.get(modifier.get("code", ""), (0, ""))[1]
    return shown


_PCT = "{:.1f}".format


def _pct(x: float) -> str:
    """A chance as the panel prints it: 12.3 (never "0.0" for a chance that is not nil)."""
    if 0 < x < 0.0005:
        return "<0.1"
    if 0.9995 < x < 1:
        return ">99.9"
    return _PCT(x * 100)


def _prepared(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A check set up and waiting for one card or three, with the exact chance of each band."""
    level = COMPLEXITIES[entry["complexity"]]
    rows = []
    for count in (1, 3):
        o = odds.all_or_nothing(int(entry["total"]), level.key, cards=count)
        rows.append({"cards": count, **{band: _pct(getattr(o, band)) for band in BAND_LABELS}})
    return {k: v for k, v in entry.items() if k != "inputs"} | {
        "complexity_label": level.label, "success_at": level.success, "critical_at": level.critical,
        "fumble_top": level.fumble_top, "odds": rows,
        "skill_label": entry["skill"].replace("_", " ").capitalize() if entry["skill"] else "no skill",
        "attribute_label": ATTRIBUTE_LABELS.get(entry["attribute"], entry["attribute"]),
    }


_RANKS = {1: "A", 11: "P", 12: "Kn", 13: "Q", 14: "K"}


def _aim(state: Mapping[str, Any], fight: Mapping[str, Any], aim: Mapping[str, Any]) -> dict[str, Any] | None:
    """An attack lined up: the chance that each attack card, played alone, gets the damage
    through the target's Defence and its best dodge or parry cards (as many as the AP the
    attack spends allow, from a hand of unknown cards: every card not yet face up this round)."""
    people = fight["combatants"]
    me, them = people.get(aim["attacker"]), people.get(aim["target"])
    if me is None or them is None:
        return None
    try:
        row = weapons.find(state["weapons"], aim["weapon"])
        skill = skill_value(me, aim["skill"]) if aim["skill"] else 0
    except RuleError:
        return None
    kind = row["type"]
    off = off_focus(me["focus"], ATTACK_FOCUS[kind])
    guard = defence(kind, them["attributes"], protection=them["protection"]).total
    k = min(aim["ap"], them["ap"], len(them["hand"]))
    seen = set(fight.get("played") or []) | set(fight.get("set_aside") or [])
    unseen = [c for c in deck.minor_tokens() if c not in seen]
    chances = through_by_value(skill + off, guard, defender_hand=len(them["hand"]), defence_cards=k,
                               unseen=unseen)
    return {**aim, "attacker_name": me["name"], "target_name": them["name"], "type_label": ATTACK_LABELS[kind],
            "suit": ATTACK_SUIT[kind].capitalize(), "skill_label": aim["skill"].replace("_", " ").capitalize(),
            "skill_value": skill, "off_focus": off, "defence": guard,
            "defence_attribute": DEFENCE_ATTRIBUTE[kind].capitalize(), "dodge_cards": k,
            "target_hand": len(them["hand"]),
            "odds": [{"value": v, "rank": _RANKS.get(v, str(v)), "pct": _pct(p)} for v, p in chances.items()]}


def _turn(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): the defender of a waiting attack, a player
    choosing one card or three, a focus to declare, the GM's deal, the next to act, the GM's
    next round."""
    fight = state.get("combat")
    people = fight["combatants"] if fight else {}
    if fight and fight["pending"]:
        pending = fight["pending"]
        target, attacker = people[pending["target"]], people[pending["attacker"]]
        return {"combatant": target["id"], "gm": False,
                "says": f"{target['name']} answers {attacker['name']}'s attack",
                "prompt": f"defend {target['name']}: dodge or parry with cards from the hand, or take the blow"}
    prepared = list((state.get("prepared") or {}).values())
    if prepared:
        entry = prepared[0]
        return {"combatant": entry["combatant"], "gm": False,
                "says": f"{entry['name']} chooses one card or three",
                "prompt": f"draw one card or three for {entry['name']}"}
    if not fight:
        return None
    if fight["phase"] == "focus":
        waiting = [cid for cid in fight["order"] if people[cid]["in_fight"] and people[cid]["focus"] is None]
        if waiting:
            first = people[waiting[0]]["name"]
            more = f" (then {len(waiting) - 1} more)" if len(waiting) > 1 else ""
            return {"combatant": waiting[0], "gm": False, "says": f"{first} chooses a focus{more}",
                    "prompt": f"choose {first}'s focus for this round"}
        return {"combatant": None, "gm": True, "says": "The GM shuffles and deals the hands",
                "prompt": "shuffle the Minor Arcana and deal the hands"}
    undealt = [cid for cid in fight["order"] if people[cid]["in_fight"] and not people[cid]["dealt"]]
    if undealt and all(people[cid]["focus"] for cid in undealt):
        return {"combatant": None, "gm": True, "says": "The GM deals to the newcomers",
                "prompt": "deal the newcomers' hands"}
    if undealt:
        first = people[undealt[0]]["name"]
        return {"combatant": undealt[0], "gm": False, "says": f"{first} chooses a focus",
                "prompt": f"choose {first}'s focus for this round"}
    nxt = st.next_to_act(state)
    if nxt is not None:
        person = people[nxt]
        return {"combatant": nxt, "gm": False, "says": f"{person['name']} acts ({person['ap']} AP left)",
                "prompt": f"act for {person['name']}: attack, draw for an action, or say you are done"}
    return {"combatant": None, "gm": True, "says": "The GM starts the next round",
            "prompt": "start the next round, or end the combat"}


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """The panel as ``lens`` sees it. No lens lists a hand's cards: the table's hand panels show
    each hand to its holder and the GM. The GM's lens alone names which cards each NPC holds
    (the NPCs' hands all lie in the GM's one hand pile) and the GM's secrets."""
    lens = seat.lens
    gm = seat.is_gm
    names = state.get("names", {})
    out: dict[str, Any] = {
        "lens": lens,
        "turn": _turn(state),
        "complexities": [{"key": c.key, "label": c.label, "fumble": c.fumble_top, "success": c.success,
                          "critical": c.critical} for c in COMPLEXITIES.values()],
        "attributes": [{"key": a, "label": ATTRIBUTE_LABELS[a]} for a in ATTRIBUTES],
        "foci": [{"key": f, "label": FOCUS_LABELS[f]} for f in FOCI],
        "bands": BAND_LABELS,
        "weapons": [{**w, "type_label": ATTACK_LABELS[w["type"]],
                     "modifier_words": MODIFIERS.get(w["modifier"], (0, f"adds {w['modifier']}"))[1]}
                    for w in state["weapons"]],
        "weapons_text": format_table(state["weapons"]),
        "held": {cid: {"name": names.get(cid, cid), "cards": [_major(t) for t in cards]}
                 for cid, cards in state["held"].items() if cards},
        "checks": [{**c, "faces": [_card(t) for t in c.get("cards", [])],
                    "extra_face": _card(c["extra"]) if c.get("extra") else None,
                    "band_label": BAND_LABELS.get(c.get("band", ""), ""),
                    "complexity_label": COMPLEXITIES[c["complexity"]].label if c.get("complexity") else ""}
                   for c in reversed(state["checks"])],
        "prepared": [_prepared(p) for p in (state.get("prepared") or {}).values()],
        "counters": [{**c, "counterer_name": names.get(c["counterer"], c["counterer"]),
                      "target_name": names.get(c["target"], c["target"])} for c in state["counters"]],
        "help": {cid: helpers for cid, helpers in state["help"].items()},
        "help_named": [{"combatant": cid, "name": names.get(cid, cid),
                        "helpers": [names.get(h, h) for h in helpers]} for cid, helpers in state["help"].items()],
        "guides": [
            {"id": g["id"], "combatant": g["combatant"], "name": names.get(g["combatant"], g["combatant"]),
             "drawn": g["card"] is not None, "shown": g["shown"],
             **({"card": _major(g["card"])} if g["card"] and (gm or g["shown"]) else {})}
            for g in state["guides"]
        ],
        "contests": [
            {k: v for k, v in c.items() if k != "margin" or gm} for c in state["contests"].values()
        ],
        "combat": None,
    }
    if gm:
        out["criticals_text"] = crit.format_tables(state["criticals"])
    fight = state.get("combat")
    if fight:
        people = []
        nxt = st.next_to_act(state)
        for cid in fight["order"]:
            p = fight["combatants"][cid]
            npc = not isinstance(p.get("owner"), int)
            row = {"id": cid, "name": p["name"], "npc": npc, "focus": p["focus"],
                   "focus_label": FOCUS_LABELS.get(p["focus"] or "", ""), "ap": p["ap"],
                   "ap_max": p["ap_max"], "hand_count": len(p["hand"]), "dealt": p["dealt"],
                   "redealt": p["redealt"], "in_fight": p["in_fight"], "done": bool(p.get("done")),
                   "holder": p.get("holder"), "next": cid == nxt,
                   "can_redeal": p["dealt"] and not p["redealt"] and not p["actions"] and p["ap"] == p["ap_max"],
                   "skills": [{"key": k, "label": k.replace("_", " ").capitalize(), "value": v}
                              for k, v in p["skills"].items()],
                   "hand_sizes": [{"key": f, "label": FOCUS_LABELS[f], "size": hand_size(p["attributes"], f)}
                                  for f in FOCI]}
            if gm or not npc:
                row["tracks"] = [{"key": t, "label": TRACK_LABELS[t], "value": p[t],
                                  "of": (p.get("maxima") or {}).get(t, p[t])} for t in TRACKS]
            if gm and npc:
                # the NPCs' hands lie together in the GM's one hand pile: which card is whose
                row["npc_cards"] = [deck.name(t) for t in p["hand"]]
            people.append(row)
        pending = fight["pending"]
        aims = [a for a in (_aim(state, fight, aim) for aim in (fight.get("aims") or {}).values()) if a]
        if pending:
            target = fight["combatants"][pending["target"]]
            kind = pending["weapon"]["type"]
            bonus = cover_bonus(pending.get("cover", 0), pending.get("movement", 0), pending["accuracy"])
            standing = defence(kind, target["attributes"], bonus=bonus, protection=target["protection"])
            pending_view = {**pending, "attack_label": ATTACK_LABELS[kind], "cards_named": deck.names(pending["cards"]),
                            "faces": [_card(t) for t in pending["cards"]], "target_name": target["name"],
                            "attacker_name": fight["combatants"][pending["attacker"]]["name"],
                            "defence_now": standing.total, "defence_attribute": standing.attribute.capitalize(),
                            "need": max(0, pending["value"] - standing.total),
                            "max_cards": min(pending["ap"], target["ap"], len(target["hand"])),
                            "face_attack": deck.is_face(pending["cards"][0])}
        else:
            pending_view = None
        out["combat"] = {
            "round": fight["round"], "phase": fight["phase"], "combatants": people,
            "next": nxt,
            "pending": pending_view,
            "aims": aims,
            "attacks": [_attack_public(a, gm, {cid: p["name"] for cid, p in fight["combatants"].items()})
                        for a in fight["attacks"]],
            "criticals": [c | {"face": _card(c["card"]), "target_name": fight["combatants"].get(
                c["target"], {}).get("name", "")} for c in fight["criticals"] if gm or c["announced"]],
            "waiting_criticals": sum(1 for c in fight["criticals"] if not c["announced"]),
            "all_focused": all(p["focus"] for p in fight["combatants"].values() if p["in_fight"]),
            "to_deal": [p["name"] for cid in fight["order"]
                        if (p := fight["combatants"][cid])["in_fight"] and not p["dealt"]],
        }
    return out
