"""``scorekeeper ratings``: every rated player, best first (store.ratings)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import EXIT_INVALID, EXIT_NOT_FOUND, add_db_option, stored_database


def cmd_ratings(args: argparse.Namespace) -> int:
    from ..store import ratings

    db = stored_database(args.db)
    if db is None:
        return EXIT_INVALID
    try:
        if not ratings.enabled(db):
            print("Ratings are turned off for this group (Settings).")
            return EXIT_NOT_FOUND
        table = ratings.table(db)
    finally:
        db.close()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "player": r.name,
                        "rating": r.rating,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                        "provisional": r.provisional,
                    }
                    for r in table
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    if not table:
        print("No finished game yet: nobody is rated.")
        return 0
    width = max(6, *(len(r.name) for r in table))
    print(f"{'#':>3}  {'player':<{width}}  {'rating':>6}  {'games':>5}")
    for place, r in enumerate(table, start=1):
        mark = "  provisional" if r.provisional else ""
        print(f"{place:>3}  {r.name:<{width}}  {r.rating:>6}  {r.games:>5}{mark}")
    print(
        f"The rating is openskill's ordinal (mu - 3 sigma), shown as 1000 + 40 x ordinal; "
        f"provisional until {ratings.PROVISIONAL_GAMES} games."
    )
    return 0


def add_commands(sub: Any) -> None:
    cmd = sub.add_parser(
        "ratings",
        help="print every rated player, best first",
        description="The players' ratings (openskill's Plackett-Luce on the "
        "final places of every finished game, in order of play).",
    )
    cmd.add_argument(
        "--json",
        action="store_true",
        help="print a list, best first: player, rating, mu, sigma, games, provisional",
    )
    add_db_option(cmd)
    cmd.set_defaults(func=cmd_ratings)
