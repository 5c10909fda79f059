"""The request's database connection: the store's connection kept by this server thread, and
what each request leaves behind rolled back; the schema brought up to date at start-up."""

from __future__ import annotations

import sqlite3

from flask import Flask, g
from sqlite_utils import Database
from werkzeug.routing import IntegerConverter

from ...store.db import connect, forget_connection, thread_connection
from ...store.backfill import up_to_date


def get_db() -> Database:
    """The request's connection: the one this server thread keeps open to the database of the
    request's group (see ``store.db.thread_connection`` and ``groups.database_path``)."""
    if "db" not in g:
        from .groupspace import database_path, many

        # a group's file is never made here: one deleted meanwhile stays deleted
        g.db = thread_connection(database_path(), create=not many())
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """After each request: a transaction left open is rolled back, as closing would do. A
    connection that cannot roll back (its group's file deleted meanwhile) is closed."""
    db = g.pop("db", None)
    if db is None:
        return
    try:
        if db.conn.in_transaction:
            db.conn.rollback()
    except sqlite3.Error:
        from .groupspace import database_path

        forget_connection(database_path())


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in a route: a number SQLite can hold as a row id, else no such page (a
    bigger number would make SQLite raise instead of finding nothing), written in ASCII digits
    without a leading zero: one address per thing (``/games/١`` and ``/games/01`` are no
    page, where the digits of any script, and int(), would have read them as ``/games/1``)."""

    regex = r"(?:0|[1-9][0-9]*)"

    def __init__(self, map, *args, **kwargs):  # noqa: A002 (werkzeug's name)
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    """Apply the migrations at start-up and end each request's use of its connection."""
    app.url_map.converters["int"] = RowIdConverter
    app.teardown_appcontext(close_db)
    if app.config["GROUPS"]:  # `serve` brought every group up to date at its start
        return  # (web/serve.py), and a group's file is checked again when first opened
    db = connect(app.config["DATABASE"])
    try:
        up_to_date(db)
    finally:
        db.close()
