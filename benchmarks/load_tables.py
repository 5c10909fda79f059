"""Many tables entering whole games at once against the production server, then a check that
every acknowledged deal is stored exactly once and every total is the engine's.

    python benchmarks/load_tables.py [--tables 50] [--deals 0] [--time-limit 240]

It starts ``scorekeeper serve`` (waitress, CSRF on) on a free port of 127.0.0.1 with a fresh
database, and runs one thread per table. Each table is a phone without JavaScript: it opens New
game, then for every deal of a game the engine's simulator played (``simulate_game``, random
bots) it opens the entry form, sends it for the preview, saves it, and follows the redirect to
the game page. Every seventh save is sent twice, as a double tap. The run stops by itself at
the time limit. The figures go to standard output; the exit status is 1 if any check failed.

The HTTP phone and the server process here are also what the crash test and the load test of
the test suite use.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
NAMES = [
    "Aya",
    "Bilal",
    "Carla",
    "Dana",
    "Eli",
    "Fadi",
    "Gus",
    "Hind",
    "Ivo",
    "Jana",
    "Karim",
    "Lina",
    "Maya",
    "Nour",
    "Omar",
    "Rami",
]
DOUBLE_TAP_EVERY = 7


# -- the server ----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``scorekeeper serve`` in its own process, as a table runs it."""

    def __init__(
        self,
        database: Path,
        instance: Path,
        port: int | None = None,
        options: Sequence[str] = (),
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ):
        self.database, self.instance = database, instance
        self.port = port or free_port()
        self.args, self.env = (*options, *args), dict(env or {})
        self.process: subprocess.Popen | None = None
        self.log_path = database.with_name(database.name + ".server.log")

    def start(self, timeout: float = 30) -> "Server":
        env = {**os.environ, "SCOREKEEPER_INSTANCE": str(self.instance), **self.env}
        env.pop("SCOREKEEPER_DB", None)
        # to a file, not a pipe: waitress logs a line per queued request under load, and a full
        # pipe that nobody reads would stop the server
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "scorekeeper.cli",
                    "serve",
                    "--db",
                    str(self.database),
                    "--port",
                    str(self.port),
                    *self.args,
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                start_new_session=True,
            )  # its own process group: kill() takes every process
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the server stopped: " + self.output())
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            try:
                connection.request("GET", "/healthz")  # what answers on every kind of box
                if connection.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.1)
            finally:  # a probe that failed leaves no socket for the garbage collector to find
                connection.close()
        self.kill()
        raise RuntimeError("the server did not answer in time: " + self.output())

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL to every process of the server (its server processes, ``--workers``, and the
        printing and advisor ones): no clean-up of any kind, as a pulled plug of the box."""
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.wait()

    def wait(self) -> None:
        if self.process is not None:
            self.process.wait(timeout=30)


# -- a phone -------------------------------------------------------------------------------
class _Forms(HTMLParser):
    """The hidden inputs of the first POST form of a page, and its action."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: dict[str, str] = {}
        self._inside = False
        self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and not self._done and a.get("method", "").lower() == "post":
            self._inside, self.action = True, a.get("action")
        elif tag == "input" and self._inside and a.get("type") == "hidden" and "name" in a:
            self.fields[a["name"]] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._inside:
            self._inside, self._done = False, True


def hidden_fields(html: str) -> dict[str, str]:
    parser = _Forms()
    parser.feed(html)
    return parser.fields


@dataclass
class Reply:
    status: int
    location: str
    body: str
    seconds: float
    headers: http.client.HTTPMessage | None = None


