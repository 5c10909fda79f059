"""Issue 38, items 4, 5 and 7, through the real server (``scorekeeper serve --groups``, waitress,
four server processes on one port): the limits that count requests hold for requests sent at
the same moment to different processes; nothing kept by one group's pages shows in another's;
and a group deleted while its phones read it answers as a missing group, never 500, and its
file is not made again."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import pytest

from scorekeeper.store import groups as store_groups
from scorekeeper.store import keys

from hosted_box import NEW_GAME, LoopbackPhone, hosted_box
from live_server import Server, hidden_fields

PIN, WRONG = "482193", "000000"

pytestmark = pytest.mark.slow  # the real server, four processes


@pytest.fixture
def box(tmp_path):
    """A box of many groups: four server processes on one port."""
    server = Server(
        tmp_path / "unused.sqlite3", tmp_path / "instance", args=("--groups", "--workers", "4")
    ).start()
    server.phones = []
    try:
        yield server
    finally:
        for phone in server.phones:
            phone.close()
        server.stop()


def phone(server: Server, source: str = "127.0.0.1") -> LoopbackPhone:
    """A phone at the loopback address *source* (phones on the internet have their own)."""
    made = LoopbackPhone(server.port, source, f"http://127.0.0.1:{server.port}")
    server.phones.append(made)
    return made


def at_once(count: int, job: Callable[[int], object]) -> list:
    """*job(i)* for each i below *count*, on threads released together; their answers."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = job(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


def opened(device: LoopbackPhone, page: str) -> dict[str, str]:
    """*page* opened on *device*: the hidden fields of its form (the CSRF token)."""
    shown = device.request("form", "GET", page)
    assert shown.status == 200, shown.body[:300]
    return hidden_fields(shown.body)


def send(device: LoopbackPhone, page: str, hidden: dict[str, str], fields: dict[str, str]):
    """The form of *page*, opened before (*hidden*), sent with *fields*."""
    return device.request(
        "post", "POST", page, {**hidden, **fields}, {"Referer": device.root + page}
    )


def register_rows(server: Server, sql: str) -> list:
    conn = sqlite3.connect(server.instance / store_groups.REGISTER_FILE)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def group_rows(server: Server, group: str, sql: str, params: tuple = ()) -> list:
    conn = sqlite3.connect(f"file:{group_path(server, group)}?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def group_path(server: Server, group: str) -> Path:
    return store_groups.Host(server.instance).path_of(group)


def start_group(server: Server, name: str = "Friday table", source: str = "127.0.0.10"):
    """A phone starts a group: (the group's id, its join link's path, the phone)."""
    starter = phone(server, source)
    started = send(starter, "/groups/new", opened(starter, "/"), {"name": name, "lang": "en"})
    assert started.status == 303, started.body[:500]
    group = started.location.split("/g/", 1)[1].split("/")[0]
    page = starter.request("group", "GET", urlsplit(started.location).path).body
    join = re.search(r"/g/[a-z2-9]+/join/[0-9a-f]{32}", page)
    assert join is not None, page[:2000]
    return group, join.group(0), starter


def start_game(device: LoopbackPhone, group: str, **fields: str) -> int:
    page = f"/g/{group}/games/new"
    started = send(device, page, opened(device, page), {**NEW_GAME, **fields})
    assert started.status == 303, started.body[:500]
    return int(started.location.rstrip("/").rsplit("/", 1)[1])


def member(server: Server, join: str, source: str) -> LoopbackPhone:
    joined = phone(server, source)
    assert joined.request("join", "GET", join).status == 303
    return joined


# -- 38.4: limits that count are atomic ---------------------------------------------------------
def test_issue38_4__twenty_simultaneous_group_starts_make_at_most_the_limit(box):
    phones = [phone(box) for _ in range(20)]
    forms = [opened(p, "/") for p in phones]
    answers = at_once(
        20, lambda i: send(phones[i], "/groups/new", forms[i], {"name": f"T{i}", "lang": "en"})
    )
    statuses = sorted(answer.status for answer in answers)
    assert set(statuses) <= {303, 429}, statuses
    assert statuses.count(303) == store_groups.STARTS_PER_HOUR, statuses
    refused = [a.body for a in answers if a.status == 429]
    assert all("started as many groups as it may" in body for body in refused)
    files = list((box.instance / store_groups.GROUPS_FOLDER).glob("*.sqlite3"))
    assert len(files) == store_groups.STARTS_PER_HOUR
    assert len(register_rows(box, "select id from groups")) == len(files)
    assert len(register_rows(box, "select at from group_starts")) == len(files)
    # another address still starts its own
    assert start_group(box, "Elsewhere", source="127.0.0.20")[0]


def test_issue38_4__twenty_simultaneous_group_starts_through_caddy_make_at_most_the_limit(
    tmp_path,
):
    """The same through Caddy in front of ``serve --groups``: the limit counts the phone's own
    address (Caddy's ``X-Forwarded-For``), whichever process answers."""
    with hosted_box(tmp_path, args=("--groups", "--workers", "4")) as hosted:
        phones = [hosted.phone("127.0.0.66") for _ in range(20)]
        forms = [opened(p, "/") for p in phones]
        answers = at_once(
            20,
            lambda i: send(phones[i], "/groups/new", forms[i], {"name": f"T{i}", "lang": "en"}),
        )
        statuses = sorted(answer.status for answer in answers)
        assert statuses.count(303) == store_groups.STARTS_PER_HOUR, statuses
        assert set(statuses) == {303, 429}, statuses
        instance = hosted.server.instance
        starts = sqlite3.connect(instance / store_groups.REGISTER_FILE)
        try:
            clients = starts.execute("select client from group_starts").fetchall()
        finally:
            starts.close()
        assert clients == [("127.0.0.66",)] * store_groups.STARTS_PER_HOUR
        assert len(list((instance / store_groups.GROUPS_FOLDER).glob("*.sqlite3"))) == 5


def test_issue38_4__a_start_that_fails_is_given_back(tmp_path, monkeypatch):
    host = store_groups.Host(tmp_path)
    first = host.create("First", client="10.0.0.1")
    left = host.starts_left("10.0.0.1")

    def broken(db) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store_groups, "up_to_date", broken)
    with pytest.raises(OSError):
        host.create("Second", client="10.0.0.1")
    assert host.starts_left("10.0.0.1") == left == store_groups.STARTS_PER_HOUR - 1
    assert [g.name for g in host.groups()] == ["First"]
    assert sorted(p.name for p in host.folder.iterdir()) == [first.path.name]


