"""The serving speed-ups kept (docs/performance.md: each measured alone, each paying at least
10 % on bench/latency) are on under a real daphne: eager TCP writes and prepared frames."""

from __future__ import annotations


def test_a_real_daphne_runs_with_eager_writes_and_prepared_frames(full_table, daphne_log) -> None:
    table, gm, player, spectator = full_table
    gm.roll("1d6")
    table.sync(gm, player, spectator)  # sockets are open and have had a frame
    log = daphne_log.read_text(errors="replace")
    assert "serving: eager writes on" in log
    assert "serving: prepared frames on" in log
    assert "serving: views and templates loaded, the process frozen" in log
