"""Issue 37, item 5: a wall a TV can open without the group. Each club night and tournament has
a secret wall link (``/w/<key>``, ``web/pages/walls.py``) that its organiser sees with its QR
code: a phone or TV that is no member opens the wall with it and follows it (its
``state.json``), and reaches nothing else of the group; a new link from the organiser ends the
old one; neither the app's log nor the shipped Caddyfile's writes the key.

Everything runs through the real server: waitress on a laptop server and on a box of many
groups (``serve --groups``), and the hosted box of one group behind a real Caddy
(``tests/hosted_box.py``)."""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from gamebuilder import standard_game
from hosted_box import LoopbackPhone, hosted_box, shipped_caddy
from live_server import Phone, Server, hidden_fields, serve_in_thread, stop_in_thread
from scorekeeper.engine import HouseRules
from scorekeeper.store import clubnights, keys, storage, tournaments
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate
from scorekeeper.web import create_app

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]
#: A tournament's entrants play one match at a time: each tournament gets its own eight.
CUPS = itertools.count(1)
OUTSIDER = "nothing here for this phone"


@dataclass
class WallBox:
    """A server of one kind, its group's pages under ``root`` ("" or ``/g/<id>``), the
    organiser's phone (a member that starts the nights), and a way to a phone of no one."""

    kind: str
    root: str
    database: Callable[[], str]
    organiser: LoopbackPhone
    stranger: Callable[[str], LoopbackPhone]


def send(phone: LoopbackPhone, page: str, action: str, fields: dict[str, str]):
    """Open *page* and send *fields* with its form's token to *action*, as a browser does."""
    shown = phone.request("form", "GET", page)
    assert shown.status == 200, (page, shown.status)
    return phone.request(
        "post",
        "POST",
        action,
        {**hidden_fields(shown.body), **fields},
        {"Referer": phone.root + page},
    )


def _waitress(app) -> tuple[object, threading.Thread, int]:
    server, thread = serve_in_thread(app)
    return server, thread, server.effective_port


@pytest.fixture(scope="module", params=["laptop", "groups", "hosted"])
def box(request, tmp_path_factory) -> Iterator[WallBox]:
    tmp = tmp_path_factory.mktemp(f"walls-{request.param}")
    if request.param == "hosted":
        with hosted_box(tmp) as hosted:
            yield WallBox(
                "hosted",
                "",
                lambda: hosted.database,
                hosted.member("127.0.0.66"),
                hosted.phone,
            )
        return
    if request.param == "laptop":
        app = create_app(
            {"DATABASE": str(tmp / "laptop.sqlite3"), "INSTANCE_PATH": str(tmp / "instance")}
        )
    else:
        app = create_app({"GROUPS": "open", "INSTANCE_PATH": str(tmp / "instance")})
    server, thread, port = _waitress(app)
    origin = f"http://127.0.0.1:{port}"
    phones: list[LoopbackPhone] = []

    def phone(source: str) -> LoopbackPhone:
        phones.append(LoopbackPhone(port, source, origin))
        return phones[-1]

    organiser = phone("127.0.0.66")
    root = ""
    if request.param == "groups":
        started = send(organiser, "/", "/groups/new", {"name": "Café Layali", "lang": "en"})
        assert started.status == 303, started.body[:500]
        root = "/g/" + started.location.split("/g/")[1].split("/")[0]
        database = str(app.extensions["groups"].path_of(root[3:]))
    else:
        database = app.config["DATABASE"]
    try:
        yield WallBox(request.param, root, lambda: database, organiser, phone)
    finally:
        for p in phones:
            p.close()
        time.sleep(0.3)  # waitress done with the connections closed before it stops
        stop_in_thread(server, thread)


def start_club(box: WallBox) -> str:
    """The organiser starts a club night of eight: the path of its page."""
    page = f"{box.root}/clubs/new"
    fields = {
        "title": "Café night",
        "played_on": "2026-11-20",
        "rounds": "3",
        "first_round": "entered",
        "preset": "standard",
        "players": "\n".join(EIGHT),
    }
    made = send(box.organiser, page, page, fields)
    assert made.status == 303, made.body[:2000]
    return urlsplit(made.location).path


