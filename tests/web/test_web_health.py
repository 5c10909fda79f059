"""``/healthz``: a container's health check and a service monitor ask it whether the app can read
its database."""

from __future__ import annotations


def test_healthz_answers_ok_when_the_database_reads(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_healthz_answers_503_when_the_database_cannot_be_read(app, client, tmp_path):
    assert client.get("/healthz").status_code == 200
    unreadable = tmp_path / "a-folder-not-a-database"
    unreadable.mkdir()
    app.config["DATABASE"] = str(unreadable)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.get_json() == {"status": "unavailable"}
