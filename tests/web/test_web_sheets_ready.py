"""The printed sheet ready before it is asked for (web/keeping/readysheets.py): each game's last PDF kept
per way of reading it, answered with an ETag and 304, made in the background after a save when
the game is over or was printed before, one sheet at a time, and made when asked otherwise;
every one laid out by the printing pool (web/keeping/printer.py), never by the thread that asks."""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections import Counter

import pytest
from pypdf import PdfReader

from scorekeeper.store import storage
from scorekeeper.store.players import rename_player
from scorekeeper.web.access.database import get_db
from scorekeeper.printing import pool
from scorekeeper.web.keeping import readysheets as sheets

from test_web_game_flow import NIGHT
from web_helpers import PLAYERS


pytestmark = pytest.mark.slow  # sheets printed ahead in processes of their own


def pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.fixture
def app(app):
    """These tests watch the sheets laid out through the printing job ``game_pdf``: it runs in
    the printer's own threads here, where a test can count it. The printing process that lays
    them out when the app serves is tested on its own (the last test)."""
    app.config["PRINT_IN_PROCESS"] = False
    return app


def who_asked() -> str:
    return "sheet-worker" if sheets.WORKER.busy() else "MainThread"


def patch_render(monkeypatch, wrap):
    """Replace the printing job that lays a game's sheet out by ``wrap(real)``."""
    monkeypatch.setitem(pool.JOBS, "game_pdf", wrap(pool.JOBS["game_pdf"]))


def title_of(document) -> str:
    return document.get("title") or ""


@pytest.fixture
def renders(monkeypatch):
    """Every sheet laid out, whoever asked for it: (who asked, the game's title)."""
    made: list[tuple[str, str]] = []

    def wrap(real):
        def counted(document, **way):
            assert threading.current_thread().name.startswith("printer")
            made.append((who_asked(), title_of(document)))
            return real(document, **way)

        return counted

    patch_render(monkeypatch, wrap)
    assert sheets.WORKER.wait_idle()
    return made


def store_deals(app, game_id: int, deals) -> None:
    """Deals recorded straight into the store (the forms are tested elsewhere)."""
    with app.app_context():
        db = get_db()
        for deal in deals:
            number = len(storage.load_game(db, game_id).game.deals) + 1
            storage.add_deal(db, game_id, deal, token=secrets.token_hex(8), number=number)


def test_sheet__kept_and_answered_304_while_the_game_is_unchanged(app, table, client, renders):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:1])
    first = client.get(f"/games/{game_id}/sheet.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF-")
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert renders == [("MainThread", "Test night")]

    again = client.get(f"/games/{game_id}/sheet.pdf", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    kept = client.get(f"/games/{game_id}/sheet.pdf")
    assert kept.status_code == 200 and kept.data == first.data and kept.headers["ETag"] == tag
    assert len(renders) == 1  # neither laid the sheet out again

    table.enter(game_id, NIGHT[1])
    assert sheets.WORKER.wait_idle()
    changed = client.get(f"/games/{game_id}/sheet.pdf", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "2 deals" in pdf_text(changed.data)


def test_sheet__each_way_of_reading_is_its_own_sheet(app, table, client, renders):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:2])
    english = client.get(f"/games/{game_id}/sheet.pdf")
    letter = client.get(f"/games/{game_id}/sheet.pdf?paper=letter")
    client.set_cookie("lang", "ar")
    arabic = client.get(f"/games/{game_id}/sheet.pdf")
    client.set_cookie("digits", "arabic")
    digits = client.get(f"/games/{game_id}/sheet.pdf")
    tags = {r.headers["ETag"] for r in (english, letter, arabic, digits)}
    assert len(tags) == 4 and len(renders) == 4
    assert client.get(f"/games/{game_id}/sheet.pdf").data == digits.data
    assert len(renders) == 4


def test_sheet__made_in_the_background_after_the_last_save(app, table, client, renders):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:-1])
    assert client.get(f"/games/{game_id}").status_code == 200
    table.enter(game_id, NIGHT[-1])  # the game is over
    assert sheets.WORKER.wait_idle()
    assert renders == [("sheet-worker", "Test night")]
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and len(renders) == 1  # ready: nothing laid out
    text = pdf_text(response.data)
    assert all(name in text for name in PLAYERS)


