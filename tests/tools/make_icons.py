"""Draw the home-screen icons in static/icons/ (run once; the PNGs are committed).

The heart of favicon.svg, white on the app's blue, full-bleed so that the same picture serves
as a maskable icon: the heart stays inside the central safe circle (80 % of the width).

    python tests/tools/make_icons.py
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

BLUE = (10, 91, 181, 255)
WHITE = (255, 255, 255, 255)
OUT = Path(__file__).resolve().parents[2] / "static" / "icons"
SUPERSAMPLE = 4


def heart(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), BLUE)
    draw = ImageDraw.Draw(image)
    # the heart spans 52 % of the width, centred
    width = 0.52 * big
    cx, cy = big / 2, big * 0.47
    r = width / 4
    left, right = (cx - r, cy - r * 0.55), (cx + r, cy - r * 0.55)
    for x, y in (left, right):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE)
    # the lower point: tangents from the tip to both circles
    tip = (cx, cy + width * 0.52)
    points = [tip]
    for (x, y), side in ((left, -1), (right, 1)):
        angle = math.radians(180 + 35 if side < 0 else -35)
        points.append((x + r * math.cos(angle), y - r * math.sin(angle)))
    points.insert(2, (cx, cy - r * 0.55))
    draw.polygon(points, fill=WHITE)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        heart(size).save(OUT / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
