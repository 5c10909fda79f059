"""Issue 27, item 4: a log an operator can read.

One line per request on standard output (time, method, the route's pattern, status, duration,
group, client address), warnings and errors with their tracebacks in the log and never on a
page, and never a key, a token, a PIN or a join link: checked after one pass over every route
of the URL map, with the game's real keys and the admin and join links among the addresses
asked for, and through the real waitress server (``scorekeeper serve``) with a proxy in front.
"""

from __future__ import annotations

import http.client
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.web import create_app
from scorekeeper.web.serving import logs

from hosted_box import shipped_caddy
from test_web_no_500 import fill, make_site
from web_helpers import admin_link, edit_link

ROOT = Path(__file__).resolve().parents[2]
PIN = "739164"
LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (GET|POST|HEAD) (\S+) (\d{3}) "
    r"([\d.]+)ms group=(\S+) (\S+)$"
)


@pytest.fixture
def captured():
    """The log as ``serve`` sets it up, written into a string."""
    out = io.StringIO()
    logs.configure("info", "text", out)
    yield out
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "scorekeeper_log", False)]:
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)
    logging.captureWarnings(False)


def secrets_of(app) -> dict[str, str]:
    from scorekeeper.store import keys
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        found = {
            "admin key": keys.install_key(db, "admin"),
            "join key": keys.install_key(db, "join"),
            "PIN": PIN,
        }
        for row in db.query("select id, edit_key, view_key, pin_hash from games"):
            found[f"edit key {row['id']}"] = row["edit_key"]
            found[f"view key {row['id']}"] = row["view_key"]
            if row["pin_hash"]:
                found[f"PIN hash {row['id']}"] = row["pin_hash"].rpartition("$")[2]
        return found
    finally:
        db.close()


def test_item4_the_log_never_holds_a_key_token_pin_or_join_link(tmp_path, captured):
    app, client = make_site(tmp_path)
    client.post("/games/2/pin", data={"pin": PIN, "current": "4821"})
    secrets = secrets_of(app)
    app.config["TESTING"] = False  # an exception becomes a 500 page, logged
    asked = [
        edit_link(app, 1),
        admin_link(app),
        f"/join/{secrets['join key']}",
        f"/v/{secrets['view key 1']}",
        f"/e/{secrets['edit key 2']}",
    ]
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.rule.startswith("/static"):
            continue
        url = fill(rule.rule)
        query = {"key": secrets["admin key"], "pin": PIN, "token": secrets["join key"]}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            client.open(
                url,
                method=method,
                query_string=query,
                data={"pin": PIN, "key": secrets["edit key 1"]},
            )
    for url in asked:
        client.get(url)
        client.get(url, headers={"Referer": url})
    watcher = app.test_client()
    watcher.post("/games/2/unlock", data={"pin": PIN})
    watcher.post("/games/2/unlock", data={"pin": PIN[::-1]})

    text = captured.getvalue()
    lines = text.splitlines()
    assert len(lines) > len(list(app.url_map.iter_rules())), text[-2000:]
    assert "GET /e/<key> 303" in text and "GET /admin/<key> 303" in text
    assert "POST /games/<int:game_id>/unlock" in text
    leaked = {name: value for name, value in secrets.items() if value in text}
    assert leaked == {}, leaked


def test_item4_one_line_per_request_with_route_status_duration_group_and_client(tmp_path, captured):
    app = create_app(
        {"DATABASE": str(tmp_path / "log.sqlite3"), "INSTANCE_PATH": str(tmp_path / "instance")}
    )
    client = app.test_client()
    client.get("/")
    client.get("/games/77", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    client.get("/no/such/page")
    lines = [LINE.match(line) for line in captured.getvalue().splitlines()]
    assert all(lines), captured.getvalue()
    assert [(m[1], m[2], m[3], m[5]) for m in lines] == [
        ("GET", "/", "200", "-"),
        ("GET", "/games/<int:game_id>", "404", "-"),
        ("GET", "-", "404", "-"),
    ]
    assert lines[1][6] == "192.0.2.7" and float(lines[0][4]) > 0


def test_item4_the_group_is_its_short_id(tmp_path, captured):
    app = create_app(
        {"DATABASE": str(tmp_path / "log.sqlite3"), "INSTANCE_PATH": str(tmp_path / "instance")}
    )

    @app.before_request
    def read_group():
        from flask import g

        g.group_id = "k3f9"

    app.test_client().get("/")
    assert "GET / 200" in captured.getvalue() and "group=k3f9" in captured.getvalue()


def test_item4_an_error_goes_to_the_log_with_its_traceback_and_never_to_the_page(
    tmp_path, captured
):
    app = create_app(
        {"DATABASE": str(tmp_path / "log.sqlite3"), "INSTANCE_PATH": str(tmp_path / "instance")}
    )

    def broken(key):
        raise RuntimeError("the disk is on fire")

    app.view_functions["access.edit_link"] = broken
    response = app.test_client().get("/e/0123456789abcdef0123456789abcdef")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Traceback" not in page and "on fire" not in page
    text = captured.getvalue()
    assert "Traceback" in text and "RuntimeError: the disk is on fire" in text
    assert "ERROR" in text and "/e/<key>" in text
    assert "0123456789abcdef0123456789abcdef" not in text
    assert "GET /e/<key> 500" in text


def test_item4_json_lines(tmp_path):
    out = io.StringIO()
    logs.configure("info", "json", out)
    try:
        app = create_app(
            {"DATABASE": str(tmp_path / "log.sqlite3"), "INSTANCE_PATH": str(tmp_path / "instance")}
        )
        app.test_client().get("/games/3")
        logging.getLogger("scorekeeper.test").warning("a word to the operator")
    finally:
        logs.configure("warning", "text", io.StringIO())
    request, warning = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {k: request[k] for k in ("method", "route", "status", "group", "client")} == {
        "method": "GET",
        "route": "/games/<int:game_id>",
        "status": 404,
        "group": "-",
        "client": "127.0.0.1",
    }
    assert request["time"].endswith("Z") and request["ms"] >= 0
    assert warning["level"] == "warning" and warning["message"] == "a word to the operator"


def test_item4_the_log_level_leaves_the_request_lines_out(tmp_path):
    out = io.StringIO()
    logs.configure("warning", "text", out)
    app = create_app(
        {"DATABASE": str(tmp_path / "log.sqlite3"), "INSTANCE_PATH": str(tmp_path / "instance")}
    )
    app.test_client().get("/")
    assert out.getvalue() == ""


# -- through the real server ---------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_serve(tmp_path: Path, *args: str, env: dict | None = None):
    """``scorekeeper serve`` on a free port, its standard output and error in a file."""
    port = free_port()
    out = tmp_path / "serve.log"
    with out.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port), *args],
            env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"), **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, out.read_text()
        try:
            get(port, "/healthz")
            return process, port, out
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not start: " + out.read_text())


