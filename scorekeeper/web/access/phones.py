"""Which phone this is, and which player it says it is, for confirmation by the other side
(``store/confirmations.py``).

A phone is known by an identity its state holds (``phonestate``: on the server), drawn the
first time it starts a game, saves a deal, confirms one or says who it is: it grants nothing by
itself. The store records it with each deal entered,
corrected or confirmed. In each game a phone may say which player it is ("I am …", on the
game page and the scoreboard the view link opens); its state keeps that per game, the
newest :data:`REMEMBERED` games. The game's admin is the phone that started it, or, for a club
night's table, whoever runs the night (``rights.can_run_club``), and for a tournament's, its
organiser (``rights.can_run_tournament``).

A page that reads any of this varies by the phone: the read is noted as a right the page's key
does not hold (``rights.noted``), so that the page is neither kept nor validated
(``validators``).
"""

from __future__ import annotations

from ...store.confirmations import PHONE, Phone, new_phone
from ...store.storage import StoredGame
from .database import get_db
from . import phonestate
from .rights import can_run_club, can_run_tournament, noted

PHONE_KEY = "phone"
SEATS_KEY = "iam"
#: The games for which a phone remembers who it said it is (the cookie must stay small).
REMEMBERED = 40


def _read() -> None:
    noted(("phone", None))


def phone_id(*, create: bool = False) -> str | None:
    """This phone's identity; with *create*, drawn when it has none yet."""
    _read()
    value = phonestate.get(PHONE_KEY)
    if isinstance(value, str) and PHONE.fullmatch(value):
        return value
    if not create:
        return None
    value = new_phone()
    phonestate.put(PHONE_KEY, value)
    return value


def _said() -> list[list[int]]:
    value = phonestate.get(SEATS_KEY)
    if not isinstance(value, list):
        return []
    return [
        e
        for e in value
        if isinstance(e, list)
        and len(e) == 2
        and all(type(x) is int for x in e)
        and e[1] in range(4)
    ]


def said_seat(game_id: int) -> int | None:
    """The player (seat) this phone said it is in game *game_id*, or None."""
    _read()
    return next((seat for game, seat in _said() if game == game_id), None)


def say_seat(game_id: int, seat: int | None) -> None:
    """Remember that this phone is the player of *seat* in the game (None: forget it)."""
    kept = [e for e in _said() if e[0] != game_id]
    if seat is not None:
        kept.append([game_id, seat])
    phonestate.put(SEATS_KEY, kept[-REMEMBERED:])
    phone_id(create=True)


def _event_of(game_id: int, tables: str, event: str) -> int | None:
    """The event (column *event* of *tables*) that game *game_id* is a table of, if any."""
    sql = f"select {event} from {tables} where game_id = ?"
    row = get_db().conn.execute(sql, [game_id]).fetchone()
    return row[0] if row else None


def club_of(game_id: int) -> int | None:
    return _event_of(game_id, "club_tables", "club_night_id")


def tournament_of(game_id: int) -> int | None:
    return _event_of(game_id, "tournament_tables", "tournament_id")


def event_organiser(game_id: int) -> bool | None:
    """None when game *game_id* is no table of a club night or a tournament; else whether this
    phone organises that event (it started it, opened its organiser link, or is the group's
    admin)."""
    club = club_of(game_id)
    if club is not None:
        return can_run_club(club)
    tournament = tournament_of(game_id)
    return None if tournament is None else can_run_tournament(tournament)


def is_game_admin(stored: StoredGame) -> bool:
    """Is this phone the game's admin: the phone that started it, or the organiser of the
    club night or the tournament it is a table of?"""
    started_by = stored.row.get("started_by")
    if started_by is not None and started_by == phone_id():
        return True
    return bool(event_organiser(stored.id))


def current(stored: StoredGame, *, create: bool = True) -> Phone:
    """This phone as the store records it with what it writes to the game."""
    return Phone(
        phone_id(create=create),
        said_seat(stored.id),
        is_game_admin(stored),
    )
