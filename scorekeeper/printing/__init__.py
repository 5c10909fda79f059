"""Printed scoresheets: a game's sheet and a blank one, as PDF (WeasyPrint).

Importing this package imports WeasyPrint; the engine never imports it.
"""

from __future__ import annotations

from .render import (
    LocalFetcher,
    RefusedURL,
    blank_html,
    html_to_pdf,
    render_blank_pdf,
    pdf_to_png,
    render_game_pdf,
    scoresheet_html,
    url_fetcher,
    warm_up,
)
from .sheet import PAPER_SIZES, Sheet, build_sheet, paper_size

__all__ = [
    "PAPER_SIZES",
    "LocalFetcher",
    "RefusedURL",
    "Sheet",
    "blank_html",
    "build_sheet",
    "html_to_pdf",
    "paper_size",
    "pdf_to_png",
    "render_blank_pdf",
    "render_game_pdf",
    "scoresheet_html",
    "url_fetcher",
    "warm_up",
]
