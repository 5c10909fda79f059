"""Player pages and the leaderboard against figures worked out here from the game files.

The expected figures come from the file dicts themselves: points per contract from the rule
book's table (checked, deal by deal, against the engine's ``score_game``), final totals and
winners from ``score_game``. Nothing is read from the app's statistics tables.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import pytest

from scorekeeper.engine import PRESETS, HouseRules, read_game, score_game
from scorekeeper.web import create_app

from gamebuilder import standard_deal
from history_helpers import import_docs, number, query, simulated_games
from web_helpers import be_admin, soup

POOL = ("Aya", "Bilal", "Carla", "Dana", "Elias", "ليلى")
CONTRACTS = ("king_of_hearts", "diamonds", "queens", "collections", "trex")
TREX_POINTS = (200, 150, 100, 50)
SUITS = ("spades", "hearts", "diamonds", "clubs")


# -- the figures, worked out from the files --------------------------------------------------
def capture_points(capture: dict, value: int) -> list[int]:
    """RULES.md doubling, default rules (doubling on, self-capture single)."""
    points = [0, 0, 0, 0]
    holder = capture.get("doubled_by")
    if holder is None:
        points[capture["taker"]] += value
    elif holder != capture["taker"]:
        points[capture["taker"]] += 2 * value
        points[holder] -= value
    else:
        points[holder] += value
    return points


def contract_points(deal: dict) -> dict[str, list[int]]:
    """Each contract of a deal scored alone, from the rule book's table."""
    out = {}
    for contract in deal.get("contracts", ()):
        if contract == "king_of_hearts":
            out[contract] = capture_points(deal["king_of_hearts"], -75)
        elif contract == "queens":
            per_queen = [capture_points(deal["queens"][s], -25) for s in SUITS]
            out[contract] = [sum(q[seat] for q in per_queen) for seat in range(4)]
        elif contract == "diamonds":
            out[contract] = [-10 * n for n in deal["diamonds"]]
        elif contract == "collections":
            out[contract] = [-15 * n for n in deal["tricks"]]
        else:
            out[contract] = [0, 0, 0, 0]
            for place, seat in enumerate(deal["trex_order"]):
                out[contract][seat] = TREX_POINTS[place]
    return out


def preset_of(doc: dict) -> str:
    rules = HouseRules.from_dict(doc.get("rules"))
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


@dataclass
class Expected:
    games: int = 0
    wins: int = 0
    totals: list[int] = field(default_factory=list)
    king: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # deals, points
    other: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    kh_deals: int = 0
    kh_taken: int = 0
    doubles: dict = field(
        default_factory=lambda: {k: {"made": 0, "passed": 0, "back": 0} for k in ("kh", "queens")}
    )
    took_doubled: int = 0
    trex: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    trex_king: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    rivals: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0]))
    partners: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0, 0]))
    recent: list[int] = field(default_factory=list)


def rank(doc, totals, seat) -> int:
    """The seat's place by RULES.md "Who wins": the higher total is better (the lower under
    reverse_scores); under partnership partners share their team's place."""
    rules = doc.get("rules", {})
    reverse = rules.get("reverse_scores", False)

    def better(a: int, b: int) -> bool:
        return a < b if reverse else a > b

    if rules.get("partnership"):
        if rules.get("team_result") == "worst-loses":
            worst = max(totals) if reverse else min(totals)
            losing = {s % 2 for s in range(4) if totals[s] == worst}
            return 1 if len(losing) == 2 or seat % 2 not in losing else 2
        mine = totals[seat] + totals[(seat + 2) % 4]
        theirs = totals[(seat + 1) % 4] + totals[(seat + 3) % 4]
        return 1 + better(theirs, mine)
    return 1 + sum(1 for t in totals if better(t, totals[seat]))


