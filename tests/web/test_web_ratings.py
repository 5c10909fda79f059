"""The ratings on the pages: the player page (rating, provisional, chart, each game's change),
the leaderboard sorted by rating, the chances of winning at New game and before the first deal,
each player's change at the end of a game, and the Settings switch that hides them all.

Every figure is compared with what the store's ratings (openskill, tests/store/test_ratings.py) give,
not with the page's own arithmetic."""

from __future__ import annotations

import re

import pytest
from flask import g

from gamebuilder import standard_deal
from history_helpers import import_docs, query, simulated_games
from scorekeeper.store import ratings
from scorekeeper.store.db import connect
from scorekeeper.web.keeping import validators
from web_helpers import OWN_LINK, Table, soup

POOL = ("Aya", "Bilal", "Carla", "Dana", "Elias", "Farah")
ARABIC_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
MINUS = "\u2212"


@pytest.fixture
def rated(app):
    """Fifteen finished games among six players, and one player (Ghada) with two games."""
    docs = list(simulated_games(15, seed=5, pool=POOL))
    docs += list(
        simulated_games(2, seed=9, pool=("Ghada", "Aya", "Bilal", "Carla"), last_night="2026-11-21")
    )
    import_docs(app, docs)
    return app


def db_of(app):
    return connect(app.config["DATABASE"])


def pid(app, name: str) -> int:
    return query(app, "select id from players where name = ?", [name])[0]["id"]


def turn(client, on: bool):
    response = client.post(
        "/settings/ratings", data={"ratings": "on" if on else "off", "next": "/"}
    )
    assert response.status_code == 303
    return response


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


# -- the player page -------------------------------------------------------------------------
def test_player_page__rating_provisional_and_each_games_change(rated, client):
    db = db_of(rated)
    aya = pid(rated, "Aya")
    mine = ratings.of_players(db, [aya])[aya]
    page = soup(client.get(f"/players/{aya}"))
    assert page.select_one("#rating-value").get_text() == str(mine.rating)
    assert (page.select_one("#provisional") is not None) == mine.provisional
    history = ratings.history(db, aya)
    rows = page.select("#rating-table tbody tr")
    assert len(rows) == min(10, len(history))
    for tr, want in zip(rows, reversed(history)):  # latest first
        assert int(tr["data-game"]) == want["game_id"]
        cells = tr.select("td")
        assert cells[1].get_text() == signed(want["change"])
        assert cells[2].get_text() == str(want["rating"])
    assert [c for c in (h["change"] for h in history) if c < 0], "a loss is in the record"
    chart = page.select_one("img[src*='rating.svg']")
    svg = client.get(chart["src"])
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert b"<script" not in svg.data and b"polyline" in svg.data or b"path" in svg.data


def test_player_page__provisional_until_five_games(rated, client):
    ghada = pid(rated, "Ghada")
    page = soup(client.get(f"/players/{ghada}"))
    assert page.select_one("#provisional").get_text() == "provisional"
    assert "Provisional until 5 games: after 2 games" in page.select_one("#rating").get_text()
    aya = pid(rated, "Aya")
    assert ratings.of_players(db_of(rated), [aya])[aya].games >= 5
    assert soup(client.get(f"/players/{aya}")).select_one("#provisional") is None


def test_player_page__in_arabic_with_arabic_digits_the_signs_stay_left(rated, client):
    db = db_of(rated)
    aya = pid(rated, "Aya")
    client.get("/lang/ar", headers=OWN_LINK)
    client.get("/digits/arabic", headers=OWN_LINK)
    page = soup(client.get(f"/players/{aya}"))
    assert page.html["dir"] == "rtl"
    mine = ratings.of_players(db, [aya])[aya]
    assert page.select_one("#rating-value").get_text() == str(mine.rating).translate(ARABIC_DIGITS)
    latest = ratings.history(db, aya)[-1]
    change = page.select("#rating-table tbody tr")[0].select_one("td.change span.ltr")
    assert change.get_text() == signed(latest["change"]).translate(ARABIC_DIGITS)
    client.get("/digits/western", headers=OWN_LINK)
    page = soup(client.get(f"/players/{aya}"))
    assert page.select_one("#rating-value").get_text() == str(mine.rating)


def test_player_page__no_rated_game_yet(app, client, table):
    table.new_game(["Aya", "Bilal", "Carla", "Dana"])
    page = soup(client.get(f"/players/{pid(app, 'Aya')}"))
    assert page.select_one("#rating-none") is not None
    assert page.select_one("#rating-value") is None


# -- the leaderboard -------------------------------------------------------------------------
def board(client, **args) -> list[dict]:
    page = soup(client.get("/leaderboard", query_string=args))
    rows = []
    for tr in page.select("table.board tbody tr"):
        cell = tr.select_one("td.rating")
        rows.append(
            {
                "name": tr.th.a.get_text(strip=True),
                "rating": None if cell is None else int(cell.contents[0]),
                "provisional": cell is not None and "provisional" in cell["class"],
                "wins": int(tr.select("td:not(.rating)")[1].contents[0]),
            }
        )
    return rows


