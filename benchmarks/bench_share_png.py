"""Time to turn the printed sheet into the PNG the Share button sends, and the PNG's size.

The full game's sheet (``benchmarks/full_game.json``) is printed once, as the server keeps it;
then ``printing.pdf_to_png`` (pypdfium2) draws it again and again; the median is reported with
the image's size in bytes, next to the PDF's time for scale.

    python benchmarks/bench_share_png.py [--repeat 15] [--game benchmarks/full_game.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from scorekeeper.engine import read_game
from scorekeeper.printing import pdf_to_png, render_game_pdf, warm_up

HERE = Path(__file__).resolve().parent


def median_ms(work, repeat: int) -> tuple[float, float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--game", type=Path, default=HERE / "full_game.json")
    args = parser.parse_args()
    game = read_game(json.loads(args.game.read_text(encoding="utf-8")))
    warm_up()
    for lang in ("en", "ar"):
        pdf = render_game_pdf(game, lang=lang)
        png = pdf_to_png(pdf)  # the first one loads PDFium
        pdf_ms = median_ms(lambda: render_game_pdf(game, lang=lang), args.repeat)
        png_ms = median_ms(lambda: pdf_to_png(pdf), args.repeat)
        print(
            f"{lang}: PDF {pdf_ms[0]:.1f} ms ({pdf_ms[1]:.1f}-{pdf_ms[2]:.1f}), "
            f"{len(pdf)} bytes; PNG from it {png_ms[0]:.1f} ms "
            f"({png_ms[1]:.1f}-{png_ms[2]:.1f}), {len(png)} bytes"
        )


if __name__ == "__main__":
    main()
