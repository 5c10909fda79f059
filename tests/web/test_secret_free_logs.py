"""Issue 39, item 3: no secret in any log, with the shipped configuration.

A box of many groups (``serve --groups=invite --proxy-hops 1 --log-format json --workers 2``)
behind Caddy as ``deploy/Caddyfile`` ships it. A phone sends every kind of secret link (join,
admin, edit, view, shared results of a game and of a night, the invitation, a club night's and
a tournament's organiser and wall links), under ``/g/<id>/`` and at the root, with secrets in
the query, in a ``Cookie``, a ``Referer`` and a header of its own, and asks for redirects whose
``Location`` carries a key; once with the app up, once with it down (Caddy answers 502 and
writes the request to its error log). Then the three logs are read: the app's, Caddy's access
log (standard output) and Caddy's error log (standard error).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import os
import re
import socket
import ssl
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from group_helpers import groups_app
from hosted_box import CADDY, HOST, shipped_caddy, shipped_config
from live_server import Phone, Server, free_port
from test_operator_log import captured  # noqa: F401 (the log, written into a string)
from scorekeeper import cli
from scorekeeper.engine import HouseRules
from scorekeeper.store import clubnights, keys, storage, tournaments
from scorekeeper.store.db import connect
from scorekeeper.store.groups import Host
from scorekeeper.store.paths import SECRET_KEY_FILE

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]
NIGHT = "2026-11-20"
#: A PIN in a query: 12 digits, so that no time or duration in a log holds it by chance.
PIN = "739164820517"


def group_with_every_secret(instance: Path) -> tuple[str, dict[str, str]]:
    """A group with a game, a club night and a tournament: its id, and every secret path of
    it by name (the shared results' keys are made from the secret key once the server runs)."""
    host = Host(instance)
    group = host.create("Friday club", "en")
    db = connect(str(group.path))
    try:
        game = storage.create_game(
            db,
            title="Friday",
            played_on=NIGHT,
            players=EIGHT[:4],
            rules=HouseRules(),
            first_king=0,
        )
        game_keys = keys.game_keys(db, game)
        club = clubnights.create(
            db, title="Café night", night=NIGHT, names=EIGHT, rules=HouseRules(), rounds=2, seed=1
        )
        cup = tournaments.create(
            db,
            title="Cup",
            played_on=NIGHT,
            entrants=[(name,) for name in EIGHT],
            fmt="top-two",
            seeding="entered",
            rules=HouseRules(),
        )
        paths = {
            "join": f"/join/{keys.install_key(db, 'join')}",
            "admin": f"/admin/{keys.install_key(db, 'admin')}",
            "edit": f"/e/{game_keys['edit_key']}",
            "view": f"/v/{game_keys['view_key']}",
            "club organiser": f"/clubs/{club}/e/{clubnights.club_key(db, club)}",
            "tournament organiser": f"/tournaments/{cup}/e/{tournaments.tournament_key(db, cup)}",
            "club wall": f"/w/{keys.wall_key(db, 'club', club)}",
            "tournament wall": f"/w/{keys.wall_key(db, 'tournament', cup)}/state.json",
        }
    finally:
        db.close()
    paths["invitation"] = f"/invite/{host.invite_key()}"
    return group.id, {"game": str(game), **paths}


def shared_result_paths(instance: Path, group: str, game: str) -> dict[str, str]:
    """The shared results' secret links, as ``pages/result.shared_key`` makes them."""
    secret = (instance / SECRET_KEY_FILE).read_text().strip().encode()

    def key(what: str) -> str:
        return hmac.new(secret, f"{group}/{what}".encode(), hashlib.sha256).hexdigest()[:32]

    return {
        "shared game": f"/r/games/{game}/{key(f'game {game}')}",
        "shared game image": f"/r/games/{game}/{key(f'game {game}')}/sheet.png",
        "shared night": f"/r/nights/{NIGHT}/{key(f'night {NIGHT}')}",
        "shared night image": f"/r/nights/{NIGHT}/{key(f'night {NIGHT}')}/standings.png",
    }


def send_every_secret(phone: Phone, group: str, paths: dict[str, str]) -> list:
    """Each secret path under the group and at the root, with secrets in its query and its
    headers, and as the go-back address of a redirect (which the answer's Location carries)."""
    replies = []
    secret = paths["admin"].rpartition("/")[2]
    for name, path in paths.items():
        for where in (f"/g/{group}{path}", path):
            if where.startswith(f"/g/{group}/invite/"):
                continue  # the invitation is the box's, at the root only
            headers = {
                "Referer": f"http://127.0.0.1{where}",
                "X-Shared-From": where,
                "Cookie": f"session={secret}; words_en={where}",
            }
            replies.append(phone.request(name, "GET", where, headers=headers))
            replies.append(
                phone.request(name, "GET", f"{where}?pin={PIN}&next={quote(where)}", headers={})
            )
            replies.append(phone.request(name, "GET", f"/lang/zz?next={quote(where)}"))
    return replies


def json_lines(text: str) -> list[dict]:
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}") from None
    return lines