def admin_key(tmp_path: Path) -> str:
    """The admin key of the database ``start_serve``'s server uses (which a hosted server
    does not print: ``scorekeeper admin-link`` does)."""
    from scorekeeper.store import keys
    from scorekeeper.store.db import connect
    from scorekeeper.store.paths import DATABASE_FILE

    db = connect(str(tmp_path / "instance" / DATABASE_FILE))
    try:
        return keys.install_key(db, "admin")
    finally:
        db.close()


def get(port: int, path: str, headers: dict | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def stop(process) -> None:
    if process.poll() is None:
        process.terminate()
    process.wait(timeout=15)


def test_item4_the_real_server_logs_each_request_with_the_client_the_proxy_names(tmp_path):
    process, port, out = start_serve(
        tmp_path,
        "--proxy-hops",
        "1",
        "--public-url",
        "https://scores.example.org",
        env={"SCOREKEEPER_LOG_FORMAT": "json"},
    )
    try:
        admin = admin_key(tmp_path)
        proxied = {
            "X-Forwarded-For": "203.0.113.9",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "scores.example.org",
            "Host": "scores.example.org",
        }
        assert get(port, f"/admin/{admin}", proxied) == 303
        assert get(port, "/games/12", proxied) == 404
        time.sleep(0.3)
    finally:
        stop(process)
    text = out.read_text()
    assert admin not in text  # a hosted server's banner names `scorekeeper admin-link`
    assert "`scorekeeper admin-link` prints it" in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    requests = [line for line in lines if "route" in line]
    assert [(r["route"], r["status"], r["client"]) for r in requests][-2:] == [
        ("/admin/<key>", 303, "203.0.113.9"),
        ("/games/<int:game_id>", 404, "203.0.113.9"),
    ]


def test_item4_serve_refuses_an_unknown_log_level_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(free_port())],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path), "SCOREKEEPER_LOG_LEVEL": "loud"},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "--log-level: the log level is one of debug, info, warning, error, not 'loud'."
    ]


def test_item4_through_caddy_both_logs_hold_no_key_and_a_made_up_client_is_not_believed(tmp_path):
    """Caddy as deploy/Caddyfile sets it up (on plain HTTP, on free ports), in front of the
    real server: Caddy's log line has the address without the key or the query, the app's
    line has the client Caddy saw, not the one a header made up."""
    process, port, out = start_serve(tmp_path, "--proxy-hops", "1")
    try:
        with shipped_caddy(tmp_path, port) as (caddy_port, caddy_log):
            admin = admin_key(tmp_path)
            status = get(
                caddy_port,
                f"/admin/{admin}?pin={PIN}",
                {
                    "X-Forwarded-For": "198.51.100.1",
                    "Referer": f"http://127.0.0.1/admin/{admin}",
                },
            )
            assert status == 303
            time.sleep(0.5)
    finally:
        stop(process)
    proxied = [
        json.loads(line)
        for line in caddy_log.read_text().splitlines()
        if line.startswith("{") and '"request"' in line
    ]
    assert [line["request"]["uri"] for line in proxied] == ["/admin/"]
    assert admin not in caddy_log.read_text() and PIN not in caddy_log.read_text()
    served = out.read_text()
    assert admin not in served and PIN not in served
    assert re.search(r"GET /admin/<key> 303 [\d.]+ms group=- 127\.0\.0\.1$", served, re.M)
    assert "198.51.100.1" not in served


def test_item4_the_log_is_set_up_by_the_real_server_alone(tmp_path, monkeypatch):
    """``serve`` with its server replaced (as tests do) leaves this process's logging alone."""
    from scorekeeper import cli

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    served = []
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **options: served.append(app)
    )
    before = list(logging.getLogger().handlers)
    assert (
        cli.main(
            [
                "serve",
                "--db",
                str(tmp_path / "x.sqlite3"),
                "--log-format",
                "json",
                "--log-level",
                "debug",
            ]
        )
        == 0
    )
    assert logging.getLogger().handlers == before
    assert [(a.config["LOG_LEVEL"], a.config["LOG_FORMAT"]) for a in served] == [("debug", "json")]
