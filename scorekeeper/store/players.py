"""Changes to the players themselves: renaming a player, merging two spellings of one person,
deleting a player without games (each for the group's admin), and a misspelt name fixed in one
game alone (for a phone that keeps that game's score; another table's club night is never
changed by it).

Games name their players by id, so a rename changes every game's name at once and a merge moves
one spelling's games onto the other; neither touches a score. A name fixed in one game points
that game's seat at another player, new or known: the other games stay as they were. A change
that cannot be made raises :class:`Refused` with its reason as an English message (marked for
the catalog with ``N_``) and its values, for the page to say in its language.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ..engine.gamefile import NAME_LIMIT, name_problem
from . import ratings, storage
from .refused import N_, Refused


#: What each of the engine's name problems says on a rename.
NAME_REFUSALS = {
    "player_name_empty": N_("Write the new name."),
    "player_name_too_long": N_("A name has at most %(limit)s characters."),
    "player_name_control": N_("A name cannot hold control characters."),
    "player_name_invisible": N_("A name needs at least one letter or digit that shows."),
    "player_name_hidden": N_(
        "A name cannot hold characters that do not show (direction marks, zero-width spaces)."
    ),
    "player_name_marks": N_("A letter of a name carries at most three marks."),
}


def checked_name(new_name: str) -> str:
    """*new_name* as it would be stored, held to the same rules as every name (the engine's
    ``name_problem``); raises Refused."""
    name = storage.clean_name(new_name)
    problem = name_problem(name)
    if problem is not None:
        raise Refused(NAME_REFUSALS[problem], limit=NAME_LIMIT)
    return name


def rename_player(db: Database, pid: int, new_name: str) -> str:
    """Rename player *pid*; return the name as stored, or raise Refused."""
    name = checked_name(new_name)
    key = storage.name_key(name)
    with db.atomic():
        other = next(
            db.query("select id, name from players where name_key = ? and id != ?", [key, pid]),
            None,
        )
        if other is not None:
            raise Refused(
                N_(
                    "%(name)s is another player already. If they are the same "
                    "person, merge the two instead."
                ),
                names={"name": other["name"]},
            )
        db.execute("update players set name = ?, name_key = ? where id = ?", [name, key, pid])
    return name


def _first(db: Database, sql: str, params: list[int]) -> Any:
    """The first column of the query's first row; None when it has none."""
    row = next(db.execute(sql, params), None)
    return row[0] if row else None


def shared_game(db: Database, keep: int, drop: int) -> int | None:
    """A game both players sat in, if any (then they are two people)."""
    return _first(
        db,
        "select a.game_id from game_players a join game_players b "
        "on b.game_id = a.game_id where a.player_id = ? and b.player_id = ? "
        "limit 1",
        [keep, drop],
    )


#: The club nights' tables that name players (store.clubnights).
CLUB_TABLES = ("club_night_players", "club_sitting_out")


def shared_club_night(db: Database, keep: int, drop: int) -> str | None:
    """The title of a club night both players are players of, if any."""
    return _first(
        db,
        "select c.title from club_night_players a join club_night_players b "
        "on b.club_night_id = a.club_night_id join club_nights c "
        "on c.id = a.club_night_id where a.player_id = ? and b.player_id = ? "
        "limit 1",
        [keep, drop],
    )


def _follow_in_tournaments(db: Database, keep: int, drop: int) -> None:
    """The tournaments *drop* entered (alone or as a partner) follow the player *keep*."""
    for column in ("player_id", "partner_id"):
        db.execute(f"update tournament_entrants set {column} = ? where {column} = ?", [keep, drop])


def shared_tournament(db: Database, keep: int, drop: int) -> str | None:
    """The title of a tournament both players entered, if any."""
    return _first(
        db,
        "select t.title from tournament_entrants a join tournament_entrants b "
        "on b.tournament_id = a.tournament_id join tournaments t on t.id = a.tournament_id "
        "where ? in (a.player_id, a.partner_id) and ? in (b.player_id, b.partner_id) limit 1",
        [keep, drop],
    )


def in_a_tournament(db: Database, pid: int) -> bool:
    return (
        next(
            db.query(
                "select count(*) as n from tournament_entrants where ? in (player_id, partner_id)",
                [pid],
            )
        )["n"]
        > 0
    )


