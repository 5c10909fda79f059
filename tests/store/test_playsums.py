"""Issue 41: the players' sums per night (store.playsums), kept by m019's triggers in the
transaction of every write, always equal what the facts make from scratch, whatever sequence
of writes came before; and a player's page reads its figures off them."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamebuilder import standard_game
from history_helpers import simulated_games
from scorekeeper.engine import read_game
from scorekeeper.store import (
    backup,
    playsums,
    players,
    ratings,
    seasons,
    stats,
    storage,
    transfer,
)
from scorekeeper.store.backfill import up_to_date
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused

POOL = ("Aya", "Bilal", "Carla", "Dana", "Elias", "Farah")


def fresh(path):
    db = connect(path)
    up_to_date(db)
    docs = simulated_games(8, seed=41, per_night=3, pool=POOL, unfinished_every=4)
    transfer.import_games(db, [read_game(d) for d in docs])
    return db


def play_stats_from_the_facts(db, pid: int, filters: stats.Filters) -> list[tuple]:
    """The figures a player's page shows, added up from every fact row (the query the page
    ran before the sums were kept)."""
    where, params = filters.where()
    return sorted(
        db.execute(
            f"""select s.contract, s.is_king, count(*), sum(s.points),
            coalesce(sum(s.took_kh), 0), coalesce(sum(s.doubles_made), 0),
            coalesce(sum(s.doubles_passed), 0), coalesce(sum(s.doubles_back), 0),
            coalesce(sum(s.took_doubled), 0), sum(s.trex_place is 1), sum(s.trex_place is 2),
            sum(s.trex_place is 3), sum(s.trex_place is 4)
            from game_players gp join seat_contract_stats s
            on s.game_id = gp.game_id and s.seat = gp.seat
            where gp.player_id = ? and {where} group by s.contract, s.is_king""",
            [pid, *params],
        ).fetchall()
    )


def served(db, pid: int, filters: stats.Filters) -> list[tuple]:
    where, params = filters.nights("n")
    return sorted(
        tuple(row[k] for k in ("contract", "is_king", *playsums.SUMS))
        for row in playsums.by_contract(db, pid, where, params)
    )


# -- what the pages read before the sums of m021, each added up from every seat -------------
def head_to_head_from_the_seats(db, pid: int, filters: stats.Filters) -> list[dict]:
    where, params = filters.where("m")
    return list(
        db.query(
            f"""select o.player_id as id, p.name, count(*) as games,
            sum(m.rank < o.rank) as ahead, sum(m.rank > o.rank) as behind,
            sum(m.rank = o.rank) as level, avg(m.total) as my_average,
            avg(o.total) as their_average
            from game_players m join game_players o on o.game_id = m.game_id and o.seat != m.seat
            join players p on p.id = o.player_id where m.player_id = ? and {where}
            group by o.player_id order by games desc, p.name_key""",
            [pid, *params],
        )
    )


def partners_from_the_seats(db, pid: int, filters: stats.Filters) -> list[dict]:
    where, params = filters.where("m")
    rows = list(
        db.query(
            f"""select o.player_id as id, p.name, count(*) as games,
            sum(g.team_result = case m.seat % 2 when 0 then '0+2' else '1+3' end) as won,
            sum(g.team_result = 'tie') as level, avg(m.total + o.total) as team_average
            from game_players m join games g on g.id = m.game_id and g.partnership = 1
            join game_players o on o.game_id = m.game_id and o.seat = (m.seat + 2) % 4
            join players p on p.id = o.player_id where m.player_id = ? and {where}
            group by o.player_id order by games desc, p.name_key""",
            [pid, *params],
        )
    )
    for row in rows:
        row["lost"] = row["games"] - row["won"] - row["level"]
    return rows


def summary_from_the_seats(db, pid: int) -> tuple:
    return db.execute(
        "select count(*), coalesce(sum(rank = 1), 0), avg(total), max(total), min(total) "
        "from game_players where player_id = ? and finished = 1",
        [pid],
    ).fetchone()


def longest_run_from_the_seats(db, first: str, last: str):
    """The season's longest winning run, every seat of the range read in order of play."""
    rows = db.execute(
        f"select gp.player_id, p.name, g.id, g.night, g.created_at, gp.rank "
        f"from games g join game_players gp on gp.game_id = g.id "
        f"join players p on p.id = gp.player_id "
        f"where g.night between ? and ? and g.finished = 1 order by gp.player_id, {seasons.ORDER}",
        [first, last],
    )
    best, current, player = None, 0, None
    for pid, name, game_id, night, created_at, rank in rows:
        current = ((current if pid == player else 0) + 1) if rank == 1 else 0
        player = pid
        order = (night, created_at, game_id)
        if current and (best is None or (-current, order) < (-best[0], best[1])):
            best = (current, order, name)
    return (
        None if best is None else seasons.Record("run", best[0], (best[2],), best[1][2], best[1][0])
    )


