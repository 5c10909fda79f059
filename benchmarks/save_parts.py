"""Where a deal save's time goes, in one process: what bounds the paced save's p99.

    python benchmarks/save_parts.py [--keep DIR] [--games 20]

Uses the benchmark's database of 1,000 simulated finished games (bench_web.py builds it; with
--keep, a database built before in DIR is used again), adds --games games and plays the deals
of simulated games into them through ``storage.add_deal`` (what the entry form's save calls),
and times, per save: the whole save (the write lock held, the game read, the engine's check of
the whole game, the inserts, the commit), the engine's check alone (``checks.check_new_deal``
on the same game), and the commit. Then the same saves again with ``synchronous=OFF``: the
difference is the sync to disk. Prints medians and p99s in ms.
"""

from __future__ import annotations

import argparse
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_web import STORED_GAMES, build_database, percentile, simulated_deals  # noqa: E402


def play(database: Path, games: int, synchronous: str, seed: int) -> dict[str, list[float]]:
    from scorekeeper.engine import HouseRules
    from scorekeeper.store import checks, storage
    from scorekeeper.store.db import connect

    db = connect(database)
    db.execute(f"PRAGMA synchronous = {synchronous};")
    times: dict[str, list[float]] = {"save": [], "check": [], "commit": []}
    try:
        for g in range(games):
            players = ["Aya", "Bilal", "Carla", "Dana"]
            first_king, deals = simulated_deals(seed + g, players)
            game_id = storage.create_game(
                db,
                title="Parts",
                played_on=None,
                players=players,
                rules=HouseRules(),
                first_king=first_king,
            )
            for number, deal in enumerate(deals, start=1):
                stored = storage.load_game(db, game_id)
                start = time.perf_counter()
                checks.check_new_deal(stored.game, deal)
                times["check"].append(time.perf_counter() - start)
                start = time.perf_counter()
                storage.add_deal(db, game_id, deal, token=secrets.token_urlsafe(16), number=number)
                times["save"].append(time.perf_counter() - start)
                start = time.perf_counter()
                with db.atomic():
                    db.execute("update games set updated_at = updated_at where id = ?", [game_id])
                times["commit"].append(time.perf_counter() - start)
    finally:
        db.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", default=None, help="folder of the built database")
    parser.add_argument("--games", type=int, default=20, help="games played (about 20 deals each)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="trex-save-parts-"))
    keep = Path(args.keep) if args.keep else work / "built"
    keep.mkdir(parents=True, exist_ok=True)
    if not (keep / "scorekeeper.sqlite3").exists():
        build_database(keep, STORED_GAMES)
    print(f"{'ms':28}{'median':>8}{'p99':>8}")
    try:
        for synchronous in ("FULL", "OFF"):
            database = work / f"{synchronous}.sqlite3"
            shutil.copy(keep / "scorekeeper.sqlite3", database)
            times = play(database, args.games, synchronous, seed=7)
            for kind, values in times.items():
                ms = [v * 1000 for v in values]
                label = f"{kind} (synchronous={synchronous})"
                print(
                    f"{label:28}{statistics.median(ms):8.2f}{percentile(ms, 99):8.2f}   n={len(ms)}"
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
