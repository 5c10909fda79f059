"""``serve`` brings every database up to date at its start (issue 39, item 5), through the real
``scorekeeper serve`` under waitress: an upgraded box's groups are up to date before any phone
opens one, and an upgrade that cannot go through stops the start, with a line that says why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import scorekeeper
from scorekeeper.store.schema import latest, migrations

from live_server import Server, free_port
from upgrade_helpers import SINCE_0_1_0, applied, break_m013, dump, old_box, old_database

ROOT = Path(__file__).resolve().parents[2]
ALL = [m.name for m in migrations._migrations]


def test_issue39_5__serve_brings_every_group_up_to_date_before_any_phone_opens_one(tmp_path):
    instance = tmp_path / "instance"
    files = old_box(instance)
    server = Server(instance / "unused.sqlite3", instance, options=["--groups", "--workers", "2"])
    server.start(timeout=60)
    try:  # /healthz answered: no group has been opened by any request
        assert [applied(f) for f in files] == [ALL, ALL]
        line = (
            f"Scorekeeper {scorekeeper.__version__}: 3 databases (the register and 2 groups) "
            f"up to date: {1 + 2 * len(SINCE_0_1_0)} migrations applied, schema {latest()}."
        )
        assert server.output().splitlines().count(line) == 1  # once, not once per process
    finally:
        server.stop()


def test_issue39_5__a_laptop_serve_brings_its_database_up_to_date_and_says_so(tmp_path):
    instance = tmp_path / "instance"
    database = old_database(instance / "scorekeeper.sqlite3")
    server = Server(database, instance)
    server.start(timeout=60)
    try:
        assert applied(database) == ALL
        assert (
            f"Scorekeeper {scorekeeper.__version__}: 1 database up to date: "
            f"{len(SINCE_0_1_0)} migrations applied, schema {latest()}."
        ) in server.output().splitlines()
    finally:
        server.stop()


def test_issue39_5__an_upgrade_that_cannot_go_through_stops_the_start_and_changes_nothing(
    tmp_path,
):
    instance = tmp_path / "instance"
    good, bad = old_box(instance)
    break_m013(bad)  # what m018_deal_version_keys makes, there already
    before = dump(bad)
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--groups", "--port", str(free_port())],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{bad}: the migration m018_deal_version_keys failed: trigger "
        "deals_version_key_insert already exists",
        f"Scorekeeper {scorekeeper.__version__}: 2 of 3 databases (the register and 2 groups) "
        f"up to date: {1 + len(SINCE_0_1_0)} migrations applied, schema {latest()}, 1 failed.",
        "The server did not start: see UPGRADING.md.",
    ]
    assert "Trex Scorekeeper on" not in result.stdout  # it never listened
    assert dump(bad) == before
    assert applied(good) == ALL
