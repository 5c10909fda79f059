"""Printed scoresheets as PDF downloads: a game's sheet, and a blank one to fill in by hand.

A game's sheet is ready before it is asked for
----------------------------------------------
Laying a sheet out takes about 0.2 s, so the last PDF of each game is kept, one per way of
reading it (paper, language, digits, the table's words), with the version of the game it
shows (``live.stored_version``, and the players' names, which a rename changes without
changing the version). It is answered with an ``ETag``, and 304 to a phone that has it.

After a save (``deals.py`` calls :func:`after_save`), one background thread makes the new
version's sheet ready: in every way this game was printed before, and, once the game is over,
in the way the phone that saved it reads. It renders one sheet at a time, and a game saved
again before its turn comes is rendered once, as it then stands: printing never slows the
table by more than one sheet at a time. A request for a sheet that is not ready renders it
there and then (waiting instead for the worker when it is making that very sheet), so the
plain request path works whatever the worker is doing.

The PDFs are kept in memory, at most :data:`KEPT_SHEETS` of them (about 25 KB each), not in
files: a sheet is quick to make again after a restart, a file would need cleaning up and
writing whole, and every request and the worker are threads of one server process.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Hashable, NamedTuple

from flask import Blueprint, Response, abort, current_app, request, send_file
from flask_babel import gettext

from .. import groupspace as groups
from ...engine.contracts import Contract
from ...engine.gamefile import NAME_LIMIT, check_players
from ...store.kept import Kept
from ...store.storage import StoredGame, clean_name, game_document, load_game
from ..database import get_db
from ..i18n import DIGITS_COOKIE, current_language
from ..messages import problem_text
from ..words import table_words, words_key
from .games import fetch_game
from .live import stored_version

bp = Blueprint("sheets", __name__)
PAPERS = ("A4", "letter")


def paper_arg() -> str:
    paper = request.args.get("paper", "A4")
    if paper.lower() not in {p.lower() for p in PAPERS}:
        abort(404, gettext("Scoresheets come in A4 or letter."))
    return paper


def sheet_language() -> str:
    """The page's language, which the sheet is printed in (right to left in Arabic)."""
    return current_language()


def sheet_digits() -> str:
    """The digits this phone reads numbers in (a setting), which the sheet is printed in."""
    return "arabic" if request.cookies.get(DIGITS_COOKIE) == "arabic" else "western"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")


