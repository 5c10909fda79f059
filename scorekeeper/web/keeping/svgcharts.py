"""Charts drawn with pygal as SVG, without any script: their look (colours a colour-blind
reader tells apart, a dash per line), their sizes, and the running totals' legend for the page
to draw (:func:`keys`).

Drawing one takes 30 to 80 ms of Python: at most :data:`inflight.CHARTS_AT_ONCE` are drawn at
once (``inflight.CHARTS``). pygal's output is changed in its own XML tree, never as text: for
a right-to-left reader the plot is moved by what pygal itself knows of where it drew
(``chart.nodes``, ``chart.margin_box``, ``chart.view``), and each coordinate attribute is cut
to a tenth of a pixel.
"""

from __future__ import annotations

import sys
from typing import Sequence

import pygal
from flask_babel import gettext
from pygal.style import Style

# pygal adds to sys.meta_path a finder for its map plugins that has no find_spec, so every import
# that fails anywhere afterwards (optional modules tried in a try block) raises an ImportWarning.
# The charts use no map: take the finder out again.
sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, pygal.PluginImportFixer)]

from ...store import ratings, stats
from . import inflight
from ..making.i18n import RTL_LANGUAGES, current_language, figure, num
from ..making.messages import contract_label

#: Okabe-Ito colours, told apart with the common colour-vision deficiencies, and a dash pattern
#: per series so that the lines differ without colour too.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
DASHES = (None, "8,4", "2,4", "12,4,2,4")
STYLE = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#6b6b6b",
    colors=COLOURS,
    # pygal writes it into nine rules of every chart: the phone's own font, in few bytes
    font_family="system-ui, sans-serif",
    label_font_size=16,
    major_label_font_size=16,
    legend_font_size=16,
    title_font_size=17,
    value_font_size=14,
    stroke_width=3,
    opacity=".9",
    opacity_hover=".9",
    transition="0s",
)
#: Drawn for a phone: the image is scaled to the page's width, about 360-430 CSS pixels.
WIDTH = 360


def _number(value: float | None) -> str:
    """Numbers as the pages print them: a true minus sign, no sign on zero, the device's
    digits."""
    if value is None:
        return ""
    return figure(value, places=1, trim=True)


def right_to_left() -> bool:
    """Whether the page's language reads right to left (then so do the charts)."""
    return current_language() in RTL_LANGUAGES


class Drawn(pygal.Config):
    """How every chart is drawn, in pygal's own configuration: for a phone, without script."""

    style = STYLE
    width = WIDTH
    disable_xml_declaration = True
    explicit_size = False
    js: list[str] = []
    no_prefix = True
    legend_at_bottom = True
    legend_at_bottom_columns = 2
    truncate_legend = 18
    truncate_label = 16
    margin = 6
    # pygal places its text by a guess at the font: room above the top label's and below the
    # title's, for the tallest of a phone's fonts (Noto Sans rises 1.07 em, Noto Naskh
    # Arabic falls 0.6 em below its line), so that nothing is drawn outside the picture
    margin_top = 14
    margin_bottom = 12
    spacing = 8
    value_formatter = staticmethod(_number)
    formatter = staticmethod(_number)


#: What a chart sent as an image has no use for: pygal writes its configuration into a
#: ``<script>`` even without any js, and each value again into ``<desc>`` and ``<title>`` for
#: its script's tooltips (an image shows none; its alt text names it, the page's table has
#: the figures).
_DROPPED = ("script", "desc", "title")
#: The attributes where pygal writes coordinates, with six decimal places.
_DRAWN = ("x", "y", "d", "points", "width", "height", "transform")
_DIGITS = "0123456789"


def _to_a_tenth(value: str) -> str:
    """*value* with each of its decimal numbers cut to a tenth: ``M12.345678 0.500000`` is
    ``M12.3 0.5``. pygal writes every number it draws with a digit before its point."""
    first, *decimals = value.split(".")
    return ".".join([first, *(d[:1] + d[1:].lstrip(_DIGITS) for d in decimals)])


def _tag(element) -> str:
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _without_scripts(tree):
    """The chart without its script and its tooltips' values, its coordinates to a tenth of a
    pixel: about two thirds lighter."""
    for parent in list(tree.iter()):
        for child in list(parent):
            if _tag(child) in _DROPPED:
                parent.remove(child)
        for name in _DRAWN:
            value = parent.get(name)
            if value is not None:
                parent.set(name, _to_a_tenth(value))
    return tree


def _labels_on_the_right(chart):
    """An XML filter of *chart* that moves the plot to the left and its axis labels (numbers,
    or the bars' names) from its left side to its right, where a right-to-left reader starts:
    pygal only draws them left. Where is pygal's own: the filter runs while the chart is drawn,
    and its nodes and margins are the chart's."""

    def move(tree):
        plot, left, width = chart.nodes["plot"], int(chart.margin_box.left), chart.view.width
        right = max(int(chart.width) - left - width, 0)
        where = f"translate({right:g}, {int(chart.margin_box.top)})"
        # the plot and its overlays (dots, values) move together
        for name in ("plot", "overlay", "text_overlay", "tooltip_overlay"):
            chart.nodes[name].set("transform", where)
        for axis in (e for e in plot.iter() if "axis" in (e.get("class") or "").split()):
            for text in (e for e in axis.iter() if _tag(e) == "text"):
                x = text.get("x")
                if x is not None and float(x) < 0:
                    text.set("x", f"{width - float(x):g}")
                    text.set("style", "text-anchor: start")
        return tree

    return move


