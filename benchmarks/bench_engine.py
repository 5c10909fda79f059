"""Whole 20-deal games per second: the engine against a lean hand-tuned random player.

    .venv/bin/python benchmarks/bench_engine.py [--games 1000] [--rounds 5]
        [--heuristic-games 200] [--deals 600] [--scaling-games 4000] [--callgrind 200]
        [--only process,scaling,inprocess,bots]

From the repository root, with the project installed (``scorekeeper`` on the venv's path).

- **process**: ``scorekeeper simulate --games N --seed 1 --bot random --jobs 1`` against
  ``python benchmarks/lean_random.py --games N --seed 1``, each a whole process (start-up and
  imports included), alternated, *rounds* times. Wall time and the CPU time the process used
  (``getrusage``), which another program's load on the machine moves much less.
- **scaling**: the same command with ``--jobs 1`` up to the machine's cores.
- **inprocess**: the same work in this process (``simrun``'s games, with and without the
  checking mode that reads every game back), against the lean player.
- **bots**: heuristic games per second (``simulate_game``) and deals per second with four
  heuristic bots (``play_deal``; the deal objects, ``new_deal`` and ``play_out``, beside it).
  This part also runs on the code before this benchmark's changes, for the gain:
  ``PYTHONPATH=<a checkout> python benchmarks/bench_engine.py --only bots``.
- ``--callgrind N``: instructions executed (valgrind's callgrind) by each of the two processes
  for N games, a count that no other load moves.
- ``--before DIR``: also run the command of the code checked out in *DIR* (``git worktree`` or
  ``git archive``), as ``python -m scorekeeper.cli simulate`` in that folder, in the process and
  callgrind parts.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from lean_random import play_game as lean_game  # noqa: E402

from scorekeeper.engine import HouseRules  # noqa: E402
from scorekeeper.engine.simulate import simulate_game  # noqa: E402

PYTHON = sys.executable
SCOREKEEPER = str(Path(PYTHON).with_name("scorekeeper"))


def lean_command(games: int) -> list[str]:
    return [PYTHON, str(HERE / "lean_random.py"), "--games", str(games), "--seed", "1"]


def engine_command(games: int, jobs: int = 1) -> list[str]:
    return [
        SCOREKEEPER,
        "simulate",
        "--games",
        str(games),
        "--seed",
        "1",
        "--bot",
        "random",
        "--jobs",
        str(jobs),
    ]


#: The code before, checked out in a folder (--before), and how to run its command there.
BEFORE: Path | None = None


def before_command(games: int) -> list[str]:
    return [
        PYTHON,
        "-m",
        "scorekeeper.cli",
        "simulate",
        "--games",
        str(games),
        "--seed",
        "1",
        "--bot",
        "random",
    ]


def contestants(games: int) -> list[tuple[str, list[str], Path | None]]:
    out = [("lean", lean_command(games), None), ("engine", engine_command(games), None)]
    if BEFORE is not None:
        out.append(("before", before_command(games), BEFORE))
    return out


def run_process(command: list[str], cwd: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process (its children's CPU included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=_quiet_env(), cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _quiet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SCOREKEEPER_CHECK_SIMULATED", None)  # the command as a user runs it
    return env


def spread(values: list[float]) -> str:
    return f"{min(values):.0f}-{max(values):.0f} (median {statistics.median(values):.0f})"


def ratio_spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f} (median {statistics.median(values):.2f})"


def bench_process(games: int, rounds: int) -> None:
    print(f"\n== whole process, {games} games, {rounds} rounds alternated ==")
    for name, command, cwd in contestants(games):
        print(f"  {name + ':':<8}" + " ".join(command) + (f"   (in {cwd})" if cwd else ""))
    rates: dict[str, list[tuple[float, float]]] = {n: [] for n, _, _ in contestants(games)}
    for _ in range(rounds):
        for name, command, cwd in contestants(games):
            wall, cpu = run_process(command, cwd)
            rates[name].append((games / wall, games / cpu))
    for name, values in rates.items():
        print(
            f"  {name:<7} wall {spread([w for w, _ in values])} games/s, "
            f"CPU {spread([c for _, c in values])} games/s"
        )
    for name in rates:
        if name == "lean":
            continue
        wall = [e[0] / r[0] for e, r in zip(rates[name], rates["lean"])]
        cpu = [e[1] / r[1] for e, r in zip(rates[name], rates["lean"])]
        print(
            f"  {name} / lean, round by round: wall {ratio_spread(wall)}, "
            f"CPU {ratio_spread(cpu)} (target: at least 1.00)"
        )


def bench_scaling(games: int, rounds: int) -> None:
    cores = _cores()
    print(f"\n== --jobs 1 to {cores}, {games} games, whole process, {rounds} rounds ==")
    rates: dict[int, list[float]] = {jobs: [] for jobs in range(1, cores + 1)}
    cpus: dict[int, list[float]] = {jobs: [] for jobs in range(1, cores + 1)}
    for _ in range(rounds):
        for jobs in rates:
            wall, cpu = run_process(engine_command(games, jobs))
            rates[jobs].append(games / wall)
            cpus[jobs].append(cpu)
    one = statistics.median(rates[1])
    for jobs, values in rates.items():
        speedup = statistics.median(values) / one
        work = statistics.median(cpus[jobs]) / statistics.median(cpus[1])
        print(
            f"  --jobs {jobs}: {spread(values)} games/s; {speedup:.2f} x --jobs 1, "
            f"{speedup / jobs:.2f} of linear (aim: at least 0.8); CPU time "
            f"{statistics.median(cpus[jobs]):.2f} s, {work:.2f} x --jobs 1's"
        )
    print(
        "  (with every core free, --jobs N can reach at most N x --jobs 1 divided by the "
        "CPU time ratio)"
    )


def best_rates(
    cases: dict[str, tuple[Callable[[], int], int]],
    rounds: int,
) -> dict[str, list[float]]:
    """CPU-time rates of each case (units per second), alternated round by round."""
    out: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (run, units) in cases.items():
            start = time.process_time()
            run()
            out[name].append(units / (time.process_time() - start))
    return out


def bench_inprocess(games: int, rounds: int) -> None:
    from scorekeeper.engine.simrun import _play_range

    rules = HouseRules()
    print(f"\n== in this process, {games} games a round, {rounds} rounds, CPU time ==")

    def lean() -> int:
        rng = random.Random(1)
        for _ in range(games):
            lean_game(rng)
        return games

    cases = {
        "lean random reference": (lean, games),
        "engine, as simulate runs": (
            lambda: _play_range((1, games, rules, "random", None, False)),
            games,
        ),
        "engine, --check": (lambda: _play_range((1, games, rules, "random", None, True)), games),
    }
    rates = best_rates(cases, rounds)
    for name, values in rates.items():
        print(f"  {name:<28} {spread(values)} games/s")
    for name in ("engine, as simulate runs", "engine, --check"):
        ratio = [e / r for e, r in zip(rates[name], rates["lean random reference"])]
        print(f"  {name} / lean: {ratio_spread(ratio)}")


def bench_bots(games: int, deals: int, rounds: int) -> None:
    from scorekeeper.engine.bots import make_bot
    from scorekeeper.engine.cards import deal_masks
    from scorekeeper.engine.contracts import ALL_CONTRACTS
    from scorekeeper.engine.play import new_deal
    from scorekeeper.engine.simulate import play_out

    try:
        from scorekeeper.engine.simulate import play_deal
    except ImportError:  # the code before the quick path
        play_deal = None
    rules = HouseRules()
    kh, di, qu, co, tx = ALL_CONTRACTS
    shapes = [(kh,), (di,), (qu,), (co,), (kh, di, qu, co), (tx,)]
    rng = random.Random(1)
    hands = [(deal_masks(rng), i % 4, shapes[i % len(shapes)]) for i in range(deals)]

    def games_run() -> int:
        for seed in range(games):
            simulate_game(seed, rules, "heuristic")
        return games

    def objects() -> int:
        bot = make_bot("heuristic", random.Random(0))
        for masks, king, shape in hands:
            play_out(new_deal(masks, king, shape, rules), [bot] * 4)
        return deals

    def quick() -> int:
        for masks, king, shape in hands:
            play_deal(masks, king, shape, rules, "heuristic")
        return deals

    print(
        f"\n== heuristic bots, {games} games and {deals} deals a round, {rounds} rounds, "
        "CPU time =="
    )
    cases = {
        "games (simulate_game)": (games_run, games),
        "deals, deal objects (new_deal + play_out)": (objects, deals),
    }
    if play_deal is not None:
        cases["deals, quick (play_deal)"] = (quick, deals)
    for name, values in best_rates(cases, rounds).items():
        print(f"  {name:<42} {spread(values)} /s")
    print("  (deals: King of Hearts, Diamonds, Queens, Collections, Complex, Trex in turn)")
    if play_deal is None:
        return
    by_shape = {}
    for shape in shapes:
        mine = [(masks, king, shape) for masks, king, _ in hands]

        def one(mine=mine) -> int:
            for masks, king, chosen in mine:
                play_deal(masks, king, chosen, rules, "heuristic")
            return len(mine)

        by_shape[" + ".join(c.label for c in shape) if len(shape) < 4 else "Complex"] = (
            one,
            len(mine),
        )
    for name, values in best_rates(by_shape, rounds).items():
        print(f"  quick, {name:<35} {spread(values)} deals/s")


def bench_callgrind(games: int) -> None:
    if shutil.which("valgrind") is None:
        print("\n(valgrind is not installed: no instruction counts)")
        return
    print(
        f"\n== instructions executed (valgrind --tool=callgrind), {games} games, whole process =="
    )
    counts = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, command, cwd in contestants(games):
            out = subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={folder}/{name}.out",
                    *command,
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                cwd=cwd,
                stderr=subprocess.PIPE,
                text=True,
                env=_quiet_env(),
            ).stderr
            found = re.search(r"Collected\s*:\s*(\d+)", out)
            counts[name] = int(found.group(1)) if found else 0
            print(f"  {name:<7} {counts[name]:,} instructions")
    for name, count in counts.items():
        if name != "lean" and count:
            print(
                f"  lean / {name}: {counts['lean'] / count:.2f} (its games per instruction "
                "against the lean player's)"
            )


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--heuristic-games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--scaling-games", type=int, default=4000)
    parser.add_argument("--callgrind", type=int, default=0, metavar="GAMES")
    parser.add_argument("--only", default="process,scaling,inprocess,bots")
    parser.add_argument("--before", default=None, metavar="DIR")
    args = parser.parse_args()
    global BEFORE
    BEFORE = Path(args.before).resolve() if args.before else None
    parts = set(args.only.split(","))
    load = os.getloadavg()
    print(
        f"machine: {platform.machine()}, {_cores()} cores, Python {platform.python_version()}"
        f", load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    if "process" in parts:
        bench_process(args.games, args.rounds)
    if "scaling" in parts:
        bench_scaling(args.scaling_games, args.rounds)
    if "inprocess" in parts:
        bench_inprocess(args.games // 2, args.rounds)
    if "bots" in parts:
        bench_bots(args.heuristic_games, args.deals, args.rounds)
    if args.callgrind:
        bench_callgrind(args.callgrind)
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