def start_tournament(box: WallBox) -> str:
    page = f"{box.root}/tournaments/new"
    fields = {
        "title": "Winter cup",
        "played_on": "2026-11-26",
        "entrants": "\n".join(f"{name} {next(CUPS)}" for name in EIGHT),
        "format": "top-two",
        "seeding": "entered",
        "preset": "standard",
    }
    made = send(box.organiser, page, page, fields)
    assert made.status == 303, made.body[:2000]
    return urlsplit(made.location).path


def wall_link(box: WallBox, page: str) -> str:
    """The wall link the organiser's page shows (its path), and its QR code there."""
    shown = box.organiser.request("page", "GET", page)
    assert shown.status == 200
    found = re.search(r'id="wall-url">([^<]+)</code>', shown.body)
    assert found is not None, "the organiser's page shows no wall link"
    path = urlsplit(found.group(1)).path
    assert re.fullmatch(rf"{box.root}/w/[0-9a-f]{{32}}", path)
    assert f'src="{path}/qr.svg"' in shown.body
    return path


def data_attr(body: str, name: str) -> str:
    found = re.search(rf'id="live"[^>]*\b{name}="([^"]*)"', body)
    assert found is not None, body[:2000]
    return found.group(1)


def add_deal(database: str, game_id: int) -> None:
    """A deal saved at the table (by its own phone): the store writes it as the form would."""
    db = connect(database)
    try:
        deal = standard_game()["deals"][0]
        storage.add_deal(db, game_id, deal, token=f"w{game_id:03d}" + "z" * 28, number=1)
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["club", "tournament"])
def test_issue37_5__a_stranger_opens_the_wall_link_sees_the_wall_and_it_refreshes(box, kind):
    page = start_club(box) if kind == "club" else start_tournament(box)
    link = wall_link(box, page)
    tv = box.stranger("127.0.0.99")

    wall = tv.request("wall", "GET", link)
    assert wall.status == 200, wall.body[:1000]
    assert ("Café night" if kind == "club" else "Winter cup") in wall.body
    assert all(name in wall.body for name in EIGHT)
    assert wall.headers["Cache-Control"] == "no-store"
    poll = data_attr(wall.body, "data-poll")
    assert poll == f"{link}/state.json"  # the wall polls at its own link, not the night's

    state = tv.request("state", "GET", poll)
    assert state.status == 200
    before = json.loads(state.body)
    assert before["version"] == data_attr(wall.body, "data-version")
    same = tv.request("state", "GET", poll, headers={"If-None-Match": f'"{before["version"]}"'})
    assert same.status == 304

    table = before["tables"][0]["game"] if kind == "club" else before["matches"][0]["game"]
    add_deal(box.database(), table)
    moved = tv.request("state", "GET", poll, headers={"If-None-Match": f'"{before["version"]}"'})
    assert moved.status == 200
    after = json.loads(moved.body)
    assert after["version"] != before["version"]
    again = tv.request("wall", "GET", link)  # what the wall's script fetches on a new version
    assert data_attr(again.body, "data-version") == after["version"]
    shown = "Deal 2 of 20" if kind == "club" else "1 deal"
    assert shown not in wall.body and shown in again.body

    qr = tv.request("qr", "GET", f"{link}/qr.svg")
    assert qr.status == 200 and qr.headers["Content-Type"].startswith("image/svg+xml")