def test_sheet__made_again_after_each_save_once_printed(app, table, client, renders):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:3])
    table.enter(game_id, NIGHT[3])
    assert sheets.WORKER.wait_idle()
    assert renders == []  # neither over nor printed: nothing made ahead
    client.set_cookie("lang", "ar")
    before = client.get(f"/games/{game_id}/sheet.pdf?paper=letter")
    table.enter(game_id, NIGHT[4])
    assert sheets.WORKER.wait_idle()
    assert renders == [("MainThread", "Test night"), ("sheet-worker", "Test night")]
    after = client.get(f"/games/{game_id}/sheet.pdf?paper=letter")
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert len(renders) == 2
    table.undo(game_id, 5)  # an undo is a save too
    assert sheets.WORKER.wait_idle()
    assert len(renders) == 3
    again = client.get(f"/games/{game_id}/sheet.pdf?paper=letter")
    assert len(renders) == 3 and pdf_text(again.data) == pdf_text(before.data)


def test_sheet__a_rename_makes_a_new_sheet(app, table, client, renders):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:2])
    first = client.get(f"/games/{game_id}/sheet.pdf")
    with app.app_context():
        [row] = get_db().query(
            "select player_id from game_players where game_id = ? and seat = 1", [game_id]
        )
        rename_player(get_db(), row["player_id"], "Bilal Haddad")
    renamed = client.get(
        f"/games/{game_id}/sheet.pdf", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert renamed.status_code == 200 and "Bilal Haddad" in pdf_text(renamed.data)


def test_worker__a_slot_asked_for_again_while_waiting_is_made_once(
    app, table, client, renders, monkeypatch
):
    game_a = table.new_game(first_king=2)
    game_b = table.new_game(first_king=2, title="Second table")
    store_deals(app, game_a, NIGHT[:1])
    store_deals(app, game_b, NIGHT[:1])
    worker = sheets.SheetWorker()
    gate = threading.Event()

    def wrap(real):
        def slow(document, **way):
            if title_of(document) == "Test night":  # game A
                gate.wait(10)
            return real(document, **way)

        return slow

    patch_render(monkeypatch, wrap)
    path = app.config["DATABASE"]
    way = sheets.Way("a4", "en", "western")
    with app.app_context():  # the app's settings go with what it asks for
        worker.ask((path, game_a, way))
    for deal in NIGHT[1:4]:  # three saves of game B while the worker is busy with game A
        with app.app_context():
            worker.ask((path, game_b, way))
        store_deals(app, game_b, [deal])
    assert worker.busy()
    gate.set()
    assert worker.wait_idle()
    assert worker.rendered == 2  # A once, B once: as it stood when its turn came
    with app.app_context():
        stored_b = storage.load_game(get_db(), game_b)
        shows = sheets.shown_version(stored_b)
    assert sheets.ready_sheet((path, game_b, way), shows) is not None


def test_sheet__asked_for_while_the_worker_is_busy_is_made_by_the_printer_next(
    app, table, client, renders, monkeypatch
):
    """A phone asking for a sheet while the worker has another one laid out is answered once
    the printer is free: its sheet is laid out by the printer too, never by the request."""
    busy_game = table.new_game(first_king=2)
    asked = table.new_game(first_king=2, title="Other table")
    store_deals(app, asked, NIGHT[:2])
    gate = threading.Event()
    started = threading.Event()

    def wrap(real):
        def held(document, **way):
            if title_of(document) == "Other table":
                return real(document, **way)
            started.set()
            gate.wait(10)
            return b"%PDF-held"

        return held

    patch_render(monkeypatch, wrap)
    answers = []
    try:
        with app.app_context():
            sheets.WORKER.ask(
                (app.config["DATABASE"], busy_game, sheets.Way("a4", "en", "western"))
            )
        assert started.wait(10) and sheets.WORKER.busy()
        phone = threading.Thread(
            target=lambda: answers.append(app.test_client().get(f"/games/{asked}/sheet.pdf"))
        )
        phone.start()
    finally:
        gate.set()
        assert sheets.WORKER.wait_idle()
    phone.join(30)
    [response] = answers
    assert response.status_code == 200 and response.data.startswith(b"%PDF-1")
    assert "Other table" in pdf_text(response.data)


def test_sheet__a_request_for_the_sheet_being_made_waits_for_it(
    app, table, client, renders, monkeypatch
):
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:-1])
    client.get(f"/games/{game_id}/sheet.pdf")  # printed once: made again after each save
    started = threading.Event()

    def wrap(real):
        def slow(document, **way):
            if who_asked() == "sheet-worker":
                started.set()
            return real(document, **way)

        return slow

    patch_render(monkeypatch, wrap)
    table.enter(game_id, NIGHT[-1])
    assert started.wait(10)
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    assert sheets.WORKER.wait_idle()
    assert [who for who, _ in renders] == ["MainThread", "sheet-worker"]


