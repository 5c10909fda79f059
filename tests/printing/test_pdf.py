"""Printed scoresheets: what the PDF says, that it fits one page, and that it uses only local files."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from scorekeeper.engine import read_game, score_game
from scorekeeper.printing import (
    LocalFetcher,
    RefusedURL,
    blank_html,
    render_blank_pdf,
    render_game_pdf,
    scoresheet_html,
)
from scorekeeper.printing.render import ALLOWED, STATIC

PLAYERS = ["Aya", "Bilal", "Carla", "Dana"]
ARABIC = ["ليلى", "Bilal", "محمد علي", "Dana"]
CONTRACTS = ["king_of_hearts", "diamonds", "queens", "collections", "trex"]
RESULT_KEY = {
    "king_of_hearts": "king_of_hearts",
    "diamonds": "diamonds",
    "queens": "queens",
    "collections": "tricks",
    "trex": "trex_order",
}


# -- games as file-format documents ------------------------------------------------------------
def _turn(values: list[int], k: int) -> list[int]:
    return values[k:] + values[:k]


def _results(k: int) -> dict:
    """Results for kingdom *k*, different in each kingdom, with doubled cards in every one."""
    king_of_hearts = {"taker": (k + 1) % 4}
    if k % 2 == 0:
        king_of_hearts["doubled_by"] = k
    return {
        "king_of_hearts": king_of_hearts,
        "diamonds": _turn([5, 3, 4, 1], k),
        "queens": {
            "spades": {"taker": k},
            "hearts": {"taker": (k + 1) % 4, "doubled_by": (k + 2) % 4},
            "diamonds": {"taker": (k + 2) % 4},
            "clubs": {"taker": (k + 3) % 4, "doubled_by": (k + 3) % 4},
        },
        "tricks": _turn([3, 5, 2, 3], k),
        "trex_order": _turn([0, 1, 2, 3], k),
    }


def game_doc(
    players=PLAYERS, rules=None, first_king=2, deals=None, thrown_in=(), title="Friday at Rami's"
) -> dict:
    """A valid game: four kingdoms from *first_king* on; *deals* keeps only the first ones.

    *thrown_in* is a list of (position, reason, seat) inserting thrown-in deals.
    """
    rules = dict(rules or {})
    out: list[dict] = []
    for k in range(4):
        king = (first_king + k) % 4
        results = _results(k)
        if rules.get("combining") == "complex":
            complex_deal = {"king": king, "contracts": CONTRACTS[:4]}
            complex_deal.update({RESULT_KEY[c]: results[RESULT_KEY[c]] for c in CONTRACTS[:4]})
            out += [
                complex_deal,
                {"king": king, "contracts": ["trex"], "trex_order": results["trex_order"]},
            ]
        else:
            out += [
                {"king": king, "contracts": [c], RESULT_KEY[c]: results[RESULT_KEY[c]]}
                for c in CONTRACTS
            ]
    for position, reason, seat in sorted(thrown_in, reverse=True):
        out.insert(
            position, {"king": out[position]["king"], "thrown_in": {"reason": reason, "by": seat}}
        )
    return {
        "format": "trex-game/1",
        "title": title,
        "played_on": "2026-11-20",
        "players": list(players),
        "rules": rules,
        "first_king": first_king,
        "deals": out if deals is None else out[:deals],
    }


def make_game(**kwargs):
    return read_game(game_doc(**kwargs))


# -- reading PDFs --------------------------------------------------------------------------------
def pdf_pages(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    return [page.extract_text() for page in reader.pages]


def printed(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def printed_row(scores) -> str:
    return " ".join(printed(v) for v in scores)


DEAL_LINE = re.compile(
    r"(?:^| )(\d{1,2}) (?=King of Hearts|Diamonds|Queens|Collections|Trex|"
    r"Complex|Thrown in|K♥ \+)"
)


def deal_lines(text: str) -> dict[int, str]:
    """The text line of each deal, by its number (the number stands before the contract)."""
    lines: dict[int, str] = {}
    for line in text.splitlines():
        match = DEAL_LINE.search(line)
        if match and int(match[1]) not in lines:
            lines[int(match[1])] = line[match.start(1) :]
    return lines


def assert_sheet_holds_scores(text: str, game) -> None:
    """Every scored deal's four points on its line; the totals on the total line."""
    scored = score_game(game)
    lines = deal_lines(text)
    for index, (deal, scores) in enumerate(zip(game.deals, scored.deals)):
        line = lines[index + 1]
        if deal.is_thrown_in:
            assert "Thrown in" in line
        else:
            assert line.endswith(printed_row(scores)), (index + 1, line)
    total_line = next(
        line
        for line in text.splitlines()
        if "total" in line.lower() and line.lower().startswith(("final total", "total so far"))
    )
    assert total_line.endswith(printed_row(scored.totals))


