"""The lists and exports at 1,000, 10,000 and 100,000 games: time, bytes and the server's memory.

    python benchmarks/bench_growth.py [--sizes 1000,10000,100000] [--base 1000]
                                      [--import-games 2000] [--json OUT]

For each size, on 127.0.0.1 only (issue 27, item 7):

1. builds a database: --base games played by the simulator's random bots (twelve players,
   twenty games a night, a mix of the presets) go in through the importer, as a file would;
   the rest are copies of those rows made by SQL, each copy with its own players (the names
   followed by the copy's number), ids and nights (synthesised rows: importing 100,000 games
   one by one takes long on a small machine, and the pages read the same rows either way);
2. starts ``scorekeeper serve`` on it and asks, one at a time, for the home page, the first
   and a deep page of Past nights, the biggest night's page, the first and the last page of
   Players, and the export of every game (read to its end); for each: the time, the bytes
   and the server's resident memory after it, and its peak (VmHWM) over the run (an export
   still running after two minutes is stopped there: its rate gives the whole time);
3. with the server still running on the database of --import-into games, imports a file of
   --import-games new games (older than every stored game: the ratings are recomputed) with ``scorekeeper import`` while a table saves a deal every
   0.25 s, and prints the slowest save (imports are written a batch to a transaction).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_tables import Phone, Server, enter_deal, simulated, start_game  # noqa: E402

from scorekeeper.engine import PRESETS, read_game  # noqa: E402
from scorekeeper.engine.simulate import simulate_game  # noqa: E402
from scorekeeper.store import open_database, transfer  # noqa: E402

POOL = (
    "Aya",
    "Bilal",
    "Carla",
    "Dana",
    "Elias",
    "Farah",
    "Ghassan",
    "Hala",
    "Imad",
    "Lina",
    "Nour",
    "Omar",
)
PER_NIGHT = 20
LAST_NIGHT = dt.date(2026, 11, 20)


def played(count: int, seed: int, *, first_night: int = 0) -> list[dict]:
    rng = random.Random(seed)
    presets = ["standard"] * 6 + ["complex"] * 2 + ["partnership"] * 2
    docs = []
    for i in range(count):
        doc = simulate_game(
            seed * 1_000_003 + i,
            PRESETS[rng.choice(presets)],
            "random",
            players=rng.sample(POOL, 4),
        )
        doc["played_on"] = (
            LAST_NIGHT - dt.timedelta(days=first_night + i // PER_NIGHT)
        ).isoformat()
        doc["title"] = f"Game {i % PER_NIGHT + 1}"
        docs.append(doc)
    return docs


def copy_rows(db, copy: int, base: dict[str, int], nights: int) -> None:
    """Copy number *copy* of the base games: new ids, players and nights."""
    shift = {t: copy * n for t, n in base.items()}
    days = copy * nights
    conn = db.conn
    conn.execute(
        "insert into players (id, name, name_key, created_at) select id + ?, "
        "name || ' ' || ?, name_key || ' ' || ?, created_at from players where id <= ?",
        [shift["players"], copy, copy, base["players"]],
    )
    conn.execute(
        "insert into games (id, title, played_on, rules_json, first_king, created_at, "
        "updated_at, deal_count, finished, totals_json, winners_json, team_totals_json, "
        "team_result, next_king, night, preset, partnership, fingerprint, extra_json) "
        "select id + ?, title, date(played_on, ?), rules_json, first_king, created_at, "
        "updated_at, deal_count, finished, totals_json, winners_json, team_totals_json, "
        "team_result, next_king, date(night, ?), preset, partnership, "
        "fingerprint || '-' || ?, extra_json from games where id <= ?",
        [shift["games"], f"-{days} days", f"-{days} days", copy, base["games"]],
    )
    conn.execute(
        "insert into game_players (game_id, seat, player_id, total, rank, night, preset, "
        "finished) select game_id + ?, seat, player_id + ?, total, rank, date(night, ?), "
        "preset, finished from game_players where game_id <= ?",
        [shift["games"], shift["players"], f"-{days} days", base["games"]],
    )
    conn.execute(
        "insert into deals (id, game_id, number, king, contracts, thrown_in, record_json, "
        "score_0, score_1, score_2, score_3, token, version, created_at, updated_at) "
        "select id + ?, game_id + ?, number, king, contracts, thrown_in, record_json, score_0, "
        "score_1, score_2, score_3, null, version, created_at, updated_at from deals "
        "where game_id <= ?",
        [shift["deals"], shift["games"], base["games"]],
    )


def build(path: Path, total: int, base_docs: list[dict]) -> dict:
    db = open_database(str(path))
    start = time.perf_counter()
    games = [read_game(doc) for doc in base_docs]
    transfer.import_games(db, games)
    imported = time.perf_counter() - start
    base = {
        t: next(db.query(f"select max(id) as n from {t}"))["n"]
        for t in ("players", "games", "deals")
    }
    nights = -(-len(base_docs) // PER_NIGHT)
    start = time.perf_counter()
    for copy in range(1, -(-total // len(base_docs))):
        with db.atomic():
            copy_rows(db, copy, base, nights)
    copied = time.perf_counter() - start
    db.conn.execute("analyze")
    db.close()
    return {
        "games": total,
        "import_s": round(imported, 1),
        "copy_s": round(copied, 1),
        "db_mb": round(path.stat().st_size / 1e6, 1),
    }


def memory(pid: int) -> dict[str, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return fields


#: An export read for longer than this is stopped there, its rate measured and its whole
#: time extrapolated (the export of 100,000 games takes many minutes on a small machine).
EXPORT_SECONDS = 120.0


def fetch(port: int, path: str, limit: float = EXPORT_SECONDS) -> tuple[int, int, float, bool]:
    """Status, bytes and seconds of one request read to its end (or to *limit* seconds)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    size, whole = 0, True
    while chunk := response.read(65536):
        size += len(chunk)
        if time.perf_counter() - start > limit:
            whole = False
            break
    seconds = time.perf_counter() - start
    connection.close()
    return response.status, size, seconds, whole


