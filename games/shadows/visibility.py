"""Who sees what: each event's audience, the panel's view by lens, and a member's hand.

Shadows of Humanity is the system hidden information exists for (seed: "in combat, only
the GM and the particular player will see their own card draws"). The rules:

- A dealt or re-dealt card is named only in the event's private part, for the hand's
  player and the GM (``audience``); the public part and the summary only count them.
- A card is public once it is played (an attack, a dodge or parry, a check from the hand),
  or when it is drawn face up (a draw outside combat, damage modifiers, the critical chain).
- The GM's secrets: a fumble's guide until shown, a Major Critical's effect until announced,
  a multi-draw margin, the critical tables, and NPCs' sheets.

``view(state, lens)`` is the panel: the "gm" lens sees every hand; "player" and
"spectator" see how many cards each hand holds, never which. Which cards a player holds is
``hand_of(state, member_id)``: a separate pure function, so a platform that draws a
per-member panel can add that member's own hand and nobody else's (the table's own hand
pile shows the same cards, since the deal puts them there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import PanelLens, Visibility
from games.shadows import criticals as crit
from games.shadows import deck
from games.shadows import state as st
from games.shadows.combat import ATTACK_LABELS, FOCUS_LABELS, defence_card_value
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES
from games.shadows.sheet import TRACK_LABELS, TRACKS
from games.shadows.weapons import format_table

Event = Mapping[str, Any]


def audience(event: Event) -> Visibility:
    kind = event.get("type")
    if kind == "hand_dealt":
        return Visibility(owner=event["combatant"], private={"cards": event["cards"]},
                          private_summary=f"You are dealt {deck.names(event['cards']) or 'no cards'}.")
    if kind == "redealt":
        return Visibility(owner=event["combatant"],
                          private={"discarded": event["discarded"], "drawn": event["drawn"]},
                          private_summary=f"You discard {deck.names(event['discarded'])} and are dealt "
                                          f"{deck.names(event['drawn'])}.")
    if kind == "guide_drawn":
        return Visibility(private={"card": event["card"]}, private_audience="gm",
                          private_summary=f"The guide: {deck.name(event['card'])} "
                                          f"({deck.meaning(event['card'])}).")
    if kind == "contest_started" and "margin" in event:
        return Visibility(private={"margin": event["margin"]}, private_audience="gm",
                          private_summary=f"The margin to reach is {event['margin']}.")
    if kind == "attack_resolved" and event.get("criticals"):
        return Visibility(private={"criticals": event["criticals"]}, private_audience="gm",
                          private_summary="Major Critical: " + "; ".join(
                              f"{deck.name(c['card'])}: {c['effect']}" for c in event["criticals"]))
    if kind == "combat_ended":
        return Visibility(private={"tracks": event["tracks"]}, private_audience="gm")
    if kind == "combat_started":
        return Visibility(private={"combatants": event["combatants"]}, private_audience="gm")
    if kind == "combatant_added":
        return Visibility(private={"combatant": event["combatant"]}, private_audience="gm")
    return Visibility()


def _card(token: str) -> dict[str, Any]:
    c = deck.card(token)
    return {"token": token, "name": deck.name(token), "value": c.value, "suit": c.suit,
            "face": c.is_face, "symbol": c.symbol, "defence": defence_card_value(token)}


def _major(token: str) -> dict[str, Any]:
    bare = deck.bare(token)
    return {"token": token, "name": deck.name(bare), "upright": deck.meaning(bare, False),
            "reversed": deck.meaning(bare, True)}


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


def _attack_public(entry: Mapping[str, Any], gm: bool) -> dict[str, Any]:
    shown = {k: v for k, v in entry.items() if k != "criticals" or gm}
    shown["cards_named"] = deck.names(entry.get("cards", []))
    return shown


def view(state: Mapping[str, Any], lens: PanelLens) -> dict[str, Any]:
    """The panel as ``lens`` sees it. Only the GM's lens holds hand cards."""
    gm = lens == "gm"
    names = state.get("names", {})
    out: dict[str, Any] = {
        "lens": lens,
        "complexities": [{"key": c.key, "label": c.label, "fumble": c.fumble_top, "success": c.success,
                          "critical": c.critical} for c in COMPLEXITIES.values()],
        "bands": BAND_LABELS,
        "weapons": state["weapons"],
        "weapons_text": format_table(state["weapons"]),
        "held": {cid: {"name": names.get(cid, cid), "cards": [_major(t) for t in cards]}
                 for cid, cards in state["held"].items() if cards},
        "checks": list(reversed(state["checks"])),
        "counters": [{**c, "counterer_name": names.get(c["counterer"], c["counterer"]),
                      "target_name": names.get(c["target"], c["target"])} for c in state["counters"]],
        "help": {cid: helpers for cid, helpers in state["help"].items()},
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
        for cid in fight["order"]:
            p = fight["combatants"][cid]
            npc = not isinstance(p.get("owner"), int)
            row = {"id": cid, "name": p["name"], "npc": npc, "focus": p["focus"],
                   "focus_label": FOCUS_LABELS.get(p["focus"] or "", ""), "ap": p["ap"],
                   "ap_max": p["ap_max"], "hand_count": len(p["hand"]), "dealt": p["dealt"],
                   "redealt": p["redealt"], "in_fight": p["in_fight"]}
            if gm or not npc:
                row["tracks"] = [{"key": t, "label": TRACK_LABELS[t], "value": p[t]} for t in TRACKS]
            if gm:
                row["hand"] = [_card(t) for t in p["hand"]]
            people.append(row)
        pending = fight["pending"]
        out["combat"] = {
            "round": fight["round"], "phase": fight["phase"], "combatants": people,
            "next": st.next_to_act(state),
            "pending": ({**pending, "attack_label": ATTACK_LABELS[pending["weapon"]["type"]],
                         "cards_named": deck.names(pending["cards"])} if pending else None),
            "attacks": [_attack_public(a, gm) for a in fight["attacks"]],
            "criticals": [c for c in fight["criticals"] if gm or c["announced"]],
            "played": [_card(t) for t in fight["played"]],
        }
    return out