# -- the game's sheet ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def standard_game():
    return make_game(thrown_in=[(7, "trex-twos", 1)])


@pytest.fixture(scope="module")
def standard_pdf(standard_game):
    return render_game_pdf(standard_game)


def test_standard_game_is_one_a4_page_with_names_points_and_totals(standard_game, standard_pdf):
    reader = PdfReader(io.BytesIO(standard_pdf))
    assert len(reader.pages) == 1
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    text = reader.pages[0].extract_text()
    for name in PLAYERS:
        assert name in text
    assert "Friday at Rami's" in text and "20 November 2026" in text
    assert_sheet_holds_scores(text, standard_game)


def test_kingdom_subtotals_and_running_totals_come_from_the_engine(standard_game, standard_pdf):
    text = pdf_pages(standard_pdf)[0]
    scored = score_game(standard_game)
    lines = text.splitlines()
    for number, (_, subtotal, complete) in enumerate(scored.kingdoms, start=1):
        assert complete and sum(subtotal) == 0
        line = next(ln for ln in lines if ln.startswith(f"Kingdom {number} (sums to 0)"))
        assert line.endswith(printed_row(subtotal))
    progress = standard_game.progress()
    for number, kingdom in enumerate(progress.kingdoms[:3], start=1):
        line = next(ln for ln in lines if ln.startswith(f"Total after kingdom {number}"))
        assert line.endswith(printed_row(scored.running[kingdom.deals[-1]]))


def test_doubling_and_thrown_in_deals_are_marked(standard_pdf):
    text = pdf_pages(standard_pdf)[0]
    lines = deal_lines(text)
    assert "K♥×2 (Aya)" in lines[1]  # Aya held the K♥, doubled it, Bilal took it
    assert "Q♥×2 (Carla)" in lines[3] and "Q♣×2 (Dana)" in lines[3]
    assert "Thrown in" in lines[8] and "asked by Bilal" in lines[8]
    assert lines[8].endswith("– – – –")  # no points


def test_standings_name_the_winner(standard_game, standard_pdf):
    text = pdf_pages(standard_pdf)[0]
    scored = score_game(standard_game)
    assert "Final standings" in text
    winners = ", ".join(standard_game.players[s] for s in scored.winners)
    assert f"Winner: {winners}" in text or f"Winners (tie): {winners}" in text


def test_letter_paper_is_one_letter_page(standard_game):
    reader = PdfReader(io.BytesIO(render_game_pdf(standard_game, paper="Letter")))
    assert len(reader.pages) == 1
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)


def test_unknown_paper_is_refused_with_a_clear_message(standard_game):
    with pytest.raises(ValueError, match="paper must be 'A4' or 'Letter', not 'A3'"):
        render_game_pdf(standard_game, paper="A3")