def render(chart) -> str:
    if right_to_left():
        chart.add_xml_filter(_labels_on_the_right(chart))
    chart.add_xml_filter(_without_scripts)
    with inflight.CHARTS.one_each():
        svg = chart.render(is_unicode=True)
    if "<script" in svg:  # never send a script, whatever the library version does
        raise RuntimeError("the chart still holds a script")
    return svg


#: The running totals' height: without its legend, which the page draws (:func:`keys`).
RUNNING_HEIGHT = 300


def keys(names: Sequence[str]) -> list[dict[str, str | None]]:
    """The running totals' legend, for the page to draw under the chart: each player's name with
    the colour and dash of their line. pygal's own legend cuts a long name and draws a second
    row below the picture's edge; the page's text wraps a name whole, in either direction."""
    return [
        {"name": name, "colour": COLOURS[seat], "dash": DASHES[seat]}
        for seat, name in enumerate(names)
    ]


def running_totals_svg(names: Sequence[str], running: Sequence[Sequence[int]]) -> str:
    """Each player's total after every deal, as lines; under a right-to-left language the deals
    run from right to left (the first deal at the right) and the totals' axis is on the right.
    The legend is the page's (:func:`keys`)."""
    numbers = list(range(1, len(running) + 1))
    labels = [num(n) for n in numbers]
    major = [num(n) for n in numbers if n == 1 or n % 5 == 0] if len(labels) > 10 else labels
    rtl = right_to_left()
    every = [0, *(t for totals in running for t in totals)]
    chart = pygal.Line(
        Drawn,
        height=RUNNING_HEIGHT,
        show_dots=False,
        show_legend=False,
        y_labels=axis_labels(every),
        x_title=gettext("Deal"),
        show_minor_x_labels=False,
        x_labels_major=major,
        no_data_text=gettext("No deal yet"),
    )
    chart.x_labels = labels[::-1] if rtl else labels
    for seat, name in enumerate(names):
        dash = DASHES[seat]
        values = [0 + totals[seat] for totals in running]
        chart.add(
            name,
            values[::-1] if rtl else values,
            stroke_style={"width": 3, "dasharray": dash} if dash else {"width": 3},
        )
    return render(chart)


def contract_averages_svg(lines: Sequence[stats.ContractLine]) -> str:
    """A player's average points per deal of each contract: as King, and under another King."""
    lines = list(reversed(lines))  # pygal draws the first bar at the bottom
    values = [v for line in lines for v in (line.king_average, line.other_average) if v is not None]
    chart = pygal.HorizontalBar(
        Drawn,
        height=420,
        print_values=False,
        margin_right=18,
        y_labels=axis_labels([0, *values], most=5),
        legend_at_bottom_columns=1,
        no_data_text=gettext("No finished game"),
    )
    chart.x_labels = [contract_label(line.contract, short=True) for line in lines]
    chart.add(gettext("As King"), [_round(line.king_average) for line in lines])
    chart.add(gettext("Another King"), [_round(line.other_average) for line in lines])
    return render(chart)


#: The most points a rating chart draws: a long history is thinned to this many games (always
#: the first and the latest), so that the image stays light.
RATING_POINTS = 120


def rating_svg(history: Sequence[dict]) -> str:
    """A player's rating after each rated game, as a line; under a right-to-left language the
    games run from right to left."""
    count = len(history)
    if count > RATING_POINTS:
        step = (count - 1) / (RATING_POINTS - 1)
        history = [history[round(i * step)] for i in range(RATING_POINTS)]
    numbers = [h["games"] for h in history]
    values = [h["rating"] for h in history]
    labels = [num(n) for n in numbers]
    major = [
        num(n)
        for n in numbers
        if n == 1
        or n == numbers[-1]
        or (len(numbers) > 10 and n % max(5, (numbers[-1] // 5) // 5 * 5 or 5) == 0)
    ]
    rtl = right_to_left()
    chart = pygal.Line(
        Drawn,
        height=260,
        show_dots=count <= 30,
        dots_size=3,
        show_legend=False,
        y_labels=axis_labels([*values, ratings.BASE], most=5),
        x_title=gettext("Games"),
        show_minor_x_labels=False,
        x_labels_major=major if len(labels) > 10 else labels,
        no_data_text=gettext("No rated game yet"),
    )
    chart.x_labels = labels[::-1] if rtl else labels
    chart.add(gettext("Rating"), values[::-1] if rtl else values)
    return render(chart)


def axis_labels(values: Sequence[float], most: int = 6) -> list[int]:
    """Round values for an axis from the lowest to the highest of *values*, at most *most*."""
    low, high = min(values), max(values)
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        first, last = int(low // step) * step, -int(-high // step) * step
        if (last - first) // step + 1 <= most:
            return list(range(first, last + 1, step))
    return [int(low), int(high)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
