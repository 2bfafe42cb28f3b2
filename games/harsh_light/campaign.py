"""A campaign at a Harsh Light table: what the passing of time does to Willpower and Health, the
Beats a session's close and a Dramatic Failure give, and the conditions the rules read (the
table's ``Clock``, games/core/clock.py).

The seed gives no recovery and no advancement; Harsh Light follows the decided readings:

- Willpower, the decided reading: "one point back after a night's rest; all of it at a
  session's close when the table option says so (off by default)". A week is seven nights.
- Health, the decided reading: "Health heals on the clock as the World of Darkness model already
  coded reads it (bashing, lethal, aggravated), not by clicks". The World of Darkness rulebook
  heals a bashing box in fifteen minutes, a lethal one in two days and an aggravated one in a
  week, the least severe wound first (health.py). This table's reading of those rates on the
  clock's spans, each amount a table option:
    - a scene's end heals bashing (``scene_bashing`` boxes, default 1: a scene is at least the
      quarter-hour one box takes);
    - a night heals all bashing (eight hours heal more than any track holds), and counts one
      night of rest toward the least severe lethal or aggravated wound: ``lethal_nights`` a box
      (default 2, "two days"), ``aggravated_nights`` a box (default 7, "a week"); the nights left
      over after a box heals go on to the next; they are kept per character until no such wound
      is left (``state["rest"]``);
    - a week is seven nights.
  A character who is out heals the same way (an unconscious one comes to once the last box no
  longer holds bashing, or at a night's rest); the dead do not heal. A mortal bleeding out is the
  Storyteller's, minute by minute (harm.py): time does not pass over one until the Storyteller
  tends it (Heal) or marks its minutes (Deal harm). Healing in a fight stays the Storyteller's
  "Heal" move, as before.
- Beats, the decided reading: "Beats as the World of Darkness games count them (a Dramatic
  Failure, a session's end, a Storyteller's award); five Beats make an Experience". Each player
  character at the session's close (not the dead) gets a Beat, and one more for each Storyteller's
  award named on the close form; a player character's Dramatic Failure gets one at once
  (reckon.settle). Beats and Experiences are kept on the sheet (``beats``, ``experiences``): only
  the rules and the GM change them. "Experiences buy dots (Attribute 4 a dot, Skill 2, Specialty 1:
  table options)": growth.py prices a purchase, the options here; the Storyteller approves it.
- Conditions: "dice" adds to or takes from every pool the character builds (as a wound penalty
  does: not the Stamina pull to stay conscious, which no penalty touches).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import clock as time
from games.core.engine import RuleError, Turn
from games.forms import Form, values
from games.harsh_light import health
from games.harsh_light import sheet as sh
from games.harsh_light.growth import OPTIONS as GROWTH_OPTIONS
from games.harsh_light.state import in_play

Event = dict[str, Any]

BEATS_FOR_EXPERIENCE = 5  # the decided reading: "five Beats make an Experience"
DICE = "dice"
EFFECTS = {DICE: "dice added to or taken from every pool it builds, as a wound penalty is"}
NIGHTS = {time.SCENE: 0, time.NIGHT: 1, time.WEEK: 7}

OPTIONS = (
    time.Option("willpower_night", "Willpower a night's rest gives back", 1, 0, 20,
                why="the decided reading: \"one point back after a night's rest\" (a week: seven nights)"),
    time.Option("willpower_close", "All Willpower back at a session's close", 0, yes_no=True,
                why="the decided reading: \"all of it at a session's close when the table option says so "
                    "(off by default)\""),
    time.Option("scene_bashing", "Bashing boxes a scene's end heals", 1, 0, health.MAX_WOUNDS,
                why="the World of Darkness heals a bashing box in fifteen minutes; a scene is at least that"),
    time.Option("lethal_nights", "Nights of rest to heal a lethal box", 2, 1, 30,
                why="the World of Darkness heals a lethal box in two days"),
    time.Option("aggravated_nights", "Nights of rest to heal an aggravated box", 7, 1, 60,
                why="the World of Darkness heals an aggravated box in a week"),
    *GROWTH_OPTIONS,  # what Experiences buy: "Attribute 4 a dot, Skill 2, Specialty 1" (growth.py)
)

SAYS = {
    time.SCENE: "Bashing heals (1 box by default); wounds and Willpower otherwise wait for a night",
    time.NIGHT: "Willpower +1; all bashing heals; a night counts toward the lethal (2 a box) "
                "and aggravated (7 a box) wounds",
    time.WEEK: "Seven nights: Willpower +7, and seven nights toward the lethal and aggravated wounds",
    time.SESSION: "A Beat to each player character present (five make an Experience); all Willpower back "
                  "when the table option says so",
}


def option(state: Mapping[str, Any], key: str) -> int:
    return CLOCK.option(state, key)


def fight_round(state: Mapping[str, Any]) -> int:
    """The fight's turn now (a condition lasting rounds counts them), 0 outside a fight."""
    return int(state.get("turn") or 0) if state.get("combat") else 0


