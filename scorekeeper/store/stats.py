"""Statistics read by SQL from the stored summaries and facts; nothing here scores a game.

Every figure counts finished games only, within the filters (a date range over the game's night,
and optionally a house-rule preset). Final scores and ranks come from ``game_players``, which
storage rewrites on every write, together with the game's night, preset and finished flag (see
:mod:`facts`); per-contract figures from ``seat_contract_stats``. The queries read the covering
indexes of migration m002, so their cost follows the number of rows they add up.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from ..engine import ALL_CONTRACTS, PRESETS, Contract
from . import playsums, ratings

PRESET_CHOICES = (*PRESETS, "custom")
SORTS = {
    # the rating: established players first, then the provisional ones (fewer than
    # ratings.PROVISIONAL_GAMES games), each by openskill's ordinal; unrated players last
    "rating": f"(r.games is null), (r.games < {ratings.PROVISIONAL_GAMES}), "
    f"(r.mu - 3 * r.sigma) desc, r.sigma, wins desc",
    "wins": "wins desc, win_rate desc, average desc",
    "win_rate": "win_rate desc, wins desc, average desc",
    "average": "average desc, wins desc",
    "best": "best desc, average desc",
    "games": "a.games desc, wins desc",  # a.games: the ratings have games of their own
}
RECENT = 5
#: A player's seats are read off the index of their results, in order of nights: with the
#: index of their totals beside it (m021), SQLite may otherwise take that one and sort.
BY_PLAYER = "indexed by idx_game_players_player_results"


def parse_date(value: str | None) -> str | None:
    """An ISO date from a query string, or None; anything else raises ValueError."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    dt.date.fromisoformat(value)
    if len(value) != 10:
        raise ValueError(value)
    return value


@dataclass(frozen=True)
class Filters:
    start: str | None = None  # first night counted, ISO date
    end: str | None = None  # last night counted
    preset: str | None = None  # one of PRESET_CHOICES, or None for any rules

    def where(self, alias: str = "gp") -> tuple[str, list[Any]]:
        """The SQL condition on a ``game_players`` row: finished, and inside the filters."""
        inside, params = self.nights(alias)
        return f"{alias}.finished = 1 and {inside}", params

    def nights(self, alias: str) -> tuple[str, list[Any]]:
        """The SQL condition on a row's ``night`` and ``preset``: inside the filters."""
        parts, params = ["1 = 1"], []
        if self.start:
            parts.append(f"{alias}.night >= ?")
            params.append(self.start)
        if self.end:
            parts.append(f"{alias}.night <= ?")
            params.append(self.end)
        if self.preset:
            parts.append(f"{alias}.preset = ?")
            params.append(self.preset)
        return " and ".join(parts), params

    def args(self) -> dict[str, str]:
        """The filters as query-string arguments, for links that keep them."""
        out = {"from": self.start or "", "to": self.end or "", "preset": self.preset or ""}
        return {k: v for k, v in out.items() if v}


def _mine(pid: int, filters: Filters) -> tuple[str, list[Any]]:
    """A CTE of the player's finished games in the filters: game, seat, total, rank."""
    where, params = filters.where()
    sql = (
        f"with mine as (select gp.game_id, gp.seat, gp.total, gp.rank, gp.night "
        f"from game_players gp {BY_PLAYER} where gp.player_id = ? and {where}) "
    )
    return sql, [pid, *params]


def player_summary(db: Database, pid: int, filters: Filters) -> dict[str, Any]:
    """Games played, wins, average, best and worst final score (over every night, read off
    the player's sums and the index of their totals)."""
    cte, params = _mine(pid, filters)
    row = None if filters != Filters() else over_all(db, pid)
    row = row or next(
        db.query(
            cte + "select count(*) as games, coalesce(sum(rank = 1), 0) as wins, "
            "avg(total) as average, max(total) as best, min(total) as worst "
            "from mine",
            params,
        )
    )
    row["in_progress"] = next(
        db.query(
            "select count(*) as n from game_players where player_id = ? and finished = 0", [pid]
        )
    )["n"]
    return row


def over_all(db: Database, pid: int) -> dict[str, Any] | None:
    """The player's games, wins, average, best and worst over their whole record, off their
    sums (``player_totals``) and the index of their totals; None without a finished game."""
    row = db.execute(
        "select t.games, t.p1, 1.0 * t.points / t.games, "
        "(select max(total) from game_players where player_id = t.player_id and finished = 1), "
        "(select min(total) from game_players where player_id = t.player_id and finished = 1) "
        "from player_totals t where t.player_id = ?",
        [pid],
    ).fetchone()
    if row is None:
        return None
    return dict(zip(("games", "wins", "average", "best", "worst"), row))


