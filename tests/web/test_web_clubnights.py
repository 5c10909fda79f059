"""Club nights on the pages: New club night (and its refusals, with nothing stored), the club
night's page with every table's progress and the standings across them, the next round (and
the refusal while tables still play), the wall view and its state document."""

from __future__ import annotations

import pytest

from gamebuilder import complex_game, standard_game
from history_helpers import query
from scorekeeper.store import clubnights, storage
from scorekeeper.store.db import connect
from web_helpers import first_load, soup

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]
THIRTEEN = EIGHT + ["Imad", "Jana", "Karim", "Lina", "Maya"]


def form(names, **extra) -> dict[str, str]:
    data = {
        "title": "Café",
        "played_on": "2026-11-24",
        "players": "\n".join(names),
        "rounds": "3",
        "first_round": "entered",
        "preset": "standard",
    }
    data.update(extra)
    return data


def counts(app) -> dict[str, int]:
    return {
        t: query(app, f"select count(*) as n from {t}")[0]["n"]
        for t in ("club_nights", "club_tables", "games", "players")
    }


def start(client, names=EIGHT, **extra) -> int:
    response = client.post("/clubs/new", data=form(names, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def play_out(app, game_id: int, deals: int | None = None, *, after: int = 0) -> None:
    """The standard game's deals (the first *deals* of them, or those after *after*)."""
    db = connect(app.config["DATABASE"])
    try:
        for number, deal in enumerate(standard_game()["deals"][after:deals], start=after + 1):
            storage.add_deal(
                db, game_id, deal, token=f"g{game_id:03d}n{number:02d}" + "z" * 14, number=number
            )
    finally:
        db.close()


def club(app, club_id: int) -> clubnights.ClubNight:
    db = connect(app.config["DATABASE"])
    try:
        return clubnights.load(db, club_id)
    finally:
        db.close()


def test_new_club_night__the_form_then_two_tables_seated_as_entered(app, client):
    page = soup(client.get("/clubs/new"))
    assert page.select_one("textarea#players") is not None
    club_id = start(client)
    night = club(app, club_id)
    assert [t.players for t in night.rounds[0].tables] == [tuple(EIGHT[:4]), tuple(EIGHT[4:])]
    page = soup(client.get(f"/clubs/{club_id}"))
    tables = page.select(".club-table")
    assert [t.h3.get_text(strip=True) for t in tables] == ["Table 1", "Table 2"]
    assert [
        [td.get_text(strip=True) for td in t.select(".seats td:first-child")] for t in tables
    ] == [EIGHT[:4], EIGHT[4:]]
    assert "Not started" in tables[0].get_text()
    # each table links to its game and to its phones page (edit link, PIN, QR code)
    ids = [t.game_id for t in night.rounds[0].tables]
    assert tables[1].h3.a["href"] == f"/games/{ids[1]}"
    assert tables[1].select_one(".links a")["href"] == f"/games/{ids[1]}/share"
    # the phone that seated the round keeps the score of its tables
    assert client.get(f"/games/{ids[1]}/share").status_code == 200
    rows = [
        tr.select("td")[1].get_text(strip=True) for tr in page.select("#night-standings tbody tr")
    ]
    assert sorted(rows) == sorted(EIGHT)
    assert page.select_one("#champion") is None  # no game over yet
    assert (
        "Most wins, then the better average place" in page.select_one("#champion-rule").get_text()
    )


@pytest.mark.parametrize(
    "names, message",
    [
        (EIGHT + ["  aya "], "aya is entered twice."),
        (EIGHT[:6], "A club night needs at least 8 players (two tables); entered: 6."),
        (
            [f"P{n}" for n in range(33)],
            "A club night seats at most 32 players (eight tables); entered: 33.",
        ),
    ],
)
def test_new_club_night__bad_players_the_form_back_with_its_input_and_nothing_stored(
    app, client, names, message
):
    client.get("/")
    before = counts(app)
    response = client.post("/clubs/new", data=form(names, title="Le café"))
    assert response.status_code == 400
    page = soup(response)
    assert message in page.select_one("#problems").get_text()
    assert page.select_one("textarea#players").get_text() == "\n".join(names)
    assert page.select_one("#title")["value"] == "Le café"
    assert counts(app) == before


def test_new_club_night__a_bad_date_is_refused_with_the_input_kept(app, client):
    client.get("/")
    before = counts(app)
    response = client.post("/clubs/new", data=form(EIGHT, played_on="24/11/2026"))
    assert response.status_code == 400
    assert "Enter the date as on a calendar" in soup(response).select_one("#problems").get_text()
    assert counts(app) == before


def test_club_night__thirteen_players_says_who_sits_out(app, client):
    club_id = start(client, THIRTEEN)
    night = club(app, club_id)
    page = soup(client.get(f"/clubs/{club_id}"))
    out = page.select_one("#sitting-out").get_text()
    assert len(night.rounds[0].sitting_out) == 1
    assert f"Sitting out this round: {night.rounds[0].sitting_out[0]}" in out
    assert len(page.select(".club-table")) == 3


def test_club_night__progress_standings_champion_and_the_next_round(app, client):
    club_id = start(client)
    first = club(app, club_id).rounds[0]
    play_out(app, first.tables[0].game_id, deals=7)
    page = soup(client.get(f"/clubs/{club_id}"))
    progress = page.select_one("#table-1 .progress").get_text(" ", strip=True)
    assert progress.startswith("Deal 8 of 20 · kingdom 2 of 4")
    # the next round is refused while tables play, naming them, and offered deliberately
    response = client.post(f"/clubs/{club_id}/rounds", data={})
    assert response.status_code == 409
    page = soup(response)
    assert "Tables still playing round 1: 1, 2." in page.select_one("#problems").get_text()
    assert page.select_one("#start-anyway") is not None
    assert len(club(app, club_id).rounds) == 1
    play_out(app, first.tables[0].game_id, after=7)  # the rest of table 1's deals
    play_out(app, first.tables[1].game_id)
    page = soup(client.get(f"/clubs/{club_id}"))
    assert "Finished" in page.select_one("#table-1 .progress").get_text()
    ranked = [
        tr.select("td")[1].get_text(strip=True) for tr in page.select("#night-standings tbody tr")
    ]
    db = connect(app.config["DATABASE"])
    try:
        expected = [
            r["name"]
            for r in clubnights.night_standings(
                db, [t.game_id for t in first.tables], players=EIGHT
            )
        ]
    finally:
        db.close()
    assert ranked == expected
    assert page.select_one("#champion").get_text(strip=True).endswith(expected[0])
    response = client.post(f"/clubs/{club_id}/rounds", data={})
    assert response.status_code == 303
    second = club(app, club_id).rounds[1]
    assert set(second.tables[0].players) == set(expected[:4])  # the top four at table 1
    page = soup(client.get(f"/clubs/{club_id}"))
    assert "Round 2 of 3" in page.select_one("h2").get_text()
    assert len(page.select(".earlier")) == 1


def test_club_night__start_anyway_when_asked(app, client):
    club_id = start(client)
    response = client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"})
    assert response.status_code == 303
    assert len(club(app, club_id).rounds) == 2


def test_club_night__all_rounds_seated_is_refused(app, client):
    club_id = start(client, rounds="1")
    response = client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"})
    assert response.status_code == 409
    assert "Every round of this night has been seated (1)." in soup(response).get_text()
    assert soup(response).select_one("#start-anyway") is None


def test_wall_view_and_its_state_follow_the_tables(app, client):
    club_id = start(client)
    first = club(app, club_id).rounds[0]
    wall = soup(client.get(f"/clubs/{club_id}/wall"))
    assert wall.select_one("main.wall") is not None
    assert wall.select_one("#live")["data-poll"] == f"/clubs/{club_id}/state.json"
    assert not wall.select("form")  # read-only
    state = client.get(f"/clubs/{club_id}/state.json")
    version = state.get_json()["version"]
    assert state.headers["ETag"].strip('"') == version
    assert (
        client.get(
            f"/clubs/{club_id}/state.json", headers={"If-None-Match": f'"{version}"'}
        ).status_code
        == 304
    )
    play_out(app, first.tables[1].game_id, deals=3)
    state = client.get(f"/clubs/{club_id}/state.json", headers={"If-None-Match": f'"{version}"'})
    assert state.status_code == 200
    assert state.get_json()["tables"][1]["deals"] == 3
    wall = soup(client.get(f"/clubs/{club_id}/wall"))
    assert wall.select_one("#live")["data-version"] == state.get_json()["version"]
    assert "Deal 4" in wall.select_one("#table-2 .progress").get_text()


def test_unknown_club_night_is_a_404(client):
    for path in ("/clubs/99", "/clubs/99/wall", "/clubs/99/state.json", "/clubs/99/standings.pdf"):
        assert client.get(path).status_code == 404


def test_the_night_page_has_standings_of_its_own_and_names_its_champion(app, client):
    club_id = start(client)
    first = club(app, club_id).rounds[0]
    play_out(app, first.tables[0].game_id)
    play_out(app, first.tables[1].game_id, deals=5)  # still playing: points, no place
    page = soup(client.get("/history/nights/2026-11-24"))
    rows = [
        [td.get_text(strip=True) for td in tr.select("td")]
        for tr in page.select("#night-standings tbody tr")
    ]
    db = connect(app.config["DATABASE"])
    try:
        expected = clubnights.night_standings(db, [t.game_id for t in first.tables])
        totals = {
            r["name"]: r["total"]
            for r in db.query(
                "select p.name, gp.total from game_players gp join players p on p.id = gp.player_id"
            )
        }
    finally:
        db.close()
    assert [r[1] for r in rows] == [r["name"] for r in expected]
    for row in rows:
        place, name, wins, places, points, games = row
        assert games == "1" and int(points.replace("−", "-")) == totals[name]
    winner = rows[0][1]
    assert rows[0][2] == "1" and rows[0][3] == "1·0·0·0"
    assert (
        " ".join(page.select_one("#champion").get_text(" ").split())
        == f"★ Champion of the night: {winner}"
    )
    assert (
        "Most wins, then the better average place, then the higher total."
        in page.select_one("#champion-rule").get_text()
    )


@pytest.mark.parametrize(
    "doc, played, total",
    [
        (standard_game(), 0, 20),
        (standard_game(), 7, 20),
        (standard_game(), 20, 20),
        (complex_game(), 0, 8),
        (complex_game(), 3, 8),
        # two deals thrown in: their contracts are played again, the game is two deals longer
        ("thrown", 7, 22),
        (complex_game(rules={"combining": "combination"}), 2, None),
    ],
)
def test_a_tables_deal_count_counts_its_redeals(doc, played, total):
    from scorekeeper.engine import read_game
    from scorekeeper.web.pages.clubs import deals_planned

    if doc == "thrown":
        doc = standard_game()
        throw = {"king": 0, "thrown_in": {"reason": "misdeal", "by": 1}}
        doc["deals"] = [doc["deals"][0], throw, doc["deals"][1], throw, *doc["deals"][2:]]
    doc = {**doc, "deals": doc["deals"][:played]}
    game = read_game(doc)
    assert deals_planned(game.rules, game.progress()) == total


def test_the_night_page_leads_to_its_club_night(app, client):
    club_id = start(client)
    link = soup(client.get("/history/nights/2026-11-24")).select_one(".club-link a")
    assert link["href"] == f"/clubs/{club_id}"
    assert " ".join(link.get_text(" ").split()) == "The club night: Café"


def test_a_partnership_night_at_random__everyone_seated_once_and_the_partners_printed(app, client):
    club_id = start(client, THIRTEEN, preset="partnership", first_round="random")
    night = club(app, club_id)
    assert night.partnership and night.rules.partnership
    first = night.rounds[0]
    seated = [p for t in first.tables for p in t.players] + list(first.sitting_out)
    assert sorted(seated) == sorted(THIRTEEN) and len(first.sitting_out) == 1
    page = soup(client.get(f"/clubs/{club_id}"))
    assert "Partnership" in page.select_one("h1 + p").get_text()
    from test_pdf_arabic import holds, logical_text

    text = logical_text(client.get(f"/clubs/{club_id}/rounds/1/seating.pdf?lang=en").data)
    table = first.tables[0].players
    assert holds(text, f"{table[0]} & {table[2]}") and holds(text, "Partners sit opposite")


def test_custom_rules_reach_every_table_and_a_too_long_title_is_refused(app, client):
    club_id = start(
        client,
        preset="custom",
        partnership="y",
        doubling="y",
        combining="complex",
        self_capture="single",
        team_result="sum",
        rotation="right",
    )
    night = club(app, club_id)
    assert night.rules.partnership and night.rules.combining == "complex"
    db = connect(app.config["DATABASE"])
    try:
        games = [storage.load_game(db, t.game_id).game for t in night.rounds[0].tables]
    finally:
        db.close()
    assert all(g.rules == night.rules for g in games)
    before = counts(app)
    response = client.post("/clubs/new", data=form(EIGHT, title="x" * 97))
    assert response.status_code == 400 and counts(app) == before
    assert "A title has at most 96 characters." in soup(response).select_one("#problems").get_text()


def test_the_largest_club_night_page_stays_under_40_kb_on_first_load(app, client):
    """32 players with names of the most characters, in Arabic (two bytes a letter), after
    twelve rounds: the page with its stylesheets and scripts. (The browser test of every page
    measures a smaller night the same way, with the browser.)"""
    from scorekeeper.engine.gamefile import NAME_LIMIT

    names = [(f"{n:02d} " + "ليلى عبد الرحمن الحسيني " * 3)[:NAME_LIMIT] for n in range(32)]
    club_id = start(client, names, rounds="12", first_round="random")
    for _ in range(11):
        assert client.post(f"/clubs/{club_id}/rounds", data={"anyway": "1"}).status_code == 303
    client.set_cookie("lang", "ar")
    for path in (f"/clubs/{club_id}", f"/clubs/{club_id}/wall"):
        html = client.get(path).get_data()
        weight = first_load(client, html)
        assert weight <= 40 * 1024, (path, len(html), weight)


def test_a_phone_that_only_watches_gets_no_table_links_to_hand_out(app, client):
    club_id = start(client)
    watcher = app.test_client()
    page = soup(watcher.get(f"/clubs/{club_id}"))
    assert len(page.select(".club-table")) == 2 and not page.select(".club-table .links")
    page = soup(client.get(f"/clubs/{club_id}"))
    assert len(page.select(".club-table .links")) == 2


def test_table_titles__in_the_language_of_the_phone_that_seats_the_round(app, client):
    """Each table's game is titled in the words of the phone that seats its round, so an
    Arabic table reads no English in its game's title."""
    client.set_cookie("lang", "ar")
    club_id = start(client, title="مقهى الروضة")
    night = club(app, club_id)
    db = connect(app.config["DATABASE"])
    try:
        titles = [storage.load_game(db, t.game_id).row["title"] for t in night.rounds[0].tables]
    finally:
        db.close()
    assert titles == ["مقهى الروضة، الجولة 1، الطاولة 1", "مقهى الروضة، الجولة 1، الطاولة 2"]
    client.set_cookie("lang", "en")
    for table in night.rounds[0].tables:
        play_out(app, table.game_id)
    form_page = soup(client.get(f"/clubs/{club_id}"))
    fields = {i["name"]: i.get("value", "") for i in form_page.select("form#next-round input")}
    assert client.post(f"/clubs/{club_id}/rounds", data=fields).status_code == 303
    second = club(app, club_id).rounds[1].tables[0].game_id
    db = connect(app.config["DATABASE"])
    try:
        assert storage.load_game(db, second).row["title"] == "مقهى الروضة, round 2, table 1"
    finally:
        db.close()
