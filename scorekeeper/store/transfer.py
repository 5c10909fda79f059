"""Export and import games in the game file format (GAME_FORMAT.md), for the pages and the CLI.

Export writes each game as the engine writes it, with ``scores`` and ``totals``, one game at a
time (a document of every game streams, its memory the same at ten games or a hundred
thousand). Import reads a whole file with the engine (which recomputes every score and refuses
a file whose given scores differ) before it stores anything: a refused file changes nothing.
A file holds at most :data:`GAMES_PER_FILE` games, and a group at most :data:`GAMES_PER_GROUP`,
each refused in one line. The games are then stored in batches of a quarter of a second
(:data:`BATCH_SECONDS`), each its own short transaction with a pause after it, so that a table saving a deal meanwhile waits for one batch, never for
the whole file; an import stopped halfway (the power cut) keeps whole games only, and the same
file imported again stores the rest (a game stored already is skipped).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from sqlite_utils import Database

from ..engine import Game, InvalidResult, Problem, loads
from ..engine.gamefile import (
    CONFIRMATION,
    MULTI_FORMAT,
    check_players,
    confirmation_waiting,
    game_text,
)
from . import confirmations, facts, ratings, storage
from .refused import N_


class ImportRefused(Exception):
    """The file cannot be imported; ``problems`` says why, one engine Problem each (the pages
    and the command line say them in their language)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


#: The most games one file imports: ten years of a weekly night of twenty games.
GAMES_PER_FILE = 10_000
#: The most games a group keeps: a weekly night of forty games for fifty years.
GAMES_PER_GROUP = 100_000
#: A transaction of the import stores games for this long at most (then at most this many):
#: the longest a table's save waits for the import, plus one game (5 to 50 ms).
BATCH_SECONDS = 0.25
BATCH = 100
#: Between two batches the import waits this long: a save waiting for the database looks again
#: every 100 ms at most (SQLite's busy handler), and would otherwise find the next batch
#: begun, batch after batch.
PAUSE_SECONDS = 0.1
#: Ids read per query by the exports: the memory an export holds, whatever the group holds.
ID_BATCH = 500

#: Said in the reader's language (marked for the catalog).
NESTED_TOO_DEEPLY = N_("nested too deeply")


@dataclass
class ImportResult:
    ids: list[int] = field(default_factory=list)  # the games stored, in the file's order
    skipped: list[tuple[int, int]] = field(default_factory=list)  # (game in file, stored id)


# -- export --------------------------------------------------------------------------------
def stored_game(db: Database, game_id: int) -> Game | None:
    """The stored game as the engine reads it, with the keys an imported file brought along."""
    stored = storage.load_game(db, game_id)
    if stored is None:
        return None
    extra = json.loads(stored.row.get("extra_json") or "{}")
    if confirmations.is_on(stored.row):
        waiting = confirmations.waiting_numbers(stored.row, stored.deals)
        extra[CONFIRMATION] = {"waiting": waiting}
    return replace(stored.game, extra=tuple(extra.items())) if extra else stored.game


def game_json(game: Game) -> str:
    """The game as its export writes it: indented, the keys it brought along compact."""
    return game_text(game, with_scores=True)


def game_ids(db: Database, *, night: str | None = None) -> Iterator[int]:
    """Every game's id in the order they were stored, or the games of one night, read
    :data:`ID_BATCH` at a time (never all at once)."""
    where, params = ("night = ? and ", [night]) if night is not None else ("", [])
    last = 0
    while True:
        batch = [
            r["id"]
            for r in db.query(
                f"select id from games where {where}id > ? order by id limit ?",
                [*params, last, ID_BATCH],
            )
        ]
        yield from batch
        if len(batch) < ID_BATCH:
            return
        last = batch[-1]


def has_games(db: Database, *, night: str | None = None) -> bool:
    where, params = ("where night = ?", [night]) if night is not None else ("", [])
    return next(db.query(f"select 1 from games {where} limit 1", params), None) is not None


def iter_document(db: Database, ids: Iterable[int]) -> Iterator[str]:
    """A ``trex-games/1`` document, one game at a time, so a big export streams."""
    yield '{\n  "format": "%s",\n  "games": [' % MULTI_FORMAT
    first = True
    for game_id in ids:
        game = stored_game(db, game_id)
        if game is None:  # deleted while the export ran
            continue
        text = game_json(game).replace("\n", "\n    ")
        yield ("\n    " if first else ",\n    ") + text
        first = False
    yield "\n  ]\n}\n"