def test_issue38_4__simultaneous_wrong_pin_tries_count_every_one(box):
    group, join, starter = start_group(box)
    game = start_game(starter, group, pin=PIN)
    page = f"/g/{group}/games/{game}/unlock"

    def guess(phones: list[LoopbackPhone]) -> list[int]:
        forms = [opened(p, page) for p in phones]
        answers = at_once(len(phones), lambda i: send(phones[i], page, forms[i], {"pin": WRONG}))
        return sorted(answer.status for answer in answers)

    def tries() -> dict[str, int]:
        rows = group_rows(
            box,
            group,
            "select client, count(*) from pin_attempts where game_id = ? group by client",
            (game,),
        )
        return dict(rows)

    # twelve phones of one address at once: its five tries, and no more
    same = [member(box, join, "127.0.0.50") for _ in range(12)]
    statuses = guess(same)
    assert statuses == [400] * keys.PIN_TRIES + [429] * (12 - keys.PIN_TRIES), statuses
    assert tries() == {"127.0.0.50": keys.PIN_TRIES}
    # fifteen phones of fifteen addresses at once: every wrong try counted
    count = keys.PIN_TRIES_PER_GAME - keys.PIN_TRIES
    others = [member(box, join, f"127.0.0.{100 + n}") for n in range(count)]
    assert guess(others) == [400] * count
    assert tries() == {"127.0.0.50": keys.PIN_TRIES, **{p.source: 1 for p in others}}
    # the game's twenty reached: a phone that failed waits, even for its second try
    assert guess(others[:1]) == [429]
    # and the table's own phone, which never failed, still gets in with the PIN
    table = member(box, join, "127.0.0.77")
    assert send(table, page, opened(table, page), {"pin": PIN}).status == 303


# -- 38.5: nothing kept crosses groups ----------------------------------------------------------
def one_worker(tmp_path: Path) -> Server:
    """A box of many groups with one server process: whatever it keeps, every request sees."""
    server = Server(
        tmp_path / "unused.sqlite3", tmp_path / "one", args=("--groups", "--workers", "1")
    ).start()
    server.phones = []
    return server


def import_game(server: Server, group: str, game: dict) -> int:
    """The same game imported into *group*'s file, beside the running server."""
    from scorekeeper.store.db import connect
    from scorekeeper.store.transfer import import_text

    db = connect(group_path(server, group))
    try:
        import_text(db, json.dumps(game))
        return max(row["id"] for row in db.query("select id from games"))
    finally:
        db.close()


