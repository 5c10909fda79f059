"""Slow clients against ``scorekeeper serve``: does the home page still answer?

    python benchmarks/bench_slow_clients.py [--clients 200] [--interval 15] [--duration 60]
                                            [--baseline] [--json OUT]

The run, on 127.0.0.1 only:

1. starts ``scorekeeper serve`` on a free port with a fresh database and instance folder (with
   --baseline, the same app under waitress's defaults instead, as ``serve`` ran it before: 8
   threads and nothing else set);
2. opens --clients connections that each send the first line of a request, then one more
   header line every --interval seconds, and never finish it (a "slowloris"); a connection the
   server closes is opened again at once, so that as many stay open for the whole run;
3. meanwhile asks for the home page every --probe seconds, each on a new connection with a 5 s
   timeout, and times the answer;
4. stops after --duration seconds (the slow clients are bounded in number and in time) and
   prints the home page's latency (median, p95, max), the requests that failed, and how often
   the server closed a slow connection.

It passes (exit status 0) when every home page request answered 200 in under 1 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # never anywhere else
TARGET = 1.0  # seconds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(folder: Path, port: int, baseline: bool) -> subprocess.Popen:
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(folder / "instance")}
    database = str(folder / "bench.sqlite3")
    if baseline:
        code = (
            "import sys; from waitress import serve; from scorekeeper.web import create_app; "
            f"serve(create_app({{'DATABASE': {database!r}}}), host={HOST!r}, port={port}, "
            "threads=8)"
        )
        command = [sys.executable, "-c", code]
    else:
        command = [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            database,
        ]
    log = open(folder / "server.log", "w")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if home(port, timeout=2)[0] == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server did not start; see {folder / 'server.log'}")


def home(port: int, timeout: float = 5.0) -> tuple[int, float]:
    """GET / on a new connection: (status, seconds)."""
    began = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", "/", headers={"Connection": "close"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - began
    finally:
        conn.close()


class SlowClients:
    """*count* connections, each sending one header line every *interval* seconds, opened again
    when the server closes them. One thread, one selector."""

    def __init__(self, port: int, count: int, interval: float):
        self.port, self.count, self.interval = port, count, interval
        self.selector = selectors.DefaultSelector()
        self.next_line: dict[socket.socket, float] = {}
        self.lines: dict[socket.socket, int] = {}
        self.closed_by_server = 0
        self.refused = 0
        self.most_lines = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open_one(self) -> None:
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.connect((HOST, self.port))
        except BlockingIOError:
            pass
        except OSError:
            self.refused += 1
            sock.close()
            return
        self.selector.register(sock, selectors.EVENT_READ)
        self.next_line[sock] = time.monotonic()  # the request line goes out at once
        self.lines[sock] = 0

    def close(self, sock: socket.socket) -> None:
        self.selector.unregister(sock)
        self.most_lines = max(self.most_lines, self.lines.pop(sock, 0))
        self.next_line.pop(sock, None)
        sock.close()

    def send_due(self, now: float) -> None:
        for sock, due in list(self.next_line.items()):
            if due > now:
                continue
            line = (
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                if self.lines[sock] == 0
                else b"X-Slow-%d: x\r\n" % self.lines[sock]
            )
            try:
                sock.send(line)
            except (BlockingIOError, InterruptedError):
                continue  # not connected yet: next round
            except OSError:
                self.closed_by_server += 1
                self.close(sock)
                continue
            self.lines[sock] += 1
            self.next_line[sock] = now + self.interval

    def run(self) -> None:
        for _ in range(self.count):
            self.open_one()
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                sock = key.fileobj
                try:
                    data = sock.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:  # the server hung up on it
                    self.closed_by_server += 1
                    self.close(sock)
            self.send_due(time.monotonic())
            while len(self.next_line) < self.count and not self.stop.is_set():
                self.open_one()
        for sock in list(self.next_line):
            self.close(sock)

    def open_now(self) -> int:
        return len(self.next_line)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument(
        "--interval", type=float, default=15.0, help="seconds between a slow client's header lines"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds the run lasts")
    parser.add_argument(
        "--probe", type=float, default=0.5, help="seconds between two home page requests"
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="the app under waitress's defaults, as serve ran it before",
    )
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 1000 or not 1 <= args.duration <= 600:
        parser.error("--clients from 1 to 1000, --duration from 1 to 600 s")

    with tempfile.TemporaryDirectory(prefix="bench-slow-") as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, args.baseline)
        slow = SlowClients(port, args.clients, args.interval)
        latencies: list[float] = []
        failures: list[str] = []
        open_counts: list[int] = []
        try:
            slow.thread.start()
            time.sleep(min(3.0, args.duration / 4))  # let them all connect
            began = time.monotonic()
            while time.monotonic() - began < args.duration:
                open_counts.append(slow.open_now())
                try:
                    status, seconds = home(port)
                    if status != 200:
                        failures.append(f"status {status}")
                    latencies.append(seconds)
                except OSError as exc:
                    failures.append(type(exc).__name__)
                    latencies.append(5.0)
                time.sleep(args.probe)
        finally:
            slow.stop.set()
            slow.thread.join(timeout=10)
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()

    figures = {
        "server": "waitress defaults (threads=8)" if args.baseline else "scorekeeper serve",
        "clients": args.clients,
        "interval_s": args.interval,
        "duration_s": args.duration,
        "home_requests": len(latencies),
        "failed": len(failures),
        "median_ms": round(statistics.median(latencies) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
        "slow_open_median": int(statistics.median(open_counts)),
        "slow_closed_by_server": slow.closed_by_server,
        "slow_most_lines_before_closed": slow.most_lines,
    }
    for key, value in figures.items():
        print(f"{key:32} {value}")
    if failures:
        print("failures: " + ", ".join(sorted(set(failures))))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    ok = not failures and max(latencies) < TARGET
    print(
        "PASS: every home page in under 1 s"
        if ok
        else "FAIL: the home page was slow or unreachable"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
