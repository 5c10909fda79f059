"""Moving a group to another box: ``groups pack`` writes the whole group into one file, and
``groups adopt`` registers it on the other box under its own id.

A pack is a backup of the group's file (SQLite's backup API: one consistent snapshot while the
server goes on writing, ``backup.backup_database``) with one more table, ``group_pack``, that
holds the group's line in the register (its id, name, language and when it was started). The
file holds everything else already: its games, players, nights, ratings, seasons, club nights,
tournaments, settings, its join and admin links' keys, its members and its phones' state. It is
readable by its owner alone (it holds those keys).

Adopting builds the group's file as a restore builds a database (``backup._build``: through
this version's migrations, every row held to restore's checks, every game scored again), with
the group's own keys, members and phones' state too (``restorechecks.check_own``), in a
temporary file of the groups' folder; only then is it linked in under the group's id (never
over a file that is there) and its line written to the register. A failure on the way leaves
neither the file nor the line. The same id on both boxes keeps what hangs on it: a phone's rows
are found by a digest of its key and the group's id, and a result's own link is signed with the
group's id and the site's secret key (the same key on every box behind one address).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import backup
from .backup import BackupError
from .groups import GROUP_ID, LANGS, Group, Host, _remove_with_journal, name_problem
from .restorechecks import MOMENT

#: The pack's own table: the group's line in the register.
PACK_TABLE = "group_pack"
REGISTER_COLUMNS = ("id", "name", "lang", "created_at")


@dataclass(frozen=True)
class Packed:
    group: Group
    games: int
    path: Path


def pack(host: Host, group_id: str, out: str | os.PathLike[str]) -> Packed:
    """Write the group *group_id* of *host*, whole, to *out* (owner only). Raises BackupError
    (one line) when there is no such group or *out* cannot be written; nothing is left at *out*
    then."""
    group = host.find(group_id) if GROUP_ID.fullmatch(group_id or "") else None
    if group is None:
        raise BackupError(f"There is no group {group_id}.")
    out = Path(out)
    if out.is_dir():
        raise BackupError(f"{out} is a folder: name the file to write.")
    if not out.parent.is_dir():
        raise BackupError(f"Cannot write {out}: there is no folder {out.parent}.")
    if out.exists() and out.resolve() == group.path.resolve():
        raise BackupError("The pack must go to another file than the group's.")
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".packing", dir=out.parent)
    os.close(fd)  # owner only (mkstemp); the backup writes into it
    temp = Path(name)
    try:
        games = backup.backup_database(group.path, temp)
        conn = sqlite3.connect(str(temp))
        try:
            with conn:
                conn.execute(
                    f"create table {PACK_TABLE} (id text not null, name text not null, "
                    "lang text not null, created_at text not null, packed_at text not null)"
                )
                conn.execute(
                    f"insert into {PACK_TABLE} values (?, ?, ?, ?, ?)",
                    [
                        group.id,
                        group.name,
                        group.lang,
                        group.created_at,
                        datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    ],
                )
        finally:
            conn.close()
        os.chmod(temp, 0o600)
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, out)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise BackupError(f"Cannot write {out}: {exc.strerror or exc}.") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return Packed(group, games, out)


def read_pack(path: Path) -> dict[str, str]:
    """The group's line in the register as the pack *path* holds it. Raises BackupError: not
    a pack (a damaged or foreign file), or a line that no group could have."""
    backup.check_backup_file(path)
    try:
        conn = backup._open_read_only(path)
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot open {path}: {exc}.") from None
    try:
        rows = conn.execute(
            f"select {', '.join(REGISTER_COLUMNS)} from {PACK_TABLE} limit 2"
        ).fetchall()
    except sqlite3.DatabaseError:
        raise BackupError(
            f"{path} is not a packed group (`scorekeeper groups pack ID --out FILE` makes one)."
        ) from None
    finally:
        conn.close()
    if len(rows) != 1 or not all(isinstance(value, str) for value in rows[0]):
        raise BackupError(f"{path}: its group's line is not one group's.")
    line = dict(zip(REGISTER_COLUMNS, rows[0]))
    if not GROUP_ID.fullmatch(line["id"]):
        raise BackupError(f"{path}: {line['id'][:20]!r} is not a group's id.")
    problem = name_problem(line["name"])
    if problem:
        raise BackupError(f"{path}: the group's name cannot be kept ({problem})")
    if line["lang"] not in LANGS:
        raise BackupError(f"{path}: the group's language is not English or Arabic.")
    if not MOMENT.fullmatch(line["created_at"]):
        raise BackupError(f"{path}: the day the group started is not a day.")
    return line


def adoption_problems(host: Host, line: dict[str, str]) -> list[str]:
    """Why *host* cannot take the group of that line under its id (an empty list: it can)."""
    problems = []
    if host.file_of(line["id"]) is not None:
        problems.append(f"There is already a group {line['id']} on this box (its file).")
    reg = host.register()
    try:
        if reg.execute("select 1 from groups where id = ?", [line["id"]]).fetchone():
            problems.append(f"There is already a group {line['id']} in this box's register.")
    finally:
        reg.close()
    return problems


def adopt(host: Host, path: str | os.PathLike[str]) -> tuple[Group, int, list[str]]:
    """Register the group packed in *path* on *host*, under its own id: the group, its number
    of games, and what the file held that was left behind. Raises BackupError with a line per
    problem (a file that is not a sound pack, an id already there); nothing is written then."""
    path = Path(path)
    line = read_pack(path)
    problems = adoption_problems(host, line)
    if problems:
        raise BackupError("\n".join(problems))
    host.folder.mkdir(parents=True, exist_ok=True)
    target = host.path_of(line["id"])
    fd, name = tempfile.mkstemp(prefix=f".{line['id']}.", suffix=".adopting", dir=host.folder)
    os.close(fd)
    temp = Path(name)
    linked = False
    try:
        games, left_out = backup.build_whole(path, temp)
        try:
            os.link(temp, target)  # never over a file that is there, even one made meanwhile
        except FileExistsError:
            raise BackupError(f"There is already a group {line['id']} on this box (its file).")
        linked = True
        reg = host.register()
        try:
            with reg.atomic():
                reg.execute(
                    "insert into groups (id, name, lang, created_at) values (?, ?, ?, ?)",
                    [line[c] for c in REGISTER_COLUMNS],
                )
        except sqlite3.IntegrityError:
            raise BackupError(
                f"There is already a group {line['id']} in this box's register."
            ) from None
        finally:
            reg.close()
    except BaseException:
        if linked:
            _remove_with_journal(target)
        raise
    finally:
        _remove_with_journal(temp)
    group = Group(line["id"], line["name"], line["lang"], line["created_at"], target)
    return group, games, [item for item in left_out if item != f"table {PACK_TABLE}"]
