"""How the history, player and leaderboard pages cost as the record grows.

    .venv/bin/python benchmarks/bench_history.py [--sizes 10 100 1000 10000] [--repeat 9]
                                                 [--keep DIR]

Builds one install per size from games played by the engine's random bots (twelve players, three
games a night, a mix of the presets), imported through the importer in batches, then times each
page with the Flask test client: the median of several requests after two warm-up requests.
With --keep, installs already built in DIR are reused.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from history_helpers import simulated_games  # noqa: E402

from scorekeeper.web import create_app  # noqa: E402
from scorekeeper.store import transfer  # noqa: E402
from scorekeeper.store.db import connect  # noqa: E402

BATCH = 500
SEED = 2026


def build(path: Path, size: int) -> float:
    """An install of *size* games at *path*; the seconds it took."""
    start = time.perf_counter()
    create_app({"DATABASE": str(path), "INSTANCE_PATH": str(path.parent / "instance")})
    db = connect(path)
    try:
        batch: list[dict] = []
        for doc in simulated_games(size, SEED, per_night=3):
            batch.append(doc)
            if len(batch) == BATCH:
                transfer.import_text(db, json.dumps({"format": "trex-games/1", "games": batch}))
                batch = []
        if batch:
            transfer.import_text(db, json.dumps({"format": "trex-games/1", "games": batch}))
        assert db.table("games").count == size
    finally:
        db.close()
    return time.perf_counter() - start


def pages(db_path: Path) -> dict[str, str]:
    """The pages to time, with real ids from the install."""
    conn = sqlite3.connect(db_path)
    try:
        (busiest,) = conn.execute(
            "select player_id from game_players group by player_id order by count(*) desc limit 1"
        ).fetchone()
        (name,) = conn.execute("select name from players where id = ?", [busiest]).fetchone()
        (last,) = conn.execute("select max(id) from games").fetchone()
        (newest,) = conn.execute("select max(night) from games").fetchone()
    finally:
        conn.close()
    return {
        "history, first page": "/history/",
        "history, search by player": f"/history/?player={name[:3]}",
        "game record (one game)": f"/history/games/{last}",
        "player page, all games": f"/players/{busiest}",
        "player page, last 30 nights": f"/players/{busiest}?from="
        f"{_days_before(newest, 30)}&to={newest}",
        "leaderboard": "/leaderboard",
        "leaderboard, standard preset": "/leaderboard?preset=standard",
        "roster": "/players/",
    }


def _days_before(day: str, days: int) -> str:
    import datetime as dt

    return (dt.date.fromisoformat(day) - dt.timedelta(days=days)).isoformat()


def time_pages(db_path: Path, repeat: int) -> dict[str, float]:
    app = create_app({"DATABASE": str(db_path), "INSTANCE_PATH": str(db_path.parent / "i")})
    client = app.test_client()
    out = {}
    for label, url in pages(db_path).items():
        for _ in range(2):
            assert client.get(url).status_code == 200, url
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(url)
            response.get_data()
            times.append(time.perf_counter() - start)
        out[label] = statistics.median(times)
    return out


def machine() -> str:
    try:
        cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    except OSError:
        cores = str(os.cpu_count())
    return (
        f"{cores} cores (nproc), {platform.machine()}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--keep", default=None, help="build (or reuse) the installs here")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="trex-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    results: dict[int, dict[str, float]] = {}
    for size in args.sizes:
        path = folder / f"games-{size}" / "db.sqlite3"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            seconds = build(path, size)
            print(
                f"built {size:>6} games in {seconds:6.1f} s ({path.stat().st_size / 1e6:.1f} MB)",
                flush=True,
            )
        results[size] = time_pages(path, args.repeat)
    labels = list(next(iter(results.values())))
    header = f"{'page':<32}" + "".join(f"{size:>10}" for size in args.sizes)
    print("\nmedian ms per request, by number of games in the install")
    print(header)
    for label in labels:
        print(f"{label:<32}" + "".join(f"{results[s][label] * 1000:>10.1f}" for s in args.sizes))
    if 1000 in results and 10000 in results:
        print("\n10,000 games / 1,000 games (at most 10 for linear growth):")
        worst = 0.0
        for label in labels:
            ratio = results[10000][label] / results[1000][label]
            worst = max(worst, ratio)
            print(f"  {label:<32}{ratio:6.2f}")
        board = results[10000]["leaderboard"] / results[1000]["leaderboard"]
        print(f"leaderboard: {board:.2f} x ({'under' if board < 10 else 'NOT under'} 10 x)")
        return 0 if worst < 10 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
