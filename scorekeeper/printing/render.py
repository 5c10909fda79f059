"""HTML to PDF: Jinja templates from ``templates/pdf/``, WeasyPrint, and only local files.

WeasyPrint is imported with this module, so that a server which imports it (and calls
:func:`warm_up` at start) does not make the first request pay for the import and the fonts.
"""

from __future__ import annotations


import mimetypes
import threading
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import unquote, urlsplit

import weasyprint
from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from markupsafe import Markup, escape
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .. import site
from ..engine.contracts import ALL_CONTRACTS, Contract
from ..engine.gamefile import Game
from ..engine.rules import HouseRules
from ..languages import SEPARATORS, digits_text
from .namefit import name_fit
from .language import is_rtl, isolate_ltr, language, translations, words_for
from .sheet import (
    build_sheet,
    contract_name,
    contract_names,
    format_points,
    paper_size,
    text_direction,
    value_key,
)

TEMPLATES = site.TEMPLATES / "pdf"
STATIC = site.STATIC
#: The folders a document may load files from: its stylesheets and its fonts.
ALLOWED = (STATIC / "pdf", STATIC / "fonts")

_TYPES = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
}


class RefusedURL(ValueError):
    """A document asked for something that is not one of the project's own files."""


class LocalFetcher(URLFetcher):
    """Serves the project's PDF stylesheets and fonts, and ``data:`` URLs; refuses the rest.

    No network address is ever opened: ``http:``, ``https:``, ``ftp:`` and every other scheme
    raise :class:`RefusedURL`, and so does a ``file:`` URL outside :data:`ALLOWED`.
    """

    def __init__(self, roots: Sequence[Path] = ALLOWED):
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = tuple(root.resolve() for root in roots)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file" or parts.netloc not in ("", "localhost"):
            raise RefusedURL(f"refused to fetch {url!r}: a scoresheet uses only local files")
        path = Path(unquote(parts.path)).resolve()
        if not any(path.is_relative_to(root) for root in self.roots):
            raise RefusedURL(f"refused to fetch {url!r}: not one of the scoresheet's files")
        body = path.read_bytes()
        kind = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
        return URLFetcherResponse(
            path.as_uri(), body, {"Content-Type": kind or "application/octet-stream"}
        )


def url_fetcher() -> LocalFetcher:
    """The fetcher every scoresheet is rendered with."""
    return LocalFetcher()


#: The two teams of a partnership game, as each language letters them.
TEAM_LETTERS = {"en": "AB", "ar": "أب"}


def _environment(lang: str = "en") -> Environment:
    """The templates with the words of *lang* (``_()`` and ``ngettext()`` as on the web)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translations(lang), newstyle=True)
    env.filters["points"] = _points
    env.filters["num"] = _num
    env.filters["dir"] = text_direction
    env.filters["name_fit"] = name_fit
    env.filters["ltr_bits"] = _ltr_bits
    env.filters["ltr"] = _ltr
    env.globals["lang"] = lang
    env.globals["list_sep"] = SEPARATORS.get(lang, SEPARATORS["en"])[0]
    env.globals["team_letters"] = TEAM_LETTERS.get(lang, TEAM_LETTERS["en"])
    return env


@pass_context
def _ltr_bits(context: Any, text: object) -> Markup:
    """On a right-to-left sheet, *text* with its cards and signed numbers kept left to right."""
    return isolate_ltr(text) if context.get("direction") == "rtl" else escape(text)


@pass_context
def _ltr(context: Any, text: object) -> Markup:
    """On a right-to-left sheet, *text* (a card, "K♥×2") kept left to right as a whole."""
    if context.get("direction") == "rtl":
        return Markup('<bdi dir="ltr">%s</bdi>') % text
    return escape(text)


DIGITS = ("western", "arabic")


def checked_digits(digits: str) -> str:
    """*digits* when it is a digit setting (``western`` 0-9 or ``arabic`` ٠-٩), else ValueError."""
    if digits not in DIGITS:
        raise ValueError(f"digits must be one of {', '.join(DIGITS)}, not {digits!r}")
    return digits


@pass_context
def _num(context: Any, value: object) -> str:
    """``{{ n|num }}``: a number, a date or a line holding numbers in the sheet's digits; the
    pages' filter (``languages.digits_text``), not a pass over the finished HTML."""
    return digits_text(value, context.get("digits") == "arabic")


