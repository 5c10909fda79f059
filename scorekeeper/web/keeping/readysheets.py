"""A game's printed sheet, kept and made ready before it is asked for.

Laying a sheet out takes about 0.2 s, so the last PDF of each game is kept, one per way of
reading it (paper, language, digits: only what the server offers, never a cookie's free text,
so that no phone can make a new render by changing a cookie), with the version of the game it
shows (its version tag, as ``live.stored_version`` reads it, and the players' names, which a rename changes without
changing the version). The page answers it with an ``ETag``, and 304 to a phone that has it.

After a save (``deals.py`` calls :func:`after_save`), one background thread makes the new
version's sheet ready: in every way this game was printed before, and, once the game is over,
in the way the phone that saved it reads. It asks for one sheet at a time, and a game saved
again before its turn comes is made once, as it then stands. Every sheet, made ahead or asked
for, is laid out by the printing processes through the one queue (``web/keeping/printer.py``), keyed by
the slot and the version it shows: a request for the sheet the worker is having made waits
for that render rather than starting another.

The PDFs are kept in memory, at most :data:`KEPT_SHEETS` of them (about 25 KB each), not in
files: a sheet is quick to make again after a restart, and a file would need cleaning up and
writing whole.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Any, Hashable, NamedTuple

from flask import Flask, current_app, has_app_context, request

from ...engine.gamefile import CONFIRMATION
from ...store import confirmations
from ...store.kept import Kept
from ...store.storage import StoredGame, game_document, load_game
from ..access.database import get_db
from ..making.i18n import DIGITS_COOKIE, current_language
from .printer import PRINTER, database_path

#: At most this many PDFs are kept (each game's last one per way of reading it).
KEPT_SHEETS = 64
#: The ways each game was printed, at most this many per game, for this many games.
WAYS_PER_GAME = 8
PRINTED_GAMES = 512

log = logging.getLogger(__name__)


class Way(NamedTuple):
    """How a phone reads the sheet: paper, language, digits, each one the server offers. The
    sheet names the contracts in the language's usual words, never the table's own (a cookie's
    free text, ``words.py``), so that a cookie cannot make a new render."""

    paper: str
    lang: str
    digits: str


#: Where a sheet is kept: (database file, game id, way) -> (the version it shows, the PDF).
Slot = tuple[str, int, Way]
SHEETS: Kept[tuple[Hashable, bytes]] = Kept(KEPT_SHEETS)
#: (database file, game id) -> the ways it was printed, the latest last.
PRINTED: Kept[tuple[Way, ...]] = Kept(PRINTED_GAMES)
#: The sheet as a PNG to share, per slot with the version it shows (pypdfium2 from the PDF).
PNGS: Kept[tuple[Hashable, bytes]] = Kept(KEPT_SHEETS // 4)


def sheet_language() -> str:
    """The page's language, which the sheet is printed in (right to left in Arabic)."""
    return current_language()


def sheet_digits() -> str:
    """The digits this phone reads numbers in (a setting), which the sheet is printed in."""
    return "arabic" if request.cookies.get(DIGITS_COOKIE) == "arabic" else "western"


def way_of_reading(paper: str) -> Way:
    return Way(paper.lower(), sheet_language(), sheet_digits())


def shown_version(stored: StoredGame) -> Hashable:
    """What the sheet shows of the stored game: its version (which every write of a deal
    changes) and the players' names (which a rename changes, and not the version)."""
    return (stored.row["version_tag"], stored.game.players)


def etag_of(shows: Hashable, way: Way) -> str:
    return hashlib.sha1(repr((shows, way)).encode()).hexdigest()[:20]


def ready_sheet(slot: Slot, shows: Hashable) -> bytes | None:
    """The kept PDF of *slot* if it shows this version."""
    kept = SHEETS.get(slot)
    return kept[1] if kept is not None and kept[0] == shows else None


def ready_png(slot: Slot, shows: Hashable) -> bytes | None:
    kept = PNGS.get(slot)
    return kept[1] if kept is not None and kept[0] == shows else None


def document_of(stored: StoredGame) -> dict[str, Any]:
    """The game as the printing process reads it: its game file's dict."""
    row = stored.row
    document = game_document(
        row["title"] or "",
        row["played_on"],
        stored.game.players,
        json.loads(row["rules_json"]),
        row["first_king"],
        [json.loads(d["record_json"]) for d in stored.deals],
    )
    if confirmations.is_on(row):  # the sheet marks the deals waiting, as the file says them
        document[CONFIRMATION] = {"waiting": confirmations.waiting_numbers(row, stored.deals)}
    return document


def _sheet_args(stored: StoredGame, way: Way) -> dict[str, Any]:
    return {
        "document": document_of(stored),
        "paper": way.paper,
        "lang": way.lang,
        "digits": way.digits,
        "words": (),
    }


