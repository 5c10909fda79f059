"""Issue 40, item 3, through the real server: ``scorekeeper serve --groups --workers 2``
(waitress, two server processes, CSRF on) while ``scorekeeper restore --group B`` runs in a
process of its own. A phone of group A keeps entering deals, every one acknowledged and
stored; B's phone reads "being restored" (503, ``Retry-After``) meanwhile and the restored
games after, still a member; a refused restore and a restore killed halfway leave B as it was
and lock nobody out."""

from __future__ import annotations

import itertools
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_fair import joined, start_group  # noqa: E402
from live_server import Server, enter_deal, simulated  # noqa: E402
from load_tables import start_game  # noqa: E402

from scorekeeper.store import restoring  # noqa: E402

pytestmark = pytest.mark.slow  # the real server, and restores of several seconds

ROOT = Path(__file__).resolve().parents[2]
BEING_RESTORED = "being restored from a backup"


def cli(instance: Path, *args: str, wait: bool = True):
    command = [sys.executable, "-m", "scorekeeper.cli", *args, "--instance", str(instance)]
    if not wait:
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def deals_in(database: Path, game_id: int) -> int:
    with sqlite3.connect(database) as conn:
        return conn.execute("select count(*) from deals where game_id = ?", [game_id]).fetchone()[0]


class Watcher(threading.Thread):
    """B's phone, reading its game's page and its state (JSON) over and over: what it got."""

    def __init__(self, phone, game_id: int):
        super().__init__(daemon=True)
        self.phone, self.game_id = phone, game_id
        self.stop, self.seen, self.wrong = threading.Event(), Counter(), []
        self.deals: list[int] = []  # what each state read said, in order

    def run(self) -> None:
        for path in itertools.cycle(
            (f"/games/{self.game_id}", f"/games/{self.game_id}/state.json")
        ):
            if self.stop.is_set():
                break
            reply = self.phone.request("watch", "GET", path)
            self.seen[reply.status] += 1
            if reply.status == 200 and path.endswith(".json"):
                self.deals.append(json.loads(reply.body)["deals"])
            if reply.status == 503 and (
                BEING_RESTORED not in reply.body
                or reply.headers.get("Retry-After") != str(restoring.RETRY_SECONDS)
            ):
                self.wrong.append((path, reply.status, reply.body[:200]))
            elif reply.status not in (200, 503):
                self.wrong.append((path, reply.status, reply.body[:200]))
            time.sleep(0.02)


class Player(threading.Thread):
    """A's phone, entering deals (game after game) until told to stop."""

    def __init__(self, phone):
        super().__init__(daemon=True)
        self.phone, self.stop = phone, threading.Event()
        self.acknowledged: dict[int, int] = {}
        self.error: str | None = None

    def run(self) -> None:
        try:
            for seed in itertools.count(11):
                game = simulated(seed)
                game_id = start_game(self.phone, game)
                self.acknowledged[game_id] = 0
                for number, deal in enumerate(game["deals"], start=1):
                    if self.stop.is_set():
                        return
                    enter_deal(self.phone, game_id, number, deal)
                    self.acknowledged[game_id] += 1
        except Exception as exc:  # noqa: BLE001 (said by the test)
            self.error = f"{type(exc).__name__}: {exc}"


def wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


