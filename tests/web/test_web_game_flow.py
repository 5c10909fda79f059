"""Whole games entered through the forms, checked against the engine's own totals."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine import read_game
from scorekeeper.store import storage
from scorekeeper.web.access.database import get_db

from web_helpers import COMPLEX, PLAYERS, hidden_fields, soup


def kh(king, taker, doubled_by=None):
    capture = {"taker": taker}
    if doubled_by is not None:
        capture["doubled_by"] = doubled_by
    return {"king": king, "contracts": ["king_of_hearts"], "king_of_hearts": capture}


def queens(king, takers, doubled=None):
    doubled = doubled or {}
    out = {}
    for suit, taker in zip(("spades", "hearts", "diamonds", "clubs"), takers):
        out[suit] = {"taker": taker}
        if suit in doubled:
            out[suit]["doubled_by"] = doubled[suit]
    return {"king": king, "contracts": ["queens"], "queens": out}


def counts(king, contract, values):
    key = "diamonds" if contract == "diamonds" else "tricks"
    return {"king": king, "contracts": [contract], key: list(values)}


def trex(king, order):
    return {"king": king, "contracts": ["trex"], "trex_order": list(order)}


#: Twenty scored deals and one thrown in: doubled K♥ (taken by another, and by its holder),
#: doubled queens (by another, by the holder), sweeps of all kinds, every King once.
NIGHT = [
    trex(2, [1, 2, 0, 3]),
    kh(2, 0, doubled_by=3),
    counts(2, "diamonds", [4, 2, 5, 2]),
    queens(2, [1, 2, 0, 3], doubled={"hearts": 2, "diamonds": 3}),
    counts(2, "collections", [3, 4, 2, 4]),
    {"king": 3, "thrown_in": {"reason": "trex-twos", "by": 1}},
    queens(3, [0, 0, 1, 2], doubled={"spades": 1}),
    kh(3, 3, doubled_by=3),
    trex(3, [3, 0, 1, 2]),
    counts(3, "diamonds", [0, 13, 0, 0]),
    counts(3, "collections", [13, 0, 0, 0]),
    counts(0, "collections", [1, 2, 3, 7]),
    trex(0, [0, 1, 2, 3]),
    kh(0, 2),
    counts(0, "diamonds", [3, 3, 3, 4]),
    queens(0, [3, 2, 1, 0]),
    counts(1, "diamonds", [5, 0, 4, 4]),
    queens(1, [1, 1, 1, 1], doubled={"clubs": 0}),
    counts(1, "collections", [2, 5, 5, 1]),
    kh(1, 1, doubled_by=2),
    trex(1, [2, 3, 1, 0]),
]


def engine_totals(deals, rules=None, first_king=2, players=PLAYERS):
    game = read_game(
        {
            "format": "trex-game/1",
            "players": list(players),
            "rules": rules or {},
            "first_king": first_king,
            "deals": deals,
        }
    )
    scored = game.score()
    return dict(zip(players, scored.totals)), scored


@pytest.mark.slow
def test_whole_game__entered_through_the_forms__matches_the_engine(app, client, table):
    game_id = table.new_game(first_king=2)
    for number, deal in enumerate(NIGHT, start=1):
        if "thrown_in" in deal:
            table.throw_in(
                game_id, deal["king"], deal["thrown_in"]["reason"], deal["thrown_in"]["by"]
            )
        else:
            table.enter(game_id, deal, leave_out_last=number % 2 == 0)
        if number == 9:  # a correction of an earlier deal, in the middle of the night
            corrected = counts(2, "diamonds", [3, 3, 5, 2])
            response = table.correct(game_id, 3, corrected)
            assert response.status_code == 303
    deals = list(NIGHT)
    deals[2] = counts(2, "diamonds", [3, 3, 5, 2])
    expected, scored = engine_totals(deals)
    assert scored.is_over
    assert table.standings(game_id) == expected

    page = soup(client.get(f"/games/{game_id}"))
    over = page.find(id="game-over")
    assert over is not None
    winners = ", ".join(PLAYERS[s] for s in scored.winners)
    assert PLAYERS[scored.winners[0]] in over.get_text(" ", strip=True), winners
    assert over.find("a", string="New game with the same players") is not None
    assert page.find(id="next") is None  # no next deal after the twentieth

    with app.app_context():
        row = get_db().table("games").get(game_id)
        assert row["finished"] == 1
        assert json.loads(row["totals_json"]) == [expected[n] for n in PLAYERS]
        ranks = {
            r["seat"]: (r["total"], r["rank"])
            for r in get_db().query(
                "select seat, total, rank from game_players where game_id = ?", [game_id]
            )
        }
        assert ranks[scored.winners[0]][1] == 1
        history = storage.history(get_db(), game_id)
    actions = [(h["number"], h["action"]) for h in history]
    assert (3, "correct") in actions and actions.count((3, "create")) == 1
    assert len(history) == len(NIGHT) + 1

    history_page = soup(client.get(f"/games/{game_id}/history")).get_text(" ", strip=True)
    assert "corrected (version 2)" in history_page
    assert "Diamonds: Aya 4, Bilal 2, Carla 5, Dana 2" in history_page  # the earlier version


def sheet_rows(kingdom) -> list[tuple[str, list[int], list[int]]]:
    """The deals of a kingdom on the sheet: the contract, each player's points, each total."""
    out = []
    for row in kingdom.select("tr"):
        points = [number(td.find("span").get_text()) for td in row.select("td") if td.find("span")]
        if row.th.find("b") and points:
            running = [number(small.get_text()) for small in row.select("td small.run")]
            out.append((row.th.b.get_text(strip=True), points, running))
    return out


