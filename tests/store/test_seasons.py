"""Seasons (store.seasons, issue 31): a named range of nights, its standings and its hall of
records, read from what storage keeps of each game, and always equal to the same figures
worked out again from scratch by the engine from every stored game's deals."""

from __future__ import annotations

import datetime as dt

import pytest

from gamebuilder import standard_game
from history_helpers import simulated_games
from scorekeeper.engine import Contract, HouseRules, read_game
from scorekeeper.engine.scoring import comeback, contract_scores
from scorekeeper.store import players, ratings, seasons, storage, transfer
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused
from scorekeeper.store.schema import migrate

FIRST, LAST = "2026-09-01", "2026-12-31"


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "seasons.sqlite3")
    migrate(database)
    yield database
    database.close()


@pytest.fixture
def season(db):
    """Twenty-four simulated games over eight nights among six players, two left unfinished."""
    docs = simulated_games(
        24,
        seed=31,
        per_night=3,
        pool=("Aya", "Bilal", "Carla", "Dana", "Elias", "Farah"),
        unfinished_every=12,
    )
    transfer.import_games(db, [read_game(d) for d in docs])
    return db


# -- the reference: every figure from the engine's own reading of every stored game ----------
def played(db, first=FIRST, last=LAST):
    """Each game of the range, finished, in order of play: (order, stored game, its score)."""
    out = []
    for row in db.query("select id, created_at from games"):
        stored = storage.load_game(db, row["id"])
        night = stored.played_on or row["created_at"][:10]
        scored = stored.game.score()
        if scored.is_over and first <= night <= last:
            out.append(((night, row["created_at"], row["id"]), stored, scored))
    return sorted(out, key=lambda g: g[0])


def standings_from_scratch(db, first=FIRST, last=LAST) -> list[tuple]:
    rows: dict[str, dict] = {}
    for _order, stored, scored in played(db, first, last):
        for name, place, total in zip(stored.game.players, scored.places, scored.totals):
            row = rows.setdefault(name, {"games": 0, "places": [0, 0, 0, 0], "points": 0})
            row["games"] += 1
            row["places"][min(place, 4) - 1] += 1
            row["points"] += total
    out = []
    for name, r in rows.items():
        average = sum((i + 1) * n for i, n in enumerate(r["places"])) / r["games"]
        out.append((name, r["games"], r["places"][0], r["places"], average, r["points"]))
    return sorted(out, key=lambda r: (-r[2], r[4], -r[5], r[0]))


def served_standings(db, first=FIRST, last=LAST) -> list[tuple]:
    return [
        (r["name"], r["games"], r["wins"], r["places"], r["average_place"], r["points"])
        for r in seasons.standings(db, first, last)
    ]


def hall_from_scratch(db, first=FIRST, last=LAST) -> seasons.Hall:
    games = played(db, first, last)
    runs: dict[str, int] = {}
    run = kings = trex = back = None
    nights: dict[tuple[str, str], list[int]] = {}
    for order, stored, scored in games:
        names, rules = stored.game.players, stored.game.rules
        for seat, name in enumerate(names):
            runs[name] = runs.get(name, 0) + 1 if scored.places[seat] == 1 else 0
            if runs[name] and (run is None or (-runs[name], order) < (-run[0], run[1])):
                run = (runs[name], order, name)
            tally = nights.setdefault((name, order[0]), [0, 0])
            tally[0] += scored.places[seat] == 1
            tally[1] += 1
        counts = {"kings": [0] * 4, "trex": [0] * 4}
        for deal in stored.game.deals:
            done = contract_scores(deal, rules)
            if Contract.KING_OF_HEARTS in done and deal.king_of_hearts:
                counts["kings"][deal.king_of_hearts.taker] += 1
            if Contract.TREX in done and deal.trex_order:
                counts["trex"][deal.trex_order[0]] += 1
        for kind, found in (("kings", counts["kings"]), ("trex", counts["trex"])):
            for seat, n in enumerate(found):
                best = kings if kind == "kings" else trex
                if n and (best is None or (-n, order, seat) < (-best[0], best[1], best[2])):
                    best = (n, order, seat, names[seat])
                    if kind == "kings":
                        kings = best
                    else:
                        trex = best
        points, deal_number = comeback(scored.deals, rules)
        if points and (back is None or points > back[0]):
            won = tuple(n for n, place in zip(names, scored.places) if place == 1)
            back = (points, order, deal_number, won)
    best_night = None
    if nights:
        (name, night), (wins, count) = min(
            ((k, v) for k, v in nights.items() if v[0]),
            key=lambda kv: (-kv[1][0], kv[1][1], kv[0][1], storage.name_key(kv[0][0])),
        )
        best_night = {"name": name, "night": night, "wins": wins, "games": count}

    def record(kind, found):
        if found is None:
            return None
        return seasons.Record(kind, found[0], (found[-1],), found[1][2], found[1][0])

    return seasons.Hall(
        best_night=best_night,
        records={
            "run": None
            if run is None
            else seasons.Record("run", run[0], (run[2],), run[1][2], run[1][0]),
            "kings": record("kings", kings),
            "comeback": None
            if back is None
            else seasons.Record("comeback", back[0], back[3], back[1][2], back[1][0], back[2]),
            "trex": record("trex", trex),
        },
    )


