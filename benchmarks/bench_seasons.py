"""What a season's page costs as the group's record grows: its standings, best night and hall of
records, all added up from the stored games on every request (store.seasons keeps nothing).

    .venv/bin/python benchmarks/bench_seasons.py [--sizes 1000 10000] [--pages 21] [--keep DIR]

Installs are built as bench_history.py builds them (the engine's random bots, twelve players,
three games a night, a mix of the presets; reused from --keep DIR when there). Three seasons are
timed in each, ending on its last night: a month (30 nights), a year (365 nights) and the whole
record. Each page is timed as bench_history.py times the statistics pages: the Flask test
client, two requests to warm up, then the median of --pages requests (wall time, and this
process's CPU time, the steadier figure on a shared machine). The target is the statistics
pages' scaling target: the page at 10,000 games in under 10 x its time at 1,000, for a
season of a month and of a year (the exit status says whether it holds). The whole record is
printed beside them: its page adds up ten times the games, and grows with them.
"""

from __future__ import annotations

import argparse
import datetime as dt
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

from scorekeeper.store import seasons  # noqa: E402
from scorekeeper.store import open_database  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402

SPANS = {"a month (30 nights)": 30, "a year (365 nights)": 365, "the whole record": None}


def make_seasons(path: Path) -> dict[str, tuple[int, int]]:
    """The benchmark's seasons in the install at *path* (made once): label -> (id, games)."""
    db = open_database(path)  # with every migration applied
    try:
        first, last = db.execute("select min(night), max(night) from games").fetchone()
        out = {}
        for label, days in SPANS.items():
            start = first
            if days is not None:
                start = (dt.date.fromisoformat(last) - dt.timedelta(days=days - 1)).isoformat()
            found = db.execute(
                "select id from seasons where name = ? and first_night = ? and last_night = ?",
                [label, start, last],
            ).fetchone()
            season_id = found[0] if found else seasons.create(db, label, start, last)
            games = db.execute(
                "select count(*) from games where finished = 1 and night between ? and ?",
                [start, last],
            ).fetchone()[0]
            out[label] = (season_id, games)
        return out
    finally:
        db.close()


def time_pages(
    path: Path, made: dict[str, tuple[int, int]], repeat: int
) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of each season's page."""
    app = create_app({"DATABASE": str(path), "INSTANCE_PATH": str(path.parent / "instance")})
    client = app.test_client()
    out = {}
    for label, (season_id, _games) in made.items():
        url = f"/seasons/{season_id}"
        for _ in range(2):
            page = client.get(url)
            assert page.status_code == 200 and b'id="records"' in page.data, url
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            client.get(url).get_data()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        out[label] = (statistics.median(walls), statistics.median(cpus))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--pages", type=int, default=21, help="requests to time per page")
    parser.add_argument("--keep", default=None, help="build installs here and reuse them")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="trex-seasons-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    results: dict[int, dict[str, tuple[float, float]]] = {}
    counts: dict[int, dict[str, int]] = {}
    for size in args.sizes:
        path = folder / f"history-{size}" / "scorekeeper.sqlite3"
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            print(f"building {size} games ...", file=sys.stderr, flush=True)
            build(path, size)
        made = make_seasons(path)
        counts[size] = {label: games for label, (_id, games) in made.items()}
        results[size] = time_pages(path, made, args.pages)
    print("\nseason page, median ms per request, wall / CPU (finished games in the season)")
    print(f"{'season':<24}" + "".join(f"{size:>26}" for size in args.sizes))
    for label in SPANS:
        cells = [
            f"{results[s][label][0] * 1000:>8.1f} /{results[s][label][1] * 1000:>7.1f} "
            f"({counts[s][label]:>6})"
            for s in args.sizes
        ]
        print(f"{label:<24}" + "".join(f"{cell:>26}" for cell in cells))
    if 1000 in results and 10000 in results:
        print("\n10,000 games / 1,000 games, wall / CPU (the statistics pages' target: under 10):")
        worst = 0.0
        for label in SPANS:
            wall, cpu = (results[10000][label][i] / results[1000][label][i] for i in (0, 1))
            if SPANS[label] is not None:  # a season's own length: the target
                worst = max(worst, wall)
            print(f"  {label:<24}{wall:6.2f} / {cpu:5.2f}")
        return 0 if worst < 10 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
