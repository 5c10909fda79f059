"""Ratings: each player's skill, derived from the stored games like the statistics.

The model is openskill's Plackett-Luce with its default parameters, so anyone can re-derive the
numbers. A finished game rates each player once, on the final places the store keeps
(``game_players.rank``, RULES.md "Who wins": tied seats share a place, the lowest total is first
under reverse_scores); a partnership game rates two teams of two by the team result. An
unfinished game rates nothing. Games are rated in order of play: the night, then the order the
games were started (then their id).

The ratings are kept in two tables: ``ratings`` (each player's mu, sigma and games) and
``rating_changes`` (each rated seat's rating before and after the game, in the order rated). Both
always equal what rating every finished game again from scratch gives:

- when the game that changed is finished, rated by nobody yet and later in the order than every
  rated game (the deal that finishes the latest game), it is rated alone, incrementally;
- when nothing that rating reads changed (the same players and places), nothing is done;
- anything else (a correction of a rated game, an undo, a game finished out of order, an import,
  a merge of two players, a deleted game) rates every finished game again.

A group that does not want ratings turns them off (``settings``); then nothing is kept or shown,
and turning them on again rates every game from scratch.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from openskill.models import PlackettLuce
from sqlite_utils import Database

from . import playsums
from .schema import RATINGS_RECOMPUTING

#: The model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: A player is provisional until this many rated games.
PROVISIONAL_GAMES = 5
#: The number people read: openskill's ordinal (mu - 3 sigma, 0 for a new player) scaled to a
#: familiar range around 1000 (as chess ratings are read).
BASE, SCALE = 1000, 40
SETTING = "ratings"
#: The settings row drawn again at every change of the ratings kept (a game rated, every game
#: rated again, the ratings turned on or off): a page that shows ratings holds it in its key.
VERSION = "ratings_version"
#: The ratings' setting and version in one value, as a subquery of the page's own row read.
VERSION_SQL = (
    "(select group_concat(key || '=' || value, ';') from settings "
    f"where key in ('{SETTING}', '{VERSION}'))"
)


@dataclass(frozen=True)
class Rating:
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def rating(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative rating: mu - 3 sigma."""
    return mu - 3 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating as people read it: the ordinal scaled, a new player at 1000."""
    return round(BASE + SCALE * ordinal(mu, sigma))


# -- on or off -----------------------------------------------------------------------------
def enabled(db: Database) -> bool:
    """Whether the group keeps ratings: on unless turned off (the backfill rates every game
    of a database that had none)."""
    row = next(db.query("select value from settings where key = ?", [SETTING]), None)
    return row is None or row["value"] != "off"


def set_enabled(db: Database, on: bool) -> None:
    """Turn ratings on (rating every game from scratch) or off (keeping nothing)."""
    with db.atomic():
        db.execute(
            "insert into settings (key, value) values (?, ?) on conflict(key) do update "
            "set value = excluded.value",
            [SETTING, "on" if on else "off"],
        )
        if on:
            recompute(db)
        else:
            _clear(db)


# -- what rating reads ---------------------------------------------------------------------
ORDER = "g.night, g.created_at, g.id"


@dataclass(frozen=True)
class RatedGame:
    """A finished game as rating reads it: its players by seat, their places, partnership."""

    game_id: int
    players: tuple[int, int, int, int]
    places: tuple[int, int, int, int]
    partnership: bool
    order: tuple[Any, ...]

    def teams(self) -> tuple[list[list[int]], list[int]]:
        """The teams openskill rates (players' ids) and their places."""
        if self.partnership:
            return (
                [[self.players[0], self.players[2]], [self.players[1], self.players[3]]],
                [self.places[0], self.places[1]],
            )
        return [[p] for p in self.players], list(self.places)


def finished_games(db: Database, game_id: int | None = None) -> Iterable[RatedGame]:
    """Every finished game in order of play (or the one *game_id*, if finished)."""
    where = "g.finished = 1" + (" and g.id = ?" if game_id is not None else "")
    rows = db.execute(
        f"select g.id, g.night, g.created_at, g.partnership, "
        f"group_concat(gp.player_id, ',') as players, group_concat(gp.rank, ',') as places "
        f"from games g join (select * from game_players order by seat) gp "
        f"on gp.game_id = g.id where {where} group by g.id order by {ORDER}",
        [game_id] if game_id is not None else [],
    )
    for gid, night, created, partnership, players, places in rows:
        yield RatedGame(
            gid,
            tuple(int(p) for p in players.split(",")),  # type: ignore[arg-type]
            tuple(int(p) for p in places.split(",")),  # type: ignore[arg-type]
            bool(partnership),
            (night, created, gid),
        )


# -- rating --------------------------------------------------------------------------------
def rate(game: RatedGame, current: dict[int, tuple[float, float]]) -> list[tuple]:
    """Rate *game* against the *current* (mu, sigma) of its players (updated in place); the
    ``rating_changes`` rows it makes."""
    teams, places = game.teams()
    before = [
        [MODEL.rating(*current.get(p, (MODEL.mu, MODEL.sigma))) for p in team] for team in teams
    ]
    after = MODEL.rate(before, ranks=[float(place) for place in places])
    rows = []
    for team, old_team, new_team in zip(teams, before, after):
        for player, old, new in zip(team, old_team, new_team):
            current[player] = (new.mu, new.sigma)
            rows.append(
                (
                    game.game_id,
                    player,
                    game.places[game.players.index(player)],
                    old.mu,
                    old.sigma,
                    new.mu,
                    new.sigma,
                )
            )
    return rows


CHANGE_COLUMNS = "(game_id, player_id, place, mu_before, sigma_before, mu_after, sigma_after)"


def _changed(db: Database) -> None:
    """Draw the ratings' version again (inside the transaction that changes them)."""
    db.execute(
        "insert into settings (key, value) values (?, lower(hex(randomblob(8)))) "
        "on conflict(key) do update set value = excluded.value",
        [VERSION],
    )


def _clear(db: Database) -> None:
    with all_at_once(db):
        db.execute("delete from rating_changes")
    db.execute("delete from ratings")
    _changed(db)


@contextmanager
def all_at_once(db: Database) -> Iterator[None]:
    """Write many rating changes, then make each player's ratings per night (``playsums``,
    m021) once, at the end, instead of once per change (one transaction: the settings row
    that says so never outlives it)."""
    held = db.execute("select 1 from settings where key = ?", [RATINGS_RECOMPUTING]).fetchone()
    if held:  # inside another: that one makes them
        yield
        return
    with db.atomic():
        db.execute("insert into settings (key, value) values (?, '1')", [RATINGS_RECOMPUTING])
        yield
        db.execute("delete from settings where key = ?", [RATINGS_RECOMPUTING])
        playsums.remake_rating_nights(db)


def recompute(db: Database) -> int:
    """Rate every finished game again from scratch, in order of play; the number rated."""
    current: dict[int, tuple[float, float]] = {}
    games: dict[int, int] = {}
    changes: list[tuple] = []
    count = 0
    for game in finished_games(db):
        changes.extend(rate(game, current))
        for player in game.players:
            games[player] = games.get(player, 0) + 1
        count += 1
    with db.atomic(), all_at_once(db):
        _clear(db)
        db.conn.executemany(
            f"insert into rating_changes {CHANGE_COLUMNS} values (?, ?, ?, ?, ?, ?, ?)", changes
        )
        db.conn.executemany(
            "insert into ratings (player_id, mu, sigma, games) values (?, ?, ?, ?)",
            [(p, mu, sigma, games[p]) for p, (mu, sigma) in current.items()],
        )
    return count


def _rated(db: Database, game_id: int) -> list[dict[str, Any]]:
    return list(
        db.query("select player_id, place from rating_changes where game_id = ?", [game_id])
    )


def _is_last(db: Database, game: RatedGame) -> bool:
    """Whether *game* comes after every rated game in the order of play: is there a rated game
    later than it? (A seek on the games' night index, so it costs the same at any size.)"""
    night, created_at, game_id = game.order
    later = db.execute(
        "select 1 from games g where g.night >= ? and (g.night, g.created_at, g.id) > (?, ?, ?) "
        "and exists (select 1 from rating_changes c where c.game_id = g.id) limit 1",
        [night, night, created_at, game_id],
    ).fetchone()
    return later is None


def after_change(db: Database, game_id: int) -> str:
    """Keep the ratings equal to a recomputation after game *game_id* changed (call inside the
    change's transaction). Says what it did: "off", "same", "incremental" or "recomputed"."""
    if not enabled(db):
        return "off"
    rated = _rated(db, game_id)
    game = next(iter(finished_games(db, game_id)), None)
    if game is None and not rated:
        return "same"  # an unfinished game, never rated
    if game is not None and rated:
        seats = {(r["player_id"], r["place"]) for r in rated}
        if seats == set(zip(game.players, game.places)):
            return "same"
    if game is not None and not rated and _is_last(db, game):
        current = {
            r["player_id"]: (r["mu"], r["sigma"])
            for r in db.query(
                f"select player_id, mu, sigma from ratings where player_id in "
                f"({', '.join('?' * 4)})",
                list(game.players),
            )
        }
        changes = rate(game, current)
        db.conn.executemany(
            f"insert into rating_changes {CHANGE_COLUMNS} values (?, ?, ?, ?, ?, ?, ?)", changes
        )
        db.conn.executemany(
            "insert into ratings (player_id, mu, sigma, games) values (?, ?, ?, 1) "
            "on conflict(player_id) do update set mu = excluded.mu, sigma = excluded.sigma, "
            "games = games + 1",
            [(p, *current[p]) for p in game.players],
        )
        _changed(db)
        return "incremental"
    recompute(db)
    return "recomputed"


def needs_recompute(db: Database, game_ids: Sequence[int]) -> bool:
    """Whether rating the new games *game_ids* (in order of play) means rating every game
    again: one of them was played before a game rated already. Only the first finished one
    needs looking at: the later ones come after it."""
    if not enabled(db):
        return False
    for game_id in game_ids:
        game = next(iter(finished_games(db, game_id)), None)
        if game is not None:
            return not _is_last(db, game)
    return False


def in_order_of_play(db: Database, game_ids: Sequence[int]) -> list[int]:
    """*game_ids* in the order games are rated."""
    if not game_ids:
        return []
    return [
        r["id"]
        for r in db.query(
            f"select g.id from games g where g.id in ({', '.join('?' * len(game_ids))}) "
            f"order by {ORDER}",
            list(game_ids),
        )
    ]


def after_players_changed(db: Database) -> str:
    """After a merge of two players (or a game deleted): rate every game again."""
    if not enabled(db):
        return "off"
    recompute(db)
    return "recomputed"


# -- reading -------------------------------------------------------------------------------
def table(db: Database) -> list[Rating]:
    """Every rated player, best first (by the rating people read, then by fewer games of
    doubt: the smaller sigma)."""
    rows = db.query(
        "select r.player_id, p.name, r.mu, r.sigma, r.games from ratings r "
        "join players p on p.id = r.player_id"
    )
    out = [Rating(r["player_id"], r["name"], r["mu"], r["sigma"], r["games"]) for r in rows]
    return sorted(out, key=lambda r: (-r.ordinal, r.sigma, r.name))


def of_players(db: Database, player_ids: Sequence[int]) -> dict[int, Rating]:
    if not player_ids:
        return {}
    rows = db.query(
        f"select r.player_id, p.name, r.mu, r.sigma, r.games from ratings r "
        f"join players p on p.id = r.player_id where r.player_id in "
        f"({', '.join('?' * len(player_ids))})",
        list(player_ids),
    )
    return {
        r["player_id"]: Rating(r["player_id"], r["name"], r["mu"], r["sigma"], r["games"])
        for r in rows
    }


def history(db: Database, player_id: int, latest: int | None = None) -> list[dict[str, Any]]:
    """The player's rating after each rated game, in order of play, with the change (with
    *latest*, only the latest that many games, read newest first off the index)."""
    sql = (
        "select c.game_id, g.night, g.title, c.place, c.mu_before, c.sigma_before, "
        "c.mu_after, c.sigma_after from rating_changes c join games g on g.id = c.game_id "
        "where c.player_id = ?"
    )
    first = 1
    if latest is None:
        rows = list(db.query(f"{sql} order by {ORDER}", [player_id]))
    else:
        rows = _latest(db, player_id, latest)
        rated = db.execute("select games from ratings where player_id = ?", [player_id]).fetchone()
        count = rated[0] if rated else 0  # ``games``: how many of their games were rated
        if len(rows) < min(latest, count):  # rated games outside their nights' sums
            newest = ", ".join(f"{column} desc" for column in ORDER.split(", "))
            rows = list(db.query(f"{sql} order by {newest} limit ?", [player_id, latest]))[::-1]
        first = count - len(rows) + 1
    out = []
    for number, r in enumerate(rows, start=first):
        before, after = (
            shown(r["mu_before"], r["sigma_before"]),
            shown(r["mu_after"], r["sigma_after"]),
        )
        out.append(
            {
                "game_id": r["game_id"],
                "night": r["night"],
                "title": r["title"],
                "place": r["place"],
                "rating": after,
                "change": after - before,
                "games": number,
            }
        )
    return out


def _latest(db: Database, player_id: int, latest: int) -> list[dict[str, Any]]:
    """The player's *latest* rated games, in order of play: only the nights that hold them
    are read (their games per night, ``playsums``, newest first), then their seats of those
    nights off the index of their results, not every rated game of theirs sorted."""
    since, played = None, 0
    nights = db.execute(
        "select night, games from player_nights where player_id = ? order by night desc",
        [player_id],
    )
    try:
        for night, games in nights:
            since, played = night, played + games
            if played >= latest:
                break
    finally:
        nights.close()
    if since is None:
        return []
    newest = ", ".join(f"{column} desc" for column in ORDER.split(", "))
    rows = list(
        db.query(
            "select c.game_id, g.night, g.title, c.place, c.mu_before, c.sigma_before, "
            "c.mu_after, c.sigma_after from game_players gp "
            "indexed by idx_game_players_player_results "
            "join rating_changes c on c.game_id = gp.game_id and c.player_id = gp.player_id "
            "join games g on g.id = gp.game_id "
            f"where gp.player_id = ? and gp.finished = 1 and gp.night >= ? "
            f"order by {newest} limit ?",
            [player_id, since, latest],
        )
    )
    return rows[::-1]


def changes_in(db: Database, game_id: int) -> dict[int, int]:
    """Each player's change of rating in game *game_id* (empty when it was not rated)."""
    return {
        r["player_id"]: shown(r["mu_after"], r["sigma_after"])
        - shown(r["mu_before"], r["sigma_before"])
        for r in db.query(
            "select player_id, mu_before, sigma_before, mu_after, "
            "sigma_after from rating_changes where game_id = ?",
            [game_id],
        )
    }


def chances(db: Database, player_ids: Sequence[int], partnership: bool = False) -> list[float]:
    """Each seat's chance of winning by the ratings (openskill's prediction); under partnership
    each seat gets its team's chance."""
    known = {p: (r.mu, r.sigma) for p, r in of_players(db, list(player_ids)).items()}
    ratings = [MODEL.rating(*known.get(p, (MODEL.mu, MODEL.sigma))) for p in player_ids]
    if partnership:
        a, b = MODEL.predict_win([[ratings[0], ratings[2]], [ratings[1], ratings[3]]])
        return [a, b, a, b]
    return list(MODEL.predict_win([[r] for r in ratings]))