# -- import --------------------------------------------------------------------------------
def read_import(data: bytes | str) -> list[Game]:
    """The games of a file, checked and scored by the engine; raise ImportRefused."""
    try:
        games = loads(data, most=GAMES_PER_FILE)
    except InvalidResult as exc:
        raise ImportRefused(exc.problems) from None
    except RecursionError:
        raise ImportRefused([Problem("not_json", {"detail": NESTED_TOO_DEEPLY})]) from None
    if not games:
        raise ImportRefused([Problem("no_games")])
    problems = []
    for number, game in enumerate(games, start=1):
        # Names are stored tidied (single spaces, NFC); two that become one are refused here.
        for problem in check_players([storage.clean_name(n) for n in game.players]):
            problems.append(replace(problem, game=number if len(games) > 1 else None))
    if problems:
        raise ImportRefused(problems)
    return games


def import_games(db: Database, games: list[Game]) -> ImportResult:
    """Store *games*, :data:`BATCH` to a transaction; a game already stored (same deals) is
    skipped. Refused (nothing stored) when the group would hold more than
    :data:`GAMES_PER_GROUP` games."""
    stored = next(db.query("select count(*) as n from games"))["n"]
    if stored + len(games) > GAMES_PER_GROUP:
        raise ImportRefused(
            [
                Problem(
                    "group_full", {"limit": GAMES_PER_GROUP, "stored": stored, "count": len(games)}
                )
            ]
        )
    result = ImportResult()
    pending = list(enumerate(games, start=1))
    while pending:
        with db.atomic():
            _store_batch(db, pending, result)
        if pending:
            time.sleep(PAUSE_SECONDS)
    # Rated in order of play: when an imported game is older than the games rated already,
    # every game is rated again once, worked out outside any transaction and written in one;
    # else each is rated after the last, a batch to a transaction.
    order = ratings.in_order_of_play(db, result.ids)
    if ratings.needs_recompute(db, order):
        ratings.recompute(db)
        return result
    while order:
        with db.atomic():
            started = time.monotonic()
            for _ in range(BATCH):
                ratings.after_change(db, order.pop(0))
                if not order or time.monotonic() - started > BATCH_SECONDS:
                    break
        if order:
            time.sleep(PAUSE_SECONDS)
    return result


def _store_batch(db: Database, pending: list[tuple[int, Game]], result: ImportResult) -> None:
    """Store games off the front of *pending* for BATCH_SECONDS at most, BATCH at most."""
    started = time.monotonic()
    for _ in range(BATCH):
        number, game = pending.pop(0)
        same = next(
            db.query(
                "select id from games where fingerprint = ? limit 1", [facts.fingerprint(game)]
            ),
            None,
        )
        if same is not None:
            result.skipped.append((number, same["id"]))
        else:
            result.ids.append(_store(db, game))
        if not pending or time.monotonic() - started > BATCH_SECONDS:
            return


def import_text(db: Database, data: bytes | str) -> ImportResult:
    return import_games(db, read_import(data))


def _store(db: Database, game: Game) -> int:
    names = [storage.clean_name(n) for n in game.players]
    stamp = storage.now()
    ids = [storage.player_id(db, n) for n in names]
    extra = dict(game.extra)
    waiting = confirmation_waiting(game)  # the game asks for confirmations again
    if waiting is not None:
        del extra[CONFIRMATION]
    game_id = storage.new_id(
        db.table("games").insert(
            {
                "title": game.title,
                "played_on": game.played_on,
                "rules_json": json.dumps(game.rules.to_dict()),
                "first_king": game.first_king,
                "created_at": stamp,
                "updated_at": stamp,
                "extra_json": json.dumps(extra, ensure_ascii=False) if extra else None,
            }
        )
    )
    db.table("game_players").insert_all(
        {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids)
    )
    scored = game.score()
    keyed = "version_key" in db.table("deals").columns_dict  # a database of before the keys
    for number, (record, scores) in enumerate(zip(game.deals, scored.deals), start=1):
        deal_id, key = storage.insert_deal(
            db,
            {
                "game_id": game_id,
                "number": number,
                **storage.deal_values(record, scores),
                "token": None,
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
            },
            keyed=keyed,
        )
        storage.record_history(
            db, deal_id, game_id, number, 1, record, scores, "create", None, key=key
        )
    if waiting is not None:
        confirmations.mark_imported(db, game_id, waiting)
    storage.store_summary(db, game_id, game, rate=False)
    return game_id
