"""Export and import games in the game file format (GAME_FORMAT.md), for the pages and the CLI.

Export writes each game as the engine writes it, with ``scores`` and ``totals``. Import reads a
file with the engine (which recomputes every score and refuses a file whose given scores differ),
then stores all its games in one transaction: a refused file changes nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from sqlite_utils import Database

from ..engine import Game, InvalidResult, Problem, game_to_dict, loads
from ..engine.gamefile import MULTI_FORMAT, check_players
from . import facts, ratings, storage
from .refused import N_


class ImportRefused(Exception):
    """The file cannot be imported; ``problems`` says why, one engine Problem each (the pages
    and the command line say them in their language)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


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
    return replace(stored.game, extra=tuple(extra.items())) if extra else stored.game


def game_json(game: Game) -> str:
    return json.dumps(game_to_dict(game, with_scores=True), ensure_ascii=False, indent=2)


def game_ids(db: Database, *, night: str | None = None) -> list[int]:
    """Every game's id in the order they were stored, or the games of one night."""
    if night is not None:
        return [r["id"] for r in db.query("select id from games where night = ? order by id",
                                          [night])]
    return [r["id"] for r in db.query("select id from games order by id")]


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
        games = loads(data)
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
    """Store *games* in one transaction; a game already stored (same deals) is skipped."""
    result = ImportResult()
    with db.atomic():
        for number, game in enumerate(games, start=1):
            same = next(db.query("select id from games where fingerprint = ? limit 1",
                                 [facts.fingerprint(game)]), None)
            if same is not None:
                result.skipped.append((number, same["id"]))
                continue
            result.ids.append(_store(db, game))
        # Rated in order of play: at most one rating of every game from scratch, when an
        # imported game is older than the games rated already.
        for game_id in ratings.in_order_of_play(db, result.ids):
            ratings.after_change(db, game_id)
    return result


def import_text(db: Database, data: bytes | str) -> ImportResult:
    return import_games(db, read_import(data))


def _store(db: Database, game: Game) -> int:
    names = [storage.clean_name(n) for n in game.players]
    stamp = storage.now()
    ids = [storage.player_id(db, n) for n in names]
    extra = dict(game.extra)
    game_id = storage.new_id(db.table("games").insert({
        "title": game.title, "played_on": game.played_on,
        "rules_json": json.dumps(game.rules.to_dict()), "first_king": game.first_king,
        "created_at": stamp, "updated_at": stamp,
        "extra_json": json.dumps(extra, ensure_ascii=False) if extra else None,
    }))
    db.table("game_players").insert_all(
        {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids))
    scored = game.score()
    for number, (record, scores) in enumerate(zip(game.deals, scored.deals), start=1):
        deal_id = storage.new_id(db.table("deals").insert({
            "game_id": game_id, "number": number, **storage.deal_values(record, scores),
            "token": None, "version": 1, "created_at": stamp, "updated_at": stamp,
        }))
        storage.record_history(db, deal_id, game_id, number, 1, record, scores, "create", None)
    storage.store_summary(db, game_id, game, rate=False)
    return game_id
