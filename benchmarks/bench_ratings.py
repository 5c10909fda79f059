"""What the ratings cost: rating every finished game again from scratch, the save of the deal
that finishes the latest game (rated alone, incrementally), and the leaderboard sorted by rating,
as the record grows.

    .venv/bin/python benchmarks/bench_ratings.py [--sizes 1000 10000] [--repeat 5] [--keep DIR]
                                                 [--pages 21]

The leaderboard is timed as bench_history.py times the statistics pages (the Flask test client,
two requests to warm up, then the median of --pages requests), twice: as a phone finds it after a
change to the data (its kept table dropped before each request: rendered, every rating read)
and as most phones find it (the table kept since the last change). Its target is the statistics
pages' scaling target: the 10,000-game page in under 10 x the 1,000-game time.

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
from scorekeeper.web import create_app, fragments  # noqa: E402

BOARDS = {"leaderboard by rating": "/leaderboard", "leaderboard by wins": "/leaderboard?sort=wins"}


def time_boards(path: Path, repeat: int) -> dict[str, float]:
    """Median seconds of each leaderboard, rendered afresh ("cold") and kept ("kept")."""
    app = create_app({"DATABASE": str(path), "INSTANCE_PATH": str(path.parent / "i")})
    client = app.test_client()
    out = {}
    for label, url in BOARDS.items():
        page = client.get(url)
        assert page.status_code == 200 and (b'class="rating' in page.data), url
        for kept in (False, True):
            client.get(url)
            times = []
            for _ in range(repeat):
                if not kept:
                    fragments.clear()
                start = time.perf_counter()
                client.get(url).get_data()
                times.append(time.perf_counter() - start)
            out[f"{label}, {'kept' if kept else 'rendered'}"] = statistics.median(times)
    return out


def timed(work, repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of *repeat* runs of *work*."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def later_night(db) -> str:
    """A night after every stored game's (so that the game finished on it is the latest)."""
    import datetime as dt

    last = db.execute("select max(night) from games").fetchone()[0] or "2099-01-01"
    return (dt.date.fromisoformat(last) + dt.timedelta(days=1)).isoformat()


def finish_a_game(db, night: str, n: int) -> tuple[float, str]:
    """Play a new game on *night* (later than every stored one) to its last deal; the seconds
    the last save took and what the ratings did."""
    names = ["Aya", "Bilal", "Carla", "Dana"]
    doc = standard_game(players=names)
    game_id = storage.create_game(
        db, title=f"Bench {n}", played_on=night, players=names, rules=HouseRules(), first_king=0
    )
    for number, deal in enumerate(doc["deals"][:-1], start=1):
        storage.add_deal(
            db, game_id, deal, token=f"b{game_id:07d}{number:02d}" + "x" * 12, number=number
        )
    seen = []
    original = ratings.after_change
    ratings.after_change = lambda d, g: seen.append(original(d, g)) or seen[-1]
    try:
        start = time.perf_counter()
        storage.add_deal(
            db,
            game_id,
            doc["deals"][-1],
            token=f"b{game_id:07d}20" + "y" * 12,
            number=len(doc["deals"]),
        )
        return time.perf_counter() - start, seen[-1]
    finally:
        ratings.after_change = original


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", default=None, help="build installs here and reuse them")
    parser.add_argument("--pages", type=int, default=21, help="leaderboard requests to time")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="trex-ratings-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'games':>6}  {'recompute (wall, CPU)':>24}  {'per game':>9}  "
        f"{'finishing save':>15}  ratings did"
    )
    boards: dict[int, dict[str, float]] = {}
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
            saves = [finish_a_game(db, later_night(db), i) for i in range(3)]
        finally:
            db.close()
        save = statistics.median(s for s, _ in saves)
        print(
            f"{size:>6}  {wall * 1000:>10.0f} ms {cpu * 1000:>8.0f} ms  "
            f"{wall / max(finished, 1) * 1e6:>6.0f} µs  {save * 1000:>12.1f} ms  "
            f"{', '.join(sorted({how for _, how in saves}))}",
            flush=True,
        )
        boards[size] = time_boards(path, args.pages)
    print("\nleaderboard, median ms per request")
    print(f"{'page':<36}" + "".join(f"{size:>10}" for size in args.sizes))
    for label in next(iter(boards.values())):
        print(f"{label:<36}" + "".join(f"{boards[s][label] * 1000:>10.1f}" for s in args.sizes))
    if 1000 in boards and 10000 in boards:
        print("\n10,000 games / 1,000 games (the statistics pages' target: under 10):")
        worst = 0.0
        for label in boards[1000]:
            ratio = boards[10000][label] / boards[1000][label]
            worst = max(worst, ratio)
            print(f"  {label:<36}{ratio:6.2f}")
        return 0 if worst < 10 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
