"""Club nights: 8 to 32 players at two to eight tables, round after round.

Each table of a round is an ordinary game (its own phone, edit link, PIN and QR code); the club
night keeps who plays, its rounds, which game each table plays and who sits a round out. The
night's standings add up its games (``night_standings``); a new round is seated by them
(``store.seating``). Nothing half-made is stored: a night and its first round, or a round and its
games, are written in one transaction, or not at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from sqlite_utils import Database

from ..engine import HouseRules
from ..engine.gamefile import TITLE_LIMIT as GAME_TITLE_LIMIT
from . import seating, storage
from .refused import N_, Refused

MAX_ROUNDS = 12
#: A club night's title leaves room in its tables' game titles for ", round 12, table 8".
TITLE_LIMIT = GAME_TITLE_LIMIT - 24


@dataclass(frozen=True)
class Table:
    number: int
    game_id: int
    players: tuple[str, str, str, str]
    deal_count: int
    finished: bool


@dataclass(frozen=True)
class ClubRound:
    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...]

    @property
    def finished(self) -> bool:
        return all(t.finished for t in self.tables)


@dataclass(frozen=True)
class ClubNight:
    id: int
    title: str
    night: str
    rounds_planned: int
    partnership: bool
    rules: HouseRules
    players: tuple[str, ...]
    rounds: tuple[ClubRound, ...]

    @property
    def game_ids(self) -> list[int]:
        return [t.game_id for r in self.rounds for t in r.tables]

    @property
    def current(self) -> ClubRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def is_over(self) -> bool:
        return len(self.rounds) >= self.rounds_planned and all(r.finished for r in self.rounds)


#: Each table's game is titled so (the page that seats a round passes it in its language).
TABLE_TITLE = N_("%(title)s, round %(round)s, table %(table)s")


def create(
    db: Database,
    *,
    title: str,
    night: str,
    names: Sequence[str],
    rounds: int,
    rules: HouseRules,
    seed: int | None,
    table_title: str = TABLE_TITLE,
) -> int:
    """Store a club night and seat its first round (at random from *seed*, or as entered when
    *seed* is None), each table a new game titled by *table_title*; its id. Raises Refused."""
    names = [n for n in (storage.clean_name(n) for n in names) if n]
    keys = [storage.name_key(n) for n in names]  # "aya" and "Aya" are one player
    twice = next((n for i, n in enumerate(names) if keys[i] in keys[:i]), None)
    if twice is not None:
        raise Refused(N_("%(name)s is entered twice."), names={"name": twice})
    seating.check_players(names)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise Refused(N_("A club night has from 1 to %(most)s rounds."), most=MAX_ROUNDS)
    first = seating.first_round(names, seed=seed, partnership=rules.partnership)
    with db.atomic():
        club_id = storage.new_id(
            db.table("club_nights").insert(
                {
                    "title": title,
                    "night": night,
                    "rounds_planned": rounds,
                    "rules_json": json.dumps(rules.to_dict()),
                    "seed": seed,
                    "created_at": storage.now(),
                }
            )
        )
        db.table("club_night_players").insert_all(
            {
                "club_night_id": club_id,
                "player_id": storage.player_id(db, name),
                "entry_order": order,
            }
            for order, name in enumerate(names)
        )
        _store_round(db, club_id, 1, first, title, night, rules, table_title)
    return club_id


def _store_round(
    db: Database,
    club_id: int,
    number: int,
    round_: seating.Round,
    title: str,
    night: str,
    rules: HouseRules,
    table_title: str,
) -> None:
    for table_number, four in enumerate(round_.tables, start=1):
        game_id = storage.create_game(
            db,
            title=table_title % {"title": title, "round": number, "table": table_number},
            played_on=night,
            players=list(four),  # type: ignore[arg-type]
            rules=rules,
            first_king=0,
        )
        db.table("club_tables").insert(
            {
                "club_night_id": club_id,
                "round": number,
                "table_number": table_number,
                "game_id": game_id,
            }
        )
    for name in round_.sitting_out:
        db.table("club_sitting_out").insert(
            {
                "club_night_id": club_id,
                "round": number,
                "player_id": storage.player_id(db, str(name)),
            }
        )


def load(db: Database, club_id: int) -> ClubNight | None:
    row = next(db.query("select * from club_nights where id = ?", [club_id]), None)
    if row is None:
        return None
    players = tuple(
        r["name"]
        for r in db.query(
            "select p.name from club_night_players c join players p on p.id = c.player_id "
            "where c.club_night_id = ? order by c.entry_order",
            [club_id],
        )
    )
    tables: dict[int, list[Table]] = {}
    for r in db.query(
        "select t.round, t.table_number, t.game_id, g.deal_count, g.finished, "
        "(select json_group_array(name) from (select p.name from game_players gp "
        " join players p on p.id = gp.player_id where gp.game_id = t.game_id "
        " order by gp.seat)) as names from club_tables t join games g on g.id = t.game_id "
        "where t.club_night_id = ? order by t.round, t.table_number",
        [club_id],
    ):
        tables.setdefault(r["round"], []).append(
            Table(
                r["table_number"],
                r["game_id"],
                tuple(json.loads(r["names"])),
                r["deal_count"],
                bool(r["finished"]),
            )
        )
    out = {r: [] for r in tables}  # type: dict[int, list[str]]
    for r in db.query(
        "select s.round, p.name from club_sitting_out s join players p "
        "on p.id = s.player_id where s.club_night_id = ? order by s.rowid",
        [club_id],
    ):
        out.setdefault(r["round"], []).append(r["name"])
    rules = HouseRules.from_dict(json.loads(row["rules_json"]))
    rounds = tuple(
        ClubRound(n, tuple(tables.get(n, [])), tuple(out.get(n, [])))
        for n in sorted(set(tables) | set(out))
    )
    return ClubNight(
        row["id"],
        row["title"],
        row["night"],
        row["rounds_planned"],
        rules.partnership,
        rules,
        players,
        rounds,
    )


def next_round(
    db: Database, club_id: int, *, even_if_playing: bool = False, table_title: str = TABLE_TITLE
) -> int:
    """Seat and start the next round by the night's standings; its number. Raises Refused when
    the night has all its rounds, or while tables of the last round are still playing (unless
    *even_if_playing*)."""
    with db.atomic():
        club = load(db, club_id)
        if club is None:
            raise Refused(N_("There is no such club night."))
        if len(club.rounds) >= club.rounds_planned:
            raise Refused(
                N_("Every round of this night has been seated (%(count)s)."),
                count=club.rounds_planned,
            )
        playing = [t for t in club.current.tables if not t.finished] if club.current else []
        if playing and not even_if_playing:
            raise Refused(
                N_(
                    "Tables still playing round %(round)s: %(tables)s. Start the "
                    "next round anyway only if they have stopped."
                ),
                round=club.current.number,  # type: ignore[union-attr]
                tables=", ".join(str(t.number) for t in playing),
            )
        history = seating.History()
        for r in club.rounds:
            history.add(
                seating.Round(tuple(t.players for t in r.tables), r.sitting_out), club.partnership
            )
        ranked = [row["name"] for row in night_standings(db, club.game_ids, players=club.players)]
        number = len(club.rounds) + 1
        _store_round(
            db,
            club_id,
            number,
            seating.seat_round(ranked, history, partnership=club.partnership),
            club.title,
            club.night,
            club.rules,
            table_title,
        )
    return number


def club_key(db: Database, club_id: int) -> str | None:
    """The club night's secret key: its organiser link, and what binds a phone's right to run
    the night to this very night (``web.rights``). None when there is no such night."""
    row = next(db.query("select edit_key from club_nights where id = ?", [club_id]), None)
    return None if row is None else row["edit_key"]


def undo_round(db: Database, club_id: int, number: int) -> None:
    """Take back round *number*, the last seated, while none of its tables has a deal: its
    tables' games (not yet begun) and who sat it out are removed. Raises Refused."""
    with db.atomic():
        club = load(db, club_id)
        if club is None:
            raise Refused(N_("There is no such club night."))
        if club.current is None or club.current.number != number:
            raise Refused(N_("Only the last round seated can be taken back."))
        if number == 1:
            raise Refused(N_("The first round is seated with the night: it cannot be taken back."))
        ids = [t.game_id for t in club.current.tables]
        played = {
            r["game_id"]
            for r in db.query(
                f"select distinct game_id from deals where game_id in ({', '.join('?' * len(ids))})",
                ids,
            )
        }
        begun = [t.number for t in club.current.tables if t.game_id in played]
        if begun:
            raise Refused(
                N_(
                    "Deals are saved in round %(round)s (tables %(tables)s): it can "
                    "no longer be taken back."
                ),
                round=number,
                tables=", ".join(str(t) for t in begun),
            )
        for table in ("club_tables", "club_sitting_out"):
            db.execute(
                f"delete from {table} where club_night_id = ? and round = ?", [club_id, number]
            )
        for game_id in ids:  # never rated: no deal, so the ratings stay as they are
            storage.delete_game(db, game_id, rate=False)


