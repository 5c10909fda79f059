"""Knockout tournaments in the store and on the pages (issue 31, "Knockout tournaments"): New
tournament and its refusals (too few players, a player twice, a player still at another
match's game), each with the input kept and nothing stored; the bracket seats the next round
when a round's last game ends, by "Who wins" (reversed scores, pairs under partnership); the
bracket page, the wall view and their state document; the printed bracket on one page in
English and Arabic; the pages within the 40 KB budget."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from werkzeug.datastructures import MultiDict

from gamebuilder import standard_game
from history_helpers import query
from scorekeeper.engine import HouseRules, bracket
from scorekeeper.store import storage, tournaments
from scorekeeper.store.db import connect
from i18n_helpers import english_left
from web_helpers import Table, keep_score, soup

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]
PAIRS = [f"{a} & {b}" for a, b in zip(EIGHT[::2], EIGHT[1::2])]
STATIC = "static"


def form(entrants, **extra) -> dict[str, str]:
    data = {
        "title": "Cup",
        "played_on": "2026-11-26",
        "entrants": "\n".join(entrants),
        "format": "top-two",
        "seeding": "entered",
        "preset": "standard",
    }
    data.update(extra)
    return data


def counts(app) -> dict[str, int]:
    return {
        t: query(app, f"select count(*) as n from {t}")[0]["n"]
        for t in ("tournaments", "tournament_entrants", "tournament_tables", "games", "players")
    }


def start(client, entrants=EIGHT, **extra) -> int:
    response = client.post("/tournaments/new", data=form(entrants, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def play_out(app, game_id: int) -> None:
    """The standard game, whole: seat 1 ends first by its totals, seat 4 last."""
    play_out_in(app.config["DATABASE"], game_id)


def play_out_in(database, game_id: int, *, leave_last: bool = False) -> None:
    """``play_out`` in the database at *database* (a real server's, say); with *leave_last*,
    every deal but the last. Written by the store alone, these writes seat nothing."""
    db = connect(str(database))
    deals = standard_game()["deals"]
    try:
        for number, deal in enumerate(deals[:-1] if leave_last else deals, start=1):
            storage.add_deal(
                db, game_id, deal, token=f"t{game_id:03d}n{number:02d}" + "z" * 14, number=number
            )
    finally:
        db.close()


def finish(client, app, game_id: int) -> None:
    """``play_out``, the last deal entered on the table's page as its phone does: the write
    that ends the match, which seats what is due."""
    play_out_in(app.config["DATABASE"], game_id, leave_last=True)
    keep_score(client, app, game_id)
    Table(client).enter(game_id, standard_game()["deals"][-1])


def confirm_on_page(client, app, game_id: int) -> None:
    """Another phone confirms every deal waiting, with the game page's "Confirm all"."""
    keep_score(client, app, game_id)
    page = soup(client.get(f"/games/{game_id}"))
    form = page.select_one(f"form[action='/games/{game_id}/confirm-all']")
    assert form is not None, "no Confirm all"
    data = MultiDict([(i["name"], i.get("value", "")) for i in form.select("input[type=hidden]")])
    response = client.post(f"/games/{game_id}/confirm-all", data=data)
    assert response.status_code == 303, soup(response).get_text(" ", strip=True)[:2000]


def load(app, tournament_id: int) -> tournaments.Tournament:
    db = connect(app.config["DATABASE"])
    try:
        return tournaments.load(db, tournament_id)
    finally:
        db.close()


def final_totals() -> tuple[int, ...]:
    from scorekeeper.engine.gamefile import read_game

    return read_game(standard_game()).score().totals


# -- New tournament ------------------------------------------------------------------------
def test_new_tournament_seats_the_first_round_as_ordinary_games(client, app):
    tid = start(client)
    t = load(app, tid)
    assert [e[0] for e in t.entrants] == EIGHT  # seeded as entered
    assert [m.table.entrants for m in t.rounds[0]] == [(0, 3, 4, 7), (1, 2, 5, 6)]
    players = query(
        app,
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        f"where gp.game_id = {t.rounds[0][0].game_id} order by gp.seat",
    )
    assert [r["name"] for r in players] == ["Aya", "Dana", "Elias", "Hala"]
    page = soup(client.get(f"/tournaments/{tid}"))
    assert page.select_one("#bracket-rules").get_text(" ", strip=True).count(".") >= 3
    # the organiser hands out each table's phones, edit link, PIN and QR code
    links = [a["href"] for a in page.select(".match .links a")]
    assert links == [f"/games/{m.game_id}/share" for m in t.rounds[0]]


@pytest.mark.parametrize(
    "entrants, extra, words",
    [
        (EIGHT[:4], {}, "at least 6 entrants; entered: 4."),
        (EIGHT[:7], {}, "their count is even; entered: 7."),
        (EIGHT[:7] + ["aya"], {}, "aya is entered twice"),
        (PAIRS[:3], {"format": "pairs", "preset": "partnership"}, "at least 4 entrants"),
        (PAIRS[:3] + ["Imad & bilal"], {"format": "pairs", "preset": "partnership"}, "twice"),
        (["Aya", "Bilal"] + PAIRS[1:], {"format": "pairs", "preset": "partnership"}, "two names"),
        (EIGHT, {"format": "pairs"}, "Pairs play under partnership"),
    ],
)
def test_bad_input_gets_the_form_back_with_the_input_kept_and_nothing_stored(
    client, app, entrants, extra, words
):
    before = counts(app)
    response = client.post("/tournaments/new", data=form(entrants, **extra))
    assert response.status_code == 400
    page = soup(response)
    assert words in page.get_text(" ", strip=True)
    assert page.select_one("textarea[name=entrants]").get_text() == "\n".join(entrants)
    assert counts(app) == before


def test_a_player_still_at_another_matchs_game_is_refused(client, app):
    start(client)
    before = counts(app)
    others = ["Imad", "Jana", "Karim", "Lina", "Maya", "Nour", "Omar", "Dana"]
    response = client.post("/tournaments/new", data=form(others, title="Second cup"))
    assert response.status_code == 400
    assert "Dana is still playing a match of Cup" in soup(response).get_text(" ", strip=True)
    assert counts(app) == before


# -- advancement ----------------------------------------------------------------------------
@pytest.mark.parametrize("reverse", [False, True])
def test_the_winners_go_forward_by_who_wins_even_under_reversed_scores(client, app, reverse):
    extra = {"preset": "custom", "reverse_scores": "y", "combining": "none", "rotation": "right"}
    tid = start(client, **(extra if reverse else {}))
    t = load(app, tid)
    assert t.rules.reverse_scores is reverse
    first = t.rounds[0]
    finish(client, app, first[0].game_id)
    assert len(load(app, tid).rounds) == 1  # one match still playing: no next round yet
    finish(client, app, first[1].game_id)  # the deal that ends the round seats the final
    t = load(app, tid)
    totals = t.rounds[0][0].totals  # as stored: reversed scores negate every deal
    assert totals == tuple(-n if reverse else n for n in final_totals())
    ranked = sorted(range(4), key=lambda s: totals[s], reverse=not reverse)  # lower wins
    expected = sorted(m.table.entrants[s] for m in first for s in ranked[:2])
    assert [m.through for m in t.rounds[0]] == [
        tuple(sorted(m.table.entrants[s] for s in ranked[:2])) for m in first
    ]
    assert len(t.rounds) == 2 and t.rounds[1][0].table.final
    assert sorted(t.rounds[1][0].table.entrants) == expected
    play_out(app, t.rounds[1][0].game_id)
    client.get(f"/tournaments/{tid}")
    t = load(app, tid)
    assert len(t.rounds) == 2
    assert t.champion == t.rounds[1][0].table.entrants[ranked[0]]
    page = soup(client.get(f"/tournaments/{tid}/wall"))
    assert t.name(t.champion) in page.select_one("#champion").get_text()


def test_partnership_pairs_play_two_pairs_a_table_and_the_winning_pair_goes_through(client, app):
    tid = start(client, PAIRS + ["Imad & Jana"], format="pairs", preset="partnership")
    t = load(app, tid)
    assert t.byes == (0, 1, 2)  # five pairs in a bracket of eight: three byes
    (match,) = t.rounds[0]
    assert match.table.entrants == (3, 4)
    seats = query(
        app,
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        f"where gp.game_id = {match.game_id} order by gp.seat",
    )
    assert [r["name"] for r in seats] == ["Ghassan", "Imad", "Hala", "Jana"]  # partners opposite
    finish(client, app, match.game_id)
    t = load(app, tid)
    team = 0 if _team_a_wins() else 1  # the partners' sum: seats 1 and 3 against 2 and 4
    assert t.rounds[0][0].through == ((3, 4)[team],)
    assert sorted(e for m in t.rounds[1] for e in m.table.entrants) == sorted(
        [0, 1, 2, (3, 4)[team]]
    )


def _team_a_wins() -> bool:
    totals = final_totals()
    return totals[0] + totals[2] > totals[1] + totals[3]


def test_state_document_says_304_when_nothing_changed(client, app):
    tid = start(client)
    first = client.get(f"/tournaments/{tid}/state.json")
    assert first.status_code == 200 and len(first.json["matches"]) == 2
    again = client.get(
        f"/tournaments/{tid}/state.json", headers={"If-None-Match": f'"{first.json["version"]}"'}
    )
    assert again.status_code == 304
    play_out(app, load(app, tid).rounds[0][0].game_id)
    assert client.get(f"/tournaments/{tid}/state.json").json["version"] != first.json["version"]


def test_a_member_follows_the_bracket_but_holds_no_table(client, app):
    tid = start(client)
    with client.session_transaction() as session:
        session.clear()
    page = soup(client.get(f"/tournaments/{tid}"))
    assert page.select(".match")
    assert not page.select(".match .links")
    assert page.select_one("#who-organises")


def test_no_such_tournament_is_404(client):
    for url in ("/tournaments/99", "/tournaments/99/wall", "/tournaments/99/state.json"):
        assert client.get(url).status_code == 404


# -- printed, and the page weight ------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("fmt", ["top-two", "pairs"])
def test_printed_bracket_is_one_page_in_both_languages(client, app, lang, fmt):
    """32 players, or 32 pairs (16 matches in the first round), on one page."""
    if fmt == "pairs":
        names = [f"Player {n} & Partner {n}" for n in range(1, 33)]
        tid = start(client, names, format="pairs", preset="partnership")
    else:
        names = [f"Player {n}" for n in range(1, 33)]
        tid = start(client, names)
    response = client.get(f"/tournaments/{tid}/bracket.pdf?lang={lang}")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Player 32" in text
    final = {"en": "Final", "ar": "النهائي"}[lang]
    assert final in text or final[::-1] in text
    assert bracket.round_count(32, fmt) == len(
        soup(client.get(f"/tournaments/{tid}")).select(".round")
    )


def test_tournament_pages_are_within_the_page_budget(client, app):
    from pathlib import Path

    tid = start(client, [f"Player {n}" for n in range(1, 33)])
    for url in ("/tournaments/new", f"/tournaments/{tid}", f"/tournaments/{tid}/wall"):
        response = client.get(url)
        page = soup(response)
        linked = [
            t.get("href") or t.get("src") for t in page.select("link[rel=stylesheet], script[src]")
        ]
        weight = len(response.data) + sum(
            len((Path(STATIC) / u.split("?")[0].removeprefix("/static/")).read_bytes())
            for u in linked
        )
        assert weight <= 40 * 1024, f"{url}: {weight} bytes"


@pytest.mark.parametrize("page", ["/tournaments/new", "/tournaments/{t}", "/tournaments/{t}/wall"])
def test_tournament_pages_in_arabic_right_to_left_with_nothing_left_in_english(client, app, page):
    tid = start(client, PAIRS + ["Imad & Jana"], format="pairs", preset="partnership")
    client.set_cookie("lang", "ar")
    html = soup(client.get(page.format(t=tid)))
    assert (html.html["lang"], html.html["dir"]) == ("ar", "rtl")
    assert english_left(html, also_kept=("Cup",)) == []


def test_a_bye_entrant_is_not_deleted_and_a_merge_carries_the_entry(client, app):
    """A player with a bye has no game yet, but the bracket holds them: deleting them is
    refused; merged into another spelling, their entry follows; two entrants of one tournament
    are two people."""
    from scorekeeper.store import players

    tid = start(client, EIGHT[:6])  # six players: seeds 1 and 2 have byes
    db = connect(app.config["DATABASE"])
    try:
        aya = storage.player_id(db, "Aya")
        spelling = storage.player_id(db, "Aya K.")
        with pytest.raises(Exception, match="tournament"):
            players.delete_player(db, aya)
        with pytest.raises(Exception, match="both entered the tournament Cup"):
            players.merge_players(db, aya, storage.player_id(db, "Bilal"))
        players.merge_players(db, spelling, aya)
    finally:
        db.close()
    assert load(app, tid).entrants[0] == ("Aya K.",)


@pytest.mark.parametrize(
    "sql, expected",
    [
        (None, None),
        ("update tournaments set format = 'swiss'", "format, seeding, games a match"),
        ("update tournaments set confirm = 2", "or confirmation is not one it knows"),
        ("update tournament_tables set entrants_json = '[0, 1, 99, 3]'", "does not seat"),
        ("delete from tournament_entrants where seed = 7", "entrants cannot make"),
        ("update tournaments set rules_json = '{\"partnership\": true}'", "only pairs do"),
    ],
)
def test_a_backup_restores_its_tournaments_each_checked_as_new_tournament(
    client, app, tmp_path, capsys, sql, expected
):
    import sqlite3

    from scorekeeper import cli

    tid = start(client)
    database = app.config["DATABASE"]
    path = tmp_path / "cup.sqlite3"
    assert cli.main(["backup", "-o", str(path), "--db", database]) == 0
    if sql:
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.executescript(sql)
    before = load(app, tid)
    status = cli.main(["restore", str(path), "--db", database])
    err = capsys.readouterr().err
    if expected is None:
        assert status == 0, err
        assert load(app, tid) == before
    else:
        assert status == 2 and expected in err and "Traceback" not in err, err
        assert load(app, tid) == before


def test_best_of_three_plays_a_second_game_and_the_pair_with_two_wins_goes_through(client, app):
    """The setting "the best of three" (pairs): the table's next game is seated when a game
    ends with the match undecided; the pair that wins two goes through."""
    tid = start(client, PAIRS, format="pairs", preset="partnership", best_of="3")
    t = load(app, tid)
    assert t.best_of == 3
    first = t.rounds[0][0]
    finish(client, app, first.game_id)
    match = load(app, tid).rounds[0][0]
    assert len(match.games) == 2 and not match.finished  # one win is not enough
    assert len(load(app, tid).rounds) == 1
    page = soup(client.get(f"/tournaments/{tid}"))
    assert "best of three" in page.select_one("#bracket-rules").get_text()
    assert [a["href"] for a in page.select("#match-1-1 .table a")][1:] == [
        f"/games/{g.game_id}" for g in match.games
    ]
    finish(client, app, match.game_id)  # the same seats win again: two wins
    t = load(app, tid)
    winner = (0, 3)[0 if _team_a_wins() else 1]
    assert t.rounds[0][0].through == (winner,) and len(t.rounds[0][0].games) == 2
    assert len(t.rounds) == 1 and len(t.rounds[0][1].games) == 1  # the other match plays on


def test_best_of_three_is_for_pairs(client, app):
    before = counts(app)
    response = client.post("/tournaments/new", data=form(EIGHT, best_of="3"))
    assert response.status_code == 400
    assert "best of three is played by pairs" in soup(response).get_text(" ", strip=True)
    assert counts(app) == before


def test_seeding_by_rating_puts_the_best_rated_first_and_the_unrated_after_as_entered(app):
    """Seeding "by rating": the group's ratings (store/ratings.py), best first; a pair by its
    two added; the unrated after the rated, in their order of entry."""
    db = connect(app.config["DATABASE"])
    try:
        for name, mu in (("Farah", 30.0), ("Carla", 28.0), ("Hala", 20.0)):
            db.table("ratings").insert(
                {"player_id": storage.player_id(db, name), "mu": mu, "sigma": 2.0, "games": 9}
            )
        tid = tournaments.create(
            db,
            title="Cup",
            played_on="2026-11-26",
            entrants=[(n,) for n in EIGHT],
            fmt="top-two",
            seeding="rating",
            rules=HouseRules(),
        )
        t = tournaments.load(db, tid)
    finally:
        db.close()
    order = [e[0] for e in t.entrants]
    assert order == ["Farah", "Carla", "Hala", "Aya", "Bilal", "Dana", "Elias", "Ghassan"]


def test_random_seeding_is_drawn_once_and_kept(app):
    db = connect(app.config["DATABASE"])
    try:
        made = [
            tournaments.create(
                db,
                title=f"Cup {n}",
                played_on="2026-11-26",
                entrants=[(f"{p} {n}",) for p in EIGHT],
                fmt="top-two",
                seeding="random",
                rules=HouseRules(),
                seed=7,
            )
            for n in (1, 2)
        ]
        orders = [[e[0].split()[0] for e in tournaments.load(db, t).entrants] for t in made]
        seeds = [r["seed"] for r in db.query("select seed from tournaments order by id")]
    finally:
        db.close()
    assert orders[0] == orders[1] != EIGHT  # the same seed draws the same order
    assert seeds == [7, 7]


def test_the_organiser_link_gives_another_phone_the_tables(client, app):
    """As a club night's: the organiser hands the running to another phone by a secret link;
    a made-up key leads nowhere."""
    tid = start(client)
    link = soup(client.get(f"/tournaments/{tid}")).select_one("#organiser-link").get_text()
    path = "/" + link.split("/", 3)[3]
    other = app.test_client()
    assert not soup(other.get(f"/tournaments/{tid}")).select(".match .links")
    assert other.get(path.rsplit("/", 1)[0] + "/" + "0" * 32).status_code == 404
    assert other.get(path).status_code == 303
    page = soup(other.get(f"/tournaments/{tid}"))
    assert len(page.select(".match .links")) == 2 and page.select_one("#organiser-link")


# -- confirmation by the other side, on by default in a tournament ---------------------------
def confirm_all(app, game_id: int) -> None:
    """A phone of the other side confirms every deal of the game waiting for it."""
    from scorekeeper.store import confirmations, confirming

    db = connect(app.config["DATABASE"])
    try:
        for number in confirmations.unconfirmed_deals(db, game_id):
            row = next(
                db.query(
                    "select id, version from deals where game_id = ? and number = ?",
                    [game_id, number],
                )
            )
            confirming.confirm(
                db,
                game_id,
                number,
                version=row["version"],
                deal_id=row["id"],
                by=confirmations.Phone("b" * 32, None, False),
            )
    finally:
        db.close()


def test_new_tournament_asks_for_confirmation_by_default(client, app):
    box = soup(client.get("/tournaments/new")).select_one("input[name=confirm]")
    assert box is not None and box.has_attr("checked")
    tid = start(client, confirm="y")
    games = [m.game_id for m in load(app, tid).rounds[0]]
    asked = query(app, "select id, confirm from games order by id")
    assert {r["id"]: r["confirm"] for r in asked} == {g: 1 for g in games}
    off = start(client, entrants=[f"{n} 2" for n in EIGHT])  # the box left unticked
    assert {
        r["confirm"] for r in query(app, "select confirm from games where id > ?", [games[-1]])
    } == {0}
    assert load(app, off).confirm is False and load(app, tid).confirm is True


def test_a_match_does_not_end_until_its_last_deal_is_confirmed(client, app):
    """Issue 31: in a tournament, a match does not end until its last deal is
    confirmed; the bracket says it waits, and the next round is seated once it is."""
    tid = start(client, confirm="y")
    first = load(app, tid).rounds[0]
    for match in first:
        play_out(app, match.game_id)
    client.get(f"/tournaments/{tid}/state.json")
    t = load(app, tid)
    assert len(t.rounds) == 1 and [m.finished for m in t.rounds[0]] == [False, False]
    assert [m.waiting for m in t.rounds[0]] == [True, True]
    state = client.get(f"/tournaments/{tid}/state.json").get_json()
    assert [m["waiting"] for m in state["matches"]] == [True, True]
    assert "Waiting for confirmation" in soup(client.get(f"/tournaments/{tid}")).get_text()
    confirm_all(app, first[0].game_id)
    t = load(app, tid)
    assert [m.finished for m in t.rounds[0]] == [True, False] and len(t.rounds) == 1
    confirm_on_page(client, app, first[1].game_id)  # the confirmation that ends the round
    t = load(app, tid)
    assert len(t.rounds) == 2 and t.rounds[1][0].table.final


def test_the_organiser_is_the_admin_of_a_tournaments_tables_confirmations(client, app):
    """A correction of a confirmed deal by the tournament's organiser leaves it confirmed, as
    the club night's organiser's does at a club table."""
    from scorekeeper.store import confirmations

    tid = start(client, confirm="y")
    game = load(app, tid).rounds[0][0].game_id
    db = connect(app.config["DATABASE"])
    try:
        stored = storage.load_game(db, game)
    finally:
        db.close()
    from scorekeeper.web.access import phones, rights

    with app.test_request_context():
        assert phones.tournament_of(game) == tid
        assert not phones.is_game_admin(stored)  # a phone that does not organise it
        rights.grant_tournament(tid)
        assert phones.is_game_admin(stored)
    assert confirmations.is_on(stored.row)