def test_issue39_3__no_secret_in_the_apps_log_nor_caddys_access_or_error_log(tmp_path):
    instance = tmp_path / "instance"
    group, paths = group_with_every_secret(instance)
    game = paths.pop("game")
    server = Server(
        tmp_path / "unused.sqlite3",
        instance,
        options=("--proxy-hops", "1", "--log-format", "json", "--workers", "2"),
        args=("--groups=invite",),
    )
    server.start(timeout=60)
    try:
        paths.update(shared_result_paths(instance, group, game))
        with shipped_caddy(tmp_path, server.port) as (caddy_port, access_log):
            phone = Phone(caddy_port)
            joined = phone.request("join", "GET", f"/g/{group}{paths['join']}")
            assert joined.status == 303
            sheet = phone.request("sheet", "GET", f"/g/{group}/sheet/blank.pdf")
            assert sheet.status in (200, 503)
            up = send_every_secret(phone, group, paths)
            server.stop()  # stopped cleanly: the whole of its log is written
            phone.close()
            stranger = Phone(caddy_port)
            down = send_every_secret(stranger, group, paths)
            stranger.close()
            time.sleep(0.5)
    finally:
        server.kill()
    secrets = {name: path.rstrip("/").split("/")[-1] for name, path in paths.items()}
    secrets["tournament wall"] = paths["tournament wall"].split("/")[2]
    secrets["shared game image"] = paths["shared game image"].split("/")[4]
    secrets["shared night image"] = paths["shared night image"].split("/")[4]
    secrets["PIN"] = PIN
    assert all(len(value) == 32 for name, value in secrets.items() if name != "PIN"), secrets

    # what was sent reached the app, redirects carried keys, and the app was then down
    assert {r.status for r in up} >= {200, 303, 404}
    assert sum(any(s in r.location for s in secrets.values()) for r in up) >= len(paths)
    assert {r.status for r in down} == {502}

    logs = {
        "the app's log": server.output(),
        "Caddy's access log": access_log.read_text(),
        "Caddy's error log": (tmp_path / "caddy-errors.log").read_text(),
    }
    for log_name, text in logs.items():
        leaked = sorted(name for name, value in secrets.items() if value in text)
        assert leaked == [], f"{log_name} holds the {', '.join(leaked)} key"

    # each log holds what it should, so that the test above can fail
    app = json_lines(logs["the app's log"])  # --log-format json: nothing but JSON lines
    routes = {line.get("route") for line in app}
    assert {"/g/<group>/e/<key>", "/invite/<key>", "/g/<group>/r/games/<int:game_id>/<key>"} <= (
        routes
    )
    access = [line for line in json_lines(logs["Caddy's access log"]) if "request" in line]
    assert len(access) >= len(up) + len(down) + 2
    uris = {line["request"]["uri"] for line in access}
    assert f"/g/{group}/e/" in uris and "/invite/" in uris and f"/g/{group}/r/games/{game}/" in uris
    assert all("headers" not in line["request"] for line in access)
    locations = {
        location for line in access for location in line.get("resp_headers", {}).get("Location", [])
    }
    assert f"/g/{group}/e/" in locations and f"/g/{group}/w/" in locations
    errors = [line for line in json_lines(logs["Caddy's error log"]) if "request" in line]
    assert len(errors) >= len(down) and {line["status"] for line in errors} == {502}
    assert f"/g/{group}/admin/" in {line["request"]["uri"] for line in errors}
    assert all("headers" not in line["request"] for line in errors)


