"""A group's members: the phones admitted to read and keep the group's records.

On a hosted box (or a box with many groups) a phone becomes a member by opening the group's
join link, the admin link, or by starting the group; its session then holds the token written
here. The admin sees the members (when they joined, by which link, on what kind of device) and
can end one membership or all of them. Rotating the join link is separate: it admits no one
new by the old link, and the members keep their membership.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

#: How a phone came in.
VIA = ("start", "join", "admin")
TOKEN_LENGTH = 32


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def admit(db: Database, via: str, device: str = "") -> str:
    """A new member; their token, for the phone's session."""
    if via not in VIA:
        raise ValueError(f"no way in called {via!r}")
    token = secrets.token_hex(TOKEN_LENGTH // 2)
    stamp = _now()
    with db.atomic():
        db.execute(
            "insert into members (token, via, device, joined_at, seen_on) values (?, ?, ?, ?, ?)",
            [token, via, device[:80], stamp, stamp[:10]],
        )
    return token


def is_member(db: Database, token: object) -> bool:
    """Is *token* a membership that has not been ended? (A note of the day the member was
    last seen is written at most once a day.)"""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH:
        return False
    row = db.conn.execute(
        "select token, seen_on from members where token = ? and ended_at is null", [token]
    ).fetchone()
    if row is None or not hmac.compare_digest(row[0], token):
        return False
    today = _now()[:10]
    if row[1] != today:
        with db.atomic():
            db.execute("update members set seen_on = ? where token = ?", [today, token])
    return True


def member_id(db: Database, token: object) -> int | None:
    """The id of the membership whose token is *token* (the phone's own), or None."""
    row = db.conn.execute(
        "select id from members where token = ?", [token if isinstance(token, str) else ""]
    ).fetchone()
    return row[0] if row else None


def members(db: Database) -> list[dict[str, Any]]:
    """Every membership that has not been ended, oldest first."""
    return list(
        db.query(
            "select id, via, device, joined_at, seen_on from members "
            "where ended_at is null order by id"
        )
    )


def end(db: Database, member_id: int) -> bool:
    """End one membership: that phone no longer reads nor keeps the group's records."""
    with db.atomic():
        return bool(
            db.execute(
                "update members set ended_at = ? where id = ? and ended_at is null",
                [_now(), member_id],
            ).rowcount
        )


def end_all(db: Database, *, keep: str | None = None) -> int:
    """End every membership but the one whose token is *keep* (the admin's own phone)."""
    with db.atomic():
        return db.execute(
            "update members set ended_at = ? where ended_at is null and token is not ?",
            [_now(), keep],
        ).rowcount
