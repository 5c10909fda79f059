"""Issue 40, item 3, in the app: a group being restored (``store.restoring``: a mark beside its
file, held by the restorer) answers every address under ``/g/<id>/`` with a "being restored"
page, 503 with ``Retry-After``, without opening its file; the other groups go on. A mark whose
restorer has ended is ignored. (Through the real server: ``test_issue40_restoring_live.py``.)"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.store import restoring
from scorekeeper.store.backup import backup_database

from group_helpers import InGroup, group_file, groups_app, start_group
from upgrade_helpers import dump
from web_helpers import Table, soup

BEING_RESTORED = "being restored from a backup"
#: A value for each kind of argument a group's address takes.
SAMPLES = {"key": "0" * 32, "night": "2026-11-20", "contracts": "trex"}


@pytest.fixture
def app(tmp_path):
    return groups_app(tmp_path)


def every_address(app, group: str) -> list[tuple[str, str]]:
    """(method, path) of every page of a group, its arguments filled in."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/g/<group>"):
            continue
        path = re.sub(
            r"<(?:(\w+):)?(\w+)>",
            lambda m: group if m[2] == "group" else ("1" if m[1] == "int" else SAMPLES[m[2]]),
            rule.rule,
        )
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((method, path))
    return found


def test_issue40_3__every_address_of_a_group_being_restored_answers_503_and_the_others_go_on(
    app, monkeypatch
):
    a, _, phone_a = start_group(app, "Aya's table")
    b, _, phone_b = start_group(app, "Café Layali", address="127.0.0.2")
    game_a = Table(InGroup(phone_a, a)).new_game()
    Table(InGroup(phone_b, b)).new_game()
    opened = []
    from scorekeeper.web import groupsite

    real_open = groupsite._open_group
    monkeypatch.setattr(groupsite, "_open_group", lambda gid: (opened.append(gid), real_open(gid)))
    stranger = app.test_client()
    addresses = every_address(app, b) + [("GET", f"/g/{b}/no-such-page"), ("PUT", f"/g/{b}/")]
    assert len(addresses) > 90
    with restoring.marked(group_file(app, b)):
        for phone in (phone_b, stranger):
            for method, path in addresses:
                response = phone.open(path, method=method, data={} if method == "POST" else None)
                assert response.status_code == 503, (method, path, response.status_code)
                assert response.headers["Retry-After"] == str(restoring.RETRY_SECONDS), path
                assert response.headers["Cache-Control"] == "no-store"
                text = soup(response).get_text(" ", strip=True)
                assert BEING_RESTORED in text and "Being restored" in text, (path, text[:300])
                assert "Café Layali" not in text  # nothing of the group is shown
        assert b not in opened  # its file was never opened
        # the link asks again for the same page; after a form, the group's first page
        page = soup(phone_b.get(f"/g/{b}/games/1?x=1"))
        assert page.select_one("a.btn.primary")["href"] == f"/g/{b}/games/1?x=1"
        page = soup(phone_b.post(f"/g/{b}/games/new", data={}))
        assert page.select_one("a.btn.primary")["href"] == f"/g/{b}/"
        # the other group goes on: its pages, and a deal saved
        assert InGroup(phone_a, a).get(f"/games/{game_a}").status_code == 200
        assert InGroup(phone_a, a).get("/players/").status_code == 200
    # the restore over: B is back
    assert InGroup(phone_b, b).get("/games/1").status_code == 200
    assert not os.path.exists(restoring.mark_path(group_file(app, b)))


def test_issue40_3__the_being_restored_page_speaks_arabic(app):
    b, _, phone = start_group(app, "Café Layali")
    phone.set_cookie("lang", "ar")
    with restoring.marked(group_file(app, b)):
        response = phone.get(f"/g/{b}/")
    text = soup(response).get_text(" ", strip=True)
    assert response.status_code == 503
    assert "تُستعاد" in text and BEING_RESTORED not in text


def test_issue40_3__a_mark_left_by_a_restorer_that_was_killed_locks_nobody_out(app, tmp_path):
    b, _, phone = start_group(app)
    path = group_file(app, b)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from scorekeeper.store import restoring\n"
            "with restoring.marked(sys.argv[1]):\n"
            "    print('marked', flush=True)\n"
            "    time.sleep(60)\n",
            path,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "marked"
        assert phone.get(f"/g/{b}/").status_code == 503
        with pytest.raises(restoring.BackupError, match="Another restore"):
            with restoring.marked(path):
                pass
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    mark = restoring.mark_path(path)
    assert mark.exists()  # left behind by the killed restorer...
    assert not restoring.being_restored(path)  # ...and ignored
    assert phone.get(f"/g/{b}/").status_code == 200
    with restoring.marked(path):  # the next restore takes its place
        assert restoring.being_restored(path)
        assert phone.get(f"/g/{b}/").status_code == 503
    assert not mark.exists()


def test_issue40_3__a_refused_restore_leaves_the_group_as_it_was_and_unmarked(app, tmp_path):
    b, _, phone = start_group(app)
    game = Table(InGroup(phone, b)).new_game()
    path = group_file(app, b)
    before = dump(path)
    marks = []
    text = tmp_path / "notes.txt"
    text.write_text("not a backup")
    with pytest.raises(restoring.BackupError, match="not SQLite"):  # refused before any mark
        restoring.restore_group(text, path, settle=0, on_marked=lambda: marks.append(1))
    assert marks == []
    foreign = tmp_path / "foreign.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("create table notes (text)")
    conn.commit()
    conn.close()
    seen = []
    with pytest.raises(restoring.BackupError, match="not a scorekeeper database"):
        restoring.restore_group(
            foreign,
            path,
            settle=0,
            on_marked=lambda: seen.append(phone.get(f"/g/{b}/games/{game}").status_code),
        )
    assert seen == [503]  # marked while it ran...
    assert not restoring.mark_path(path).exists()  # ...and no more
    assert dump(path) == before
    assert phone.get(f"/g/{b}/games/{game}").status_code == 200


def test_issue40_3__deleting_a_group_removes_what_its_restores_left_beside_its_file(app, tmp_path):
    b, _, phone = start_group(app)
    path = group_file(app, b)
    backup = tmp_path / "b.sqlite3"
    backup_database(path, backup)
    restoring.restore_group(backup, path, settle=0)  # leaves the restore's lock file
    restoring.mark_path(path).write_text("999999999\n")  # as a stopped restore leaves its mark
    assert not restoring.being_restored(path)
    left = {p.name for p in Path(path).parent.iterdir() if p.name.startswith(b)}
    assert f"{b}.sqlite3.serving" in left and f"{b}.sqlite3.being-restored" in left
    assert app.extensions["groups"].delete(b)
    left = {p.name for p in Path(path).parent.iterdir() if p.name.startswith(b)}
    assert {name for name in left if ".before-restore-" not in name} == set()


def test_issue40_3__without_advisory_locks_a_mark_holds_while_its_restorer_lives(
    app, monkeypatch, tmp_path
):
    monkeypatch.setattr(restoring, "fcntl", None)  # as on Windows
    path = tmp_path / "g.sqlite3"
    path.touch()
    with restoring.marked(path):
        assert restoring.mark_path(path).read_text().split() == [str(os.getpid())]
        assert restoring.being_restored(path)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    restoring.mark_path(path).write_text(dead.stdout)  # a restorer that has ended
    assert not restoring.being_restored(path)
    restoring.mark_path(path).write_text("not a number")
    assert not restoring.being_restored(path)
