"""A game's keys and its table PIN, as stored: the secret edit key, the view key the QR code
carries, the PIN's hash, and the wrong PIN tries of the last minutes (kept in the database so
that the limit holds across the server's threads and across restarts)."""
from __future__ import annotations

import re
import time
from typing import Any

from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash

from .schema import RANDOM_KEY_SQL

KEY = re.compile(r"[0-9a-f]{32}")
PIN = re.compile(r"[0-9]{4}")
#: At most this many PIN tries per game from one address in PIN_WINDOW seconds...
PIN_TRIES = 5
#: ...and from every address together (a phone can change its address on the Wi-Fi).
PIN_TRIES_PER_GAME = 20
PIN_WINDOW = 300.0


def game_keys(db: Database, game_id: int) -> dict[str, Any] | None:
    """The game's edit key, view key and PIN hash; None when there is no such game.

    A game without keys (stored by a path that bypassed the insert trigger) gets them here.
    """
    sql = "select id, edit_key, view_key, pin_hash from games where id = ?"
    row = next(db.query(sql, [game_id]), None)
    if row is not None and (row["edit_key"] is None or row["view_key"] is None):
        with db.atomic():
            db.execute(f"update games set edit_key = coalesce(edit_key, {RANDOM_KEY_SQL}), "
                       f"view_key = coalesce(view_key, {RANDOM_KEY_SQL}) where id = ?",
                       [game_id])
        row = next(db.query(sql, [game_id]))
    return row


def pin_hash(pin: str) -> str:
    return generate_password_hash(pin)


def pin_matches(stored_hash: str | None, pin: str) -> bool:
    """Whether *pin* is the table PIN whose hash is *stored_hash*."""
    return bool(stored_hash) and PIN.fullmatch(pin) is not None \
        and check_password_hash(stored_hash, pin)


def take_pin_try(db: Database, game_id: int, client: str) -> tuple[int, int | None]:
    """Count one PIN try unless too many were made: (0, the try's id), or (seconds to wait,
    None).

    The count and the new try are one write transaction, so that tries sent at the same moment
    on several threads cannot all slip under the limit.
    """
    now = time.time()
    since = now - PIN_WINDOW
    with db.atomic():
        db.execute("delete from pin_attempts where at < ?", [since])
        mine = [r["at"] for r in db.query(
            "select at from pin_attempts where game_id = ? and client = ? order by at",
            [game_id, client])]
        every = [r["at"] for r in db.query(
            "select at from pin_attempts where game_id = ? order by at", [game_id])]
        waits = [int(tries[-limit] + PIN_WINDOW - now) + 1
                 for tries, limit in ((mine, PIN_TRIES), (every, PIN_TRIES_PER_GAME))
                 if len(tries) >= limit]
        if waits:
            return max(waits), None
        return 0, db.table("pin_attempts").insert(
            {"game_id": game_id, "client": client, "at": now}).last_pk


def tries_left(db: Database, game_id: int, client: str) -> int:
    since = time.time() - PIN_WINDOW
    used = next(db.query("select count(*) as n from pin_attempts where game_id = ? and "
                         "client = ? and at >= ?", [game_id, client, since]))["n"]
    return max(0, PIN_TRIES - used)


def forget_try(db: Database, attempt: int | None) -> None:
    """A right PIN does not count against the limit."""
    with db.atomic():
        db.execute("delete from pin_attempts where id = ?", [attempt])
