"""What the engine says about a new deal, a correction or an undo; no database, no Flask.

Forms call these to show the engine's messages; storage calls them again inside its transaction
before it writes, so that nothing reaches the database that the engine has not accepted.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..engine import DealRecord, Game, InvalidResult, Problem, Progress, game_to_dict
from ..engine import read_deal, validate_entry
from ..engine.contracts import Contract
from ..engine.scoring import uses_contracts
from . import gamecache


def rebuild(game: Game, deals: Sequence[DealRecord]) -> Game:
    """*game* with *deals*, re-read whole by the engine (raises InvalidResult); a game read
    from the same document before is not read again (see gamecache)."""
    return gamecache.games.read(game_to_dict(replace(game, deals=tuple(deals))))


def progress_before(game: Game, number: int) -> Progress:
    """Where the game stood before deal *number* (counted from 1)."""
    return Progress.of(game.rules, game.first_king, game.deals[: number - 1], game.players)


def check_new_deal(game: Game, raw: Any) -> tuple[DealRecord | None, list[Problem], Game | None]:
    """Check *raw* (a file-format deal) as the next deal; return it, the problems, the new game."""
    record, problems = validate_entry(raw, game.progress())
    if record is None:
        return None, problems, None
    try:
        return record, [], rebuild(game, game.deals + (record,))
    except InvalidResult as exc:
        return None, exc.problems, None


def check_correction(
    game: Game,
    number: int,
    raw: Any,
) -> tuple[DealRecord | None, list[Problem], Game | None]:
    """Check *raw* as the new version of deal *number*, and every later deal after it."""
    record, problems = validate_entry(raw, progress_before(game, number), number)
    if record is None:
        return None, problems, None
    deals = list(game.deals)
    deals[number - 1] = record
    try:
        return record, [], rebuild(game, deals)
    except InvalidResult as exc:
        return None, exc.problems, None


def other_contracts(game: Game, number: int) -> list[tuple[Contract, ...]]:
    """What deal *number* could have been instead ("it was another contract"): the King's
    choices before it that no later deal of its kingdom has played since."""
    kingdom = next(k for k in game.progress().kingdoms if number - 1 in k.deals)
    later = {
        c
        for i in kingdom.deals
        if i > number - 1
        if uses_contracts(game.deals[i], game.rules)
        for c in game.deals[i].contracts
    }
    return [
        option
        for option in progress_before(game, number).deal_options()
        if not later.intersection(option)
    ]


def check_undo(game: Game, number: int) -> tuple[list[Problem], Game | None]:
    """Check the game without deal *number*: the later deals must still make sense."""
    deals = list(game.deals)
    del deals[number - 1]
    try:
        return [], rebuild(game, deals)
    except InvalidResult as exc:
        return exc.problems, None


def same_entry(saved: Mapping[str, Any], *, action: str, number: int, raw: Any) -> bool:
    """Is *raw*, sent as deal *number* by *action* ("create" or "correct"), the entry that was
    saved as *saved* (a row of ``storage.find_token``): the same deal with the same result?
    Only then is a form sent again "already saved"; any other entry is the table's to see."""
    if saved.get("action") != action or saved.get("entered") != number:
        return False
    record, problems = read_deal(raw)
    return (
        record is not None
        and not problems
        and record.to_dict() == json.loads(saved.get("record_json") or "null")
    )