def rating_changes_after_a_recompute(db) -> dict[str, int | None]:
    kept = {r["name"]: r["rating_change"] for r in seasons.standings(db, FIRST, LAST)}
    ratings.recompute(db)
    again = {r["name"]: r["rating_change"] for r in seasons.standings(db, FIRST, LAST)}
    assert again == kept
    return kept


def assert_equal_to_a_recomputation(db) -> None:
    assert served_standings(db) == standings_from_scratch(db)
    assert seasons.hall(db, FIRST, LAST) == hall_from_scratch(db)
    rating_changes_after_a_recompute(db)


# -- the standings and records equal a recomputation ------------------------------------------
def test_standings_and_records_equal_a_recomputation_from_scratch(season):
    assert_equal_to_a_recomputation(season)
    hall = seasons.hall(season, FIRST, LAST)
    assert all(hall.records[stat.kind] is not None for stat in seasons.RECORDS)
    assert hall.best_night is not None


def test_equal_after_a_correction_of_a_deal(season):
    db = season
    game_id = next(db.query("select id from games where finished = 1 order by night, id"))["id"]
    stored = storage.load_game(db, game_id)
    deal = next(i for i, d in enumerate(stored.game.deals) if d.trex_order)
    raw = stored.game.deals[deal].to_dict()
    raw["trex_order"] = list(reversed(raw["trex_order"]))
    before = seasons.hall(db, FIRST, LAST)
    storage.correct_deal(
        db, game_id, deal + 1, raw, token="c" * 22, version=stored.deals[deal]["version"]
    )
    assert_equal_to_a_recomputation(db)
    assert seasons.hall(db, FIRST, LAST) is not before


def test_equal_after_an_import_of_a_game_file(season):
    db = season
    doc = standard_game(players=["Aya", "Bilal", "Carla", "Zaid"])
    doc["played_on"] = "2026-10-02"
    transfer.import_text(db, __import__("json").dumps(doc))
    assert_equal_to_a_recomputation(db)
    assert "Zaid" in {r[0] for r in served_standings(db)}


def test_equal_after_a_merge_of_players(season):
    db = season
    doc = standard_game(players=["Aya", "Elyas", "Carla", "Dana"])
    doc["played_on"] = "2026-10-03"
    transfer.import_games(db, [read_game(doc)])
    roster = {r["name"]: r["id"] for r in db.query("select id, name from players")}
    assert players.shared_game(db, roster["Elias"], roster["Elyas"]) is None
    elias_games = next(r[1] for r in served_standings(db) if r[0] == "Elias")
    players.merge_players(db, roster["Elias"], roster["Elyas"])
    assert_equal_to_a_recomputation(db)
    served = {r[0]: r for r in served_standings(db)}
    assert "Elyas" not in served and served["Elias"][1] == elias_games + 1


# -- who wins --------------------------------------------------------------------------------
def first_in_every_trex(
    seat: int, night: str, names=("Aya", "Bilal", "Carla", "Dana"), **rules
) -> dict:
    doc = standard_game(rules=rules or None, players=list(names))
    doc["played_on"] = night
    for deal in doc["deals"]:
        if deal["contracts"] == ["trex"]:
            deal["trex_order"] = [seat, *[s for s in deal["trex_order"] if s != seat]]
    return doc


def test_both_partners_of_the_winning_team_win(db):
    doc = first_in_every_trex(0, "2026-10-01", ["Aya", "Bilal", "Carla", "Dana"], partnership=True)
    game = read_game(doc)
    transfer.import_games(db, [game])
    won = {n for n, p in zip(game.players, game.score().places) if p == 1}
    assert len(won) == 2
    rows = {r["name"]: r for r in seasons.standings(db, FIRST, LAST)}
    assert {n for n, r in rows.items() if r["wins"] == 1} == won


def test_reverse_scores_make_the_lowest_total_the_winner(db):
    # Reverse scores negate every deal (RULES.md "Who wins"): the lowest total wins.
    doc = first_in_every_trex(1, "2026-10-02", ["Aya", "Bilal", "Carla", "Dana"])
    doc["rules"] = {"reverse_scores": True}
    transfer.import_games(db, [read_game(doc)])
    totals = read_game(doc).score().totals
    low = doc["players"][min(range(4), key=lambda s: totals[s])]
    high = doc["players"][max(range(4), key=lambda s: totals[s])]
    wins = {r["name"]: r["wins"] for r in seasons.standings(db, "2026-10-02", "2026-10-02")}
    assert wins[low] == 1 and wins[high] == 0 and sum(wins.values()) == 1
    assert seasons.standings(db, "2026-10-02", "2026-10-02")[0]["name"] == low