def rating_changes_from_the_games(db, first: str, last: str) -> dict[int, int]:
    rows = db.execute(
        f"select distinct c.player_id, first_value(c.mu_before) over w, "
        f"first_value(c.sigma_before) over w, last_value(c.mu_after) over w, "
        f"last_value(c.sigma_after) over w from games g join rating_changes c "
        f"on c.game_id = g.id where g.night between ? and ? and g.finished = 1 "
        f"window w as (partition by c.player_id order by {seasons.ORDER} "
        f"rows between unbounded preceding and unbounded following)",
        [first, last],
    )
    return {p: ratings.shown(m1, s1) - ratings.shown(m0, s0) for p, m0, s0, m1, s1 in rows}


def runs_counted_in_python(db) -> set[tuple]:
    """Each player's runs of each night, counted game by game in order of play."""
    seats = db.execute(
        "select gp.player_id, gp.night, g.id, gp.rank is 1 from game_players gp "
        "join games g on g.id = gp.game_id where gp.finished = 1 and g.finished = 1 "
        "and gp.night is not null order by gp.player_id, gp.night, g.created_at, g.id"
    ).fetchall()
    nights: dict[tuple, list] = {}
    for pid, night, game, won in seats:
        nights.setdefault((pid, night), []).append((game, won))
    out = set()
    for (pid, night), played in nights.items():
        runs, start = [], None  # (first index, last index) of each run of wins
        for i, (_, won) in enumerate(played):
            if won and start is None:
                start = i
            if not won and start is not None:
                runs.append((start, i - 1))
                start = None
        if start is not None:
            runs.append((start, len(played) - 1))
        n = len(played)
        lead = next(((b - a + 1, played[b][0]) for a, b in runs if a == 0), (0, None))
        trail = next((b - a + 1 for a, b in runs if b == n - 1), 0)
        inside = [(b - a + 1, b) for a, b in runs if a > 0 and b < n - 1]
        longest = max((length for length, _ in inside), default=0)
        inner_game = next((played[b][0] for length, b in inside if length == longest), None)
        out.add(
            (
                playsums.RUN_NIGHTS,
                pid,
                night,
                n,
                lead[0],
                lead[1],
                trail,
                played[-1][0],
                longest,
                inner_game,
            )
        )
    return out


def assert_read_as_before(db) -> None:
    """The pages' figures read off the sums equal those added up from every seat."""
    nights = db.execute("select min(night), max(night) from games").fetchone()
    ranges = [nights, ("2026-11-18", "2026-11-19"), ("2026-11-01", "2026-11-17")]
    for first, last in ranges if nights[0] else []:
        assert seasons.longest_run(db, first, last) == longest_run_from_the_seats(db, first, last)
        both_ways = []  # read from the best figure down and night by night; the standings
        for wide in (True, False):  # of the whole record off the sums over every night
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(seasons, "wide", lambda *_, wide=wide: wide)
                if not wide:
                    patch.setattr(seasons, "whole", lambda *_: False)
                both_ways.append(
                    (seasons.hall(db, first, last), seasons.standings(db, first, last))
                )
        assert both_ways[0] == both_ways[1]
        if ratings.enabled(db):
            kept_changes = seasons.rating_changes(db, first, last)
            assert kept_changes == rating_changes_from_the_games(db, first, last)
    board = {
        r["id"]: (r["games"], r["wins"], pytest.approx(r["average"]), r["best"])
        for r in stats.leaderboard(db, stats.Filters())
    }
    assert board == {
        pid: (games, wins, average, best)
        for pid, games, wins, average, best in db.execute(
            "select player_id, count(*), sum(rank = 1), avg(total), max(total) "
            "from game_players where finished = 1 group by player_id"
        )
    }
    for (pid,) in db.execute("select id from players").fetchall():
        row = stats.player_summary(db, pid, stats.Filters())
        games, wins, average, best, worst = summary_from_the_seats(db, pid)
        assert (row["games"], row["wins"], row["best"], row["worst"]) == (games, wins, best, worst)
        assert row["average"] == pytest.approx(average)
        for filters in (
            stats.Filters(),
            stats.Filters("2026-11-18", "2026-11-19"),
            stats.Filters(preset="standard"),
        ):
            for kept_rows, seat_rows in (
                (
                    stats.head_to_head(db, pid, filters),
                    head_to_head_from_the_seats(db, pid, filters),
                ),
                (stats.partners(db, pid, filters), partners_from_the_seats(db, pid, filters)),
            ):
                assert [
                    {k: pytest.approx(v) if isinstance(v, float) else v for k, v in r.items()}
                    for r in seat_rows
                ] == kept_rows


