"""The stored games from the command line: ``export`` and ``import`` in the game file format,
``backup`` and ``restore`` of the whole database, ``links``, a game's edit and watch links (a new
edit link, the PIN changed), and the install's ``admin-link`` and ``join-link``.

The database is the one the app would use: ``--db``, else ``$SCOREKEEPER_DB``, else the
instance folder's (``store.paths``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..languages import problem_sentence
from .common import (
    EXIT_INVALID,
    EXIT_NOT_FOUND,
    add_db_option,
    database_path,
    fail,
    groups_host,
    link_prefix,
    open_database,
    plural,
    stored_database,
    write_output,
)


def cmd_export(args: argparse.Namespace) -> int:
    from ..store import stats, transfer

    if args.game and (args.all or args.night):
        return fail(["Give --game, or --all, or --night (with or without --all)."])
    if not (args.game or args.all or args.night):
        return fail(["Say what to export: --game ID, --all, or --night YYYY-MM-DD."])
    try:
        night = stats.parse_date(args.night)
    except ValueError:
        return fail([f"--night: {args.night!r} is not a date (YYYY-MM-DD)."])
    if args.out not in (None, "-") and not Path(args.out).parent.is_dir():
        return fail([f"Cannot write {args.out}: there is no folder {Path(args.out).parent}."])
    db = stored_database(args.db)
    if db is None:
        return EXIT_INVALID
    try:
        if args.game:
            found = {g: transfer.stored_game(db, g) for g in args.game}
            missing = [g for g, game in found.items() if game is None]
            if missing:
                print("\n".join(f"There is no game {g}." for g in missing), file=sys.stderr)
                return EXIT_NOT_FOUND
            if len(args.game) == 1:
                chunks = iter([transfer.game_json(found[args.game[0]]) + "\n"])  # type: ignore[arg-type]
            else:
                chunks = transfer.iter_document(db, args.game)
            count = len(args.game)
        else:
            if night and not transfer.has_games(db, night=night):
                print(f"No game was played on {night}.", file=sys.stderr)
                return EXIT_NOT_FOUND
            ids = list(transfer.game_ids(db, night=night))  # a list of numbers: the count
            chunks, count = transfer.iter_document(db, ids), len(ids)
        write_output(chunks, args.out)
    finally:
        db.close()
    if args.out not in (None, "-"):
        print(f"Exported {plural(count, 'game')} to {args.out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from ..store import transfer

    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        return fail([f"Cannot read {args.file}: {exc.strerror or exc}"])
    try:
        games = transfer.read_import(data)
    except transfer.ImportRefused as exc:
        return fail(
            [problem_sentence(p, context=True) for p in exc.problems] + ["Nothing was imported."]
        )
    db = open_database(args.db)
    try:
        result = transfer.import_games(db, games)
    finally:
        db.close()
    for game_id in result.ids:
        print(game_id)
    for number, stored in result.skipped:
        which = f"Game {number} of the file" if len(games) > 1 else "The game in the file"
        print(f"{which} is stored already (game {stored}); not imported again.", file=sys.stderr)
    return 0


# -- backup, restore, a game's links --------------------------------------------------------
def cmd_backup(args: argparse.Namespace) -> int:
    from ..store.backup import BackupError, backup_database, backup_into

    if args.keep is not None and args.into is None:
        return fail(["--keep goes with --into FOLDER (a folder of dated backups)."])
    keep = 14 if args.keep is None else args.keep
    host = groups_host()
    if args.into is not None and not args.group and not args.db and host.register_path.exists():
        return _backup_every_group(host, args.into, keep)
    try:
        if args.into is not None:
            out, count, removed = backup_into(database_path(args.db), args.into, keep)
        else:
            out, removed = args.out, []
            count = backup_database(database_path(args.db), out)
    except BackupError as exc:
        return fail([str(exc)])
    print(f"Backed up {plural(count, 'game')} to {out}")
    for path in removed:
        print(f"Removed the older backup {path}")
    return 0


def _backup_every_group(host: Any, into: str, keep: int) -> int:
    """``backup --into FOLDER`` on a box of many groups: each group's file, consistent on its
    own, into FOLDER/<group id>/."""
    from ..store.backup import BackupError, backup_into

    problems = []
    for group in host.groups():
        try:
            out, count, _ = backup_into(group.path, str(Path(into) / group.id), keep)
        except BackupError as exc:
            problems.append(f"{group.id}: {exc}")
            continue
        print(f"Backed up {group.id} ({plural(count, 'game')}) to {out}")
    return fail(problems) if problems else 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ..store.backup import BackupError, restore_database
    from ..store.restoring import restore_group

    target = database_path(args.db)
    try:
        if args.group:  # while the box serves: the group answers "being restored" meanwhile
            restored = restore_group(
                args.file,
                target,
                on_marked=lambda: print(
                    f"Group {args.group} answers 'being restored' until this ends.", flush=True
                ),
            )
        else:
            restored = restore_database(args.file, target)
    except BackupError as exc:
        return fail([f"{exc} Nothing was changed."])
    if restored.kept is not None:
        print(f"The database it replaced is kept in {restored.kept}")
    if restored.left_out:
        print(f"Left behind, not being a scorekeeper's: {', '.join(restored.left_out)}")
    print(f"Restored {plural(restored.games, 'game')} from {args.file} into {target}")
    return 0


def cmd_links(args: argparse.Namespace) -> int:
    from ..store import keys

    if args.pin is not None and not keys.pin_fits(args.pin):
        low, high = keys.PIN_DIGITS
        return fail(
            [
                f"--pin: a table PIN is {low} to {high} digits (on a hosted box, at least "
                f"{keys.HOSTED_PIN_DIGITS})."
            ]
        )
    db = stored_database(args.db)
    if db is None:
        return EXIT_INVALID
    try:
        row = keys.game_keys(db, args.game)
        if row is None:
            print(f"There is no game {args.game}.", file=sys.stderr)
            return EXIT_NOT_FOUND
        if args.rotate:
            keys.rotate_edit_key(db, args.game)
        if args.pin is not None or args.no_pin:
            keys.set_pin(db, args.game, args.pin)
        row = keys.game_keys(db, args.game)
        title = next(db.query("select title from games where id = ?", [args.game]))["title"]
    finally:
        db.close()
    print(f"Game {row['id']}: {title or '(no title)'}")
    prefix = link_prefix(args)
    print(f"  keep score (keep it among the scorekeepers): {prefix}/e/{row['edit_key']}")
    print(f"  watch: {prefix}/v/{row['view_key']}")
    print(f"  table PIN: {'set' if row['pin_hash'] else 'none'}")
    if args.rotate:
        print("The old edit link no longer works: every phone that kept score only watches now.")
    if args.pin is not None or args.no_pin:
        print("Phones that the old PIN let in only watch now.")
    if not prefix.startswith("http"):
        print("Put the address the server prints in front, e.g. http://192.168.1.23:5000/e/...")
    return 0


def _install_link(args: argparse.Namespace, name: str, path: str) -> int:
    """Print the install's admin or join link (a new one with --rotate)."""
    from ..store import keys

    db = stored_database(args.db)
    if db is None:
        return EXIT_INVALID
    try:
        key = keys.rotate_install_key(db, name) if args.rotate else keys.install_key(db, name)
    finally:
        db.close()
    prefix = link_prefix(args)
    print(f"{prefix}/{path}/{key}")
    if args.rotate:
        print(f"The old {name} link no longer works: it lets no new phone in.")
    if not prefix.startswith("http"):
        print(
            f"Put the address the server prints in front, e.g. https://trex.example.org/{path}/..."
        )
    return 0