def expected(docs, name, *, start=None, end=None, preset=None) -> Expected:
    out = Expected()
    ordered = []
    for index, doc in enumerate(docs):
        game = read_game(doc)
        scored = score_game(game)
        for i, deal in enumerate(doc["deals"]):  # the table here agrees with the engine
            parts = contract_points(deal)
            assert [sum(p[s] for p in parts.values()) for s in range(4)] == list(scored.deals[i])
        if name not in doc["players"] or not scored.is_over:
            continue
        if (
            (start and doc["played_on"] < start)
            or (end and doc["played_on"] > end)
            or (preset and preset_of(doc) != preset)
        ):
            continue
        seat = doc["players"].index(name)
        totals = scored.totals
        out.games += 1
        out.wins += seat in scored.winners
        out.totals.append(totals[seat])
        ordered.append((doc["played_on"], index, rank(doc, totals, seat)))
        for deal in doc["deals"]:
            for contract, points in contract_points(deal).items():
                box = out.king if deal["king"] == seat else out.other
                box[contract][0] += 1
                box[contract][1] += points[seat]
                if contract == "trex":
                    place = deal["trex_order"].index(seat)
                    out.trex[place] += 1
                    if deal["king"] == seat:
                        out.trex_king[place] += 1
                captures = (
                    {"kh": [deal["king_of_hearts"]]}
                    if contract == "king_of_hearts"
                    else {"queens": [deal["queens"][s] for s in SUITS]}
                    if contract == "queens"
                    else {}
                )
                for key, cards in captures.items():
                    for card in cards:
                        holder = card.get("doubled_by")
                        if holder == seat:
                            out.doubles[key]["made"] += 1
                            out.doubles[key]["passed" if card["taker"] != seat else "back"] += 1
                        elif holder is not None and card["taker"] == seat:
                            out.took_doubled += 1
                if contract == "king_of_hearts":
                    out.kh_deals += 1
                    out.kh_taken += deal["king_of_hearts"]["taker"] == seat
        for other in range(4):
            if other == seat:
                continue
            row = out.rivals[doc["players"][other]]
            row[0] += 1
            row[1] += rank(doc, totals, seat) < rank(doc, totals, other)
            row[2] += rank(doc, totals, seat) > rank(doc, totals, other)
            row[3] += totals[seat] - totals[other]
        if game.rules.partnership:
            partner = doc["players"][(seat + 2) % 4]
            row = out.partners[partner]
            team = "0+2" if seat % 2 == 0 else "1+3"
            row[0] += 1
            row[1] += scored.team_result == team
            row[2] += scored.team_result == "tie"
            row[3] += scored.team_result not in (team, "tie")
            row[4] += totals[seat] + totals[(seat + 2) % 4]
    out.recent = [r for _, _, r in sorted(ordered, key=lambda x: (x[0], x[1]), reverse=True)]
    return out


# -- the install ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def docs():
    return list(simulated_games(36, seed=7, per_night=3, pool=POOL, unfinished_every=9))


