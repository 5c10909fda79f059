"""Issue 42: code written twice is written once; what it did stays the same."""

from __future__ import annotations

import subprocess

import pytest

from scorekeeper.engine import heuristics, processes
from scorekeeper.engine.errors import IllegalPlay
from scorekeeper.engine.play import quick


def test_issue42_dupes__one_alive_tells_a_running_an_unreaped_and_a_reaped_process():
    from scorekeeper.store import replica
    from scorekeeper.web.serving import metrics

    assert replica.alive is processes.alive and metrics.alive is processes.alive
    process = subprocess.Popen(["sleep", "60"])
    try:
        assert processes.alive(process.pid)
        process.kill()
        deadline = 50
        while processes.alive(process.pid) and deadline:  # ended, not yet reaped: not alive
            subprocess.run(["sleep", "0.1"])
            deadline -= 1
        assert not processes.alive(process.pid)
    finally:
        process.kill()
        process.wait()
    assert not processes.alive(process.pid)


@pytest.mark.parametrize("cards", [0b1, 0b1011_0110, (1 << 52) - 1, 1 << 51 | 1 << 12 | 1 << 3])
def test_issue42_dupes__the_heaviest_and_lightest_card_is_the_first_of_equal_weight(
    monkeypatch, cards
):
    weights = {index: (index * 7) % 5 for index in range(52)}  # many ties
    monkeypatch.setattr(heuristics, "_penalty_weight", lambda state, index: weights[index])
    held = [i for i in range(52) if cards >> i & 1]
    most = max(weights[i] for i in held)
    least = min(weights[i] for i in held)
    assert heuristics._heaviest(None, cards) == next(i for i in held if weights[i] == most)
    assert heuristics._lightest(None, cards) == next(i for i in held if weights[i] == least)


def test_issue42_dupes__a_bot_that_picks_a_card_it_may_not_play_is_refused():
    legal = 1 << 5 | 1 << 40
    assert quick._checked(2, 40, legal) == 40
    with pytest.raises(IllegalPlay, match="Seat 2 chose the .*, which is not a card"):
        quick._checked(2, 6, legal)
    with pytest.raises(IllegalPlay, match="Seat 1 chose the 99"):
        quick._checked(1, 99, legal)