def sheet_pdf(stored: StoredGame, slot: Slot, shows: Hashable, *, bounded: bool = True) -> bytes:
    """The sheet's PDF for *slot*: kept if ready, else the render under way, else a new one,
    kept once made."""
    return PRINTER.make(
        ("sheet", slot, shows),
        "game_pdf",
        ready=lambda: ready_sheet(slot, shows),
        keep=lambda data: SHEETS.put(slot, (shows, data)),
        bounded=bounded,
        tenant=slot[0],
        **_sheet_args(stored, slot[2]),
    )


def sheet_png(stored: StoredGame, slot: Slot, shows: Hashable) -> bytes:
    """The same sheet as a PNG to share: drawn from the kept PDF, or laid out and drawn in one
    job when the PDF is not ready either (both kept)."""

    def keep(made: tuple[bytes, bytes]) -> None:
        SHEETS.put(slot, (shows, made[0]))
        PNGS.put(slot, (shows, made[1]))

    ready = partial(ready_png, slot, shows)
    pdf = ready_sheet(slot, shows)
    if pdf is not None:
        return PRINTER.make(
            ("png", slot, shows),
            "png",
            pdf,
            ready=ready,
            keep=lambda image: PNGS.put(slot, (shows, image)),
            tenant=slot[0],
        )
    made = PRINTER.make(
        ("png", slot, shows),
        "as_png",
        "game_pdf",
        ready=ready,
        keep=keep,
        tenant=slot[0],
        **_sheet_args(stored, slot[2]),
    )
    return made[1] if isinstance(made, tuple) else made


def remember_printed(slot: Slot) -> None:
    db, game_id, way = slot
    ways = PRINTED.get((db, game_id)) or ()
    if not ways or ways[-1] != way:
        PRINTED.put((db, game_id), (*(w for w in ways if w != way), way)[-WAYS_PER_GAME:])


def after_save(game_id: int) -> None:
    """A deal of the game was saved, corrected or undone: have its sheet made ready, in the
    ways it was printed and, once the game is over, in this phone's way."""
    if not current_app.config["SHEETS_AHEAD"]:
        return
    db = database_path()
    ways = list(PRINTED.get((db, game_id)) or ())
    row = next(iter(get_db().query("select finished from games where id = ?", [game_id])), None)
    if row is not None and row["finished"]:
        mine = way_of_reading("a4")
        if mine not in ways:
            ways.append(mine)
    for way in ways:
        WORKER.ask((db, game_id, way))


def _asker() -> Flask | None:
    """The app that asks for a sheet (the worker makes it under that app's settings), or None
    outside any app (a benchmark)."""
    if not has_app_context():
        return None
    return current_app._get_current_object()  # type: ignore[attr-defined]


class SheetWorker:
    """One thread that has sheets made ready, one at a time, from a queue of slots: a slot
    asked for again while it waits is done once, with the game as it stands when its turn
    comes."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        #: each slot waiting, with the app that asked for it (its settings apply)
        self._waiting: OrderedDict[Slot, Flask | None] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._current: Slot | None = None  # taken from the queue, until done
        self.rendered = 0  # sheets made, for the tests and the benchmark

    def ask(self, slot: Slot) -> None:
        with self._changed:
            self._waiting[slot] = _asker()  # asked again: still done once
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="sheet-worker", daemon=True)
                self._thread.start()
            self._changed.notify()

    def busy(self) -> bool:
        with self._changed:
            return bool(self._waiting) or self._current is not None

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is queued or being made (tests, benchmarks); whether it is so."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not self._waiting and self._current is None, timeout
            )

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._waiting))
                slot, asker = self._waiting.popitem(last=False)
                self._current = slot
            try:
                if asker is None:
                    self._make(slot)
                else:
                    with asker.app_context():
                        self._make(slot)
            except Exception:  # a sheet that cannot be made now is made when it is asked for
                log.exception("could not make the sheet of game %s ahead", slot[1])
            finally:
                with self._changed:
                    self._current = None
                    self._changed.notify_all()

    def _make(self, slot: Slot) -> None:
        from ...store.db import thread_connection

        path, game_id, way = slot
        if not Path(path).exists():  # a database gone meanwhile (a test's)
            return
        db = thread_connection(path, create=False)
        db.conn.execute("begin")  # one snapshot of the game, as a request reads it
        try:
            stored = load_game(db, game_id)
        finally:
            db.conn.rollback()
        if stored is None:
            return
        shows = shown_version(stored)
        if ready_sheet(slot, shows) is not None:
            return
        sheet_pdf(stored, slot, shows, bounded=False)
        self.rendered += 1


WORKER = SheetWorker()
