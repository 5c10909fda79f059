"""Knockout tournaments: their entrants by seed, and each round's tables, each an ordinary game
(its own phone, edit link, PIN and QR code, as a club night's tables).

The bracket itself (seeding, byes, who meets whom, who goes through) is the engine's
(``engine.bracket``); this module keeps what was decided: the entrants in seed order and, for
every table seated, its game and the entrants at it. Whether a match is over is decided in one
place, ``OVER`` (each game of a match, read by ``game_over`` and ``load``), which
``match_finished`` reads. When every match of the last round is over, ``advance`` seats the next one from the
engine's answer: in the write that ends the match (``seat_after``, inside the transaction that
saves or confirms its last deal), or on the organiser's request. Reading a bracket never seats
anything. Nothing half-made is stored: a tournament and its first round, or a round and its
games, are written in one transaction, or not at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from sqlite_utils import Database

from ..engine import HouseRules, bracket
from ..engine.errors import RuleError
from ..engine.gamefile import TITLE_LIMIT as GAME_TITLE_LIMIT
from . import boardversion, ratings, storage
from .refused import N_, Refused

#: A tournament's title leaves room in its tables' game titles for ", round 5, table 16".
TITLE_LIMIT = GAME_TITLE_LIMIT - 24
#: Each table's game is titled so (the page passes it in its language).
TABLE_TITLE = N_("%(title)s, round %(round)s, table %(table)s")
#: How the two partners of a pair are written on one line of the form.
PAIR_MARKS = ("&", "+")

#: The rules the pages state, one per format, and the tie-break.
FORMAT_RULES = {
    "top-two": N_(
        "Four players a table: the top two of each game go through; the winner of the final "
        "table takes the tournament."
    ),
    "pairings": N_(
        "Four players a table in two pairings, players 1 and 2 against each other, 3 and 4 "
        "against each other: the better of each pairing goes through; the winner of the final "
        "table takes the tournament."
    ),
    "pairs": N_(
        "Two pairs a table, partners opposite: the winning pair goes through, by the game's "
        "team result."
    ),
}
BEST_OF_RULE = N_("Each match is the best of three games: the first pair to win two goes through.")
BEST_OF_REFUSAL = N_(
    "The best of three is played by pairs: a table of four players has more than one to go through."
)
#: The title of a match's second and third game.
GAME_TITLE = N_("%(title)s, round %(round)s, table %(table)s, game %(game)s")
TIE_RULE = N_("A tie is broken by the seed: the better-seeded side goes through.")
BYE_RULE = N_("Byes go to the top seeds when the count is not a power of two.")

COUNT_REFUSALS = {
    "too_few": N_("A tournament needs at least %(least)s entrants; entered: %(count)s."),
    "too_many": N_("A tournament has at most %(most)s entrants; entered: %(count)s."),
    "odd": N_(
        "Players sit four to a table, so their count is even; entered: %(count)s. "
        "Add a player or take one out."
    ),
}


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: its totals in seat order, whether it is over (``game_over``), and
    whether it has ended but a deal still waits for the other side's confirmation."""

    game_id: int
    totals: tuple[int, ...]
    over: bool
    deal_count: int
    waiting: bool = False
    seated: tuple[int, ...] = ()  # the players at its seats, by id


@dataclass(frozen=True)
class Match:
    """One table of a round: the entrants at it (seeds), its games (one, or up to three under
    the best of three) and who went through, once it is decided (``match_finished``)."""

    round: int
    number: int
    table: bracket.Table
    games: tuple[MatchGame, ...]
    through: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return bool(self.through)

    @property
    def waiting(self) -> bool:
        """Has its game ended while a deal still waits for the other side's confirmation?"""
        return not self.finished and any(g.waiting for g in self.games)

    @property
    def game_id(self) -> int:
        """The game the table plays now (its last)."""
        return self.games[-1].game_id

    @property
    def totals(self) -> tuple[int, ...]:
        return self.games[-1].totals

    @property
    def deal_count(self) -> int:
        return self.games[-1].deal_count