@pytest.mark.parametrize("kind", ["club", "tournament"])
def test_issue37_5__the_wall_link_opens_nothing_else_of_the_group(box, kind):
    """The phone that opened the wall link gets the stranger's 404 on the night's own page, its
    wall and state there, its games, and the group: it holds no right and no membership."""
    page = start_club(box) if kind == "club" else start_tournament(box)
    link = wall_link(box, page)
    tv = box.stranger("127.0.0.98")
    assert tv.request("wall", "GET", link).status == 200
    state = json.loads(tv.request("state", "GET", f"{link}/state.json").body)
    games = [t["game"] for t in state.get("tables", state.get("matches", []))]
    entry = f"{box.root}/games/{games[0]}/deals/new?contracts=queens"
    others = [
        page,
        f"{page}/wall",
        f"{page}/state.json",
        *(f"{box.root}/games/{game}" for game in games),
        f"{box.root}/games/{games[0]}/watch",
        entry,
        f"{box.root}/",
        f"{box.root}/history/",
        f"{box.root}/players/",
    ]
    if box.kind != "laptop":
        others.append(f"{box.root}/group")
    if box.kind == "laptop":  # every phone on the Wi-Fi reads a laptop's pages, but the wall
        assert tv.request("entry", "GET", entry).status == 403  # link gives it no right
        others = []
    for url in others:
        answer = tv.request("other", "GET", url)
        assert answer.status == 404 and OUTSIDER in answer.body, (url, answer.status)
        assert "Café night" not in answer.body and "Winter cup" not in answer.body
    # nor may it make a new wall link, or seat a round
    rotate = f"{page}/wall-key"
    refused = tv.request("post", "POST", rotate, {}, {"Referer": tv.root + link})
    assert refused.status in (400, 403, 404)
    assert tv.request("wall", "GET", link).status == 200  # the wall link still works


@pytest.mark.parametrize("kind", ["club", "tournament"])
def test_issue37_5__a_new_wall_link_ends_the_old_one(box, kind):
    page = start_club(box) if kind == "club" else start_tournament(box)
    old = wall_link(box, page)
    tv = box.stranger("127.0.0.97")
    assert tv.request("wall", "GET", old).status == 200
    nowhere = tv.request("nowhere", "GET", f"{box.root}/w/{'0' * 32}")
    assert nowhere.status == 404

    made = send(box.organiser, page, f"{page}/wall-key", {})
    assert made.status == 303 and urlsplit(made.location).path == page
    new = wall_link(box, page)
    assert new != old
    for url in (old, f"{old}/state.json", f"{old}/qr.svg"):
        answer = tv.request("old", "GET", url)
        assert answer.status == 404, url
        if box.kind != "laptop":  # the same answer as an address that leads nowhere
            assert answer.body == nowhere.body
    assert tv.request("wall", "GET", new).status == 200
    assert tv.request("state", "GET", f"{new}/state.json").status == 200


def test_issue37_5__only_the_organiser_makes_a_new_wall_link(box):
    """A member that does not run the night sees no wall link, and may not make a new one."""
    page = start_club(box)
    link = wall_link(box, page)
    member = box.stranger("127.0.0.96")
    if box.kind != "laptop":
        db = connect(box.database())
        try:
            join = keys.install_key(db, "join")
        finally:
            db.close()
        assert member.request("join", "GET", f"{box.root}/join/{join}").status == 303
    shown = member.request("page", "GET", page)
    assert shown.status == 200 and 'id="wall-url"' not in shown.body
    token = hidden_fields(member.request("form", "GET", f"{box.root}/clubs/new").body)
    refused = member.request(
        "post", "POST", f"{page}/wall-key", token, {"Referer": member.root + page}
    )
    assert refused.status == 403
    assert member.request("wall", "GET", link).status == 200  # the link is as it was


# -- the logs ---------------------------------------------------------------------------------
def test_issue37_5__the_wall_links_key_is_in_neither_log(tmp_path):
    """Behind the shipped Caddyfile (on plain HTTP, free ports): Caddy's line has ``/w/``
    without the key; the app's line has the route's pattern."""
    database = tmp_path / "box.sqlite3"
    db = connect(str(database))
    try:
        migrate(db)
        club = clubnights.create(
            db,
            title="Café night",
            night="2026-11-20",
            names=EIGHT,
            rounds=2,
            rules=HouseRules(),
            seed=1,
        )
        key = keys.wall_key(db, "club", club)
    finally:
        db.close()
    server = Server(database, tmp_path / "instance", options=("--proxy-hops", "1"))
    server.start()
    try:
        with shipped_caddy(tmp_path, server.port) as (caddy_port, caddy_log):
            tv = Phone(caddy_port)
            wall = tv.request("wall", "GET", f"/w/{key}")
            assert wall.status == 200 and "Café night" in wall.body
            assert tv.request("state", "GET", f"/w/{key}/state.json?x=1").status == 200
            tv.close()
            time.sleep(0.5)
    finally:
        server.stop()
    proxied = [
        json.loads(line)
        for line in caddy_log.read_text().splitlines()
        if line.startswith("{") and '"request"' in line
    ]
    assert [line["request"]["uri"] for line in proxied] == ["/w/", "/w//state.json"]
    assert key not in caddy_log.read_text()
    served = server.output()
    assert key not in served
    assert re.search(r"GET /w/<key> 200 ", served) and re.search(
        r"GET /w/<key>/state\.json 200 ", served
    )