class Phone:
    """A browser without JavaScript on one phone: one kept-alive connection, its cookies."""

    def __init__(
        self, port: int, timeout: float = 30, record: Callable[[str, Reply], None] | None = None
    ):
        self.port, self.timeout, self.record = port, timeout, record
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        fields: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        body = urlencode(fields).encode() if fields is not None else None
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **(headers or {}),
        }
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = self.connect()
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # a kept-alive connection the server had closed: open a new one, once
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        reply = Reply(
            response.status,
            response.headers.get("Location", ""),
            data.decode("utf-8", errors="replace"),
            time.perf_counter() - start,
            response.headers,
        )
        if self.record is not None:
            self.record(kind, reply)
        return reply

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def deal_fields(deal: dict[str, Any]) -> dict[str, str]:
    """The form fields that enter a file-format deal, as the taps on the form send them."""
    out: dict[str, str] = {}
    captures = []
    if "king_of_hearts" in deal:
        captures.append(("kh", deal["king_of_hearts"]))
    captures += [(f"q_{suit}", c) for suit, c in deal.get("queens", {}).items()]
    for prefix, capture in captures:
        out[f"{prefix}_taker"] = str(capture["taker"])
        for key in ("doubled_by", "led_by"):
            if key in capture:
                out[f"{prefix}_{key}"] = str(capture[key])
    for key in ("diamonds", "tricks"):
        for seat, n in enumerate(deal.get(key) or ()):
            out[f"{key}_{seat}"] = str(n)
    for place, seat in enumerate(deal.get("trex_order") or (), start=1):
        out[f"trex_{place}"] = str(seat)
    if "thrown_in" in deal:
        out["reason"] = deal["thrown_in"]["reason"]
        out["by"] = str(deal["thrown_in"]["by"])
    return out


# -- one table -----------------------------------------------------------------------------
class Failure(Exception):
    """A request that did not get the answer a table expects."""


def expect(reply: Reply, status: int, what: str) -> Reply:
    if reply.status != status:
        raise Failure(
            f"{what}: {reply.status} instead of {status} ({reply.location or reply.body[:200]!r})"
        )
    return reply


@dataclass
class TableRun:
    seed: int
    game: dict[str, Any]  # the simulated game (file format)
    game_id: int | None = None
    acknowledged: list[tuple[int, str]] = field(default_factory=list)  # (number, token)
    double_taps: int = 0
    error: str | None = None


def start_game(phone: Phone, game: dict[str, Any]) -> int:
    fields = hidden_fields(expect(phone.request("form", "GET", "/games/new"), 200, "New game").body)
    fields.update({f"player_{s}": n for s, n in enumerate(game["players"])})
    fields.update(
        first_king=str(game["first_king"]),
        preset="standard",
        title=game["title"],
        played_on="2026-11-21",
    )
    reply = expect(phone.request("create", "POST", "/games/new", fields), 303, "start")
    return int(reply.location.rsplit("/", 1)[1])


def enter_deal(
    phone: Phone,
    game_id: int,
    number: int,
    deal: dict[str, Any],
    *,
    preview: bool = True,
    double_tap: bool = False,
) -> str:
    """Enter one deal through the forms; return the token of the acknowledged save."""
    base = f"/games/{game_id}"
    if "thrown_in" in deal:
        form = expect(
            phone.request("form", "GET", f"{base}/thrown-in?king={deal['king']}"),
            200,
            f"deal {number} form",
        )
        fields = {**hidden_fields(form.body), **deal_fields(deal), "step": "save"}
        target = f"{base}/thrown-in"
    else:
        query = urlencode({"king": deal["king"], "contracts": ",".join(deal["contracts"])})
        form = expect(
            phone.request("form", "GET", f"{base}/deals/new?{query}"), 200, f"deal {number} form"
        )
        fields = {**hidden_fields(form.body), **deal_fields(deal)}
        target = f"{base}/deals/new"
        if preview:
            page = expect(
                phone.request("preview", "POST", target, {**fields, "step": "preview"}),
                200,
                f"deal {number} preview",
            )
            fields = hidden_fields(page.body)
        fields["step"] = "save"
    if fields.get("number") != str(number):
        raise Failure(f"deal {number}: the form is for deal {fields.get('number')}")
    saved = expect(phone.request("save", "POST", target, fields), 303, f"deal {number} save")
    if saved.location != base:
        raise Failure(f"deal {number} saved, but sent to {saved.location}")
    if double_tap:
        again = expect(
            phone.request("save", "POST", target, fields), 303, f"deal {number} sent twice"
        )
        if again.location != f"{base}/deals/{number}":
            raise Failure(f"deal {number} sent twice went to {again.location}")
    expect(phone.request("page", "GET", saved.location), 200, "game page")
    return fields["token"]


