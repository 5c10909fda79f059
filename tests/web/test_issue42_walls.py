"""Issue 42, item 3 ("A GET writes"), and what a club night and a tournament share: no GET
changes a bracket (its page, its wall, its polled state, its printed bracket, its wall link);
the next round is seated by the write that ends the round's last match, or on the organiser's
POST; a tournament is read once a request, with as many queries for 32 entrants as for 8."""

from __future__ import annotations

import sqlite3

from history_helpers import query
from scorekeeper.store import tournaments
from scorekeeper.store.db import connect
from test_tournaments import finish, load, play_out, start
from web_helpers import soup

BRACKET_PAGES = ("", "/wall", "/state.json", "/bracket.pdf")


def data_version(conn: sqlite3.Connection) -> int:
    """SQLite's count of the commits other connections made to the database file."""
    return conn.execute("pragma data_version").fetchone()[0]


def wall_key(app, tid: int) -> str:
    from scorekeeper.store import keys

    db = connect(app.config["DATABASE"])
    try:
        return keys.wall_key(db, "tournament", tid)
    finally:
        db.close()


def test_issue42_3__no_get_changes_a_bracket_even_with_a_round_due(client, app):
    """Every match of round 1 is over, written by the store alone (as an import or an older
    version would leave it): reading the bracket, by any phone and any page, seats nothing and
    writes nothing; the organiser's page offers to seat it, and its POST does."""
    tid = start(client)
    for m in load(app, tid).rounds[0]:
        play_out(app, m.game_id)
    key = wall_key(app, tid)
    stranger = app.test_client()  # a member who runs nothing: its reads keep nothing either
    watcher = sqlite3.connect(app.config["DATABASE"])
    try:
        before = data_version(watcher)
        for page in BRACKET_PAGES:
            assert stranger.get(f"/tournaments/{tid}{page}").status_code == 200, page
        for address in (f"/w/{key}", f"/w/{key}/state.json"):
            assert stranger.get(address).status_code == 200, address
        assert data_version(watcher) == before  # not one commit
    finally:
        watcher.close()
    tables = query(app, "select count(*) as n from tournament_tables")[0]["n"]
    for page in BRACKET_PAGES:  # the organiser's reads hand it tables, and seat nothing
        assert client.get(f"/tournaments/{tid}{page}").status_code == 200, page
    assert query(app, "select count(*) as n from tournament_tables")[0]["n"] == tables
    assert len(load(app, tid).rounds) == 1
    assert soup(stranger.get(f"/tournaments/{tid}")).select_one("#seat-due") is None
    offer = soup(client.get(f"/tournaments/{tid}")).select_one("#seat-due form")
    assert offer["action"] == f"/tournaments/{tid}/rounds"
    assert stranger.post(f"/tournaments/{tid}/rounds").status_code == 403
    assert len(load(app, tid).rounds) == 1
    assert client.post(f"/tournaments/{tid}/rounds").status_code == 303  # the organiser's POST
    t = load(app, tid)
    assert len(t.rounds) == 2 and t.rounds[1][0].table.final
    assert soup(client.get(f"/tournaments/{tid}")).select_one("#seat-due") is None


def test_issue42_3__the_deal_that_ends_the_rounds_last_match_seats_the_next_round(client, app):
    """No page is read between the writes: the saving of the deal seats the final, in the
    same request, and the state the wall polls says so at once."""
    tid = start(client)
    first, second = load(app, tid).rounds[0]
    version = client.get(f"/tournaments/{tid}/state.json").json["version"]
    finish(client, app, first.game_id)
    assert len(load(app, tid).rounds) == 1  # the other match still plays
    finish(client, app, second.game_id)
    t = load(app, tid)
    assert len(t.rounds) == 2 and t.rounds[1][0].table.final
    state = client.get(
        f"/tournaments/{tid}/state.json", headers={"If-None-Match": f'"{version}"'}
    ).json
    assert state["round"] == 2 and state["version"] == t.version != version


def test_issue42_3__a_game_of_no_tournament_seats_nothing_and_asks_once(app):
    db = connect(app.config["DATABASE"])
    try:
        statements: list[str] = []
        db.conn.set_trace_callback(statements.append)
        assert tournaments.seat_after(db, 12345) is None
        assert len(statements) == 1
    finally:
        db.close()


def test_issue42_3__a_tournament_is_read_once_a_request(client, app, monkeypatch):
    tid = start(client)
    calls: list[int] = []
    real = tournaments.load

    def counted(db, tournament_id):
        calls.append(tournament_id)
        return real(db, tournament_id)

    monkeypatch.setattr(tournaments, "load", counted)
    for page in BRACKET_PAGES:
        calls.clear()
        assert client.get(f"/tournaments/{tid}{page}").status_code == 200, page
        assert calls == [tid], page


def test_issue42_3__reading_a_bracket_takes_as_many_queries_for_32_entrants_as_for_8(client, app):
    small = start(client)
    large = start(client, [f"Player {n}" for n in range(1, 33)])
    db = connect(app.config["DATABASE"])
    try:
        counts = []
        for tid in (small, large):
            statements: list[str] = []
            db.conn.set_trace_callback(statements.append)
            tournaments.load(db, tid)
            db.conn.set_trace_callback(None)
            counts.append(len(statements))
    finally:
        db.close()
    assert counts[0] == counts[1] <= 4, counts