def pdf_response(data: bytes, filename: str):
    response = send_file(io.BytesIO(data), mimetype="application/pdf", as_attachment=True,
                         download_name=filename, max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<int:game_id>/sheet.pdf")
def game_sheet(game_id: int):
    """The game's scoresheet as it stands, on one page: kept if ready, else made now."""
    stored = fetch_game(game_id)
    way = Way(paper_arg().lower(), sheet_language(), sheet_digits(), words_key())
    slot = (database_path(), game_id, way)
    shows = shown_version(stored)
    remember_printed(slot)
    tag = etag_of(shows, way)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        data = kept_pdf(stored, slot, shows)
        response = pdf_response(data, f"{sheet_name(stored)}.pdf")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def sheet_name(stored: StoredGame) -> str:
    name = "-".join(p for p in ("trex", stored.played_on or "", slug(stored.title)) if p)
    return name if name != "trex" else f"trex-game-{stored.id}"


def kept_pdf(stored: StoredGame, slot: Slot, shows: Hashable) -> bytes:
    """The sheet's PDF for *slot*: kept if ready, else the worker's, else made now and kept."""
    data = ready_sheet(slot, shows)
    if data is None:
        data = WORKER.wait_for(slot, shows)
    if data is None:
        data = render(stored, *slot[2:])
        SHEETS.put(slot, (shows, data))
    return data


@bp.get("/games/<int:game_id>/sheet.png")
def game_sheet_png(game_id: int):
    """The same scoresheet as the PDF (the kept one, in this phone's way), as a PNG image: what
    the Share button sends with the result."""
    from ...printing import pdf_to_png

    stored = fetch_game(game_id)
    way = Way("a4", sheet_language(), sheet_digits(), words_key())
    slot = (database_path(), game_id, way)
    shows = shown_version(stored)
    tag = "png-" + etag_of(shows, way)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        kept = PNGS.get(slot)
        if kept is not None and kept[0] == shows:
            image = kept[1]
        else:
            image = pdf_to_png(kept_pdf(stored, slot, shows))
            PNGS.put(slot, (shows, image))
        response = send_file(io.BytesIO(image), mimetype="image/png",
                             download_name=f"{sheet_name(stored)}.png", max_age=0)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


# --- sheets kept ready -------------------------------------------------------------------------
#: At most this many PDFs are kept (each game's last one per way of reading it).
KEPT_SHEETS = 64
#: The ways each game was printed, at most this many per game, for this many games.
WAYS_PER_GAME = 8
PRINTED_GAMES = 512
#: How long a request waits for the worker making the very sheet it asks for.
WAIT_SECONDS = 5.0

log = logging.getLogger(__name__)


class Way(NamedTuple):
    """How a phone reads the sheet: paper, language, digits, the table's words (as a key)."""

    paper: str
    lang: str
    digits: str
    words: tuple[tuple[str, str], ...]


#: Where a sheet is kept: (database file, game id, way) -> (the version it shows, the PDF).
Slot = tuple[str, int, Way]
SHEETS: Kept[tuple[Hashable, bytes]] = Kept(KEPT_SHEETS)
#: (database file, game id) -> the ways it was printed, the latest last.
PRINTED: Kept[tuple[Way, ...]] = Kept(PRINTED_GAMES)
#: The sheet as a PNG to share, per slot with the version it shows (pypdfium2 from the PDF).
PNGS: Kept[tuple[Hashable, bytes]] = Kept(KEPT_SHEETS // 4)


def database_path() -> str:
    return groups.database_path()


def shown_version(stored: StoredGame) -> Hashable:
    """What the sheet shows of the stored game: its version (which every write of a deal
    changes) and the players' names (which a rename changes, and not the version)."""
    return (stored_version(stored), stored.game.players)


def etag_of(shows: Hashable, way: Way) -> str:
    return hashlib.sha1(repr((shows, way)).encode()).hexdigest()[:20]


def ready_sheet(slot: Slot, shows: Hashable) -> bytes | None:
    """The kept PDF of *slot* if it shows this version."""
    kept = SHEETS.get(slot)
    return kept[1] if kept is not None and kept[0] == shows else None


def render(stored: StoredGame, way: Way) -> bytes:
    from ...printing import render_game_pdf  # WeasyPrint loads on first use, not at start-up

    return render_game_pdf(stored.game, paper=way.paper, lang=way.lang, digits=way.digits,
                           contract_words={Contract(c): w for c, w in way.words})


#: Sheets made ahead are laid out in a process of their own (``printing/ahead.py``), so that
#: WeasyPrint's 0.2 s of Python never holds the server's requests up; off, in the worker thread.
AHEAD_IN_PROCESS = True


def render_ahead(stored: StoredGame, way: Way) -> bytes:
    """:func:`render`, for a sheet made ahead: in the printing process when there is one."""
    if not AHEAD_IN_PROCESS:
        return render(stored, way)
    from ...printing.ahead import render_in_worker

    row = stored.row
    document = game_document(row["title"] or "", row["played_on"], stored.game.players,
                             json.loads(row["rules_json"]), row["first_king"],
                             [json.loads(d["record_json"]) for d in stored.deals])
    try:
        return render_in_worker(document, paper=way.paper, lang=way.lang, digits=way.digits,
                                words=way.words)
    except Exception:  # a worker that cannot start or died: lay it out here, as before
        log.exception("the printing process failed; the sheet is laid out in the server")
        return render(stored, way)


def remember_printed(slot: Slot) -> None:
    db, game_id, way = slot
    ways = PRINTED.get((db, game_id)) or ()
    if not ways or ways[-1] != way:
        PRINTED.put((db, game_id), (*(w for w in ways if w != way), way)[-WAYS_PER_GAME:])


def after_save(game_id: int) -> None:
    """A deal of the game was saved, corrected or undone: have its sheet made ready, in the
    ways it was printed and, once the game is over, in this phone's way."""
    if not current_app.config.get("SHEETS_AHEAD", True):
        return
    db = database_path()
    ways = list(PRINTED.get((db, game_id)) or ())
    row = next(iter(get_db().query("select finished from games where id = ?", [game_id])), None)
    if row is not None and row["finished"]:
        mine = Way("a4", sheet_language(), sheet_digits(), words_key())
        if mine not in ways:
            ways.append(mine)
    for way in ways:
        WORKER.ask((db, game_id, way))


class SheetWorker:
    """One thread that makes sheets ready, one at a time, from a queue of slots: a slot asked
    for again while it waits is done once, with the game as it stands when its turn comes."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._waiting: OrderedDict[Slot, None] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._current: Slot | None = None  # taken from the queue, until done
        self._making: tuple[Slot, Hashable] | None = None  # being laid out, showing what
        self._made = threading.Event()
        self.rendered = 0  # sheets made, for the tests and the benchmark

    def ask(self, slot: Slot) -> None:
        with self._changed:
            self._waiting[slot] = None  # asked again: still done once
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="sheet-worker",
                                                daemon=True)
                self._thread.start()
            self._changed.notify()

    def busy(self) -> bool:
        with self._changed:
            return bool(self._waiting) or self._current is not None

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is queued or being made (tests, benchmarks); whether it is so."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and self._current is None,
                                          timeout)

    def wait_for(self, slot: Slot, shows: Hashable) -> bytes | None:
        """The sheet of *slot* showing *shows*, if the worker is making it now (waiting for
        it); else None, and the caller makes it (taking it off the queue if it waits there)."""
        with self._changed:
            self._waiting.pop(slot, None)
            # taken from the queue: wait until the worker knows what it is making
            self._changed.wait_for(lambda: self._current != slot or self._making is not None,
                                   WAIT_SECONDS)
            if self._making != (slot, shows):
                return None
            made = self._made
        made.wait(WAIT_SECONDS)
        return ready_sheet(slot, shows)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._waiting))
                slot, _ = self._waiting.popitem(last=False)
                self._current = slot
            try:
                self._make(slot)
            except Exception:  # a sheet that cannot be made now is made when it is asked for
                log.exception("could not make the sheet of game %s ahead", slot[1])
            finally:
                with self._changed:
                    self._current = self._making = None
                    self._made.set()
                    self._changed.notify_all()

    def _make(self, slot: Slot) -> None:
        from ...store.db import thread_connection

        path, game_id, way = slot
        if not Path(path).exists():  # a database gone meanwhile (a test's)
            return
        db = thread_connection(path)
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
        with self._changed:
            self._making = (slot, shows)
            self._made = threading.Event()
            self._changed.notify_all()
        data = render_ahead(stored, way)
        SHEETS.put(slot, (shows, data))
        self.rendered += 1


WORKER = SheetWorker()


@bp.get("/sheet/blank.pdf")
def blank_sheet():
    """An empty scoresheet; ``?names=`` four times writes the players' names in."""
    from ...printing import render_blank_pdf

    names = [clean_name(n) for n in request.args.getlist("names")]
    if not any(names):
        names = []
    if names and len(names) != 4:
        abort(400, gettext("A blank sheet takes four names of at most %(limit)s characters, or "
                           "none.", limit=NAME_LIMIT))
    problems = check_players(names) if names else []  # the one check of a name
    if problems:
        abort(400, " ".join(problem_text(p) for p in problems))
    return pdf_response(render_blank_pdf(names or None, paper=paper_arg(),
                                         lang=sheet_language(), contract_words=table_words(),
                                         digits=sheet_digits()),
                        "trex-blank-scoresheet.pdf")
