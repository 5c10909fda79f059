"""``/healthz``: whether the app can answer and read its database (on a box of many groups,
its register of groups), for a container's health check, a service monitor or a reverse
proxy; the version it runs; and its replica (``store.replica``): whether the server runs
under Litestream, whether Litestream is still running, and how old the newest change it took
for the replica is. A server whose Litestream has ended answers 503 (it is stopping: the
supervisor starts the pair again). It says nothing about any game."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify

from ... import __version__
from ...store import replica
from ...store.groups import GROUP_SUFFIX
from ..access.database import get_db
from ..access.groupspace import host, many

bp = Blueprint("health", __name__)


def databases() -> list[Path]:
    """The box's databases: the one group's, or the register and every group's."""
    if not many():
        return [Path(current_app.config["DATABASE"])]
    box = host()
    return [box.register_path, *sorted(box.folder.glob(f"*{GROUP_SUFFIX}"))]


#: Seconds a server process reuses the newest change it read of the box's databases: reading
#: it takes about 50 ms on a box of 1,000 groups, too much for every look of a monitor.
REREAD_SECONDS = 5.0
_read: dict[str, tuple[float, float | None]] = {}
_read_lock = threading.Lock()


def newest_change() -> float | None:
    """:func:`store.replica.newest_change` of the box's databases, read again at most every
    :data:`REREAD_SECONDS`."""
    paths = databases()
    now = time.monotonic()
    with _read_lock:
        read_at, newest = _read.get(str(paths[0]), (-REREAD_SECONDS, None))
        if now - read_at < REREAD_SECONDS:
            return newest
    newest = replica.newest_change(paths)
    with _read_lock:
        _read.clear()  # one box per process: the entry of another is a test's
        _read[str(paths[0])] = (now, newest)
    return newest


def replication() -> dict[str, Any]:
    """What ``/healthz`` says of the replica."""
    pid = current_app.config["REPLICATOR"]
    newest = newest_change()
    return {
        "configured": pid is not None,
        "running": pid is not None and replica.alive(pid),
        "last_change_age_s": None if newest is None else round(max(0.0, time.time() - newest), 1),
    }


@bp.get("/healthz")
def healthz():
    status, code = "ok", 200
    try:
        if many():  # a box of many groups: its register of groups
            register = host().register()
            try:
                register.execute("select count(*) from groups").fetchone()
            finally:
                register.close()
        else:
            get_db().execute("select count(*) from games").fetchone()
    except sqlite3.Error:
        status, code = "unavailable", 503
    replicated = replication()
    if code == 200 and replicated["configured"] and not replicated["running"]:
        status, code = "unreplicated", 503
    response = jsonify(status=status, version=__version__, replication=replicated)
    response.status_code = code
    response.headers["Cache-Control"] = "no-store"
    return response