def number(text: str) -> int:
    return int(text.strip().replace("\u2212", "-"))


@pytest.mark.slow
def test_whole_game__the_sheet_has_a_row_per_deal_with_the_totals_after_it(client, table):
    """Changed with the scoresheet: a row per deal (was a cell per contract in a kingdom grid),
    each player's points and, under them, the total after the deal."""
    game_id = table.new_game(first_king=2)
    for deal in NIGHT[:7]:
        if "thrown_in" in deal:
            table.throw_in(game_id, deal["king"], "trex-twos", 1)
        else:
            table.enter(game_id, deal)
    _, scored = engine_totals(NIGHT[:7])
    page = soup(client.get(f"/games/{game_id}"))
    first = page.find(id="kingdom-1")
    assert [label for label, _, _ in sheet_rows(first)] == [
        "Trex",
        "K♥",
        "Diamonds",
        "Queens",
        "Collections",
    ]
    assert [(points, running) for _, points, running in sheet_rows(first)] == [
        (list(scored.deals[i]), list(scored.running[i])) for i in range(5)
    ]
    assert sheet_rows(first)[1][1] == [-150, 0, 0, 75]
    subtotal = [number(td.get_text()) for td in first.select("tr.sub td")]
    assert subtotal == list(scored.kingdoms[0][1])
    second = page.find(id="kingdom-2")
    assert "current" in second["class"] and "current" not in first["class"]
    thrown = second.select_one("tr.void").get_text(" ", strip=True)
    assert "thrown in" in thrown and "asked by Bilal" in thrown
    assert sheet_rows(second) == [("Queens", list(scored.deals[6]), list(scored.running[6]))]
    left = second.select_one("tr.left td").get_text(strip=True)
    assert left == "K♥, Diamonds, Collections, Trex"
    head = page.select_one("table.sheet thead tr.totals")
    assert [number(td.span.get_text()) for td in head.select("td")] == list(scored.totals)
    places = [td.select_one("small.at").get_text(strip=True) for td in head.select("td")]
    ranked = sorted(scored.totals, reverse=True)
    assert places == [("1st", "2nd", "3rd", "4th")[ranked.index(t)] for t in scored.totals]


@pytest.mark.slow
def test_complex_game__entered_with_cross_checks__matches_the_engine(client, table):
    game_id = table.new_game(first_king=1, preset="complex")
    deals = []
    for k in range(4):
        king = (1 + k) % 4
        complex_deal = {
            "king": king,
            "contracts": COMPLEX.split(","),
            "king_of_hearts": {"taker": (king + 1) % 4, "doubled_by": king},
            "diamonds": [3, 4, 2, 4],
            "queens": {
                "spades": {"taker": 0},
                "hearts": {"taker": 1, "doubled_by": 1},
                "diamonds": {"taker": 2},
                "clubs": {"taker": 3, "doubled_by": 0},
            },
            "tricks": [3, 4, 2, 4],
        }
        pair = [complex_deal, trex(king, [(king + s) % 4 for s in range(4)])]
        if k % 2:
            pair.reverse()
        for deal in pair:
            table.enter(game_id, deal, leave_out_last=True)
            deals.append(deal)
    expected, scored = engine_totals(deals, rules={"combining": "complex"}, first_king=1)
    assert scored.is_over
    assert table.standings(game_id) == expected
    page = soup(client.get(f"/games/{game_id}"))
    # one row per deal (a Complex deal is one row), each linking to its deal
    links = [a for a in page.find(id="kingdom-1").select("th a")]
    assert [a.b.get_text() for a in links] == ["Complex", "Trex"]
    assert [a["href"] for a in links] == [f"/games/{game_id}/deals/{n}" for n in (1, 2)]


