"""``scorekeeper pdf`` and ``scorekeeper blank-sheet``: printed scoresheets from the command line.

WeasyPrint is imported only when a sheet is rendered, so that other commands start quickly.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..engine.errors import InvalidResult
from ..languages import LANGUAGES, problem_sentence
from .common import add_db_option, database_path, fail

if TYPE_CHECKING:
    from ..engine.gamefile import Game

PAPERS = {"a4": "A4", "letter": "Letter"}  # the sizes scorekeeper.printing knows


def add_commands(subparsers: Any) -> None:
    """Add ``pdf`` and ``blank-sheet`` to the ``scorekeeper`` command's subparsers."""
    pdf = subparsers.add_parser("pdf", help="print a game's scoresheet to a PDF file")
    source = pdf.add_mutually_exclusive_group(required=True)
    source.add_argument("--game", type=int, metavar="ID", help="a game in the database")
    source.add_argument("--file", metavar="GAME.json", help="a game file (trex-game/1)")
    pdf.add_argument(
        "--number",
        type=int,
        default=None,
        metavar="N",
        help="which game of a file holding several (1 is the first)",
    )
    _add_output_options(pdf)
    pdf.add_argument(
        "--rtl",
        action="store_true",
        default=None,
        help="lay the sheet out right to left (an Arabic sheet always is)",
    )
    add_db_option(pdf)
    pdf.set_defaults(func=cmd_pdf)

    blank = subparsers.add_parser("blank-sheet", help="print an empty scoresheet to fill in")
    blank.add_argument(
        "--names",
        default=None,
        metavar="A,B,C,D",
        help="the four players' names, in seat order, separated by commas",
    )
    blank.add_argument("--title", default="", help="a title to print at the top")
    _add_output_options(blank)
    blank.set_defaults(func=cmd_blank_sheet)


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the PDF file to write ('-' for standard output)",
    )
    parser.add_argument(
        "--paper", type=_paper, default="A4", metavar="A4|Letter", help="paper size (default A4)"
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the sheet's language: en (English, the default) or ar (Arabic, right to left)",
    )
    parser.add_argument(
        "--digits",
        choices=("western", "arabic"),
        default="western",
        help="numbers in 0123456789 (the default) or in Arabic-Indic ٠١٢٣٤٥٦٧٨٩",
    )


def _paper(text: str) -> str:
    if text.lower() not in PAPERS:
        raise argparse.ArgumentTypeError(f"paper must be A4 or Letter, not {text!r}")
    return PAPERS[text.lower()]


def _fail(*lines: object) -> int:
    return fail(lines)  # type: ignore[arg-type]


def _write(output: str, render: Callable[[], bytes]) -> int:
    """Render the sheet and write it to *output* ("-": standard output); the exit status."""
    try:
        data = render()
        if output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
            return 0
        Path(output).write_bytes(data)
    except OSError as exc:
        return _fail(f"Cannot write {output}: {exc.strerror or exc}")
    print(f"Wrote {output} ({len(data) // 1024 + 1} KB)", file=sys.stderr)
    return 0


def cmd_pdf(args: argparse.Namespace) -> int:
    if args.file is not None:
        game, problems = game_from_file(args.file, args.number)
    else:
        game, problems = game_from_database(args.db, args.game)
    if game is None:
        return _fail(*problems)
    from ..printing import render_game_pdf

    return _write(
        args.output,
        lambda: render_game_pdf(
            game, paper=args.paper, rtl=args.rtl, lang=args.lang, digits=args.digits
        ),
    )


def cmd_blank_sheet(args: argparse.Namespace) -> int:
    names = None
    if args.names:
        from ..store.storage import clean_name

        names = [clean_name(n) for n in args.names.split(",")]
        if len(names) != 4:
            return _fail(
                "--names takes four names separated by commas, e.g. --names Aya,Bilal,Carla,Dana"
            )
        from ..engine.gamefile import check_players

        problems = check_players(names)  # the one check of a name, as for a game
        if problems:
            return fail([f"--names: {problem_sentence(p)}" for p in problems])
    from ..printing import render_blank_pdf

    return _write(
        args.output,
        lambda: render_blank_pdf(
            names, paper=args.paper, title=args.title, lang=args.lang, digits=args.digits
        ),
    )


def game_from_file(path: str, number: int | None = None) -> tuple[Game | None, list[object]]:
    """The game in a game file (the *number*-th of several, counting from 1)."""
    from ..engine.gamefile import loads

    try:
        games = loads(Path(path).read_bytes())
    except OSError as exc:
        return None, [f"Cannot read {path}: {exc.strerror or exc}"]
    except InvalidResult as exc:
        return None, list(exc.problems)
    if number is None and len(games) == 1:
        return games[0], []
    if number is None:
        return None, [
            f"{path} holds {len(games)} games: choose one with --number 1 to {len(games)}"
        ]
    if not 1 <= number <= len(games):
        return None, [f"{path} holds {len(games)} games; there is no game {number}"]
    return games[number - 1], []


def game_from_database(db_path: str | None, game_id: int) -> tuple[Game | None, list[object]]:
    """Game *game_id* from the scorekeeper's database."""
    from ..store import storage
    from ..store.db import connect

    path = database_path(db_path)
    if not path.is_file():
        return None, [
            f"No database at {path}: give its file with --db, or print a game file with --file"
        ]
    db = connect(path)
    try:
        stored = storage.load_game(db, game_id)
    except InvalidResult as exc:
        return None, [f"Game {game_id} cannot be read:", *exc.problems]
    finally:
        db.close()
    if stored is None:
        return None, [f"No game {game_id} in {path}"]
    return getattr(stored, "game", stored), []
