"""Who moves which token and who sees which scene (permissions.py, the scenes' rules)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.permissions import may_move_token, may_see_portrait, may_see_scene


def member(pk: int, role: str, removed: bool = False) -> SimpleNamespace:
    return SimpleNamespace(pk=pk, role=role, removed_at="then" if removed else None)


GM, ANN, BOB, WATCHER = member(1, "gm"), member(2, "player"), member(3, "player"), member(4, "spectator")
ALMA = SimpleNamespace(owner_id=2)  # Ann's character
NPC = SimpleNamespace(owner_id=None)


def test_a_player_moves_her_own_characters_token_and_no_other() -> None:
    assert may_move_token(ANN, ALMA)
    assert not may_move_token(BOB, ALMA)
    assert not may_move_token(ANN, NPC)


def test_the_gm_moves_every_token_and_a_spectator_or_stranger_none() -> None:
    assert may_move_token(GM, ALMA) and may_move_token(GM, NPC)
    assert not may_move_token(WATCHER, ALMA)
    assert not may_move_token(None, ALMA)
    assert not may_move_token(member(2, "player", removed=True), ALMA)


@pytest.mark.parametrize("who", [ANN, WATCHER])
def test_a_scene_not_shown_and_a_hidden_token_are_the_gms_alone(who: SimpleNamespace) -> None:
    assert may_see_scene(who, shown=True)
    assert not may_see_scene(who, shown=False)
    assert not may_see_scene(who, shown=True, hidden=True)
    assert may_see_scene(GM, shown=False) and may_see_scene(GM, shown=True, hidden=True)


def test_a_portrait_is_the_tables_and_no_strangers() -> None:
    assert all(may_see_portrait(m) for m in (GM, ANN, WATCHER))
    assert not may_see_portrait(None)
    assert not may_see_portrait(member(2, "player", removed=True))
