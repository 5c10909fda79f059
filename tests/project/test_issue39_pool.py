"""Issue 39, item 1: one printing pool and one advisor pool per box, shared by every server
process (``engine/service.py``), tested on a real ``scorekeeper serve --workers 2`` (waitress)
and on the service itself.

- At rest, the box runs at most workers + cores + 4 processes: one fork server, one resource
  tracker and one set of printers, whatever the number of workers.
- PDFs, PNGs and advice still arrive, through every worker.
- SIGTERM stops everything (the service and its processes included) within 5 s; ``kill -9``
  of the parent leaves nothing behind; a killed service is started again, and meanwhile a
  sheet is "being prepared" (503), never a 500.
- The service serves waiting jobs round-robin across tenants, not first come first served.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from live_server import Phone, Server, enter_deal, simulated
from load_tables import start_game
from test_good_citizen import command, cpu_seconds, descendants, gone_within

from scorekeeper.engine import service
from scorekeeper.engine.processes import cores

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

WORKERS = 2
NAMES = "names=Ann&names=Bob&names=Cy&names=Di"


def kinds(pids: set[int]) -> list[str]:
    return [command(pid) for pid in pids]


def services(root: int) -> set[int]:
    return {pid for pid in descendants(root) if "scorekeeper.engine.service" in command(pid)}


def at_rest(root: int, seconds: float = 30) -> set[int]:
    """The processes under *root* once the service and its printers are up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = descendants(root)
        if services(root) and any("forkserver" in command(p) for p in found):
            break
        time.sleep(0.2)
    used = cpu_seconds(root)
    while time.monotonic() < deadline:  # the printers have loaded WeasyPrint and gone quiet
        time.sleep(1.0)
        now = cpu_seconds(root)
        if now - used < 0.03:
            return descendants(root)
        used = now
    raise AssertionError(kinds(descendants(root)))


def sheet_comes_back(phone: Phone, seconds: float = 20) -> None:
    """Blank sheets asked for until one comes: each answer meanwhile is 503, never a 500."""
    statuses: list[int] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        reply = phone.request("blank", "GET", f"/sheet/blank.pdf?{NAMES}&n={len(statuses)}")
        statuses.append(reply.status)
        if reply.status == 200:
            break
        time.sleep(0.2)
    assert statuses[-1] == 200 and set(statuses) <= {200, 503}, statuses


@pytest.fixture
def box(tmp_path):
    server = Server(
        tmp_path / "pool.sqlite3", tmp_path / "instance", args=("--workers", str(WORKERS))
    ).start()
    phone = Phone(server.port)
    try:
        yield server, phone
    finally:
        phone.close()
        server.kill()


def test_issue39_1__the_box_at_rest_runs_one_pool_whatever_its_workers(box):
    server, _phone = box
    tree = at_rest(server.process.pid)
    commands = kinds(tree)
    assert len(tree) + 1 <= WORKERS + cores() + 4, commands
    assert sum("forkserver import main" in c for c in commands) == 1 + 1, commands  # + 1 printer
    assert sum("resource_tracker import main" in c for c in commands) == 1, commands
    assert len(services(server.process.pid)) == 1, commands


def test_issue39_1__pdfs_pngs_and_advice_arrive_through_every_worker(box):
    server, phone = box
    game = simulated(7)
    game_id = start_game(phone, game)
    enter_deal(phone, game_id, 1, game["deals"][0])
    root = server.process.pid
    before = descendants(root)
    for number in range(6):  # new connections: the kernel hands them to either worker
        asker = Phone(server.port)
        try:
            blank = asker.request("blank", "GET", f"/sheet/blank.pdf?{NAMES}{number}")
            sheet = asker.request("sheet", "GET", f"/games/{game_id}/sheet.pdf?n={number}")
            image = asker.request("png", "GET", f"/games/{game_id}/sheet.png?n={number}")
        finally:
            asker.close()
        assert blank.status == 200 and blank.body.startswith("%PDF"), blank.status
        assert sheet.status == 200 and sheet.body.startswith("%PDF"), sheet.status
        assert image.status == 200 and image.body[1:4] == "PNG", image.status
    advice = phone.request("advise", "GET", f"/games/{game_id}/advise")
    assert advice.status == 200
    # the advisor's processes, where the box has more than one core, are the service's
    after = descendants(root) - before
    [keeper] = services(root)
    assert after <= descendants(keeper), kinds(after)


def test_issue39_1__sigterm_stops_the_service_and_its_processes_within_5_s(box):
    server, phone = box
    game = simulated(8)
    game_id = start_game(phone, game)
    enter_deal(phone, game_id, 1, game["deals"][0])
    assert phone.request("advise", "GET", f"/games/{game_id}/advise").status == 200
    helpers = at_rest(server.process.pid)
    assert services(server.process.pid)
    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=10)
    assert time.monotonic() - signalled < 5.0
    assert server.process.returncode == 0, server.output()[-2000:]
    left = gone_within(helpers, 0.5)
    assert left == set(), kinds(left)


def test_issue39_1__kill_9_of_the_parent_leaves_no_process_behind(box):
    server, _phone = box
    helpers = at_rest(server.process.pid)
    [keeper] = services(server.process.pid)
    folder = Path(command(keeper).split()[-2]).parent  # its socket's
    assert folder.is_dir()
    os.kill(server.process.pid, signal.SIGKILL)  # the parent alone, not its process group
    left = gone_within(helpers, 5.0)
    assert left == set(), kinds(left)
    assert not folder.exists()  # the service removed it as it ended


