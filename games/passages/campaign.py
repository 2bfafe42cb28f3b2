"""Passages over a campaign: what the table's clock does to the tracks, the Status a lasting
condition carries, and the marks of skills used in a session and their rise when it closes
(the core's ``Clock``, games/core/clock.py).

Seed: "As you might expect, Recovery of Fatigue occurs when the Persona rests, exits the Scene,
or has some Effect restore it." / "Wounds must be tended for the individual to regain so
Fatigue and Wound Ticks" / "Each Untended Wound Point costs an additional point of Fatigue at
the Resolution Point at the end of each Action Phase." / "Persona advance over time from their
lowest values in the first session"; "the skill must be used practically, in pursuit of the
story, to be able to be advanced".

The decided reading, outside combat: "Fatigue recovers when the Persona rests or leaves the
Scene, at most once per span of time passed; untended wounds keep draining as the seed says
until tended." So, for each span the GM passes (the scene ends, a night passes, a week passes:
each one leaves the Scene):
    - Fatigue rises to its eligible level (100 less the untended Wound points, ``tracks``); the
      Unconscious recover nothing ("Such personae cannot perform any Actions until revived").
    - Then each untended Wound point drains one Fatigue point (the seed's rate, one point a
      point, counted once for the span as it is once for an Action Phase), until tended.
    - Tended Wounds heal only with time, at rates the seed does not give: table options, one
      tick (5 points) a night and all of them a week by default. Untended points never heal.
      A rest heals no Wound: the seed has a rest recover Fatigue only.

The decided reading, advancement: "a skill used "practically, in pursuit of the story" (a Check,
Challenge or Contest that counted, never practice) is marked in the session; when the session
closes the Director approves a rise of each marked skill's BASE (default +1, a table option),
never past 95." A Combat Roll marks nothing (the reading names a Check, a Challenge and a
Contest); an NPC's skills do not rise (its sheet is the Director's to set, and its BASEs are
behind the screen).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.forms import Form, values
from games.contract import Table
from games.passages import state as st
from games.passages import tracks
from games.passages.errors import BadValue, NotNow
from games.passages.recovery import keep_sheet
from games.passages.rules import MASTERED
from games.passages.sheet import clean, skill_key

Event = dict[str, Any]
KEPT = ("wounds", "fatigue", "untended", "magic")

# The condition effects the rules read (``clock.modifier`` / ``clock.has``): a Persona's Status
# that lasts. Seed: "Combat Status is a reminder of current Conditions each Persona is dealing
# with ... (This includes terrain effects, injuries, etc.)"; "Timing is a result of Combat
# Status, and modifies the Combat roll"; "CHALLENGES are Actions hindered by certain
# circumstances, or specific Conditions decided on by the Director".
TIMING, HINDERED = st.TIMING, st.HINDERED
EFFECTS = {
    TIMING: "its amount added to the Persona's Combat Roll (Combat Status: \"Timing is a result of Combat "
            "Status, and modifies the Combat roll\")",
    HINDERED: "the Persona's checks are Challenges, on the Core (\"CHALLENGES are Actions hindered by certain "
              "circumstances, or specific Conditions decided on by the Director\")",
}

RISE, WOUNDS_NIGHT, WOUNDS_WEEK = "skill_rise", "wounds_night", "wounds_week"
ADVANCED = "skills_advanced"  # the event of the rises at a session's close: Passages' growth
OPTIONS = (
    time.Option(RISE, "A marked skill's rise at a session's close", 1, 0, 10,
                why="the decided reading: the Director approves a rise of each marked skill's BASE "
                    "(default +1), never past 95"),
    time.Option(WOUNDS_NIGHT, "Tended Wound points healed a night", tracks.TICK, 0, tracks.FULL,
                why="the rules give no rate outside a fight (\"Wounds must be tended for the individual to "
                    "regain so Fatigue and Wound Ticks\"): one tick a night by default"),
    time.Option(WOUNDS_WEEK, "Tended Wound points healed a week", tracks.FULL, 0, tracks.FULL,
                why="the rules give no rate outside a fight: a week heals every tended Wound by default"),
)
HEALS = {time.NIGHT: WOUNDS_NIGHT, time.WEEK: WOUNDS_WEEK}

_LEAVES = ("Fatigue recovers to its eligible level (100 less untended Wound points), then each untended "
           "Wound point drains a Fatigue point until tended")
SAYS = {
    time.SESSION: "each approved marked skill's BASE rises (+1 by default, a table option), never past 95",
    time.SCENE: f"Everyone leaves the Scene: {_LEAVES}.",
    time.NIGHT: f"{_LEAVES}; tended Wounds heal (one tick by default, a table option).",
    time.WEEK: f"{_LEAVES}; tended Wounds heal (all of them by default, a table option).",
}


def fight_round(state: Mapping[str, Any]) -> int:
    """The Turn of the fight under way (0 when none is), for conditions lasting rounds."""
    combat = state.get("combat")
    return int(combat.get("turn") or 0) if state.get("mode") == st.COMBAT and combat else 0


def _tracks(sheet: Mapping[str, Any]) -> dict[str, int]:
    return {k: int(sheet[k]) for k in KEPT}


def after_span(sheet: Mapping[str, Any], heal: int) -> dict[str, int]:
    """A sheet's tracks once a span has passed (see the module's reading): ``heal`` tended
    Wound points healed first, then Fatigue to its eligible level, then the untended drain."""
    now = _tracks(sheet)
    unconscious = now["wounds"] == 0
    tended_lost = max(0, tracks.FULL - now["wounds"] - now["untended"])
    now["wounds"] = now["wounds"] + min(max(0, heal), tended_lost)
    if unconscious:  # carried, not resting: "cannot perform any Actions until revived"
        return now
    now["fatigue"] = tracks.gain(now["fatigue"], tracks.FULL, tracks.eligible_fatigue(now["untended"]))
    now["fatigue"] = tracks.lose(now["fatigue"], now["untended"])
    return now


def passes(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    """``Clock.passes``: every Persona at the table, as its sheet holds it, after ``span``.
    Time does not pass in the middle of a contest or a fight: the Director ends it first."""
    if state.get("mode") == st.COMBAT:
        raise NotNow("A fight is under way: end it before time passes.")
    if state.get("mode") == st.CONTEST:
        raise NotNow("A contest is under way: end it before time passes.")
    heal = CLOCK.option(state, HEALS[span]) if span in HEALS else 0
    rows = []
    for cid, character in turn.characters.items():
        try:
            sheet = clean(character.sheet)
        except RuleError:  # a sheet the rules cannot read keeps what it holds
            continue
        before = _tracks(sheet)
        after = after_span(sheet, heal)
        if after != before:
            rows.append({"combatant": str(cid), "name": character.name, "before": before, "after": after})
    return [{"type": "time_recovered", "span": span, "rows": rows}] if rows else []


# ------------------------------------------------------------------------------- advancement

def approval(cid: object, skill: str) -> str:
    """How the close form names one marked skill (its ``approve`` checkbox's value)."""
    return f"{cid}:{skill}"


def closing_parse(form: Form, table: Table) -> dict[str, Any]:
    """The Director's approvals on the close form: a form that lists the marked skills sends
    ``approving`` and an ``approve`` box ticked for each skill that rises; a form without the
    list (``approving`` absent) approves every mark."""
    if not values(form, "approving"):
        return {}
    approved = sorted({v.strip() for v in values(form, "approve") if v.strip()})
    if any(len(v) > 400 for v in approved):
        raise BadValue("An approval names one Persona's marked skill.")
    return {"approve": approved}


def closing(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """``Clock.closing``: each approved marked skill's BASE rises by the option, never past 95
    (Mastered), on the sheet as the table holds it; every mark is cleared."""
    kept = {cid: st.marks(state, cid) for cid in state.get("marks") or {}}
    if not any(kept.values()):
        return []
    rise = CLOCK.option(state, RISE)
    approved = args.get("approve")
    rows: list[dict[str, Any]] = []
    skills_after: dict[str, dict[str, int]] = {}
    for cid in sorted(kept):
        character = turn.character(cid)
        if character is None or character.is_npc:
            continue
        try:
            skills = clean(character.sheet)["skills"]
        except RuleError:
            continue
        for used in kept[cid]:
            name = skill_key(skills, used)
            if name is None or (approved is not None and approval(cid, used) not in approved):
                continue
            before = skills[name]
            after = min(MASTERED, before + rise)
            if after != before:
                skills = {**skills, name: after}
                rows.append({"combatant": str(cid), "name": character.name, "skill": name, "before": before,
                             "after": after})
        if any(r["combatant"] == str(cid) for r in rows):
            skills_after[str(cid)] = skills
    return [{"type": ADVANCED, "rows": rows, "skills": skills_after,
             "marked": sum(len(v) for v in kept.values())}]


def closing_view(state: Mapping[str, Any], characters: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The marked skills the Director approves at the close, each Persona's (PCs only: an NPC's
    skills do not rise), for the close form's boxes (``approve``: ``approval(cid, skill)``)."""
    shown = []
    for cid in sorted(state.get("marks") or {}):
        character = characters.get(cid)
        if character is None or character.is_npc:
            continue
        for skill in st.marks(state, cid):
            shown.append({"who": character.name, "skill": skill, "value": approval(cid, skill)})
    return shown


# ------------------------------------------------------------------------------- folds, lines

def fold_recovered(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    for row in e["rows"]:
        keep_sheet(state, row["combatant"], row["after"], row["before"], e.get("step"))


def fold_advanced(state: dict[str, Any], e: Mapping[str, Any]) -> None:
    """The marks are spent; a Persona the state still holds from the last scene keeps its new
    BASEs, as its sheet does."""
    state["marks"] = {}
    for cid, skills in e["skills"].items():
        if cid in state["personae"]:
            state["personae"][cid]["skills"] = dict(skills)


def recovered_line(e: Mapping[str, Any]) -> str:
    parts = []
    for row in e["rows"]:
        before, now = row["before"], row["after"]
        changes = [f"{label} {before[k]} → {now[k]}" for k, label in (("wounds", "Wounds"), ("fatigue", "Fatigue"))
                   if before[k] != now[k]]
        parts.append(f"{row['name']}: {', '.join(changes)}")
    return f"{time.SPANS.get(e['span'], 'Time passes')}: " + "; ".join(parts) + "."


def advanced_line(e: Mapping[str, Any]) -> str:
    if not e["rows"]:
        return "The session closes: no marked skill rises; the marks are cleared."
    rises = "; ".join(f"{r['name']}'s {r['skill']} {r['before']} → {r['after']}" for r in e["rows"])
    return f"The session closes; skills used in earnest rise: {rises}."


CLOCK = time.Clock(passes=passes, says=SAYS, effects=EFFECTS, round=fight_round, closing=closing,
                   closing_parse=closing_parse, options=OPTIONS,
                   closing_fields="games/passages/panel.html#closing_fields", closing_view=closing_view)
