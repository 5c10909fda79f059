"""What another phone changed while this one had a form open: told in words, so that a refused
entry or correction comes with the game as it stands now, and nothing is overwritten unseen."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask import render_template
from sqlite_utils import Database

from ...engine import read_deal
from . import present
from ..access.database import get_db
from ...store.storage import StoredGame


@dataclass
class DealNow:
    number: int
    title: str
    king: str
    lines: list[str]


@dataclass
class Meanwhile:
    """The deals recorded or changed meanwhile, the version this phone read, the standings."""

    deals: list[DealNow] = field(default_factory=list)
    read: list[str] | None = None  # the deal as the form read it, for a correction
    standings: list[Any] = field(default_factory=list)


def _deal_now(stored: StoredGame, number: int) -> DealNow:
    record = stored.game.deals[number - 1]
    names = stored.game.players
    return DealNow(
        number, present.deal_title(record), names[record.king], present.describe(record, names)
    )


def _standings(stored: StoredGame) -> list[Any]:
    return present.standings(stored.game.players, stored.game.score())


def recorded_since(stored: StoredGame, number: int) -> Meanwhile:
    """Deal *number* and every later one, as recorded now (another phone saved them)."""
    last = len(stored.game.deals)
    return Meanwhile(
        [_deal_now(stored, n) for n in range(max(number, 1), last + 1)],
        standings=_standings(stored),
    )


def changed_deal(
    db: Database,
    stored: StoredGame,
    number: int,
    deal_id: int | None,
    read_version: int | None,
    read_key: str | None = None,
) -> Meanwhile:
    """Deal *number* as recorded now, and the version of it that the form was opened on (by
    its key, when the form names one: an undone deal's id and version could once be given
    again)."""
    out = Meanwhile(standings=_standings(stored))
    if stored.deal_row(number) is not None:
        out.deals.append(_deal_now(stored, number))
    if read_key:
        sql, params = "version_key = ?", [read_key]
    elif deal_id is not None and read_version is not None:
        sql, params = "deal_id = ? and version = ?", [deal_id, read_version]
    else:
        return out
    row = next(
        db.query(
            f"select record_json from deal_history where game_id = ? and {sql} "
            "and action != 'undo' order by id desc limit 1",
            [stored.id, *params],
        ),
        None,
    )
    if row is not None:
        record, _ = read_deal(json.loads(row["record_json"]), number, stored.game.players)
        if record is not None:
            out.read = present.describe(record, stored.game.players)
    return out


def stale_page(
    template: str,
    stored: StoredGame,
    number: int,
    deal_id: int,
    version: int,
    key: str | None,
    **context: Any,
) -> tuple[str, int]:
    """The page (409) that refuses a form naming a version of deal *number* that is no longer
    the one recorded: the deal as it is now (:func:`changed_deal`), with *context*."""
    return render_template(
        template,
        stored=stored,
        number=number,
        names=stored.game.players,
        meanwhile=changed_deal(get_db(), stored, number, deal_id, version, key),
        **context,
    ), 409
