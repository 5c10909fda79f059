"""How the pages a group looks back with grow with the record: 1,000, 10,000 (and 100,000) games.

    python benchmarks/bench_past_growth.py [--sizes 1000,10000] [--base 1000] [--repeat 15]
                                           [--profile] [--keep DIR] [--json OUT]

For each size, builds the database as ``bench_growth.py`` does (--base games played by the
simulator and imported, the rest copies of their rows made by SQL, each copy with its own
players and nights: here with their facts and records too, and its players' nights spread so
that the busiest player's games grow with the record), adds a season over the whole record,
then in one process, through the Flask test client (no HTTP: the time is the page's own),
asks --repeat times for each of: home, Past nights (first page and a deep one), the busiest
night, the busiest player's page, the leaderboard and the season, each made again (the pages
kept are cleared before each request: the time of a page after a write), the sizes taken in
turn. Prints the median time of each, and the ratio of each size's time to the first size's.
--profile prints cProfile's top functions of each page at the biggest size. The databases of
sizes above --base are built by SQL copies, and the players' sums and ratings derived from
them without scoring every game again (see ``derive``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_growth import build, played  # noqa: E402


def spread_facts(path: Path, base_games: int) -> None:
    """Copy the base games' facts to their copies, and seat player 1 at one seat of every
    copy, so that one player's record grows with the group's (a long-standing member)."""
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        columns = [r[1] for r in conn.execute("pragma table_info(seat_contract_stats)")]
        rest = [c for c in columns if c != "game_id"]
        conn.execute(
            f"insert into seat_contract_stats (game_id, {', '.join(rest)}) "
            f"select g.id, {', '.join('s.' + c for c in rest)} from games g "
            f"join seat_contract_stats s on s.game_id = (g.id - 1) % ? + 1 where g.id > ?",
            [base_games, base_games],
        )
        for table, column in (("games", "comeback"), ("games", "comeback_deal")):
            conn.execute(
                f"update {table} set {column} = (select b.{column} from {table} b "
                f"where b.id = ({table}.id - 1) % ? + 1) where id > ?",
                [base_games, base_games],
            )
        conn.execute(
            "update game_players set (kh_taken, trex_firsts) = (select b.kh_taken, "
            "b.trex_firsts from game_players b where b.game_id = (game_players.game_id - 1) "
            "% ? + 1 and b.seat = game_players.seat) where game_id > ?",
            [base_games, base_games],
        )
        # player 1 in seat 0 of every game that is not already theirs
        conn.execute(
            "update game_players set player_id = 1 where seat = 0 and game_id not in "
            "(select game_id from game_players where player_id = 1)"
        )
        conn.execute(
            "insert into seasons (name, first_night, last_night, created_at) "
            "select 'All of it', min(night), max(night), '2026-12-04T00:00:00' from games"
        )
        conn.execute("analyze")
    conn.close()


def derive(path: Path) -> None:
    """What the backfill derives of the copies: their summaries and facts are SQL copies of
    the base games' (``spread_facts``), so the players' sums are made again from them and the
    games rated (the backfill without scoring every game again: hours at 100,000 games on a
    small machine)."""
    from scorekeeper.store import backfill, open_database, playsums, ratings

    db = open_database(str(path))
    with db.atomic():
        playsums.rebuild(db)
        if ratings.enabled(db):
            ratings.recompute(db)
        backfill.record(db)
    db.conn.execute("analyze")
    db.close()


def pages(path: Path) -> dict[str, str]:
    import sqlite3

    conn = sqlite3.connect(path)
    nights = [r[0] for r in conn.execute("select distinct night from games order by night desc")]
    biggest = conn.execute(
        "select night from games group by night order by count(*) desc, night desc limit 1"
    ).fetchone()[0]
    season = conn.execute("select max(id) from seasons").fetchone()[0]
    conn.close()
    return {
        "home": "/",
        "history": "/history/",
        "history (deep)": f"/history/?after={nights[len(nights) // 2]}",
        "a night": f"/history/nights/{biggest}",
        "player 1": "/players/1",
        "leaderboard": "/leaderboard",
        "season (all)": f"/seasons/{season}",
    }


def measure(paths: dict[int, Path], repeat: int, profile: bool) -> dict[int, dict[str, float]]:
    """The median time of each page at each size; the sizes taken in turn, a request each,
    so that a change of the machine's load falls on all of them alike (it is shared)."""
    from scorekeeper.web import create_app
    from scorekeeper.web.keeping import fragments, validators

    clients, urls = {}, {}
    for size, path in paths.items():
        app = create_app({"DATABASE": str(path), "INSTANCE_PATH": str(path.parent / "instance")})
        clients[size], urls[size] = app.test_client(), pages(path)
    times: dict[int, dict[str, list[float]]] = {size: {} for size in paths}
    for name in urls[next(iter(paths))]:
        for size, client in clients.items():
            first = client.get(urls[size][name])
            assert first.status_code == 200, (urls[size][name], first.status_code)
        for _ in range(repeat):
            for size, client in clients.items():
                validators.clear()  # the page made again, as after a write (not the kept one)
                fragments.clear()
                start = time.perf_counter()
                client.get(urls[size][name])
                times[size].setdefault(name, []).append(time.perf_counter() - start)
        if profile:
            size = max(paths)
            validators.clear()
            fragments.clear()
            profiler = cProfile.Profile()
            profiler.enable()
            clients[size].get(urls[size][name])
            profiler.disable()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(18)
            print(f"--- {name} ({urls[size][name]})\n{text.getvalue()}")
    return {
        size: {name: statistics.median(values) for name, values in pages_.items()}
        for size, pages_ in times.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--base", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--keep", default=None, help="folder to build (and reuse) databases in")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    base_docs = played(min(args.base, min(sizes)), seed=1)
    paths: dict[int, Path] = {}
    with tempfile.TemporaryDirectory(prefix="trex-bench-past-") as name:
        folder = Path(args.keep or name)
        folder.mkdir(parents=True, exist_ok=True)
        for size in sizes:
            path = folder / f"g{size}.sqlite3"
            if not path.exists():
                started = time.perf_counter()
                build(path, size, base_docs)
                spread_facts(path, len(base_docs))
                derive(path)
                print(f"built {size:,} games in {time.perf_counter() - started:.0f} s", flush=True)
            paths[size] = path
        results = measure(paths, args.repeat, args.profile)
    first = sizes[0]
    print(f"{'page':18}" + "".join(f"{s:>12,}" for s in sizes) + "   ratio (ms; × the first)")
    for page in results[first]:
        cells = "".join(f"{results[s][page] * 1000:12.1f}" for s in sizes)
        ratios = " ".join(f"{results[s][page] / results[first][page]:.2f}×" for s in sizes[1:])
        print(f"{page:18}{cells}   {ratios}")
    print(f"{os.uname().nodename}: {len(os.sched_getaffinity(0))} cores")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
