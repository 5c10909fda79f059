"""`scorekeeper score FILE`: scores a game file, or prints one line per problem and exits 2."""

from __future__ import annotations

import json

import pytest

from gamebuilder import standard_game
from scorekeeper.cli import main
from scorekeeper.engine import read_game


def write(tmp_path, content) -> str:
    path = tmp_path / "game.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


def test_score__prints_deals_kingdoms_and_totals(tmp_path, capsys):
    doc = standard_game(rules={"partnership": True})
    assert main(["score", write(tmp_path, doc)]) == 0
    out = capsys.readouterr().out
    totals = read_game(doc).score().totals
    total_line = next(line for line in out.splitlines() if "total" in line)
    assert [int(x) for x in total_line.split()[1:]] == list(totals)
    assert out.count("kingdom") == 4 and "Teams: Aya & Carla" in out and "Winner:" in out


def test_score__json_adds_scores_and_totals(tmp_path, capsys):
    doc = standard_game()
    assert main(["score", write(tmp_path, doc), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == list(read_game(doc).score().totals)
    assert all(len(d["scores"]) == 4 for d in out["deals"])
    assert read_game(out)  # what it prints imports again


@pytest.mark.parametrize(
    "content, expected",
    [
        ("", ["The file is empty"]),
        ("{not json", ["The file is not JSON"]),
        ("[1, 2]", ["The game must be a JSON object"]),
        (
            {"format": "chess/1"},
            [
                "The format is 'chess/1'",
                "There must be four player names",
                "The game does not say who the first King is",
            ],
        ),
    ],
)
def test_score__bad_file_one_line_per_problem_exit_2(tmp_path, capsys, content, expected):
    assert main(["score", write(tmp_path, content)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == len(expected) and "Traceback" not in captured.err
    for line, start in zip(lines, expected):
        assert line.startswith(start)


def test_score__game_with_mistakes(tmp_path, capsys):
    doc = standard_game()
    doc["deals"][2]["diamonds"] = [4, 2, 5, 1]
    doc["deals"][4]["tricks"] = [4, 2, 5, 7]
    assert main(["score", write(tmp_path, doc)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "Deal 3, Diamonds: the counts add up to 12, not 13",
        "Deal 5, Collections: the counts add up to 18, not 13",
    ]


def test_score__missing_file(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    assert capsys.readouterr().err.startswith("Cannot read")