def test_complex_game__cross_check_refused_next_to_the_field(client, table):
    game_id = table.new_game(first_king=0, preset="complex")
    deal = {
        "king": 0,
        "contracts": COMPLEX.split(","),
        "king_of_hearts": {"taker": 3},
        "diamonds": [5, 4, 4, 0],
        "queens": {
            "spades": {"taker": 0},
            "hearts": {"taker": 1},
            "diamonds": {"taker": 3},
            "clubs": {"taker": 2},
        },
        "tricks": [5, 4, 4, 0],
    }
    from web_helpers import form_fields

    response = table.post_entry(game_id, COMPLEX, form_fields(deal))
    assert response.status_code == 400
    page = soup(response)
    assert any(
        "took the Q♦, so they took at least one diamond" in m
        for m in page.find(id="g-diamonds").find_all(string=True)
    )
    assert page.select_one('input[name="q_diamonds_taker"][value="3"]').has_attr("checked")


@pytest.mark.slow
def test_partnership_game__team_result_at_game_over(client, table):
    game_id = table.new_game(first_king=0, preset="partnership")
    order = ["trex", "king_of_hearts", "diamonds", "queens", "collections"]
    for k in range(4):
        for contract in order:
            deal = {
                "trex": trex(k, [0, 2, 1, 3]),
                "king_of_hearts": kh(k, 1),
                "diamonds": counts(k, "diamonds", [1, 5, 2, 5]),
                "queens": queens(k, [1, 3, 1, 0]),
                "collections": counts(k, "collections", [4, 3, 3, 3]),
            }[contract]
            table.enter(game_id, deal)
    text = soup(client.get(f"/games/{game_id}")).find(id="game-over").get_text(" ", strip=True)
    assert "Aya & Carla win as a team" in text
    standings = soup(client.get(f"/games/{game_id}")).select("table.teams tbody tr")
    assert [r.find("bdi").get_text() for r in standings] == ["Aya & Carla", "Bilal & Dana"]


def test_new_game_with_the_same_players__prefills_names_and_rules(client, table):
    game_id = table.new_game(["Rami", "نور", "Sami", "Hala"], preset="complex")
    page = soup(client.get(f"/games/new?from={game_id}"))
    values = [page.find("input", attrs={"name": f"player_{s}"})["value"] for s in range(4)]
    assert values == ["Rami", "نور", "Sami", "Hala"]
    assert page.select_one('input[name="preset"][value="complex"]').has_attr("checked")
    assert not page.select('input[name="first_king"][checked]')  # a new deal of the 7♥


def test_thrown_in__uses_up_nothing_and_scores_nothing(client, table):
    game_id = table.new_game()
    table.throw_in(game_id, 0, "kh-redeal", 2)
    page = soup(client.get(f"/games/{game_id}"))
    options = [a.get_text(strip=True) for a in page.select("#next .options a")]
    assert options == ["King of Hearts", "Diamonds", "Queens", "Collections", "Trex"]
    assert "Deal 2" in page.find(id="next").h2.get_text()
    assert set(table.standings(game_id).values()) == {0}
    text = soup(client.get(f"/games/{game_id}/deals/1")).get_text(" ", strip=True)
    assert "Thrown in (K♥ redeal), asked by Carla" in text


def test_undo__last_deal_reopens_the_contract_and_stays_in_history(app, client, table):
    game_id = table.new_game()
    table.enter(game_id, kh(0, 1))
    table.enter(game_id, counts(0, "diamonds", [4, 3, 3, 3]))
    response = table.undo(game_id, 2)
    assert response.status_code == 303
    page = soup(client.get(f"/games/{game_id}"))
    assert "Diamonds" in [a.get_text(strip=True) for a in page.select("#next .options a")]
    assert table.standings(game_id)["Bilal"] == -75
    with app.app_context():
        actions = [h["action"] for h in storage.history(get_db(), game_id)]
    assert actions == ["create", "create", "undo"]


