"""The operator's view of a box of many groups (issue 39, item 6): what it costs.

    python benchmarks/bench_operator.py [--groups 300] [--requests 2000]

1. starts --groups groups in a fresh instance folder, a finished game imported into every
   tenth one;
2. times ``scorekeeper groups list`` and ``groups list --json`` (each group's file opened read
   only for its games and last activity);
3. times a scrape of ``/metrics`` (the box's figures are read when the scraper asks: the
   register counted, every group's files measured, the free disk);
4. times --requests requests of ``/healthz`` through the app with and without ``METRICS``
   (each request counted by method, route pattern and status, and its duration observed),
   and prints the cost per request.

In-process (Flask's test client), one process, no multiprocess folder: what a request and a
scrape cost the server, without the network.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

GAME = ROOT / "benchmarks" / "full_game.json"


def timed(run, repeat: int = 5) -> float:
    """The median of *repeat* runs of *run*, in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=300)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()

    from scorekeeper import cli
    from scorekeeper.store.groups import Host
    from scorekeeper.web import create_app

    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance)
        os.environ.pop("SCOREKEEPER_DB", None)
        host = Host(instance)
        started = time.perf_counter()
        ids = [host.create(f"Table {n}").id for n in range(args.groups)]
        made = time.perf_counter() - started
        for group in ids[::10]:
            with contextlib.redirect_stdout(io.StringIO()):
                assert cli.main(["import", str(GAME), "--group", group]) == 0
        print(
            f"{args.groups} groups started in {made:.1f} s "
            f"({made / args.groups * 1000:.0f} ms each), a game in every tenth"
        )

        def listing(*more: str):
            def run():
                with contextlib.redirect_stdout(io.StringIO()) as out:
                    assert cli.main(["groups", "list", *more]) == 0
                return out

            return run

        rows = json.loads(listing("--json")().getvalue())
        assert len(rows) == args.groups and sum(r["games"] for r in rows) == len(ids[::10])
        print(
            f"groups list: {timed(listing()):.0f} ms; --json: {timed(listing('--json')):.0f} ms "
            f"(median of 5)"
        )

        config = {"TESTING": True, "GROUPS": "open", "INSTANCE_PATH": str(instance)}
        counted = create_app({**config, "METRICS": True})
        phone = counted.test_client()
        scrape = timed(lambda: phone.get("/metrics").get_data(), repeat=20)
        print(f"/metrics scrape with {args.groups} groups: {scrape:.1f} ms (median of 20)")

        per_request = {}
        for name, app in (("off", create_app(config)), ("on", counted)):
            client = app.test_client()
            for _ in range(50):
                client.get("/healthz")
            started = time.perf_counter()
            for _ in range(args.requests):
                client.get("/healthz")
            per_request[name] = (time.perf_counter() - started) / args.requests * 1e6
        print(
            f"/healthz through the app: {per_request['off']:.0f} µs a request without "
            f"metrics, {per_request['on']:.0f} µs with them "
            f"(+{per_request['on'] - per_request['off']:.0f} µs)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
