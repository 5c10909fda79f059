"""The SQLite database: one connection per request, the schema as migrations applied at start-up."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

migrations = Migrations("scorekeeper")
BUSY_TIMEOUT_SECONDS = 10


@migrations()
def m001_initial(db: Database) -> None:
    """Players, games and their seats, the current version of each deal, and every version."""
    db.table("players").create(
        {"id": int, "name": str, "name_key": str, "created_at": str},
        pk="id", not_null=["name", "name_key"])
    db.table("players").create_index(["name_key"], unique=True)
    db.table("games").create(
        {"id": int, "title": str, "played_on": str, "rules_json": str, "first_king": int,
         "created_at": str, "updated_at": str,
         # the summary, rewritten on every write so that reports can read it by SQL
         "deal_count": int, "finished": int, "totals_json": str, "winners_json": str,
         "team_totals_json": str, "team_result": str, "next_king": int},
        pk="id", not_null=["rules_json", "first_king", "created_at", "updated_at"],
        defaults={"deal_count": 0, "finished": 0})
    db.table("games").create_index(["finished", "updated_at"])
    db.table("game_players").create(
        {"game_id": int, "seat": int, "player_id": int, "total": int, "rank": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null=["player_id"], defaults={"total": 0, "rank": 1})
    db.table("game_players").create_index(["player_id"])
    db.table("deals").create(
        {"id": int, "game_id": int, "number": int, "king": int, "contracts": str,
         "thrown_in": str, "record_json": str, "score_0": int, "score_1": int,
         "score_2": int, "score_3": int, "token": str, "version": int,
         "created_at": str, "updated_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "number", "king", "record_json", "version"])
    db.table("deals").create_index(["game_id", "number"], unique=True)
    db.table("deals").create_index(["token"], unique=True)
    db.table("deal_history").create(
        {"id": int, "deal_id": int, "game_id": int, "number": int, "version": int,
         "record_json": str, "scores_json": str, "action": str, "token": str, "at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null=["deal_id", "game_id", "number", "version", "record_json", "action", "at"])
    db.table("deal_history").create_index(["game_id", "id"])
    db.table("deal_history").create_index(["token"], unique=True)


def connect(path: str | Path) -> Database:
    """Open the database, in WAL mode, waiting for a writer rather than failing at once."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS)
    db = Database(conn)
    db.execute("PRAGMA foreign_keys = ON;")
    if str(path) != ":memory:":
        db.enable_wal()
    return db


def migrate(db: Database) -> None:
    """Apply every pending migration; running it again changes nothing."""
    migrations.apply(db)


def get_db() -> Database:
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    """Apply the migrations at start-up and close each request's connection after it."""
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.close()
    app.teardown_appcontext(close_db)


@migrations()
def m002_history_stats(db: Database) -> None:
    """Per-game columns the history pages filter on, and one row of facts per seat and contract
    of every played deal, which the player pages and the leaderboard add up by SQL."""
    games = db.table("games")
    games.add_column("night", str)  # played_on, else the day the game was started
    games.add_column("preset", str)  # the preset the rules are, or "custom"
    games.add_column("partnership", int)
    games.add_column("fingerprint", str)  # the game's content without names, to spot a re-import
    games.add_column("extra_json", str)  # keys of an imported file that the format does not name
    games.create_index(["night"])
    games.create_index(["preset", "night"])
    games.create_index(["fingerprint"])
    db.table("seat_contract_stats").create(
        {"game_id": int, "deal_number": int, "seat": int, "contract": str, "is_king": int,
         "combined": int, "points": int, "took_kh": int, "doubles_made": int,
         "doubles_passed": int, "doubles_back": int, "took_doubled": int, "trex_place": int},
        pk=("game_id", "deal_number", "seat", "contract"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "deal_number", "seat", "contract", "is_king", "points"])
    from .facts import rebuild_all

    rebuild_all(db)