def test_leaderboard__sorted_by_rating_by_default_provisional_players_last(rated, client):
    rows = board(client)
    table = {r.name: r for r in ratings.table(db_of(rated))}
    assert {r["name"] for r in rows} == set(table)
    for row in rows:
        assert row["rating"] == table[row["name"]].rating
        assert row["provisional"] == table[row["name"]].provisional
    established = [r for r in rows if not r["provisional"]]
    provisional = [r for r in rows if r["provisional"]]
    assert rows == established + provisional and provisional  # Ghada, two games
    for group in (established, provisional):
        ordinals = [table[r["name"]].ordinal for r in group]
        assert ordinals == sorted(ordinals, reverse=True)
    head = soup(client.get("/leaderboard")).select_one("th.rating")
    assert head["aria-sort"] == "descending"


def test_leaderboard__the_other_orders_as_before(rated, client):
    rows = board(client, sort="wins")
    assert [r["wins"] for r in rows] == sorted((r["wins"] for r in rows), reverse=True)
    assert rows[0]["rating"] is not None  # the rating column stays
    assert board(client, sort="bogus") == board(client)


# -- chances of winning ----------------------------------------------------------------------
def test_new_game__chances_of_four_known_players(rated, client):
    [game] = query(rated, "select id from games order by id desc limit 1")
    page = soup(client.get(f"/games/new?from={game['id']}"))
    assert not page.select_one("#chances").has_attr("hidden")
    names = [page.select_one(f"#player_{s}")["value"] for s in range(4)]
    ids = [pid(rated, n) for n in names]
    partnership = page.select_one("#presets input[checked]")["value"] == "partnership"
    want = ratings.chances(db_of(rated), ids, partnership)
    cells = page.select("#chances tbody tr")
    assert [tr.bdi.get_text() for tr in cells] == names
    assert [tr.select_one("td.num").get_text() for tr in cells] == [
        f"{round(100 * c)}%" for c in want
    ]
    # a name the group does not know yet: no prediction
    data = {f"player_{s}": n for s, n in enumerate(names[:3] + ["Newcomer"])}
    data.update(first_king="9", preset="standard")
    refused = soup(client.post("/games/new", data=data))
    assert refused.select_one("#chances")["hidden"] == ""  # there for the script, not shown
    assert [td.get_text() for td in refused.select("#chances td.num")] == [""] * 4
    data["player_3"] = names[3]
    assert (
        soup(client.post("/games/new", data=data)).select_one("#chances:not([hidden])") is not None
    )


@pytest.mark.slow
def test_game_page__chances_before_the_first_deal_and_changes_at_the_end(rated, client):
    seen = {}

    @rated.after_request
    def remember(response):
        seen["unkeyed"] = bool(g.get("tables_read", set()) & validators.RATINGS_TABLES)
        return response

    table = Table(client)
    names = ["Aya", "Bilal", "Carla", "Dana"]
    game_id = table.new_game(names, played_on="2026-12-01")
    db = db_of(rated)
    ids = [pid(rated, n) for n in names]

    page = soup(client.get(f"/games/{game_id}"))
    assert seen["unkeyed"] is True
    assert [item.select_one(".ltr").get_text() for item in page.select("#chances .chance")] == [
        f"{round(100 * c)}%" for c in ratings.chances(db, ids)
    ]
    assert [item.bdi.get_text() for item in page.select("#chances .chance")] == names
    table.enter(game_id, standard_deal(0, "king_of_hearts"))
    page = soup(client.get(f"/games/{game_id}"))
    assert page.select_one("#chances") is None and page.select_one("#rating-changes") is None
    assert seen["unkeyed"] is False  # mid-game the page shows no rating: kept by its version
    for king in range(4):
        for contract in ("king_of_hearts", "diamonds", "queens", "collections", "trex"):
            if (king, contract) != (0, "king_of_hearts"):
                table.enter(game_id, standard_deal(king, contract))
    page = soup(client.get(f"/games/{game_id}"))
    assert page.select_one("#game-over") is not None and seen["unkeyed"] is True
    changes = ratings.changes_in(db_of(rated), game_id)
    shown = {
        item.bdi.get_text(): item.select_one(".ltr").get_text()
        for item in page.select("#rating-changes .change")
    }
    assert shown == {n: signed(changes[i]) for n, i in zip(names, ids)}
    turn(client, False)  # the setting is not the game's: the page is still not kept by version
    page = soup(client.get(f"/games/{game_id}"))
    assert page.select_one("#rating-changes") is None and seen["unkeyed"] is True


def test_partnership_chances_are_the_teams(rated, client):
    game_id = Table(client).new_game(["Aya", "Bilal", "Carla", "Dana"], preset="partnership")
    cells = [
        item.select_one(".ltr").get_text()
        for item in soup(client.get(f"/games/{game_id}")).select("#chances .chance")
    ]
    assert cells[0] == cells[2] and cells[1] == cells[3]
    assert "team’s chance" in soup(client.get(f"/games/{game_id}")).get_text()