@dataclass(frozen=True)
class Tournament:
    id: int
    title: str
    played_on: str
    fmt: str
    seeding: str
    rules: HouseRules
    entrants: tuple[tuple[str, ...], ...]  # by seed, 0 the best: one name, or a pair's two
    rounds: tuple[tuple[Match, ...], ...]
    best_of: int = 1
    confirm: bool = True
    #: What cannot be in its bracket (``bracket.check``): none, unless the data went wrong.
    problems: tuple[bracket.Problem, ...] = ()
    #: The round its organiser reopened: the next waits for them (``store.closing``).
    reopened: int | None = None
    #: Its version as loaded (``store.boardversion.version``): what its pages poll.
    version: str = field(default="", compare=False)

    @property
    def byes(self) -> tuple[int, ...]:
        try:
            return bracket.first_round(len(self.entrants), self.fmt).byes
        except RuleError:  # a count the bracket cannot take: ``problems`` says so
            return ()

    @property
    def champion(self) -> int | None:
        last = self.rounds[-1] if self.rounds else ()
        if len(last) == 1 and last[0].table.final and last[0].finished:
            return last[0].through[0]
        return None

    @property
    def game_ids(self) -> list[int]:
        return [g.game_id for r in self.rounds for m in r for g in m.games]

    def name(self, seed: int) -> str:
        return " & ".join(self.entrants[seed]) if 0 <= seed < len(self.entrants) else "?"

    def knocked_out(self) -> dict[int, int]:
        """Each entrant knocked out so far, and the round they went out in."""
        out: dict[int, int] = {}
        for matches in self.rounds:
            for m in matches:
                if m.finished:
                    for e in m.table.entrants:
                        if e not in m.through:
                            out[e] = m.round
        return out


def parse_entrants(lines: Sequence[str], fmt: str) -> list[tuple[str, ...]]:
    """The entrants of the form, one a line: a name, or under ``pairs`` two names joined by
    ``&`` or ``+``. Raises Refused when a line of pairs does not hold two names."""
    out: list[tuple[str, ...]] = []
    for line in (storage.clean_name(t) for t in lines):
        if not line:
            continue
        if fmt != "pairs":
            out.append((line,))
            continue
        for mark in PAIR_MARKS:
            line = line.replace(mark, "&")
        names = tuple(storage.clean_name(n) for n in line.split("&"))
        if len(names) != 2 or not all(names):
            raise Refused(
                N_("%(line)s: write a pair as two names, Aya & Bilal."), names={"line": line}
            )
        out.append(names)
    return out


def check_entrants(db: Database, entrants: Sequence[tuple[str, ...]], fmt: str) -> None:
    """Raise Refused for a player entered twice, a count the bracket cannot take, or a player
    still playing a match of another tournament (a player plays one match at a time)."""
    names = [n for e in entrants for n in e]
    keys = [storage.name_key(n) for n in names]  # "aya" and "Aya" are one player
    twice = next((n for i, n in enumerate(names) if keys[i] in keys[:i]), None)
    if twice is not None:
        raise Refused(N_("%(name)s is entered twice."), names={"name": twice})
    problem = bracket.count_problem(len(entrants), fmt)
    if problem is not None:
        raise Refused(
            COUNT_REFUSALS[problem],
            least=bracket.least(fmt),
            most=bracket.MOST,
            count=len(entrants),
        )
    busy = playing_elsewhere(db, keys)
    if busy is not None:
        raise Refused(
            N_(
                "%(name)s is still playing a match of %(tournament)s: a player plays one "
                "match at a time."
            ),
            names={"name": busy[0], "tournament": busy[1]},
        )


def playing_elsewhere(db: Database, keys: Sequence[str]) -> tuple[str, str] | None:
    """The first of the players (by name key) seated at a tournament match that is not over,
    and that tournament's title; None when none is."""
    if not keys:
        return None
    for r in db.query(
        "select p.name, t.title, tt.game_id from tournament_tables tt "
        "join tournaments t on t.id = tt.tournament_id "
        "join game_players gp on gp.game_id = tt.game_id "
        "join players p on p.id = gp.player_id "
        f"where p.name_key in ({', '.join('?' * len(keys))}) order by tt.game_id",
        list(keys),
    ):
        if not game_over(db, r["game_id"]):
            return r["name"], r["title"]
    return None


#: ``game_over`` in SQL, of the game ``g`` (the bracket's load reads every game so at once).
OVER = (
    "(g.finished and not (g.confirm and exists (select 1 from deals d where d.game_id = g.id "
    "and d.confirmed_at is null)))"
)


def game_over(db: Database, game_id: int) -> bool:
    """Is this game of a match over? Its game has ended and, when it asks for confirmation by
    the other side, no deal of it waits for one. Every decision on a match (decided or not, the
    next game of a best of three, the next round) reads ``OVER``, its SQL, here or in a
    larger query."""
    return (
        db.execute(f"select 1 from games g where g.id = ? and {OVER}", [game_id]).fetchone()
        is not None
    )


def match_finished(
    table: bracket.Table, games: Sequence[MatchGame], rules: HouseRules, best_of: int
) -> tuple[int, ...]:
    """Who went through from the match, by the engine, from the games ``game_over`` says are
    over; () while it is not decided (a game still playing, or no pair with two wins yet)."""
    if not games or not all(g.over for g in games):
        return ()
    return bracket.match_through(table, [g.totals for g in games], rules, best_of) or ()


