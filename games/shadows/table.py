"""How Shadows of Humanity plugs into a table: the sheet (re-exported from ``sheet``) and
the writeback, what the procedure leaves on the characters' sheets.

- The Major Arcana a character holds (seed: "the sheet shows the cards held", issue 16) go
  on its sheet as ``held_major_arcana`` whenever they change.
- When a combat ends, what is left of each combatant's Health, Life and Æssence goes back to
  its sheet ("Health now" and so on; the sheet's Health stays the whole).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Glance
from games.shadows import deck
from games.shadows.combat import ATTRIBUTE_LABELS, action_points
from games.shadows.errors import RuleError
from games.shadows.sheet import FIELDS, HELD, NOW, TRACK_LABELS, TRACKS, clean_sheet, derived, profile
from games.shadows.state import harm

__all__ = ["FIELDS", "clean_sheet", "derived", "glance", "standing", "writeback"]


def _now(tracks: Mapping[str, int], whole: Mapping[str, int] | None) -> dict[str, Any]:
    """Health, Life and Æssence now, for the sheet: blank while whole ("Blank while unhurt")."""
    return {NOW[t]: None if whole is not None and v == whole.get(t) else v for t, v in tracks.items()}


def _hurt(state: Mapping[str, Any], cid: str, *, fell: bool = False) -> dict[str, dict[str, Any]]:
    """A player character's tracks as the fight has left them, so its card beside the table
    follows the fight. An NPC's wait for the fight's end (its sheet is the GM's, whose panel
    shows its tracks meanwhile, and a line for each hit would only say that it changed), or for
    the blow that fells it: then its card says "Down" or "Dead" to everyone (``npc_glance``),
    as the blow's own line does."""
    person = ((state.get("combat") or {}).get("combatants") or {}).get(cid)
    if person is None or (person.get("npc") and not fell):
        return {}
    return {cid: _now({t: person[t] for t in TRACKS}, person["maxima"])}


def writeback(event: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    kind = event.get("type")
    if kind == "attack_resolved":
        return _hurt(state, event["target"], fell=bool(event.get("falls")))
    if kind == "adjusted" and event.get("field") in TRACKS:
        return _hurt(state, event["combatant"])
    if kind in ("major_arcana_kept", "arcana_spent"):
        cid = event["combatant"]
        return {cid: {HELD: list(state["held"].get(cid, []))}}
    if kind == "session_ended":
        touched = set(event["kept"]) | set(event["dropped"])
        return {cid: {HELD: list(state["held"].get(cid, []))} for cid in sorted(touched)}
    if kind == "combat_ended":
        whole = event.get("whole") or {}
        return {cid: _now(tracks, whole.get(cid)) for cid, tracks in event["tracks"].items()}
    return {}


_SHOWN = ("quickness", "body", "mind", "spirit")


HARM_TAGS = ("Dead", "Down", "No Æssence left")


def npc_glance(glance: Glance) -> Glance:
    """What an NPC's card shows the seats its sheet is hidden from: whether it is dead, down or
    out of Æssence, which everyone sees happen; its tracks, figures and the rest of its tags
    (vulnerabilities, resistances, Major Arcana held) are the GM's (visibility.py)."""
    return Glance(tags=tuple(t for t in glance.tags if t in HARM_TAGS), out=glance.out)


def glance(sheet: Mapping[str, Any]) -> Glance:
    """A character card at a glance: AP and the attributes a fight turns on (Quickness for
    AP and Defence, Body, Mind and Spirit for the hands), the skills, Health, Life and Æssence
    now of whole, and tags: dead or down (then the card is ``out``), no Æssence left,
    vulnerabilities, resistances, immunities, Major Arcana held."""
    try:
        person = profile({**sheet, "id": "sheet"})
    except RuleError:
        return Glance()
    attrs = person["attributes"]
    stats = [("AP", str(action_points(attrs["quickness"])))]
    stats += [(ATTRIBUTE_LABELS[a], str(attrs[a])) for a in _SHOWN]
    stats += [(name.replace("_", " ").capitalize(), str(v)) for name, v in person["skills"].items() if v]
    if person["armour"]:
        stats.append(("Armour", str(person["armour"])))
    if person["protection"]:
        stats.append(("Protection", f"+{person['protection']}"))
    tracks = tuple((TRACK_LABELS[t], int(person[t]), int(person["maxima"][t])) for t in TRACKS)
    tags = []
    fallen = harm(person)  # "dead" or "down" (state.py: no Life, no Health)
    if fallen:
        tags.append(fallen.capitalize())
    if person["aessence"] <= 0:
        tags.append("No Æssence left")
    for label, key in (("Vulnerable", "vulnerabilities"), ("Resists", "resistances"), ("Immune", "immunities")):
        if person[key]:
            tags.append(f"{label}: {person[key]}")
    held = [t for t in sheet.get(HELD) or [] if isinstance(t, str) and deck.is_major(t)]
    if held:
        tags.append("Holds " + ", ".join(deck.name(t) for t in held))
    return Glance(stats=tuple(stats), tracks=tracks, tags=tuple(tags), out=bool(fallen))


def standing(character: Character) -> dict[str, Any]:
    """``Panel.character_view``: whether a character is ``fallen`` ("dead", "down" or "") as its
    sheet stands, so the form that starts the next fight leaves whoever is not ticked."""
    try:
        return {"fallen": harm(profile({**character.sheet, "id": character.cid}))}
    except RuleError:
        return {"fallen": ""}