@pytest.fixture(scope="module")
def install(docs, tmp_path_factory):
    path = tmp_path_factory.mktemp("stats")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(path / "db.sqlite3"),
            "INSTANCE_PATH": str(path / "instance"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    import_docs(app, docs)
    ids = {row["name"]: row["id"] for row in query(app, "select id, name from players")}
    return app, ids


def player_page(install, name, **args):
    app, ids = install
    response = app.test_client().get(f"/players/{ids[name]}", query_string=args)
    assert response.status_code == 200
    return soup(response)


def close(shown: str, value: float) -> bool:
    return abs(number(shown) - value) <= 0.05 + 1e-9


# -- the player page -----------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", POOL)
def test_player_page__games_wins_average_and_best(install, docs, name):
    page = player_page(install, name)
    want = expected(docs, name)
    assert want.games > 0
    assert int(page.select_one("#games").get_text(strip=True)) == want.games
    assert int(page.select_one("#wins").contents[0].strip()) == want.wins
    assert close(page.select_one("#average").get_text(strip=True), sum(want.totals) / want.games)
    assert number(page.select_one("#best").get_text(strip=True)) == max(want.totals)


@pytest.mark.slow
@pytest.mark.parametrize("name", POOL)
def test_player_page__average_per_contract_as_king_and_under_another_king(install, docs, name):
    page = player_page(install, name)
    want = expected(docs, name)
    for contract in CONTRACTS:
        row = page.select_one(f"#c-{contract}")
        for role, box in (("king", want.king), ("other", want.other)):
            deals, points = box[contract]
            cell = row.select_one(f".{role}")
            count = cell.find_next_sibling("small").get_text(strip=True)
            assert int(count.split()[0]) == deals, (contract, role)
            if deals:
                assert close(cell.get_text(strip=True), points / deals), (contract, role)


@pytest.mark.parametrize("name", POOL)
def test_player_page__king_of_hearts_doubles_and_trex_places(install, docs, name):
    page = player_page(install, name)
    want = expected(docs, name)
    taken = page.select_one("#kh-taken")
    assert int(taken.b.get_text()) == want.kh_taken
    assert f"of {want.kh_deals} King of Hearts" in taken.get_text(" ", strip=True)
    for key in ("made", "passed", "back"):
        cells = [int(td.get_text()) for td in page.select(f"#d-{key} td")]
        assert cells == [want.doubles["kh"][key], want.doubles["queens"][key]], key
    assert int(page.select_one("#took-doubled").get_text()) == want.took_doubled
    assert [int(td.get_text()) for td in page.select("#trex-all td")] == want.trex
    assert [int(td.get_text()) for td in page.select("#trex-king td")] == want.trex_king


@pytest.mark.parametrize("name", POOL[:3])
def test_player_page__head_to_head(install, docs, name):
    app, ids = install
    page = player_page(install, name)
    want = expected(docs, name)
    rows = {
        int(tr["data-player"]): [td.get_text(strip=True) for td in tr.find_all("td")]
        for tr in page.select("#head-to-head tr[data-player]")
    }
    assert set(rows) == {ids[other] for other in want.rivals}
    for other, (games, ahead, behind, margin) in want.rivals.items():
        cells = rows[ids[other]]
        assert [int(c) for c in cells[:3]] == [games, ahead, behind], other
        assert close(cells[3], margin / games), other


@pytest.mark.parametrize("name", POOL[:3])
def test_player_page__partnership_results_with_each_partner(install, docs, name):
    app, ids = install
    page = player_page(install, name)
    want = expected(docs, name)
    assert want.partners, "the sample holds partnership games"
    rows = {
        int(tr["data-player"]): [td.get_text(strip=True) for td in tr.find_all("td")]
        for tr in page.select("#partners tr[data-player]")
    }
    assert set(rows) == {ids[p] for p in want.partners}
    has_level = any(row[2] for row in want.partners.values())
    for partner, (games, won, level, lost, team) in want.partners.items():
        cells = rows[ids[partner]]
        counts = [games, won, level, lost] if has_level else [games, won, lost]
        assert [int(c) for c in cells[:-1]] == counts, partner
        assert close(cells[-1], team / games), partner


def test_player_page__over_a_date_range(install, docs):
    start, end = "2026-11-12", "2026-11-17"
    for name in POOL[:2]:
        page = player_page(install, name, **{"from": start, "to": end})
        want = expected(docs, name, start=start, end=end)
        assert 0 < want.games < expected(docs, name).games
        assert int(page.select_one("#games").get_text(strip=True)) == want.games
        assert int(page.select_one("#wins").contents[0].strip()) == want.wins
        row = page.select_one("#c-diamonds")
        deals, points = want.other["diamonds"]
        assert close(row.select_one(".other").get_text(strip=True), points / deals)


def test_player_page__a_date_that_is_not_one_is_said_and_left_out(install, docs):
    page = player_page(install, "Aya", **{"from": "someday"})
    assert "not a date" in page.get_text()
    assert int(page.select_one("#games").get_text(strip=True)) == expected(docs, "Aya").games


# -- the leaderboard -----------------------------------------------------------------------
def leaderboard(install, **args) -> dict[str, dict]:
    app, ids = install
    response = app.test_client().get("/leaderboard", query_string=args)
    assert response.status_code == 200
    out = {}
    for tr in soup(response).select("table.board tbody tr"):
        name = tr.th.a.get_text(strip=True)
        cells = tr.select("td:not(.rating)")
        out[name] = {
            "games": int(cells[0].get_text()),
            "wins": int(cells[1].contents[0]),
            "average": cells[2].get_text(strip=True),
            "best": number(cells[3].get_text(strip=True)),
            "recent": [int(s.get_text()) for s in tr.select(".place")],
        }
    return out


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"preset": "standard"},
        {"preset": "partnership"},
        {"preset": "complex", "from": "2026-11-10"},
        {"from": "2026-11-14", "to": "2026-11-18"},
    ],
    ids=["all", "standard", "partnership", "complex-since", "range"],
)
@pytest.mark.slow
def test_leaderboard__every_player_matches_the_game_files(install, docs, args):
    board = leaderboard(install, **args)
    filters = {"start": args.get("from"), "end": args.get("to"), "preset": args.get("preset")}
    for name in POOL:
        want = expected(docs, name, **filters)
        if not want.games:
            assert name not in board
            continue
        row = board[name]
        assert (row["games"], row["wins"]) == (want.games, want.wins), name
        assert close(row["average"], sum(want.totals) / want.games), name
        assert row["best"] == max(want.totals), name
        assert row["recent"] == want.recent[:5], name


