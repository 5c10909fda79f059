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
import json
import time
from pathlib import Path
from urllib.parse import quote

from hosted_box import shipped_caddy
from live_server import Phone, Server
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
    return [json.loads(line) for line in text.splitlines() if line.strip()]


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
    assert len(access) == len(up) + len(down) + 2
    uris = {line["request"]["uri"] for line in access}
    assert f"/g/{group}/e/" in uris and "/invite/" in uris and f"/g/{group}/r/games/{game}/" in uris
    assert all("headers" not in line["request"] for line in access)
    locations = {
        location
        for line in access
        for location in line.get("resp_headers", {}).get("Location", [])
    }
    assert f"/g/{group}/e/" in locations and f"/g/{group}/w/" in locations
    errors = [line for line in json_lines(logs["Caddy's error log"]) if "request" in line]
    assert len(errors) == len(down) and {line["status"] for line in errors} == {502}
    assert f"/g/{group}/admin/" in {line["request"]["uri"] for line in errors}
    assert all("headers" not in line["request"] for line in errors)
