"""Issue 39, item 2, through the real server (``scorekeeper serve --groups``, waitress): while a
stranger floods group A's shared result, changing its cookies at every request, and A's members
flood it with new blank sheets, a member of group B gets its sheet (200, a PDF) every time. Not
timed: the figures are ``benchmarks/bench_fair.py``'s, which this test runs for a short while."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_fair  # noqa: E402
from live_server import Server  # noqa: E402

pytestmark = pytest.mark.slow  # the real server and the printing processes


def test_issue39_2__a_member_gets_its_sheet_while_a_stranger_floods_another_groups_result(
    tmp_path,
):
    server = Server(
        tmp_path / "unused.sqlite3", tmp_path / "instance", args=("--groups", "--workers", "1")
    ).start()
    try:
        quiet, flood = bench_fair.run(server.port, seconds=10, strangers=4, members=2)
    finally:
        server.stop()
    for phase in (quiet, flood):
        assert phase["b"] and set(phase["b"]) == {"200"}, phase  # every answer a PDF
    assert sum(flood["stranger"].values()) > 50, flood  # it was a flood
    assert set(flood["stranger"]) <= {"200", "503"}, flood
    assert set(flood["a_members"]) <= {"200", "503"}, flood
    assert flood["a_members"].get("503", 0) > 0, flood  # A's flood met its share
    assert "Traceback" not in server.output()