def test_issue39_3__caddys_redirect_to_https_logs_no_key(tmp_path):
    """A phone that opens a secret link over plain HTTP gets Caddy's own redirect to HTTPS,
    the key in its Location: the shipped Caddyfile, on its certificate of its own making
    (``local_certs``) and high ports, logs that request without the key, and its error log
    (no app behind it: a 502 over HTTPS) none either."""
    http_port, https_port = free_port(), free_port()
    options = (
        f"{{\n\tlocal_certs\n\tskip_install_trust\n\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n\tstorage file_system {tmp_path / 'data'}"
    )
    config = shipped_config(0, free_port()).replace("http://127.0.0.1:0 {", "scores.test {")
    (tmp_path / "Caddyfile").write_text(config.replace("{", options, 1))
    key = "0123456789abcdef0123456789abcdef"
    with (tmp_path / "out.log").open("wb") as out, (tmp_path / "err.log").open("wb") as err:
        caddy = subprocess.Popen(
            [CADDY, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
            stdout=out,
            stderr=err,
            env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")},
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
                connection.request("GET", f"/g/abc/e/{key}?next=/v/{key}", headers={"Host": HOST})
                moved = connection.getresponse()
                break
            except OSError:
                assert caddy.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        assert moved.status == 308 and key in moved.getheader("Location", "")
        connection.close()
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        while True:  # once Caddy has made its certificate for scores.test (named by SNI)
            secure = http.client.HTTPSConnection(HOST, https_port, timeout=5, context=context)
            secure._create_connection = lambda address, *args: socket.create_connection(
                ("127.0.0.1", address[1]), *args
            )
            try:
                secure.request("GET", f"/g/abc/v/{key}?pin={PIN}")
                assert secure.getresponse().status == 502
                break
            except (OSError, ssl.SSLError):
                assert time.monotonic() < deadline
                time.sleep(0.2)
            finally:
                secure.close()
        time.sleep(0.5)
    finally:
        caddy.terminate()
        caddy.wait(timeout=15)
    access, errors = (tmp_path / "out.log").read_text(), (tmp_path / "err.log").read_text()
    uris = [line["request"]["uri"] for line in json_lines(access) if "request" in line]
    assert uris == ["/g/abc/e/", "/g/abc/v/"]
    assert key not in access and key not in errors and PIN not in access + errors
    assert '"uri":"/g/abc/v/"' in errors


# -- the app's own log ------------------------------------------------------------------------
def test_issue39_3__a_request_refused_before_its_view_has_its_duration_not_none(
    tmp_path,
    captured,  # noqa: F811 (the fixture)
):
    """A group that is not there is refused before any view (as the group is read from the
    address): its line still says how long it took."""
    client = groups_app(tmp_path).test_client()
    assert client.get("/g/nosuchgroup/").status_code == 404
    assert client.get("/no/such/page").status_code == 404
    lines = captured.getvalue().splitlines()
    assert len(lines) == 2 and "None" not in captured.getvalue()
    assert re.search(r" GET /g/<group>/ 404 [\d.]+ms group=- ", lines[0]), lines[0]
    assert re.search(r" GET - 404 [\d.]+ms group=- ", lines[1]), lines[1]


def test_issue39_3__a_key_in_an_errors_words_or_a_warning_is_withheld(
    tmp_path,
    captured,  # noqa: F811 (the fixture)
):
    """An exception's words, or a library's warning, can hold the value that failed: a key
    there (32 hex digits or more: a link's, the secret key) is withheld from the log."""
    key = "0123456789abcdef0123456789abcdef"
    app = groups_app(tmp_path, TESTING=False)

    def broken(**values):
        logging.getLogger("some.library").warning("could not read %s", app.secret_key)
        raise KeyError(f"no game has the key {key}")

    app.view_functions["front.invite"] = broken
    response = app.test_client().get(f"/invite/{key}?next=/e/{key}")
    assert response.status_code == 500
    text = captured.getvalue()
    assert "Traceback" in text and "KeyError: 'no game has the key (key withheld)'" in text
    assert "could not read (key withheld)" in text and "GET /invite/<key> 500" in text
    assert key not in text and app.secret_key not in text


@pytest.fixture
def banner(tmp_path, monkeypatch):
    """``serve``'s words as it starts (its server replaced): standard output and error."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_GROUPS", raising=False)
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", lambda app, **kw: None)
    return tmp_path / "instance"


def test_issue39_3__with_log_format_json_serve_says_nothing_but_json_lines(banner, capsys):
    assert cli.main(["serve", "--groups=invite", "--proxy-hops", "1", "--log-format", "json"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in (out + err).splitlines()]
    assert len(lines) >= 4 and {line["logger"] for line in lines} == {"scorekeeper.serve"}
    assert lines[0]["message"].startswith("Trex Scorekeeper on ") and lines[0]["level"] == "info"
    assert lines[-1]["message"] == "Stop with Ctrl+C."
    assert all(line["time"].endswith("Z") for line in lines)


def test_issue39_3__with_log_format_json_a_plain_print_is_a_json_line_too(
    banner, capsys, monkeypatch
):
    """Whatever prints while ``serve`` runs (here its word that printing is not available, on
    standard error) is a JSON line; a line that is one already is passed on as it is."""

    def broken() -> None:
        raise OSError("no fonts")

    monkeypatch.setattr("scorekeeper.printing.warm_up", broken)

    def run(app, **options):
        print('{"already": "json"}')
        logging.getLogger("scorekeeper.test").warning("a word from the server")
        return None

    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", run)
    assert cli.main(["serve", "--log-format", "json", "--db", str(banner / "x.sqlite3")]) == 0
    out, err = capsys.readouterr()
    said = [json.loads(line) for line in out.splitlines()]
    (warned,) = [json.loads(line) for line in err.splitlines()]
    assert warned["level"] == "warning" and "Printing is not available" in warned["message"]
    assert {"already": "json"} in said


def test_issue39_3__with_log_format_json_a_refused_option_is_a_json_line_too(banner, capsys):
    assert cli.main(["serve", "--log-format", "json", "--workers", "65"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = [json.loads(line) for line in err.splitlines()]
    assert line["level"] == "error" and line["message"].startswith("--workers: 1 to ")


def test_issue39_3__a_hosted_banner_names_the_commands_that_print_its_keys(banner, capsys):
    """Behind a proxy, what ``serve`` says goes to the journal or ``podman logs``: the
    invitation and the admin link are named by their commands, never printed."""
    assert cli.main(["serve", "--groups=invite", "--proxy-hops", "1"]) == 0
    invited = capsys.readouterr().out
    key = Host(banner).invite_key()
    assert key not in invited and "/invite/" not in invited
    assert "`scorekeeper groups invite-link` prints the link" in invited
    database = str(banner / "one.sqlite3")
    assert cli.main(["serve", "--db", database, "--proxy-hops", "1"]) == 0
    hosted = capsys.readouterr().out
    db = connect(database)
    try:
        admin = keys.install_key(db, "admin")
    finally:
        db.close()
    assert admin not in hosted and "`scorekeeper admin-link` prints it" in hosted


def test_issue39_3__a_laptops_banner_still_shows_its_links_on_its_screen(
    banner, capsys, monkeypatch
):
    """On a laptop's terminal, what ``serve`` says is read on its screen: the links as before."""
    monkeypatch.setattr("scorekeeper.web.serve.on_a_screen", lambda: True)
    assert cli.main(["serve", "--groups=invite"]) == 0
    assert f"/invite/{Host(banner).invite_key()}" in capsys.readouterr().out
    assert cli.main(["serve", "--db", str(banner / "one.sqlite3")]) == 0
    assert re.search(r"/admin/[0-9a-f]{32}", capsys.readouterr().out)


def test_issue39_3__a_server_whose_words_go_to_the_journal_prints_no_key(banner, capsys):
    """``serve --lan`` under systemd (deploy/systemd) writes to the journal, not a screen:
    the admin link is named by its command there too."""
    database = str(banner / "pi.sqlite3")
    assert cli.main(["serve", "--db", database]) == 0
    said = capsys.readouterr().out
    assert "/admin/" not in said and "`scorekeeper admin-link` prints it" in said
    assert cli.main(["serve", "--groups=invite"]) == 0
    assert "/invite/" not in capsys.readouterr().out


def test_issue39_3__groups_invite_link_prints_and_rotates_the_invitation(banner, capsys):
    assert cli.main(["groups", "invite-link", "--public-url", "https://scores.example.org"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert first == [f"https://scores.example.org/invite/{Host(banner).invite_key()}"]
    assert cli.main(["groups", "invite-link", "--rotate"]) == 0
    rotated = capsys.readouterr().out.splitlines()
    key = Host(banner).invite_key()
    assert rotated == [f"/invite/{key}", "The old invitation link no longer works."]
    assert key not in first[0]
