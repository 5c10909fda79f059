"""How long one group answers "being restored" while its box serves (issue 40, item 3), and
what looking for the mark costs every request of every group.

    python benchmarks/bench_restore_group.py [--games 100 1000]

For each size: a group of that many simulated games (imported, as ``bench_groups.py`` builds
them), a backup of it (``backup_database``), then ``restoring.restore_group`` from that backup
into the group's file, as ``scorekeeper restore --group`` runs it: the time from the mark placed
to the mark taken away (what phones of that group wait; 2 s of it, at least, the wait for the
requests under way), and the restore's own parts. Then the cost of ``being_restored`` on a file
without a mark (every request of every group pays it) and with one held.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_groups import import_simulated  # noqa: E402

from scorekeeper.store import restoring  # noqa: E402
from scorekeeper.store.backup import backup_database  # noqa: E402
from scorekeeper.store.groups import Host  # noqa: E402


def one_size(games: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-restore-"))
    group = Host(folder / "instance").create("Restored table", "en")
    import_simulated(group.path, games)
    backup = folder / "backup.sqlite3"
    backup_database(group.path, backup)
    marked: list[float] = []
    start = time.perf_counter()
    restored = restoring.restore_group(
        backup, group.path, on_marked=lambda: marked.append(time.perf_counter())
    )
    end = time.perf_counter()
    assert restored.games == games
    return {
        "games": games,
        "megabytes": round(backup.stat().st_size / 1e6, 1),
        "being_restored_s": round(end - marked[0], 2),
        "settle_s": restoring.SETTLE_SECONDS,
        "command_s": round(end - start, 2),
    }


def mark_cost() -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-mark-"))
    path = folder / "g.sqlite3"
    path.touch()
    n = 100_000
    unmarked = timeit.timeit(lambda: restoring.being_restored(path), number=n) / n
    with restoring.marked(path):
        marked = timeit.timeit(lambda: restoring.being_restored(path), number=n) / n
    return {"unmarked_us": round(unmarked * 1e6, 2), "marked_us": round(marked * 1e6, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    args = parser.parse_args(argv)
    print(
        f"{platform.node()}: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    for games in args.games:
        row = one_size(games)
        print(
            f"{row['games']:>6} games ({row['megabytes']} MB): the group answers 'being restored' "
            f"for {row['being_restored_s']} s (of which at least {row['settle_s']} s waiting for "
            f"the requests under way); the command's restore part {row['command_s']} s",
            flush=True,
        )
    cost = mark_cost()
    print(
        f"looking for the mark, every request of every group: {cost['unmarked_us']} µs "
        f"(no mark), {cost['marked_us']} µs (a mark held)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
