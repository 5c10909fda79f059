"""Ratings (store.ratings): openskill's Plackett-Luce on the final places of finished games, in
order of play; always equal to rating every finished game again from scratch."""

from __future__ import annotations

import json

import pytest
from openskill.models import PlackettLuce

from gamebuilder import standard_game
from history_helpers import simulated_games
from scorekeeper.engine import HouseRules, read_game
from scorekeeper.store import players, ratings, storage, transfer
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate

NAMES = ["Aya", "Bilal", "Carla", "Dana"]


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "ratings.sqlite3")
    migrate(database)
    yield database
    database.close()


def snapshot(db) -> tuple[list, list]:
    return (
        sorted(tuple(r.values()) for r in db.query("select * from ratings")),
        sorted(tuple(r.values()) for r in db.query("select * from rating_changes")),
    )


def assert_equal_to_a_recomputation(db) -> None:
    kept = snapshot(db)
    ratings.recompute(db)
    assert snapshot(db) == kept


def game_with_totals_order(first: int, night: str, names=NAMES, **rules) -> dict:
    """A finished standard game, played on *night*, in which seat *first* finishes first in
    every Trex deal."""
    doc = standard_game(rules=rules or None, players=list(names))
    doc["played_on"] = night
    for deal in doc["deals"]:
        if deal["contracts"] == ["trex"]:
            others = [s for s in deal["trex_order"] if s != first]
            deal["trex_order"] = [first, *others]
    return doc


def import_one(db, doc) -> int:
    [game_id] = transfer.import_games(db, [read_game(doc)]).ids
    return game_id


# -- a worked example, by hand against openskill ---------------------------------------------
def test_three_games_rated_as_openskill_rates_them(db):
    docs = [game_with_totals_order(s, f"2026-11-{20 + i}") for i, s in enumerate((0, 1, 0))]
    games = [read_game(d) for d in docs]
    for doc in docs:
        import_one(db, doc)
    model = PlackettLuce()
    mine = {name: model.rating() for name in NAMES}
    for game in games:
        places = game.score().places
        rated = model.rate([[mine[n]] for n in game.players], ranks=list(places))
        for name, [new] in zip(game.players, rated):
            mine[name] = new
    table = {r.name: r for r in ratings.table(db)}
    for name in NAMES:
        assert table[name].mu == pytest.approx(mine[name].mu, abs=1e-12)
        assert table[name].sigma == pytest.approx(mine[name].sigma, abs=1e-12)
        assert table[name].games == 3 and table[name].provisional
    # best first by the conservative rating; the shown number is the scaled ordinal
    best = ratings.table(db)[0]
    assert best.name == max(NAMES, key=lambda n: mine[n].mu - 3 * mine[n].sigma)
    assert best.rating == round(1000 + 40 * (mine[best.name].mu - 3 * mine[best.name].sigma))


def test_a_new_player_reads_1000_and_is_provisional_until_five_games(db):
    for i in range(5):
        import_one(db, game_with_totals_order(i % 4, f"2026-10-{10 + i}"))
    table = {r.name: r for r in ratings.table(db)}
    assert all(not r.provisional for r in table.values())
    assert ratings.shown(25.0, 25 / 3) == 1000


# -- ties, reverse scores, partnership -------------------------------------------------------
def test_tied_seats_share_a_place(db):
    doc = standard_game(players=NAMES)
    game = read_game(doc)
    game_id = import_one(db, doc)
    places = list(game.score().places)
    rows = {
        r["player_id"]: r["place"]
        for r in db.query(
            "select player_id, place from rating_changes where game_id = ?", [game_id]
        )
    }
    ids = [
        r["player_id"]
        for r in db.query(
            "select player_id from game_players where game_id = ? order by seat", [game_id]
        )
    ]
    assert [rows[i] for i in ids] == places
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=places)
    got = ratings.of_players(db, ids)
    assert [round(got[i].mu, 9) for i in ids] == [round(t[0].mu, 9) for t in expected]