def test_complex_partnership_game_shows_team_totals():
    game = make_game(rules={"combining": "complex", "partnership": True})
    pages = pdf_pages(render_game_pdf(game))
    assert len(pages) == 1
    text = pages[0]
    assert_sheet_holds_scores(text, game)
    scored = score_game(game)
    assert "Complex" in deal_lines(text)[1]
    team_a, team_b = scored.team_totals
    assert any(ln.endswith(f"Aya & Carla {printed(team_a)}") for ln in text.splitlines())
    assert any(ln.endswith(f"Bilal & Dana {printed(team_b)}") for ln in text.splitlines())
    winner = {
        "0+2": "Winners: Team A, Aya & Carla",
        "1+3": "Winners: Team B, Bilal & Dana",
        "tie": "The teams tie",
    }[scored.team_result]
    assert winner in text
    assert "Complex; partnership" in text  # the house rules, in the small print


def test_the_partnership_sheet_says_winners_and_the_team():
    """Issue 28: under partnership the sheet names the winning team as "Winners", and never
    calls its players' totals the best scores (the winning team's lowest total may be one)."""
    game = make_game(rules={"combining": "complex", "partnership": True})
    text = pdf_pages(render_game_pdf(game))[0]
    assert "Best score" not in text
    assert "Winners: Team" in text or "The teams tie" in text


def test_arabic_names_print_in_the_shipped_font():
    game = make_game(players=ARABIC, title="سهرة الجمعة")
    data = render_game_pdf(game)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for name in ARABIC:
        assert name in text
    assert "سهرة الجمعة" in text
    assert_sheet_holds_scores(text, game)
    fonts = {
        font["/BaseFont"] for page in reader.pages for font in page["/Resources"]["/Font"].values()
    }
    assert {f.split("+")[-1] for f in fonts} == {"Trex-Sheet", "Trex-Sheet-Bold"}


def test_right_to_left_sheet_keeps_names_and_numbers():
    game = make_game(players=ARABIC)
    html = scoresheet_html(game, rtl=True)
    soup = BeautifulSoup(html, "html.parser")
    assert soup.html["dir"] == "rtl"
    assert {b["dir"] for b in soup.find_all("bdi") if b.get_text() == "ليلى"} == {"rtl"}
    assert all(td["dir"] == "ltr" for td in soup.select("td.pts"))
    text = pdf_pages(render_game_pdf(game, rtl=True))[0]
    assert "ليلى" in text and "−150" in text


def test_unfinished_game_prints_with_open_rows_blank():
    game = make_game(deals=8)
    html = scoresheet_html(game)
    soup = BeautifulSoup(html, "html.parser")
    open_rows = soup.select("tr.open")
    assert len(open_rows) == 12  # two left in the second kingdom, five in each of two more
    assert all(td.get_text(strip=True) == "" for row in open_rows for td in row.select("td.pts"))
    assert [r.select_one("td.contract").get_text(strip=True) for r in open_rows[:2]] == [
        "Collections",
        "Trex",
    ]
    text = pdf_pages(render_game_pdf(game))[0]
    assert "Total so far" in text and "Standings after 8 deals" in text
    assert_sheet_holds_scores(text, game)


def test_a_game_without_deals_prints_an_empty_grid():
    game = make_game(deals=0, rules={"rotation": "table-picks"})
    soup = BeautifulSoup(scoresheet_html(game), "html.parser")
    assert len(soup.select("tr.open")) == 20 and not soup.select("tr.deal")
    kings = [th.get_text(" ", strip=True) for th in soup.select("th.king")[1:]]
    assert kings == ["Kingdom 1 Carla", "Kingdom 2", "Kingdom 3", "Kingdom 4"]  # table picks
    assert len(pdf_pages(render_game_pdf(game))) == 1


def test_replayed_sweep_and_leader_credit_are_shown():
    doc = game_doc(
        rules={"sweep_replay": {"collections_tricks": 10}, "self_capture": "leader-credit"}, deals=5
    )
    doc["deals"][0]["king_of_hearts"] = {"taker": 0, "doubled_by": 0, "led_by": 3}
    doc["deals"][2]["queens"]["clubs"]["led_by"] = 1
    doc["deals"][3]["tricks"] = [10, 1, 1, 1]
    text = pdf_pages(render_game_pdf(read_game(doc)))[0]
    lines = deal_lines(text)
    assert "K♥×2 (Aya; led Dana)" in lines[1]
    assert "Q♣×2 (Dana; led Bilal)" in lines[3]
    assert "sweep, replayed" in lines[4] and lines[4].endswith("– – – –")