def cmd_admin_link(args: argparse.Namespace) -> int:
    return _install_link(args, "admin", "admin")


def cmd_join_link(args: argparse.Namespace) -> int:
    return _install_link(args, "join", "join")


# -- the subcommands -------------------------------------------------------------------------
def add_commands(sub: Any) -> None:
    export = sub.add_parser("export", help="write games to a game file (with scores and totals)")
    export.add_argument(
        "--game",
        type=int,
        action="append",
        metavar="ID",
        help="the game with this id (repeat for several)",
    )
    export.add_argument("--all", action="store_true", help="every game stored")
    export.add_argument("--night", metavar="YYYY-MM-DD", help="the games of one night")
    export.add_argument(
        "-o", "--out", metavar="FILE", help="the file to write (default: standard output)"
    )
    add_db_option(export)
    export.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help="store the games of a game file; print their ids")
    imp.add_argument("file", help="a game file: one game (trex-game/1) or several (trex-games/1)")
    add_db_option(imp)
    imp.set_defaults(func=cmd_import)

    backup = sub.add_parser(
        "backup",
        help="write a consistent copy of the database, also while the server runs",
        description="Copy the database with SQLite's backup API: one consistent snapshot, "
        "taken while the server keeps running. The file is readable by its owner "
        "only (it holds the games' edit keys).",
    )
    where = backup.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "-o", "--out", metavar="FILE", help="the backup file to write (replaced if it exists)"
    )
    where.add_argument(
        "--into",
        metavar="FOLDER",
        help="write a dated backup (scorekeeper-YYYYMMDD-HHMMSS.sqlite3) into "
        "this folder, for a daily timer",
    )
    backup.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="with --into: keep the newest N dated backups there, remove older ones (default 14)",
    )
    add_db_option(backup)
    backup.set_defaults(func=cmd_backup)

    restore = sub.add_parser(
        "restore",
        help="bring back a backup (stop the server first; a group: while the box serves)",
        description="Replace the database with the data of a backup, never its schema: a new "
        "database is built by this version, and the rows of the scorekeeper's own "
        "tables are copied in, checked as an import is, every game scored again. "
        "Triggers, views and other tables stay behind. Refused, in one line and "
        "changing nothing, when the file is not a sound scorekeeper backup, and "
        "while `scorekeeper serve` runs on the database: stop it first. With --group, "
        "on a box of many groups, the box goes on serving: that group answers "
        "'being restored' until the restore ends, the others are untouched. The "
        "database being replaced is kept beside it as FILE.before-restore-TIME.",
    )
    restore.add_argument("file", help="a file written by `scorekeeper backup`")
    add_db_option(restore)
    restore.set_defaults(func=cmd_restore)

    links = sub.add_parser(
        "links",
        help="print a game's edit and watch links; set or clear its table PIN",
        description="For a phone that has neither the edit link nor the PIN: the edit link "
        "lets it keep score, the watch link only follow the game.",
    )
    links.add_argument(
        "game", type=int, metavar="ID", help="the game's number, as its page shows it"
    )
    links.add_argument(
        "--rotate",
        action="store_true",
        help="make a new edit link: every phone that kept score only watches",
    )
    pin = links.add_mutually_exclusive_group()
    pin.add_argument(
        "--pin",
        metavar="DIGITS",
        help="set the table PIN (4 to 12 digits; phones the old one let in lose their right)",
    )
    pin.add_argument("--no-pin", action="store_true", help="remove the table PIN")
    add_db_option(links)
    links.set_defaults(func=cmd_links)

    for name, func, gives in (
        ("admin-link", cmd_admin_link, "rename, merge and delete the group's players"),
        ("join-link", cmd_join_link, "start and import games on a hosted box (serve --proxy-hops)"),
    ):
        command = sub.add_parser(
            name,
            help=f"print the secret link that lets a phone {gives}",
            description=f"Print the install's secret {name}: a phone that opens it may {gives}. "
            f"Keep it among the group. --rotate makes a new one, and every phone "
            f"that opened the old one loses that right.",
        )
        command.add_argument(
            "--rotate", action="store_true", help="make a new link; the old one stops working"
        )
        add_db_option(command)
        command.set_defaults(func=func)