def plays_in_the_club_night_of(db: Database, game_id: int, pid: int) -> bool:
    """Is *pid* a player of the club night that game *game_id* is a table of?"""
    return (
        next(
            db.query(
                "select count(*) as n from club_tables t join club_night_players p "
                "on p.club_night_id = t.club_night_id where t.game_id = ? and "
                "p.player_id = ?",
                [game_id, pid],
            )
        )["n"]
        > 0
    )


def enters_the_tournament_of(db: Database, game_id: int, pid: int) -> bool:
    """Is *pid* an entrant (or a pair's partner) of the tournament that game *game_id* is a
    table of?"""
    return (
        next(
            db.query(
                "select count(*) as n from tournament_tables t join tournament_entrants e "
                "on e.tournament_id = t.tournament_id where t.game_id = ? and "
                "? in (e.player_id, e.partner_id)",
                [game_id, pid],
            )
        )["n"]
        > 0
    )


def _follow_in_this_tournament(db: Database, game_id: int, current: int, pid: int) -> None:
    """In the tournament game *game_id* is a table of (if any), the entrant *current* is now
    *pid*: its entry and its seats at every table of that tournament, so that the bracket and
    its games keep naming one player."""
    row = next(
        db.query("select tournament_id from tournament_tables where game_id = ?", [game_id]), None
    )
    if row is None:
        return
    tid = row["tournament_id"]
    for column in ("player_id", "partner_id"):
        db.execute(
            f"update tournament_entrants set {column} = ? where tournament_id = ? and {column} = ?",
            [pid, tid, current],
        )
    games = [
        r["game_id"]
        for r in db.query(
            "select t.game_id from tournament_tables t join game_players gp on gp.game_id = "
            "t.game_id where t.tournament_id = ? and gp.player_id = ?",
            [tid, current],
        )
    ]
    for other in games:
        db.execute(
            "update game_players set player_id = ? where game_id = ? and player_id = ?",
            [pid, other, current],
        )
        ratings.after_change(db, other)


def in_a_club_night(db: Database, pid: int) -> bool:
    return (
        next(db.query("select count(*) as n from club_night_players where player_id = ?", [pid]))[
            "n"
        ]
        > 0
    )


def merge_players(db: Database, keep: int, drop: int) -> None:
    """Move every game of *drop* onto *keep* and remove *drop*, or raise Refused."""
    if keep == drop:
        raise Refused(N_("Choose another player to merge."))
    with db.atomic():
        game = shared_game(db, keep, drop)
        if game is not None:
            raise Refused(
                N_(
                    "They played in the same game (game %(number)s), so they are two "
                    "people and cannot be merged."
                ),
                number=game,
            )
        night = shared_club_night(db, keep, drop)
        if night is not None:
            raise Refused(
                N_(
                    "They are both players of the club night %(title)s, so they are "
                    "two people and cannot be merged."
                ),
                names={"title": night},
            )
        cup = shared_tournament(db, keep, drop)
        if cup is not None:
            raise Refused(
                N_(
                    "They both entered the tournament %(title)s, so they are two people "
                    "and cannot be merged."
                ),
                names={"title": cup},
            )
        db.execute("update game_players set player_id = ? where player_id = ?", [keep, drop])
        for table in CLUB_TABLES:  # the club nights they played follow the player kept
            db.execute(f"update {table} set player_id = ? where player_id = ?", [keep, drop])
        _follow_in_tournaments(db, keep, drop)
        ratings.after_players_changed(db)  # one player's games are now another's
        db.execute("delete from players where id = ?", [drop])


def game_count(db: Database, pid: int) -> int:
    return next(db.query("select count(*) as n from game_players where player_id = ?", [pid]))["n"]


def delete_player(db: Database, pid: int) -> None:
    """Remove a player who has no game (a spelling left over, say); one with games is refused:
    their games would lose a name."""
    with db.atomic():
        count = game_count(db, pid)
        if not count and in_a_club_night(db, pid):
            raise Refused(
                N_(
                    "A player of a club night cannot be deleted: the night seats them. "
                    "Merge them into another spelling instead."
                )
            )
        if not count and in_a_tournament(db, pid):
            raise Refused(
                N_(
                    "A player of a tournament cannot be deleted: its bracket holds them. "
                    "Merge them into another spelling instead."
                )
            )
        if count:
            raise Refused(
                N_(
                    "A player with games cannot be deleted (games: %(number)s). Merge "
                    "them into another spelling instead."
                ),
                number=count,
            )
        db.execute("delete from players where id = ?", [pid])


