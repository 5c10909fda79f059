"""What ``scorekeeper migrate`` (and ``serve``'s start, which runs it) costs on a box of many
groups (issue 39, item 5): N groups as 0.1.0 left them brought up to date, then the same N
already up to date, as every later start finds them.

    .venv/bin/python benchmarks/bench_migrate.py [--groups 1000]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from scorekeeper.store.upgrade import upgrade_install  # noqa: E402

from upgrade_helpers import old_database, old_register  # noqa: E402


def id_of(n: int) -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    digits = []
    for _ in range(10):
        n, digit = divmod(n, len(alphabet))
        digits.append(alphabet[digit])
    return "".join(digits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=1000, help="how many groups (1000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instance = Path(folder)
        ids = [id_of(n) for n in range(args.groups)]
        old_register(instance / "groups.sqlite3", [(i, f"Group {n}") for n, i in enumerate(ids)])
        model = old_database(instance / "model.sqlite3")
        conn = sqlite3.connect(model)
        conn.execute("pragma wal_checkpoint(truncate)")
        conn.close()
        (instance / "groups").mkdir()
        for group in ids:
            shutil.copyfile(model, instance / "groups" / f"{group}.sqlite3")
        for what in ("from 0.1.0", "already up to date"):
            started = time.perf_counter()
            done = upgrade_install(instance, groups=True)
            took = time.perf_counter() - started
            assert done.ok, done.problems()
            print(
                f"{args.groups} groups {what}: {took:.2f} s "
                f"({took / args.groups * 1000:.2f} ms a group), {done.applied} migrations applied"
            )


if __name__ == "__main__":
    main()
