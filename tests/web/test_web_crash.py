"""A crash loses nothing that was acknowledged and leaves nothing half-written.

The real server (``scorekeeper serve``, waitress, CSRF on) takes deals from several phones at
once; it is killed with SIGKILL while they keep sending, then started again on the same
database. Every deal a phone was told was saved is there, in its place; the one a phone was
sending at the moment of the kill is there whole or not at all; every game's summary, seats
and statistics agree with the engine; ``PRAGMA integrity_check`` says ok.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from live_server import Phone, Server, TableRun, enter_deal, play_table, simulated, verify

TABLES = 6
ACKNOWLEDGED_BEFORE_THE_KILL = 40


pytestmark = pytest.mark.slow  # kills the production server mid-stream


def test_sigkill_mid_stream__acknowledged_deals_survive_nothing_half_written(tmp_path):
    database, instance = tmp_path / "crash.sqlite3", tmp_path / "instance"
    server = Server(database, instance).start()
    runs = [TableRun(seed, simulated(seed)) for seed in range(100, 100 + TABLES)]
    saves = []
    lock = threading.Lock()

    def record(kind, reply):
        if kind == "save":
            with lock:
                saves.append(reply.status)

    threads = [
        threading.Thread(
            target=play_table,
            args=(server.port, run),
            kwargs=dict(deals=0, deadline=time.monotonic() + 60, record=record, preview=False),
        )
        for run in runs
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while sum(len(r.acknowledged) for r in runs) < ACKNOWLEDGED_BEFORE_THE_KILL:
        assert time.monotonic() < deadline, "the phones saved too little: " + server.output()
        time.sleep(0.02)
    server.kill()  # SIGKILL, mid-stream: the phones are still sending
    for thread in threads:
        thread.join(timeout=60)
    acknowledged = sum(len(r.acknowledged) for r in runs)
    assert acknowledged >= ACKNOWLEDGED_BEFORE_THE_KILL
    assert all(r.error for r in runs), "a phone finished its game before the kill"
    assert set(saves) == {303}  # nothing but acknowledgements before the kill

    again = Server(database, instance).start()
    try:
        assert verify(database, runs, in_flight=True) == []
        with sqlite3.connect(database) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = conn.execute("select count(*) from deals").fetchone()[0]
        assert acknowledged <= stored <= acknowledged + TABLES
        # the game goes on: a phone with the game's edit link enters its next deal
        run = runs[0]
        with sqlite3.connect(database) as conn:
            (key,) = conn.execute(
                "select edit_key from games where id = ?", [run.game_id]
            ).fetchone()
            number = (
                conn.execute(
                    "select count(*) from deals where game_id = ?", [run.game_id]
                ).fetchone()[0]
                + 1
            )
        phone = Phone(again.port)
        assert phone.request("link", "GET", f"/e/{key}").status == 303
        assert enter_deal(phone, run.game_id, number, run.game["deals"][number - 1])
        phone.close()
    finally:
        again.stop()