def play_table(
    port: int,
    run: TableRun,
    *,
    deals: int,
    deadline: float,
    record: Callable[[str, Reply], None],
    preview: bool = True,
    stop: threading.Event | None = None,
) -> TableRun:
    phone = Phone(port, record=record)
    try:
        run.game_id = start_game(phone, run.game)
        for number, deal in enumerate(run.game["deals"][: deals or None], start=1):
            if time.monotonic() > deadline or (stop is not None and stop.is_set()):
                break
            tap = number % DOUBLE_TAP_EVERY == 0
            token = enter_deal(phone, run.game_id, number, deal, preview=preview, double_tap=tap)
            run.acknowledged.append((number, token))
            run.double_taps += tap
    except Exception as exc:  # noqa: BLE001 (every failure is reported, none is fatal here)
        run.error = f"table {run.seed}: {type(exc).__name__}: {exc}"
    finally:
        phone.close()
    return run


# -- the check -----------------------------------------------------------------------------
def verify(database: Path, runs: list[TableRun], *, in_flight: bool = False) -> list[str]:
    """Every acknowledged deal stored exactly once, in its place, as it was entered; each game's
    totals (its summary, its seats, its statistics rows) those the engine counts; the database
    sound. With *in_flight* (the server was killed), each game may also hold the one deal that
    was being saved when it died, whole. Returns the problems found."""
    from scorekeeper.engine import read_game

    problems: list[str] = []
    conn = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        verdict = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            problems.append(f"integrity_check: {verdict[:3]}")
        for run in runs:
            if run.game_id is None:
                continue
            problems += _check_game(conn, run, in_flight, read_game)
    finally:
        conn.close()
    return problems


def _check_game(
    conn: sqlite3.Connection, run: TableRun, in_flight: bool, read_game: Callable
) -> list[str]:
    game_id, acknowledged = run.game_id, run.acknowledged
    rows = conn.execute(
        "select number, token, record_json from deals where game_id = ? order by number", [game_id]
    ).fetchall()
    stored = [(r["number"], r["token"]) for r in rows]
    extra = len(stored) - len(acknowledged)
    if stored[: len(acknowledged)] != acknowledged or extra not in ((0, 1) if in_flight else (0,)):
        return [f"game {game_id}: stored {len(rows)} deals, {len(acknowledged)} acknowledged"]
    problems = []
    for number, token in stored:
        used = conn.execute(
            "select count(*) from deal_history where token = ? and deal_id in "
            "(select id from deals where game_id = ?)",
            [token, game_id],
        ).fetchone()[0]
        if used != 1:
            problems.append(f"game {game_id} deal {number}: {used} history rows")
    entered = read_game({**run.game, "deals": run.game["deals"][: len(rows)]})
    kept = read_game({**run.game, "deals": [json.loads(r["record_json"]) for r in rows]})
    if kept.deals != entered.deals:
        problems.append(f"game {game_id}: the stored deals differ from those entered")
    expected = list(entered.score().totals)
    summary = conn.execute(
        "select totals_json, deal_count from games where id = ?", [game_id]
    ).fetchone()
    seats = [
        r[0]
        for r in conn.execute(
            "select total from game_players where game_id = ? order by seat", [game_id]
        )
    ]
    facts = [
        r[0]
        for r in conn.execute(
            "select coalesce(sum(points), 0) from (select 0 as seat union select 1 union select 2 "
            "union select 3) s left join seat_contract_stats f on f.seat = s.seat and "
            "f.game_id = ? group by s.seat order by s.seat",
            [game_id],
        )
    ]
    if not json.loads(summary["totals_json"]) == seats == facts == expected:
        problems.append(
            f"game {game_id}: totals {seats}, statistics {facts}, the engine's {expected}"
        )
    if summary["deal_count"] != len(rows):
        problems.append(f"game {game_id}: deal_count {summary['deal_count']}, {len(rows)} deals")
    return problems


