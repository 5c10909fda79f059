"""Time to print a full game's scoresheet, against a minimal one-page WeasyPrint document.

Both are rendered in the same process after a warm-up (WeasyPrint imported, fonts loaded once, as
in the server after ``warm_up()``), alternately, several times; the medians are compared with the
target of the printing issue: the sheet in at most 1.5 times the minimal page.

    python benchmarks/bench_pdf.py [--repeat 15] [--game benchmarks/full_game.json]

Two more figures put the ratio in context: the minimal page with the sheet's own stylesheet and
fonts, and a bare table with as many cells as the sheet's grid (no stylesheet at all).

Then what a player feels, from tapping "Scoresheet PDF" to having it: the app's answer to
``GET /games/<id>/sheet.pdf`` (Flask's test client, in the same process, the game stored in a
fresh database), when the sheet is ready (kept), when the phone has it already (304), when it is
not ready (laid out there and then), and right after the save that asked the worker for it.
Targets: under 50 ms ready, under 400 ms not ready.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

import weasyprint
from weasyprint.text.fonts import FontConfiguration

from scorekeeper.engine import read_game
from scorekeeper.printing import render, render_game_pdf, scoresheet_html, warm_up

HERE = Path(__file__).resolve().parent
TARGET = 1.5
MINIMAL = "<!doctype html><title>Trex</title><p>Trex</p>"


def minimal_page() -> bytes:
    """The reference: the smallest one-page document, WeasyPrint's defaults."""
    return weasyprint.HTML(string=MINIMAL).write_pdf()


def minimal_with_sheet_style(font_config: FontConfiguration) -> Callable[[], bytes]:
    html = (
        '<!doctype html><title>Trex</title><link rel="stylesheet" '
        'href="pdf/scoresheet.css"><p>Trex</p>'
    )

    def run() -> bytes:
        return weasyprint.HTML(
            string=html, base_url=render.STATIC.as_uri() + "/", url_fetcher=render.url_fetcher()
        ).write_pdf(font_config=font_config)

    return run


def bare_table(cells: int, font_config: FontConfiguration) -> Callable[[], bytes]:
    columns = 7
    rows = "".join(
        "<tr>" + "".join(f"<td>{-10 * (r * columns + c)}</td>" for c in range(columns)) + "</tr>"
        for r in range(cells // columns)
    )
    html = f"<!doctype html><title>Trex</title><table>{rows}</table>"
    return lambda: weasyprint.HTML(string=html).write_pdf(font_config=font_config)


def measure(
    cases: dict[str, Callable[[], object]], repeat: int, cpu: dict[str, list[float]] | None = None
) -> dict[str, list[float]]:
    """Wall times of each case, alternated; the process's CPU times (every thread) go into
    *cpu* when given, a figure that another program's load on the machine moves much less."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, run in cases.items():  # alternate, so that a slow moment hits every case
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            times[name].append(time.perf_counter() - start)
            if cpu is not None:
                cpu.setdefault(name, []).append(time.process_time() - start_cpu)
    return times


def tap_cases(game_doc: dict) -> tuple[dict[str, Callable[[], object]], Callable[[], None]]:
    """Taps on "Scoresheet PDF" for a stored game: ready, 304, not ready, right after a save.
    Returns the cases and a function that ends the app's use of its folder."""
    from scorekeeper.engine import read_game as read
    from scorekeeper.store import transfer
    from scorekeeper.store.db import connect
    from scorekeeper.web import create_app
    from scorekeeper.web.keeping import readysheets as sheets

    folder = tempfile.TemporaryDirectory(prefix="trex-bench-pdf-")
    path = os.path.join(folder.name, "bench.sqlite3")
    app = create_app({"DATABASE": path, "INSTANCE_PATH": folder.name, "TESTING": True})
    db = connect(path)
    [game_id] = transfer.import_games(db, [read(game_doc)]).ids
    db.close()
    client = app.test_client()
    url = f"/games/{game_id}/sheet.pdf"
    first = client.get(url)
    assert first.status_code == 200, first.status_code
    tag = first.headers["ETag"]
    way = sheets.Way("a4", "en", "western")

    def ok(response, status: int = 200):
        assert response.status_code == status, response.status_code
        return response

    def not_ready():
        sheets.SHEETS.clear()
        return ok(client.get(url))

    def after_save():
        sheets.SHEETS.clear()
        sheets.WORKER.ask((path, game_id, way))  # what a save of this finished game asks
        response = ok(client.get(url))
        sheets.WORKER.wait_idle()
        return response

    cases = {
        "tap, sheet ready (kept)": lambda: ok(client.get(url)),
        "tap, the phone has it (304)": lambda: ok(
            client.get(url, headers={"If-None-Match": tag}), 304
        ),
        "tap, sheet not ready (laid out now)": not_ready,
        "tap right after the save (worker making it)": after_save,
    }
    return cases, folder.cleanup


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--game", default=str(HERE / "full_game.json"))
    args = parser.parse_args()

    game = read_game(json.loads(Path(args.game).read_text(encoding="utf-8")))
    cells = str(scoresheet_html(game)).count("<td")
    font_config = FontConfiguration()
    cases = {
        "minimal page": minimal_page,
        "full game sheet": lambda: render_game_pdf(game),
        "minimal page, sheet's CSS and fonts": minimal_with_sheet_style(font_config),
        f"bare table of {cells} cells": bare_table(cells, font_config),
    }
    warm_up()
    for run in cases.values():
        run()
        run()
    times = measure(cases, args.repeat)

    print(
        f"python {platform.python_version()}, WeasyPrint {weasyprint.__version__}, "
        f"{platform.machine()}, {args.repeat} runs each, medians:"
    )
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["minimal page"]
    for name, value in medians.items():
        spread = f"{min(times[name]) * 1000:.1f}-{max(times[name]) * 1000:.1f}"
        print(f"  {name:<40} {value * 1000:8.1f} ms  ({spread} ms)  x{value / base:.1f}")
    ratio = medians["full game sheet"] / base
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"full game sheet / minimal page = {ratio:.1f} ({verdict} the {TARGET}x target)")

    taps, done = tap_cases(json.loads(Path(args.game).read_text(encoding="utf-8")))
    cpu: dict[str, list[float]] = {}
    try:
        for run in taps.values():
            run()
        times = measure(taps, args.repeat, cpu)
    finally:
        done()
    print("tap to PDF (the app's answer, in process), medians (CPU time of the process):")
    targets = {
        "tap, sheet ready (kept)": 0.050,
        "tap, the phone has it (304)": 0.050,
        "tap, sheet not ready (laid out now)": 0.400,
        "tap right after the save (worker making it)": 0.400,
    }
    for name, values in times.items():
        value = statistics.median(values)
        verdict = "meets" if value <= targets[name] else "misses"
        print(
            f"  {name:<46} {value * 1000:8.1f} ms  ({min(values) * 1000:.1f}-"
            f"{max(values) * 1000:.1f} ms; CPU {statistics.median(cpu[name]) * 1000:.1f} ms)"
            f"  {verdict} under {targets[name] * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
