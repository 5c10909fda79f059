"""Whole 20-deal games per second: the engine's bots against a lean hand-tuned random player.

    .venv/bin/python benchmarks/bench_engine.py [--games N] [--heuristic-games M]

Each engine game is played card by card, then read back through the validator and scored, as
the simulator does for ``scorekeeper simulate``. The reference (``lean_random.py``) plays the
same shape of game with ints and lists and no validation, in the same run.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lean_random import play_game  # noqa: E402

from scorekeeper.engine import HouseRules, read_game  # noqa: E402
from scorekeeper.engine.simulate import simulate_game  # noqa: E402


def engine_games(args: tuple[int, int, str]) -> int:
    start_seed, count, bot = args
    rules = HouseRules()
    for seed in range(start_seed, start_seed + count):
        read_game(simulate_game(seed, rules, bot)).score()
    return count


def lean_games(args: tuple[int, int, str]) -> int:
    start_seed, count, _bot = args
    rng = random.Random(start_seed)
    for _ in range(count):
        play_game(rng)
    return count


def rate(worker, games: int, bot: str, processes: int) -> float:
    chunks = [(i * 100_000, games // processes, bot) for i in range(processes)]
    start = time.perf_counter()
    if processes == 1:
        done = worker(chunks[0])
    else:
        with multiprocessing.Pool(processes) as pool:
            done = sum(pool.map(worker, chunks))
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--heuristic-games", type=int, default=200)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"machine: {platform.machine()}, {cores} cores, Python {platform.python_version()}")
    rows = [
        ("lean random reference", lean_games, args.games, "random"),
        ("engine, random bots", engine_games, args.games, "random"),
        ("engine, heuristic bots", engine_games, args.heuristic_games, "heuristic"),
    ]
    results = {}
    for label, worker, games, bot in rows:
        worker((10**6, max(games // 20, 1), bot))  # warm up
        one = rate(worker, games, bot, 1)
        many = rate(worker, games, bot, cores)
        results[label] = one
        print(f"{label:<26} {one:8.0f} games/s in one process, "
              f"{many:8.0f} games/s on {cores} processes")
    ratio = results["engine, random bots"] / results["lean random reference"]
    print(f"engine random / lean reference (one process): {ratio:.2f} "
          f"(target: at least 1.00, and at least 900 games/s)")


if __name__ == "__main__":
    main()
