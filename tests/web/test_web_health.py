"""``/healthz``: a container's health check and a service monitor ask it whether the app can read
its database, which version it runs, and (issue 39, item 4) whether its replica is kept."""

from __future__ import annotations

import subprocess
import time

from scorekeeper import __version__
from test_replica import ltx


def test_healthz_answers_ok_when_the_database_reads(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json()["status"] == "ok"
    assert response.headers["Cache-Control"] == "no-store"


def test_healthz_answers_503_when_the_database_cannot_be_read(app, client, tmp_path):
    assert client.get("/healthz").status_code == 200
    unreadable = tmp_path / "a-folder-not-a-database"
    unreadable.mkdir()
    app.config["DATABASE"] = str(unreadable)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.get_json()["status"] == "unavailable"


def test_issue39_4__healthz_gives_the_version_and_a_server_without_a_replica_says_so(client):
    assert client.get("/healthz").get_json() == {
        "status": "ok",
        "version": __version__,
        "replication": {"configured": False, "running": False, "last_change_age_s": None},
    }


def test_issue39_4__healthz_says_503_once_the_litestream_running_the_server_has_ended(app, client):
    litestream = subprocess.Popen(["sleep", "60"])
    app.config["REPLICATOR"] = litestream.pid
    try:
        ltx(app.config["DATABASE"], 0, 1, 4, at=time.time() - 30)
        running = client.get("/healthz")
        assert running.status_code == 200
        replication = running.get_json()["replication"]
        assert replication["configured"] and replication["running"]
        assert 29 <= replication["last_change_age_s"] < 60
    finally:
        litestream.kill()
        litestream.wait()
    gone = client.get("/healthz")
    assert gone.status_code == 503 and gone.get_json()["status"] == "unreplicated"
    assert gone.get_json()["replication"]["running"] is False