# -- the run -------------------------------------------------------------------------------
@dataclass
class LoadResult:
    runs: list[TableRun]
    seconds: float
    latencies: dict[str, list[float]]
    statuses: dict[int, int]
    problems: list[str]

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values())

    @property
    def failures(self) -> list[str]:
        return [r.error for r in self.runs if r.error] + self.problems

    @property
    def deals(self) -> int:
        return sum(len(r.acknowledged) for r in self.runs)


def simulated(seed: int) -> dict[str, Any]:
    from scorekeeper.engine import HouseRules
    from scorekeeper.engine.simulate import simulate_game

    start = seed * 5 % len(NAMES)
    players = [NAMES[(start + i * 3) % len(NAMES)] for i in range(4)]
    return simulate_game(seed, HouseRules(), players=players)


def run_load(
    port: int,
    database: Path,
    *,
    tables: int,
    deals: int = 0,
    seed: int = 1,
    time_limit: float = 240,
    preview: bool = True,
) -> LoadResult:
    runs = [TableRun(seed + i, simulated(seed + i)) for i in range(tables)]
    latencies: dict[str, list[float]] = {}
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def record(kind: str, reply: Reply) -> None:
        with lock:
            latencies.setdefault(kind, []).append(reply.seconds)
            statuses[reply.status] = statuses.get(reply.status, 0) + 1

    deadline = time.monotonic() + time_limit
    start = time.perf_counter()
    threads = [
        threading.Thread(
            target=play_table,
            args=(port, run),
            kwargs=dict(deals=deals, deadline=deadline, record=record, preview=preview),
            daemon=True,
        )
        for run in runs
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic() + 60))
    seconds = time.perf_counter() - start
    unfinished = [run for run, t in zip(runs, threads) if t.is_alive()]
    problems = [f"table {run.seed} did not stop in time" for run in unfinished]
    wanted = deals or None
    short = [
        run
        for run in runs
        if not run.error and len(run.acknowledged) < len(run.game["deals"][:wanted])
    ]
    if short:
        problems.append(f"{len(short)} tables stopped at the time limit before the end")
    problems += verify(database, runs)
    return LoadResult(runs, seconds, latencies, statuses, problems)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(result: LoadResult, tables: int) -> str:
    lines = [
        f"{tables} tables, {result.deals} deals acknowledged "
        f"({sum(r.double_taps for r in result.runs)} of them sent twice), "
        f"{result.requests} requests in {result.seconds:.1f} s: "
        f"{result.requests / result.seconds:.1f} requests/s, "
        f"{result.deals / result.seconds:.1f} deals saved/s",
        f"statuses: {dict(sorted(result.statuses.items()))}",
        "request     count   median     p95     p99     max   (ms)",
    ]
    everything = [s for values in result.latencies.values() for s in values]
    for kind, values in [*sorted(result.latencies.items()), ("all", everything)]:
        ms = [v * 1000 for v in values]
        lines.append(
            f"{kind:<10} {len(ms):>6} {statistics.median(ms):>8.1f} "
            f"{percentile(ms, 95):>7.1f} {percentile(ms, 99):>7.1f} {max(ms):>7.1f}"
        )
    lines.append(
        "failures: "
        + (
            "none"
            if not result.failures
            else "\n  ".join([str(len(result.failures)), *result.failures[:20]])
        )
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=0, help="deals per table (0: the game)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=240, help="seconds")
    parser.add_argument(
        "--no-preview", action="store_true", help="save at once, as the form does with JavaScript"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "load.sqlite3"
        server = Server(database, Path(tmp) / "instance").start()
        try:
            result = run_load(
                server.port,
                database,
                tables=args.tables,
                deals=args.deals,
                seed=args.seed,
                time_limit=args.time_limit,
                preview=not args.no_preview,
            )
        finally:
            server.stop()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}"
    )
    print(report(result, args.tables))
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
