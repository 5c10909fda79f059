"""Measure the advisor's average-hand table, ``scorekeeper/engine/advisor/average_hands.json``
(run once; committed). What each choice is worth to a King on an average hand, under the rules
of play of the presets: see ``scorekeeper/engine/advisor/baseline.py``.

    .venv/bin/python tests/tools/make_average_hands.py [--samples 20000] [--seed 2026]

It plays every choice on the same random deals, spread over every core (about ten minutes on
two cores).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scorekeeper.engine.advisor import baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=baseline.TABLE_SAMPLES)
    parser.add_argument("--seed", type=int, default=baseline.TABLE_SEED)
    parser.add_argument("--out", default=str(baseline.TABLE))
    args = parser.parse_args()
    baseline.write_table(Path(args.out), args.samples, args.seed)


if __name__ == "__main__":
    main()