@pass_context
def _points(context: Any, value: int | None) -> str:
    """``{{ value|points }}``: points as the sheet prints them, in the sheet's digits."""
    return digits_text(format_points(value), context.get("digits") == "arabic")


ENVIRONMENTS: dict[str, Environment] = {"en": _environment("en")}
ENV = ENVIRONMENTS["en"]


def environment(lang: str = "en") -> Environment:
    lang = language(lang)
    if lang not in ENVIRONMENTS:
        ENVIRONMENTS[lang] = _environment(lang)
    return ENVIRONMENTS[lang]


def page_html(
    template: str,
    *,
    lang: str = "en",
    paper: str = "A4",
    density: int = 0,
    digits: str = "western",
    **values: Any,
) -> str:
    """A one-page sheet of plain data (a club night's, a tournament's, a season's) laid out by
    *template*, in *lang*, on *paper*, at *density*, in *digits*: the layout a sheet's own
    ``*_html`` passes on as ``**layout``."""
    return (
        environment(lang)
        .get_template(template)
        .render(
            **values,
            page_size=paper_size(paper),
            density=density,
            direction=_direction(None, lang),
            digits=checked_digits(digits),
        )
    )


def page_pdf(html: Callable[..., str], *, lang: str = "en", **values: Any) -> bytes:
    """The PDF of a one-page sheet that *html* (a ``*_html`` of plain data) lays out, at the
    first density at which it fits on one page."""
    lang = language(lang)
    return _RENDERER.pdf(lambda density: html(lang=lang, density=density, **values))


def _direction(rtl: bool | None, lang: str) -> str:
    """Right to left when asked, else as the language is written."""
    return "rtl" if (is_rtl(lang) if rtl is None else rtl) else "ltr"


#: The denser layouts a sheet may fall back to so that it stays on one page, tried in turn;
#: 3 is 2 with the players' names held to fewer lines, for names whose letters are drawn very
#: wide.
DENSITIES = (0, 1, 2, 3)


def scoresheet_html(
    game: Game,
    *,
    paper: str = "A4",
    rtl: bool | None = None,
    density: int = 0,
    lang: str = "en",
    contract_words: Mapping[Contract, str] | None = None,
    digits: str = "western",
) -> str:
    """The game's scoresheet as HTML, the document that is printed, in *lang*.

    An Arabic sheet is right to left unless *rtl* says otherwise; *contract_words* are a
    table's own names for some contracts; *digits* ``arabic`` writes numbers ٠١٢٣٤٥٦٧٨٩.
    """
    return (
        environment(lang)
        .get_template("scoresheet.html")
        .render(
            sheet=build_sheet(game, lang=lang, contract_words=contract_words),
            page_size=paper_size(paper),
            density=density,
            direction=_direction(rtl, lang),
            digits=checked_digits(digits),
        )
    )


def blank_html(
    names: Sequence[str] | None = None,
    *,
    paper: str = "A4",
    rtl: bool | None = None,
    title: str = "",
    density: int = 0,
    lang: str = "en",
    contract_words: Mapping[Contract, str] | None = None,
    digits: str = "western",
) -> str:
    """An empty scoresheet as HTML, with the players' names written in when given."""
    words = words_for(language(lang), contract_names(contract_words))
    return (
        environment(lang)
        .get_template("blank.html")
        .render(
            players=_blank_names(names),
            title=title,
            page_size=paper_size(paper),
            density=density,
            direction=_direction(rtl, lang),
            contracts=[contract_name(c, words) for c in ALL_CONTRACTS],
            values=value_key(HouseRules(), words),
            digits=checked_digits(digits),
        )
    )


