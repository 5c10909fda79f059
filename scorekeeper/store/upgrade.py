"""Every database of an install brought up to date at once: ``scorekeeper migrate``, and
``serve`` at its start, so that an upgrade that cannot go through fails then, with a line that
says why, and never at a phone's first visit.

On a laptop or a Pi the install has one database; on a box of many groups, the register
(``groups.sqlite3``, its own migrations: ``schema.register_migrations``) and every group's
file under ``groups/``. Each database is brought up in one transaction (``schema.migrate``, and
for a group's the backfill after it: ``backfill.up_to_date``): a migration that fails leaves that
database as it was. A database written by a newer version
(migrations this one does not know) is left alone and said, since this version cannot read
what the newer one added.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from .backfill import up_to_date
from .db import connect
from .groups import GROUP_ID, GROUP_SUFFIX, GROUPS_FOLDER, REGISTER_FILE
from .schema import MigrationFailed, Migrations, latest, migrate, migrations, newer_migrations
from .schema import register_migrations


class NewerDatabase(Exception):
    """The database holds migrations this version does not know."""


@dataclass(frozen=True)
class Failure:
    path: Path
    why: str


@dataclass
class Upgrade:
    """What bringing the install's databases up to date did."""

    databases: int = 0
    register: bool = False
    groups: int = 0
    applied: int = 0
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def line(self, version: str) -> str:
        """The one summary line: the *version* that wrote it, how many databases, how many
        migrations, which schema."""
        count = f"{self.databases} database{'' if self.databases == 1 else 's'}"
        if self.failures:
            count = f"{self.databases - len(self.failures)} of {count}"
        parts = []
        if self.register:
            parts.append("the register")
        if self.register or self.groups:
            parts.append(f"{self.groups} group{'' if self.groups == 1 else 's'}")
        kinds = f" ({' and '.join(parts)})" if parts else ""
        applied = (
            f"{self.applied} migration{'' if self.applied == 1 else 's'} applied"
            if self.applied
            else "no migration to apply"
        )
        failed = f", {len(self.failures)} failed" if self.failures else ""
        return (
            f"Scorekeeper {version}: {count}{kinds} up to date: {applied}, "
            f"schema {latest()}{failed}."
        )

    def problems(self) -> list[str]:
        """One line per database left as it was, saying why."""
        return [f"{failure.path}: {failure.why}" for failure in self.failures]


def group_files(instance: str | os.PathLike[str]) -> list[Path]:
    """Every group's file in the instance's groups folder: each file that a group's pages
    would open (a file of a group's id), listed in the register or not."""
    folder = Path(instance) / GROUPS_FOLDER
    if not folder.is_dir():
        return []
    return sorted(
        path
        for path in folder.iterdir()
        if path.name.endswith(GROUP_SUFFIX)
        and GROUP_ID.fullmatch(path.name[: -len(GROUP_SUFFIX)])
        and path.is_file()
    )


def bring_up_to_date(
    path: str | os.PathLike[str], migration_set: Migrations = migrations, *, create: bool = True
) -> list[str]:
    """Apply the pending migrations to the database at *path*, then (a group's, or a laptop's
    database) the backfill where it is behind, in one transaction; the names applied. ``NewerDatabase`` for a file a newer version wrote (nothing changed),
    ``MigrationFailed`` for a migration that failed (nothing changed either)."""
    db = connect(Path(path), create=create)
    try:
        newer = newer_migrations(db, migration_set)
        if newer:
            raise NewerDatabase(
                f"a newer version of the scorekeeper wrote it ({', '.join(newer)}); install "
                "that version again, or restore the backup taken before (UPGRADING.md)"
            )
        if migration_set is migrations:
            return up_to_date(db)
        return migrate(db, migration_set)
    finally:
        db.close()


def upgrade_install(
    instance: str | os.PathLike[str],
    *,
    database: str | os.PathLike[str] | None = None,
    groups: bool = False,
    create: bool = True,
) -> Upgrade:
    """Bring up to date *database* (the one database of a laptop or a Pi; made when missing
    with *create*, else a missing file is a failure), and with *groups* the register and
    every group of the *instance* folder. A database that fails is counted and said; the
    others are brought up to date all the same."""
    done = Upgrade()
    todo: list[tuple[Path, Migrations, bool]] = []
    if database is not None:
        todo.append((Path(database), migrations, create))
    if groups:
        done.register = True
        todo.append((Path(instance) / REGISTER_FILE, register_migrations, True))
        files = group_files(instance)
        done.groups = len(files)
        todo.extend((path, migrations, False) for path in files)
    for path, migration_set, create in todo:
        done.databases += 1
        try:
            done.applied += len(bring_up_to_date(path, migration_set, create=create))
        except (NewerDatabase, MigrationFailed) as exc:
            done.failures.append(Failure(path, str(exc)))
        except (sqlite3.Error, OSError) as exc:
            done.failures.append(Failure(path, f"cannot be opened as a database: {exc}"))
    return done
