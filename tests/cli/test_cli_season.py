"""``scorekeeper season --from --to [--group] [--db] [--json]`` (issue 31): the standings of the
finished games played in the range, both days included, best first; a win is a first place by
"Who wins", so both partners of a winning team win, and reverse scores pick the lowest total."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from test_seasons import first_in_every_trex
from scorekeeper.cli import main
from scorekeeper.engine import read_game
from scorekeeper.store import open_database, ratings, storage, transfer

NAMES = ["Aya", "Bilal", "Carla", "Dana"]


@pytest.fixture
def club(tmp_path):
    """Games on 1, 2 and 3 March: on the 1st Bilal wins; on the 2nd, a partnership game that
    Aya and Carla win against Bilal and Dana, and a reverse-scores game; on the 3rd Dana
    wins. An unfinished game on the 2nd, and a finished one on 4 March, outside the range."""
    path = tmp_path / "club.sqlite3"
    db = open_database(path)
    docs = [
        first_in_every_trex(1, "2026-03-01"),
        first_in_every_trex(0, "2026-03-02", partnership=True),
        first_in_every_trex(2, "2026-03-02", reverse_scores=True),
        first_in_every_trex(3, "2026-03-03"),
        first_in_every_trex(0, "2026-03-04"),
    ]
    games = [read_game(d) for d in docs]
    transfer.import_games(db, games)
    unfinished = storage.create_game(
        db, title="Open", played_on="2026-03-02", players=NAMES, rules=games[0].rules, first_king=0
    )
    for number, deal in enumerate(docs[0]["deals"][:5], start=1):
        storage.add_deal(db, unfinished, deal, token=f"u{number:02d}" * 8, number=number)
    db.close()
    return path, games


def season_json(path, first="2026-03-01", last="2026-03-03", capsys=None) -> list[dict]:
    assert main(["season", "--from", first, "--to", last, "--db", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def expected(games, night_range) -> dict[str, dict]:
    """Each player's games, wins and points over *games*, by the engine's places."""
    out: dict[str, dict] = {}
    for game in games:
        if not night_range[0] <= game.played_on <= night_range[1]:
            continue
        scored = game.score()
        for name, place, total in zip(game.players, scored.places, scored.totals):
            row = out.setdefault(name, {"games": 0, "wins": 0, "points": 0})
            row["games"] += 1
            row["wins"] += place == 1
            row["points"] += total
    return out


def test_json_is_the_standings_of_the_finished_games_both_days_included(club, capsys):
    path, games = club
    out = season_json(path, capsys=capsys)
    assert [set(r) for r in out] == [{"player", "games", "wins", "points", "rating_change"}] * 4
    want = expected(games, ("2026-03-01", "2026-03-03"))
    assert {r["player"]: {k: r[k] for k in ("games", "wins", "points")} for r in out} == want
    assert all(r["games"] == 4 for r in out)  # the unfinished game and 4 March left out
    keys = [(-r["wins"], -r["points"]) for r in out]
    assert keys[0] <= keys[1]  # best first


def test_both_partners_of_the_winning_team_win(club, capsys):
    path, games = club
    out = season_json(path, "2026-03-02", "2026-03-02", capsys=capsys)
    partnership, reverse = games[1], games[2]
    assert partnership.score().places == (1, 2, 1, 2)
    wins = {r["player"]: r["wins"] for r in out}
    reverse_winner = NAMES[reverse.score().places.index(1)]
    assert wins == {n: (n in ("Aya", "Carla")) + (n == reverse_winner) for n in NAMES}


def test_reverse_scores_pick_the_lowest_total(club, capsys):
    path, games = club
    reverse = games[2]
    totals = reverse.score().totals
    lowest = NAMES[totals.index(min(totals))]
    highest = NAMES[totals.index(max(totals))]
    out = {r["player"]: r for r in season_json(path, "2026-03-02", "2026-03-02", capsys=capsys)}
    assert out[lowest]["wins"] >= 1
    assert out[highest]["wins"] == (highest in ("Aya", "Carla"))


def test_rating_change_is_the_change_over_the_range(club, capsys):
    path, _ = club
    out = {r["player"]: r["rating_change"] for r in season_json(path, capsys=capsys)}
    db = open_database(path)
    for name in NAMES:
        pid = next(db.query("select id from players where name = ?", [name]))["id"]
        history = [h for h in ratings.history(db, pid) if h["night"] <= "2026-03-03"]
        assert out[name] == sum(h["change"] for h in history)
    ratings.set_enabled(db, False)
    db.close()
    assert {r["rating_change"] for r in season_json(path, capsys=capsys)} == {None}


def test_the_table_names_the_champion_rule(club, capsys):
    path, _ = club
    assert main(["season", "--from", "2026-03-01", "--to", "2026-03-03", "--db", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Most wins, then the better average place" in text
    assert main(["season", "--from", "2026-05-01", "--to", "2026-05-03", "--db", str(path)]) == 0
    assert "No finished game" in capsys.readouterr().out


@pytest.mark.parametrize(
    "first, last, said",
    [
        ("2026-02-30", "2026-03-03", "--from '2026-02-30' is not a date"),
        ("2026-03-01", "March", "--to 'March' is not a date"),
        ("2026-03-03", "2026-03-01", "--to 2026-03-01 comes before --from 2026-03-03"),
    ],
)
def test_bad_dates_are_one_line_and_exit_status_2(club, first, last, said):
    path, _ = club
    run = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "season", "--from", first, "--to", last],
        capture_output=True,
        text=True,
        env={"SCOREKEEPER_DB": str(path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [run.stderr.strip()] and said in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_group_option_reads_the_groups_own_database(tmp_path, capsys, monkeypatch):
    from scorekeeper.store.groups import Host

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.delenv("SCOREKEEPER_DB", raising=False)
    group = Host(tmp_path).create("Majlis")
    db = open_database(Host(tmp_path).file_of(group.id))
    transfer.import_games(db, [read_game(first_in_every_trex(1, "2026-03-01"))])
    db.close()
    argv = ["season", "--from", "2026-03-01", "--to", "2026-03-01", "--json"]
    assert main([*argv, "--group", group.id]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 4
    assert main([*argv, "--group", "nosuchgroup"]) == 2
