"""Choices the rules give one person. Who may send a move at all (the GM's moves, a character's
moves by its player or the GM) the engine checks once, before a handler runs; what is here is
Report Card's own: a Bonus pick and a retry are the character's player's (not the GM's, unless
nobody plays it), a Penalty pick is the GM's, and calling a check is the GM's unless the GM lets
players call their own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.contract import Character, Member
from games.report_card.errors import NotYours

# What a player the GM lets call checks still leaves to the GM: the seed leaves holding the rank,
# a repeat within the Day and granting without a draw "at the GM's discretion", and another
# player's character is no player's to bring in.
GM_OPTIONS = (("helpers", "add a helper"), ("repeat", "repeat a check within a Day"),
              ("same_as", "say which earlier check of the Day this one repeats"),
              ("hold", "hold the rank on a retry"), ("grant", "grant a check without a draw"))


def decides_for(member: Member, character: Character | None) -> bool:
    """A choice only the character's player makes: the GM makes it only when nobody plays it."""
    owner = character.owner if character is not None else None
    return owner == member.id if owner is not None else member.is_gm


def may_call(state: Mapping[str, Any], args: Mapping[str, Any], member: Member) -> None:
    """Issue 14: "the GM (or the player, if the GM allows) calls a check". Reading: a player the
    GM lets call checks calls them for their own character only (the engine saw to that), with
    none of the GM's options."""
    if member.is_gm:
        return
    if not state["players_call"]:
        raise NotYours("Only the GM calls checks at this table (the GM can let players call their own).")
    for option, what in GM_OPTIONS:
        if args.get(option):
            raise NotYours(f"Only the GM can {what}.")


def may_pick(pending: str, member: Member, character: Character | None, who: str) -> None:
    """Seed: with Bonus the player uses "whichever of the two cards they would prefer"; with
    Penalty "whichever card the GM decides is the worse of the two"."""
    if pending == "player" and not decides_for(member, character):
        raise NotYours(f"With a Bonus, {who}'s player chooses which card to keep.")
    if pending == "gm" and not member.is_gm:
        raise NotYours("With a Penalty, the GM chooses the worse card.")


def may_retry(member: Member, character: Character | None, who: str) -> None:
    """Seed: "The player can take 1 Corruption Point to retry the check": the point is the
    player's to spend."""
    if not decides_for(member, character):
        raise NotYours(f"Only {who}'s player decides to retry: it costs {who} a Corruption Point.")
