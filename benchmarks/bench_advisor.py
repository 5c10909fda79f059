"""The contract advisor: does it help the King, and how fast does it answer?

    .venv/bin/python benchmarks/bench_advisor.py strength [--kingdoms N] [--seed S]
        [--rules JSON] [--deals D] [--processes P]
    .venv/bin/python benchmarks/bench_advisor.py speed [--hands N] [--seed S] [--repeat R]

**strength** plays whole kingdoms with the heuristic bots at every seat, three times over the
same cards: the King chooses each deal by the advisor, by the bots' own rule
(``HeuristicBot.choose_deal``, the shape of the hand), or at random. The cards of the d-th deal
of kingdom k (and of each redeal of it) depend only on the seed, k and d, so the three Kings see
the same first hand and the same later hands, whatever they chose before. It reports the King's
points per kingdom (with the partner's under partnership) and what the advisor gains per
kingdom over each other King, with a 95% confidence interval from the paired differences.

**speed** times the advice for all the open choices of a fresh kingdom on random hands, under
the standard rules, Complex, Combination and partnership: in one process and with the worker
processes (warm), wall-clock and CPU time, with the widest 90% interval of any choice; then the
game page's response time on a served app, alone and while the same server plays an advice.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import HouseRules  # noqa: E402
from scorekeeper.engine.advisor import advise, pool  # noqa: E402
from scorekeeper.engine.advisor.playout import play_choice  # noqa: E402
from scorekeeper.engine.bots import HeuristicBot  # noqa: E402
from scorekeeper.engine.cards import deal_masks  # noqa: E402
from scorekeeper.engine.contracts import ALL_CONTRACTS  # noqa: E402
from scorekeeper.engine.progression import deal_options  # noqa: E402

POLICIES = ("advisor", "bots", "random")
BOT = HeuristicBot()
#: A kingdom whose deals are thrown in this many times in a row is stopped (never seen).
MOST_ATTEMPTS = 50


def choose(
    policy: str, hand: int, options: list, rules: HouseRules, tag: str, deals: int | None
) -> tuple:
    if len(options) == 1:
        return options[0]
    if policy == "bots":
        return tuple(BOT.choose_deal(hand, options, rules))
    if policy == "random":
        return options[random.Random(f"random-king:{tag}").randrange(len(options))]
    return advise(hand, options, rules, deals=deals, parallel=False).best.contracts


def play_kingdom(seed: int, kingdom: int, policy: str, rules: HouseRules, deals: int | None) -> int:
    """One kingdom, the King at seat 0 choosing by *policy*: the King's side's points."""
    left = list(ALL_CONTRACTS)
    total = number = attempt = 0
    while left:
        if attempt >= MOST_ATTEMPTS:
            raise RuntimeError(f"kingdom {seed}:{kingdom} keeps being thrown in")
        tag = f"{seed}:{kingdom}:{number}:{attempt}"
        hands = deal_masks(random.Random(f"bench-advisor:{tag}"))
        choice = choose(policy, hands[0], deal_options(left, rules), rules, tag, deals)
        outcome = play_choice(hands, choice, rules, king_may_redeal=True)
        if outcome.status != 0:  # thrown in or a sweep replayed: the King chooses again
            attempt += 1
            continue
        total += outcome.points
        left = [c for c in left if c not in choice]
        number += 1
        attempt = 0
    return total


def kingdom_row(job: tuple[int, int, str, int | None]) -> tuple[int, ...]:
    seed, kingdom, rules_json, deals = job
    rules = HouseRules.from_dict(json.loads(rules_json))
    return tuple(play_kingdom(seed, kingdom, policy, rules, deals) for policy in POLICIES)


def interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def strength(args: argparse.Namespace) -> None:
    rules_json = args.rules or "{}"
    jobs = [(args.seed, k, rules_json, args.deals) for k in range(args.kingdoms)]
    start = time.perf_counter()
    rows: list[tuple[int, ...]] = []
    with multiprocessing.get_context("spawn").Pool(args.processes) as workers:
        for row in workers.imap(kingdom_row, jobs, chunksize=4):
            rows.append(row)
            if len(rows) % 100 == 0:
                print(
                    f"  {len(rows)} kingdoms, {time.perf_counter() - start:.0f} s", file=sys.stderr
                )
    seconds = time.perf_counter() - start
    print(
        f"{len(rows)} kingdoms (seed {args.seed}, rules {rules_json}, advisor deals "
        f"{args.deals or 'adaptive'}) in {seconds:.0f} s, {args.processes} processes, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print("The King's points per kingdom, mean and 95% interval:")
    for i, policy in enumerate(POLICIES):
        mean, low, high = interval([r[i] for r in rows])
        print(f"  chooses by {policy:<8} {mean:+8.1f}  [{low:+.1f}, {high:+.1f}]")
    print("The advisor's gain per kingdom (paired by cards), mean and 95% interval:")
    for i, policy in enumerate(POLICIES[1:], start=1):
        mean, low, high = interval([r[0] - r[i] for r in rows])
        better = sum(r[0] > r[i] for r in rows)
        worse = sum(r[0] < r[i] for r in rows)
        print(
            f"  over the King who chooses by {policy:<7} {mean:+7.1f}  [{low:+.1f}, {high:+.1f}]"
            f"  (better in {better}, worse in {worse} of {len(rows)} kingdoms)"
        )


# --- speed ------------------------------------------------------------------------------------
RULE_SETS = {
    "standard": HouseRules(),
    "complex": HouseRules(combining="complex"),
    "combination": HouseRules(combining="combination"),
    "partnership": HouseRules(partnership=True),
}


def timed(call: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def speed(args: argparse.Namespace) -> None:
    if args.nice is not None:
        pool.NICE = args.nice
    pool.warm_up()
    rng = random.Random(args.seed)
    hands = [deal_masks(rng)[0] for _ in range(args.hands)]
    print(
        f"{args.hands} hands (seed {args.seed}), all five contracts open, {args.repeat} runs "
        f"each; {pool.workers()} worker processes at nice {pool.NICE}; "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'rules':<12} {'choices':>7} {'one process':>18} {'CPU':>6} "
        f"{'workers':>18} {'widest ±':>9} {'deals':>6}"
    )
    for name, rules in RULE_SETS.items():
        options = deal_options(ALL_CONTRACTS, rules)
        advise(hands[0], options, rules, deals=10, parallel=False)  # the average-hand table
        one, cpu, many, widest, most = [], [], [], 0.0, 0
        for _ in range(args.repeat):
            for hand in hands:
                answer, wall, used = timed(lambda: advise(hand, options, rules, parallel=False))
                one.append(wall)
                cpu.append(used)
                _, wall, _ = timed(lambda: advise(hand, options, rules, parallel=True))
                many.append(wall)
                widest = max(widest, *(c.margin for c in answer.choices))
                most = max(most, *(c.samples for c in answer.choices))
        print(
            f"{name:<12} {len(options):>7} {spread(one):>18} {statistics.median(cpu):>5.2f}s "
            f"{spread(many):>18} {widest:>9.1f} {most:>6}"
        )
    print(f"load {os.getloadavg()[0]:.1f}")
    if args.server:
        server_while_advising(hands, args.repeat)


def spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.2f}s ({min(values):.2f}-{max(values):.2f})"


def server_while_advising(hands: list[int], repeat: int) -> None:
    """The game page's response time on a served app: alone, then while the same server
    answers advice requests one after another from another phone."""
    import tempfile
    import urllib.request
    from http.cookiejar import CookieJar

    from waitress import create_server

    from scorekeeper.engine.cards import cards_of
    from scorekeeper.web import create_app

    tmp = Path(tempfile.mkdtemp(prefix="bench-advisor-"))
    app = create_app(
        {
            "DATABASE": str(tmp / "db.sqlite3"),
            "INSTANCE_PATH": str(tmp / "i"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{server.effective_port}"
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = {"preset": "standard", "first_king": "0", "title": "Bench"}
    form.update({f"player_{s}": name for s, name in enumerate(["Aya", "Bilal", "Carla", "Dina"])})
    game = opener.open(base + "/games/new", urllib.parse.urlencode(form).encode()).geturl()

    def page_times(count: int) -> list[float]:
        times = []
        for _ in range(count):
            start = time.perf_counter()
            urllib.request.urlopen(game).read()
            times.append(time.perf_counter() - start)
            time.sleep(0.05)
        return times

    alone = page_times(40)
    stop = threading.Event()
    answers: list[float] = []

    def ask() -> None:
        while not stop.is_set():
            for hand in hands:
                body = urllib.parse.urlencode([("card", str(c)) for c in cards_of(hand)]).encode()
                start = time.perf_counter()
                opener.open(game + "/advise", body).read()
                answers.append(time.perf_counter() - start)
                if stop.is_set():
                    return

    asker = threading.Thread(target=ask)
    asker.start()
    time.sleep(0.5)
    during = page_times(40 * repeat)
    stop.set()
    asker.join()
    time.sleep(0.5)  # let the server's threads finish writing before it closes
    server.close()
    print(
        f"game page alone: median {statistics.median(alone) * 1000:.0f} ms, "
        f"95th percentile {quantile(alone, 0.95) * 1000:.0f} ms"
    )
    print(
        f"game page while advising: median {statistics.median(during) * 1000:.0f} ms, "
        f"95th percentile {quantile(during, 0.95) * 1000:.0f} ms; "
        f"{len(answers)} advice pages meanwhile, median {statistics.median(answers):.2f} s"
    )


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("strength")
    one.add_argument("--kingdoms", type=int, default=2000)
    one.add_argument("--seed", type=int, default=1)
    one.add_argument("--rules", default=None, help="house rules as JSON (default: standard)")
    one.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals per choice for the advisor (default: as it answers a phone)",
    )
    one.add_argument("--processes", type=int, default=pool.workers())
    one.set_defaults(func=strength)
    two = sub.add_parser("speed")
    two.add_argument("--hands", type=int, default=10)
    two.add_argument("--seed", type=int, default=1)
    two.add_argument("--repeat", type=int, default=1)
    two.add_argument(
        "--nice", type=int, default=None, help=f"the workers' nice value (default {pool.NICE})"
    )
    two.add_argument(
        "--server",
        action="store_true",
        help="also time the game page on a served app while it advises",
    )
    two.set_defaults(func=speed)
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    args.func(args)


if __name__ == "__main__":
    main()
