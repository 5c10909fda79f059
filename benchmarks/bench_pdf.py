"""Time to print a full game's scoresheet, against a minimal one-page WeasyPrint document.

Both are rendered in the same process after a warm-up (WeasyPrint imported, fonts loaded once, as
in the server after ``warm_up()``), alternately, several times; the medians are compared with the
target of the printing issue: the sheet in at most 1.5 times the minimal page.

    python benchmarks/bench_pdf.py [--repeat 15] [--game benchmarks/full_game.json]

Two more figures put the ratio in context: the minimal page with the sheet's own stylesheet and
fonts, and a bare table with as many cells as the sheet's grid (no stylesheet at all).
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
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
    html = ('<!doctype html><title>Trex</title><link rel="stylesheet" '
            'href="pdf/scoresheet.css"><p>Trex</p>')

    def run() -> bytes:
        return weasyprint.HTML(string=html, base_url=render.STATIC.as_uri() + "/",
                               url_fetcher=render.url_fetcher()).write_pdf(font_config=font_config)
    return run


def bare_table(cells: int, font_config: FontConfiguration) -> Callable[[], bytes]:
    columns = 7
    rows = "".join("<tr>" + "".join(f"<td>{-10 * (r * columns + c)}</td>" for c in range(columns))
                   + "</tr>" for r in range(cells // columns))
    html = f"<!doctype html><title>Trex</title><table>{rows}</table>"
    return lambda: weasyprint.HTML(string=html).write_pdf(font_config=font_config)


def measure(cases: dict[str, Callable[[], bytes]], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, run in cases.items():  # alternate, so that a slow moment hits every case
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return times


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

    print(f"python {platform.python_version()}, WeasyPrint {weasyprint.__version__}, "
          f"{platform.machine()}, {args.repeat} runs each, medians:")
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["minimal page"]
    for name, value in medians.items():
        spread = f"{min(times[name]) * 1000:.1f}-{max(times[name]) * 1000:.1f}"
        print(f"  {name:<40} {value * 1000:8.1f} ms  ({spread} ms)  x{value / base:.1f}")
    ratio = medians["full game sheet"] / base
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"full game sheet / minimal page = {ratio:.1f} ({verdict} the {TARGET}x target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