def other_club_night(db: Database, game_id: int, pid: int) -> str | None:
    """The title of a club night *pid* is a player of that game *game_id* is not a table of."""
    row = next(
        db.query(
            "select c.title from club_night_players p join club_nights c "
            "on c.id = p.club_night_id where p.player_id = ? and not exists "
            "(select 1 from club_tables t where t.game_id = ? and "
            "t.club_night_id = p.club_night_id) limit 1",
            [pid, game_id],
        ),
        None,
    )
    return row["title"] if row else None


def fix_seat_name(
    db: Database, game_id: int, seat: int, new_name: str, *, club_nights_too: bool = False
) -> str:
    """Put right the name of the player in *seat* of one game: that seat then names the player
    called *new_name*, known already or new, and no other game changes. A player left without
    games by the change (the misspelling itself) is removed. Returns the name as stored;
    raises Refused, or LookupError when the game has no such seat.

    The player's record itself (renamed, or removed into a known player's) changes only when
    it is this game's alone and no club night that this game is not a table of lists it:
    fixing a name in one's own game never changes another table's club night, unless
    *club_nights_too* (a phone with rights over the group's club nights, its admin)."""
    name = checked_name(new_name)
    key = storage.name_key(name)
    with db.atomic():
        row = next(
            db.query(
                "select gp.player_id, p.name from game_players gp join players p "
                "on p.id = gp.player_id where gp.game_id = ? and gp.seat = ?",
                [game_id, seat],
            ),
            None,
        )
        if row is None:
            raise LookupError(f"no seat {seat} in game {game_id}")
        current = row["player_id"]
        # the player is in this game only, and in no club night but this game's
        alone = game_count(db, current) == 1 and (
            club_nights_too or other_club_night(db, game_id, current) is None
        )
        target = next(db.query("select id, name from players where name_key = ?", [key]), None)
        if target is not None and target["id"] == current:
            if target["name"] == name:
                return name
            if not alone:
                raise Refused(
                    N_(
                        "%(name)s is this player’s name in other games or club "
                        "nights too: only the group’s admin can change how it is "
                        "written everywhere."
                    ),
                    names={"name": target["name"]},
                )
            db.execute("update players set name = ? where id = ?", [name, current])
        elif target is not None:
            _seat_known(db, game_id, seat, current, target, alone)
            name = target["name"]
        elif alone:  # the record is this game's alone: it can take the new name itself
            db.execute(
                "update players set name = ?, name_key = ? where id = ?", [name, key, current]
            )
        else:
            new = storage.player_id(db, name)
            _seat(db, game_id, seat, new)
            ratings.after_change(db, game_id)
            _follow_in_this_tournament(db, game_id, current, new)
        db.execute("update games set updated_at = ? where id = ?", [storage.now(), game_id])
    return name


def _seat_known(
    db: Database, game_id: int, seat: int, current: int, target: dict, alone: bool
) -> None:
    """Seat the known player *target* in place of *current*; when *current* was this game's
    alone, its club nights follow the seat and its record goes."""
    seated = next(
        db.query(
            "select seat from game_players where game_id = ? and player_id = ?",
            [game_id, target["id"]],
        ),
        None,
    )
    if seated is not None:
        raise Refused(
            N_("%(name)s plays in this game already (player %(number)s)."),
            names={"name": target["name"]},
            number=seated["seat"] + 1,
        )
    if plays_in_the_club_night_of(db, game_id, target["id"]):
        raise Refused(
            N_("%(name)s plays at another table of this club night."),
            names={"name": target["name"]},
        )
    if enters_the_tournament_of(db, game_id, target["id"]):
        raise Refused(
            N_("%(name)s is another entrant of this tournament."),
            names={"name": target["name"]},
        )
    night = shared_club_night(db, target["id"], current) if alone else None
    if night is not None:
        raise Refused(
            N_("%(name)s is another player of the club night %(title)s."),
            names={"name": target["name"], "title": night},
        )
    _seat(db, game_id, seat, target["id"])
    ratings.after_change(db, game_id)  # before the misspelling's record goes
    if alone:
        for table in CLUB_TABLES:  # the misspelling's club night follows the seat
            db.execute(
                f"update {table} set player_id = ? where player_id = ?", [target["id"], current]
            )
        _follow_in_tournaments(db, target["id"], current)  # and its tournaments
        db.execute("delete from players where id = ?", [current])
    else:
        _follow_in_this_tournament(db, game_id, current, target["id"])


def _seat(db: Database, game_id: int, seat: int, pid: int) -> None:
    db.execute(
        "update game_players set player_id = ? where game_id = ? and seat = ?", [pid, game_id, seat]
    )
