"""The line a panel opens with (games/core/now.py): "Your turn" to the seat the step waits for,
what the table waits for to everyone else, nothing when nothing waits."""

from __future__ import annotations

from games.contract import GM_SEAT, SPECTATOR_SEAT, Seat
from games.core import now

ANN = Seat(role="player", member=7, controls=frozenset({"c1"}))
BOB = Seat(role="player", member=8, controls=frozenset({"c2"}))
ALFIE_ACTS = {"combatant": "c1", "gm": False, "says": "Alfie acts", "prompt": "act for Alfie"}


def test_the_player_of_the_awaited_character_reads_their_prompt_and_the_others_what_waits() -> None:
    assert now.line(ALFIE_ACTS, ANN) == "Your turn: act for Alfie."
    assert now.line(ALFIE_ACTS, BOB) == "Now: Alfie acts."
    assert now.line(ALFIE_ACTS, SPECTATOR_SEAT) == "Now: Alfie acts."
    assert now.line(ALFIE_ACTS, GM_SEAT) == "Now: Alfie acts."


def test_several_awaited_each_read_their_own_prompt() -> None:
    both = {"combatant": None, "gm": False, "waiting": ["c1", "c2"], "says": "Alfie pulls; Betty pulls",
            "prompt": "pull for Alfie", "prompts": {"c1": "pull for Alfie", "c2": "pull for Betty"}}
    assert now.line(both, ANN) == "Your turn: pull for Alfie."
    assert now.line(both, BOB) == "Your turn: pull for Betty."
    assert now.line(both, GM_SEAT) == "Now: Alfie pulls; Betty pulls."


def test_the_gms_step_is_the_gms_turn_and_nothing_waiting_says_nothing() -> None:
    deal = {"combatant": None, "gm": True, "says": "The GM deals", "prompt": "deal the hands"}
    assert now.line(deal, GM_SEAT) == "Your turn: deal the hands."
    assert now.line(deal, ANN) == "Now: The GM deals."
    assert now.line(None, ANN) == now.line({}, GM_SEAT) == ""
