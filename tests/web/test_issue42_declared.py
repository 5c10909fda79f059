"""Issue 42, "a new season statistic, or a group setting, is declared once": a record of the
season's hall is one entry of ``store.seasons.RECORDS`` that its page and its poster read (no
chain of kinds in either), and a group setting is one entry of ``store.groupsettings`` that
restore's checks read (nothing to add in ``restorechecks``)."""

from __future__ import annotations

import io
import sqlite3

import pytest
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from pypdf import PdfReader

from history_helpers import simulated_games
from scorekeeper import cli
from scorekeeper.engine import read_game
from scorekeeper.store import groupsettings, seasons, transfer
from scorekeeper.store.db import connect
from scorekeeper.store.groupsettings import GroupSetting, one_of
from scorekeeper.store.seasons import Record, SeasonStat

CATALOG = "scorekeeper/translations/ar/LC_MESSAGES/messages.po"


@pytest.fixture(autouse=True)
def prints_in_threads(app):
    app.config["PRINT_IN_PROCESS"] = False  # the poster sees the declaration the test adds


@pytest.fixture
def season_id(app) -> int:
    """A season of four simulated games."""
    db = connect(app.config["DATABASE"])
    try:
        docs = simulated_games(4, seed=5, pool=("Aya", "Bilal", "Carla", "Dana"))
        transfer.import_games(db, [read_game(d) for d in docs])
        return seasons.create(db, "November", "2026-11-01", "2026-11-30")
    finally:
        db.close()


def most_points(db, first: str, last: str) -> Record | None:
    """A record a maintainer adds: the most points one player scored in one game."""
    row = db.execute(
        "select gp.game_id, gp.night, p.name, gp.total from game_players gp "
        "join players p on p.id = gp.player_id "
        "where gp.finished = 1 and gp.night between ? and ? order by gp.total desc limit 1",
        [first, last],
    ).fetchone()
    return None if row is None else Record("points", row[3], (row[2],), row[0], row[1])


POINTS = SeasonStat(
    "points",
    "Most points in a game",
    "Most points in a game: the highest total one player finished a game with.",
    ("%(num)s point in one game", "%(num)s points in one game"),
    most_points,
)


def test_issue42_6__a_new_season_statistic_is_one_declaration_the_page_and_the_poster_read(
    app, client, season_id, monkeypatch
):
    monkeypatch.setattr(seasons, "RECORDS", (*seasons.RECORDS, POINTS))
    db = connect(app.config["DATABASE"])
    season = seasons.get(db, season_id)
    record = seasons.hall(db, season.first_night, season.last_night).records["points"]
    db.close()
    assert record is not None and record.value > 0
    figure = f"{record.value} points in one game"

    page = BeautifulSoup(client.get(f"/seasons/{season_id}").get_data(as_text=True), "html.parser")
    kinds = [dd["id"].removeprefix("record-") for dd in page.select("#records dd")]
    assert kinds[-1] == "points" and "best-night" in kinds
    shown = page.select_one("#record-points")
    assert shown.find_previous_sibling("dt").get_text() == "Most points in a game"
    assert f"{record.players[0]}: {figure}" in shown.get_text()
    assert shown.select_one("a")["href"] == f"/history/games/{record.game_id}"
    assert POINTS.rule in page.select_one("#record-rules").get_text()

    pdf = client.get(f"/seasons/{season_id}/poster.pdf?lang=en")
    assert pdf.status_code == 200
    text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text().replace("\n", " ")
    assert "Most points in a game" in text and figure in text and POINTS.rule in text


def test_issue42_6__each_declared_record_shows_its_own_figure_on_the_page(app, client, season_id):
    """Every record the hall finds is said with the words its declaration gives (one or many),
    on the page in the order the declaration lists them."""
    db = connect(app.config["DATABASE"])
    season = seasons.get(db, season_id)
    records = seasons.hall(db, season.first_night, season.last_night).records
    db.close()
    page = BeautifulSoup(client.get(f"/seasons/{season_id}").get_data(as_text=True), "html.parser")
    found = [stat for stat in seasons.RECORDS if records[stat.kind] is not None]
    assert len(found) >= 3
    assert [dd["id"] for dd in page.select("#records dd")][1:] == [
        f"record-{stat.kind}" for stat in found
    ]
    for stat in found:
        value, deal = records[stat.kind].value, records[stat.kind].deal
        words = stat.shown[0 if value == 1 else 1] % {"num": value, "deal": deal or 0}
        assert words in page.select_one(f"#record-{stat.kind}").get_text(" ", strip=True)


