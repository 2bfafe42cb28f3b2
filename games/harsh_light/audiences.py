"""What of an NPC's sheet leaves the Storyteller's screen, in the log and in the panel.

The decided reading: "an NPC's sheet is the GM's unless the GM shows it (a table setting, on by
default): other seats see its name and what the rules make public". Our reading for Harsh Light:

- An NPC's figures are the GM's: its Attributes, Skills, Defence, Speed, Willpower, Blood Potency
  and Again, and whatever is counted from them: a pool and its parts, a pull's total (the total
  less the cards, which lie face up, is the pool), an initiative modifier and total, and the odds
  of a pull whose pool holds any of them (an NPC's own pull, or an attack on its Defence).
- What the rules make public stays everyone's: the cards pulled, the successes and what they come
  to (a success, a Dramatic Failure, an automatic success, who wins a contest), the turn order,
  and the acts themselves (a Willpower point spent, a Dodge, a move, attacks taken).
- Health is harm everyone watches (issue 22): an NPC's track (its length, Stamina + Size, with
  it), its wounds, its wound penalty and whether it is unconscious, bleeding out or dead; the
  damage an attack deals. An NPC's weapon (its name and bonus) is the GM's: the line says only
  that the weapon added to the blow, though the damage less the successes, both public, shows
  by how much, as a blow landing would.

The panel learns whose sheets a seat may not see from ``Seat.hidden`` (the table's setting). The
log cannot: an event is written once for every seat, and the setting may be switched back. So an
event keeps an NPC's figures in a part only the GM reads, whatever the setting (the safe side):
the engine lists those keys in ``gm_figures`` (a pull's ``record`` is split, its figures under
``figures``), the public summary leaves them out, and the GM's line adds them (``audience``).
An NPC is a character the table marks so (``Character.is_npc``, read under the lock: state.in_play).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.contract import GM_ONLY, PUBLIC, Visibility
from games.core import clock as time
from games.core.words import count
from games.harsh_light.pools import pool_text

Event = dict[str, Any]

# What a pull's record holds that is counted from the sheet: the pool (size and parts), the total
# (pool plus cards) and the sheet's Again (a second card, when one is pulled, shows it anyway).
FIGURES = ("pool", "total", "again")
GM_WORD = "the GM's"
GM_FIGURE = "the GM's figure"  # what a public working says where an NPC's figure enters the sum


def npc(state: Mapping[str, Any], cid: str | None) -> bool:
    """Whether ``cid`` is an NPC, in a rule's view of the table (state.in_play)."""
    return cid is not None and bool((state["characters"].get(cid) or {}).get("npc"))


def secret_pool(state: Mapping[str, Any], cid: str, target: str | None, target_parts: Collection[int]) -> bool:
    """Whether a pull's pool holds an NPC's figure: it is the NPC's own, or it subtracts an NPC's
    trait (its Defence, a Resistance trait, its Blood Potency)."""
    return npc(state, cid) or (npc(state, target) and bool(target_parts))


def pool_words(pool: Mapping[str, Any], hidden: Collection[int] | None) -> str:
    """What may be shown of a pool some of whose parts are the GM's: nothing (``""``) when all are
    (``hidden`` None: an NPC's own pool); else its parts, those of ``hidden`` named without their
    value: 'Strength 4 + Brawl 3 - Ghoul's Defence (the GM's)'. A resisting trait always
    subtracts, so its sign tells nothing (not even a Defence of 0)."""
    if hidden is None:
        return ""
    words = []
    for i, (reason, value) in enumerate(pool["parts"]):
        if i in hidden:
            words.append(f"- {reason} ({GM_WORD})")
        elif not words:
            words.append(f"{reason} {value}")
        else:
            words.append(f"{'+' if value >= 0 else '-'} {reason} {abs(value)}")
    return " ".join(words)


AUTOMATIC = "automatic success"


