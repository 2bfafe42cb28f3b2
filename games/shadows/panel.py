"""The panel, one view per seat: ``view(state, seat)`` (games/contract.py, ``Panel``), and the
hands a member holds (``hand_of``).

No view lists a hand's cards: the table's hand panels show each hand to its holder and the
GM. The GM's view alone names which cards each NPC holds (the NPCs' hands all lie in the GM's
one hand pile) and holds the GM's secrets: a fumble's guide until shown, a Major Critical's
effect until announced, a multi-draw margin, the critical tables. A seat that may not see a
combatant's sheet (``Seat.sees_sheet``) gets none of its figures and no odds counted from them
(panel_fight.py says what it gets); a check being set up for it shows its name alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.contract import Seat
from games.core import now
from games.shadows import criticals as crit
from games.shadows import deck, decks, odds
from games.shadows.campaign import CLOCK, RAISED_HEALTH
from games.shadows.edges import awaiting, fight_edges, over_turn
from games.shadows import state as st
from games.shadows.combat import ATTACK_LABELS, ATTRIBUTE_LABELS, ATTRIBUTES, FOCI, FOCUS_LABELS, MODIFIERS
from games.shadows.faces import card_face, major_face, pct
from games.shadows.panel_fight import fight_view
from games.shadows.resolution import BAND_LABELS, COMPLEXITIES
from games.shadows.weapons import format_table


def counted_from(state: Mapping[str, Any], seat: Seat) -> tuple[tuple[int, ...] | None, str]:
    """The cards a check's odds are counted from, as this seat may know them, and the words
    that say so on screen. The project's rule: odds "computed from the cards actually left in that deck when
    its composition is public". Outside a fight the discard is face up, so the cards not lying
    face up (the draw pile) are what a draw comes from; in a fight, the cards not face up less
    the hands this seat holds (the GM holds every NPC's and sees every hand: the draw pile
    exactly). A deck not at the table (or nearly empty: the discard comes back) counts as fresh."""
    fight = state.get("combat")
    views = [v for v in (seat.deck(n) for n in decks.of_fight(state)) if v is not None]
    if not views:
        return None, "Counted from a fresh Minor Arcana (the deck is not at the table)."
    # the deck the rules will draw from: the most cards left counting the discard that refills it
    # (decks.for_rules), not the fuller draw pile alone
    by_name = {v.name: v for v in views}
    view_ = by_name[decks.most_left(list(by_name), lambda n: by_name[n].draw + len(by_name[n].discard))]
    unseen = Counter(view_.unseen)
    if fight:
        unseen.subtract(st.held_cards(fight, view_.name, seat.member, every=seat.is_gm))
    left = odds.composition(unseen.elements())
    if left is None:
        return None, f"Counted from a fresh {view_.name}: its draw pile is nearly out, and the discard comes back."
    who = "the draw pile" if seat.is_gm or not fight else "the draw pile and the hands you do not hold"
    return left, f"Counted from the {sum(left)} cards of the {view_.name} not face up ({who})."


def _prepared(state: Mapping[str, Any], entry: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """A check set up and waiting for one card or three, with the exact chance of each band;
    for a character whose sheet the seat may not see, its name and the complexity alone."""
    level = COMPLEXITIES[entry["complexity"]]
    named = {"combatant": entry["combatant"], "name": entry["name"], "complexity_label": level.label}
    helpers = (entry.get("inputs") or {}).get("helpers") or ()
    if not seat.sees_sheet(entry["combatant"]) or not all(seat.sees_sheet(str(h)) for h in helpers):
        return {**named, "hidden": True}  # an NPC's help is a figure of its sheet too
    rows = []
    left, counted = counted_from(state, seat)
    for count in (1, 3):
        o = odds.all_or_nothing(int(entry["total"]), level.key, cards=count, left=left)
        rows.append({"cards": count, **{band: pct(getattr(o, band)) for band in BAND_LABELS}})
    return {k: v for k, v in entry.items() if k != "inputs"} | named | {
        "counted_from": counted, "success_at": level.success, "critical_at": level.critical, "fumble_top": level.fumble_top, "odds": rows,
        "skill_label": entry["skill"].replace("_", " ").capitalize() if entry["skill"] else "no skill",
        "attribute_label": ATTRIBUTE_LABELS.get(entry["attribute"], entry["attribute"]),
    }


def _turn(state: Mapping[str, Any], seat: Seat) -> dict[str, Any] | None:
    """Whose move it is (games/contract.py, Panel): the defender of a waiting attack, a player
    choosing one card or three, a focus to declare, the GM's deal, the next to act (with the AP
    it has left, where the seat may see them), the GM's next round."""
    fight = state.get("combat")
    people = fight["combatants"] if fight else {}
    if fight and fight["pending"]:
        pending = fight["pending"]
        target, attacker = people[pending["target"]], people[pending["attacker"]]
        return {"combatant": target["id"], "gm": False,
                "says": f"{target['name']} answers {attacker['name']}'s attack",
                "prompt": f"defend {target['name']}: dodge or parry with cards from the hand, or take the blow"}
    prepared = list((state.get("prepared") or {}).values())
    if prepared:  # each check set up waits for its own player, all at once
        return awaiting({p["combatant"]: p["name"] for p in prepared}, "chooses one card or three",
                        "choose one card or three", "draw one card or three for {name}")
    if not fight:
        return None
    if fight["phase"] == "focus":
        waiting = [cid for cid in fight["order"] if st.standing(people[cid]) and people[cid]["focus"] is None]
        if waiting:  # every focus is declared at once: each player the step waits for is told
            return awaiting({cid: people[cid]["name"] for cid in waiting}, "chooses a focus", "choose a focus",
                            "choose {name}'s focus for this round")
        return {"combatant": None, "gm": True, "says": "The GM shuffles and deals the hands",
                "prompt": "shuffle the Minor Arcana and deal the hands"}
    undealt = [cid for cid in fight["order"] if st.standing(people[cid]) and not people[cid]["dealt"]]
    if undealt and all(people[cid]["focus"] for cid in undealt):
        return {"combatant": None, "gm": True, "says": "The GM deals to the newcomers",
                "prompt": "deal the newcomers' hands"}
    if undealt:
        return awaiting({cid: people[cid]["name"] for cid in undealt if not people[cid]["focus"]}, "chooses a focus",
                        "choose a focus", "choose {name}'s focus for this round")
    nxt = st.next_to_act(state)
    if nxt is not None:
        person = people[nxt]
        left = f" ({person['ap']} AP left)" if seat.sees_sheet(nxt) else ""
        return {"combatant": nxt, "gm": False, "says": f"{person['name']} acts{left}",
                "prompt": f"act for {person['name']}: attack, draw for an action, or say you are done"}
    return {"combatant": None, "gm": True, "says": "The GM starts the next round",
            "prompt": "start the next round, or end the combat"}


