"""Issue 39, item 2: fair renders (web/keeping/printer.py). Each group (its database file) and each
client (the address the app sees) has a bounded share of the printing queue's renders and of
its waiting requests, so that one group's flood, or one client's, never takes another group's
sheets; and a render's key holds only what the server offers (a language, digits, a paper):
no cookie makes a new render. Through the real server: tests/web/test_issue39_fair_live.py."""

from __future__ import annotations

import re
import threading
import time
from urllib.parse import urlencode

import pytest

from scorekeeper.printing import pool
from scorekeeper.web.keeping import printer

from group_helpers import InGroup, groups_app, start_group
from test_defects_hosting import hosted, member as hosted_member  # noqa: F401 (a fixture)
from test_web_flood import HeldRenders
from web_helpers import Table

BLANK = "/sheet/blank.pdf"


@pytest.fixture(autouse=True)
def printer_of_its_own(monkeypatch):
    """A fresh queue and store for each test, with a printer thread for each render the queue
    admits: a held render holds only its own, and what is checked is the queue's admission."""
    monkeypatch.setattr(pool, "PRINTERS", printer.QUEUE)
    monkeypatch.setattr(printer, "PRINTER", printer.Printer())
    monkeypatch.setattr(printer, "KEPT", printer.Kept(64))


@pytest.fixture
def app(tmp_path):
    """A box of many groups, its renders in the printer's threads, where the test holds them."""
    return groups_app(tmp_path, PRINT_IN_PROCESS=False)


def on_hold(names: tuple) -> bool:
    """The sheets the tests hold: those with a name that says "hold"."""
    return any("hold" in name for name in names)


@pytest.fixture
def held(monkeypatch):
    renders = HeldRenders(monkeypatch, on_hold)
    yield renders
    renders.release()


def names(tag: str) -> str:
    return "?" + urlencode([("names", f"{tag} {seat}") for seat in range(4)])


def member(app, join: str):
    """A new phone that joined by the link."""
    phone = app.test_client()
    assert phone.get(join).status_code == 303
    return phone


def flood(app, askers: list[tuple[str, str, str]]) -> tuple[list[threading.Thread], list]:
    """Members (*askers*: group, join link, address), each a phone of its own, ask at once for
    a different blank sheet that is held: the threads, and the list their answers go to."""
    answers: list = []
    threads = []
    for index, (group, join, address) in enumerate(askers):
        phone = InGroup(member(app, join), group)
        url = BLANK + names(f"hold{index}")

        def ask(phone=phone, url=url, address=address):
            answers.append(phone.get(url, environ_base={"REMOTE_ADDR": address}))

        threads.append(threading.Thread(target=ask))
    for thread in threads:
        thread.start()
    return threads, answers


def settle(threads: list, answers: list, waiting: int) -> None:
    """Wait until every flooding request is refused or waits, *waiting* of them waiting."""
    deadline = time.monotonic() + 20
    while len(answers) + printer.PRINTER._waiting < len(threads) or (
        printer.PRINTER._waiting < waiting
    ):
        assert time.monotonic() < deadline, (len(answers), printer.PRINTER._waiting)
        time.sleep(0.05)


def finish(held: HeldRenders, threads: list) -> None:
    held.release()
    for thread in threads:
        thread.join(30)