def test_undo__a_middle_deal_renumbers_the_later_ones(client, table):
    game_id = table.new_game()
    table.enter(game_id, kh(0, 1))
    table.enter(game_id, counts(0, "diamonds", [4, 3, 3, 3]))
    table.enter(game_id, trex(0, [0, 1, 2, 3]))
    assert table.undo(game_id, 1).status_code == 303
    text = soup(client.get(f"/games/{game_id}/deals/2")).get_text(" ", strip=True)
    assert "Deal 2: Trex" in text
    assert client.get(f"/games/{game_id}/deals/3").status_code == 404


def test_undo__refused_when_later_deals_would_not_make_sense(client, table):
    game_id = table.new_game()
    for contract in ("king_of_hearts", "diamonds", "queens", "collections", "trex"):
        deal = {
            "king_of_hearts": kh(0, 1),
            "diamonds": counts(0, "diamonds", [4, 3, 3, 3]),
            "queens": queens(0, [0, 1, 2, 3]),
            "collections": counts(0, "collections", [4, 3, 3, 3]),
            "trex": trex(0, [0, 1, 2, 3]),
        }[contract]
        table.enter(game_id, deal)
    table.enter(game_id, kh(1, 2))  # deal 6 belongs to the next kingdom
    response = table.undo(game_id, 1)
    assert response.status_code == 400
    text = soup(response).get_text(" ", strip=True)
    assert "Deal 5" in text and "cannot be taken out" in text
    assert len(table.standings(game_id)) == 4
    assert client.get(f"/games/{game_id}/deals/6").status_code == 200


def test_correction__refused_when_a_later_deal_no_longer_fits(client, table):
    game_id = table.new_game()
    table.enter(game_id, kh(0, 1))
    table.enter(game_id, counts(0, "diamonds", [4, 3, 3, 3]))
    response = table.correct(game_id, 1, counts(0, "collections", [4, 3, 3, 3]))
    assert response.status_code == 200 or response.status_code == 303
    # the correction changed deal 1's contract to Collections: nothing later clashes with it
    response = table.correct(game_id, 1, counts(0, "diamonds", [4, 3, 3, 3]))
    assert response.status_code == 400
    text = soup(response).get_text(" ", strip=True)
    assert "Deal 2, Diamonds: Diamonds has already been played in this kingdom" in text


def test_correction__stale_version_is_refused(client, table):
    game_id = table.new_game()
    table.enter(game_id, kh(0, 1))
    page = soup(client.get(f"/games/{game_id}/deals/1/edit"))
    hidden = hidden_fields(page)
    assert table.correct(game_id, 1, kh(0, 2)).status_code == 303
    response = client.post(
        f"/games/{game_id}/deals/1/edit", data={**hidden, "kh_taker": "3", "step": "save"}
    )
    assert response.status_code == 409
    assert "changed meanwhile" in soup(response).get_text(" ", strip=True)
    assert table.standings(game_id)["Carla"] == -75


def test_correction__of_a_thrown_in_deal(client, table):
    game_id = table.new_game()
    table.throw_in(game_id, 0, "misdeal", 1)
    response = table.correct(game_id, 1, {"king": 0, "thrown_in": {"reason": "other", "by": 3}})
    assert response.status_code == 303
    text = soup(client.get(f"/games/{game_id}/deals/1")).get_text(" ", strip=True)
    assert "Thrown in (other reason), asked by Dana" in text and "version 2" in text


def test_history__shows_undone_deals(client, table):
    game_id = table.new_game()
    table.enter(game_id, kh(0, 1, doubled_by=2))
    table.undo(game_id, 1)
    text = " ".join(soup(client.get(f"/games/{game_id}/history")).get_text().split())
    assert "Deal 1 · undone" in text and "K♥: Bilal (doubled by Carla)" in text


def test_standings__seat_order_with_places_level_totals_sharing_one(app):
    """Paper keeps the seat order: the rows do not move when a deal changes who leads."""
    from scorekeeper.engine import GameScore
    from scorekeeper.web.making import present

    scored = GameScore(
        deals=(),
        running=(),
        kingdoms=(),
        totals=(-40, 75, -40, 5),
        winners=(1,),
        is_over=True,
        places=(3, 1, 3, 2),
    )  # the engine's places
    rows = present.standings(PLAYERS, scored)
    assert [(r.seat, r.name, r.total, r.rank, r.winner) for r in rows] == [
        (0, "Aya", -40, 3, False),
        (1, "Bilal", 75, 1, True),
        (2, "Carla", -40, 3, False),
        (3, "Dana", 5, 2, False),
    ]