def test_issue42_6__every_declared_record_is_said_in_arabic():
    with open(CATALOG, "rb") as handle:
        catalog = read_po(handle, locale="ar")
    for stat in seasons.RECORDS:
        for msgid in (stat.title, stat.rule, stat.shown):
            message = catalog.get(msgid if isinstance(msgid, str) else msgid[0])
            assert message is not None and all(message.string), msgid
            if not isinstance(msgid, str):
                assert tuple(message.id) == msgid


# -- a group setting --------------------------------------------------------------------------
def backup_with(tmp_path, database: str, *settings: tuple[str, str]):
    path = tmp_path / "backup.sqlite3"
    assert cli.main(["backup", "-o", str(path), "--db", database]) == 0
    with sqlite3.connect(path) as conn:
        conn.executemany("insert or replace into settings (key, value) values (?, ?)", settings)
    return path


def restored_settings(tmp_path, app, capsys, *settings: tuple[str, str]) -> tuple[int, str]:
    database = app.config["DATABASE"]
    path = backup_with(tmp_path, database, *settings)
    status = cli.main(["restore", str(path), "--db", database])
    return status, capsys.readouterr().err


def held(app) -> dict[str, str]:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return dict(conn.execute("select key, value from settings"))


def test_issue42_6__restore_brings_back_every_declared_group_setting(tmp_path, app, capsys):
    settings = [("group_name", "Café Layali"), ("group_lang", "ar"), ("ratings", "off")]
    assert {key for key, _ in settings} | {"ratings_version"} == set(groupsettings.BY_KEY)
    status, err = restored_settings(tmp_path, app, capsys, *settings)
    assert status == 0, err
    assert set(settings) <= set(held(app).items())


@pytest.mark.parametrize(
    "setting",
    [("colour", "red"), ("group_lang", "fr"), ("ratings", "sometimes"), ("group_name", " ")],
)
def test_issue42_6__restore_refuses_a_setting_its_declaration_does_not_allow(
    tmp_path, app, capsys, setting
):
    before = held(app)
    status, err = restored_settings(tmp_path, app, capsys, setting)
    assert status == 2 and f"the setting {setting[0]!r}" in err
    assert held(app) == before


def test_issue42_6__a_new_group_setting_is_one_declaration_that_restore_reads(
    tmp_path, app, capsys, monkeypatch
):
    colour = GroupSetting("colour", one_of("red", "blue"), "a test")
    monkeypatch.setattr(groupsettings, "BY_KEY", {**groupsettings.BY_KEY, "colour": colour})
    status, err = restored_settings(tmp_path, app, capsys, ("colour", "red"))
    assert status == 0, err
    assert held(app)["colour"] == "red"
    status, err = restored_settings(tmp_path, app, capsys, ("colour", "green"))
    assert status == 2 and "the setting 'colour' cannot be 'green'" in err


def test_issue42_6__the_settings_page_takes_only_a_value_the_declaration_allows(client):
    page = BeautifulSoup(client.get("/settings").get_data(as_text=True), "html.parser")
    form = page.select_one("form[action^='/settings/ratings']")
    data = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
    assert (
        client.post("/settings/ratings", data={**data, "ratings": "sometimes"}).status_code == 400
    )
    assert client.post("/settings/ratings", data={**data, "ratings": "off"}).status_code == 303


def test_issue42_6__a_group_setting_is_kept_only_with_a_value_its_declaration_allows(app):
    db = connect(app.config["DATABASE"])
    try:
        groupsettings.put(db, "group_lang", "ar")
        for key, value in (("group_lang", "fr"), ("colour", "red"), ("group_name", "")):
            with pytest.raises(ValueError, match=f"the setting '{key}'"):
                groupsettings.put(db, key, value)
    finally:
        db.close()
    assert held(app).get("group_lang") == "ar" and "colour" not in held(app)


def test_issue42_6__the_groups_new_name_is_kept_through_its_declaration(tmp_path):
    """serve --groups: the admin's new name is the group's setting and the register's."""
    from group_helpers import InGroup, group_file, groups_app, start_group
    from scorekeeper.store import groups as store_groups

    app = groups_app(tmp_path)
    group, _, admin = start_group(app, "Aya's table")
    assert (
        InGroup(admin, group).post("/group/name", data={"name": "Café Layali"}).status_code == 303
    )
    db = connect(group_file(app, group))
    try:
        assert store_groups.group_setting(db, "group_name") == "Café Layali"
    finally:
        db.close()
    assert InGroup(admin, group).post("/group/name", data={"name": " "}).status_code == 400