def test_issue39_2__a_groups_flood_takes_its_share_and_another_group_gets_its_sheet(app, held):
    a, join_a, _ = start_group(app, "Flooded", address="10.9.0.1")
    b, _, phone_b = start_group(app, "Café Layali", address="10.9.0.2")
    threads, answers = flood(app, [(a, join_a, f"10.0.0.{i}") for i in range(6)])
    share = printer.PRINTER.share.group_waiting
    settle(threads, answers, share)
    assert printer.PRINTER._waiting == share  # the rest of the queue stays free for others
    refused = [r for r in answers if r.status_code == 503]
    assert len(refused) == 6 - share
    assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
    assert all(b"being prepared" in r.data for r in refused)
    assert printer.PRINTER.refused["group waiting"] == 6 - share
    sheet = InGroup(phone_b, b).get(BLANK + names("Rami"), environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF-")
    finish(held, threads)
    assert sorted(r.status_code for r in answers) == [200] * share + [503] * (6 - share)


def test_issue39_2__one_client_takes_its_share_whatever_group_it_asks_of(app, held):
    groups = [start_group(app, f"Table {n}", address=f"10.9.0.{n}") for n in range(4)]
    threads, answers = flood(app, [(group, join, "10.6.6.6") for group, join, _ in groups])
    share = printer.PRINTER.share.client_waiting
    settle(threads, answers, share)
    assert printer.PRINTER._waiting == share
    assert printer.PRINTER.refused["client waiting"] == 4 - share
    c, _, phone_c = start_group(app, "Another table", address="10.9.0.9")
    sheet = InGroup(phone_c, c).get(BLANK + names("Lina"), environ_base={"REMOTE_ADDR": "10.2.2.2"})
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF-")
    finish(held, threads)
    assert sorted(r.status_code for r in answers) == [200] * share + [503] * (4 - share)


def test_issue39_2__a_groups_renders_left_running_count_against_its_share(app, held, monkeypatch):
    """A request that stops waiting leaves its render running: those count against the group's
    share of the queue, so a group cannot fill it by asking and leaving."""
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(wait_seconds=0.2))
    a, join_a, phone_a = start_group(app, "Flooded", address="10.9.0.1")
    b, _, phone_b = start_group(app, "Café Layali", address="10.9.0.2")
    share = printer.PRINTER.share.group_queue
    for index in range(share):  # each from its own address: the client's share is not met
        answer = InGroup(member(app, join_a), a).get(
            BLANK + names(f"hold{index}"), environ_base={"REMOTE_ADDR": f"10.0.0.{index}"}
        )
        assert answer.status_code == 503  # told to ask again; the render goes on
    assert held.started.acquire(timeout=10)
    one_more = InGroup(phone_a, a).get(
        BLANK + names("hold-more"), environ_base={"REMOTE_ADDR": "10.0.0.99"}
    )
    assert one_more.status_code == 503
    assert printer.PRINTER.refused["group queue"] == 1
    assert ("hold-more 0", "hold-more 1", "hold-more 2", "hold-more 3") not in held.calls
    monkeypatch.setattr(printer.PRINTER, "wait_seconds", 20)
    sheet = InGroup(phone_b, b).get(BLANK + names("Omar"), environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF-")


def test_issue39_2__the_group_is_handed_to_the_pool_as_its_tenant(app, monkeypatch):
    """In the printing processes, each render names its group (the pool serves the groups'
    jobs in turn)."""
    app.config["PRINT_IN_PROCESS"] = True
    tenants: list[str] = []

    def submit(job, *args, tenant="", **kwargs):
        from concurrent.futures import Future

        tenants.append(tenant)
        done: Future = Future()
        done.set_result(pool.run(job, *args, **kwargs))
        return done

    monkeypatch.setattr(pool, "submit", submit)
    a, _, phone_a = start_group(app, "Aya's table")
    b, _, phone_b = start_group(app, "Café Layali", address="127.0.0.2")
    assert InGroup(phone_a, a).get(BLANK).status_code == 200
    assert InGroup(phone_b, b).get(BLANK).status_code == 200
    groups = app.extensions["groups"]
    assert tenants == [str(groups.path_of(a)), str(groups.path_of(b))]


def test_issue39_2__no_cookie_makes_a_new_render_of_a_shared_result(app, monkeypatch):
    """A stranger holding a group's shared result link, changing the words, language and digits
    cookies at each request, gets at most one render per language and digits the server offers:
    the words' cookie is not in the key, nor is anything else it sends."""
    made: list[dict] = []
    real = pool.JOBS["game_pdf"]
    monkeypatch.setitem(pool.JOBS, "game_pdf", lambda **p: made.append(p) or real(**p))
    group, _, phone = start_group(app)
    game = Table(InGroup(phone, group)).new_game()
    page = InGroup(phone, group).get(f"/games/{game}/result").get_data(as_text=True)
    image = re.search(rf"/g/{group}/r/games/{game}/[0-9a-f]{{32}}/sheet.png", page).group(0)
    stranger = app.test_client()
    answers = []
    for count in range(40):
        stranger.set_cookie("words_en", f"queens=Q{count}&trex=T{count}")
        stranger.set_cookie("words_ar", f"queens=ب{count}")
        stranger.set_cookie("lang", ("en", "ar", "fr", f"x{count}")[count % 4])
        stranger.set_cookie("digits", ("western", "arabic", f"d{count}")[count % 3])
        answers.append(stranger.get(image, environ_base={"REMOTE_ADDR": "10.6.6.6"}))
    assert {a.status_code for a in answers} == {200}
    assert all(a.data.startswith(b"\x89PNG") for a in answers)
    assert len(made) <= 4  # two languages, two kinds of digits
    assert {(p["lang"], p["digits"]) for p in made} <= {
        (lang, digits) for lang in ("en", "ar") for digits in ("western", "arabic")
    }
    assert all(p["words"] == () for p in made)


def test_issue39_2__the_groups_waiting_renders_are_made_in_turn(app, held, monkeypatch):
    """With one printer, the renders that wait for it are handed over a group's after the
    other's: group B's sheet, asked after three of A's, is made right after the one being made,
    not after all of A's."""
    monkeypatch.setattr(pool, "PRINTERS", 1)
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(wait_seconds=0.2))
    a, join_a, _ = start_group(app, "Flooded", address="10.9.0.1")
    b, _, phone_b = start_group(app, "Café Layali", address="10.9.0.2")
    for index in range(3):  # each told to ask again: the renders go on, one after the other
        answer = InGroup(member(app, join_a), a).get(
            BLANK + names(f"hold{index}"), environ_base={"REMOTE_ADDR": f"10.0.0.{index}"}
        )
        assert answer.status_code == 503
    assert held.started.acquire(timeout=10)  # the first is being made, two wait
    monkeypatch.setattr(printer.PRINTER, "wait_seconds", 30)
    answers: list = []
    thread = threading.Thread(
        target=lambda: answers.append(
            InGroup(phone_b, b).get(BLANK + names("Rami"), environ_base={"REMOTE_ADDR": "10.1.1.1"})
        )
    )
    thread.start()
    deadline = time.monotonic() + 10
    while printer.PRINTER._waiting < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    held.release()
    thread.join(60)
    assert [r.status_code for r in answers] == [200]
    while printer.PRINTER.busy():  # A's go on
        assert time.monotonic() < deadline + 30
        time.sleep(0.05)
    assert [call[0] for call in held.calls] == ["hold0 0", "Rami 0", "hold1 0", "hold2 0"]


def test_issue39_2__behind_the_proxy_each_phone_is_a_client_of_its_own(
    hosted,  # noqa: F811 (the fixture)
    held,
    monkeypatch,
):
    """Behind the TLS proxy (``--proxy-hops 1``) a client is the phone's address the proxy
    forwards, not the proxy's: one phone's flood takes its own share, and another phone of the
    same group still gets its sheet."""
    hosted.config["PRINT_IN_PROCESS"] = False
    monkeypatch.setattr(printer, "PRINTER", printer.Printer(share=printer.Share(client_waiting=1)))
    flooder = hosted_member(hosted, "203.0.113.66")
    answers: list = []
    threads = [
        threading.Thread(target=lambda i=i: answers.append(flooder.get(BLANK + names(f"hold{i}"))))
        for i in range(3)
    ]
    for thread in threads:
        thread.start()
    settle(threads, answers, 1)
    assert [r.status_code for r in answers] == [503, 503]
    assert printer.PRINTER.refused["client waiting"] == 2
    sheet = hosted_member(hosted, "203.0.113.77").get(BLANK + names("Aya"))
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF-")
    finish(held, threads)