# -- the keys, as stored ----------------------------------------------------------------------
def _night_and_cup(db) -> tuple[int, int]:
    club = clubnights.create(
        db,
        title="Café night",
        night="2026-11-20",
        names=EIGHT,
        rounds=2,
        rules=HouseRules(),
        seed=None,
    )
    cup = tournaments.create(
        db,
        title="Cup",
        played_on="2026-11-20",
        entrants=[(f"{name} {next(CUPS)}",) for name in EIGHT],
        fmt="top-two",
        seeding="entered",
        rules=HouseRules(),
    )
    return club, cup


def test_issue37_5__each_night_and_tournament_has_a_wall_key_of_its_own(tmp_path):
    db = connect(str(tmp_path / "keys.sqlite3"))
    try:
        migrate(db)
        club, cup = _night_and_cup(db)
        other, _ = _night_and_cup(db)
        found = {
            ("club", club): keys.wall_key(db, "club", club),
            ("club", other): keys.wall_key(db, "club", other),
            ("tournament", cup): keys.wall_key(db, "tournament", cup),
        }
        assert all(keys.KEY.fullmatch(key) for key in found.values())
        assert len(set(found.values())) == 3
        assert keys.wall_key(db, "club", club) != clubnights.club_key(
            db, club
        )  # not the organiser's
        for (kind, ident), key in found.items():
            assert keys.wall_of(db, key) == (kind, ident)
        assert keys.wall_key(db, "club", 999) is None
        assert keys.rotate_wall_key(db, "tournament", 999) is None
        for made_up in ("", "0" * 32, found[("club", club)].upper(), "x" * 32, "' or 1=1 --"):
            assert keys.wall_of(db, made_up) is None, made_up
        new = keys.rotate_wall_key(db, "club", club)
        assert new != found[("club", club)] and keys.wall_of(db, new) == ("club", club)
        assert keys.wall_of(db, found[("club", club)]) is None
        assert keys.wall_key(db, "club", other) == found[("club", other)]  # the others stay
    finally:
        db.close()


def test_issue37_5__the_migration_gives_the_nights_stored_before_it_their_keys(tmp_path):
    from scorekeeper.store.schema import migrations

    db = connect(str(tmp_path / "older.sqlite3"))
    try:
        migrations.apply(db, stop_before="m010_wall_keys")
        club, cup = _night_and_cup(db)
        assert "wall_key" not in db.table("club_nights").columns_dict
        migrate(db)
        night, tournament = keys.wall_key(db, "club", club), keys.wall_key(db, "tournament", cup)
        assert keys.KEY.fullmatch(night) and keys.KEY.fullmatch(tournament)
        assert keys.wall_of(db, night) == ("club", club)
    finally:
        db.close()


def test_issue37_5__a_restore_refuses_a_wall_key_that_is_not_one(tmp_path):
    from scorekeeper.store import restorechecks

    db = connect(str(tmp_path / "restored.sqlite3"))
    try:
        migrate(db)
        club, cup = _night_and_cup(db)
        restorechecks.check_club_nights(db)
        restorechecks.check_tournaments(db)
        for table, check in (
            ("club_nights", restorechecks.check_club_nights),
            ("tournaments", restorechecks.check_tournaments),
        ):
            kept = next(db.query(f"select wall_key from {table}"))["wall_key"]
            db.execute(f"update {table} set wall_key = 'not a key'")
            with pytest.raises(restorechecks.Unsound, match="wall key"):
                check(db)
            db.execute(f"update {table} set wall_key = ?", [kept])
    finally:
        db.close()