def test_issue39_1__a_killed_service_starts_again_and_meanwhile_a_sheet_is_never_a_500(box):
    server, phone = box
    root = server.process.pid
    at_rest(root)
    [first] = services(root)
    os.kill(first, signal.SIGKILL)
    sheet_comes_back(phone)
    again = services(root)
    assert again and first not in again


def test_issue39_1__a_killed_printer_is_replaced_and_meanwhile_a_sheet_is_never_a_500(box):
    server, phone = box
    root = server.process.pid
    at_rest(root)
    [keeper] = services(root)
    forked = [pid for pid in descendants(keeper) if "forkserver" in command(pid)]
    printers = {pid for pid in forked if not descendants(pid)}  # the fork server's children
    assert printers, kinds(descendants(keeper))
    for pid in printers:
        os.kill(pid, signal.SIGKILL)
    statuses = []
    for number in range(6):
        reply = phone.request("blank", "GET", f"/sheet/blank.pdf?{NAMES}&k={number}")
        statuses.append(reply.status)
        if reply.status != 200:
            time.sleep(0.5)
    assert statuses[-1] == 200 and set(statuses) <= {200, 503}, statuses
    assert services(root) == {keeper}  # the service itself went on


def test_issue39_1__with_one_worker_a_killed_service_starts_again_and_kill_9_leaves_nothing(
    tmp_path,
):
    server = Server(tmp_path / "one.sqlite3", tmp_path / "instance", args=("--workers", "1"))
    server.start()
    phone = Phone(server.port)
    try:
        root = server.process.pid
        tree = at_rest(root)
        assert len(tree) + 1 <= 1 + cores() + 4, kinds(tree)
        [first] = services(root)
        os.kill(first, signal.SIGKILL)  # the server's own thread starts it again
        sheet_comes_back(phone)
        helpers = at_rest(root)
        assert first not in helpers and services(root)
        os.kill(root, signal.SIGKILL)
        left = gone_within(helpers, 5.0)
        assert left == set(), kinds(left)
    finally:
        phone.close()
        server.kill()


# -- the service itself ------------------------------------------------------------------------
@pytest.fixture
def keeper():
    kept = service.Keeper().start()
    try:
        yield kept
    finally:
        kept.stop()
        service.use(None)


def test_issue39_1__waiting_jobs_are_taken_in_turn_across_tenants():
    fair = service.Fair()
    for n in range(4):
        fair.put("a", f"a{n}")
    fair.put("b", "b0")
    fair.put("c", "c0")
    fair.put("b", "b1")
    assert [fair.take() for _ in range(len(fair))] == ["a0", "b0", "c0", "a1", "b1", "a2", "a3"]


def test_issue39_1__the_service_takes_waiting_jobs_in_turn_across_tenants(keeper):
    one = service.Spec("test-one", 1, 0)
    done: list[str] = []

    def job(name: str, tenant: str):
        future = service.submit(one, tenant, time.sleep, 0.3)
        future.add_done_callback(lambda _f: done.append(name))
        return future

    flood = [job(f"a{n}", "group-a") for n in range(5)]
    time.sleep(0.2)  # group A's five are waiting (one of them running) before B asks
    other = job("b", "group-b")
    other.result(timeout=30)
    for future in flood:
        future.result(timeout=30)
    # first come first served would make B's job the sixth done; in turn, it is at most third
    assert done.index("b") <= 2, done


def test_issue39_1__a_job_fails_as_a_broken_pool_and_an_error_comes_back_as_itself(keeper):
    spec = service.Spec("test-errors", 1, 0)
    assert service.submit(spec, "", divmod, 7, 2).result(timeout=30) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        service.submit(spec, "", divmod, 1, 0).result(timeout=30)
    keeper.stop()
    gone = service.submit(spec, "", divmod, 7, 2)  # never raises itself: its future fails
    with pytest.raises(BrokenProcessPool):
        gone.result(timeout=30)


def test_issue39_1__only_a_process_with_the_key_hands_the_service_a_job(keeper):
    spec = service.Spec("test-key", 1, 0)
    service.use(keeper.address, b"not the key")
    stranger = service.submit(spec, "", divmod, 7, 2)
    with pytest.raises(Exception) as refused:
        stranger.result(timeout=30)
    assert not isinstance(refused.value, AssertionError)
    assert oct(os.stat(keeper.folder).st_mode & 0o777) == "0o700"
    service.use(keeper.address, keeper.key)
    assert service.submit(spec, "", divmod, 7, 2).result(timeout=30) == (3, 1)


def test_issue39_1__a_service_that_cannot_start_leaves_each_process_its_own_pools(
    tmp_path, monkeypatch, capsys
):
    import tempfile

    from scorekeeper.web.serve import start_job_service

    deep = tmp_path / ("d" * 60) / ("e" * 60)  # a socket's path is at most 107 bytes
    deep.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(deep))
    try:
        assert start_job_service() is None
        assert not service.connected()
    finally:
        service.use(None)
    assert "each server process starts its own" in capsys.readouterr().err
    assert list(deep.iterdir()) == []  # its folder is removed


def test_issue39_1__a_service_told_to_end_removes_its_folder_and_its_restart_makes_it_again(
    keeper,
):
    spec = service.Spec("test-restart", 1, 0)
    keeper.process.terminate()
    status = keeper.process.wait(timeout=10)
    assert not Path(keeper.folder).exists()
    with pytest.raises(BrokenProcessPool):  # meanwhile: a job fails, as a broken pool's does
        service.submit(spec, "", divmod, 7, 2).result(timeout=30)
    keeper.ended(status)
    assert oct(os.stat(keeper.folder).st_mode & 0o777) == "0o700"
    assert service.submit(spec, "", divmod, 7, 2).result(timeout=30) == (3, 1)
