"""What the ratings cost: rating every finished game again from scratch, and the save of the deal
that finishes the latest game (rated alone, incrementally), as the record grows.

    .venv/bin/python benchmarks/bench_ratings.py [--sizes 1000 10000] [--repeat 5] [--keep DIR]

Installs are built as bench_history.py builds them (the engine's random bots, twelve players,
three games a night), reused from --keep DIR when there. Times are the median of --repeat runs,
as wall time and as this process's CPU time.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bench_history import build  # noqa: E402
from gamebuilder import standard_game  # noqa: E402

from scorekeeper.engine import HouseRules  # noqa: E402
from scorekeeper.store import ratings, storage  # noqa: E402
from scorekeeper.store.db import connect  # noqa: E402


def timed(work, repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of *repeat* runs of *work*."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def finish_a_game(db, night: str, n: int) -> tuple[float, str]:
    """Play a new game on *night* (later than every stored one) to its last deal; the seconds
    the last save took and what the ratings did."""
    names = ["Aya", "Bilal", "Carla", "Dana"]
    doc = standard_game(players=names)
    game_id = storage.create_game(db, title=f"Bench {n}", played_on=night, players=names,
                                  rules=HouseRules(), first_king=0)
    for number, deal in enumerate(doc["deals"][:-1], start=1):
        storage.add_deal(db, game_id, deal, token=f"b{n:04d}{number:02d}" + "x" * 14,
                         number=number)
    seen = []
    original = ratings.after_change
    ratings.after_change = lambda d, g: seen.append(original(d, g)) or seen[-1]
    try:
        start = time.perf_counter()
        storage.add_deal(db, game_id, doc["deals"][-1], token=f"b{n:04d}20" + "y" * 14,
                         number=len(doc["deals"]))
        return time.perf_counter() - start, seen[-1]
    finally:
        ratings.after_change = original


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", default=None, help="build installs here and reuse them")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="trex-ratings-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'games':>6}  {'recompute (wall, CPU)':>24}  {'per game':>9}  "
          f"{'finishing save':>15}  ratings did")
    for size in args.sizes:
        path = folder / f"ratings-{size}" / "scorekeeper.sqlite3"
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            print(f"building {size} games ...", file=sys.stderr, flush=True)
            build(path, size)
        db = connect(path)
        try:
            finished = db.execute("select count(*) from games where finished = 1").fetchone()[0]
            wall, cpu = timed(lambda: ratings.recompute(db), args.repeat)
            saves = [finish_a_game(db, f"2099-01-{i + 1:02d}", i) for i in range(3)]
        finally:
            db.close()
        save = statistics.median(s for s, _ in saves)
        print(f"{size:>6}  {wall * 1000:>10.0f} ms {cpu * 1000:>8.0f} ms  "
              f"{wall / max(finished, 1) * 1e6:>6.0f} µs  {save * 1000:>12.1f} ms  "
              f"{', '.join(sorted({how for _, how in saves}))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