def create(
    db: Database,
    *,
    title: str,
    played_on: str,
    entrants: Sequence[tuple[str, ...]],
    fmt: str,
    seeding: str,
    rules: HouseRules,
    seed: int = 0,
    best_of: int = 1,
    confirm: bool = True,
    table_title: str = TABLE_TITLE,
) -> int:
    """Store a tournament, its entrants in seed order and its first round (each table a new
    game titled by *table_title*, asking for confirmation by the other side with *confirm*);
    its id. Raises Refused."""
    if (fmt == "pairs") != rules.partnership:
        raise Refused(N_("Pairs play under partnership, and only pairs do."))
    if bracket.best_of_problem(fmt, best_of) is not None:
        raise Refused(BEST_OF_REFUSAL)
    check_entrants(db, entrants, fmt)
    with db.atomic():
        ids = [tuple(storage.player_id(db, n) for n in e) for e in entrants]
        rated = ratings.of_players(db, [i for e in ids for i in e])
        strength = [
            sum(rated[i].ordinal for i in e) if all(i in rated for i in e) else None for e in ids
        ]
        order = bracket.seed_order(len(entrants), seeding, seed=seed, ratings=strength)
        tournament_id = storage.new_id(
            db.table("tournaments").insert(
                {
                    "title": title,
                    "played_on": played_on,
                    "format": fmt,
                    "seeding": seeding,
                    "seed": seed,
                    "best_of": best_of,
                    "confirm": int(confirm),
                    "rules_json": json.dumps(rules.to_dict()),
                    "created_at": storage.now(),
                }
            )
        )
        db.table("tournament_entrants").insert_all(
            {
                "tournament_id": tournament_id,
                "seed": position,
                "player_id": ids[entry][0],
                "partner_id": ids[entry][1] if len(ids[entry]) > 1 else None,
                "entry_order": entry,
            }
            for position, entry in enumerate(order)
        )
        tournament = load(db, tournament_id)
        assert tournament is not None
        _store_round(db, tournament, bracket.first_round(len(entrants), fmt), table_title)
    return tournament_id


def _store_round(
    db: Database, tournament: Tournament, round_: bracket.Round, table_title: str
) -> None:
    for number, table in enumerate(round_.tables, start=1):
        _store_game(db, tournament, round_.number, number, table, 1, table_title)


def _store_game(
    db: Database,
    tournament: Tournament,
    round_number: int,
    number: int,
    table: bracket.Table,
    game_number: int,
    title: str,
) -> None:
    """Game *game_number* of a match, its seats from the entrants at its table."""
    seats = [tournament.entrants[e][partner] for e, partner in table.seats()]
    values = {"title": tournament.title, "round": round_number, "table": number}
    game_id = storage.create_game(
        db,
        title=title % {**values, "game": game_number},
        played_on=tournament.played_on,
        players=seats,
        rules=tournament.rules,
        first_king=0,
        confirm=tournament.confirm,
    )
    db.table("tournament_tables").insert(
        {
            "tournament_id": tournament.id,
            "round": round_number,
            "table_number": number,
            "game_number": game_number,
            "game_id": game_id,
            "entrants_json": json.dumps(list(table.entrants)),
            "final": int(table.final),
        }
    )