def test_many_redeals_and_long_names_still_fit_one_page():
    names = [
        "Aya Abdel-Rahman Khalil al-Masri",
        "Bilal Mahmoud Haddad-Nassar",
        "كارلا عبد الرحمن الخوري الحلبي",
        "Dana Georges Saadeh-Frangieh",
    ]
    game = make_game(
        players=names,
        thrown_in=[(0, "kh-redeal", 1), (7, "trex-twos", 1), (12, "misdeal", 3), (16, "other", 0)],
    )
    assert len(pdf_pages(render_game_pdf(game, paper="Letter"))) == 1


@pytest.mark.slow
def test_markup_in_names_prints_as_text():
    players = ["<b>Aya</b>", "Bilal<style>*{}", "Carla</td></tr>", "Dana{color:red}"]
    game = make_game(players=players, title="<script>x</script>")
    soup = BeautifulSoup(scoresheet_html(game), "html.parser")
    assert soup.find("b", string="Aya") is None
    assert len(soup.find_all("style")) == 1  # the page size, in the head
    assert soup.find("script") is None
    text = pdf_pages(render_game_pdf(game))[0]
    for name in players:
        assert name in text
    assert "<script>x</script>" in text


# -- the blank sheet ----------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_blank_sheet_is_one_page(paper):
    pages = pdf_pages(render_blank_pdf(paper=paper))
    assert len(pages) == 1
    for label in (
        "King of Hearts",
        "Diamonds",
        "Queens",
        "Collections",
        "Trex",
        "Kingdom 4",
        "Final total",
    ):
        assert label in pages[0]


def test_blank_sheet_takes_the_players_names():
    pages = pdf_pages(render_blank_pdf(ARABIC, title="Friday"))
    assert len(pages) == 1
    for name in ARABIC:
        assert name in pages[0]
    with pytest.raises(ValueError, match="four names"):
        blank_html(["Aya", "Bilal"])


# -- only local files ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/font.ttf",
        "https://example.com/x.css",
        "ftp://example.com/x",
        "file://example.com/etc/passwd",
        "file:///etc/passwd",
        "//example.com/x.css",
    ],
)
def test_url_fetcher_refuses_anything_but_the_projects_files(url):
    with pytest.raises(RefusedURL):
        LocalFetcher().fetch(url)


def test_url_fetcher_refuses_escaping_the_static_folder():
    sneaky = (STATIC / "fonts" / ".." / ".." / "pyproject.toml").as_uri()
    with pytest.raises(RefusedURL):
        LocalFetcher().fetch(sneaky)


def test_url_fetcher_serves_the_fonts_and_data_urls():
    response = LocalFetcher().fetch((STATIC / "fonts" / "DejaVuSans.ttf").as_uri())
    assert response.read(4) == b"\x00\x01\x00\x00"
    response.close()
    assert LocalFetcher().fetch("data:text/plain,hello").read() == b"hello"


