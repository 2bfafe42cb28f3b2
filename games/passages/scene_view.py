"""The contest and the fight as the panel shows them to one seat.

``hidden`` is the Personae whose sheets the seat may not see (NPCs behind the Director's
screen, ``Seat.hidden``). Reading (seed 001): the Game State lists "each Persona's Health,
Fatigue, Combat Eligibility and Combat Status", so the tracks are everyone's, and every roll
is made in the open, so each die and what it achieved (a band, a Potential Wound, the points a
blow deals) is everyone's. The figures on an NPC's sheet are the Director's: its BASEs, its
Selected Combat and Defense values, its weapon's damage and its armour's effect, and any odds
counted from them. The names of what it does in the open (the skill it rolls, its Intent) stay
public, as the Director says them at the table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.core.dice import faces
from games.core import fights
from games.passages import odds, persona, sides
from games.passages import state as st
from games.passages.narrate import summary
from games.passages.sides import roster

SECRET_ODDS = "The odds depend on the Director's figures."


def d100(value: int | None) -> dict[str, Any] | None:
    """A percentile roll drawn as the table throws it, two d10s, tens and units
    (templates/games/core/die.html); none for a practice, which rolls nothing. Every roll is
    made in the open, an NPC's too."""
    return None if value is None else {"value": value, "faces": faces(100, value)}


def line(kind: str, event: Mapping[str, Any], state: Mapping[str, Any], hidden: Collection[str]) -> str:
    """What the log said of a recorded event (stored without its type), said again for a seat."""
    return summary({**event, "type": kind}, state, hidden)


def contest_view(state: Mapping[str, Any], names: Mapping[str, str], hidden: Collection[str]) -> dict[str, Any]:
    contest = state["contest"]
    resource = "magic" if contest["magic"] else "fatigue"

    def rolled(cid: str) -> dict[str, Any] | None:
        check = contest["rolls"].get(cid)
        if check is None:
            return None
        if cid not in hidden:
            return {**check, "die": d100(check["roll"])}
        # the open roll alone
        return {"roll": check["roll"], "band": check["band"], "label": check["label"], "die": d100(check["roll"])}

    return {
        "round": contest["round"], "magic": contest["magic"], "cost": contest["cost"],
        "resource": "Magical Resources" if contest["magic"] else "Fatigue",
        "parties": [{"id": cid, "name": names[cid], "active": cid in contest["active"],
                     "challenge": cid in contest["challenge"], "rolled": rolled(cid),
                     "waiting": cid in st.contest_waiting(state),
                     "left": state["personae"][cid][resource]}
                    for cid in contest["parties"]],
        "waiting": [names[c] for c in st.contest_waiting(state)],
        "joining": [names[c] for c in st.in_scene(state) if state["personae"][c].get("joining")],
        "history": [line("contest_round", {**h, "resource": resource}, state, hidden)
                    for h in contest["history"][-5:]],
        "result": contest["result"],
    }


def _pairing_odds(state: Mapping[str, Any], pairing: Mapping[str, Any], hidden: Collection[str]) -> dict[str, Any]:
    """The chance of each outcome, counted from both sides' Combat and Defense: the Director's
    alone when either side's sheet is behind the screen (a plain line says so to the others)."""
    if pairing["a"] in hidden or pairing["b"] in hidden:
        return {"secret": SECRET_ODDS}
    declared, people = state["combat"]["declared"], state["personae"]
    a, b = declared[pairing["a"]], declared.get(pairing["b"], {})
    a_timing = st.modifier(state, pairing["a"])
    # the Defense each attack meets (a spell's, the Magical Defense Effect)
    b_defense = persona.defense_against(people[pairing["b"]], b, bool(a.get("magic")))[1]
    if pairing["kind"] == "mutual":
        a_defense = persona.defense_against(people[pairing["a"]], a, bool(b.get("magic")))[1]
        o = odds.pairing(a["combat"], a_defense, b["combat"], b_defense, a_timing=a_timing,
                         b_timing=st.modifier(state, pairing["b"]))
        return {key: odds.percent(v) for key, v in o.items()}
    return {"a_lands": odds.percent(odds.lands(a["combat"], b_defense, a_timing))}


def _declaration(d: Mapping[str, Any], names: Mapping[str, str], hidden: Collection[str]) -> str:
    """A Declaration in plain words, for the Game State's table: an NPC's without its figures."""
    if d["stance"] == st.IN:
        shot = ", ranged" if d.get("ranged") else ""
        said = f"IN: {d['intent']} against {names.get(d['target'], '')}"
        if d["combatant"] in hidden:
            return said + shot
        return (f"{said}, with {d['combat_skill']} {d['combat']} (defends at {d['defense']}; damage "
                f"{d['damage']}{shot})")
    if d["action"] == st.REST:
        return "OUT: rests" + (" (Downed: rest only)" if d.get("auto") else "")
    if d["action"] == st.TEND:
        patient = d.get("patient")
        return "OUT: tends " + ("their own wounds" if patient == d["combatant"] else
                                f"{names.get(patient or '', '')}'s wounds")
    if d["action"] == "unconscious":
        return "Unconscious: no Action"
    return f"OUT: {d['action']}"