def test_issue40_3__group_b_is_restored_while_a_phone_of_group_a_keeps_entering_deals(tmp_path):
    instance = tmp_path / "instance"
    phones = []
    server = Server(
        tmp_path / "unused.sqlite3", instance, args=("--groups", "--workers", "2")
    ).start()
    try:
        port = server.port
        a, _, phone_a = start_group(port, "Aya's table", "127.0.0.10")
        b, join_b, phone_b = start_group(port, "Café Layali", "127.0.0.20")
        member_b = joined(port, b, join_b, "127.0.0.21")  # a member, not the group's admin
        phones += [phone_a, phone_b, member_b]
        file_b = instance / "groups" / f"{b}.sqlite3"
        game = simulated(5)
        game_b = start_game(phone_b, game)
        for number, deal in enumerate(game["deals"][:3], start=1):
            enter_deal(phone_b, game_b, number, deal)
        backup = tmp_path / "b-three-deals.sqlite3"
        done = cli(instance, "backup", "--group", b, "-o", str(backup))
        assert done.returncode == 0, done.stderr
        for number, deal in enumerate(game["deals"][3:5], start=4):
            enter_deal(phone_b, game_b, number, deal)
        assert deals_in(file_b, game_b) == 5

        # a file that is no scorekeeper's backup: refused, B as it was, nobody locked out
        foreign = tmp_path / "foreign.sqlite3"
        with sqlite3.connect(foreign) as conn:
            conn.execute("create table notes (text)")
        watcher = Watcher(phone_b, game_b)
        watcher.start()
        refused = cli(instance, "restore", str(foreign), "--group", b)
        watcher.stop.set()
        watcher.join()
        assert refused.returncode == 2 and "Nothing was changed" in refused.stderr
        assert "Traceback" not in refused.stderr
        assert f"Group {b} answers 'being restored'" in refused.stdout  # marked meanwhile
        assert watcher.seen[200] > 0 and not watcher.wrong, (watcher.seen, watcher.wrong)
        assert not restoring.mark_path(file_b).exists()
        assert deals_in(file_b, game_b) == 5
        assert phone_b.request("page", "GET", f"/games/{game_b}").status == 200

        # a restore killed halfway: its mark is left, ignored; B as it was
        stopped = cli(instance, "restore", str(backup), "--group", b, wait=False)
        try:
            wait_for(lambda: phone_b.request("page", "GET", "/").status == 503)
            # a form sent meanwhile, CSRF token or not: "being restored", before any check
            sent = member_b.request("save", "POST", f"/games/{game_b}/deals/new", {"king": "0"})
            assert sent.status == 503 and BEING_RESTORED in sent.body, sent.status
        finally:
            stopped.kill()
            stopped.communicate()
        assert restoring.mark_path(file_b).exists()
        assert phone_b.request("page", "GET", f"/games/{game_b}").status == 200
        assert deals_in(file_b, game_b) == 5

        # the restore, while A's phone keeps entering deals and B's phone reads
        player, watcher = Player(phone_a), Watcher(member_b, game_b)
        player.start()
        wait_for(lambda: sum(player.acknowledged.values()) >= 2)
        watcher.start()
        before = sum(player.acknowledged.values())
        done = cli(instance, "restore", str(backup), "--group", b)
        during = sum(player.acknowledged.values()) - before
        time.sleep(0.5)
        player.stop.set()
        watcher.stop.set()
        player.join(timeout=60)
        watcher.join(timeout=60)
        assert done.returncode == 0, done.stderr
        assert "Restored 1 game" in done.stdout
        assert f"Group {b} answers 'being restored'" in done.stdout
        assert player.error is None, player.error
        assert during > 0  # A's deals went on while B was restored
        assert watcher.seen[503] > 0 and watcher.seen[200] > 0 and not watcher.wrong, (
            watcher.seen,
            watcher.wrong,
        )
        # the old file or the restored one, never a mix: five deals, then three, then no more five
        assert watcher.deals and set(watcher.deals) <= {5, 3}, watcher.deals
        assert watcher.deals[-1] == 3 and 5 not in watcher.deals[watcher.deals.index(3) :]
        file_a = instance / "groups" / f"{a}.sqlite3"
        for game_id, count in player.acknowledged.items():
            assert deals_in(file_a, game_id) == count, game_id  # every deal acknowledged, kept
        # B: the backup's three deals, read by the same phone, still a member
        assert deals_in(file_b, game_b) == 3
        page = member_b.request("page", "GET", f"/games/{game_b}")
        assert page.status == 200, page.body[:300]
        assert member_b.request("page", "GET", "/players/").status == 200
        state = member_b.request("state", "GET", f"/games/{game_b}/state.json")
        assert state.status == 200 and '"deals":3' in state.body.replace(" ", ""), state.body[:300]
        enter_deal(phone_b, game_b, 4, game["deals"][3])  # and keeps score again
        [kept] = (instance / "groups").glob(f"{b}.sqlite3.before-restore-*")
        assert deals_in(kept, game_b) == 5  # what the restore replaced is kept
        assert not restoring.mark_path(file_b).exists()
    finally:
        for phone in phones:
            phone.close()
        server.stop()
    assert "Traceback" not in server.output()
