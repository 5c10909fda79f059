"""A group's members: the phones admitted to read and keep the group's records.

On a hosted box (or a box with many groups) a phone becomes a member by opening the group's
join link, the admin link, or by starting the group; its state then holds the token written
here. The admin sees the members (when they joined, by which link, on what kind of device,
whether they hold the admin rights) and can end one membership or all of them. Ending a
membership deletes that phone's whole state in the group: its rights to games (those it
started, and those links or the PIN gave it), to club nights and tournaments, the admin's
rights, its identity and who it said it is. Rotating the join link is separate: it admits no
one new by the old link, and the members keep their membership.

**A phone's state** is kept here, one row a phone (``phone_states``), not in its cookie: the
cookie holds only a random key, and the row is found by a digest of that key and the group's
id, so that a copy of the file hands out no phone, and a phone's rows in two groups do not
match. A row without a membership that no request has read for ``STATE_DAYS`` days (its
cookie has expired by then) is deleted when a new row is written.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlite_utils import Database

#: How a phone came in.
VIA = ("start", "join", "admin")
TOKEN_LENGTH = 32
#: A phone's row without a membership is forgotten after this many days unread.
STATE_DAYS = 32


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


def end(db: Database, member_id: int) -> list[int] | None:
    """End one membership, and delete that phone's state in the group: it no longer reads nor
    keeps the group's records, its own games included. The games whose links it held (their
    edit or view link, the PIN, or it started them), to offer new links; None when there is
    no such membership left."""
    with db.atomic():
        row = db.conn.execute(
            "select token from members where id = ? and ended_at is null", [member_id]
        ).fetchone()
        if row is None:
            return None
        held = held_games(db, row[0])
        db.execute("update members set ended_at = ? where id = ?", [_now(), member_id])
        db.execute("delete from phone_states where member = ?", [row[0]])
    return held


def end_all(db: Database, *, keep: str | None = None) -> int:
    """End every membership but the one whose token is *keep* (the admin's own phone), with
    those phones' state."""
    with db.atomic():
        db.execute(
            "delete from phone_states where member in "
            "(select token from members where ended_at is null and token is not ?)",
            [keep],
        )
        return db.execute(
            "update members set ended_at = ? where ended_at is null and token is not ?",
            [_now(), keep],
        ).rowcount


def was_ended(db: Database, token: object) -> bool:
    """Is *token* a membership that was ended?"""
    return (
        isinstance(token, str)
        and db.conn.execute(
            "select 1 from members where token = ? and ended_at is not null", [token]
        ).fetchone()
        is not None
    )


# -- a phone's state ----------------------------------------------------------------------
def phone_digest(key: str, group: str | None) -> str:
    """The row's key of the phone whose cookie holds *key*, in the group *group*."""
    return hashlib.sha256(f"{group or ''}:{key}".encode()).hexdigest()


#: The phone's state as a column of another statement (its one parameter: the phone's row key):
#: the day it was last read, a space, the state (``preloaded``).
STATE_SQL = "(select seen_on || ' ' || state from phone_states where phone = ?)"


def parse_state(text: str | None) -> dict[str, Any]:
    """A phone's state as stored (None: it has none)."""
    try:
        state = json.loads(text) if text else {}
    except ValueError:
        state = {}
    return state if isinstance(state, dict) else {}


def preloaded(db: Database, phone: str, text: str | None) -> dict[str, Any]:
    """The phone's state as read by ``STATE_SQL`` (the day it was read written, as
    ``phone_state`` does)."""
    if not text:
        return {}
    seen_on, _, state = text.partition(" ")
    if seen_on != _now()[:10]:
        with db.atomic():
            db.execute("update phone_states set seen_on = ? where phone = ?", [_now()[:10], phone])
    return parse_state(state)


def _state_of(db: Database, phone: str) -> tuple[dict[str, Any], str | None] | None:
    row = db.conn.execute(
        "select state, seen_on from phone_states where phone = ?", [phone]
    ).fetchone()
    return None if row is None else (parse_state(row[0]), row[1])


def phone_state(db: Database, phone: str) -> dict[str, Any]:
    """The phone's state in the group (empty when it has none). The day it was last read is
    written at most once a day."""
    found = _state_of(db, phone)
    if found is None:
        return {}
    state, seen_on = found
    today = _now()[:10]
    if seen_on != today:
        with db.atomic():
            db.execute("update phone_states set seen_on = ? where phone = ?", [today, phone])
    return state


def change_phone_state(db: Database, phone: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Set the names of *changes* in the phone's state (None removes one), as one write over
    the state as stored (another request of the same phone may have changed another name
    meanwhile); the state as it is now."""
    today = _now()[:10]
    with db.atomic():
        found = _state_of(db, phone)
        state = found[0] if found else {}
        for name, value in changes.items():
            if value is None:
                state.pop(name, None)
            else:
                state[name] = value
        if found is None:
            cutoff = (datetime.now(timezone.utc) - timedelta(days=STATE_DAYS)).date().isoformat()
            db.execute("delete from phone_states where member is null and seen_on < ?", [cutoff])
        member = state.get("member")
        db.execute(
            "insert or replace into phone_states (phone, member, state, seen_on) "
            "values (?, ?, ?, ?)",
            [phone, member if isinstance(member, str) else None, json.dumps(state), today],
        )
    return state


def held_games(db: Database, token: str) -> list[int]:
    """The games whose links the phone of membership *token* holds, or that it started."""
    held: set[int] = set()
    for (text,) in db.conn.execute(
        "select state from phone_states where member = ?", [token]
    ).fetchall():
        state = parse_state(text)
        for name in ("edit", "watch"):
            entries = state.get(name)
            if isinstance(entries, list):
                held.update(
                    e[0] for e in entries if isinstance(e, list) and e and type(e[0]) is int
                )
        phone = state.get("phone")
        if isinstance(phone, str):
            held.update(
                r[0] for r in db.conn.execute("select id from games where started_by = ?", [phone])
            )
    return (
        sorted(
            r[0]
            for r in db.conn.execute(
                f"select id from games where id in ({','.join('?' * len(held))})", sorted(held)
            )
        )
        if held
        else []
    )


def admins(db: Database, tag: str) -> set[int]:
    """The memberships whose phone holds the admin rights (the tag *tag* of the admin key)."""
    return {
        row[0]
        for row in db.conn.execute(
            "select m.id from members m join phone_states p on p.member = m.token "
            "where m.ended_at is null and json_extract(p.state, '$.admin') = ?",
            [tag],
        )
    }