def assert_kept(db) -> None:
    assert playsums.kept(db) == playsums.recomputed(db)
    assert not db.execute("select 1 from settings where key = 'ratings_recomputing'").fetchone()
    kept_runs = {r for r in playsums.kept(db) if r[0] == playsums.RUN_NIGHTS}
    assert kept_runs == runs_counted_in_python(db)
    assert_read_as_before(db)
    assert not db.execute(f"select 1 from {playsums.TABLE} where deals <= 0").fetchone()
    assert not db.execute(f"select 1 from {playsums.NIGHTS} where games <= 0").fetchone()
    for (pid,) in db.execute("select id from players").fetchall():
        for filters in (
            stats.Filters(),
            stats.Filters("2026-11-18", "2026-11-19"),
            stats.Filters(preset="standard"),
        ):
            assert served(db, pid, filters) == play_stats_from_the_facts(db, pid, filters)


# -- the writes a sequence is drawn from ------------------------------------------------------
def games(db, finished: int | None = None) -> list[int]:
    where = "" if finished is None else f"where finished = {finished}"
    return [r[0] for r in db.execute(f"select id from games {where} order by id").fetchall()]


def correct(db, pick: int) -> None:
    ids = games(db, 1)
    if not ids:
        return
    stored = storage.load_game(db, ids[pick % len(ids)])
    deal = next((i for i, d in enumerate(stored.game.deals) if d.trex_order), None)
    if deal is None:
        return
    raw = stored.game.deals[deal].to_dict()
    raw["trex_order"] = list(reversed(raw["trex_order"]))
    storage.correct_deal(
        db,
        stored.id,
        deal + 1,
        raw,
        token=storage.new_form_token(),
        version=stored.deals[deal]["version"],
    )


def undo_last(db, pick: int) -> None:
    ids = games(db)
    stored = storage.load_game(db, ids[pick % len(ids)])
    if stored.deals:
        last = stored.deals[-1]
        storage.undo_deal(db, stored.id, last["id"], version=last["version"])


def delete(db, pick: int) -> None:
    ids = games(db)
    if len(ids) > 1:
        storage.delete_game(db, ids[pick % len(ids)])


def import_one(db, pick: int) -> None:
    doc = standard_game(players=[POOL[(pick + i) % len(POOL)] for i in range(4)])
    doc["played_on"] = f"2026-11-{10 + pick % 10:02d}"
    transfer.import_text(db, json.dumps(doc))


