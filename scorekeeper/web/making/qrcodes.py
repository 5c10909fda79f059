"""QR codes drawn here as SVG (no script, no service): a game's watch link, the group's join
link, a wall link."""

from __future__ import annotations

import io
from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url: str, title: str) -> bytes:
    """The QR code of *url* as SVG, drawn once per address and title: drawing it takes several
    times as long as the game page it sits on, and every load of that page asks for it."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        omitsize=True,
        title=title,
    )
    return out.getvalue()