def list_nights(db: Database, limit: int = 20) -> list[dict[str, Any]]:
    return list(
        db.query(
            "select id, title, night, rounds_planned, (select count(distinct round) "
            "from club_tables t where t.club_night_id = c.id) as rounds "
            "from club_nights c order by night desc, id desc limit ?",
            [limit],
        )
    )


# -- standings -----------------------------------------------------------------------------
#: The rule the pages state: most wins, then the better average place, then the most points.
CHAMPION_RULE = N_("Most wins, then the better average place, then the higher total.")


def _blank_row(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "games": 0,
        "finished": 0,
        "wins": 0,
        "places": [0, 0, 0, 0],
        "points": 0,
        "average_place": None,
    }


def night_standings(
    db: Database,
    game_ids: Sequence[int] | None = None,
    *,
    players: Sequence[str] = (),
    night: str | None = None,
) -> list[dict[str, Any]]:
    """Every player of *game_ids* (or of every game of *night*; and of *players*, with no game
    yet), best first by CHAMPION_RULE: games, finished games, wins, places (1st to 4th), total
    points. Places and wins count finished games only; points count every deal played. Added
    up by SQLite, a row per player: the memory does not grow with the games of the night."""
    rows = {name: _blank_row(name) for name in players}
    params: list[object] = []
    if night is not None:
        where, params = "g.night = ?", [night]
    elif game_ids:
        where, params = f"gp.game_id in ({', '.join('?' * len(game_ids))})", list(game_ids)
    else:
        where = ""
    if where:
        for r in db.query(
            f"select p.name, count(*) as games, sum(g.finished) as finished, "
            f"sum(coalesce(gp.total, 0)) as points, "
            f"sum(g.finished and gp.rank = 1) as p1, sum(g.finished and gp.rank = 2) as p2, "
            f"sum(g.finished and gp.rank = 3) as p3, sum(g.finished and gp.rank >= 4) as p4 "
            f"from game_players gp join games g on g.id = gp.game_id "
            f"join players p on p.id = gp.player_id where {where} group by p.id",
            params,
        ):
            row = rows.setdefault(r["name"], _blank_row(r["name"]))
            row.update(
                games=r["games"],
                finished=r["finished"],
                points=r["points"],
                wins=r["p1"],
                places=[r["p1"], r["p2"], r["p3"], r["p4"]],
            )
    for row in rows.values():
        if row["finished"]:
            row["average_place"] = (
                sum((i + 1) * n for i, n in enumerate(row["places"])) / row["finished"]
            )
    order = sorted(
        rows.values(),
        key=lambda r: (
            -r["wins"],
            r["average_place"] if r["average_place"] is not None else 5,
            -r["points"],
            r["name"],
        ),
    )
    for place, row in enumerate(order, start=1):
        row["place"] = place
    return order


def night_game_count(db: Database, night: str) -> int:
    return next(db.query("select count(*) as n from games where night = ?", [night]))["n"]


def night_game_ids(db: Database, night: str) -> list[int]:
    return [r["id"] for r in db.query("select id from games where night = ? order by id", [night])]
