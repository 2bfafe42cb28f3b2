"""The Storyteller's undo: the last step taken back (issue 35, "Undo for every system: the GM takes
back the last step, as the others do"). Not in the seed: a slip of the hand, logged for everyone.

The core takes the step back by folding the log again without it (games/core/engine.py). What
lies outside the state is put right here, in the undo's last look before it is logged (``settle``):

- **The cards.** A card pulled is a card pulled: every card a step pulls ends on the Harsh Light
  deck's discard pile, face up, by the end of its move (deck.pull_cards), and the undo leaves it
  there. It goes back neither to the draw pile nor under the seal: a pull made again is a new
  card, as a roll made again is a new roll, and the deck's seal still verifies every draw. The
  undo's line names the cards the step pulled (``pulled``), which everyone saw. So every card
  stays in exactly one place: the draw pile, the discard pile, or a hand the Storyteller dealt
  it to by hand; none lies in the play area.
- **The sheets.** What the step wrote on the sheets (Willpower points spent or given back,
  Health's wounds and whether the character is unconscious, Beats and Experiences) goes back as
  the sheets held it before the step: each move records what it overwrites, on the event that
  first writes it (``was``, by ``remember``, in reckon.settle), and the undo writes that back
  (``restore``, writeback.py). An NPC's Willpower is the Storyteller's figure (audiences.py):
  what its sheet held is in the GM's part (``was_gm``, ``restore_gm``); its Health is harm
  everyone watches. A step logged before moves recorded it cannot be taken back
  where it wrote on a sheet: the undo says so and changes nothing.
- **Who reads it.** The undo of a step only the Storyteller saw (a condition kept to the GM) is
  the GM's alone (``secret``); every other undo is everyone's, its line the step as everyone read
  it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.contract import GM_ONLY, Visibility
from games.core import clock as time
from games.core.engine import UNDONE, RuleError, Turn
from games.harsh_light import sheet as sh
from games.harsh_light.audiences import RESTORE_GM, WAS_GM, audience
from games.harsh_light.narrate import card_names
from games.harsh_light.state import name

Event = dict[str, Any]

WAS = "was"  # a move's record of what its events overwrite on the sheets (an NPC's: WAS_GM)
RESTORE = "restore"  # what an undo writes back (an NPC's: RESTORE_GM)
PULLED = "pulled_cards"  # the cards the step taken back pulled, named on the undo's line
SECRET = "secret"  # the step taken back was the Storyteller's alone


def before(sheet: Mapping[str, Any], key: str) -> Any:
    """What a sheet (as a rule reads it: state.in_play) holds of a field the rules write: the
    Willpower points as a number (a blank field means all of them)."""
    return sh.willpower_points(sheet) if key == "willpower_points" else sheet.get(key)


def remember(view: Mapping[str, Any], event: Event, written: Mapping[str, Mapping[str, Any]],
             seen: set[tuple[str, str]]) -> None:
    """Before ``event`` is written on the sheets of ``view`` (``written``: what it writes), what
    they hold of those fields, put on the event the first time in the move each is written
    (``seen``): Health, whether unconscious, Beats and Experiences in ``was`` (harm everyone
    watches, and an NPC has no Beats); an NPC's Willpower points, its figure, in ``was_gm``, the
    GM's part of an event that already keeps its Willpower there (audiences.py)."""
    for cid, fields in written.items():
        sheet = (view.get("characters") or {}).get(cid)
        if sheet is None:
            continue
        for key in fields:
            if (cid, key) in seen:
                continue
            seen.add((cid, key))
            part = WAS_GM if sheet.get("npc") and key == "willpower_points" else WAS
            event.setdefault(part, {}).setdefault(cid, {})[key] = before(sheet, key)
    if WAS_GM in event:
        event["gm_figures"] = [*event.get("gm_figures", ()), WAS_GM]


def _step(history: Sequence[Mapping[str, Any]], step: object) -> list[Mapping[str, Any]]:
    return [e for e in history if e.get("step") == step and e.get("type") != UNDONE]


