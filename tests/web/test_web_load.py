"""A bounded load test in the normal suite: ten tables enter games at once against the
production server (``benchmarks/load_tables.py`` runs the fifty-table version for
BENCHMARKS.md). Every acknowledged deal is stored exactly once, the totals are the engine's,
and no request failed."""

from __future__ import annotations

import sqlite3

import pytest

from live_server import Server, report, run_load, verify

pytestmark = pytest.mark.load


def test_ten_tables_at_once__every_deal_once_totals_the_engines(tmp_path):
    database = tmp_path / "load.sqlite3"
    server = Server(database, tmp_path / "instance").start()
    try:
        result = run_load(server.port, database, tables=10, deals=8, seed=11, time_limit=60)
    finally:
        server.stop()
    print(report(result, 10))
    assert result.failures == []
    assert result.deals == 80 and all(len(r.acknowledged) == 8 for r in result.runs)
    assert set(result.statuses) == {200, 303}
    assert sum(r.double_taps for r in result.runs) == 10  # deal 7 of each table, sent twice

    # and the check does catch a deal stored twice or a total that is not the engine's
    with sqlite3.connect(database) as conn:
        conn.execute(
            "update game_players set total = total + 1 where game_id = ? and seat = 0",
            [result.runs[0].game_id],
        )
        conn.execute("delete from deals where game_id = ? and number = 8", [result.runs[1].game_id])
    problems = verify(database, result.runs)
    assert any("totals" in p for p in problems) and any("acknowledged" in p for p in problems)
