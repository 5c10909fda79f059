"""Issue 39, item 4: ``scorekeeper serve`` run by Litestream (``replicate -exec``) stops when
Litestream ends, with a line that says why and a failing exit status, so that the supervisor
starts the pair again; a server that no Litestream runs does not watch anything."""

from __future__ import annotations

import os
import signal
import subprocess

from scorekeeper import cli
from scorekeeper.web import serve


def test_issue39_4__serve_stops_and_fails_when_the_litestream_running_it_ends(
    tmp_path, monkeypatch, capsys
):
    litestream = subprocess.Popen(["sleep", "60"])
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr(serve.replica, "replicator", lambda: litestream.pid)
    signals, kill = [], os.kill

    def to_self(pid, number):  # the SIGTERM to the server itself is noted, not sent
        if pid == os.getpid():
            signals.append((pid, number))
        else:
            kill(pid, number)

    monkeypatch.setattr("os.kill", to_self)
    seen = {}

    def run(app, **options):  # the server, until the stop SIGTERM would bring
        seen["replicator"] = app.config["REPLICATOR"]
        litestream.kill()  # Litestream killed (kill -9 in the issue)
        litestream.wait()
        for _ in range(300):
            if signals:
                break
            serve.threading.Event().wait(0.01)
        # None, not True: True would end the test's process as the real server's end does

    monkeypatch.setattr(serve, "serve_until_stopped", run)
    assert cli.main(["serve", "--db", str(tmp_path / "night.sqlite3")]) == 1
    assert seen["replicator"] == litestream.pid
    assert signals == [(os.getpid(), signal.SIGTERM)]
    err = capsys.readouterr().err
    assert f"Litestream (process {litestream.pid}) ended" in err and "Start both again" in err


def test_issue39_4__serve_without_litestream_watches_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    seen = {}
    monkeypatch.setattr(
        serve,
        "serve_until_stopped",
        lambda app, **kw: seen.setdefault("r", app.config["REPLICATOR"]),
    )
    assert cli.main(["serve", "--db", str(tmp_path / "night.sqlite3")]) == 0
    assert seen == {"r": None}