def load(db: Database, tournament_id: int) -> Tournament | None:
    row = next(db.query("select * from tournaments where id = ?", [tournament_id]), None)
    if row is None:
        return None
    rows = list(
        db.query(
            "select p.name, q.name as partner, e.player_id, e.partner_id "
            "from tournament_entrants e join players p on p.id = e.player_id "
            "left join players q on q.id = e.partner_id where e.tournament_id = ? order by e.seed",
            [tournament_id],
        )
    )
    entrants = tuple(
        (r["name"],) if r["partner"] is None else (r["name"], r["partner"]) for r in rows
    )
    who = [tuple(r[k] for k in ("player_id", "partner_id") if r[k] is not None) for r in rows]
    rules = HouseRules.from_dict(json.loads(row["rules_json"]))
    tables: dict[tuple[int, int], tuple[bracket.Table, list[MatchGame]]] = {}
    tags = []
    # One query for every game: whether it is over is ``game_over``'s test, said in SQL.
    for r in db.query(
        "select t.round, t.table_number, t.game_id, t.entrants_json, t.final, g.deal_count, "
        f"g.finished, g.version_tag, {OVER} as over, "
        "(select json_group_array(total) from (select total from game_players "
        " where game_id = t.game_id order by seat)) as totals, "
        "(select json_group_array(player_id) from (select player_id from game_players "
        " where game_id = t.game_id order by seat)) as seated "
        "from tournament_tables t join games g on g.id = t.game_id "
        "where t.tournament_id = ? order by t.round, t.table_number, t.game_number",
        [tournament_id],
    ):
        table = bracket.Table(
            row["format"], tuple(json.loads(r["entrants_json"])), bool(r["final"])
        )
        over = bool(r["over"])
        tags.append((r["game_id"], r["version_tag"]))
        game = MatchGame(
            r["game_id"],
            tuple(json.loads(r["totals"])),
            over,
            r["deal_count"],
            waiting=bool(r["finished"]) and not over,
            seated=tuple(json.loads(r["seated"])),
        )
        tables.setdefault((r["round"], r["table_number"]), (table, []))[1].append(game)
    rounds: dict[int, list[Match]] = {}
    for (round_number, number), (table, games) in tables.items():
        through = match_finished(table, games, rules, row["best_of"])
        rounds.setdefault(round_number, []).append(
            Match(round_number, number, table, tuple(games), through)
        )
    return Tournament(
        row["id"],
        row["title"],
        row["played_on"],
        row["format"],
        row["seeding"],
        rules,
        entrants,
        tuple(tuple(rounds[n]) for n in sorted(rounds)),
        row["best_of"],
        bool(row["confirm"]),
        tuple(
            bracket.check(
                len(entrants),
                row["format"],
                [
                    [
                        bracket.Seated(m.table, m.through, tuple(g.seated for g in m.games))
                        for m in r
                    ]
                    for _, r in sorted(rounds.items())
                ],
                who,
            )
        ),
        row.get("reopened"),
        boardversion.tag_of(tournament_id, tags),
    )


def advance(
    db: Database,
    tournament_id: int,
    *,
    table_title: str = TABLE_TITLE,
    game_title: str = GAME_TITLE,
) -> int | None:
    """Seat the next game of a best of three still undecided after its last game, and the
    next round when every match of the last one is decided (the winners go forward by the
    engine's bracket); the round's number, or None when there is nothing to seat yet (or the
    final has been played). Running it twice seats a round once."""
    with db.atomic():
        tournament = load(db, tournament_id)
        if tournament is None or not due(tournament):
            return None
        last = tournament.rounds[-1]
        for m in last:  # a best of three not yet decided plays its next game
            if not m.finished and all(g.over for g in m.games):
                _store_game(
                    db, tournament, m.round, m.number, m.table, len(m.games) + 1, game_title
                )
        if not all(m.finished for m in last) or tournament.reopened == last[0].round:
            return None
        done = bracket.Round(
            last[0].round,
            tuple(m.table for m in last),
            tournament.byes if last[0].round == 1 else (),
        )
        following = bracket.next_round(done, [e for m in last for e in m.through])
        if following is None:
            return None
        _store_round(db, tournament, following, table_title)
        return following.number


def seat_after(db: Database, game_id: int, **titles: str) -> int | None:
    """After a write to game *game_id* (inside its transaction): when the game is a match's
    table and the write decided what is due, seat it (``advance``, with its *titles*); the
    round seated, or None. One query by the game's id for a game of no tournament."""
    row = db.execute(
        f"select t.tournament_id from tournament_tables t join games g on g.id = t.game_id "
        f"where t.game_id = ? and {OVER}",
        [game_id],
    ).fetchone()
    if row is None:  # no match's game, or one not over: the write decided nothing
        return None
    return advance(db, row[0], **titles)


def due(tournament: Tournament | None) -> bool:
    """Is there a game or a round to seat: a best of three undecided after its last game, or
    every match of the last round decided before the final? Never while the bracket holds
    something that cannot be (``problems``): the pages say what, and nothing is seated on it."""
    if tournament is None or not tournament.rounds or tournament.problems:
        return False
    last = tournament.rounds[-1]
    if any(not m.finished and all(g.over for g in m.games) for m in last):
        return True
    return (
        all(m.finished for m in last)
        and not last[0].table.final
        and tournament.reopened != last[0].round
    )


def tournament_key(db: Database, tournament_id: int) -> str | None:
    """The tournament's secret key, which binds a phone's right to run it (``web.rights``)."""
    row = next(db.query("select edit_key from tournaments where id = ?", [tournament_id]), None)
    return None if row is None else row["edit_key"]


def list_tournaments(db: Database, limit: int = 20) -> list[dict[str, Any]]:
    return list(
        db.query(
            "select id, title, played_on from tournaments order by played_on desc, id desc limit ?",
            [limit],
        )
    )
