"""The pages a group looks back at, against the bare page, in one run (issue 41).

    .venv/bin/python benchmarks/bench_past_nights.py [--games 1000] [--seconds 5]
                                                     [--connections 16] [--keep DIR]

Builds (or, with --keep, reuses) an install of simulated finished games (``bench_history``'s,
twelve players, three games a night) with a season over the whole record, then starts ONE
``scorekeeper serve`` process (waitress) on it and ``benchmarks/reference_app.py`` (the bare
Flask page: one SQLite row, a small template, waitress) on the same file. For each page, wrk
asks it for *seconds*: first as a phone that has not seen it (200; after the first, the kept
body), then as one that has (``If-None-Match`` with the page's ETag: 304). The bare page is
measured before and after the pages, and each figure is set against their mean. Prints one
line per page: requests per second and the ratio to the bare page.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bench_history import build  # noqa: E402
from load_tables import Server, free_port  # noqa: E402

from scorekeeper.store import seasons  # noqa: E402
from scorekeeper.store.db import connect  # noqa: E402


def pages(database: Path) -> dict[str, str]:
    """The pages to measure, with real ids from the install (a season over all of it)."""
    conn = sqlite3.connect(database)
    try:
        (pid,) = conn.execute(
            "select player_id from game_players group by player_id order by count(*) desc limit 1"
        ).fetchone()
        (last,) = conn.execute("select max(id) from games").fetchone()
        first_night, last_night = conn.execute(
            "select min(night), max(night) from games"
        ).fetchone()
        found = conn.execute("select id from seasons where name = 'Everything'").fetchone()
    finally:
        conn.close()
    if found is None:
        db = connect(database)
        try:
            season = seasons.create(db, "Everything", first_night, last_night)
        finally:
            db.close()
    else:
        season = found[0]
    return {
        "home": "/",
        "history": "/history/",
        "a night": f"/history/nights/{last_night}",
        "a past game": f"/history/games/{last}",
        "leaderboard": "/leaderboard",
        "a player's page": f"/players/{pid}",
        "roster": "/players/",
        "a season (whole record)": f"/seasons/{season}",
        "contracts chart": f"/charts/players/{pid}/contracts.svg",
        "rating chart": f"/charts/players/{pid}/rating.svg",
        "running chart": f"/charts/games/{last}/running.svg",
    }


def wrk(url: str, seconds: float, connections: int, etag: str | None = None) -> float:
    """Requests per second wrk got from *url* (2 threads); the answers other than 2xx and 3xx
    (a busy server's 503) are counted out of them, and their number printed."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "30s"]
    if etag:
        command += ["-H", f"If-None-Match: {etag}"]
    result = subprocess.run([*command, url], capture_output=True, text=True, check=True)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", result.stdout).group(1))
    total = int(re.search(r"(\d+) requests in", result.stdout).group(1))
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
    if failed:
        print(f"  ({failed.group(1)} of {total} answers to {url} not 2xx/3xx)", flush=True)
        rate *= 1 - int(failed.group(1)) / total
    return rate


def first_answer(url: str) -> tuple[int, str | None]:
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
        return response.status, response.headers.get("ETag")


def wait_for(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            first_answer(url)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--keep", default=None, help="folder of the built install")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="trex-past-nights-"))
    keep = Path(args.keep) if args.keep else work
    keep.mkdir(parents=True, exist_ok=True)
    built = keep / f"past-nights-{args.games}.sqlite3"
    if not built.exists():
        print(f"building {args.games} games: {build(built, args.games):.1f} s", flush=True)
    database = work / "scorekeeper.sqlite3"
    shutil.copy(built, database)
    urls = pages(database)
    server = Server(database, work / "instance").start()
    port = free_port()
    bare = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "reference_app.py"), "--db", str(database)]
        + ["--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/")
        (game,) = sqlite3.connect(database).execute("select max(id) from games").fetchone()
        bare_url = f"http://127.0.0.1:{port}/games/{game}"
        site = f"http://127.0.0.1:{server.port}"
        print(
            f"{args.games} games; one `scorekeeper serve` process (waitress); wrk -t2 "
            f"-c{args.connections} -d{args.seconds:g}s; load {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores",
            flush=True,
        )
        bare_before = wrk(bare_url, args.seconds, args.connections)
        rows = []
        for label, path in urls.items():
            status, etag = first_answer(site + path)
            assert status == 200, (label, status)
            fresh = wrk(site + path, args.seconds, args.connections)
            # a version without validators for the page (to compare): no 304 to measure
            conditional = wrk(site + path, args.seconds, args.connections, etag) if etag else 0
            rows.append((label, fresh, conditional))
            print(f"  {label}: {fresh:.0f} and {conditional:.0f} req/s", flush=True)
        bare_after = wrk(bare_url, args.seconds, args.connections)
        bare_rate = (bare_before + bare_after) / 2
        print(
            f"{'the bare page':28} {bare_rate:9.0f} req/s  1.00×  (before {bare_before:.0f},"
            f" after {bare_after:.0f})"
        )
        print(f"{'page':28} {'200 req/s':>9}  ÷ bare  {'304 req/s':>9}  ÷ bare")
        for label, fresh, conditional in rows:
            print(
                f"{label:28} {fresh:9.0f}  {fresh / bare_rate:5.2f}×  {conditional:9.0f}"
                f"  {conditional / bare_rate:5.2f}×"
            )
    finally:
        server.stop()
        os.killpg(bare.pid, 15)
        bare.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