def view(state: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """The panel as ``seat`` sees it (module docstring)."""
    gm = seat.is_gm
    names = state.get("names", {})
    waiting = {s["card"] for s in (state.get("spending") or {}).values()}  # called on, the GM to judge
    out: dict[str, Any] = {
        "role": seat.role,
        "turn": over_turn(state) or _turn(state, seat),
        "now": now.line(over_turn(state) or _turn(state, seat), seat),
        "complexities": [{"key": c.key, "label": c.label, "fumble": c.fumble_top, "success": c.success,
                          "critical": c.critical} for c in COMPLEXITIES.values()],
        "attributes": [{"key": a, "label": ATTRIBUTE_LABELS[a]} for a in ATTRIBUTES],
        "foci": [{"key": f, "label": FOCUS_LABELS[f]} for f in FOCI],
        "bands": BAND_LABELS,
        # seed, "Minor Arcana Suit Indicators and Influences": shown where a card or a suit is chosen
        "suits": [{"key": s, "influences": deck.suit_influences(s)} for s in deck.SUITS],
        "weapons": [{**w, "type_label": ATTACK_LABELS[w["type"]],
                     "modifier_words": MODIFIERS.get(w["modifier"], (0, f"adds {w['modifier']}"))[1]}
                    for w in state["weapons"]],
        "weapons_text": format_table(state["weapons"]),
        # what a raise restores (a table option: campaign.py), said beside the GM's raise
        "raised_health": CLOCK.option(state, RAISED_HEALTH),
        "held": {cid: {"name": names.get(cid, cid),
                       "cards": [{**major_face(t), "waiting": t in waiting} for t in cards]}
                 for cid, cards in state["held"].items() if cards},
        "checks": [{**c, "faces": [card_face(t) for t in c.get("cards", [])],
                    "extra_face": card_face(c["extra"]) if c.get("extra") else None,
                    "band_label": BAND_LABELS.get(c.get("band", ""), ""),
                    "complexity_label": COMPLEXITIES[c["complexity"]].label if c.get("complexity") else ""}
                   for c in reversed(state["checks"])],
        "prepared": [_prepared(state, p, seat) for p in (state.get("prepared") or {}).values()],
        "counters": [{**c, "counterer_name": names.get(c["counterer"], c["counterer"]),
                      "target_name": names.get(c["target"], c["target"])} for c in state["counters"]],
        "help": {cid: helpers for cid, helpers in state["help"].items()},
        "spending": [{**s, "face": major_face(s["card"])} for s in (state.get("spending") or {}).values()],
        "help_asked": [{"combatant": cid, "name": names.get(cid, cid),
                        "helpers": [{"cid": h, "name": names.get(h, h)} for h in helpers]}
                       for cid, helpers in (state.get("asked") or {}).items()],
        "help_named": [{"combatant": cid, "name": names.get(cid, cid),
                        "helpers": [names.get(h, h) for h in helpers]} for cid, helpers in state["help"].items()],
        "guides": [
            {"id": g["id"], "combatant": g["combatant"], "name": names.get(g["combatant"], g["combatant"]),
             "drawn": g["card"] is not None, "shown": g["shown"],
             **({"card": major_face(g["card"])} if g["card"] and (gm or g["shown"]) else {})}
            for g in state["guides"]
        ],
        "contests": [
            {k: v for k, v in c.items() if k != "margin" or gm} for c in state["contests"].values()
        ],
        "combat": fight_edges(state, seat, fight_view(state, seat)),
    }
    if gm:
        out["criticals_text"] = crit.format_tables(state["criticals"])
    return out


def hand_of(state: Mapping[str, Any], member: int | None) -> list[dict[str, Any]]:
    """The hands member ``member`` holds this round: their own characters', and every NPC's
    when they are the GM. The only way, besides the GM's view, that hand cards leave the
    state."""
    fight = state.get("combat")
    if not fight or member is None:
        return []
    out = []
    for cid in fight["order"]:
        person = fight["combatants"][cid]
        if person["dealt"] and person.get("holder") == member:
            out.append({"combatant": cid, "name": person["name"], "ap": person["ap"],
                        "cards": [card_face(t) for t in person["hand"]]})
    return out
