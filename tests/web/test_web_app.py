"""The app factory, its instance folder, and pages that are light, local and script-safe."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.web import STATIC, TEMPLATES, create_app
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate, migrations

from samples import PAGES, sample_site
from web_helpers import Table, soup

PAGE_BUDGET = 40 * 1024


def test_templates_and_static_stand_at_the_repository_root():
    root = Path(__file__).resolve().parents[2]
    assert TEMPLATES == root / "templates" and STATIC == root / "static"
    assert (TEMPLATES / "base.html").is_file() and (STATIC / "app.css").is_file()


def test_secret_key__created_on_first_run_private_and_kept(tmp_path):
    instance = tmp_path / "instance"
    first = create_app({"INSTANCE_PATH": str(instance), "DATABASE": str(tmp_path / "a.db")})
    key_file = instance / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.config["SECRET_KEY"]) >= 32
    second = create_app({"INSTANCE_PATH": str(instance), "DATABASE": str(tmp_path / "a.db")})
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_database__in_the_instance_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_DB", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["DATABASE"] == str(tmp_path / "scorekeeper.sqlite3")
    assert (tmp_path / "scorekeeper.sqlite3").exists()


def test_database__honours_scorekeeper_db(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "elsewhere" / "night.db"))
    app = create_app({"INSTANCE_PATH": str(tmp_path / "i")})
    assert app.config["DATABASE"] == str(tmp_path / "elsewhere" / "night.db")
    assert (tmp_path / "elsewhere" / "night.db").exists()


def test_migrations__applied_at_start_up_once_in_wal_mode(app):
    db = connect(app.config["DATABASE"])
    try:
        applied = [m.name for m in migrations.applied(db)]
        assert applied[0] == "m001_initial" and migrations.pending(db) == []
        migrate(db)  # idempotent
        assert [m.name for m in migrations.applied(db)] == applied
        assert {"players", "games", "game_players", "deals", "deal_history"} <= set(
            db.table_names()
        )
        assert db.journal_mode == "wal"
    finally:
        db.close()


def test_engine_never_imports_the_web_wing():
    code = (
        "import sys, scorekeeper.engine; "
        "assert 'flask' not in sys.modules and 'sqlite_utils' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_headers__content_security_policy_without_inline(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert client.get("/").headers["X-Content-Type-Options"] == "nosniff"


@pytest.fixture(scope="module")
def site(tmp_path_factory, migrated_database):
    """Every page's sample (tests/samples.py) over its seeded world, and a preview sent."""
    app, keeper, seeded = sample_site(tmp_path_factory.mktemp("pages"), migrated_database)
    watcher = app.test_client()
    pages = {s.name: (keeper if s.keeps_score else watcher).get(s.url(seeded)) for s in PAGES}
    pages["preview"] = Table(keeper).post_entry(
        seeded.fresh,
        "queens",
        {
            "q_spades_taker": "0",
            "q_hearts_taker": "1",
            "q_diamonds_taker": "2",
            "q_clubs_taker": "3",
        },
    )
    return watcher, pages


def test_pages__light_enough(site):
    for url, response in site[1].items():
        page = soup(response)
        linked = [
            t.get("href") or t.get("src") for t in page.select("link[rel=stylesheet], script[src]")
        ]
        weight = len(response.data) + sum(
            len((STATIC / u.removeprefix("/static/")).read_bytes()) for u in linked
        )
        assert weight <= PAGE_BUDGET, f"{url}: {weight} bytes"


def test_pages__every_asset_served_by_the_app(site):
    client, pages = site
    for url, response in pages.items():
        page = soup(response)
        for tag in page.select("[src], link[href]"):
            ref = tag.get("src") or tag.get("href")
            assert ref.startswith("/") and not ref.startswith("//"), (url, ref)
            with client.get(ref) as asset:
                assert asset.status_code == 200


def test_pages__no_inline_script_style_or_handler(site):
    for url, response in site[1].items():
        page = soup(response)
        assert all(s.get("src") for s in page.find_all("script")), url
        assert not page.find_all("style"), url
        for tag in page.find_all(True):
            assert not any(a.startswith("on") for a in tag.attrs), (url, tag.name)
            assert "style" not in tag.attrs, (url, tag.name)


def test_pages__work_without_javascript_every_action_is_a_link_or_form(site):
    for url, response in site[1].items():
        page = soup(response)
        # a button hidden until a script shows it (Copy the text) is not there without one
        for button in page.find_all("button", hidden=False):
            form = button.find_parent("form")
            assert form is not None and form.get("action"), (url, button)
        for link in page.find_all("a"):
            assert link.get("href", "").startswith("/"), (url, link)


def test_pages__never_a_500(site):
    for url, response in site[1].items():
        assert response.status_code < 500, url


def test_static__css_has_dark_mode_and_big_targets():
    css = (STATIC / "app.css").read_text()
    assert "prefers-color-scheme: dark" in css
    assert "min-height: 48px" in css


@pytest.mark.parametrize("name", ["app.js", "newgame.js"])
def test_static__script_is_small_and_plain(name):
    text = (STATIC / name).read_text()
    assert len(text) < 12000 and "eval(" not in text and "innerHTML" not in text


@pytest.mark.slow
def test_run_from_another_directory_finds_templates(tmp_path):
    code = (
        "from scorekeeper.web import create_app; "
        f"app = create_app({{'INSTANCE_PATH': {str(tmp_path)!r}, 'TESTING': True}}); "
        "assert app.test_client().get('/').status_code == 200"
    )
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=tmp_path,
        env={**os.environ, "SCOREKEEPER_DB": ""},
    )
