"""RULES.md "Who wins" and the refused entries of "Combined deals" and "King of Hearts", through
the command line and the importer: ``scorekeeper score --json`` names the reversed game's winner,
and each impossible entry is refused with exit status 2 and its deal's number, no traceback."""

from __future__ import annotations

import json

import pytest

from gamebuilder import standard_game
from scorekeeper.cli import main
from test_rules_entries import complex_with_leader
from test_rules_who_wins import reversed_game


def write(tmp_path, doc) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_who_wins_score_json_names_the_lowest_total_under_reverse_scores(tmp_path, capsys):
    assert main(["score", write(tmp_path, reversed_game()), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == [-110, 35, 60, 15]
    assert out["winners"] == [0] and out["places"] == [1, 3, 4, 2]


def test_who_wins_score_prints_the_winner_of_a_reversed_game(tmp_path, capsys):
    assert main(["score", write(tmp_path, reversed_game())]) == 0
    assert "Winner: Aya" in capsys.readouterr().out


def contract_twice() -> dict:
    doc = standard_game()
    doc["deals"][2] = {"king": 0, "contracts": ["diamonds", "diamonds"], "diamonds": [4, 3, 2, 4]}
    return doc


def trickless_leader() -> dict:
    doc = standard_game(rules={"combining": "complex", "self_capture": "leader-credit"})
    doc["deals"] = [
        {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]},
        complex_with_leader(2),
    ]
    return doc


def late_kh_redeal() -> dict:
    doc = standard_game()
    doc["deals"].insert(2, {"king": 0, "thrown_in": {"reason": "kh-redeal", "by": 1}})
    return doc


REFUSED = [
    (contract_twice, "Deal 3: Diamonds is listed twice"),
    (
        trickless_leader,
        "Deal 2, Collections: Carla took no trick and is not the King, so they "
        "cannot have led to the trick with the K♥",
    ),
    (
        late_kh_redeal,
        "Deal 3: Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal",
    ),
]


@pytest.mark.parametrize("make, message", REFUSED, ids=["twice", "leader", "kh-redeal"])
def test_combined_deals_and_redeals_refused_by_score_with_exit_2(tmp_path, capsys, make, message):
    assert main(["score", write(tmp_path, make())]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("make, message", REFUSED, ids=["twice", "leader", "kh-redeal"])
def test_combined_deals_and_redeals_refused_by_import_storing_nothing(
    tmp_path, capsys, make, message
):
    database = tmp_path / "db.sqlite3"
    assert main(["import", write(tmp_path, make()), "--db", str(database)]) == 2
    err = capsys.readouterr().err
    assert message + "." in err and "Nothing was imported." in err and "Traceback" not in err
    assert not database.exists()  # refused before the database is even opened
