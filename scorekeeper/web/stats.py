"""Statistics read by SQL from the stored summaries and facts; nothing here scores a game.

Every figure counts finished games only, within the filters (a date range over the game's night,
and optionally a house-rule preset). Final scores and ranks come from ``game_players``, which
storage rewrites on every write; per-contract figures from ``seat_contract_stats`` (see
:mod:`facts`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from ..engine import ALL_CONTRACTS, PRESETS, Contract

PRESET_CHOICES = (*PRESETS, "custom")
SORTS = {
    "wins": "wins desc, win_rate desc, average desc",
    "win_rate": "win_rate desc, wins desc, average desc",
    "average": "average desc, wins desc",
    "best": "best desc, average desc",
    "games": "games desc, wins desc",
}
RECENT = 5


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

    def where(self, alias: str = "g") -> tuple[str, list[Any]]:
        """The SQL condition on a ``games`` row: finished, and inside the filters."""
        parts, params = [f"{alias}.finished = 1"], []
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
    sql = (f"with mine as (select gp.game_id, gp.seat, gp.total, gp.rank, g.night "
           f"from game_players gp join games g on g.id = gp.game_id "
           f"where gp.player_id = ? and {where}) ")
    return sql, [pid, *params]


def player_summary(db: Database, pid: int, filters: Filters) -> dict[str, Any]:
    """Games played, wins, average, best and worst final score."""
    cte, params = _mine(pid, filters)
    row = next(db.query(cte + "select count(*) as games, coalesce(sum(rank = 1), 0) as wins, "
                        "avg(total) as average, max(total) as best, min(total) as worst "
                        "from mine", params))
    row["in_progress"] = next(db.query(
        "select count(*) as n from game_players gp join games g on g.id = gp.game_id "
        "where gp.player_id = ? and g.finished = 0", [pid]))["n"]
    return row


def recent_results(db: Database, pid: int, filters: Filters, limit: int = 10,
                   ) -> list[dict[str, Any]]:
    """The player's last finished games in the filters, the latest first."""
    cte, params = _mine(pid, filters)
    return list(db.query(cte + "select m.game_id, m.night, m.rank, m.total, g.title from mine m "
                         "join games g on g.id = m.game_id order by m.night desc, m.game_id desc "
                         "limit ?", [*params, limit]))


def win_run(results: list[dict[str, Any]]) -> int:
    """How many of the latest games in a row the player won (results latest first)."""
    run = 0
    for row in results:
        if row["rank"] != 1:
            break
        run += 1
    return run


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
    cte, params = _mine(pid, filters)
    sql = cte + """select s.contract, s.is_king, count(*) as deals, sum(s.points) as points,
        sum(s.took_kh) as took_kh, sum(s.doubles_made) as made, sum(s.doubles_passed) as passed,
        sum(s.doubles_back) as back, sum(s.took_doubled) as took_doubled,
        sum(s.trex_place = 1) as p1, sum(s.trex_place = 2) as p2, sum(s.trex_place = 3) as p3,
        sum(s.trex_place = 4) as p4
        from mine m join seat_contract_stats s on s.game_id = m.game_id and s.seat = m.seat
        group by s.contract, s.is_king"""
    lines = {c: ContractLine(c) for c in ALL_CONTRACTS}
    out = PlayStats(list(lines.values()))
    empty = {"made": 0, "passed": 0, "back": 0, "took_doubled": 0}
    out.doubles = {"kh": dict(empty), "queens": dict(empty)}
    for row in db.query(sql, params):
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


def head_to_head(db: Database, pid: int, filters: Filters) -> list[dict[str, Any]]:
    """Against each other player: games together, who finished ahead, average scores."""
    cte, params = _mine(pid, filters)
    sql = cte + """select o.player_id as id, p.name, count(*) as games,
        sum(m.rank < o.rank) as ahead, sum(m.rank > o.rank) as behind,
        sum(m.rank = o.rank) as level, avg(m.total) as my_average,
        avg(o.total) as their_average
        from mine m join game_players o on o.game_id = m.game_id and o.seat != m.seat
        join players p on p.id = o.player_id
        group by o.player_id order by games desc, p.name_key"""
    return list(db.query(sql, params))


def partners(db: Database, pid: int, filters: Filters) -> list[dict[str, Any]]:
    """Partnership games with each partner: won, level, lost, the team's average total."""
    cte, params = _mine(pid, filters)
    sql = cte + """select o.player_id as id, p.name, count(*) as games,
        sum(g.team_result = case m.seat % 2 when 0 then '0+2' else '1+3' end) as won,
        sum(g.team_result = 'tie') as level,
        avg(m.total + o.total) as team_average
        from mine m join games g on g.id = m.game_id and g.partnership = 1
        join game_players o on o.game_id = m.game_id and o.seat = (m.seat + 2) % 4
        join players p on p.id = o.player_id
        group by o.player_id order by games desc, p.name_key"""
    rows = list(db.query(sql, params))
    for row in rows:
        row["lost"] = row["games"] - row["won"] - row["level"]
    return rows


def leaderboard(db: Database, filters: Filters, sort: str = "wins") -> list[dict[str, Any]]:
    """Every player with a finished game in the filters, with their last few ranks."""
    where, params = filters.where()
    order = SORTS.get(sort, SORTS["wins"])
    sql = f"""select p.id, p.name, count(*) as games, sum(gp.rank = 1) as wins,
        1.0 * sum(gp.rank = 1) / count(*) as win_rate, avg(gp.total) as average,
        max(gp.total) as best
        from game_players gp join games g on g.id = gp.game_id
        join players p on p.id = gp.player_id
        where {where} group by p.id order by {order}, p.name_key"""
    rows = list(db.query(sql, params))
    extra: dict[int, dict[str, Any]] = {}
    for row in db.query(f"""select player_id,
            coalesce(min(case when rank != 1 then n end) - 1, count(*)) as run,
            group_concat(case when n <= ? then n || ':' || rank end) as recent
            from (select gp.player_id, gp.rank, row_number() over (
                      partition by gp.player_id order by g.night desc, g.id desc) as n
                  from game_players gp join games g on g.id = gp.game_id where {where})
            group by player_id""", [RECENT, *params]):
        pairs = sorted(tuple(map(int, p.split(":"))) for p in (row["recent"] or "").split(",") if p)
        extra[row["player_id"]] = {"run": row["run"], "recent": [rank for _, rank in pairs]}
    for row in rows:
        row.update(extra.get(row["id"], {"run": 0, "recent": []}))
    return rows


def roster(db: Database) -> list[dict[str, Any]]:
    """Everyone who has played (or been named in a game), by name."""
    sql = """select p.id, p.name, count(g.id) as games, sum(g.finished) as finished,
        max(g.night) as last_night
        from players p left join game_players gp on gp.player_id = p.id
        left join games g on g.id = gp.game_id
        group by p.id order by p.name_key"""
    return list(db.query(sql))


def player(db: Database, pid: int) -> dict[str, Any] | None:
    return next(db.query("select * from players where id = ?", [pid]), None)