def _pulled(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every card the step's events pulled, in order: a pull's, initiative's."""
    cards: list[str] = []
    for event in events:
        cards += list((event.get("record") or {}).get("cards") or ())
        cards += [i["card"] for i in (event.get("initiative") or {}).values() if i.get("card")]
        for record in event.get("records") or ():
            cards += list(record.get("cards") or ())
    return list(dict.fromkeys(cards))


def settle(state: Mapping[str, Any], events: list[Event], turn: Turn,
           writes: Callable[[Mapping[str, Any]], Mapping[str, Mapping[str, Any]]]) -> list[Event]:
    """The undo's last look before it is logged: the sheets it puts back as they were before the
    step (``restore``, an NPC's ``restore_gm``), the cards the step pulled (which stay on the
    discard pile), and whether the step was the Storyteller's alone. ``writes(event)``: what an
    event writes on the sheets."""
    undo = dict(events[0])
    taken = _step(turn.history(), undo.get("undoes_step"))
    restore: dict[str, dict[str, dict[str, Any]]] = {WAS: {}, WAS_GM: {}}
    for event in taken:
        for part in (WAS, WAS_GM):
            for cid, fields in (event.get(part) or {}).items():
                for key, value in fields.items():
                    restore[part].setdefault(cid, {}).setdefault(key, value)
    unrecorded = [cid for event in taken for cid, fields in writes(event).items()
                  if any(key not in {**restore[WAS].get(cid, {}), **restore[WAS_GM].get(cid, {})} for key in fields)]
    if unrecorded:
        who = ", ".join(dict.fromkeys(name(state, cid) for cid in unrecorded))
        raise RuleError(f"That step was made before a step could be taken back, and it wrote on {who}'s sheet: "
                        "correct the sheet by hand instead.")
    if restore[WAS]:
        undo[RESTORE] = restore[WAS]
    if restore[WAS_GM]:
        undo[RESTORE_GM] = restore[WAS_GM]
        undo["gm_figures"] = [RESTORE_GM]
    cards = _pulled(taken)
    if cards:
        undo[PULLED] = cards
    if taken and all(e.get("type") in time.EVENTS and time.is_secret(e) for e in taken):
        undo[SECRET] = True
    undo["names"] = {cid: turn.characters[cid].name for cid in {**restore[WAS], **restore[WAS_GM]}
                     if cid in turn.characters}
    return [undo, *events[1:]]


def written(event: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What an undo writes back on the sheets: each as it was before the step taken back."""
    back: dict[str, dict[str, Any]] = {}
    for part in (RESTORE, RESTORE_GM):
        for cid, fields in (event.get(part) or {}).items():
            back.setdefault(cid, {}).update(fields)
    return back


def line(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """The undo's line: the step taken back as everyone read it, the cards it pulled (which stay
    on the discard pile), the sheets put back."""
    text = f"The Storyteller takes back the last step ({str(event.get('what') or 'the last one').rstrip('.')})."
    cards = list(event.get(PULLED) or ())
    if cards:
        many = len(cards) > 1
        text += (f" The card{'s' if many else ''} it pulled ({card_names(cards)}) stay{'' if many else 's'} on the "
                 "discard pile: a pull made again is a new card.")
    called = event.get("names") or {}
    back = [called.get(cid) or name(state, cid) for cid in {**(event.get(RESTORE) or {}), **(event.get(RESTORE_GM) or {})}]
    if back:
        many = len(back) > 1
        text += (f" The sheet{'s' if many else ''} of {' and '.join(back)} {'are' if many else 'is'} as "
                 f"{'they were' if many else 'it was'} before it.")
    return text


def undo_audience(event: Mapping[str, Any]) -> Visibility:
    """The undo of a step only the Storyteller saw is the Storyteller's; any other, everyone's,
    an NPC's sheet as it was the GM's."""
    return GM_ONLY if event.get(SECRET) else audience(event)