@dataclass
class Form:
    """A player's latest finished games in the filters (latest first) and their current run of
    wins, counted back from the latest game."""

    recent: list[dict[str, Any]]
    run: int


def recent_form(db: Database, pid: int, filters: Filters, count: int = RECENT) -> Form:
    """Reads the player's games newest first off the index and stops as soon as it knows both
    the last *count* games and the length of the current run."""
    where, params = filters.where()
    cursor = db.execute(
        f"select gp.game_id, gp.night, gp.rank, gp.total from game_players gp {BY_PLAYER} "
        f"where gp.player_id = ? and {where} order by gp.night desc, gp.game_id desc",
        [pid, *params],
    )
    recent: list[dict[str, Any]] = []
    run, running = 0, True
    try:
        for game_id, night, rank, total in cursor:
            if len(recent) < count:
                recent.append({"game_id": game_id, "night": night, "rank": rank, "total": total})
            if running and rank == 1:
                run += 1
            else:
                running = False
            if not running and len(recent) >= count:
                break
    finally:
        cursor.close()
    return Form(recent, run)


@dataclass
class ContractLine:
    contract: Contract
    king_deals: int = 0
    king_points: int = 0
    other_deals: int = 0
    other_points: int = 0

    @property
    def king_average(self) -> float | None:
        return self.king_points / self.king_deals if self.king_deals else None

    @property
    def other_average(self) -> float | None:
        return self.other_points / self.other_deals if self.other_deals else None


@dataclass
class PlayStats:
    """How a player plays each contract, over their finished games in the filters."""

    contracts: list[ContractLine]
    kh_deals: int = 0
    kh_taken: int = 0
    doubles: dict[str, dict[str, int]] = field(default_factory=dict)  # "kh" / "queens"
    trex_places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    trex_places_king: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def trex_deals(self) -> int:
        return sum(self.trex_places)

    @property
    def trex_average_place(self) -> float | None:
        n = self.trex_deals
        return sum((i + 1) * c for i, c in enumerate(self.trex_places)) / n if n else None


def play_stats(db: Database, pid: int, filters: Filters) -> PlayStats:
    """Read off the sums kept per night (``playsums``): a row per night and contract, not one
    per deal, so the page does not grow with the player's record as fast as it does."""
    where, params = filters.nights("n")
    table = playsums.TABLE if filters.start or filters.end else playsums.OVER_ALL
    lines = {c: ContractLine(c) for c in ALL_CONTRACTS}
    out = PlayStats(list(lines.values()))
    empty = {"made": 0, "passed": 0, "back": 0, "took_doubled": 0}
    out.doubles = {"kh": dict(empty), "queens": dict(empty)}
    for row in playsums.by_contract(db, pid, where, params, table=table):
        contract = Contract(row["contract"])
        line = lines[contract]
        if row["is_king"]:
            line.king_deals, line.king_points = row["deals"], row["points"]
        else:
            line.other_deals, line.other_points = row["deals"], row["points"]
        if contract is Contract.KING_OF_HEARTS:
            out.kh_deals += row["deals"]
            out.kh_taken += row["took_kh"] or 0
        if contract in (Contract.KING_OF_HEARTS, Contract.QUEENS):
            box = out.doubles["kh" if contract is Contract.KING_OF_HEARTS else "queens"]
            for key in empty:
                box[key] += row[key] or 0
        if contract is Contract.TREX:
            places = [row[f"p{i}"] or 0 for i in range(1, 5)]
            out.trex_places = [a + b for a, b in zip(out.trex_places, places)]
            if row["is_king"]:
                out.trex_places_king = places
    return out


def _pairs(filters: Filters) -> tuple[str, str, list[Any]]:
    """The table of pair sums the filters read (over every night without a date range, else
    per night: ``playsums``) and the condition on its rows ``n``."""
    if filters == Filters():  # the whole record: a row per other player
        return "player_rivals", "1 = 1", []
    table = "player_pair_nights" if filters.start or filters.end else "player_pairs"
    return (table, *filters.nights("n"))


@dataclass
class Others:
    """The other players a player played with in the filters, each added up once (a row per
    other player of the pair sums, ``playsums``): against them (:attr:`rivals`, most games
    first) and with them as partner (:attr:`partners`)."""

    rivals: list[dict[str, Any]]
    partners: list[dict[str, Any]]


RIVAL_KEYS = ("id", "name", "games", "ahead", "behind", "level", "my_average", "their_average")


