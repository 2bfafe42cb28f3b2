"""The Director's screen over the log: who reads each event, and what an NPC's figures leave
out of the part everyone reads.

Every roll in Passages is made in the open, so every event goes to everyone. But an event that
holds an NPC's figures (its sheet when a scene begins, its Selected Combat and Defense in a
Declaration or a Combat Roll, a BASE in a check, its weapon's damage or armour in a wound) keeps
them in a part only the Director reads, with the Director's own log line; the line everyone
reads says what happened in the open (the die, the band, the points dealt: ``narrate``).

Which Personae are NPCs is what the table said when the scene began (``persona["npc"]``); the
events are logged once, so they stay behind the screen if the table later shows NPC sheets.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from games.contract import PUBLIC, AudienceRule, Visibility, screened, with_gm_part
from games.core.engine import UNDONE, Turn
from games.core.fights import SIDE_SET
from games.passages.events import CHECK_EVENT, FOLDS, after
from games.passages.narrate import summary
from games.passages.state import npcs

Event = Mapping[str, Any]


def _in(hidden: Collection[str], *cids: object) -> bool:
    return any(str(c) in hidden for c in cids)


def _scene(e: Event, hidden: Collection[str]) -> tuple[str, ...]:
    return ("personae",) if _in(hidden, *(p["id"] for p in e["personae"])) else ()


def _rolled(e: Event, hidden: Collection[str]) -> tuple[str, ...]:
    keys = ("combat_skill", "combat", "total", "margin") if _in(hidden, e["combatant"]) else ()
    return keys + (("defense", "defense_skill", "margin") if _in(hidden, e["target"]) else ())


def _declaration(e: Event, hidden: Collection[str]) -> tuple[str, ...]:
    return ("declaration",) if _in(hidden, e["combatant"]) else ()


# What of each event is an NPC's figure, given the NPCs (``hidden``): its keys to keep behind
# the screen. An event type not named holds no sheet figure (tracks, names, the Director's words).
FIGURES: dict[str, Callable[[Event, Collection[str]], tuple[str, ...]]] = {
    "contest_started": _scene,
    "combat_started": _scene,
    "joined": _scene,
    "checked": lambda e, hidden: ("check",) if _in(hidden, e["combatant"]) else (),
    "tended": lambda e, hidden: ("check",) if _in(hidden, e["tender"]) else (),
    "tend_rolled": lambda e, hidden: ("check",) if _in(hidden, e["combatant"]) else (),
    "practised": lambda e, hidden: ("check",) if _in(hidden, e["combatant"]) else (),
    "contest_rolled": lambda e, hidden: ("check",) if _in(hidden, e["combatant"]) else (),
    "declared": _declaration,
    "turn_started": lambda e, hidden: ("auto",) if _in(hidden, *(d["combatant"] for d in e["auto"])) else (),
    "combat_rolled": _rolled,
    "pairing_resolved": lambda e, hidden: ("wounds",) if _in(
        hidden, *(c for w in e["wounds"] for c in (w["to"], w["by"]))) else (),
}


def _in_the_open(event: Event, keys: tuple[str, ...]) -> dict[str, Any]:
    """What of the keys going behind the screen was done in the open, for everyone (and their
    working: ``working``): a check's skill, d100 and band (``rolled``), which its public line
    states; the points each wound deals (``dealt``), which land on a public track."""
    if "check" in keys:
        return {"rolled": {k: event["check"][k] for k in ("skill", "roll", "band", "challenge", "practice")}}
    if "wounds" in keys:
        return {"dealt": [{"to": w["to"], "by": w["by"], "dealt": w["damage"]["dealt"]} for w in event["wounds"]]}
    return {}


def settle(state: Mapping[str, Any], events: list[dict[str, Any]], turn: Turn) -> list[dict[str, Any]]:
    """A move's events as they are logged (``Engine.settle``): each one that holds an NPC's
    figures given its Director's part (``GM_PART``): which of its keys are the Director's, and
    the Director's whole log line. The line everyone reads is ``narrate.public_line``. The
    undo's event (the core's) holds no figure: it names the step by its public line."""
    out = []
    now: Mapping[str, Any] = state
    for event in events:
        if event["type"] not in FOLDS:
            out.append(event)
            continue
        now = after(now, event)
        # the NPCs of the scene, and those a move outside any scene names (``npcs``)
        hidden = npcs(now) | set(event.get("npcs") or ())
        keys = FIGURES[event["type"]](event, hidden) if event["type"] in FIGURES and hidden else ()
        whole = summary(event, now)
        if keys or whole != summary(event, now, hidden):
            event = {**with_gm_part(event, keys, whole), **_in_the_open(event, keys)}
        out.append(event)
    return out


# Who sees each event (games/contract.py: declared, never defaulted): everyone, the NPCs'
# figures aside. The one-off check's event is the same: an NPC's check keeps its BASE behind
# the screen (``checks.roll_check`` gives it a ``gm_line``).
CHECK_FIGURES = ("base", "value", "du", "dd", "gm_line")


def check_visibility(event: Event) -> Visibility:
    if "gm_line" not in event:
        return PUBLIC
    return Visibility(private={k: event[k] for k in CHECK_FIGURES if k in event}, private_audience="gm",
                      private_summary=event["gm_line"])


AUDIENCES: dict[str, AudienceRule] = {**{kind: screened for kind in FOLDS}, UNDONE: PUBLIC,
                                      CHECK_EVENT: check_visibility,
                                      SIDE_SET: PUBLIC}  # a side is no secret
