"""Fixtures for the web wing: one per object, as in the Flask tutorial."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from scorekeeper.cli.score import CHECK_ENV
from scorekeeper.store import open_database
from scorekeeper.web import create_app

# Every game `scorekeeper simulate` plays in the suite is also read back through the validator
# and scored again, and held to what the play counted (cli/score.py, engine/simrun.py).
os.environ[CHECK_ENV] = "1"

from web_helpers import Table


def pytest_collection_modifyitems(config, items):
    """Every browser test and every ``load`` test is also ``slow``: the quick command
    (``bash tests/run.sh --quick``) leaves the ``slow`` ones out; the full run keeps them."""
    for item in items:
        if "browser" in item.path.parts or item.get_closest_marker("load"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """An empty database built by the migrations once per run: each test's app starts from a
    copy of it (the migrations take a third of an app's start)."""
    path = tmp_path_factory.mktemp("template") / "scorekeeper.sqlite3"
    db = open_database(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file, to copy
    db.close()
    return path


@pytest.fixture
def app(tmp_path, migrated_database):
    database = tmp_path / "scorekeeper.sqlite3"
    shutil.copyfile(migrated_database, database)
    database.chmod(0o600)  # as the store makes a new database
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def table(client):
    """A scorekeeper at the table: starts games and enters deals through the forms."""
    return Table(client)
