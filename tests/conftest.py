"""Fixtures for the web wing: one per object, as in the Flask tutorial."""
from __future__ import annotations

import pytest

from scorekeeper.web import create_app

from web_helpers import Table


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
