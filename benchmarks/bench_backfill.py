"""What the backfill costs (issue 42, item 2): a database with N finished games whose derived
data (summaries, facts, records, ratings) is made again by today's code, as the first
``scorekeeper migrate`` or start after an upgrade does once; then the same database again, up
to date, as every later start finds it.

    .venv/bin/python benchmarks/bench_backfill.py [--games 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from scorekeeper.engine import read_game  # noqa: E402
from scorekeeper.store import backfill, transfer  # noqa: E402
from scorekeeper.store.db import connect  # noqa: E402

from history_helpers import simulated_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="how many games (1000)")
    args = parser.parse_args()
    docs = simulated_games(args.games, seed=42, per_night=4)
    with tempfile.TemporaryDirectory() as folder:
        db = connect(Path(folder) / "group.sqlite3")
        backfill.up_to_date(db)
        transfer.import_games(db, [read_game(doc) for doc in docs])
        db.conn.commit()
        db.execute("pragma user_version = 0")  # as a database an older version wrote
        for what in ("backfilled", "already up to date"):
            started, cpu = time.perf_counter(), time.process_time()
            backfill.up_to_date(db)
            took, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(
                f"{args.games} games {what}: {took:.2f} s "
                f"({took / args.games * 1000:.2f} ms a game; CPU {cpu:.2f} s)"
            )
        db.close()


if __name__ == "__main__":
    main()