def merge(db, pick: int) -> None:
    ids = [r[0] for r in db.execute("select id from players order by id").fetchall()]
    keep, drop = ids[pick % len(ids)], ids[(pick // 7 + 1) % len(ids)]
    try:
        players.merge_players(db, keep, drop)
    except Refused:
        pass


def move_night(db, pick: int) -> None:
    """A game moved to another night: its row, then its seats, as a path that writes them
    directly would (the seats' copy of the night is what the sums per night are keyed by)."""
    ids = games(db, 1)
    if ids:
        night, game = f"2026-10-{1 + pick % 28:02d}", ids[pick % len(ids)]
        db.execute("update games set night = ? where id = ?", [night, game])
        db.execute("update game_players set night = ? where game_id = ?", [night, game])


def reopen(db, pick: int) -> None:
    """A finished game counted as unfinished again, then finished (its seats' flag)."""
    ids = games(db, 1)
    if ids:
        game = ids[pick % len(ids)]
        for finished in (0, 1):  # the game's row and its seats' copy, as reopening writes them
            db.execute("update games set finished = ? where id = ?", [finished, game])
            db.execute("update game_players set finished = ? where game_id = ?", [finished, game])
            if not finished:
                assert_kept(db)


def rename(db, pick: int) -> None:
    ids = [r[0] for r in db.execute("select id from players order by id").fetchall()]
    try:
        players.rename_player(db, ids[pick % len(ids)], f"Renamed {pick}")
    except Refused:
        pass


def rate_again(db, pick: int) -> None:
    """The ratings turned off and on again: every rating change written anew."""
    ratings.set_enabled(db, False)
    ratings.set_enabled(db, True)
    ratings.recompute(db)


def replay_order(db, pick: int) -> None:
    """A game's start moved (its order of play among its night's games)."""
    ids = games(db, 1)
    if ids:
        db.execute(
            "update games set created_at = ? where id = ?",
            [f"2026-11-{1 + pick % 28:02d}T0{pick % 10}:00:00+00:00", ids[pick % len(ids)]],
        )


def team_result(db, pick: int) -> None:
    """A partnership game's result written again, as another team's (the games' row)."""
    row = db.execute("select id from games where partnership = 1 and finished = 1").fetchall()
    if row:
        game = row[pick % len(row)][0]
        result = ("0+2", "1+3", "tie")[pick % 3]
        db.execute("update games set team_result = ? where id = ?", [result, game])


WRITES = [
    correct,
    undo_last,
    delete,
    import_one,
    merge,
    move_night,
    reopen,
    rename,
    rate_again,
    replay_order,
    team_result,
]


def test_issue41_2__the_sums_equal_a_recomputation_after_the_import(tmp_path):
    db = fresh(tmp_path / "g.sqlite3")
    assert playsums.kept(db)  # something is kept: the check below can fail
    kept_tables = {row[0] for row in playsums.kept(db)}
    assert kept_tables == {
        playsums.TABLE,
        playsums.NIGHTS,
        playsums.PAIRS,
        playsums.RATING_NIGHTS,
        playsums.RUN_NIGHTS,
        *(rollup[0] for rollup in playsums.ROLLUPS),
    }
    assert_kept(db)
    db.close()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(st.tuples(st.sampled_from(WRITES), st.integers(0, 10_000)), max_size=6))
def test_issue41_2__the_sums_equal_a_recomputation_after_any_sequence_of_writes(
    tmp_path_factory, steps
):
    db = fresh(tmp_path_factory.mktemp("seq") / "g.sqlite3")
    try:
        for write, pick in steps:
            with db.atomic():
                write(db, pick)
            assert_kept(db)
    finally:
        db.close()


def test_issue41_2__a_failed_write_leaves_the_sums_as_they_were(tmp_path):
    db = fresh(tmp_path / "g.sqlite3")
    before = playsums.kept(db)
    game = games(db, 1)[0]
    with pytest.raises(RuntimeError), db.atomic():
        db.execute("delete from seat_contract_stats where game_id = ?", [game])
        raise RuntimeError("the write fails part-way")
    assert playsums.kept(db) == before
    db.close()


def test_issue41_2__the_backfill_fills_the_sums_of_games_stored_before_them(tmp_path):
    db = fresh(tmp_path / "g.sqlite3")
    kept = playsums.kept(db)
    for table in {row[0] for row in kept}:  # as m019 and m021 leave the games stored before
        db.execute(f"delete from {table}")
    db.execute("pragma user_version = 2")
    db.conn.commit()
    up_to_date(db)
    assert playsums.kept(db) == kept == playsums.recomputed(db)
    db.close()


def test_issue41_2__a_backup_from_before_the_sums_restores_with_them(tmp_path):
    """A backup that recorded no m021 (nor m019) is restored through the migrations: the rows
    copied before the sums' tables existed, then every game scored again, leave the sums equal
    to a recomputation."""
    db = fresh(tmp_path / "g.sqlite3")
    db.close()
    with closing(sqlite3.connect(tmp_path / "g.sqlite3")) as conn, conn:
        conn.execute(
            "delete from _sqlite_migrations where name in "
            "('m019_player_contract_nights', 'm020_group_version', 'm021_looking_back_sums')"
        )
    backup.restore_database(tmp_path / "g.sqlite3", tmp_path / "restored.sqlite3")
    restored = connect(tmp_path / "restored.sqlite3")
    try:
        assert playsums.kept(restored)
        assert_kept(restored)
    finally:
        restored.close()


def test_issue41_2__the_players_page_shows_the_figures_of_the_facts(tmp_path):
    db = fresh(tmp_path / "g.sqlite3")
    pid = db.execute("select id from players where name = 'Aya'").fetchone()[0]
    shown = stats.play_stats(db, pid, stats.Filters())
    rows = play_stats_from_the_facts(db, pid, stats.Filters())
    assert sum(r[2] for r in rows) == sum(
        line.king_deals + line.other_deals for line in shown.contracts
    )
    assert sum(r[3] for r in rows) == sum(
        line.king_points + line.other_points for line in shown.contracts
    )
    assert shown.trex_deals == sum(sum(r[9:13]) for r in rows if r[0] == "trex")
    db.close()