def others(db: Database, pid: int, filters: Filters) -> Others:
    """Every other player's head-to-head and partnership figures, in one statement."""
    table, where, params = _pairs(filters)
    sql = f"""select n.other_id as id, p.name, p.name_key, sum(n.games) as games,
        sum(n.ahead) as ahead, sum(n.behind) as behind, sum(n.level) as level,
        1.0 * sum(n.my_points) / sum(n.games) as my_average,
        1.0 * sum(n.their_points) / sum(n.games) as their_average,
        sum(n.team_games) as team_games, sum(n.team_won) as won,
        sum(n.team_level) as team_level, sum(n.team_points) as team_points
        from {table} n join players p on p.id = n.other_id
        where n.player_id = ? and {where} group by n.other_id"""
    # tuples, not a dict per row: a long-standing member has played with hundreds of players
    rows = db.execute(sql, [pid, *params]).fetchall()
    rivals = [
        dict(zip(RIVAL_KEYS, (r[0], r[1], *r[3:9])))
        for r in sorted(rows, key=lambda r: (-r[3], r[2]))
    ]
    partners = [
        {
            "id": r[0],
            "name": r[1],
            "games": r[9],
            "won": r[10],
            "level": r[11],
            "team_average": r[12] / r[9],
            "lost": r[9] - r[10] - r[11],
        }
        for r in sorted((r for r in rows if r[9]), key=lambda r: (-r[9], r[2]))
    ]
    return Others(rivals, partners)


def head_to_head(db: Database, pid: int, filters: Filters) -> list[dict[str, Any]]:
    """Against each other player: games together, who finished ahead, average scores."""
    return others(db, pid, filters).rivals


def partners(db: Database, pid: int, filters: Filters) -> list[dict[str, Any]]:
    """Partnership games with each partner: won, level, lost, the team's average total."""
    return others(db, pid, filters).partners


def leaderboard_count(db: Database, filters: Filters) -> int:
    """How many players the leaderboard of the filters lists."""
    if filters == Filters():
        return db.execute("select count(*) from player_totals").fetchone()[0]
    where, params = filters.where()
    sql = f"select count(distinct gp.player_id) from game_players gp where {where}"
    return db.execute(sql, params).fetchone()[0]


def leaderboard(
    db: Database, filters: Filters, sort: str = "wins", *, offset: int = 0, limit: int = -1
) -> list[dict[str, Any]]:
    """Every player with a finished game in the filters, with their last few ranks; *limit*
    of them from *offset* (a page: only theirs are read game by game)."""
    where, params = filters.where()
    order = SORTS.get(sort, SORTS["wins"])
    # Without a date range the query adds up every finished seat: read in player order off the
    # player index, they need no sorting for the grouping (half the time at 1,000 games).
    index = "" if filters.start or filters.end else BY_PLAYER
    added_up = f"""select gp.player_id, count(*) as games, sum(gp.rank = 1) as wins,
        avg(gp.total) as average, max(gp.total) as best
        from game_players gp {index} where {where} group by gp.player_id"""
    if filters == Filters():  # the whole record: each player's sums (``player_totals``)
        added_up = """select t.player_id, t.games, t.p1 as wins,
            1.0 * t.points / t.games as average, (select max(total) from game_players
            where player_id = t.player_id and finished = 1) as best from player_totals t"""
    sql = f"""select p.id, p.name, a.games, a.wins, 1.0 * a.wins / a.games as win_rate,
        a.average, a.best, r.mu, r.sigma, r.games as rated_games
        from ({added_up}) a
        join players p on p.id = a.player_id left join ratings r on r.player_id = p.id
        order by {order}, p.name_key limit ? offset ?"""
    rows = list(db.query(sql, [*params, limit, offset]))
    for row in rows:
        row["rating"] = None if row["mu"] is None else ratings.shown(row["mu"], row["sigma"])
        row["provisional"] = (row["rated_games"] or 0) < ratings.PROVISIONAL_GAMES
        form = recent_form(db, row["id"], filters)
        row["recent"] = [r["rank"] for r in form.recent]
        row["run"] = form.run
    return rows


def roster(db: Database, *, offset: int = 0, limit: int = -1) -> list[dict[str, Any]]:
    """Everyone who has played (or been named in a game), by name; *limit* of them from
    *offset* (a page: the players are taken off the name index first, then only theirs are
    added up)."""
    sql = """select p.id, p.name, count(gp.game_id) as games, sum(gp.finished) as finished,
        max(gp.night) as last_night
        from (select id, name, name_key from players order by name_key limit ? offset ?) p
        left join game_players gp on gp.player_id = p.id
        group by p.id order by p.name_key"""
    return list(db.query(sql, [limit, offset]))


def player_count(db: Database) -> int:
    return next(db.query("select count(*) as n from players"))["n"]


def player(db: Database, pid: int) -> dict[str, Any] | None:
    return next(db.query("select * from players where id = ?", [pid]), None)