def _blank_names(names: Sequence[str] | None) -> list[str]:
    players = [str(n).strip() for n in names] if names else []
    if players and len(players) != 4:
        raise ValueError(f"a blank sheet takes four names or none, not {len(players)}")
    return players or ["", "", "", ""]


class _Renderer:
    """One font configuration for the process, reused by every document.

    WeasyPrint loads each ``@font-face`` into the configuration once; later documents find the
    font already there. Pango's font maps are not safe to share between threads, so documents
    are rendered one at a time.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.font_config: FontConfiguration | None = None
        self.fetcher = url_fetcher()

    def pdf(self, make_html: Callable[[int], str], densities: Sequence[int] = DENSITIES) -> bytes:
        """Render ``make_html(density)``, denser while it takes more than one page."""
        with self.lock:
            if self.font_config is None:
                self.font_config = FontConfiguration()
            for density in densities:
                document = weasyprint.HTML(
                    string=make_html(density),
                    base_url=STATIC.as_uri() + "/",
                    url_fetcher=self.fetcher,
                ).render(font_config=self.font_config)
                if len(document.pages) == 1:
                    break
            return document.write_pdf()


_RENDERER = _Renderer()


def html_to_pdf(html: str) -> bytes:
    """Render an HTML document of this package to PDF bytes, as it is."""
    return _RENDERER.pdf(lambda density: html, densities=(0,))


def _sheet_pdf(
    layout: Callable[..., str], first: Any, paper: str, digits: str, **values: Any
) -> bytes:
    """The sheet *layout* lays out of *first* and *values*, on *paper* in *digits* (both checked
    before rendering), at the first density that fits one page."""
    size = paper_size(paper)  # a bad paper fails here, before rendering
    checked_digits(digits)  # and bad digits
    return _RENDERER.pdf(
        lambda density: layout(first, paper=size, density=density, digits=digits, **values)
    )


def render_game_pdf(
    game: Game,
    *,
    paper: str = "A4",
    rtl: bool | None = None,
    lang: str = "en",
    contract_words: Mapping[Contract, str] | None = None,
    digits: str = "western",
) -> bytes:
    """The game's scoresheet as a PDF in *lang*, on one page for a standard game."""
    return _sheet_pdf(
        scoresheet_html,
        game,
        paper,
        digits,
        rtl=rtl,
        lang=language(lang),
        contract_words=contract_words,
    )


def render_blank_pdf(
    names: Sequence[str] | None = None,
    *,
    paper: str = "A4",
    rtl: bool | None = None,
    title: str = "",
    lang: str = "en",
    contract_words: Mapping[Contract, str] | None = None,
    digits: str = "western",
) -> bytes:
    """A blank scoresheet to fill in by hand, with the players' names when given."""
    paper_size(paper)  # a bad paper is refused before the names
    return _sheet_pdf(
        blank_html,
        _blank_names(names),
        paper,
        digits,
        rtl=rtl,
        title=title,
        lang=language(lang),
        contract_words=contract_words,
    )


def warm_up() -> None:
    """Load WeasyPrint, the templates and the fonts once, so the first request is quick."""
    for lang in ("en", "ar"):
        environment(lang).get_template("scoresheet.html")
        environment(lang).get_template("blank.html")
    render_blank_pdf()


#: The scoresheet as an image to share: an A4 page this many pixels wide (about 150 dpi).
PNG_WIDTH = 1240


def pdf_to_png(pdf: bytes, width: int = PNG_WIDTH) -> bytes:
    """The first page of *pdf* (the printed sheet, as it is) as a PNG *width* pixels wide, drawn
    by PDFium (pypdfium2's own build: no system package)."""
    import io

    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        image = page.render(scale=width / page.get_width()).to_pil()
        page.close()
    finally:
        document.close()
    out = io.BytesIO()
    # zlib's level 6: Pillow's "optimize" took about 5 times as long for 3% fewer bytes
    image.convert("RGB").save(out, format="PNG")
    return out.getvalue()
