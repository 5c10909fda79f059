"""``scorekeeper groups`` and ``--group ID``: an operator, a script or a test drives a box of
many groups without a browser (the groups issue's command line)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from scorekeeper import cli

from gamebuilder import standard_game


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DB", raising=False)
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)
    return folder


def run(capsys, *args: str) -> tuple[int, list[str], str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def create(capsys, name: str, *more: str) -> tuple[str, str]:
    code, lines, err = run(capsys, "groups", "create", name, *more)
    assert code == 0, err
    return lines[0], lines[1]


def test_groups_create_prints_the_id_then_the_join_link(instance, capsys):
    group, link = create(capsys, "Friday table", "--lang", "ar")
    assert re.fullmatch(r"[a-z2-9]{10}", group)
    assert re.fullmatch(rf"/g/{group}/join/[0-9a-f]{{32}}", link)
    assert (instance / "groups" / f"{group}.sqlite3").is_file()
    _, absolute = create(capsys, "Café", "--public-url", "https://trex.example.org")
    assert absolute.startswith("https://trex.example.org/g/")


def test_groups_list_in_words_and_as_json(instance, capsys):
    one, _ = create(capsys, "Friday table")
    two, _ = create(capsys, "عائلة", "--lang", "ar")
    code, lines, _ = run(capsys, "groups", "list", "--json")
    rows = json.loads("\n".join(lines))
    assert [(r["id"], r["name"], r["lang"]) for r in rows] == [
        (one, "Friday table", "en"),
        (two, "عائلة", "ar"),
    ]
    code, lines, _ = run(capsys, "groups", "list")
    assert any(one in line and "Friday table" in line for line in lines)


def test_groups_join_link_rotates(instance, capsys):
    group, link = create(capsys, "Friday table")
    code, lines, _ = run(capsys, "groups", "join-link", group)
    assert lines[0] == link
    code, lines, _ = run(capsys, "groups", "join-link", group, "--rotate")
    assert code == 0 and lines[0] != link and "members keep" in lines[1]
    code, lines, _ = run(capsys, "groups", "admin-link", group)
    assert re.fullmatch(rf"/g/{group}/admin/[0-9a-f]{{32}}", lines[0])


def test_groups_delete_needs_yes(instance, capsys):
    group, _ = create(capsys, "Friday table")
    code, _, err = run(capsys, "groups", "delete", group)
    assert code == 2 and "--yes" in err
    assert (instance / "groups" / f"{group}.sqlite3").exists()
    code, _, _ = run(capsys, "groups", "delete", group, "--yes")
    assert code == 0 and not (instance / "groups" / f"{group}.sqlite3").exists()
    code, _, err = run(capsys, "groups", "delete", group, "--yes")
    assert code == 1 and "no group" in err


@pytest.mark.parametrize("name", ["", "\u200b", "x" * 81])
def test_groups_create_refuses_a_bad_name_and_makes_nothing(instance, capsys, name):
    code, _, err = run(capsys, "groups", "create", name)
    assert code == 2 and err.count("\n") == 1
    assert (
        not list((instance / "groups").glob("*.sqlite3"))
        if (instance / "groups").exists()
        else True
    )


def test_every_data_command_takes_the_group(instance, tmp_path, capsys):
    group, _ = create(capsys, "Friday table")
    other, _ = create(capsys, "Other")
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(standard_game()), encoding="utf-8")
    code, lines, err = run(capsys, "import", str(game_file), "--group", group)
    assert code == 0, err
    with sqlite3.connect(instance / "groups" / f"{group}.sqlite3") as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] == 1
    with sqlite3.connect(instance / "groups" / f"{other}.sqlite3") as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] == 0
    out = tmp_path / "out.json"
    assert run(capsys, "export", "--all", "-o", str(out), "--group", group)[0] == 0
    assert len(json.loads(out.read_text())["games"]) == 1
    code, lines, _ = run(capsys, "links", "1", "--group", group)
    assert f"/g/{group}/e/" in "\n".join(lines)
    assert (
        run(capsys, "pdf", "--game", "1", "-o", str(tmp_path / "s.pdf"), "--group", group)[0] == 0
    )
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"
    assert run(capsys, "ratings", "--group", group)[0] == 0
    backup = tmp_path / "b.sqlite3"
    assert run(capsys, "backup", "-o", str(backup), "--group", group)[0] == 0
    assert run(capsys, "restore", str(backup), "--group", other)[0] == 0
    with sqlite3.connect(instance / "groups" / f"{other}.sqlite3") as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] == 1
    code, _, err = run(capsys, "export", "--all", "--group", "zzzzzzzzzz")
    assert code == 2 and "no group zzzzzzzzzz" in err


def test_backup_into_without_a_group_backs_up_every_group(instance, tmp_path, capsys):
    groups = [create(capsys, name)[0] for name in ("One", "Two", "Three")]
    code, lines, err = run(capsys, "backup", "--into", str(tmp_path / "backups"))
    assert code == 0, err
    for group in groups:
        [copy] = (tmp_path / "backups" / group).glob("scorekeeper-*.sqlite3")
        with sqlite3.connect(copy) as conn:
            assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
            name = conn.execute("select value from settings where key = 'group_name'").fetchone()[0]
        assert name in ("One", "Two", "Three")


def test_issue39_6__groups_list_shows_each_groups_size_games_and_last_activity(
    instance, tmp_path, capsys
):
    busy, _ = create(capsys, "Friday table")
    quiet, _ = create(capsys, "Quiet table")
    game_file = tmp_path / "game.json"
    for king in range(2):
        game_file.write_text(json.dumps(standard_game(first_king=king)), encoding="utf-8")
        assert run(capsys, "import", str(game_file), "--group", busy)[0] == 0
    with sqlite3.connect(instance / "groups" / f"{busy}.sqlite3") as conn:
        last = conn.execute("select max(updated_at) from games").fetchone()[0]
    code, lines, _ = run(capsys, "groups", "list", "--json")
    rows = {r["id"]: r for r in json.loads("\n".join(lines))}
    assert rows[busy]["games"] == 2 and rows[quiet]["games"] == 0
    assert rows[busy]["last_activity"] == last
    assert rows[quiet]["last_activity"] == rows[quiet]["created_at"]
    on_disk = sum(
        p.stat().st_size for p in (instance / "groups").glob(f"{busy}.sqlite3*") if p.is_file()
    )
    assert rows[busy]["bytes"] == on_disk > rows[quiet]["bytes"] > 0
    code, lines, _ = run(capsys, "groups", "list")
    assert lines[0].split() == [
        "id",
        "started",
        "lang",
        "size",
        "games",
        "last",
        "activity",
        "name",
    ]
    line = next(line for line in lines if line.startswith(busy))
    assert re.search(r"\d+\.\d KB +2 +" + re.escape(last[:16].replace("T", " ")), line), line
    assert line.endswith("Friday table")