def test_a_sheet_loads_only_its_stylesheet_and_fonts():
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    asked: list[str] = []

    class Recording(LocalFetcher):
        def fetch(self, url, headers=None):
            asked.append(url)
            return super().fetch(url, headers)

    html = scoresheet_html(make_game(players=ARABIC))
    weasyprint.HTML(string=html, base_url=STATIC.as_uri() + "/", url_fetcher=Recording()).render(
        font_config=FontConfiguration()
    )
    paths = {Path(u.removeprefix("file://")).name for u in asked}
    assert paths == {"scoresheet.css", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"}
    roots = [str(root) for root in ALLOWED]
    assert all(u.startswith("file://") and any(r in u for r in roots) for u in asked)


@pytest.mark.slow
def test_sheet_needs_no_font_from_the_machine(tmp_path):
    """With Fontconfig knowing no font at all, the sheet still prints in the shipped font."""
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>'
    )
    out = tmp_path / "sheet.pdf"
    code = (
        "import sys, json; from scorekeeper.engine import read_game; "
        "from scorekeeper.printing import render_game_pdf; "
        "open(sys.argv[2], 'wb').write(render_game_pdf(read_game(json.loads(sys.argv[1]))))"
    )
    env = {"PATH": "/usr/bin:/bin", "FONTCONFIG_FILE": str(conf), "HOME": str(tmp_path)}
    subprocess.run(
        [
            sys.executable,
            "-W",
            "ignore",
            "-c",
            code,
            json.dumps(game_doc(players=ARABIC)),
            str(out),
        ],
        env=env,
        check=True,
    )
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    fonts = {
        font["/BaseFont"].split("+")[-1] for font in reader.pages[0]["/Resources"]["/Font"].values()
    }
    assert fonts == {"Trex-Sheet", "Trex-Sheet-Bold"}
    assert "محمد علي" in reader.pages[0].extract_text()


def test_shipped_fonts_are_small_and_licensed():
    fonts = STATIC / "fonts"
    assert sum(p.stat().st_size for p in fonts.glob("*.ttf")) < 2 * 1024 * 1024
    assert "Bitstream Vera" in (fonts / "LICENSE-DejaVu.txt").read_text()


def test_the_commands_load_weasyprint_only_to_render():
    code = (
        "import sys, argparse, scorekeeper.cli.sheets as c; "
        "c.add_commands(argparse.ArgumentParser().add_subparsers()); "
        "print('weasyprint' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_printing_does_not_need_flask():
    code = "import sys, scorekeeper.printing; print('flask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the commands ------------------------------------------------------------------------------
def run_command(argv: list[str]) -> int:
    from scorekeeper.cli.sheets import add_commands as add_pdf_commands

    parser = argparse.ArgumentParser(prog="scorekeeper")
    add_pdf_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_pdf_command_prints_a_game_file(tmp_path):
    source = tmp_path / "game.json"
    source.write_text(json.dumps(game_doc(players=ARABIC), ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    assert run_command(["pdf", "--file", str(source), "-o", str(out), "--paper", "letter"]) == 0
    pages = pdf_pages(out.read_bytes())
    assert len(pages) == 1 and "محمد علي" in pages[0]


def test_pdf_command_reports_a_missing_database(tmp_path, capsys):
    missing = tmp_path / "none.sqlite3"
    assert (
        run_command(["pdf", "--game", "1", "--db", str(missing), "-o", str(tmp_path / "x.pdf")])
        == 2
    )
    assert "No database" in capsys.readouterr().err


def test_pdf_command_prints_a_stored_game(tmp_path):
    storage = pytest.importorskip("scorekeeper.store.storage")
    from scorekeeper.engine import HouseRules
    from scorekeeper.store.db import connect
    from scorekeeper.store.schema import migrate

    doc = game_doc(deals=7)
    path = tmp_path / "games.sqlite3"
    db = connect(path)
    migrate(db)
    game_id = storage.create_game(
        db,
        title="Stored",
        played_on="2026-11-20",
        players=doc["players"],
        rules=HouseRules(),
        first_king=2,
    )
    for number, deal in enumerate(doc["deals"], start=1):
        storage.add_deal(db, game_id, deal, token=f"t{number}", number=number)
    db.close()
    out = tmp_path / "stored.pdf"
    assert run_command(["pdf", "--game", str(game_id), "--db", str(path), "-o", str(out)]) == 0
    text = pdf_pages(out.read_bytes())[0]
    assert "Stored" in text
    assert_sheet_holds_scores(text, read_game(doc))


def test_blank_sheet_command(tmp_path):
    out = tmp_path / "blank.pdf"
    assert run_command(["blank-sheet", "-o", str(out), "--names", "Aya,Bilal,Carla,ليلى"]) == 0
    assert "ليلى" in pdf_pages(out.read_bytes())[0]
    assert run_command(["blank-sheet", "-o", str(out), "--names", "Aya,Bilal"]) == 2
