"""Contests (seed 001, "CONTESTS"): what one round of independent checks costs and decides.

Seed: "both actors (or more than two, if the opposing actions are different enough to
justify it) make their independent Checks as directed." Then: "IF ALL PARTIES FAIL, the
engagement continues, but all actors in the Engagement suffer one Tick of Fatigue. IF ALL
PARTIES have the same level of SUCCESS, the Engagement continues, but no Fatigue is
Suffered. IF ANY PARTY in the Contest rolls a lower level of success (DD over Success over
DU), they suffer one Tick of Fatigue. (2 if DD over DU) but the Engagement continues. Once
one succeeds and the other fails, the Engagement is over."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.passages.rules import level

CONTINUES, WON = "continues", "won"


@dataclass(frozen=True)
class Round:
    outcome: str  # "continues" or "won"
    ticks: dict[str, int]  # Fatigue ticks each party suffers this round
    winners: tuple[str, ...]  # who won, when the round ends the contest

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "ticks": dict(self.ticks), "winners": list(self.winners)}


def judge(bands: Mapping[str, str]) -> Round:
    """One round: each party's band in, each party's ticks and the outcome out.

    Readings for more than two parties: a party below the best level of success among them
    suffers one tick a level ("2 if DD over DU"); the round ends the contest as soon as some
    succeed while others fail, and those with the best level of success win. The round that
    ends it costs nobody Fatigue (the seed names no cost there; the loss is the contest)."""
    levels = {pid: level(b) for pid, b in bands.items()}
    best = max(levels.values())
    if best == 0:  # everyone failed
        return Round(CONTINUES, dict.fromkeys(levels, 1), ())
    if min(levels.values()) == 0:  # some succeed, some fail
        winners = tuple(pid for pid, lv in levels.items() if lv == best)
        return Round(WON, dict.fromkeys(levels, 0), winners)
    return Round(CONTINUES, {pid: best - lv for pid, lv in levels.items()}, ())