def test_sheet__every_answer_whole_while_tables_save_and_print(app, table, client, renders):
    """Phones printing while the table saves and the worker makes sheets: every answer is a
    whole PDF, a 304, or the printing queue's 503 with ``Retry-After`` (the three phones share
    one group's and one address's share of it, which a slow render fills), after which the
    phone asks again as a browser would and gets its sheet; one ETag always names the same
    sheet."""
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:8])
    client.get(f"/games/{game_id}/sheet.pdf")
    seen: dict[str, str] = {}
    problems: list[str] = []
    whole: Counter[str] = Counter()
    lock = threading.Lock()

    def phone(name: str, lang: str) -> None:
        other = app.test_client()
        other.set_cookie("lang", lang)
        tag = None
        asked, busy = 0, 0
        while asked < 6 and busy < 200:
            response = other.get(
                f"/games/{game_id}/sheet.pdf", headers={"If-None-Match": tag} if tag else {}
            )
            if response.status_code == 503:
                busy += 1
                if int(response.headers.get("Retry-After", "0")) < 1:
                    problems.append("a 503 without Retry-After")
                time.sleep(0.05)  # Retry-After, shortened: the render goes on meanwhile
                continue
            asked += 1
            if response.status_code == 304:
                continue
            if (
                response.status_code != 200
                or not response.data.startswith(b"%PDF-")
                or not response.data.rstrip().endswith(b"%%EOF")
            ):
                problems.append(f"{response.status_code} {response.data[:20]!r}")
                continue
            tag = response.headers["ETag"]
            text = pdf_text(response.data)
            with lock:
                whole[name] += 1
                if seen.setdefault(tag, text) != text:
                    problems.append(f"ETag {tag} named two sheets")

    phones = [
        threading.Thread(target=phone, args=(name, lang))
        for name, lang in (("first", "en"), ("second", "ar"), ("third", "en"))
    ]
    for thread in phones:
        thread.start()
    for deal in NIGHT[8:12]:
        table.enter(game_id, deal)
    for thread in phones:
        thread.join(60)
    assert sheets.WORKER.wait_idle()
    assert not problems and seen
    assert set(whole) == {"first", "second", "third"}  # every phone got its sheet


def test_sheet__made_ahead_in_a_process_of_its_own(app, table, client, monkeypatch):
    """When the app serves, a sheet made ahead is laid out in the printing process, not in a
    thread of the server (WeasyPrint's 0.2 s of Python would hold every request up): the
    server's own ``game_pdf`` job is not called, and the sheet kept is the game's as it
    stands."""
    app.config["PRINT_IN_PROCESS"] = True
    in_server: list[str] = []

    def wrap(real):
        def watched(document, **way):
            in_server.append(threading.current_thread().name)
            return real(document, **way)

        return watched

    patch_render(monkeypatch, wrap)
    game_id = table.new_game(first_king=2)
    store_deals(app, game_id, NIGHT[:-1])
    table.enter(game_id, NIGHT[-1])  # the last deal: the sheet is made ahead
    assert sheets.WORKER.wait_idle()
    assert in_server == []  # laid out elsewhere
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    assert in_server == []  # and kept, ready for the tap
    text = pdf_text(response.data)
    assert all(name in text for name in PLAYERS) and "Winner" in text
