"""Who sees each event: ``AUDIENCES``, an audience for each event kind (games/contract.py:
declared, never defaulted), and ``audience(event)``. What each seat's panel shows is
``panel.view``; the hand a member holds, ``panel.hand_of``.

Shadows of Humanity is the system hidden information exists for (seed: "in combat, only
the GM and the particular player will see their own card draws"). The rules:

- A dealt or re-dealt card is named only in the event's private part, for the hand's
  player and the GM (``audience``); the public part and the summary only count them.
- A card is public once it is played (an attack, a dodge or parry, a check from the hand),
  or when it is drawn face up (a draw outside combat, damage modifiers, the critical chain).
- The GM's secrets: a fumble's guide until shown, a Major Critical's effect until announced,
  a multi-draw margin, the critical tables, and NPCs' sheets (the table's ``npc_sheets_secret``: the
  character card, its events and the write-back after a fight show the others its name; an
  event about an NPC keeps its figures, a skill, its AP, a hand size, in the GM's part).
  Reading: a resolution's own figures stay everyone's, as every card played is (an attack's
  value, the Defence total it met, the damage done, a check's total), so the players can check
  the rules were kept; the sheet they come from (an NPC's skill, attribute, protection, armour,
  which the public event about it does not carry, or carries in the GM's part), and any odds
  counted from it before the cards are down, are the GM's. A line's working with a GM's part
  is declared public (working.py): built from the public part, its whole twin the GM's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.contract import GM_ONLY, PUBLIC, AudienceRule, Visibility, public
from games.shadows import campaign, deck
from games.shadows.narrate import prepared_line
from games.shadows.story import npc_check_note

Event = Mapping[str, Any]


def _hand_dealt(event: Event) -> Visibility:
    # the private line is read by the hand's player and by the GM: it names whose hand it is
    who = event.get("name") or "You"
    # an NPC's hand size is a figure of its sheet (Body + half Physical...): its holder's, the GM's
    secret = {"count": event["count"]} if event.get("npc") else {}
    return Visibility(owner=event["combatant"], private={"cards": event["cards"], **secret},
                      private_summary=f"{who} {'is' if who != 'You' else 'are'} dealt "
                                      f"{deck.names(event['cards']) or 'no cards'}.")


def _redealt(event: Event) -> Visibility:
    # the discarded cards lie face up on the discard pile (public); the new ones are hidden
    return Visibility(owner=event["combatant"], private={"drawn": event["drawn"]},
                      private_summary=(f"{event['name']} discards {deck.names(event['discarded'])} and is dealt "
                                       if event.get("name") else
                                       f"You discard {deck.names(event['discarded'])} and are dealt ")
                      + f"{deck.names(event['drawn'])}.")


def _guide_drawn(event: Event) -> Visibility:
    return Visibility(private={"card": event["card"]}, private_audience="gm",
                      private_summary=f"The guide: {deck.name(event['card'])} ({deck.meaning(event['card'])}).")


def _npc_sides(event: Event) -> dict[str, Any]:
    """An opposed or multi-draw action's sides carry each one's skill and attribute: an NPC's
    are the GM's, so with an NPC among them the sides go in the GM's part (the line names
    them, and the cards and totals are everyone's)."""
    return {"sides": event["sides"]} if any(s.get("npc") for s in event.get("sides") or ()) else {}


def _opposed(event: Event) -> Visibility:
    sides = _npc_sides(event)
    return Visibility(private=sides, private_audience="gm") if sides else PUBLIC


def _contest_started(event: Event) -> Visibility:
    sides = _npc_sides(event)
    if "margin" not in event:
        return Visibility(private=sides, private_audience="gm") if sides else PUBLIC
    return Visibility(private={"margin": event["margin"], **sides}, private_audience="gm",
                      private_summary=f"The margin to reach is {event['margin']}.")


def _attack_resolved(event: Event) -> Visibility:
    if not event.get("criticals"):
        return PUBLIC
    return Visibility(private={"criticals": event["criticals"]}, private_audience="gm",
                      private_note="The effect (GM only): " + "; ".join(
                          f"{deck.name(c['card'])}: {c['effect']}" for c in event["criticals"]))


def _gm_part(*keys: str) -> Callable[[Event], Visibility]:
    """Public, but for these keys, which only the GM reads."""
    def rule(event: Event) -> Visibility:
        return Visibility(private={k: event[k] for k in keys if k in event}, private_audience="gm")
    return rule


def _npc_part(*keys: str, note: Callable[[Event], str] | None = None) -> Callable[[Event], Visibility]:
    """Public, but for these keys when the event's subject is an NPC (``npc``): its figures (a
    skill, its AP, a hand size) are the GM's, who reads them after the public line (``note``).
    An event does not know the table's setting: while the GM shows NPC sheets, the panel has
    these figures for everyone and the log keeps them the GM's."""
    def rule(event: Event) -> Visibility:
        if not event.get("npc"):
            return PUBLIC
        return Visibility(private={k: event[k] for k in keys if k in event}, private_audience="gm",
                          private_note=note(event) if note else "")
    return rule


# What a check set up for an NPC was set up from: the GM's figures, and the odds they make.
_PREPARED_FIGURES = ("skill", "skill_value", "attribute_value", "assistance", "helper_names", "modifier",
                     "off_focus", "condition", "total")


def _check_prepared(event: Event) -> Visibility:
    """What a check was set up from (sheets, helpers) is the GM's; the figures are everyone's,
    but for an NPC's, whose figures the GM reads in the whole line."""
    if not event.get("npc"):
        return _gm_part("inputs")(event)
    return Visibility(private={k: event[k] for k in ("inputs", *_PREPARED_FIGURES) if k in event},
                      private_audience="gm", private_summary=prepared_line(event, figures=True))


def _adjusted(event: Event) -> Visibility:
    """The GM's correction of an NPC's AP or track is the GM's; taking it out of the fight
    (or back in) everyone sees."""
    return GM_ONLY if event.get("npc") and event.get("field") != "in_fight" else PUBLIC


def _npc_tracks(event: Event) -> Visibility:
    """Recovery and a raise (campaign.py): everyone reads that it happened; an NPC's tracks,
    what they were and what they are now, are the GM's, who reads them in the GM's line."""
    if not event.get("npc"):
        return PUBLIC
    return Visibility(private={k: event[k] for k in ("was", "now", "whole") if k in event}, private_audience="gm",
                      private_summary=campaign.line(event, figures=True))


def _corrected(event: Event) -> Visibility:
    """The GM's correction of an NPC's track outside a fight is the GM's, as in a fight."""
    return GM_ONLY if event.get("npc") else PUBLIC


# Who sees each event (games/contract.py: declared, never defaulted).
AUDIENCES: dict[str, AudienceRule] = {
    **public(
        "check_cancelled", "major_arcana_kept", "guide_pending", "guide_shown", "guide_returned",
        "help_asked", "help_approved", "help_refused", "counter_declared", "contest_drawn", "contest_ended",
        "arcana_spent", "arcana_approved", "arcana_refused", "session_ended", "round_started", "cover_set", "defended", "critical_announced",
        "weapons_set", "counter_applied",
        "side_set",  # a side is no secret (games/core/fights.py)
    ),
    # an NPC's figures are the GM's: its skill, its hand size, its AP (panel_fight.py)
    # "Show the odds" tells nobody else whom it aims at: its player's and the GM's (issue 25)
    "attack_aimed": lambda e: Visibility(audience="owner", owner=e["attacker"]),
    "attack_declared": _npc_part("skill", "skill_value", "accuracy", "assistance", "helpers", "condition"),
    "focus_declared": _npc_part("size", "hand_from"),
    # an NPC's check: the cards and the total are everyone's, what it added the GM's
    "check_made": _npc_part("skill", "skill_value", "attribute_value", "helpers", "assistance", "modifier",
                            "off_focus", "condition", note=npc_check_note),
    "turn_ended": _npc_part("ap", note=lambda e: f"{e['ap']} AP left for defence."),
    "adjusted": _adjusted,
    campaign.RECOVERED: _npc_tracks,
    campaign.RAISED: _npc_tracks,
    campaign.CORRECTED: _corrected,
    "hand_dealt": _hand_dealt,
    "redealt": _redealt,
    "guide_drawn": _guide_drawn,
    "contest_started": _contest_started,
    "opposed_resolved": _opposed,
    "attack_resolved": _attack_resolved,
    "check_prepared": _check_prepared,
    "combat_ended": _gm_part("tracks", "whole"),  # what is left of each, and each whole: NPCs' figures
    "combat_started": _gm_part("combatants"),
    "combatant_added": _gm_part("combatant"),
    # seed: "I will not be posting the Critical Tables": the GM's own, every byte of them
    "criticals_set": GM_ONLY,
}


def audience(event: Event) -> Visibility:
    """The declared audience of ``event`` (``AUDIENCES``)."""
    rule = AUDIENCES[event["type"]]
    return rule(event) if callable(rule) else rule