# Health and Willpower on the clock.


def rest(track: health.Track, nights: int, banked: int, lethal_nights: int,
         aggravated_nights: int) -> tuple[health.Track, int]:
    """The track after ``nights`` of rest (any night heals all bashing first), with the nights
    already ``banked`` toward the least severe lethal or aggravated wound, and the nights banked
    after (0 once no such wound is left)."""
    if nights <= 0:
        return track, banked
    track = track.heal(track.bashing, health.BASHING)
    banked += nights
    while True:
        kind = health.LETHAL if track.lethal else health.AGGRAVATED if track.aggravated else None
        if kind is None:
            return track, 0
        cost = lethal_nights if kind == health.LETHAL else aggravated_nights
        if banked < cost:
            return track, banked
        track, banked = track.heal(1, kind), banked - cost


def bleeding(view: Mapping[str, Any]) -> list[str]:
    """The mortals bleeding out (health.py: dying), whom the Storyteller must tend or let die
    before time passes."""
    return [view["characters"][cid]["name"] for cid in view["characters"]
            if health.of(view["characters"][cid]).grave() == health.DYING
            and not health.is_vampire(view["characters"][cid])]


def passes(state: Mapping[str, Any], span: str, turn: Turn) -> list[Event]:
    """What ``span`` does to each character's Health and Willpower (``Clock.passes``): one
    ``rested`` event for each character it changes, read from the sheets before the clock moves."""
    view = in_play(state, turn)
    if view["combat"]:
        raise RuleError("End the fight before time passes.")
    dying = bleeding(view)
    if dying:
        raise RuleError(f"{', '.join(dying)} {'is' if len(dying) == 1 else 'are'} bleeding out: the Storyteller "
                        "tends them (Heal) or marks their untended minutes (Deal harm) before time passes.")
    nights = NIGHTS[span]
    events = []
    for cid, sheet in view["characters"].items():
        if health.of(sheet).grave() == health.DEAD:
            continue  # the dead do not heal, nor rest
        made = rested(view, cid, sheet, span, nights)
        if made is not None:
            events.append(made)
    return events


def rested(view: Mapping[str, Any], cid: str, sheet: Mapping[str, Any], span: str, nights: int) -> Event | None:
    """One character's rest over ``span``: its healing, the nights banked toward its next wound,
    its Willpower back; None when the span changes nothing of it."""
    before = health.of(sheet)
    banked = int((view.get("rest") or {}).get(cid) or 0)
    if nights:
        after, banked_now = rest(before, nights, banked, option(view, "lethal_nights"),
                                 option(view, "aggravated_nights"))
    else:
        after, banked_now = before.heal(option(view, "scene_bashing"), health.BASHING), banked
    unconscious = bool(sheet.get("unconscious"))
    woke = unconscious and after.last() != health.BASHING and (nights > 0 or after.filled < before.filled)
    left, dots = sh.willpower_points(sheet), sh.willpower_dots(sheet)
    back = min(dots - left, nights * option(view, "willpower_night")) if nights else 0
    if after == before and banked_now == banked and not woke and back <= 0:
        return None
    track = health.shown({**sheet, **after.counts(), "unconscious": unconscious and not woke})
    healed = {k: before.counts()[k] - after.counts()[k] for k in health.KINDS}
    event: Event = {"type": "rested", "combatant": cid, "span": span, "healed": healed,
                    "health": after.counts(), "size": after.size, "woke": woke, "track": track,
                    "banked": banked_now, **toward(after, view)}
    if back > 0:
        event["willpower"] = {"points": back, "points_left": left + back}
        if sheet.get("npc"):  # an NPC's Willpower is the GM's figure (audiences.py)
            event["gm_figures"] = ["willpower"]
    return event


def toward(track: health.Track, view: Mapping[str, Any]) -> dict[str, Any]:
    """The wound the nights banked go toward, and how many nights a box of it takes."""
    kind = health.LETHAL if track.lethal else health.AGGRAVATED if track.aggravated else None
    if kind is None:
        return {"toward": None}
    return {"toward": kind, "needs": option(view, f"{kind}_nights")}


