"""Keys and the table PIN, as stored: each game's secret edit key, the view key the QR code
carries, the PIN's hash and the wrong PIN tries; each club night's and tournament's wall key
(the wall for a TV, ``/w/<key>``); and the install's own keys, the admin key (the group's
players) and the join key (starting games on a hosted box).

The wrong PIN tries are kept in the database, so that the limits hold across the server's
threads and across restarts. The limits, for one game:

- a phone (an address; on IPv6 its /64 network) has ``PIN_TRIES`` tries in ``PIN_WINDOW``;
- while the game has had ``PIN_TRIES_PER_GAME`` wrong tries in that window from all phones, a
  phone that has itself failed in it waits for its failures to age out; a phone that has not
  failed may still try, so strangers cannot lock the table's own phones out this way;
- after ``PIN_FAILURES_PER_DAY`` wrong tries in a day from all phones together, the PIN is
  locked for everyone until the oldest of them is a day old: the table then lets a phone in
  with the edit link. This is what stops many addresses guessing together: at most that many
  guesses a day, so an average of 50 days for a 4-digit PIN (5,000 guesses) and 5,000 days,
  about 13.7 years, for a 6-digit one (500,000 guesses).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash

from .schema import RANDOM_KEY_SQL

KEY = re.compile(r"[0-9a-f]{32}")
#: Every PIN is 4 to 12 digits; a hosted box asks for at least HOSTED_PIN_DIGITS.
PIN_DIGITS = (4, 12)
HOSTED_PIN_DIGITS = 6
PIN = re.compile(r"[0-9]{%d,%d}" % PIN_DIGITS)
#: How a PIN is hashed: werkzeug's scrypt with its cost (N 2**15, r 8, p 1: about 50 ms).
PIN_METHOD = "scrypt:32768:8:1"
#: A stored PIN hash exactly as this app writes it (method, 16-character salt, 64-byte hex
#: digest). Anything else (another method, or the same with a far higher cost, which made
#: one wrong try take 24 s) is not checked at all: restore refuses it, a try never matches.
PIN_HASH = re.compile(re.escape(PIN_METHOD) + r"\$[A-Za-z0-9]{16}\$[0-9a-f]{128}")
#: At most this many wrong PIN tries per game from one phone in PIN_WINDOW seconds...
PIN_TRIES = 5
#: ...and, from phones that have failed already, this many from all of them together.
PIN_TRIES_PER_GAME = 20
PIN_WINDOW = 300.0
#: Wrong tries a day per game from everyone, after which the PIN is locked for all.
PIN_FAILURES_PER_DAY = 100
PIN_DAY = 86400.0
#: The install's keys, by name: who may change the group's players, who may start games.
INSTALL_KEYS = ("admin", "join")
#: What has a wall link, by kind: the table that keeps its ``wall_key``.
WALLS = {"club": "club_nights", "tournament": "tournaments"}


# -- a game's keys -------------------------------------------------------------------------
def game_keys(db: Database, game_id: int) -> dict[str, Any] | None:
    """The game's edit key, view key and PIN hash; None when there is no such game.

    A game without keys (stored by a path that bypassed the insert trigger) gets them here.
    """
    sql = "select id, edit_key, view_key, pin_hash from games where id = ?"
    row = next(db.query(sql, [game_id]), None)
    if row is not None and (row["edit_key"] is None or row["view_key"] is None):
        with db.atomic():
            db.execute(
                f"update games set edit_key = coalesce(edit_key, {RANDOM_KEY_SQL}), "
                f"view_key = coalesce(view_key, {RANDOM_KEY_SQL}) where id = ?",
                [game_id],
            )
        row = next(db.query(sql, [game_id]))
    return row


def rotate_edit_key(db: Database, game_id: int) -> str | None:
    """Give the game a new edit key: every phone that held the old one (or gave the PIN) only
    watches from now on. The new key, or None when there is no such game."""
    with db.atomic():
        found = db.execute(
            f"update games set edit_key = {RANDOM_KEY_SQL} where id = ?", [game_id]
        ).rowcount
    keys = game_keys(db, game_id) if found else None
    return keys["edit_key"] if keys else None


# -- a club night's or a tournament's wall -------------------------------------------------
def wall_key(db: Database, kind: str, ident: int) -> str | None:
    """The wall key of club night or tournament *ident* (made again if missing); None when
    there is no such one."""
    table = WALLS[kind]
    sql = f"select wall_key from {table} where id = ?"
    row = next(db.query(sql, [ident]), None)
    if row is not None and not KEY.fullmatch(row["wall_key"] or ""):
        return rotate_wall_key(db, kind, ident)
    return None if row is None else row["wall_key"]


def rotate_wall_key(db: Database, kind: str, ident: int) -> str | None:
    """A new wall key: the old wall link leads nowhere from now on. The new key, or None when
    there is no such club night or tournament."""
    table = WALLS[kind]
    with db.atomic():
        found = db.execute(
            f"update {table} set wall_key = {RANDOM_KEY_SQL} where id = ?", [ident]
        ).rowcount
    return wall_key(db, kind, ident) if found else None


def wall_of(db: Database, key: str) -> tuple[str, int] | None:
    """Which wall *key* opens: (kind, id), or None when it opens none."""
    if not KEY.fullmatch(key):
        return None
    for kind, table in WALLS.items():
        row = db.conn.execute(f"select id from {table} where wall_key = ?", [key]).fetchone()
        if row is not None:
            return kind, row[0]
    return None


def rotate_game_links(db: Database, game_id: int) -> str | None:
    """New edit and view keys for the game (both its links stop working): the new edit key,
    or None when there is no such game."""
    with db.atomic():
        found = db.execute(
            f"update games set edit_key = {RANDOM_KEY_SQL}, view_key = {RANDOM_KEY_SQL} "
            "where id = ?",
            [game_id],
        ).rowcount
    keys = game_keys(db, game_id) if found else None
    return keys["edit_key"] if keys else None


# -- the table PIN -------------------------------------------------------------------------
def pin_fits(pin: str, min_digits: int = PIN_DIGITS[0]) -> bool:
    """Whether *pin* can be a table PIN: ASCII digits, at least *min_digits* of them."""
    return PIN.fullmatch(pin) is not None and len(pin) >= min_digits


def pin_hash(pin: str) -> str:
    return generate_password_hash(pin, method=PIN_METHOD)


def pin_matches(stored_hash: str | None, pin: str) -> bool:
    """Whether *pin* is the table PIN whose hash is *stored_hash*."""
    return (
        bool(stored_hash)
        and PIN.fullmatch(pin) is not None
        and PIN_HASH.fullmatch(stored_hash or "") is not None
        and check_password_hash(stored_hash or "", pin)
    )


def pin_tag(stored_hash: str | None) -> str | None:
    """A short tag of the PIN now set (None without one): a phone let in by the PIN keeps it,
    so that a new PIN, or none, takes its right back. The hash is salted: a PIN set again to
    the same digits gets a new tag too."""
    if not stored_hash:
        return None
    return hashlib.sha256(stored_hash.encode()).hexdigest()[:12]


def set_pin(db: Database, game_id: int, pin: str | None) -> bool:
    """Set the game's PIN (None removes it) and forget the tries at the old one; False when
    there is no such game. Phones that the old PIN let in only watch from now on."""
    with db.atomic():
        found = db.execute(
            "update games set pin_hash = ? where id = ?", [pin_hash(pin) if pin else None, game_id]
        ).rowcount
        db.execute("delete from pin_attempts where game_id = ?", [game_id])
    return bool(found)


def client_of(address: str | None) -> str:
    """Whom the PIN limits count: an IPv4 address, or an IPv6 address's /64 network (one
    device can take any address in its network)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return (address or "unknown")[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class PinLock:
    """Why a phone may not try a PIN now: ``scope`` is "phone" (its own wrong tries) or "game"
    (the day's wrong tries from everyone: locked for all), and ``wait`` the seconds left."""

    scope: str
    wait: int


def _lock(db: Database, game_id: int, client: str, now: float) -> PinLock | None:
    day = [
        r["at"]
        for r in db.query(
            "select at from pin_attempts where game_id = ? and at >= ? order by at",
            [game_id, now - PIN_DAY],
        )
    ]
    if len(day) >= PIN_FAILURES_PER_DAY:
        return PinLock("game", int(day[-PIN_FAILURES_PER_DAY] + PIN_DAY - now) + 1)
    since = now - PIN_WINDOW
    mine = [
        r["at"]
        for r in db.query(
            "select at from pin_attempts where game_id = ? and client = ? and at >= ? order by at",
            [game_id, client, since],
        )
    ]
    if len(mine) >= PIN_TRIES:
        return PinLock("phone", int(mine[-PIN_TRIES] + PIN_WINDOW - now) + 1)
    recent = sum(1 for at in day if at >= since)
    if mine and recent >= PIN_TRIES_PER_GAME:  # a phone that has not failed may still try
        return PinLock("phone", int(mine[-1] + PIN_WINDOW - now) + 1)
    return None


def pin_lock(db: Database, game_id: int, client: str) -> PinLock | None:
    """Whether (and why) *client* may not try the game's PIN now, without counting a try."""
    return _lock(db, game_id, client, time.time())


def take_pin_try(db: Database, game_id: int, client: str) -> tuple[PinLock | None, int | None]:
    """Count one PIN try unless the limits refuse it: (None, the try's id), or (the lock,
    None). A right PIN forgets its try (``forget_try``): only wrong ones count.

    The check and the new try are one write transaction, so that tries sent at the same moment
    on several threads cannot all slip under the limit.
    """
    now = time.time()
    with db.atomic():
        db.execute("delete from pin_attempts where at < ?", [now - PIN_DAY])
        lock = _lock(db, game_id, client, now)
        if lock is not None:
            return lock, None
        return None, db.table("pin_attempts").insert(
            {"game_id": game_id, "client": client, "at": now}
        ).last_pk


def tries_left(db: Database, game_id: int, client: str) -> int:
    since = time.time() - PIN_WINDOW
    used = next(
        db.query(
            "select count(*) as n from pin_attempts where game_id = ? and client = ? and at >= ?",
            [game_id, client, since],
        )
    )["n"]
    return max(0, PIN_TRIES - used)


def forget_try(db: Database, attempt: int | None) -> None:
    """A right PIN does not count against the limit."""
    with db.atomic():
        db.execute("delete from pin_attempts where id = ?", [attempt])


# -- the install's keys --------------------------------------------------------------------
def install_key(db: Database, name: str) -> str:
    """The install's admin or join key (made by the migration; made again if missing)."""
    row = next(db.query("select key from install_keys where name = ?", [name]), None)
    if row is not None and KEY.fullmatch(row["key"] or ""):
        return row["key"]
    return rotate_install_key(db, name)


def rotate_install_key(db: Database, name: str) -> str:
    """A new admin or join key: every phone that opened the old link loses what it gave."""
    if name not in INSTALL_KEYS:
        raise ValueError(f"no install key {name!r}")
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with db.atomic():
        db.execute("delete from install_keys where name = ?", [name])
        db.execute(
            f"insert into install_keys (name, key, created_at) values (?, {RANDOM_KEY_SQL}, ?)",
            [name, stamp],
        )
    return next(db.query("select key from install_keys where name = ?", [name]))["key"]


def admin_key_to_show(db: Database) -> str | None:
    """The admin key the first time the server starts on this database, else None: it is
    shown once, then ``scorekeeper admin-link`` prints it."""
    key = install_key(db, "admin")
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with db.atomic():
        shown = db.execute(
            "update install_keys set shown_at = ? where name = 'admin' and shown_at is null",
            [stamp],
        ).rowcount
    return key if shown else None


def install_key_matches(db: Database, name: str, given: str) -> bool:
    return KEY.fullmatch(given) is not None and hmac.compare_digest(given, install_key(db, name))
