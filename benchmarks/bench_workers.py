"""Paced tables against ``scorekeeper serve --workers N``: the save p99 with 1, 2 and 4 server
processes.

    python benchmarks/bench_workers.py [--workers 1 2 4] [--tables 50] [--pace 2] [--seconds 40]

For each N: a fresh database, ``scorekeeper serve --workers N`` (waitress, CSRF on) on a free
port of 127.0.0.1, then --tables tables (a thread each) entering the deals of simulated games
through the forms (form, preview, save, game page), each saving once every --pace seconds,
for --seconds. It reports the saves, their p50 and p99, and checks afterwards that every
acknowledged deal is stored exactly once (``load_tables.verify``). BENCHMARKS.md records the
figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_tables import (  # noqa: E402
    Phone,
    TableRun,
    enter_deal,
    free_port,
    percentile,
    simulated,
    start_game,
    verify,
)


def paced(port: int, run: TableRun, pace: float, stop: float, saves: list[float]) -> None:
    phone = Phone(
        port, record=lambda kind, reply: saves.append(reply.seconds) if kind == "save" else None
    )
    try:
        run.game_id = start_game(phone, run.game)
        next_save = time.monotonic() + random.uniform(0, pace)
        for number, deal in enumerate(run.game["deals"], start=1):
            time.sleep(max(0.0, next_save - time.monotonic()))
            if time.monotonic() > stop:
                break
            run.acknowledged.append((number, enter_deal(phone, run.game_id, number, deal)))
            next_save += pace
    except Exception as exc:  # noqa: BLE001 (reported)
        run.error = f"table {run.seed}: {type(exc).__name__}: {exc}"
    finally:
        phone.close()


def one(workers: int, tables: int, pace: float, seconds: float) -> str:
    work = Path(tempfile.mkdtemp(prefix=f"bench-workers-{workers}-"))
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(work / "instance")}
    env.pop("SCOREKEEPER_DB", None)
    log = open(work / "server.log", "ab")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--db",
            str(work / "db.sqlite3"),
            "--port",
            str(port),
            "--workers",
            str(workers),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if Phone(port).request("ready", "GET", "/healthz").status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        saves: list[float] = []
        stop = time.monotonic() + seconds
        runs = [TableRun(seed, simulated(seed)) for seed in range(500, 500 + tables)]
        threads = [
            threading.Thread(target=paced, args=(port, run, pace, stop, saves)) for run in runs
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        problems = verify(work / "db.sqlite3", runs) + [r.error for r in runs if r.error]
        return (
            f"{workers} worker{'s' if workers > 1 else ''}: {tables} tables, a save every "
            f"{pace:g} s each, {seconds:g} s: {len(saves)} saves, p50 "
            f"{percentile(saves, 50) * 1000:.0f} ms, p99 {percentile(saves, 99) * 1000:.0f} "
            f"ms, slowest {max(saves) * 1000:.0f} ms; {len(problems)} problems"
            + "".join(f"\n   {p}" for p in problems[:3])
        )
    finally:
        server.terminate()
        server.wait(timeout=20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args(argv)
    for count in args.workers:
        print(one(count, args.tables, args.pace, args.seconds), flush=True)
    print(
        f"Machine: {platform.platform()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
