"""Issue 27, item 1: expensive answers never starve cheap ones (web/keeping/printer.py, web/keeping/inflight.py).

Every PDF and PNG not kept is laid out by the printing pool through one bounded queue: past its
bound, 503 with Retry-After; identical requests share one render; what depends only on its
parameters is kept, keyed by the database too. The advisor's work is limited per game, per
client address and in all."""

from __future__ import annotations

import threading
from typing import Callable

import pytest

from scorekeeper.printing import pool
from scorekeeper.web import create_app
from scorekeeper.web.keeping import inflight, printer
from scorekeeper.web.pages import advise as advise_page

from web_helpers import Table, soup

HAND = "KH 2H 3H 4H 5H 6H 7H 3S 4S 5S 3D 4D 3C".split()
BLANK = "/sheet/blank.pdf"


@pytest.fixture(autouse=True)
def printer_of_its_own(monkeypatch):
    """A fresh queue and store for each test."""
    monkeypatch.setattr(printer, "PRINTER", printer.Printer())
    monkeypatch.setattr(printer, "KEPT", printer.Kept(64))


@pytest.fixture
def app(app):
    """The suite's app, its renders in the printer's threads, where the test can count and
    hold them."""
    app.config["PRINT_IN_PROCESS"] = False
    return app


class HeldRenders:
    """The blank sheet's printing job, counted, and held until :meth:`release` (those whose
    names *hold* says)."""

    def __init__(self, monkeypatch, hold: Callable[[tuple], bool] = lambda names: True):
        self.calls: list[tuple] = []
        self.started = threading.Semaphore(0)
        self.gate = threading.Event()
        real = pool.JOBS["blank_pdf"]

        def held(**params):
            assert threading.current_thread().name.startswith("printer")  # never a request's
            self.calls.append(params["names"])
            if hold(params["names"]):
                self.started.release()
                self.gate.wait(20)
            return real(**params)

        monkeypatch.setitem(pool.JOBS, "blank_pdf", held)

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def held(monkeypatch):
    renders = HeldRenders(monkeypatch)
    yield renders
    renders.release()


def in_thread(app, url: str, answers: list) -> threading.Thread:
    thread = threading.Thread(target=lambda: answers.append(app.test_client().get(url)))
    thread.start()
    return thread


def test_item1__past_the_queue_bound_the_answer_is_503_with_retry_after(app, held, monkeypatch):
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(queue=1, waiting=4))
    answers: list = []
    first = in_thread(app, BLANK, answers)
    assert held.started.acquire(timeout=10)  # one render queued: the bound
    busy = app.test_client().get(BLANK + "?names=A&names=B&names=C&names=D")
    assert busy.status_code == 503
    assert int(busy.headers["Retry-After"]) >= 1
    assert "being prepared" in soup(busy).get_text(" ", strip=True)
    held.release()
    first.join(30)
    assert [a.status_code for a in answers] == [200]
    assert held.calls == [()]  # the refused one was never queued


def test_item1__past_the_waiting_requests_bound_the_answer_is_503(app, held, monkeypatch):
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(queue=8, waiting=1))
    answers: list = []
    first = in_thread(app, BLANK, answers)
    assert held.started.acquire(timeout=10)
    same = app.test_client().get(BLANK)  # the same render, but no thread left to wait
    assert same.status_code == 503 and same.headers["Retry-After"]
    held.release()
    first.join(30)
    assert [a.status_code for a in answers] == [200]


def test_item1__a_request_waits_a_bounded_time_then_is_told_to_ask_again(app, held, monkeypatch):
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(wait_seconds=0.2))
    response = app.test_client().get(BLANK)
    assert response.status_code == 503 and response.headers["Retry-After"]
    held.release()  # the render goes on and is kept: the next ask finds it
    for _ in range(100):
        if not printer.PRINTER.busy():
            break
        threading.Event().wait(0.1)
    again = app.test_client().get(BLANK)
    assert again.status_code == 200 and again.data.startswith(b"%PDF-")
    assert len(held.calls) == 1


def test_item1__two_identical_concurrent_requests_cause_one_render(app, held):
    answers: list = []
    first = in_thread(app, BLANK + "?paper=letter", answers)
    assert held.started.acquire(timeout=10)
    second = in_thread(app, BLANK + "?paper=letter", answers)
    for _ in range(100):  # the second waits for the first one's render
        if printer.PRINTER._waiting == 2:
            break
        threading.Event().wait(0.05)
    assert printer.PRINTER._waiting == 2
    held.release()
    first.join(30)
    second.join(30)
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].data == answers[1].data
    assert len(held.calls) == 1


def test_item1__a_kept_blank_sheet_is_not_rendered_twice(app, held):
    held.release()
    client = app.test_client()
    one = client.get(BLANK + "?names=Rami&names=Lina&names=Omar&names=Aya")
    two = client.get(BLANK + "?names=Rami&names=Lina&names=Omar&names=Aya")
    assert one.status_code == two.status_code == 200 and one.data == two.data
    assert len(held.calls) == 1
    client.set_cookie("lang", "ar")  # another parameter: another sheet
    assert client.get(BLANK + "?names=Rami&names=Lina&names=Omar&names=Aya").status_code == 200
    assert len(held.calls) == 2


