"""``scorekeeper serve --workers N`` at rest: its processes and their memory, with one job
service for the box (issue 39, item 1), and that sheets, images and advice still arrive and
SIGTERM still stops everything.

    python benchmarks/bench_pool.py [--workers 1 2 4] [--source DIR]

For each N: a fresh database, ``serve --workers N`` on a free port of 127.0.0.1, waited for
until its processes have started and gone quiet (their processor time stops growing), then the
process tree under it is read from ``/proc``: how many processes, the sum of their resident
memory (RSS, which counts every shared page once per process) and of their proportional
share (PSS, from ``smaps_rollup``: shared pages split between their sharers, the memory the box
really spends). The targets: at most N + cores + 4 processes, at most 120 MiB a worker + 200 MiB
(judged on PSS). Then, through waitress, a blank sheet, a game's sheet, its PNG and the
advisor's answer (each status, and the processes after the advice), and SIGTERM: the seconds
until the parent has ended and whether any of its processes is left.

``--source DIR``: run the server from another checkout (e.g. ``git archive main``) with this
one's Python, to compare. BENCHMARKS.md records the figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_tables import Phone, enter_deal, free_port, simulated, start_game  # noqa: E402

NAMES = "names=Ann&names=Bob&names=Cy&names=Di"


def cores() -> int:
    return len(os.sched_getaffinity(0))


def tree(root: int) -> set[int]:
    """*root* and every live process under it."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state, parent = (
                    Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[:2]
                )
            except OSError:
                continue
            if state != "Z":
                parents[int(entry)] = int(parent)
    found, todo = {root} if root in parents else set(), [root]
    while todo:
        current = todo.pop()
        children = {c for c, p in parents.items() if p == current} - found
        found |= children
        todo.extend(children)
    return found


def field(pid: int, name: str, where: str) -> int:
    """A ``kB`` figure of /proc/<pid>/<where>, in bytes."""
    try:
        for line in Path(f"/proc/{pid}/{where}").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def cpu(pids: set[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def quiet(root: int, seconds: float = 60) -> None:
    """Wait until the tree's processor time stops growing (its processes are up and idle)."""
    deadline = time.monotonic() + seconds
    time.sleep(2.0)
    before = cpu(tree(root))
    while time.monotonic() < deadline:
        time.sleep(1.5)
        now = cpu(tree(root))
        if now - before < 0.03:
            return
        before = now


def measure(root: int) -> tuple[int, float, float]:
    """Processes, RSS and PSS (MiB) of the tree under *root*."""
    pids = tree(root)
    rss = sum(field(p, "VmRSS", "status") for p in pids) / 2**20
    pss = sum(field(p, "Pss", "smaps_rollup") for p in pids) / 2**20
    return len(pids), rss, pss


def start(work: Path, workers: int, source: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(work / "instance")}
    env.pop("SCOREKEEPER_DB", None)
    log = open(work / "server.log", "ab")
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--db", str(work / "db.sqlite3")]
        + ["--port", str(port), "--workers", str(workers)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=source,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if Phone(port, timeout=5).request("ready", "GET", "/healthz").status == 200:
                break
        except OSError:
            time.sleep(0.2)
    return server, port


def stop(server: subprocess.Popen) -> tuple[float, int]:
    """SIGTERM: the seconds until the parent ended, and the processes left 0.5 s later."""
    pids = tree(server.pid) - {server.pid}
    signalled = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    took = time.monotonic() - signalled
    time.sleep(0.5)
    left = {p for p in pids if p in tree(p)}
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    return took, len(left)


def arrive(port: int) -> str:
    """A blank sheet, a game's sheet, its PNG and the advice: their statuses."""
    phone = Phone(port)
    try:
        game = simulated(11)
        game_id = start_game(phone, game)
        enter_deal(phone, game_id, 1, game["deals"][0])
        out = []
        for kind, path in (
            ("blank PDF", f"/sheet/blank.pdf?{NAMES}"),
            ("game PDF", f"/games/{game_id}/sheet.pdf"),
            ("game PNG", f"/games/{game_id}/sheet.png"),
            ("advice", f"/games/{game_id}/advise"),
        ):
            reply = phone.request(kind, "GET", path)
            out.append(f"{kind} {reply.status} in {reply.seconds * 1000:.0f} ms")
        return ", ".join(out)
    finally:
        phone.close()


def one(workers: int, source: Path) -> str:
    work = Path(tempfile.mkdtemp(prefix=f"bench-pool-{workers}-"))
    server, port = start(work, workers, source)
    try:
        quiet(server.pid)
        processes, rss, pss = measure(server.pid)
        most = workers + cores() + 4
        memory = 120 * workers + 200
        line = (
            f"--workers {workers}: at rest {processes} processes (target <= {most}: "
            f"{'met' if processes <= most else 'MISSED'}), RSS {rss:.0f} MiB, PSS {pss:.0f} "
            f"MiB (target <= {memory}: {'met' if pss <= memory else 'MISSED'})"
        )
        answers = arrive(port)
        time.sleep(1.0)
        after, _, after_pss = measure(server.pid)
        line += f"\n   {answers}; then {after} processes, PSS {after_pss:.0f} MiB"
    finally:
        took, left = stop(server)
    return line + f"\n   SIGTERM: ended in {took:.2f} s, {left} processes left"


def fair(flood: int) -> str:
    """The service's turn order: group A puts *flood* blank sheets in the queue, then group B
    asks for one; how long B waits, against A's last."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper.engine import service
    from scorekeeper.printing import pool

    keeper = service.Keeper().start()
    try:
        for _ in range(pool.PRINTERS):  # the printers are up and have loaded WeasyPrint
            pool.submit("warm").result(timeout=60)

        def sheet(group: str, number: int):
            names = [f"{group}{number}", "Bob", "Cy", "Di"]
            return pool.submit("blank_pdf", names, "a4", "en", "western", (), tenant=group)

        started = time.monotonic()
        flooded = [sheet("A", n) for n in range(flood)]
        time.sleep(0.1)
        asked = time.monotonic()
        sheet("B", 0).result(timeout=120)
        waited = time.monotonic() - asked
        for future in flooded:
            future.result(timeout=120)
        last = time.monotonic() - started
    finally:
        keeper.stop()
        service.use(None)
    return (
        f"Turns: group A queued {flood} blank sheets, then group B asked for one: B's came "
        f"in {waited:.2f} s, A's last in {last:.2f} s ({pool.PRINTERS} printer(s))"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4])
    parser.add_argument("--source", type=Path, default=ROOT)
    parser.add_argument("--flood", type=int, default=16, help="0: no turn-order figure")
    args = parser.parse_args(argv)
    print(f"Source: {args.source.resolve()}", flush=True)
    for count in args.workers:
        print(one(count, args.source.resolve()), flush=True)
    if args.flood and args.source.resolve() == ROOT:
        print(fair(args.flood), flush=True)
    load = os.getloadavg()[0]
    print(
        f"Machine: {platform.platform()}, {cores()} cores (load {load:.1f}), Python "
        f"{platform.python_version()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