# -- the switch ------------------------------------------------------------------------------
@pytest.mark.slow
def test_turned_off_ratings_appear_nowhere_and_come_back(rated, client):
    aya = pid(rated, "Aya")
    [last] = query(rated, "select id from games where finished = 1 order by id desc limit 1")
    fresh = Table(client).new_game(["Aya", "Bilal", "Carla", "Dana"])
    pages = [
        f"/players/{aya}",
        "/leaderboard",
        f"/games/{last['id']}",
        f"/games/{fresh}",
        f"/games/new?from={last['id']}",
        "/settings",
    ]
    before = {url: soup(client.get(url)) for url in pages}
    assert before[f"/players/{aya}"].select_one("#rating")
    assert before["/leaderboard"].select_one("td.rating")
    assert before[f"/games/{last['id']}"].select_one("#rating-changes")
    assert before[f"/games/{fresh}"].select_one("#chances")
    turn(client, False)
    for url in pages:
        page = soup(client.get(url))
        for selector in (
            "#rating",
            "td.rating",
            "th.rating",
            "#rating-hint",
            "#rating-changes",
            "#chances",
            "img[src*='rating.svg']",
        ):
            if url == "/settings" and selector == "#rating":
                continue
            assert page.select_one(selector) is None, (url, selector)
        for flash in page.select(".flash"):  # "Ratings are off", said once
            flash.decompose()
        if url != "/settings":
            assert not re.search(r"\brating", page.select_one("main").get_text(), re.I), url
    assert client.get(f"/charts/players/{aya}/rating.svg").status_code == 404
    assert ratings.table(db_of(rated)) == []
    assert board(client) == board(client, sort="wins")  # the wins order, as before ratings
    turn(client, True)
    assert soup(client.get("/leaderboard")).select_one("td.rating")
    assert len(ratings.table(db_of(rated))) == 7


@pytest.mark.slow
def test_settings__the_switch_in_arabic(rated, client):
    client.get("/lang/ar", headers=OWN_LINK)
    page = soup(client.get("/settings"))
    section = page.select_one("#ratings")
    assert section.h2.get_text() == "التصنيفات"
    assert [b.get_text() for b in section.select("button")] == ["مشغَّل", "مطفأ"]
    assert section.select_one("button[aria-pressed=true]")["value"] == "on"
    response = client.post("/settings/ratings", data={"ratings": "off"}, follow_redirects=True)
    assert "التصنيفات مطفأة" in soup(response).get_text()


def test_settings__a_bad_switch_is_refused_and_changes_nothing(rated, client):
    response = client.post("/settings/ratings", data={"ratings": "maybe"})
    assert response.status_code == 400
    assert "Open Settings again" in soup(response).get_text()
    assert ratings.enabled(db_of(rated))


def test_chances_json__as_new_game_asks_while_names_are_typed(rated, client):
    names = ["Aya", "Bilal", "Carla", "Dana"]
    want = ratings.chances(db_of(rated), [pid(rated, n) for n in names])
    got = client.get("/players/chances.json", query_string={"names": names}).get_json()
    assert got == {"chances": [f"{round(100 * c)}%" for c in want]}
    pair = client.get(
        "/players/chances.json", query_string={"names": names, "partnership": "1"}
    ).get_json()["chances"]
    assert pair[0] == pair[2] and pair[1] == pair[3] and pair != got["chances"]
    client.get("/digits/arabic", headers=OWN_LINK)
    arabic = client.get("/players/chances.json", query_string={"names": names}).get_json()
    assert arabic["chances"] == [c.translate(ARABIC_DIGITS) for c in got["chances"]]
    for wrong in (names[:3], names[:3] + ["Newcomer"], names[:3] + ["aya"]):
        assert client.get("/players/chances.json", query_string={"names": wrong}).get_json() == {
            "chances": None
        }
    turn(client, False)
    assert client.get("/players/chances.json", query_string={"names": names}).get_json() == {
        "chances": None
    }


def test_hosted__only_the_groups_phones_turn_ratings_off(tmp_path):
    """On a hosted box a phone from the internet without the group's join link reads nothing
    of the group (the groups issue), and cannot switch the group's ratings."""
    from test_defects_hosting import PUBLIC, make, member, via_proxy

    from scorekeeper.web import serve as serve_module

    app = make(
        tmp_path,
        PROXY_HOPS=1,
        PUBLIC_URL=PUBLIC,
        TRUSTED_HOSTS=serve_module.trusted_hosts(
            "127.0.0.1", lan=None, public_url=PUBLIC, proxy_hops=1
        ),
    )
    stranger = via_proxy(app)
    assert stranger.get("/settings").status_code == 404
    refused = stranger.post("/settings/ratings", data={"ratings": "off"})
    assert refused.status_code == 404
    assert "join link" in soup(refused).get_text()
    assert ratings.enabled(db_of(app))
    ours = member(app, "203.0.113.9")
    assert soup(ours.get("/settings")).select_one("button[name=ratings][value=off]")
    assert ours.post("/settings/ratings", data={"ratings": "off"}).status_code == 303
    assert not ratings.enabled(db_of(app))
