"""Many groups on one box: 1,000 groups of 20 finished games each, 100 of them with two tables
playing at once at a table's pace.

    python benchmarks/bench_groups.py [--groups 1000] [--playing 100] [--pace 2] [--seconds 60]
                                      [--keep DIR]

The run:

1. builds an instance folder of --groups groups (``serve --groups``): one group started through
   the store, with 20 games the engine's simulator played imported into it; every other group a
   copy of its file under a new id, with its own join and admin keys, in the register (with
   --keep, an instance built before in DIR is used again);
2. starts ``scorekeeper serve --groups`` (waitress, CSRF on) and ``benchmarks/reference_app.py``
   on the first group's file, on free ports of 127.0.0.1, and measures the server's resident
   memory (VmRSS) and open files at rest;
3. times starting a group through the front page (form, POST, the group's page);
4. a member of each of 200 groups (10 at once) opens a finished game's page: memory and open
   files after the server has touched that many groups;
5. for --seconds, 2 tables in each of --playing groups enter the deals of simulated games
   through the forms (form, preview, save, game page), each saving once every --pace seconds,
   while 4 connections read finished games' pages of random groups and, apart, 4 the reference
   page; it reports the save p50/p99, both pages' requests per second and their ratio;
6. memory and open files again at the end.

The figures go to standard output; BENCHMARKS.md records them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_tables import (  # noqa: E402
    Phone,
    Reply,
    enter_deal,
    expect,
    free_port,
    hidden_fields,
    percentile,
    simulated,
    start_game,
)

GAMES_PER_GROUP = 20


class GroupPhone(Phone):
    """A phone inside one group: paths are the group's, and so are the redirects it reads."""

    def __init__(self, port: int, group: str, **kwargs):
        super().__init__(port, **kwargs)
        self.prefix = f"/g/{group}"

    def request(self, kind, method, path, fields=None, headers=None) -> Reply:
        if path.startswith("/") and not path.startswith("/g/"):
            path = self.prefix + path
        reply = super().request(kind, method, path, fields, headers)
        if reply.location.startswith(self.prefix):
            reply.location = reply.location[len(self.prefix) :]
        return reply


def import_simulated(path: Path, games: int) -> None:
    """Import *games* simulated games into the database at *path* (all in its file)."""
    from scorekeeper.store.db import connect
    from scorekeeper.store.transfer import import_games, read_import

    db = connect(path)
    try:
        document = {
            "format": "trex-games/1",
            "games": [simulated(1000 + seed) for seed in range(games)],
        }
        import_games(db, read_import(json.dumps(document)))
        db.execute("pragma wal_checkpoint(truncate)")
    finally:
        db.close()


def build(instance: Path, count: int) -> list[tuple[str, str]]:
    """The instance of *count* groups; (group id, join key) of each."""
    from scorekeeper.store import keys
    from scorekeeper.store.db import connect
    from scorekeeper.store.groups import ID_ALPHABET, ID_LENGTH, Host

    host = Host(instance)
    first = host.create("Group 0", "en")
    import_simulated(first.path, GAMES_PER_GROUP)
    register = host.register()
    try:
        for n in range(1, count):
            group = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            shutil.copyfile(first.path, host.path_of(group))
            with register.atomic():
                register.execute(
                    "insert into groups (id, name, lang, created_at) values "
                    "(?, ?, 'en', '2026-11-26T00:00:00+00:00')",
                    [group, f"Group {n}"],
                )
    finally:
        register.close()
    found = []
    for group in host.groups():
        db = connect(group.path)
        try:
            keys.rotate_install_key(db, "join")
            keys.rotate_install_key(db, "admin")
            found.append((group.id, keys.install_key(db, "join")))
        finally:
            db.close()
    return found


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def process_figures(pid: int) -> tuple[float, int]:
    """(resident memory in MiB, open files) of the server: the process, its server processes
    (``--workers``) and theirs (printing, advisor), added up."""
    rss, fds, todo = 0, 0, [pid]
    while todo:
        current = todo.pop()
        try:
            rss += next(
                int(line.split()[1])
                for line in Path(f"/proc/{current}/status").read_text().splitlines()
                if line.startswith("VmRSS:")
            )
            fds += len(os.listdir(f"/proc/{current}/fd"))
        except (OSError, StopIteration):
            continue
        todo += _children(current)
    return rss / 1024, fds


