"""Recovery and healing (seed 001, "Wounds, Fatigue, and the Effects of Damage"): how much a
tending tends, and the rest and the tending a Persona takes outside any fight, on its sheet as
the table holds it (``turn.characters``; ``writeback`` puts the result back).

Seed: "As you might expect, Recovery of Fatigue occurs when the Persona rests, exits the
Scene, or has some Effect restore it." / "Wounds must be tended for the individual to regain so
Fatigue and Wound Ticks". Readings (the seed gives no figures outside a fight):
    - A rest outside a fight is the seed's extended rest ("three rounds return the Persona to
      available Fatigue levels"): Fatigue rises to its eligible level (100 less the untended
      Wound points). It heals no Wound (the seed has a rest recover Fatigue; tended Wounds heal
      with time: ``campaign``), and it is taken at most once per span of time: the decided
      reading, "Fatigue recovers when the Persona rests or leaves the Scene, at most once per
      span of time passed".
    - Tending is a skill check of the tender's choosing (first aid, Campfire...), the Director
      deciding check or challenge; it exerts the tender (one Fatigue tick, whatever the roll)
      and serves one patient: a Success or a Double Down tends every untended point, a Double Up
      half of them (rounded up), a failure none. An Unconscious patient tended at all is
      revived with one Wound tick. A Downed or Unconscious Persona tends nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.engine import Turn
from games.passages import persona, rules, tracks
from games.passages import state as st
from games.passages.access import require_able
from games.passages.errors import BadValue, CannotAct, NotNow
from games.passages.sheet import clean

KEPT = ("wounds", "fatigue", "untended", "magic")
Event = dict[str, Any]


def tended_points(band: str, untended: int) -> int:
    """The untended points a tending of this band tends (see the module's reading)."""
    if band in (rules.SUCCESS, rules.DOUBLE_DOWN):
        return untended
    if band == rules.DOUBLE_UP:
        return -(-untended // 2)
    return 0


def after_tending(patient: Mapping[str, Any], points: int) -> dict[str, int]:
    """A patient's tracks once ``points`` of its untended Wounds are tended: an Unconscious one
    tended at all wakes with one Wound tick."""
    wounds = patient["wounds"]
    if points > 0 and wounds == 0:
        wounds = tracks.TICK
    untended = min(max(0, patient["untended"] - points), tracks.FULL - wounds)
    return {"wounds": wounds, "untended": untended}


def _sheet(turn: Turn, cid: object) -> dict[str, Any]:
    character = turn.character(cid)
    if character is None:
        raise BadValue("Choose a Persona at this table.")
    person = {**clean(character.sheet), "id": character.cid, "name": character.name}
    person.update(unconscious=person["wounds"] == 0, downed=person["fatigue"] == 0)
    return person


def _tracks(person: Mapping[str, Any]) -> dict[str, int]:
    return {k: int(person[k]) for k in KEPT}


def rest_outside(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """A rest outside any fight: Fatigue to its eligible level, once per span of time (the
    decided reading: "at most once per span of time passed"; the rest is stamped with the
    table's clock, ``at``). The Unconscious cannot rest: "Such personae cannot perform any
    Actions until revived"; nor can one who has nothing to recover."""
    person = _sheet(turn, args.get("combatant"))
    if person["unconscious"]:
        raise CannotAct(f"{person['name']} is Unconscious: only another's tending revives them.")
    if time.same_span(rested_at(state, person["id"]), state):
        raise NotNow(f"{person['name']} has rested since time last passed: the next rest comes when the "
                     "scene ends or a night passes.")
    ceiling = tracks.eligible_fatigue(person["untended"])
    if person["fatigue"] >= ceiling:
        raise BadValue(f"{person['name']}'s Fatigue is already at its eligible level ({ceiling}): "
                       "a rest recovers nothing.")
    after = {**_tracks(person), "fatigue": tracks.gain(person["fatigue"], tracks.FULL, ceiling)}
    return [{"type": "rested", "combatant": person["id"], "name": person["name"], "before": _tracks(person),
             "after": after, "at": time.now(state)}]


def rested_at(state: Mapping[str, Any], cid: object) -> Mapping[str, Any] | None:
    """When ``cid`` last rested outside a fight (a ``clock.now`` stamp), or None."""
    return (state.get("rests") or {}).get(str(cid))


def tend_outside(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """One Persona tends one patient's untended Wounds outside any fight (see the reading)."""
    assert turn.rng is not None
    if args.get("challenge") and not turn.member.is_gm:
        raise BadValue("The Director decides whether a check is a challenge.")
    tender = _sheet(turn, args.get("combatant"))
    require_able(tender)
    patient = tender if args.get("patient") in (None, tender["id"]) else _sheet(turn, args.get("patient"))
    if patient["untended"] <= 0:
        raise BadValue(f"{patient['name']} has no untended Wounds to tend.")
    skill, base = persona.skill(tender, args.get("skill"))
    challenge = bool(args.get("challenge")) or st.hindered(state, tender["id"])
    result = rules.check(skill, base, turn.rng, challenge=challenge)
    points = tended_points(result.band, patient["untended"])
    tender_after = {**_tracks(tender), "fatigue": tracks.lose(tender["fatigue"], tracks.TICK)}
    patient_before = tender_after if patient is tender else _tracks(patient)
    patient_after = {**patient_before, **after_tending(patient_before, points)}
    if patient is tender:
        tender_after = patient_after
    npcs = [p["id"] for p in (tender, patient) if (c := turn.character(p["id"])) is not None and c.is_npc]
    return [{"type": "tended", "tender": tender["id"], "patient": patient["id"],
             "names": {tender["id"]: tender["name"], patient["id"]: patient["name"]},
             "check": result.to_dict(), "points": points, "cost": tracks.TICK,
             "before": {tender["id"]: _tracks(tender), patient["id"]: _tracks(patient)},
             "after": {tender["id"]: tender_after, patient["id"]: patient_after}, "npcs": sorted(set(npcs))}]


def sheets_before(before: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    """``Undo.says``: what the sheets held before a step taken back, when the step changed them
    outside a fight (a rest, a tending, a correction: ``outside`` in the state keeps each
    sheet's last such change, with what it held before)."""
    was, changed = before.get("outside") or {}, now.get("outside") or {}
    restore = {cid: dict(c["before"]) for cid, c in changed.items() if was.get(cid) != c}
    return {"restore": restore} if restore else {}


def idle(state: Mapping[str, Any]) -> bool:
    return state["mode"] == st.IDLE


# How its events fold into the state (``events.FOLDS``).


def keep_sheet(state: dict[str, Any], cid: str, tracks: Mapping[str, Any], before: Mapping[str, Any],
                step: object) -> None:
    """Outside a fight the sheets are the truth (``writeback``); the state keeps each sheet's last
    change, with what it held before (``outside``: what an undo puts back), and a Persona it
    still holds from the last scene follows them, so the log folds to what the sheets say."""
    state["outside"] = {**(state.get("outside") or {}),
                        cid: {"step": step, "before": dict(before), "after": dict(tracks)}}
    if cid in state["personae"]:
        person = state["personae"][cid]
        person.update(tracks)
        person.update(unconscious=person["wounds"] == 0, downed=person["fatigue"] == 0)


def rested(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    keep_sheet(state, e["combatant"], e["after"], e["before"], e.get("step"))
    if e.get("at"):  # a rest logged before the clock kept no stamp
        state["rests"] = {**(state.get("rests") or {}), e["combatant"]: dict(e["at"])}


def tended(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    for cid, tracks in e["after"].items():
        keep_sheet(state, cid, tracks, e["before"][cid], e.get("step"))
    st.mark(state, e["tender"], e["check"].get("skill"))  # a tending is a check in earnest
    state["checks"] = (state["checks"] + [{"combatant": e["tender"], **e["check"]}])[-st.KEEP_CHECKS:]