def split_record(record: Mapping[str, Any], *, own: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A pull's record as everyone sees it, and the GM's figures taken out of it. ``own``: the
    pool is the NPC's own (nothing of it is shown), else only the target's parts are withheld.

    Whether the pool alone would have reached the success (``automatic``) is counted from the
    pool, so it is the GM's too, unless no card was pulled: an automatic success taken without
    a pull shows itself, by the pull it skipped."""
    shown = {k: v for k, v in record.items() if k not in FIGURES}
    shown["pool_words"] = pool_words(record["pool"], None if own else record.get("target_figures", ()))
    figures = {k: record[k] for k in FIGURES if k in record}
    if record.get("automatic") and record.get("values"):
        figures["automatic"], figures["rules"] = True, list(record.get("rules", ()))
        shown["automatic"] = False
        shown["rules"] = [r for r in record.get("rules", ()) if r != AUTOMATIC]
    return shown, figures


def whole(record: Mapping[str, Any], figures: Mapping[str, Any] | None) -> dict[str, Any]:
    """A record with its figures put back (``apply``: the state keeps every record whole)."""
    return {**record, **(figures or {})}


def pull_event(state: Mapping[str, Any], event: Event) -> Event:
    """A pull's event (``pulled``, ``extended_pulled``, ``contest_pulled``) with an NPC's figures
    moved out of its public record, when there are any."""
    record = event["record"]
    cid, target = record["combatant"], record.get("target")
    if not secret_pool(state, cid, target, record.get("target_figures", ())):
        return event
    shown, figures = split_record(record, own=npc(state, cid))
    return {**event, "record": shown, "figures": figures, "gm_figures": ["figures"]}


def figures_of(state: Mapping[str, Any], event: Event, *keys: str) -> Event:
    """An event of an NPC's act (a Willpower point, a Dodge, a move) whose ``keys`` are figures."""
    return {**event, "gm_figures": list(keys)} if npc(state, event.get("combatant")) else event


def initiative_event(state: Mapping[str, Any], event: Event) -> Event:
    """``order_set`` after initiative: an NPC's card is everyone's, its modifier and total the GM's."""
    hidden = [cid for cid in event.get("initiative") or {} if npc(state, cid)]
    if not hidden:
        return event
    initiative = {cid: ({"card": i["card"], "value": i["value"]} if cid in hidden else i)
                  for cid, i in event["initiative"].items()}
    records, figures = [], {}
    for record in event.get("records", []):
        if record["combatant"] in hidden:
            shown, figures[record["combatant"]] = split_record(record, own=True)
            records.append(shown)
        else:
            records.append(record)
    gm = {"initiative": {cid: event["initiative"][cid] for cid in hidden}, "records": figures}
    return {**event, "initiative": initiative, "records": records, "figures": gm, "gm_figures": ["figures"]}


# The GM's line: the public summary and, after it, the figures it leaves out.


def gm_note(event: Mapping[str, Any]) -> str:
    kind, figures = event.get("type"), event.get("figures") or {}
    if kind in ("pulled", "extended_pulled", "contest_pulled", "consciousness_pulled"):
        return f"(GM: {pool_text(figures['pool'])}, total {figures['total']}.)"
    if kind == "damaged":
        weapon = event["weapon"]
        parts = ([f"{weapon['name']} +{weapon['bonus']}"] if weapon["name"] else []) + (
            [f"+{weapon['extra']} for the attack"] if weapon["extra"] else [])
        return f"(GM: {', '.join(parts)}.)"
    if kind == "order_set":
        names = {r["combatant"]: r.get("name", "") for r in event.get("records", [])}
        return "(GM: " + "; ".join(f"{names.get(cid, cid)} {i['modifier']} + {i['value']} = {i['total']}"
                                   for cid, i in figures.get("initiative", {}).items()) + ".)"
    if kind == "pull_set_up":
        auto = "; the pool alone reaches it" if event.get("automatic") else ""
        return f"(GM: {pool_text(event['pool'])}{auto}.)"
    if kind == "willpower_spent":
        return f"(GM: {count(event['points_left'], 'point')} left.)"
    if kind == "dodged":
        return f"(GM: Defence {event['defence']}.)"
    if kind == "moved":
        return f"(GM: {event['speed']} steps.)"
    if kind == "rested" and event.get("willpower"):
        back = event["willpower"]
        return f"(GM: Willpower +{back['points']}, {count(back['points_left'], 'point')} left.)"
    return ""


def audience(event: Mapping[str, Any]) -> Visibility:
    """Everyone sees the event, but for its ``gm_figures``, which the GM alone reads, with the
    figures added to the GM's log line (none to add when the only ones are the GM's part of a
    move's record: ``BOOKKEEPING``)."""
    keys = event.get("gm_figures") or ()
    if not keys:
        return PUBLIC
    note = gm_note(event) if set(keys) - BOOKKEEPING else ""
    return Visibility(private={k: event[k] for k in keys if k in event}, private_audience="gm", private_note=note)


def clock_audience(event: Mapping[str, Any]) -> Visibility:
    """The clock's own events (games/core/clock.py): a condition the GM keeps to itself is the
    GM's alone (the decided reading: "a condition on a secret NPC is the GM's unless shown"); the
    rest as any event, its GM's part (what the move reckoned of an NPC) the GM's."""
    return GM_ONLY if time.is_secret(event) else audience(event)


# What a move's reckoning (reckon.py) records of an NPC's figures (a pool it would pull, its
# Defence as it stands): in the GM's part of the move's last event, whatever that event is.
RECKONED_GM = "reckoned_gm"
# What a move records of an NPC's sheet before its events write on it (the Storyteller's undo
# writes it back: undo.py), and what an undo writes back on an NPC's sheet: the GM's part too.
WAS_GM = "was_gm"
RESTORE_GM = "restore_gm"
# The GM's parts that hold no figure of the event's own line: nothing to add to the GM's line.
BOOKKEEPING = frozenset({RECKONED_GM, WAS_GM, RESTORE_GM})