def test_the_biggest_comeback_follows_the_winning_direction():
    rules, reverse = HouseRules(), HouseRules(reverse_scores=True)
    deals = [(-100, 50, 25, 25), (200, -50, -100, -50)]
    assert comeback(deals, rules) == (150, 1)  # seat 0 won from 150 behind seat 1
    # reversed, seat 2 (the lowest total, -75) won from 125 above seat 0's -100
    assert comeback(deals, reverse) == (125, 1)
    assert comeback([deals[1], deals[0]], reverse) == (0, 0)  # seat 2 led from the start
    assert comeback([(10, -10, 0, 0)], rules) == (0, 0)


# -- seasons as the Settings form keeps them ---------------------------------------------------
def test_a_season_is_a_named_range_and_bad_input_keeps_nothing(db):
    for name, first, last, field in [
        ("", "2026-03-01", "2026-03-31", "name"),
        ("x" * 61, "2026-03-01", "2026-03-31", "name"),
        ("March", "2026-03-31", "2026-03-01", "last_night"),
        ("March", "2026-02-30", "2026-03-01", "first_night"),
        ("March", "2026-03-01", "tomorrow", "last_night"),
    ]:
        assert field in seasons.problems(name, first, last)
        with pytest.raises(Refused):
            seasons.create(db, name, first, last)
    assert seasons.all_seasons(db) == []
    season_id = seasons.create(db, "  Ramadan  ", "2026-02-18", "2026-03-19")
    assert seasons.get(db, season_id) == seasons.Season(
        season_id, "Ramadan", "2026-02-18", "2026-03-19"
    )


def test_a_season_made_from_the_nights_between_two_dates(season):
    db = season
    nights = sorted({r["night"] for r in db.query("select night from games")})
    season_id = seasons.create(db, "Autumn", "2000-01-01", "2100-01-01", from_nights=True)
    got = seasons.get(db, season_id)
    assert (got.first_night, got.last_night) == (nights[0], nights[-1])
    with pytest.raises(Refused):
        seasons.create(db, "Empty", "1990-01-01", "1990-12-31", from_nights=True)


def test_both_days_are_included_and_unfinished_games_left_out(season):
    db = season
    nights = sorted({r["night"] for r in db.query("select night from games")})
    one_night = served_standings(db, nights[0], nights[0])
    finished = next(
        db.query("select count(*) as n from games where finished = 1 and night = ?", [nights[0]])
    )["n"]
    assert sum(r[1] for r in one_night) == 4 * finished
    assert served_standings(db, nights[1], nights[-1]) == standings_from_scratch(
        db, nights[1], nights[-1]
    )
    day_before = (dt.date.fromisoformat(nights[0]) - dt.timedelta(days=1)).isoformat()
    assert served_standings(db, day_before, day_before) == []


def test_a_restore_brings_the_seasons_back_and_refuses_one_the_form_would_not_keep(tmp_path):
    from scorekeeper.store import open_database
    from scorekeeper.store.backup import BackupError, backup_database, restore_database

    path, copy = tmp_path / "club.sqlite3", tmp_path / "copy.sqlite3"
    db = open_database(path)
    season_id = seasons.create(db, "Ramadan", "2026-02-18", "2026-03-19")
    db.close()
    backup_database(path, copy)
    restore_database(copy, tmp_path / "restored.sqlite3")
    db = open_database(tmp_path / "restored.sqlite3")
    assert seasons.get(db, season_id) == seasons.Season(
        season_id, "Ramadan", "2026-02-18", "2026-03-19"
    )
    db.close()
    bad = connect(copy)
    bad.execute("update seasons set last_night = '2026-01-01'")
    bad.conn.commit()
    bad.close()
    with pytest.raises(BackupError, match="season 1: The season ends before it starts"):
        restore_database(copy, tmp_path / "refused.sqlite3")


def test_the_backfill_fills_the_records_of_games_stored_before_their_columns(tmp_path):
    from scorekeeper.store.backfill import up_to_date

    old = connect(tmp_path / "old.sqlite3")
    up_to_date(old)
    docs = simulated_games(9, seed=4, per_night=3, pool=("Aya", "Bilal", "Carla", "Dana"))
    transfer.import_games(old, [read_game(d) for d in docs])
    # as the migration that adds the records' columns leaves the games stored before it
    old.execute("update games set comeback = 0, comeback_deal = null")
    old.execute("update game_players set kh_taken = 0, trex_firsts = 0")
    old.execute("pragma user_version = 0")
    old.conn.commit()
    assert seasons.hall(old, FIRST, LAST).records["comeback"] is None
    up_to_date(old)
    assert served_standings(old) == standings_from_scratch(old)
    assert seasons.hall(old, FIRST, LAST) == hall_from_scratch(old)
    assert seasons.hall(old, FIRST, LAST).records["comeback"] is not None
    old.close()
