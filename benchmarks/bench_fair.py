"""A stranger floods one group's shared result while a member of another group asks for its
sheets: does the member get every one? (Issue 39, item 2.)

    python benchmarks/bench_fair.py [--seconds 20] [--strangers 6] [--members 4] [--workers 1]
                                    [--json OUT]

The run, on 127.0.0.1 only, each phone from a loopback address of its own:

1. starts ``scorekeeper serve --groups --workers N`` (waitress, CSRF on) with a fresh instance;
   groups A and B are started through the forms, each plays a game of three deals, and A's
   starter opens the game's result and reads its shared image's secret link
   (``/g/A/r/games/<id>/<key>/sheet.png``), which a stranger may hold;
2. a quiet phase, then a flood phase, each --seconds long. In the flood, --strangers threads
   from one address (127.0.0.66), members of nothing, ask for A's shared image in a loop
   without pause, each request with new ``words_en`` and ``words_ar`` cookies and the
   ``lang`` and ``digits`` cookies in turn (every one a new render on ``main`` before this
   issue); and --members members of A, each from its own address, ask for blank sheets with
   new names each time (a new render each time, what any member can flood with);
3. in both phases B's member asks, one request after the other, for its game's sheet in each
   way of reading it (A4 or letter, English or Arabic, Western or Arabic-Indic digits: made
   once, then kept) and for a blank sheet with new names (a new render each time), and
   records each answer's status and time;
4. prints, per phase, B's answers by status with their median, p99 and slowest, and the
   flood's answers by status.

It passes (exit status 0) when every one of B's answers, in both phases, is a 200 with its
PDF.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_groups import GroupPhone  # noqa: E402
from load_tables import Server, enter_deal, hidden_fields, percentile, simulated, start_game  # noqa: E402

STRANGER = "127.0.0.66"
READINGS = [(lang, digits) for lang in ("en", "ar") for digits in ("western", "arabic")]


class SourcePhone(GroupPhone):
    """A phone inside one group that reaches the server from a loopback address of its own."""

    def __init__(self, port: int, group: str, source: str, timeout: float = 30):
        super().__init__(port, group, timeout=timeout)
        self.source = source

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=self.timeout, source_address=(self.source, 0)
        )


def start_group(port: int, name: str, source: str) -> tuple[str, str, SourcePhone]:
    """A phone starts a group through the front page's form: (its id, its join link's path,
    the phone, now inside the group)."""
    phone = SourcePhone(port, "", source)
    phone.prefix = ""
    fields = {**hidden_fields(phone.request("form", "GET", "/").body), "name": name, "lang": "en"}
    started = phone.request(
        "group", "POST", "/groups/new", fields, {"Referer": f"http://127.0.0.1:{port}/"}
    )
    assert started.status == 303, (started.status, started.body[:300])
    group = started.location.split("/g/", 1)[1].split("/")[0]
    page = phone.request("group", "GET", urlsplit(started.location).path).body
    join = re.search(r"/g/[a-z2-9]+/join/[0-9a-f]{32}", page)
    assert join is not None, page[:500]
    phone.prefix = f"/g/{group}"
    return group, join.group(0), phone


def joined(port: int, group: str, join: str, source: str) -> SourcePhone:
    phone = SourcePhone(port, group, source)
    assert phone.request("join", "GET", join).status == 303
    return phone


def prepare(port: int, members: int) -> dict:
    a, join_a, starter_a = start_group(port, "Flooded table", "127.0.0.10")
    b, _, member_b = start_group(port, "Café Layali", "127.0.0.20")
    games = {}
    for group, phone, seed in ((a, starter_a, 7), (b, member_b, 8)):
        game = simulated(seed)
        games[group] = start_game(phone, game)
        for number, deal in enumerate(game["deals"][:3], start=1):
            enter_deal(phone, games[group], number, deal)
    page = starter_a.request("result", "GET", f"/games/{games[a]}/result").body
    starter_a.close()
    shared = re.search(rf"/g/{a}/r/games/{games[a]}/[0-9a-f]{{32}}/sheet\.png", page)
    assert shared is not None, page[:500]
    flooders = [joined(port, a, join_a, f"127.0.0.{30 + n}") for n in range(members)]
    return {
        "a": a,
        "b": b,
        "game_b": games[b],
        "shared": shared.group(0),
        "flooders": flooders,
        "member_b": member_b,
    }


def stranger_floods(port: int, shared: str, index: int, stop: threading.Event, seen: Counter):
    phone = SourcePhone(port, "", STRANGER)
    for count in itertools.count():
        if stop.is_set():
            break
        lang, digits = READINGS[count % len(READINGS)]
        phone.cookies = {
            "words_en": urlencode({"queens": f"Q{index}x{count}", "trex": f"T{count}"}),
            "words_ar": urlencode({"queens": f"ب{index}x{count}"}),
            "lang": lang,
            "digits": digits,
        }
        try:
            seen[phone.request("flood", "GET", shared).status] += 1
        except OSError as exc:
            seen[type(exc).__name__] += 1
    phone.close()


def member_floods(phone: SourcePhone, index: int, stop: threading.Event, seen: Counter):
    for count in itertools.count():
        if stop.is_set():
            break
        names = urlencode([("names", f"M{index}x{count}n{seat}") for seat in range(4)])
        try:
            seen[phone.request("flood", "GET", "/sheet/blank.pdf?" + names).status] += 1
        except OSError as exc:
            seen[type(exc).__name__] += 1


def member_asks(setup: dict, stop: threading.Event, answers: list) -> None:
    """B's member: its game's sheet in each way of reading it, then a new blank sheet, in
    turn, one request at a time."""
    phone: SourcePhone = setup["member_b"]
    tag = time.monotonic_ns()  # names of this phase's own: never a sheet kept before
    for count in itertools.count():
        if stop.is_set():
            break
        lang, digits = READINGS[count % len(READINGS)]
        phone.cookies.update(lang=lang, digits=digits)
        if count % 2:
            names = urlencode([("names", f"B{tag}x{count}n{seat}") for seat in range(4)])
            path = "/sheet/blank.pdf?" + names
        else:
            paper = ("A4", "letter")[(count // len(READINGS)) % 2]
            path = f"/games/{setup['game_b']}/sheet.pdf?paper={paper}"
        start = time.perf_counter()
        try:
            reply = phone.request("sheet", "GET", path)
            pdf = (reply.headers or {}).get("Content-Type", "") == "application/pdf"
            answers.append(
                (
                    reply.status if pdf or reply.status != 200 else "no pdf",
                    time.perf_counter() - start,
                )
            )
        except OSError as exc:
            answers.append((type(exc).__name__, time.perf_counter() - start))


def phase(port: int, setup: dict, seconds: float, strangers: int, flood: bool) -> dict:
    stop = threading.Event()
    stranger_seen: Counter = Counter()
    members_seen: Counter = Counter()
    answers: list = []
    threads = [threading.Thread(target=member_asks, args=(setup, stop, answers))]
    if flood:
        threads += [
            threading.Thread(
                target=stranger_floods, args=(port, setup["shared"], i, stop, stranger_seen)
            )
            for i in range(strangers)
        ]
        threads += [
            threading.Thread(target=member_floods, args=(phone, i, stop, members_seen))
            for i, phone in enumerate(setup["flooders"])
        ]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(60)
    times = [t for _, t in answers] or [0.0]
    return {
        "phase": "flood" if flood else "quiet",
        "b": dict(Counter(str(s) for s, _ in answers)),
        "b_median": round(statistics.median(times), 3),
        "b_p99": round(percentile(times, 99), 3),
        "b_max": round(max(times), 3),
        "stranger": dict(sorted((str(k), v) for k, v in stranger_seen.items())),
        "a_members": dict(sorted((str(k), v) for k, v in members_seen.items())),
        "met": bool(answers) and all(s == 200 for s, _ in answers),
    }


def run(port: int, seconds: float, strangers: int, members: int) -> list[dict]:
    setup = prepare(port, members)
    try:
        return [
            phase(port, setup, seconds, strangers, flood=False),
            phase(port, setup, seconds, strangers, flood=True),
        ]
    finally:
        for phone in (setup["member_b"], *setup["flooders"]):
            phone.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--strangers", type=int, default=6)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="trex-bench-fair-") as folder:
        server = Server(
            Path(folder) / "unused.sqlite3",
            Path(folder) / "instance",
            args=("--groups", "--workers", str(args.workers)),
        ).start()
        try:
            rows = run(server.port, args.seconds, args.strangers, args.members)
        finally:
            server.stop()
    for row in rows:
        print(
            f"{row['phase']:6} B's sheets {row['b']}  p50 {row['b_median']:.3f} "
            f"p99 {row['b_p99']:.3f} max {row['b_max']:.3f} s  stranger {row['stranger']}  "
            f"A's members {row['a_members']}  {'met' if row['met'] else 'NOT MET'}",
            flush=True,
        )
    print(
        f"{platform.node()}: {len(os.sched_getaffinity(0))} cores, --workers {args.workers}, "
        f"{args.strangers} stranger threads, {args.members} flooding members, "
        f"{args.seconds:.0f} s a phase"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0 if all(row["met"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
