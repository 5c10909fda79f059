"""Fixtures for the web wing: one per object, as in the Flask tutorial."""
from __future__ import annotations

import os

import pytest

from scorekeeper.engine.simrun import CHECK_ENV
from scorekeeper.web import create_app

# Every game `scorekeeper simulate` plays in the suite is also read back through the validator
# and scored again, and held to what the play counted (engine/simrun.py).
os.environ[CHECK_ENV] = "1"

from web_helpers import Table


def pytest_collection_modifyitems(config, items):
    """Every browser test and every ``load`` test is also ``slow``: the quick command
    (``bash tests/run.sh --quick``) leaves the ``slow`` ones out; the full run keeps them."""
    for item in items:
        if "browser" in item.path.parts or item.get_closest_marker("load"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorekeeper.sqlite3"),
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "WTF_CSRF_ENABLED": False,
    })
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