def combat_view(state: Mapping[str, Any], names: Mapping[str, str], hidden: Collection[str]) -> dict[str, Any]:
    fight = state["combat"]
    to_declare, to_roll = st.waiting_to_declare(state), st.rolls_awaited(state)
    fighters = roster(state)
    done, stands = fights.winner(fighters)
    rows = []
    for cid in st.in_scene(state):
        d = fight["declared"].get(cid)
        roll = fight["rolls"].get(cid)
        person = state["personae"][cid]
        rows.append({
            "id": cid, "name": names[cid], "declared": _declaration(d, names, hidden) if d else "",
            "status": person.get("status", ""), "joining": bool(person.get("joining")),
            "gone": not person.get("present", True) and not person.get("joining"),
            # a tending declared, its roll still to make once every Declaration is in
            "to_tend": bool(d) and d.get("action") == st.TEND and fight["phase"] == st.TIMING
            and cid not in fight.get("acted", ()),
            # whom its Declaration may attack: standing enemies first, never one who is out, nor
            # reinforcements not yet in (they are on the Scene from the next Turn)
            "targets": [{"id": f.cid, "name": f.name} for f in fights.targets_first(fighters, cid)
                        if state["personae"][f.cid].get("present", True)],
            "side": sides.side(state, cid), "out": sides.why_out(person),
            "lapsed": st.lapsed(state, cid),
            "stance": d["stance"] if d else "", "awaiting": "declare" if cid in to_declare else
            "roll" if cid in to_roll else "", "timing": fight["timing"].get(cid),
            "roll": line("combat_rolled", roll, state, hidden) if roll else "",
            "die": d100(roll["die"]) if roll else None,
        })
    pairs = []
    if fight["phase"] in (st.TIMING, st.RESOLVED):
        done_pairs = {(p["a"], p["b"]): p for p in fight["pairings"]}
        for pairing in st.pairings(state):
            result = done_pairs.get((pairing["a"], pairing["b"]))
            pairs.append({**pairing, "a_name": names[pairing["a"]], "b_name": names[pairing["b"]],
                          "resolved": result is not None,
                          "line": line("pairing_resolved", result, state, hidden) if result else "",
                          "odds": _pairing_odds(state, pairing, hidden)})
    last = fight["resolutions"][-1] if fight["resolutions"] else None
    return {
        "turn": fight["turn"], "phase": fight["phase"],
        "phase_label": "Declaration" if fight["phase"] == st.DECLARE else "the Combat Rolls",
        "rows": rows, "pairings": pairs,
        # whom a Declaration may name: those still on the Scene
        "targets": [{"id": c, "name": names[c]} for c in st.present(state)],
        # who is on the Scene, as a key: forms the page preserves (hx-preserve) are drawn anew
        # when it changes, so no list offers one who left or misses one who came
        "roster": "-".join(f"{c}{'j' if state['personae'][c].get('joining') else ''}" for c in st.present(state)
                           + [c for c in st.in_scene(state) if state["personae"][c].get("joining")]),
        "waiting_to_declare": [names[c] for c in to_declare],
        "waiting_to_roll": [names[c] for c in to_roll],
        "may_time": [{"id": c, "name": names[c]} for c in st.attackers(state)
                     if c not in fight["rolls"] and not st.lapsed(state, c)],
        "ready": fight["phase"] == st.TIMING and not to_roll,
        # the fight is over (games/core/fights.py): the Resolution Point of the Turn under way
        # still tallies it, and no new Turn starts; once over at its Resolution Point, the
        # Director may start the next Turn only if a side stands again
        "over": fights.over_line(stands) if done else "",
        "next_turn": fight["phase"] == st.RESOLVED and not done,
        "sides": sorted({sides.side(state, c) for c in st.in_scene(state)} | {fights.PCS, fights.NPCS}),
        "last_resolution": None if last is None else {
            "turn": last["turn"], "rows": [_resolution_row(r, names) for r in last["rows"]]},
    }


def _resolution_row(row: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """One Persona at the Resolution Point, each step in the seed's order: the tracks' changes,
    everyone's (the Game State's)."""
    before, after = row["before"], row["after"]
    parts = [f"damage {row['damage']}" if row["damage"] else "",
             f"combat action {row['action']}" if row["action"] else "",
             f"failing {row['failing']}" if row["failing"] else "",
             f"tending {row['tending']}" if row.get("tending") else "",
             f"untended wounds {row['drain']}" if row["drain"] else "",
             f"{int(row['tended'])} untended points tended" if row["tended"] else "",
             "revived by the tending" if row.get("revived") else "",
             f"Magical Resources {row['magic_spent']}" if row.get("magic_spent") else "",
             *row.get("said", ()),
             f"recovers {row['recovered']}" if row["recovered"] else ""]
    return {"name": names.get(row["combatant"], ""), "wounds": f"{before['wounds']} → {after['wounds']}",
            "fatigue": f"{before['fatigue']} → {after['fatigue']}",
            "why": ", ".join(p for p in parts if p) or "nothing changes",
            "state": "Unconscious" if row["unconscious"] else "Downed" if row["downed"] else ""}
