"""A flood of expensive requests against ``scorekeeper serve``: do the cheap pages still answer?

    python benchmarks/bench_flood.py [--clients 16] [--seconds 20] [--json OUT]

The run, on 127.0.0.1 only (issue 27, item 1):

1. starts ``scorekeeper serve`` (waitress, CSRF on) on a free port with a fresh database; a
   table starts a game and plays a few deals; a club night of eight is started; --clients
   phones each start a game of their own (so each has scoring rights there);
2. one phase per expensive address, each --seconds long, with --clients threads asking for it
   in a loop without pause (a closed loop, as a script would): ``/sheet/blank.pdf`` with new
   names each time, a game's ``sheet.png`` with a new words cookie each time, the club night's
   ``standings.pdf``, and advice (POST of a hand) from the phones with scoring rights; and
   first a quiet phase with no flood;
3. meanwhile a prober asks for the home page and the table's game page in turn, every 0.1 s,
   each with a 10 s timeout, and a table saves a deal every 2 s through the forms (a new
   game when one is over);
4. prints, per phase: the flood's answers by status, the home page's and the game page's
   median and p99, and the deal saves (how many succeeded, the slowest).

It passes (exit status 0) when, in every phase, both pages keep a p99 under 1 s and every deal
save succeeds.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_tables import Phone, Server, enter_deal, hidden_fields, simulated, start_game  # noqa

TARGET = 1.0  # seconds, p99 of the cheap pages
HAND = "KH 2H 3H 4H 5H 6H 7H 3S 4S 5S 3D 4D 3C".split()
EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def start_club(phone: Phone) -> int:
    fields = hidden_fields(phone.request("form", "GET", "/clubs/new").body)
    fields.update(
        title="Café",
        played_on="2026-11-24",
        players="\n".join(EIGHT),
        rounds="3",
        first_round="entered",
        preset="standard",
    )
    reply = phone.request("club", "POST", "/clubs/new", fields)
    assert reply.status == 303, reply.status
    return int(reply.location.rstrip("/").split("/")[-1])


class Flood:
    """One kind of expensive request, asked by one phone in a loop."""

    def __init__(self, name: str, port: int, setup: dict):
        self.name, self.port, self.setup = name, port, setup

    def run(self, index: int, stop: threading.Event, statuses: Counter) -> None:
        phone = (
            self.setup["phones"][index] if self.name == "advice" else Phone(self.port, timeout=30)
        )
        ask = getattr(self, "ask_" + self.name.replace(".", "_"))
        count = 0
        while not stop.is_set():
            count += 1
            try:
                status = ask(phone, index, count)
            except OSError as exc:
                status = type(exc).__name__
            statuses[status] += 1

    def ask_blank_pdf(self, phone: Phone, index: int, count: int) -> int:
        names = [f"P{index}x{count}n{seat}" for seat in range(4)]
        return phone.request(
            "flood", "GET", "/sheet/blank.pdf?" + urlencode([("names", n) for n in names])
        ).status

    def ask_sheet_png(self, phone: Phone, index: int, count: int) -> int:
        phone.cookies["words_en"] = f"queens=Q{index}w{count}"
        return phone.request("flood", "GET", f"/games/{self.setup['game']}/sheet.png").status

    def ask_standings_pdf(self, phone: Phone, index: int, count: int) -> int:
        return phone.request("flood", "GET", f"/clubs/{self.setup['club']}/standings.pdf").status

    def ask_advice(self, phone: Phone, index: int, count: int) -> int:
        game, token = self.setup["advice"][index]
        return phone.request(
            "flood",
            "POST",
            f"/games/{game}/advise",
            [("csrf_token", token)] + [("card", c) for c in HAND],
        ).status


def probe(
    port: int, game: int, stop: threading.Event, times: dict[str, list[float]], failures: list[str]
) -> None:
    paths = {"home": "/", "game": f"/games/{game}"}
    while not stop.is_set():
        for name, path in paths.items():
            phone = Phone(port, timeout=10)  # a new connection each time, as a new phone
            start = time.perf_counter()
            try:
                reply = phone.request("probe", "GET", path)
                if reply.status != 200:
                    failures.append(f"{name} {reply.status}")
            except OSError as exc:
                failures.append(f"{name} {type(exc).__name__}")
            times[name].append(time.perf_counter() - start)
            phone.close()
            time.sleep(0.05)


def save_deals(port: int, stop: threading.Event, saves: list[tuple[bool, float]]) -> None:
    """A table saving a deal every two seconds, starting a new game when one is over."""
    table = Phone(port, timeout=30)
    seed = int(time.monotonic() * 1000) % 100000
    while not stop.wait(2.0):
        start = time.perf_counter()
        try:
            if not getattr(table, "deals", None):
                seed += 1
                game = simulated(seed)
                table.game, table.deals, table.number = start_game(table, game), game["deals"], 0
            table.number += 1
            enter_deal(table, table.game, table.number, table.deals.pop(0))
            saves.append((True, time.perf_counter() - start))
        except Exception as exc:  # noqa: BLE001 (a failed save is a figure, not an end)
            saves.append((False, time.perf_counter() - start))
            table.deals = None  # a new game next time
            print(f"  a deal save failed: {exc}", file=sys.stderr)


def phase(name: str, port: int, setup: dict, clients: int, seconds: float) -> dict:
    stop = threading.Event()
    statuses: Counter = Counter()
    times: dict[str, list[float]] = {"home": [], "game": []}
    failures: list[str] = []
    saves: list[tuple[bool, float]] = []
    threads = [
        threading.Thread(target=probe, args=(port, setup["game"], stop, times, failures)),
        threading.Thread(target=save_deals, args=(port, stop, saves)),
    ]
    if name != "quiet":
        flood = Flood(name, port, setup)
        threads += [
            threading.Thread(target=flood.run, args=(i, stop, statuses)) for i in range(clients)
        ]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(60)
    row = {
        "phase": name,
        "flood": dict(sorted((str(k), v) for k, v in statuses.items())),
        "probe_failures": failures[:10],
        "saves_ok": sum(ok for ok, _ in saves),
        "saves_failed": sum(not ok for ok, _ in saves),
        "slowest_save": round(max((s for _, s in saves), default=0), 3),
    }
    for page, values in times.items():
        row[page] = {
            "n": len(values),
            "median": round(statistics.median(values), 3),
            "p99": round(percentile(values, 99), 3),
            "max": round(max(values), 3),
        }
    row["met"] = (
        row["home"]["p99"] < TARGET
        and row["game"]["p99"] < TARGET
        and not failures
        and row["saves_failed"] == 0
        and row["saves_ok"] > 0
    )
    return row


def prepare(port: int, clients: int) -> dict:
    table = Phone(port)
    game_doc = simulated(7)
    game = start_game(table, game_doc)
    for number, deal in enumerate(game_doc["deals"][:3], start=1):
        enter_deal(table, game, number, deal)
    club = start_club(table)
    phones, advice = [], []
    for index in range(clients):
        phone = Phone(port, timeout=30)
        own = start_game(phone, simulated(100 + index))
        page = phone.request("advise", "GET", f"/games/{own}/advise")
        advice.append((own, hidden_fields(page.body)["csrf_token"]))
        phones.append(phone)
    return {"game": game, "club": club, "phones": phones, "advice": advice}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--phases", default="quiet,blank.pdf,sheet.png,standings.pdf,advice")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    random.seed(1)
    with tempfile.TemporaryDirectory(prefix="trex-bench-flood-") as folder:
        server = Server(Path(folder) / "bench.sqlite3", Path(folder) / "instance").start()
        try:
            setup = prepare(server.port, args.clients)
            rows = []
            for name in args.phases.split(","):
                row = phase(name, server.port, setup, args.clients, args.seconds)
                rows.append(row)
                print(
                    f"{name:14} flood {row['flood']}  home p50 {row['home']['median']:.3f} "
                    f"p99 {row['home']['p99']:.3f}  game p50 {row['game']['median']:.3f} "
                    f"p99 {row['game']['p99']:.3f}  saves {row['saves_ok']} ok "
                    f"{row['saves_failed']} failed (slowest {row['slowest_save']:.2f} s)  "
                    f"{'met' if row['met'] else 'NOT MET'}",
                    flush=True,
                )
        finally:
            server.stop()
    print(
        f"{platform.node()}: {len(__import__('os').sched_getaffinity(0))} cores, "
        f"{args.clients} clients, {args.seconds:.0f} s a phase"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0 if all(row["met"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
