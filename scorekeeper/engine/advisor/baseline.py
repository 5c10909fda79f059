"""What each choice is worth to a King on an average hand, per rule set.

Measured by the same simulation as the advice, over random hands: the King's hand is dealt at
random too, and a deal that a bot would have thrown in (the King included) or replayed is left
out, as at the table. For the rules of play that matter to a single deal, the figures for the
presets (standard play, with or without partnership; every single contract and every group of
negative contracts, which covers Complex and Combination) are shipped in
``average_hands.json``, made by :func:`write_table` (``python tests/tools/make_average_hands.py``).

Any other rule set is measured when first asked for, with fewer samples, and kept in memory
for the life of the process (the rules are the key, so it cannot go stale). Each rule set is
measured under a lock of its own: one being measured delays neither another's measurement nor
advice whose averages are known.
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import Iterable, Sequence

from ..contracts import ALL_CONTRACTS, NEGATIVE_CONTRACTS
from ..rules import HouseRules
from . import pool
from .playout import PLAYED, Choice, Outcome

TABLE = Path(__file__).with_name("average_hands.json")
TABLE_SAMPLES = 20_000
TABLE_SEED = 2026
#: Samples per choice for a rule set that the table does not hold.
ON_DEMAND_SAMPLES = 2_000
#: The rule sets the table holds, as the rules of play.
TABLE_RULES = (HouseRules(), HouseRules(partnership=True))


@dataclass(frozen=True)
class Average:
    """A choice's points for a King on an average hand: *mean* (as scored under the rules),
    the spread of single deals *sd*, and the deals it is measured over."""

    mean: float
    sd: float
    deals: int

    @property
    def error(self) -> float:
        """The standard error of *mean*."""
        return self.sd / math.sqrt(self.deals) if self.deals else 0.0


def play_rules(rules: HouseRules) -> HouseRules:
    """The rules that change how a single deal plays and scores, the rest set to the default:
    which contracts may be combined, the order of contracts and of Kings, and how the winner
    is found do not; reversed scores are the same figures negated."""
    return replace(
        rules,
        combining="none",
        fixed_order=None,
        rotation="right",
        team_result="sum",
        reverse_scores=False,
    )


def rules_key(rules: HouseRules) -> str:
    return json.dumps(play_rules(rules).to_dict(only_changed=True), sort_keys=True)


def choice_key(choice: Iterable) -> str:
    """``"king_of_hearts+queens"``: a choice's contracts in the scoresheet's order."""
    found = set(choice)
    return "+".join(c.value for c in ALL_CONTRACTS if c in found)


def every_choice() -> list[Choice]:
    """Every contract alone and every group of two or more negative contracts."""
    groups = [
        group
        for size in range(2, len(NEGATIVE_CONTRACTS) + 1)
        for group in combinations(NEGATIVE_CONTRACTS, size)
    ]
    return [(c,) for c in ALL_CONTRACTS] + groups


def summarise(outcomes: Sequence[Outcome]) -> Average:
    points = [o.points for o in outcomes if o.status == PLAYED]
    n = len(points)
    if not n:
        return Average(0.0, 0.0, 0)
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / (n - 1) if n > 1 else 0.0
    return Average(mean, math.sqrt(var), n)


def measure(
    rules: HouseRules,
    choices: Sequence[Choice],
    samples: int,
    seed: int,
    parallel: bool | None = None,
) -> dict[Choice, Average]:
    """Play *samples* random deals for each choice (the same deals for all)."""
    played = pool.play(None, [(tuple(choices), 0, samples)], play_rules(rules), seed, parallel)
    return {choice: summarise(played[choice]) for choice in choices}


#: Held only to read or write the dictionaries below, never while measuring.
_guard = threading.Lock()
_table: dict[str, dict[str, Average]] | None = None
_measured: dict[str, dict[str, Average]] = {}
#: One lock per rule set, held while that rule set is measured: a measurement never delays
#: another rule set's, nor advice whose averages are known (one custom rule set took a lock for
#: the whole process, and a standard advice waited 6.5 s behind six of them).
_measuring: dict[str, threading.Lock] = {}


def _shipped() -> dict[str, dict[str, Average]]:
    global _table
    if _table is None:
        try:
            data = json.loads(TABLE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {"tables": []}
        _table = {
            json.dumps(t["rules"], sort_keys=True): {
                k: Average(**v) for k, v in t["choices"].items()
            }
            for t in data["tables"]
        }
    return _table


def _known(key: str) -> dict[str, Average]:
    with _guard:
        return {**_shipped().get(key, {}), **_measured.get(key, {})}


def averages(
    rules: HouseRules,
    choices: Sequence[Choice],
    *,
    parallel: bool | None = None,
    samples: int = ON_DEMAND_SAMPLES,
) -> dict[Choice, Average]:
    """Each choice's average, as scored under *rules* (negated under ``reverse_scores``): from
    the shipped table, from memory, or measured now (and kept)."""
    key = rules_key(rules)
    known = _known(key)
    if any(choice_key(c) not in known for c in choices):
        with _guard:
            measuring = _measuring.setdefault(key, threading.Lock())
        with measuring:  # a second asker of the same rule set waits for the first's figures
            known = _known(key)
            missing = [c for c in choices if choice_key(c) not in known]
            if missing:
                found = measure(rules, missing, samples, TABLE_SEED, parallel)
                with _guard:
                    kept = _measured.setdefault(key, {})
                    for choice, average in found.items():
                        kept[choice_key(choice)] = known[choice_key(choice)] = average
    sign = -1 if rules.reverse_scores else 1
    return {
        c: replace(known[choice_key(c)], mean=sign * known[choice_key(c)].mean) for c in choices
    }


def write_table(
    path: Path = TABLE,
    samples: int = TABLE_SAMPLES,
    seed: int = TABLE_SEED,
    rule_sets: Sequence[HouseRules] = TABLE_RULES,
) -> None:
    tables = []
    for rules in rule_sets:
        start = time.perf_counter()
        found = measure(rules, every_choice(), samples, seed)
        tables.append(
            {
                "rules": play_rules(rules).to_dict(only_changed=True),
                "choices": {
                    choice_key(c): {
                        "mean": round(a.mean, 2),
                        "sd": round(a.sd, 2),
                        "deals": a.deals,
                    }
                    for c, a in found.items()
                },
            }
        )
        print(f"{rules_key(rules)}: {time.perf_counter() - start:.0f} s")
    document = {
        "about": "What each choice is worth to a King on an average hand: the King's "
        "points per deal (with the partner's under partnership), played by "
        "the heuristic bots. Made by tests/tools/make_average_hands.py.",
        "samples": samples,
        "seed": seed,
        "tables": tables,
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