def test_reverse_scores_rate_the_lowest_total_first(db):
    from test_rules_who_wins import reversed_game

    import_one(db, reversed_game())
    assert ratings.table(db)[0].name == "Aya"  # -110: the lowest total wins


def test_partnership_rates_two_teams_of_two_by_the_team_result(db):
    doc = game_with_totals_order(0, "2026-11-20", partnership=True)
    game = read_game(doc)
    import_one(db, doc)
    model = PlackettLuce()
    team_places = [game.score().places[0], game.score().places[1]]
    expected = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=team_places
    )
    table = {r.name: r for r in ratings.table(db)}
    assert table["Aya"].mu == pytest.approx(expected[0][0].mu)
    assert table["Carla"].mu == pytest.approx(expected[0][1].mu)
    assert table["Bilal"].mu == pytest.approx(expected[1][0].mu)
    assert table["Aya"].mu == table["Carla"].mu and table["Bilal"].mu == table["Dana"].mu


def test_an_unfinished_game_rates_nothing(db):
    doc = game_with_totals_order(0, "2026-11-20")
    doc["deals"] = doc["deals"][:7]
    import_one(db, doc)
    assert ratings.table(db) == [] and snapshot(db) == ([], [])


# -- always equal to a recomputation ---------------------------------------------------------
@pytest.fixture
def night(db):
    """Twelve simulated finished games over four nights, among six players."""
    docs = list(
        simulated_games(
            12, seed=21, per_night=3, pool=("Aya", "Bilal", "Carla", "Dana", "Elias", "Farah")
        )
    )
    transfer.import_games(db, [read_game(d) for d in docs])
    assert_equal_to_a_recomputation(db)
    return db


def test_saving_the_deal_that_finishes_the_latest_game_rates_it_alone(night, monkeypatch):
    db = night
    doc = game_with_totals_order(2, "2026-12-01")
    game_id = storage.create_game(
        db, title="Latest", played_on="2026-12-01", players=NAMES, rules=HouseRules(), first_king=0
    )
    calls = []
    monkeypatch.setattr(ratings, "recompute", lambda db: calls.append(1))
    for number, deal in enumerate(doc["deals"], start=1):
        storage.add_deal(db, game_id, deal, token=f"t{number:02d}" * 8, number=number)
    assert calls == []  # never rated from scratch
    assert ratings.changes_in(db, game_id)
    monkeypatch.undo()
    assert_equal_to_a_recomputation(db)


def test_equal_after_a_correction_of_an_older_game(night):
    db = night
    game_id = next(db.query("select id from games where finished = 1 order by night, id"))["id"]
    stored = storage.load_game(db, game_id)
    deal = next(i for i, d in enumerate(stored.game.deals) if d.trex_order)
    raw = stored.game.deals[deal].to_dict()
    raw["trex_order"] = list(reversed(raw["trex_order"]))
    storage.correct_deal(
        db, game_id, deal + 1, raw, token="c" * 22, version=stored.deals[deal]["version"]
    )
    assert_equal_to_a_recomputation(db)


def test_equal_after_an_undo_that_unfinishes_a_game(night):
    db = night
    row = next(db.query("select id from games where finished = 1 order by night, id"))
    stored = storage.load_game(db, row["id"])
    last = stored.deals[-1]
    storage.undo_deal(db, row["id"], last["id"], version=last["version"])
    assert not ratings.changes_in(db, row["id"])
    assert_equal_to_a_recomputation(db)


def test_equal_after_a_merge_of_two_players(night):
    db = night
    roster = {r["name"]: r["id"] for r in db.query("select id, name from players")}
    # Two spellings of one person who never sat at one table: "Elias" and a new "Elyas".
    doc = game_with_totals_order(1, "2026-10-01", names=["Aya", "Elyas", "Carla", "Dana"])
    import_one(db, doc)
    elyas = next(db.query("select id from players where name = 'Elyas'"))["id"]
    if players.shared_game(db, roster["Elias"], elyas) is None:
        players.merge_players(db, roster["Elias"], elyas)
    assert_equal_to_a_recomputation(db)
    assert "Elyas" not in {r.name for r in ratings.table(db)}