def start_server(
    args: list[str], port: int, env: dict[str, str], log: Path, ready: str = "/healthz"
) -> subprocess.Popen:
    handle = open(log, "ab")
    process = subprocess.Popen(args, env=env, stdout=handle, stderr=subprocess.STDOUT, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", ready)
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(log.read_text(errors="replace")[-2000:])


def member(port: int, group: str, key: str) -> GroupPhone:
    phone = GroupPhone(port, group)
    expect(phone.request("join", "GET", f"/join/{key}"), 303, "join")
    return phone


def closed_loop(make, paths, seconds: float, connections: int) -> tuple[int, list[float]]:
    """*connections* threads each asking for a random path of *paths* as soon as the answer
    came, for *seconds*: how many answers, and their latencies."""
    stop = time.monotonic() + seconds
    lock, times = threading.Lock(), []

    def run(phone) -> None:
        while time.monotonic() < stop:
            reply = phone.request("page", "GET", random.choice(paths))
            if reply.status != 200:
                raise RuntimeError(f"{reply.status} for a page")
            with lock:
                times.append(reply.seconds)

    threads = [threading.Thread(target=run, args=(make(i),)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(times), times


def paced_table(
    port: int,
    group: str,
    key: str,
    seed: int,
    pace: float,
    stop: float,
    saves: list[float],
    errors: list[str],
) -> None:
    def record(kind: str, reply: Reply) -> None:
        if kind == "save":
            saves.append(reply.seconds)

    phone = member(port, group, key)
    phone.record = record
    game = simulated(seed)
    try:
        game_id = start_game(phone, game)
        next_save = time.monotonic() + random.uniform(0, pace)
        for number, deal in enumerate(game["deals"], start=1):
            time.sleep(max(0.0, next_save - time.monotonic()))
            if time.monotonic() > stop:
                break
            enter_deal(phone, game_id, number, deal)
            next_save += pace
    except Exception as exc:  # noqa: BLE001 (reported)
        errors.append(f"{group}: {type(exc).__name__}: {exc}")
    finally:
        phone.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--playing", type=int, default=100)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-groups-"))
    instance = work / "instance"
    if instance.exists() and (instance / "groups.sqlite3").exists():
        from scorekeeper.store import keys
        from scorekeeper.store.db import connect
        from scorekeeper.store.groups import Host

        groups = []
        for group in Host(instance).groups():
            db = connect(group.path)
            groups.append((group.id, keys.install_key(db, "join")))
            db.close()
        print(f"Using the {len(groups)} groups in {instance}")
    else:
        started = time.perf_counter()
        groups = build(instance, args.groups)
        print(
            f"Built {len(groups)} groups of {GAMES_PER_GROUP} games in "
            f"{time.perf_counter() - started:.0f} s"
        )
    port, ref_port = free_port(), free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    env.pop("SCOREKEEPER_DB", None)
    server = start_server(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--groups", "--port", str(port)],
        port,
        env,
        work / "server.log",
    )
    first_file = instance / "groups" / f"{groups[0][0]}.sqlite3"
    reference = start_server(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "reference_app.py"),
            "--db",
            str(first_file),
            "--port",
            str(ref_port),
        ],
        ref_port,
        env,
        work / "reference.log",
        ready="/",
    )
    try:
        rest = process_figures(server.pid)
        print(f"At rest: {rest[0]:.0f} MiB resident, {rest[1]} open files")

        times = []
        for n in range(5):
            phone = Phone(port)
            begin = time.perf_counter()
            form = expect(phone.request("form", "GET", "/"), 200, "front page")
            fields = {
                **hidden_fields(form.body),
                "name": f"New {n} {secrets.token_hex(2)}",
                "lang": "en",
            }
            made = expect(
                phone.request(
                    "start", "POST", "/groups/new", fields, {"X-Forwarded-For": f"10.0.0.{n}"}
                ),
                303,
                "start",
            )
            expect(phone.request("page", "GET", made.location), 200, "group page")
            times.append(time.perf_counter() - begin)
            phone.close()
        print(
            f"Starting a group (form, POST, its page): median "
            f"{sorted(times)[2] * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms"
        )

        touched = groups[:200]
        readers = [member(port, g, k) for g, k in touched]

        def read(i: int) -> None:
            for phone in readers[i::10]:
                expect(phone.request("page", "GET", "/games/1"), 200, "game page")

        threads = [threading.Thread(target=read, args=(i,)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        after = process_figures(server.pid)
        print(
            f"After a member of each of {len(touched)} groups read a game: {after[0]:.0f} MiB "
            f"resident, {after[1]} open files"
        )

        saves: list[float] = []
        errors: list[str] = []
        stop = time.monotonic() + args.seconds
        playing = groups[: args.playing]
        tables = [
            threading.Thread(
                target=paced_table,
                args=(port, g, k, 7000 + i * 2 + t, args.pace, stop, saves, errors),
            )
            for i, (g, k) in enumerate(playing)
            for t in range(2)
        ]
        for t in tables:
            t.start()
        time.sleep(min(10.0, args.seconds / 4))  # the tables have started their games
        window = max(5.0, args.seconds - 15)
        game_n, game_times = closed_loop(
            lambda i: readers[i],
            [f"/games/{n}" for n in range(1, GAMES_PER_GROUP + 1)],
            window / 2,
            4,
        )
        ref_n, ref_times = closed_loop(
            lambda i: Phone(ref_port),
            [f"/games/{n}" for n in range(1, GAMES_PER_GROUP + 1)],
            window / 2,
            4,
        )
        for t in tables:
            t.join()
        end = process_figures(server.pid)
        game_rate, ref_rate = game_n / (window / 2), ref_n / (window / 2)
        print(
            f"{len(tables)} tables in {len(playing)} groups, a save every {args.pace:g} s "
            f"each, for {args.seconds:g} s: {len(saves)} saves, p50 "
            f"{percentile(saves, 50) * 1000:.0f} ms, p99 {percentile(saves, 99) * 1000:.0f} ms;"
            f" {len(errors)} tables failed"
        )
        for error in errors[:5]:
            print("  ", error)
        print(
            f"Meanwhile, a finished game's page of a random group: {game_rate:.0f} requests/s "
            f"(p99 {percentile(game_times, 99) * 1000:.0f} ms); the reference page: "
            f"{ref_rate:.0f} requests/s (p99 {percentile(ref_times, 99) * 1000:.0f} ms); "
            f"ratio {game_rate / ref_rate:.2f}x"
        )
        print(f"At the end: {end[0]:.0f} MiB resident, {end[1]} open files")
        print(
            f"Machine: {platform.platform()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}"
        )
        print(
            json.dumps(
                {
                    "groups": len(groups),
                    "save_p99_ms": round(percentile(saves, 99) * 1000),
                    "game_page_ratio": round(game_rate / ref_rate, 2),
                    "rss_rest_mib": round(rest[0]),
                    "rss_end_mib": round(end[0]),
                    "fds_rest": rest[1],
                    "fds_end": end[1],
                }
            )
        )
        return 1 if errors else 0
    finally:
        for process in (server, reference):
            process.terminate()
            process.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
