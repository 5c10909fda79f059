"""Where the time of the game page, a deal save and the leaderboard goes, in one process.

    python benchmarks/profile_web.py [--games 1000] [--keep DIR] [--repeat 3] [--html OUT]

Needs pyinstrument (``pip install -e '.[bench]'``). Builds (or, with --keep, reuses) the
benchmark's database of simulated finished games, then with the Flask test client has one phone
play three simulated games through the entry forms: each deal saved (POST, CSRF off as in the
tests) and its redirect followed, the game page reloaded, and the leaderboard opened after
each game. Prints the median CPU time of each kind of request (a run without the profiler),
then pyinstrument's profile of a second run.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_web import build_database, deal_fields, simulated_deals  # noqa: E402

PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="finished games stored first")
    parser.add_argument("--keep", default=None, help="folder of the built database")
    parser.add_argument("--repeat", type=int, default=3, help="games played while profiled")
    parser.add_argument("--html", default=None, help="also write pyinstrument's HTML here")
    args = parser.parse_args()
    from pyinstrument import Profiler

    from scorekeeper.engine import HouseRules
    from scorekeeper.web import create_app
    from scorekeeper.store import storage
    from scorekeeper.store.db import connect

    work = Path(tempfile.mkdtemp(prefix="trex-profile-"))
    keep = Path(args.keep) if args.keep else work
    built = keep / "scorekeeper.sqlite3"
    if not built.exists():
        build_database(keep, args.games)
    database = work / "profile.sqlite3"
    shutil.copy(built, database)
    app = create_app(
        {
            "DATABASE": str(database),
            "INSTANCE_PATH": str(work / "instance"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    tokens = itertools.count()
    times: dict[str, list[float]] = defaultdict(list)

    def timed(kind: str, call):
        start = time.thread_time()
        response = call()
        times[kind].append(time.thread_time() - start)
        return response

    def play(seed: int) -> None:
        first_king, deals = simulated_deals(seed, PLAYERS)
        db = connect(database)
        try:
            game_id = storage.create_game(
                db,
                title="Profile",
                played_on=None,
                players=PLAYERS,
                rules=HouseRules(),
                first_king=first_king,
            )
            key = next(db.query("select edit_key from games where id = ?", [game_id]))
        finally:
            db.close()
        client.get(f"/e/{key['edit_key']}")
        for number, deal in enumerate(deals, start=1):
            fields = {
                "token": f"profile-{next(tokens):012d}",
                "king": str(deal["king"]),
                "number": str(number),
                "contracts": ",".join(deal.get("contracts", ())),
                "step": "save",
                **deal_fields(deal),
            }
            path = "thrown-in" if "thrown_in" in deal else "deals/new"
            saved = timed(
                "deal save (POST)", lambda: client.post(f"/games/{game_id}/{path}", data=fields)
            )
            assert saved.status_code == 303, saved.status_code
            timed("its redirect (GET)", lambda: client.get(saved.headers["Location"]))
            timed("game page (GET)", lambda: client.get(f"/games/{game_id}"))
        timed("leaderboard (GET)", lambda: client.get("/leaderboard"))

    play(10_000)  # warm-up: templates compiled, caches filled
    times.clear()
    for seed in range(10_001, 10_001 + args.repeat):
        play(seed)
    for kind, values in times.items():
        print(
            f"{kind:24} median {statistics.median(values) * 1000:6.2f} ms CPU "
            f"({len(values)} requests)"
        )
    profiler = Profiler(interval=0.0005)
    profiler.start()
    for seed in range(20_001, 20_001 + args.repeat):
        play(seed)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False))
    if args.html:
        Path(args.html).write_text(profiler.output_html(), encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