def test_equal_after_importing_an_older_game(night):
    db = night
    import_one(db, game_with_totals_order(3, "2025-01-01"))
    assert_equal_to_a_recomputation(db)


def test_equal_after_a_deleted_game(night):
    db = night
    game_id = next(db.query("select id from games order by night, id"))["id"]
    assert storage.delete_game(db, game_id)
    assert_equal_to_a_recomputation(db)
    assert not ratings.changes_in(db, game_id)


def test_turned_off_nothing_is_kept_and_turned_on_everything_is_rated(night):
    db = night
    kept = snapshot(db)
    ratings.set_enabled(db, False)
    assert snapshot(db) == ([], []) and not ratings.enabled(db)
    import_one(db, game_with_totals_order(0, "2027-01-01"))
    assert snapshot(db) == ([], [])
    ratings.set_enabled(db, True)
    assert ratings.enabled(db) and len(snapshot(db)[1]) == len(kept[1]) + 4
    assert_equal_to_a_recomputation(db)


def test_chances_of_winning_sum_to_one(night):
    db = night
    ids = [r["id"] for r in db.query("select id from players order by id limit 4")]
    chances = ratings.chances(db, ids)
    assert sum(chances) == pytest.approx(1.0) and len(chances) == 4
    team = ratings.chances(db, ids, partnership=True)
    assert team[0] == team[2] and team[0] + team[1] == pytest.approx(1.0)


# -- the command line ------------------------------------------------------------------------
def test_ratings_command_prints_the_table_and_json(tmp_path, capsys):
    from scorekeeper.cli import main
    from scorekeeper.store import open_database

    path = tmp_path / "club.sqlite3"
    db = open_database(path)
    for i in range(2):
        import_one(db, game_with_totals_order(i, f"2026-11-0{i + 1}"))
    expected = ratings.table(db)
    db.close()
    assert main(["ratings", "--db", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in out] == [r.name for r in expected]
    assert out[0] == {
        "player": expected[0].name,
        "rating": expected[0].rating,
        "mu": expected[0].mu,
        "sigma": expected[0].sigma,
        "games": 2,
        "provisional": True,
    }
    assert main(["ratings", "--db", str(path)]) == 0
    text = capsys.readouterr().out
    assert expected[0].name in text.splitlines()[1] and "provisional" in text
    assert main(["ratings", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "There is no database" in capsys.readouterr().err


def test_a_restore_brings_back_the_settings_and_club_nights_and_rates_every_game(tmp_path, capsys):
    from scorekeeper.cli import main
    from scorekeeper.store import clubnights, open_database

    source = tmp_path / "club.sqlite3"
    db = open_database(source)
    for i in range(3):
        import_one(db, game_with_totals_order(i, f"2026-11-0{i + 1}"))
    club_id = clubnights.create(
        db,
        title="Café",
        night="2026-11-24",
        names=NAMES + ["Elias", "Farah", "Ghassan", "Hala"],
        rounds=2,
        rules=HouseRules(),
        seed=None,
    )
    kept = snapshot(db)
    ratings.set_enabled(db, False)
    ratings.set_enabled(db, True)  # the setting row exists, on
    db.close()
    backup = tmp_path / "backup.sqlite3"
    assert main(["backup", "-o", str(backup), "--db", str(source)]) == 0
    target = tmp_path / "restored" / "scorekeeper.sqlite3"
    assert main(["restore", str(backup), "--db", str(target)]) == 0
    capsys.readouterr()
    db = connect(target)
    try:
        assert snapshot(db) == kept
        club = clubnights.load(db, club_id)
        assert club is not None and len(club.rounds[0].tables) == 2
        assert ratings.enabled(db)
    finally:
        db.close()


def test_the_latest_games_of_a_history_are_its_end(night):
    db = night
    for player in ratings.table(db):
        whole = ratings.history(db, player.player_id)
        for latest in (1, 3, len(whole) + 2):
            assert ratings.history(db, player.player_id, latest=latest) == whole[-latest:]
