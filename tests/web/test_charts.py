"""Charts: SVG from pygal, no script, sized by the page, each beside a table of its figures."""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorekeeper.engine import ALL_CONTRACTS, read_game
from scorekeeper.web.keeping import svgcharts

from history_helpers import import_docs, query, simulated_games
from web_helpers import soup

SVG = "{http://www.w3.org/2000/svg}"


def check_svg(response) -> ET.Element:
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert "script" not in response.headers["Content-Security-Policy"]
    text = response.get_data(as_text=True)
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    for element in root.iter():
        assert element.tag.rsplit("}", 1)[-1] != "script"
        assert not [a for a in element.attrib if a.lower().startswith("on")]
    assert "<script" not in text.lower() and "javascript:" not in text.lower()
    assert "viewBox" in root.attrib and "width" not in root.attrib  # scales to the page
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text") if t.text]


@pytest.fixture
def game(app):
    doc = next(simulated_games(1, seed=41, pool=("Aya", "Bilal", "Carla", "ليلى")))
    [game_id] = import_docs(app, [doc])
    return game_id, read_game(doc)


def test_running_totals_chart__svg_without_script_one_line_per_player(client, game):
    game_id, played = game
    root = check_svg(client.get(f"/charts/games/{game_id}/running.svg"))
    legend = soup(client.get(f"/history/games/{game_id}")).select("figure.chart .legend li")
    assert [li.get_text() for li in legend] == list(played.players)  # drawn by the page, whole
    assert [li.path["stroke"] for li in legend] == list(svgcharts.COLOURS)  # as the lines are
    series = {
        c
        for g in root.iter(f"{SVG}g")
        for c in g.get("class", "").split()
        if c.startswith("serie-")
    }
    assert series == {"serie-0", "serie-1", "serie-2", "serie-3"}


def test_running_totals_chart__table_beside_it_names_the_same_figures(client, game):
    game_id, played = game
    page = soup(client.get(f"/history/games/{game_id}"))
    image = page.select_one("figure.chart img")
    assert image["src"] == f"/charts/games/{game_id}/running.svg"
    assert image["alt"] and page.find(id=image["aria-describedby"]).name == "table"
    assert len(page.select("#sheet tbody th[scope=row] a")) == len(played.deals)


def test_contract_chart__svg_without_script_and_its_table(app, client, game):
    [row] = query(app, "select id from players where name = 'Aya'")
    root = check_svg(client.get(f"/charts/players/{row['id']}/contracts.svg"))
    labels = texts(root)
    assert "As King" in labels and "Another King" in labels
    assert {"K♥", "Diamonds", "Queens", "Collections", "Trex"} <= set(labels)
    page = soup(client.get(f"/players/{row['id']}"))
    image = page.select_one("figure.chart img[src*=contracts]")
    assert image["src"] == f"/charts/players/{row['id']}/contracts.svg"
    table = page.find(id=image["aria-describedby"])
    assert [tr["id"] for tr in table.select("tbody tr")] == [f"c-{c.value}" for c in ALL_CONTRACTS]


def test_contract_chart__keeps_the_date_range_and_refuses_unknowns(app, client, game):
    [row] = query(app, "select id from players where name = 'Aya'")
    page = soup(client.get(f"/players/{row['id']}?from=2026-01-01&to=2026-12-31"))
    src = page.select_one("figure.chart img[src*=contracts]")["src"]
    assert "from=2026-01-01" in src and "to=2026-12-31" in src
    check_svg(client.get(src))
    assert client.get("/charts/players/999/contracts.svg").status_code == 404
    assert client.get(f"/charts/players/{row['id']}/contracts.svg?from=x").status_code == 404
    assert client.get("/charts/games/999/running.svg").status_code == 404


def test_charts__a_game_without_deals_draws_an_empty_chart(app, client, table):
    game_id = table.new_game()
    check_svg(client.get(f"/charts/games/{game_id}/running.svg"))
    assert soup(client.get(f"/history/games/{game_id}")).select("figure.chart") == []


def test_axis_labels__round_steps_covering_the_values():
    assert svgcharts.axis_labels([0, -62.7, 145.5], most=5) == [-100, 0, 100, 200]
    assert svgcharts.axis_labels([0, -13, 12]) == [-20, -10, 0, 10, 20]
    assert svgcharts.axis_labels([0, -13, 12], most=7) == [-15, -10, -5, 0, 5, 10, 15]
    labels = svgcharts.axis_labels([0, -4000, 9000], most=5)
    assert labels[0] <= -4000 and labels[-1] >= 9000 and len(labels) <= 5


def test_issue42_1__coordinates_are_cut_to_a_tenth_without_reading_the_svg_as_text():
    assert svgcharts._to_a_tenth("M12.345678 0.500000 L-3.000000 40.990000") == (
        "M12.3 0.5 L-3.0 40.9"
    )
    assert svgcharts._to_a_tenth("translate(6, 14)") == "translate(6, 14)"
    assert svgcharts._to_a_tenth("rotate(-90 12.000000 34.560000)") == "rotate(-90 12.0 34.5)"
    web = Path(svgcharts.__file__).parents[1]
    for module in ("keeping/svgcharts.py", "pages/charts.py"):  # no regex rewrites pygal's output
        tree = ast.parse((web / module).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
        } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "re" not in imported, module


def test_issue42_1__right_to_left_the_plot_stands_left_and_its_labels_right_where_pygal_drew(app):
    running = [(10 * n, -5 * n, 3 * n, -8 * n) for n in range(1, 13)]

    def drawn(lang: str):
        with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
            root = ET.fromstring(svgcharts.running_totals_svg(["A", "B", "C", "D"], running))
        groups = [g for g in root.iter(f"{SVG}g") if g.get("class", "").split()[:1] == ["plot"]]
        moves = {g.get("transform") for g in groups}
        assert len(groups) == 4 and len(moves) == 1  # the plot and its overlays move together
        x, top = moves.pop().removeprefix("translate(").removesuffix(")").split(", ")
        width = float(next(r for r in groups[0] if "background" in r.get("class", "")).get("width"))
        labels = [
            float(t.get("x"))
            for a in groups[0].iter(f"{SVG}g")
            if "y" in a.get("class", "").split() and "axis" in a.get("class", "").split()
            for t in a.iter(f"{SVG}text")
        ]
        return float(x), top, width, labels

    left, top, width, labels = drawn("en")
    right, top_rtl, width_rtl, labels_rtl = drawn("ar")
    assert (top_rtl, width_rtl) == (top, width) and labels and labels_rtl
    # the margin that was on the right, now on the left (to a tenth of a pixel)
    assert right == pytest.approx(svgcharts.WIDTH - left - width, abs=0.1)
    assert all(x < 0 for x in labels) and all(x > width for x in labels_rtl)
