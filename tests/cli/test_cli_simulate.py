"""`scorekeeper simulate`: whole games by bots, a summary, and game files that score."""

from __future__ import annotations

import json

import pytest

from scorekeeper.cli import main
from scorekeeper.engine import read_game
from scorekeeper.cli.score import CHECK_ENV


def test_simulate__prints_summary_and_writes_valid_game_files(tmp_path, capsys):
    out = tmp_path / "games"
    assert (
        main(
            [
                "simulate",
                "--games",
                "6",
                "--seed",
                "7",
                "--out",
                str(out),
                "--rules",
                '{"combining": "combination", "partnership": true}',
            ]
        )
        == 0
    )
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


#: RULES.md's three house rules of issue 29, each through ``simulate --rules ... --check``: every
#: game read back by the validator and scored again, held to what the play counted.
NEW_RULES = [
    '{"self_capture": "king-credit"}',
    '{"partnership": true, "split_queens_replay": true}',
    '{"no_redeal_requests": true}',
]


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("rules", NEW_RULES)
def test_simulate__check_finds_no_disagreement_under_each_new_house_rule(capsys, rules, bot):
    assert (
        main(
            [
                "simulate",
                "--games",
                "40",
                "--seed",
                "29",
                "--bot",
                bot,
                "--jobs",
                "1",
                "--rules",
                rules,
                "--check",
            ]
        )
        == 0
    )
    assert "40 games in" in capsys.readouterr().out


def test_simulate__same_seed_same_games(tmp_path):
    for name in ("a", "b"):
        main(
            [
                "simulate",
                "--games",
                "2",
                "--seed",
                "11",
                "--bot",
                "heuristic",
                "--out",
                str(tmp_path / name),
            ]
        )
    for path in (tmp_path / "a").glob("*.json"):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()


def test_simulate__bad_rules_is_one_clear_line(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--rules", '{"doubling": "maybe"}'])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.strip() == "--rules: house rule 'doubling' must be true or false, not 'maybe'"


@pytest.mark.parametrize(
    "rules",
    [
        "{}",
        '{"partnership": true, "team_result": "worst-loses"}',
        '{"sweep_replay": {"collections_tricks": 7}, "reverse_scores": true}',
        '{"combining": "combination", "self_capture": "leader-credit"}',
        *NEW_RULES,
    ],
)
def test_simulate__written_files_score_the_same_without_the_check(
    tmp_path, capsys, monkeypatch, rules
):
    """The games are not read back on a normal run; the files written must still be files
    ``scorekeeper score`` accepts, with the totals and the scores written in them."""
    monkeypatch.setenv(CHECK_ENV, "0")
    out = tmp_path / "games"
    assert (
        main(
            [
                "simulate",
                "--games",
                "5",
                "--seed",
                "20",
                "--bot",
                "heuristic",
                "--jobs",
                "1",
                "--rules",
                rules,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    capsys.readouterr()
    files = sorted(out.glob("*.json"))
    assert len(files) == 5
    for path in files:
        written = json.loads(path.read_text(encoding="utf-8"))
        assert main(["score", "--json", str(path)]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert scored == written
        assert written["totals"] == [
            sum(d.get("scores", [0] * 4)[s] for d in written["deals"]) for s in range(4)
        ]


def test_simulate__processes_give_the_same_games_and_averages(tmp_path, capsys):
    outputs = {}
    for jobs in (1, 2, 3):
        out = tmp_path / f"jobs{jobs}"
        assert (
            main(
                [
                    "simulate",
                    "--games",
                    "13",
                    "--seed",
                    "5",
                    "--bot",
                    "heuristic",
                    "--rules",
                    '{"sweep_replay": {"collections_tricks": 7}}',
                    "--jobs",
                    str(jobs),
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        first, rest = capsys.readouterr().out.split("\n", 1)
        assert f"{jobs} process" in first
        outputs[jobs] = (
            rest.replace(str(out), "OUT"),
            {p.name: p.read_bytes() for p in sorted(out.glob("*.json"))},
        )
    assert len(outputs[1][1]) == 13
    assert outputs[1] == outputs[2] == outputs[3]


def test_simulate__bad_jobs_is_one_clear_line(capsys):
    assert main(["simulate", "--jobs", "0"]) == 2
    assert capsys.readouterr().err.strip() == "--jobs: give a number of processes, 1 or more."


def test_issue42_5__simulate_checks_every_game_when_the_variable_says_so(monkeypatch, capsys):
    """The engine reads no environment: the command reads SCOREKEEPER_CHECK_SIMULATED (the
    suite's conftest sets it) and passes the check in, as ``--check`` does."""
    from scorekeeper.engine import simulate
    from scorekeeper.engine.simrun import SimulationMismatch

    real = simulate.contract_card_points

    def turned(*args):  # each contract's points given to the wrong seats: only the check sees it
        return {c: p[1:] + p[:1] for c, p in real(*args).items()}

    monkeypatch.setattr(simulate, "contract_card_points", turned)
    run = ["simulate", "--games", "2", "--seed", "3", "--jobs", "1"]
    with pytest.raises(SimulationMismatch, match="the scorer counts"):
        main(run)
    monkeypatch.setenv(CHECK_ENV, "0")
    assert main(run) == 0
    with pytest.raises(SimulationMismatch):
        main([*run, "--check"])
