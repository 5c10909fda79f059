"""`scorekeeper advise`: the open choices ranked for a hand, as text or JSON; a hand or a
contract that cannot be is one clear line and exit status 2."""

from __future__ import annotations

import json

import pytest

from scorekeeper.cli import main

LOW_HEARTS = "KH 2H 3H 4H 5H 6H 7H 3S 4S 5S 3D 4D 3C"


def test_advise__json_best_first(capsys):
    assert main(["advise", "--hand", LOW_HEARTS, "--deals", "12", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    choices = out["choices"]
    assert [c["contracts"] for c in choices][0] == out["best"] == ["king_of_hearts"]
    assert sorted(c["contracts"][0] for c in choices) == sorted(
        ["king_of_hearts", "diamonds", "queens", "collections", "trex"]
    )
    for choice in choices:
        assert {"contracts", "expected", "low", "high", "average_hand", "gain"} <= set(choice)
        assert choice["low"] <= choice["expected"] <= choice["high"]
        assert choice["gain"] == pytest.approx(
            choice["expected"] - choice["average_hand"], abs=0.02
        )
    gains = [c["gain"] for c in choices]
    assert gains == sorted(gains, reverse=True)


def test_advise__the_same_seed_the_same_answer(capsys):
    args = [
        "advise",
        "--hand",
        "A♠ 9♠ 4♠ K♥ 8♥ 3♥ Q♦ J♦ 5♦ 2♦ A♣ 6♣ 2♣",
        "--open",
        "queens,trex",
        "--deals",
        "10",
        "--seed",
        "8",
        "--json",
    ]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first
    assert {tuple(c["contracts"]) for c in json.loads(first)["choices"]} == {("queens",), ("trex",)}


def test_advise__text_with_the_combined_deals_the_rules_allow(capsys):
    assert (
        main(
            [
                "advise",
                "--hand",
                LOW_HEARTS,
                "--open",
                "king_of_hearts,diamonds,trex",
                "--rules",
                '{"combining": "combination"}',
                "--deals",
                "6",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Rules: Combination" in out
    assert "King of Hearts + Diamonds" in out and "(best)" in out
    assert "you take the K♥ in" in out and "you go out first in" in out
    assert "90%:" in out and "an average hand" in out


@pytest.mark.parametrize(
    "args, line",
    [
        (["--hand", "AS KS QS"], "A hand has 13 cards, not 3."),
        (["--hand", LOW_HEARTS.replace("3C", "3S")], "The card 3♠ is given twice."),
        (["--hand", LOW_HEARTS.replace("3C", "1C")], "'1C' is not a card; write a rank"),
        (["--hand", LOW_HEARTS.replace("3C", "3X")], "'3X' is not a card; write a rank"),
        (
            ["--hand", LOW_HEARTS, "--open", "queens,kings"],
            "'kings' is not a contract; the contracts are king_of_hearts, diamonds",
        ),
        (["--hand", LOW_HEARTS, "--open", ","], "Name at least one open contract."),
        (["--hand", LOW_HEARTS, "--rules", '{"doubling": "maybe"}'], "--rules: house rule"),
        (["--hand", LOW_HEARTS, "--deals", "0"], "--deals must be 1 or more, not 0."),
    ],
)
def test_advise__what_cannot_be_is_one_clear_line_and_status_2(capsys, args, line):
    assert main(["advise", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(line), lines
