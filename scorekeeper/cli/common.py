"""What every ``scorekeeper`` subcommand shares: exit statuses, how a refusal is printed, the
``--db`` option and the database it names, and writing an output file whole.

The store (and sqlite-utils under it) is imported only by a command that opens the database,
so that the others (``score``, ``simulate``) start without it."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from ..engine import Problem
from ..settings import environ, set_environ

if TYPE_CHECKING:
    from sqlite_utils import Database

#: A file, an entry or an option that cannot be used: the lines printed say why.
EXIT_INVALID = 2
#: The game, night or database asked for is not there.
EXIT_NOT_FOUND = 1


def fail(lines: Iterable[str | Problem]) -> int:
    """Print each line (a Problem in English) on standard error; the invalid-input status."""
    for line in lines:
        print(str(line), file=sys.stderr)
    return EXIT_INVALID


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=None,
        help="SQLite database file (default: $SCOREKEEPER_DB, or the instance folder)",
    )
    parser.add_argument(
        "--group",
        metavar="ID",
        help="on a box with many groups (serve --groups): the group's database "
        "instead (see `scorekeeper groups list`)",
    )
    add_instance_option(parser)


def add_instance_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--instance",
        metavar="DIR",
        help="the instance folder, where the database, the secret key and the "
        "groups live (default: $SCOREKEEPER_INSTANCE, see docs/hosting.md)",
    )


def use_instance(args: argparse.Namespace) -> None:
    """``--instance DIR`` stands for ``$SCOREKEEPER_INSTANCE`` for the rest of the command; a
    relative DIR is taken from the current folder, for every command alike."""
    if getattr(args, "instance", None):
        set_environ("SCOREKEEPER_INSTANCE", os.path.abspath(args.instance))


def groups_host():
    """The groups of the instance folder (``store.groups.Host``)."""
    from ..store.groups import Host
    from ..store.paths import instance_folder

    return Host(instance_folder())


def resolve_group(args: argparse.Namespace) -> str | None:
    """With ``--group ID``: point ``args.db`` at that group's file. Why not, or None."""
    group = getattr(args, "group", None)
    if not group:
        return None
    if getattr(args, "db", None):
        return "Give --db or --group, not both."
    path = groups_host().file_of(group)
    if path is None:
        return f"There is no group {group} in {groups_host().instance}."
    args.db = str(path)
    return None


def name_database(args: argparse.Namespace) -> None:
    """Neither ``--db`` nor ``--group``: the database ``$SCOREKEEPER_DB`` names, read where the
    store reads it (after the command line is parsed, so that parsing loads no store)."""
    if "db" in vars(args) and not args.db:
        from ..store.paths import named_database

        args.db = named_database()


def link_prefix(args: argparse.Namespace) -> str:
    """What a link of the database's group starts with: the public address when one is known
    (``--public-url`` or $SCOREKEEPER_PUBLIC_URL), then /g/<id> for a group of a box with many groups."""
    root = (getattr(args, "public_url", None) or environ("SCOREKEEPER_PUBLIC_URL")).rstrip("/")
    group = getattr(args, "group", None)
    return root + (f"/g/{group}" if group else "")


def database_path(given: str | None) -> Path:
    """The database file the app would use, without opening it (a backup must not create an
    empty database where there was none)."""
    from ..store.paths import database_file

    return database_file(given)


def open_database(path: str | None) -> Database:
    """The app's database (created if needed, with every migration applied)."""
    from ..store import open_database as open_store

    return open_store(path)


def stored_database(given: str | None) -> Database | None:
    """The app's database, opened, when there is one; else None, the refusal printed (the
    command then ends with :data:`EXIT_INVALID`): a command that reads must not create an
    empty database where there was none."""
    path = database_path(given)
    if not path.is_file():
        fail([f"There is no database at {path}."])
        return None
    return open_database(str(path))


def write_output(chunks: Iterable[str], out: str | None) -> None:
    """Write the text to *out* whole (a temporary file renamed at the end), or to stdout."""
    if out is None or out == "-":
        try:
            for chunk in chunks:
                sys.stdout.write(chunk)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped early (| head): not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    target = Path(out)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for chunk in chunks:
                handle.write(chunk)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def plural(count: int, word: str) -> str:
    """ "1 game", "3 games"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


__all__: Sequence[str] = [
    "EXIT_INVALID",
    "EXIT_NOT_FOUND",
    "add_db_option",
    "database_path",
    "fail",
    "open_database",
    "plural",
    "write_output",
]
