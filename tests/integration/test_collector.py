"""Issue 28: a serving process sets each socket aside from the garbage collector once it is set
up (``gc.freeze``), and thaws and collects after a population's worth of sockets have closed,
so their cycles do not stay (tabletop/serving/collector.py)."""

from __future__ import annotations

import gc
import weakref

import pytest

from tabletop.live import liveness
from tabletop.serving import collector


@pytest.fixture
def thawed(monkeypatch):
    monkeypatch.setattr(liveness, "opened_hooks", [])
    monkeypatch.setattr(liveness, "closed_hooks", [])
    monkeypatch.setattr(collector, "_closed_since_thaw", 0)
    # gc holds the list itself: only its content can be put back (a new list is never called)
    callbacks = [c for c in gc.callbacks if c is not collector._full_collection]
    gc.callbacks[:] = callbacks
    gc.unfreeze()
    yield
    gc.callbacks[:] = callbacks
    gc.unfreeze()


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_socket_set_up_is_frozen_out_of_later_collections(thawed) -> None:
    assert collector.set_sockets_aside() and collector.set_sockets_aside()
    assert liveness.opened_hooks == [collector.socket_set_up]  # once, however often installed
    kept = Cycle()
    liveness.opened_hooks[0](1)
    assert gc.get_freeze_count() > 0 and gc.is_tracked(kept)
    assert all(kept is not o for o in gc.get_objects())  # frozen: no generation walks it


def test_closed_sockets_cycles_are_collected_after_a_population_s_worth_closed(thawed, monkeypatch) -> None:
    monkeypatch.setattr(collector, "THAW_AFTER", 3)
    thawed_at: list[int] = []
    real_unfreeze = gc.unfreeze
    monkeypatch.setattr(gc, "unfreeze", lambda: (thawed_at.append(gc.get_freeze_count()), real_unfreeze()))
    collector.socket_set_up(3)
    collector.socket_closed(2)
    collector.socket_closed(1)
    assert thawed_at == []  # two of three closed: still frozen
    # a cycle frozen with its socket, garbage once the socket has gone: no collection frees it
    cycle = Cycle()
    gone = weakref.ref(cycle)
    collector.socket_set_up(1)
    del cycle
    gc.collect()
    assert gone() is not None
    collector.socket_closed(0)  # the third: thawed, collected in full, frozen again
    assert len(thawed_at) == 1 and gc.get_freeze_count() > 0
    assert gone() is None


def test_what_survives_a_long_full_collection_is_set_aside(thawed, monkeypatch) -> None:
    assert collector.set_sockets_aside()
    kept = [Cycle() for _ in range(1000)]
    monkeypatch.setattr(collector, "SURVIVORS_MS", 0.0)  # every full collection counts as long
    gc.collect()
    assert all(k is not o for o in gc.get_objects() for k in kept[:3])  # set aside: no generation holds them
    assert gc.get_freeze_count() >= 1000


def test_a_short_full_collection_sets_nothing_aside(thawed, monkeypatch) -> None:
    assert collector.set_sockets_aside()
    monkeypatch.setattr(collector, "SURVIVORS_MS", 10_000.0)
    kept = Cycle()
    gc.collect()
    assert gc.get_freeze_count() == 0
    assert any(kept is o for o in gc.get_objects())
