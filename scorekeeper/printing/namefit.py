"""A player's name alone in a narrow cell of the printed sheet (the grid's heads, the Kingdom
column) is printed whole: it wraps only at a space, and a word wider than the cell prints
smaller, measured with the shipped font's own widths (WeasyPrint runs no script to measure)."""

from __future__ import annotations

from functools import lru_cache

from .. import site

#: The room a name has in each kind of cell, in points (the cell's width in scoresheet.css less
#: its padding), and the size it prints at there.
MM = 72 / 25.4
ROOMS = {
    "player": ((26.5 - 2 * 1.5) * MM, 9.0),  # .grid col.c-pts, th.player
    "king": ((22 - 2 * 1.5) * MM, 8.5),  # .grid col.c-king, th.king's <b>
}
#: The smallest a name prints at, as a share of its cell's size; a word that does not fit even
#: then (40 letters and no space) breaks where it must rather than run into the next column.
FLOOR = 55
#: What shaping (Arabic letters join, marks stack) may add to the sum of the letters' widths.
SLACK = 1.06


@lru_cache(maxsize=1)
def _widths() -> tuple[dict[int, float], float]:
    """The bold shipped font's advance width of each character, in em, and its widest."""
    from fontTools.ttLib import TTFont

    with TTFont(site.STATIC / "fonts" / "DejaVuSans-Bold.ttf") as font:
        units = font["head"].unitsPerEm
        metrics = font["hmtx"].metrics
        widths = {code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}
    return widths, max(widths.values())


def word_em(word: str) -> float:
    """How wide *word* prints in the bold shipped font, in em (a character it lacks counts as
    its widest)."""
    widths, widest = _widths()
    return sum(widths.get(ord(c), widest) for c in word) * SLACK


def name_fit(name: str, where: str) -> tuple[int, bool]:
    """The size (a percentage of the cell's) at which *name*'s widest word fits a cell of kind
    *where* (``ROOMS``), never under ``FLOOR``; and whether it then fits."""
    room, size = ROOMS[where]
    wide = max((word_em(w) for w in name.split()), default=0) * size
    if wide <= room:
        return 100, True
    scale = max(FLOOR, int(100 * room / wide))
    return scale, wide * scale / 100 <= room