def test_issue38_5__two_groups_with_identical_games_keep_their_own_fragments(tmp_path):
    from gamebuilder import standard_game

    server = one_worker(tmp_path)
    try:
        game = standard_game()
        game["deals"] = game["deals"][:7]  # under way: the sheet links to its deals
        first, _, starter = start_group(server, "First table")
        # the same phone starts the second: it belongs to both
        started = send(
            starter, "/groups/new", opened(starter, "/"), {"name": "Second", "lang": "en"}
        )
        second = urlsplit(started.location).path.split("/")[2]
        ids = {group: import_game(server, group, game) for group in (first, second)}
        assert ids[first] == ids[second]  # the same id, the same document: only the file differs
        number = ids[first]
        pages = (
            f"/games/{number}",
            f"/games/{number}/watch",
            f"/games/{number}/state.json",
            f"/charts/games/{number}/running.svg",
            "/players/",
            "/",
        )
        for _ in range(2):  # and again, now that each is kept
            for page in pages:
                shown = {}
                for group, other in ((first, second), (second, first)):
                    reply = starter.request("page", "GET", f"/g/{group}{page}")
                    assert reply.status == 200, (page, reply.status, reply.body[:300])
                    assert f"/g/{other}/" not in reply.body, page
                    shown[group] = reply.body
                mine = shown[first].count(f"/g/{first}/")
                assert shown[second].count(f"/g/{second}/") == mine, page
        sheet = starter.request("page", "GET", f"/g/{second}/games/{number}").body
        assert f"/g/{second}/games/{number}/deals/" in sheet
    finally:
        for device in server.phones:
            device.close()
        server.stop()


# -- 38.7: a group deleted mid-request ----------------------------------------------------------
def test_issue38_7__a_group_deleted_while_requests_run_answers_404_never_500_and_stays_gone(box):
    from gamebuilder import standard_game

    host = store_groups.Host(box.instance)
    nowhere = phone(box, "127.0.0.90").request("page", "GET", "/g/zzzzzzzzzz/")
    assert nowhere.status == 404
    outsider = re.search(r"There is nothing here for this phone[^<]*", nowhere.body).group(0)
    game = standard_game()
    game["deals"] = game["deals"][:9]
    for round_ in range(4):
        group = host.create(f"Round {round_}").id
        number = import_game(box, group, game)
        from scorekeeper.store.db import connect

        db = connect(group_path(box, group))
        try:
            join = f"/g/{group}/join/{keys.install_key(db, 'join')}"
        finally:
            db.close()
        readers = [member(box, join, f"127.0.1.{10 * round_ + n}") for n in range(8)]
        writer = member(box, join, f"127.0.2.{round_}")
        pages = [
            f"/g/{group}/",
            f"/g/{group}/games/{number}",
            f"/g/{group}/games/{number}/state.json",
            f"/g/{group}/games/{number}/watch",
            f"/g/{group}/players/",
            f"/g/{group}/history/",
        ]
        answers: list[tuple[str, int, str]] = []
        stop = threading.Event()

        def read(device: LoopbackPhone, start: int) -> None:
            index = start
            while not stop.is_set():
                page = pages[index % len(pages)]
                reply = device.request("page", "GET", page)
                answers.append((page, reply.status, reply.body))
                index += 1

        def write() -> None:
            page = f"/g/{group}/games/new"
            while not stop.is_set():
                shown = writer.request("form", "GET", page)
                answers.append((page, shown.status, shown.body))
                if shown.status != 200:
                    continue
                sent = send(writer, page, hidden_fields(shown.body), dict(NEW_GAME))
                answers.append((page + " (sent)", sent.status, sent.body))

        threads = [threading.Thread(target=read, args=(d, i)) for i, d in enumerate(readers)]
        threads.append(threading.Thread(target=write))
        for thread in threads:
            thread.start()
        time.sleep(0.4 + 0.2 * round_)
        assert host.delete(group)
        time.sleep(0.8)
        stop.set()
        for thread in threads:
            thread.join(60)
        statuses = {status for _, status, _ in answers}
        wrong = [(page, status, body[:300]) for page, status, body in answers if status >= 500]
        assert not wrong, wrong[:3]
        assert statuses <= {200, 303, 404}, statuses
        gone = [body for _, status, body in answers if status == 404]
        others = [
            (page, re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))[-300:])
            for page, status, body in answers
            if status == 404 and outsider not in body
        ]
        assert gone and not others, others[:1]
        # the group stays gone: its file, and nothing beside it, is made again
        for page in pages:
            assert readers[0].request("page", "GET", page).status == 404
        left = sorted(p.name for p in group_path(box, group).parent.glob(f"*{group}*"))
        assert left == []
    assert "Traceback" not in box.output()


def test_issue38_7__opening_a_groups_database_never_makes_its_file(tmp_path):
    from scorekeeper.store.db import connect, forget_connection, thread_connection

    missing = tmp_path / "groups" / "abcdefghjk.sqlite3"
    for opening in (
        lambda: connect(missing, create=False),
        lambda: thread_connection(str(missing), create=False),
    ):
        with pytest.raises(sqlite3.OperationalError):
            opening()
        assert not missing.parent.exists()
    forget_connection(str(missing))  # nothing kept: nothing to close