# A session's close, and Beats.


def closing_parse(form: Form, table: Any) -> dict[str, Any]:
    """The close form: who was absent (``absent``, repeated: no Beat for the session) and who has
    a Storyteller's award (``award``, repeated: a Beat each time named)."""
    def cids(key: str) -> list[str]:
        found = []
        for raw in (r.strip() for r in values(form, key)):
            if not raw:
                continue
            character = table.character(raw) or next((c for c in table.characters if c.cid == raw), None)
            if character is None:
                raise RuleError("Choose characters at this table.")
            found.append(character.cid)
        return found
    return {"absent": sorted(set(cids("absent"))), "award": cids("award")}


def closing(state: Mapping[str, Any], args: Mapping[str, Any], turn: Turn) -> list[Event]:
    """A session's close (``Clock.closing``): a Beat to each player character present (and the
    Storyteller's awards), and, when the table option says so, all Willpower back."""
    view = in_play(state, turn)
    events: list[Event] = []  # a session may close in the middle of a fight: it goes on next time
    absent, awarded = set(args.get("absent") or ()), list(args.get("award") or ())
    for cid, sheet in view["characters"].items():
        if sheet.get("npc") or health.of(sheet).grave() == health.DEAD:
            continue
        why = ([] if cid in absent else ["the session's end"]) + ["the Storyteller's award"] * awarded.count(cid)
        if why:
            events.append(beats(view, cid, sheet, why))
    if option(view, "willpower_close"):
        for cid, sheet in view["characters"].items():
            left, dots = sh.willpower_points(sheet), sh.willpower_dots(sheet)
            if left < dots and health.of(sheet).grave() != health.DEAD:
                event: Event = {"type": "rested", "combatant": cid, "span": time.SESSION,
                                "willpower": {"points": dots - left, "points_left": dots}}
                if sheet.get("npc"):
                    event["gm_figures"] = ["willpower"]
                events.append(event)
    return events


def beats(view: Mapping[str, Any], cid: str, sheet: Mapping[str, Any], why: list[str], earlier: int = 0) -> Event:
    """``len(why)`` Beats for ``cid`` (after ``earlier`` ones this move), with the Beats and
    Experiences its sheet then holds: five Beats make an Experience."""
    had = int(sheet.get("beats") or 0) + earlier
    total = had + len(why)
    made = total // BEATS_FOR_EXPERIENCE - had // BEATS_FOR_EXPERIENCE
    experiences = int(sheet.get("experiences") or 0) + total // BEATS_FOR_EXPERIENCE
    return {"type": "beats_gained", "combatant": cid, "beats": len(why), "why": why,
            "now": {"beats": total % BEATS_FOR_EXPERIENCE, "experiences": experiences}, "experiences": made}


PULLS = ("pulled", "extended_pulled", "contest_pulled", "consciousness_pulled")


def dramatic_beats(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> list[Event]:
    """A Beat for each Dramatic Failure a player character pulled in these events."""
    made: list[Event] = []
    got: dict[str, int] = {}
    for event in events:
        if event.get("type") not in PULLS or not (event.get("record") or {}).get("dramatic"):
            continue
        cid = event["record"]["combatant"]
        sheet = (view.get("characters") or {}).get(cid)
        if sheet is None or sheet.get("npc"):
            continue
        earlier = got.get(cid, 0)
        made.append(beats(view, cid, sheet, ["a Dramatic Failure"], earlier))
        got[cid] = earlier + 1
    return made


def closing_view(state: Mapping[str, Any], characters: Mapping[str, Any]) -> list[dict[str, str]]:
    """The player characters the close form lists (``closing_fields``), each with its boxes
    "absent" and "Storyteller's award" (``closing_parse``): those a session's close gives Beats
    to, not an NPC nor the dead."""
    shown = []
    for cid, character in characters.items():
        if character.is_npc:
            continue
        try:
            dead = health.of(sh.read(character.sheet)).grave() == health.DEAD
        except RuleError:
            dead = False  # a sheet the rules cannot read: listed, the close says what it makes of it
        if not dead:
            shown.append({"cid": str(cid), "name": character.name})
    return shown


CLOCK = time.Clock(passes=passes, says=SAYS, effects=EFFECTS, round=fight_round, closing=closing,
                   closing_parse=closing_parse, options=OPTIONS,
                   closing_fields="games/harsh_light/panel.html#closing_fields", closing_view=closing_view)
