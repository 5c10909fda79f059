"""`scorekeeper simulate`: whole games by bots, a summary, and game files that score."""
from __future__ import annotations

import json

import pytest

from scorekeeper.cli import main
from scorekeeper.engine import read_game


def test_simulate__prints_summary_and_writes_valid_game_files(tmp_path, capsys):
    out = tmp_path / "games"
    assert main(["simulate", "--games", "6", "--seed", "7", "--out", str(out),
                 "--rules", '{"combining": "combination", "partnership": true}']) == 0
    text = capsys.readouterr().out
    assert "6 games in" in text and "games/s" in text and "Average final score by seat" in text
    assert "Collections" in text and "Trex" in text
    files = sorted(out.glob("*.json"))
    assert len(files) == 6
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        game = read_game(doc)  # the totals written are checked against the recomputation
        assert doc["totals"] == list(game.score().totals) and "team_totals" in doc
        assert main(["score", str(path)]) == 0


def test_simulate__same_seed_same_games(tmp_path):
    for name in ("a", "b"):
        main(["simulate", "--games", "2", "--seed", "11", "--bot", "heuristic",
              "--out", str(tmp_path / name)])
    for path in (tmp_path / "a").glob("*.json"):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()


def test_simulate__bad_rules_is_one_clear_line(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--rules", '{"doubling": "maybe"}'])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.strip() == "--rules: house rule 'doubling' must be true or false, not 'maybe'"