def test_leaderboard__sorted_by_the_heading_tapped(install):
    by_average = leaderboard(install, sort="average")
    averages = [number(r["average"]) for r in by_average.values()]
    assert averages == sorted(averages, reverse=True)
    by_wins = leaderboard(install, sort="wins")
    wins = [r["wins"] for r in by_wins.values()]
    assert wins == sorted(wins, reverse=True)


def test_leaderboard__an_unknown_preset_is_said_and_ignored(install):
    app, _ = install
    response = app.test_client().get("/leaderboard?preset=bogus")
    assert "not one of the house-rule presets" in soup(response).get_text()
    assert leaderboard(install, preset="bogus") == leaderboard(install)


def test_roster__everyone_who_has_played(install, docs):
    app, ids = install
    page = soup(app.test_client().get("/players/"))
    names = [a.b.get_text(strip=True) for a in page.select("ul.list a")]
    assert names and sorted(names, key=str.casefold) == names
    assert set(names) == set(POOL)
    for li in page.select("ul.list li"):
        name = li.b.get_text(strip=True)
        games = int(re.match(r"(\d+) game", li.select_one(".sub").get_text()).group(1))
        assert games == sum(1 for d in docs if name in d["players"])


def test_leaderboard__kept_table_follows_every_change_to_the_data(app, client, table):
    """The table is kept between requests, but never outlives the data it was read from:
    a game finished through the forms, an import by another connection and a rename all show
    on the next request."""

    def board():
        page = soup(client.get("/leaderboard"))
        return {
            tr.th.a.get_text(strip=True): int(tr.select("td:not(.rating)")[0].get_text())
            for tr in page.select("table.board tbody tr")
        }

    assert board() == {}
    [imported] = import_docs(
        app, list(simulated_games(1, seed=11, pool=("Aya", "Bilal", "Carla", "Dana")))
    )
    assert board() == {"Aya": 1, "Bilal": 1, "Carla": 1, "Dana": 1}
    game = table.new_game(["Aya", "Bilal", "Carla", "Dana"])
    for king in range(4):
        for contract in ("king_of_hearts", "diamonds", "queens", "collections", "trex"):
            table.enter(game, standard_deal(king, contract))
    assert board() == {"Aya": 2, "Bilal": 2, "Carla": 2, "Dana": 2}
    [row] = query(app, "select id from players where name = 'Dana'")
    be_admin(client, app)
    page = soup(client.get(f"/players/{row['id']}/rename"))
    form = page.select_one("form[method=post]")
    data = {i["name"]: i.get("value", "") for i in form.select("input")}
    data["name"] = "Dana Haddad"
    assert client.post(f"/players/{row['id']}/rename", data=data).status_code == 303
    assert "Dana Haddad" in board() and "Dana" not in board()


def test_leaderboard__kept_table_is_never_another_connections_stale_one(app):
    """Each server thread has its own connection, and SQLite's counters start again with each:
    a phone served by a thread that opened its connection after a change still sees it."""
    import threading

    def board_seen_by_a_new_thread() -> str:
        seen = []
        thread = threading.Thread(
            target=lambda: seen.append(
                soup(app.test_client().get("/leaderboard")).select_one("main").get_text()
            )
        )
        thread.start()
        thread.join()
        return seen[0]

    assert "No finished game yet" in board_seen_by_a_new_thread()
    import_docs(app, list(simulated_games(1, seed=11, pool=("Aya", "Bilal", "Carla", "Dana"))))
    assert "No finished game yet" not in board_seen_by_a_new_thread()
