"""``scorekeeper score`` and ``scorekeeper simulate``: the engine from the command line, on a game
file or on games the bots play."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.errors import InvalidResult, Problem, RulesError
from ..engine.rules import HouseRules
from ..settings import environ
from .common import fail

if TYPE_CHECKING:
    from ..engine.gamefile import Game


def _read_file(path: str) -> tuple[list[Game] | None, list[str | Problem]]:
    from ..engine.gamefile import loads  # the file reader: imported by the command using it

    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        return None, [f"Cannot read {path}: {exc.strerror or exc}"]
    try:
        return loads(text), []
    except InvalidResult as exc:
        return None, list(exc.problems)


def cmd_score(args: argparse.Namespace) -> int:
    from ..engine.gamefile import dumps

    games, problems = _read_file(args.file)
    if games is None:
        return fail(problems)
    if args.json:  # as export writes them: the keys a file brought along compact
        print(dumps(games, with_scores=True))
        return 0
    for game in games:
        print_score(game)
    return 0


def print_score(game: Game) -> None:
    scored = game.score()
    names = game.players
    width = max(8, *(len(n) for n in names))
    if game.title or game.played_on:
        print(" ".join(x for x in (game.title, game.played_on or "") if x))
    print(f"Rules: {game.rules.summary()}")
    header = f"{'deal':>4}  {'King':<{width}}  {'contract':<22}" + "".join(
        f"{n:>{width + 1}}" for n in names
    )
    print(header)
    print("-" * len(header))
    deal_index = 0
    for king, subtotal, complete in scored.kingdoms:
        while deal_index < len(game.deals) and game.deals[deal_index].king == king:
            deal = game.deals[deal_index]
            if deal.is_thrown_in:
                what = f"thrown in ({deal.thrown_in.reason})"  # type: ignore[union-attr]
            elif len(deal.contracts) == 4:
                what = "Complex"
            else:
                what = " + ".join(c.label for c in deal.contracts)
            row = "".join(f"{p:>{width + 1}}" for p in scored.deals[deal_index])
            print(f"{deal_index + 1:>4}  {names[king]:<{width}}  {what:<22}{row}")
            deal_index += 1
        label = "kingdom" if complete else "so far"
        print(
            f"{'':>4}  {'':<{width}}  {label:<22}" + "".join(f"{p:>{width + 1}}" for p in subtotal)
        )
    print("-" * len(header))
    print(
        f"{'':>4}  {'':<{width}}  {'total':<22}"
        + "".join(f"{p:>{width + 1}}" for p in scored.totals)
    )
    if scored.team_totals is not None:
        a, b = scored.team_totals
        print(
            f"Teams: {names[0]} & {names[2]} {a}, {names[1]} & {names[3]} {b}; "
            f"result: {scored.team_result}"
        )
    if scored.is_over:
        print("Winner: " + ", ".join(names[s] for s in scored.winners))
    else:
        print("Game in progress")
    print()


def _rules_arg(text: str | None) -> HouseRules:
    if not text:
        return HouseRules()
    try:
        return HouseRules.from_dict(json.loads(text))
    except (ValueError, RulesError) as exc:
        raise SystemExit(fail([f"--rules: {exc}"]))


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..engine.simrun import run_simulation

    if args.jobs is not None and args.jobs < 1:
        return fail(["--jobs: give a number of processes, 1 or more."])
    if args.games < 0:
        return fail(["--games: give a number of games, 0 or more."])
    rules = _rules_arg(args.rules)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs if args.jobs is not None else _cores()
    check = args.check or checking()
    summary = run_simulation(args.games, args.seed, rules, args.bot, out, jobs=jobs, check=check)
    processes = "1 process" if summary.jobs == 1 else f"{summary.jobs} processes"
    print(
        f"{summary.games} games in {summary.seconds:.2f} s: "
        f"{summary.games / max(summary.seconds, 1e-9):.1f} games/s ({args.bot} bots, "
        f"{processes})"
    )
    print(
        "Average final score by seat: "
        + ", ".join(f"seat {s}: {v:+.1f}" for s, v in enumerate(summary.by_seat))
    )
    print("Average score per deal by contract:   the King   each other player")
    for contract, (king, other) in summary.by_contract.items():
        print(f"  {contract.label:<34} {king:+8.1f}   {other:+8.1f}")
    if out is not None:
        print(f"Wrote {summary.games} game files to {out}")
    return 0


#: Set to 1 to check every simulated game as a game from outside is checked (``--check``).
CHECK_ENV = "SCOREKEEPER_CHECK_SIMULATED"


def checking() -> bool:
    """Whether the environment asks for every simulated game to be checked."""
    return environ(CHECK_ENV).strip() not in ("", "0")


def _cores() -> int:
    from ..engine.simrun import available_cores

    return available_cores()


def add_commands(sub: Any) -> None:
    score = sub.add_parser("score", help="check and score a game file")
    score.add_argument("file", help="a game file: one game (trex-game/1) or several (trex-games/1)")
    score.add_argument(
        "--json", action="store_true", help="print the file with scores and totals added"
    )
    score.set_defaults(func=cmd_score)

    sim = sub.add_parser("simulate", help="play whole games card by card with bots")
    sim.add_argument(
        "--games", type=int, default=10, metavar="N", help="how many games to play (default 10)"
    )
    sim.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of the shuffles and the bots: the same seed plays the same games (default 1)",
    )
    sim.add_argument("--rules", default=None, help="the rules object as JSON text")
    sim.add_argument(
        "--bot",
        choices=("random", "heuristic"),
        default="random",
        help="how the bots play: at random, or by the tactics of the rule books (default random)",
    )
    sim.add_argument("--out", default=None, help="write one game file per game here")
    sim.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="play the games in N processes (default: one per core); the games "
        "and the averages are the same whatever N",
    )
    sim.add_argument(
        "--check",
        action="store_true",
        help="also read every game back through the validator and score it "
        "again, as a game file from outside is (slower; "
        "SCOREKEEPER_CHECK_SIMULATED=1 does the same)",
    )
    sim.set_defaults(func=cmd_simulate)
