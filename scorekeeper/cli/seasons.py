"""``scorekeeper season``: the standings of the finished games played between two dates, both
included, best first by the champion's rule (store.seasons)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import EXIT_INVALID, add_db_option, fail, stored_database, write_output


def cmd_season(args: argparse.Namespace) -> int:
    from ..store import seasons

    first, last = seasons.parse_day(args.start), seasons.parse_day(args.end)
    for option, typed, day in (("--from", args.start, first), ("--to", args.end, last)):
        if day is None:
            return fail([f"{option} {typed!r} is not a date: write it as YYYY-MM-DD."])
    assert first is not None and last is not None
    if last < first:
        return fail([f"--to {last} comes before --from {first}."])
    db = stored_database(args.db)
    if db is None:
        return EXIT_INVALID
    try:
        rows = seasons.standings(db, first, last)
    finally:
        db.close()
    write_output([season_text(rows, first, last, as_json=args.json)], None)
    return 0


def season_text(rows: list[dict[str, Any]], first: str, last: str, *, as_json: bool) -> str:
    """The standings as the command prints them: a table, or the JSON list."""
    from ..store.seasons import CHAMPION_RULE

    if as_json:
        keys = {"player": "name", "games": "games", "wins": "wins", "points": "points"}
        listed = [
            {**{k: r[v] for k, v in keys.items()}, "rating_change": r["rating_change"]}
            for r in rows
        ]
        return json.dumps(listed, ensure_ascii=False, indent=2) + "\n"
    if not rows:
        return f"No finished game was played from {first} to {last}.\n"
    width = max(6, *(len(r["name"]) for r in rows))
    lines = [
        f"{'#':>3}  {'player':<{width}}  {'games':>5}  {'wins':>4}  {'avg':>4}  {'points':>7}  rating"
    ]
    for r in rows:
        change = "" if r["rating_change"] is None else f"{r['rating_change']:+d}"
        lines.append(
            f"{r['place']:>3}  {r['name']:<{width}}  {r['games']:>5}  {r['wins']:>4}  "
            f"{r['average_place']:>4.2f}  {r['points']:>7}  {change}"
        )
    lines.append(f"The champion: {CHAMPION_RULE}")
    return "\n".join(lines) + "\n"


def add_commands(sub: Any) -> None:
    cmd = sub.add_parser(
        "season",
        help="print the standings of the finished games played between two dates",
        description="The standings of the finished games played from --from to --to, both "
        "days included: games, wins (a first place by 'Who wins': both partners of a winning "
        "team win), points (the sum of the final totals) and the change of rating, best first "
        "by the champion's rule (most wins, then the better average place, then the higher "
        "total).",
    )
    cmd.add_argument(
        "--from", dest="start", required=True, metavar="YYYY-MM-DD", help="the first night"
    )
    cmd.add_argument("--to", dest="end", required=True, metavar="YYYY-MM-DD", help="the last night")
    cmd.add_argument(
        "--json",
        action="store_true",
        help="print a list, best first: player, games, wins, points, rating_change",
    )
    add_db_option(cmd)
    cmd.set_defaults(func=cmd_season)