def test_item1__two_databases_never_share_a_kept_answer(tmp_path, held):
    held.release()
    for name in ("one", "two"):
        other = create_app(
            {
                "TESTING": True,
                "DATABASE": str(tmp_path / f"{name}.sqlite3"),
                "INSTANCE_PATH": str(tmp_path / name),
                "PRINT_IN_PROCESS": False,
            }
        )
        assert other.test_client().get(BLANK).status_code == 200
    assert len(held.calls) == 2


# -- the advisor ------------------------------------------------------------------------------
@pytest.fixture
def advice_app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorekeeper.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": False,
            "ADVISOR_DEALS": 8,
        }
    )


@pytest.fixture
def held_advice(monkeypatch):
    """The advisor, held inside its work until the gate opens."""
    started, gate = threading.Semaphore(0), threading.Event()
    real = advise_page.advise

    def held(*args, **kwargs):
        started.release()
        gate.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(advise_page, "advise", held)
    monkeypatch.setattr(inflight, "ADVICE", inflight.InFlight(inflight.ADVICE_AT_ONCE))
    yield started, gate
    gate.set()


def ask(client, game: int, address: str):
    return client.post(
        f"/games/{game}/advise", data={"card": HAND}, environ_overrides={"REMOTE_ADDR": address}
    )


def test_item1__advice_one_at_a_time_per_client(advice_app, held_advice):
    started, gate = held_advice
    phone = advice_app.test_client()
    table = Table(phone)
    first_game, second_game = table.new_game(), table.new_game(title="Second table")
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(ask(phone, first_game, "10.0.0.7")))
    thread.start()
    assert started.acquire(timeout=10)
    again = ask(phone, second_game, "10.0.0.7")  # the same phone, another game
    assert again.status_code == 429 and int(again.headers["Retry-After"]) >= 1
    page = soup(again)
    assert "still being worked out" in page.get_text(" ", strip=True)
    assert sorted(i["value"] for i in page.select("input[name=card][checked]")) == sorted(HAND)
    gate.set()
    thread.join(30)
    assert [a.status_code for a in answers] == [200]
    assert ask(phone, second_game, "10.0.0.7").status_code == 200  # its turn now


def test_item1__advice_one_at_a_time_per_game_and_a_few_in_all(advice_app, held_advice):
    started, gate = held_advice
    phone = advice_app.test_client()
    table = Table(phone)
    games = [table.new_game(title=f"Table {n}") for n in range(3)]
    answers: list = []
    threads = [
        threading.Thread(target=lambda g=g, a=a: answers.append(ask(phone, g, a)))
        for g, a in ((games[0], "10.0.0.1"), (games[1], "10.0.0.2"))
    ]
    for thread in threads:
        thread.start()
    assert started.acquire(timeout=10) and started.acquire(timeout=10)
    same_game = ask(phone, games[0], "10.0.0.3")  # another phone, the same game
    assert same_game.status_code == 429 and same_game.headers["Retry-After"]
    busy = ask(phone, games[2], "10.0.0.4")  # another game and phone: two are worked out
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert "advisor is busy" in soup(busy).get_text(" ", strip=True)
    gate.set()
    for thread in threads:
        thread.join(30)
    assert sorted(a.status_code for a in answers) == [200, 200]


# -- charts -------------------------------------------------------------------------------------
def test_item1__a_games_running_totals_chart_is_kept_until_the_game_changes(
    app, client, table, monkeypatch
):
    from scorekeeper.web.pages import charts

    from test_web_game_flow import NIGHT

    monkeypatch.setattr(charts, "RUNNING", charts.Kept(8))
    drawn: list[int] = []
    real = charts.running_totals_svg
    monkeypatch.setattr(
        charts,
        "running_totals_svg",
        lambda names, running: drawn.append(len(running)) or real(names, running),
    )
    game_id = table.new_game(first_king=2)
    table.enter(game_id, NIGHT[0])
    first = client.get(f"/charts/games/{game_id}/running.svg")
    again = client.get(f"/charts/games/{game_id}/running.svg")
    assert first.status_code == again.status_code == 200 and first.data == again.data
    assert drawn == [1]
    table.enter(game_id, NIGHT[1])  # another version of the game: drawn again
    assert client.get(f"/charts/games/{game_id}/running.svg").status_code == 200
    client.set_cookie("lang", "ar")  # another way of reading it: its own chart
    assert client.get(f"/charts/games/{game_id}/running.svg").status_code == 200
    assert drawn == [1, 2, 2]


def test_item1__past_the_charts_drawn_at_once_the_answer_is_503(app, client, table, monkeypatch):
    monkeypatch.setattr(inflight, "CHARTS", inflight.InFlight(1, inflight.CHARTS_BUSY))
    game_id = table.new_game(first_king=2)
    with inflight.CHARTS.one_each():  # another chart being drawn
        busy = client.get(f"/charts/games/{game_id}/running.svg")
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert client.get(f"/charts/games/{game_id}/running.svg").status_code == 200
