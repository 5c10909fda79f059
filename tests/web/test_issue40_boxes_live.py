"""Issue 40, items 1 and 2, through two real servers (``serve --groups``, waitress, CSRF on) on
two instance folders, one secret key file, behind ONE real Caddy that routes each group to its
box: a phone with one cookie jar joins a group on each box and stays a member of both; a group
is packed on box 1 while it serves, adopted on box 2 while it serves, routed there, and the same
phone carries on in it, its old result link and join and admin links open, its games, ratings
and season there; ``groups delete`` on box 1 then leaves nothing of it there."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.store import seasons
from scorekeeper.store.db import connect

from gamebuilder import standard_game
from hosted_box import HOST, NEW_GAME, Caddy, InternetPhone
from live_server import Server, free_port

pytestmark = pytest.mark.slow  # two real servers and a real Caddy

ROOT = Path(__file__).resolve().parents[2]


def command(instance: Path, *args: str) -> list[str]:
    """``scorekeeper ARGS --instance INSTANCE`` in its own process; its lines."""
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", *args, "--instance", str(instance)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture
def site(tmp_path):
    """Box 1 and box 2 (one key file), and Caddy in front, routing nothing yet."""
    key = tmp_path / "site.key"
    secret = os.urandom(32).hex()
    key.write_text(secret + "\n")
    key.chmod(0o600)
    port = free_port()
    options = ("--proxy-hops", "1", "--public-url", f"https://{HOST}:{port}")
    args = ("--groups", "--workers", "1", "--secret-key-file", str(key))
    boxes = [
        Server(tmp_path / f"{name}.sqlite3", tmp_path / name, options=options, args=args)
        for name in ("one", "two")
    ]
    caddy = Caddy(tmp_path / "caddy", port, boxes[0].port)
    phones: list[InternetPhone] = []
    try:
        for box in boxes:
            box.start()
        caddy.start()
        yield boxes, caddy, phones, secret
        for box in boxes:
            assert secret not in box.output()  # never printed nor logged
    finally:
        for phone in phones:
            phone.close()
        caddy.stop()
        for box in boxes:
            box.stop()


def cookie(phone: InternetPhone, secret: str) -> dict:
    """What the phone's one session cookie holds, read with the site's key."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    app = Flask("reader")
    app.secret_key = secret
    return (
        SecureCookieSessionInterface().get_signing_serializer(app).loads(phone.cookies["session"])
    )


def route(caddy: Caddy, routes: dict[str, int]) -> None:
    """Caddy again, with these routes (its admin endpoint is off: stopped and started)."""
    caddy.stop()
    caddy.routes = routes
    caddy.start()


def test_issue40_1_2__one_key_one_caddy_two_boxes_a_phone_stays_a_member_and_a_group_moves(
    site, tmp_path
):
    (one, two), caddy, phones, secret = site

    def phone(source: str) -> InternetPhone:
        phones.append(InternetPhone(caddy, source))
        return phones[-1]

    a, join_a = command(one.instance, "groups", "create", "On box one")
    b, join_b = command(two.instance, "groups", "create", "On box two")
    [admin_a] = command(one.instance, "groups", "admin-link", a)
    route(caddy, {a: one.port, b: two.port})

    # one phone, one cookie jar, a member on each box
    mine = phone("127.0.4.1")
    assert mine.request("join", "GET", join_a).status == 303
    assert mine.request("join", "GET", join_b).status == 303
    for group in (a, b, a, b):
        assert mine.request("home", "GET", f"/g/{group}/").status == 200, group
    key = cookie(mine, secret)["k"]
    assert cookie(mine, secret)["groups"] == [a, b]  # box 2 kept box 1's group in the list
    made = mine.post_form(f"/g/{a}/games/new", NEW_GAME)
    assert made.status == 303, made.body[:1000]
    game = int(made.location.rstrip("/").rsplit("/", 1)[1])
    share = mine.request("result", "GET", f"/g/{a}/games/{game}/result").body
    result = re.search(rf"/g/{a}/r/games/{game}/[0-9a-f]{{32}}", share).group(0)
    assert mine.request("home", "GET", f"/g/{b}/").status == 200  # box 2 kept box 1's
    stranger = phone("127.0.4.2")
    assert stranger.request("result", "GET", result).status == 200
    assert stranger.request("home", "GET", f"/g/{a}/").status == 404

    # what the group holds besides: finished games (ratings) and a season
    for king in range(2):
        played = tmp_path / f"game{king}.json"
        played.write_text(json.dumps(standard_game(first_king=king)), encoding="utf-8")
        command(one.instance, "import", str(played), "--group", a)
    db = connect(one.instance / "groups" / f"{a}.sqlite3")
    try:
        seasons.create(db, "Autumn", "2026-09-01", "2026-11-30")
    finally:
        db.close()
    ratings = command(one.instance, "ratings", "--json", "--group", a)

    # the move: packed while box 1 serves, adopted while box 2 serves, routed to box 2
    packed = tmp_path / "a.pack"
    command(one.instance, "groups", "pack", a, "--out", str(packed))
    assert mine.request("home", "GET", f"/g/{a}/").status == 200  # box 1 served on
    lines = command(two.instance, "groups", "adopt", str(packed))
    assert lines[0] == f"Adopted the group {a} (On box one, 3 games)."
    route(caddy, {a: two.port, b: two.port})
    command(one.instance, "groups", "delete", a, "--yes")  # box 1 answers nothing of it now

    for page in ("/", f"/games/{game}", "/history/", "/players/", "/seasons/1"):
        assert mine.request("page", "GET", f"/g/{a}{page}").status == 200, page
    assert "Autumn" in mine.request("page", "GET", f"/g/{a}/seasons/1").body
    assert mine.request("home", "GET", f"/g/{b}/").status == 200
    assert cookie(mine, secret)["k"] == key and set(cookie(mine, secret)["groups"]) == {a, b}
    assert stranger.request("result", "GET", result).status == 200  # the old result link
    assert stranger.request("home", "GET", f"/g/{a}/").status == 404
    newcomer = phone("127.0.4.3")
    assert newcomer.request("join", "GET", join_a).status == 303  # the old join link
    assert newcomer.request("home", "GET", f"/g/{a}/").status == 200
    admin = phone("127.0.4.4")
    assert admin.request("admin", "GET", admin_a.split(HOST, 1)[-1]).status == 303
    assert admin.request("group", "GET", f"/g/{a}/group").status == 200  # the admin's page
    assert command(two.instance, "ratings", "--json", "--group", a) == ratings
    assert mine.post_form(f"/g/{a}/games/new", NEW_GAME).status == 303  # it keeps its records there

    # nothing of it is left on box 1: file, log, shared memory, locks, kept files, its line
    left = [p.name for p in one.instance.rglob("*") if a in p.name]
    assert left == []
    assert [
        g["id"] for g in json.loads("\n".join(command(one.instance, "groups", "list", "--json")))
    ] == []