def pages(port: int, path: Path) -> dict[str, str]:
    import sqlite3

    conn = sqlite3.connect(path)
    nights = [r[0] for r in conn.execute("select distinct night from games order by night desc")]
    deep = nights[len(nights) // 2]
    biggest = conn.execute(
        "select night from games group by night order by count(*) desc, night desc limit 1"
    ).fetchone()[0]
    last_page = -(-conn.execute("select count(*) from players").fetchone()[0] // 100)
    conn.close()
    return {
        "home": "/",
        "history": "/history/",
        "history (deep)": f"/history/?after={deep}",
        "a night": f"/history/nights/{biggest}",
        "players": "/players/",
        "players (last page)": f"/players/?page={last_page}",
        "export.json": "/history/export.json",
    }


def measure(
    folder: Path,
    size: int,
    base_docs: list[dict],
    *,
    pages_too: bool = True,
) -> tuple[dict, Server]:
    path = folder / f"g{size}.sqlite3"
    row = build(path, size, base_docs)
    print(
        f"{size:>7} games: base imported in {row['import_s']} s, copies in "
        f"{row['copy_s']} s, database {row['db_mb']} MB",
        flush=True,
    )
    server = Server(path, folder / "instance").start(timeout=60)
    pid = server.process.pid
    row["start_mb"] = memory(pid)["VmRSS"]
    row["pages"] = {}
    for name, url in (pages(server.port, path) if pages_too else {}).items():
        status, size_bytes, seconds, whole = fetch(server.port, url)
        now = memory(pid)
        row["pages"][name] = {
            "status": status,
            "seconds": round(seconds, 3),
            "bytes": size_bytes,
            "rss_mb": now["VmRSS"],
            "whole": whole,
        }
        print(
            f"    {name:20} {status} {seconds:8.3f} s {size_bytes:>12,} bytes  "
            f"RSS {now['VmRSS']:.0f} MB{'' if whole else '  (stopped there: partial)'}",
            flush=True,
        )
    row["peak_mb"] = memory(pid)["VmHWM"]
    print(
        f"    server memory: {row['start_mb']:.0f} MB at start, peak {row['peak_mb']:.0f} MB",
        flush=True,
    )
    return row, server


def saves_during_import(server: Server, folder: Path, count: int) -> dict:
    """A table saving deals while ``scorekeeper import`` writes *count* games."""
    file = folder / "import.json"
    file.write_text(
        json.dumps({"format": "trex-games/1", "games": played(count, seed=99, first_night=40_000)})
    )
    times: list[float] = []
    table = Phone(
        server.port, record=lambda kind, reply: kind == "save" and times.append(reply.seconds)
    )
    stop = threading.Event()

    def save() -> None:
        seed = 500
        while not stop.is_set():
            game = simulated(seed)
            game_id = start_game(table, game)
            for number, deal in enumerate(game["deals"], start=1):
                if stop.wait(0.25):
                    return
                enter_deal(table, game_id, number, deal)  # the save's POST is timed
            seed += 1

    thread = threading.Thread(target=save)
    thread.start()
    start = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "import",
            str(file),
            "--db",
            str(server.database),
        ],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    stop.set()
    thread.join(60)
    if result.returncode:
        print(result.stdout[-500:], result.stderr[-500:], file=sys.stderr)
    row = {
        "games": count,
        "import_s": round(seconds, 1),
        "status": result.returncode,
        "saves": len(times),
        "slowest_save_s": round(max(times, default=0), 3),
    }
    print(
        f"import of {count} games: {seconds:.1f} s (exit {result.returncode}); "
        f"{len(times)} deal saves meanwhile, the slowest {row['slowest_save_s']} s",
        flush=True,
    )
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--base", type=int, default=1000)
    parser.add_argument("--import-games", type=int, default=2000)
    parser.add_argument(
        "--import-into",
        type=int,
        default=10000,
        help="the size whose database takes the import (the biggest is full)",
    )
    parser.add_argument(
        "--import-only",
        action="store_true",
        help="build the --import-into database and import into it, nothing else",
    )
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    sizes = [args.import_into] if args.import_only else [int(s) for s in args.sizes.split(",")]
    base_docs = played(min(args.base, min(sizes)), seed=1)
    rows = []
    with tempfile.TemporaryDirectory(prefix="trex-bench-growth-") as name:
        folder = Path(name)
        for size in sizes:
            row, server = measure(folder, size, base_docs, pages_too=not args.import_only)
            rows.append(row)
            try:
                if args.import_games and size == args.import_into:
                    row["import"] = saves_during_import(server, folder, args.import_games)
            finally:
                server.stop()
    print(f"{os.uname().nodename}: {len(os.sched_getaffinity(0))} cores")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
