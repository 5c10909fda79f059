"""Club nights in the store (store.clubnights): seated, stored whole or not at all, a new round by
the night's standings, and the night's own standings."""

from __future__ import annotations

import pytest

from gamebuilder import standard_game
from scorekeeper.engine import HouseRules
from scorekeeper.store import clubnights, storage
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused
from scorekeeper.store.schema import migrate

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "Elias", "Farah", "Ghassan", "Hala"]


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "club.sqlite3")
    migrate(database)
    yield database
    database.close()


def play_out(db, game_id: int) -> None:
    for number, deal in enumerate(standard_game()["deals"], start=1):
        storage.add_deal(
            db, game_id, deal, token=f"g{game_id:03d}n{number:02d}" + "z" * 14, number=number
        )


def counts(db) -> dict[str, int]:
    return {
        t: db.execute(f"select count(*) from {t}").fetchone()[0]
        for t in ("club_nights", "club_tables", "games", "players")
    }


def test_a_night_seats_its_first_round_as_entered(db):
    club_id = clubnights.create(
        db, title="Café", night="2026-11-24", names=EIGHT, rounds=3, rules=HouseRules(), seed=None
    )
    club = clubnights.load(db, club_id)
    assert [t.players for t in club.rounds[0].tables] == [tuple(EIGHT[:4]), tuple(EIGHT[4:])]
    game = storage.load_game(db, club.rounds[0].tables[1].game_id)
    assert game.title == "Café, round 1, table 2" and game.played_on == "2026-11-24"
    assert not club.is_over and len(club.game_ids) == 2


@pytest.mark.parametrize(
    "names, message",
    [
        (EIGHT + ["aya"], "aya is entered twice."),
        (EIGHT[:6], "A club night needs at least 8 players (two tables); entered: 6."),
    ],
)
def test_bad_nights_store_nothing(db, names, message):
    before = counts(db)
    with pytest.raises(Refused) as info:
        clubnights.create(
            db, title="x", night="2026-11-24", names=names, rounds=2, rules=HouseRules(), seed=1
        )
    assert str(info.value) == message and counts(db) == before


def test_the_next_round_waits_for_the_tables_unless_asked(db):
    club_id = clubnights.create(
        db, title="Café", night="2026-11-24", names=EIGHT, rounds=2, rules=HouseRules(), seed=5
    )
    club = clubnights.load(db, club_id)
    play_out(db, club.rounds[0].tables[0].game_id)
    before = counts(db)
    with pytest.raises(Refused) as info:
        clubnights.next_round(db, club_id)
    assert str(info.value).startswith("Tables still playing round 1: 2.")
    assert counts(db) == before
    assert clubnights.next_round(db, club_id, even_if_playing=True) == 2
    with pytest.raises(Refused, match=r"Every round of this night has been seated \(2\)"):
        clubnights.next_round(db, club_id, even_if_playing=True)


def test_the_second_round_puts_the_night_s_leaders_at_table_one(db):
    club_id = clubnights.create(
        db, title="Café", night="2026-11-24", names=EIGHT, rounds=2, rules=HouseRules(), seed=None
    )
    club = clubnights.load(db, club_id)
    for table in club.rounds[0].tables:
        play_out(db, table.game_id)
    standings = clubnights.night_standings(db, club.game_ids, players=club.players)
    # In the builder's game seat 2 wins (places 2, 4, 1, 2): Carla and Ghassan won.
    assert [r["name"] for r in standings[:2]] == ["Carla", "Ghassan"]
    assert all(r["finished"] == 1 for r in standings)
    clubnights.next_round(db, club_id)
    club = clubnights.load(db, club_id)
    assert set(club.rounds[1].tables[0].players) == {r["name"] for r in standings[:4]}
    assert club.rounds[0].finished and not club.rounds[1].finished


def test_night_standings_count_wins_places_and_points(db):
    names = EIGHT[:4]
    ids = []
    for _ in range(2):
        game_id = storage.create_game(
            db, title="g", played_on="2026-11-24", players=names, rules=HouseRules(), first_king=0
        )
        play_out(db, game_id)
        ids.append(game_id)
    rows = {r["name"]: r for r in clubnights.night_standings(db, ids)}
    # each game: totals (-15, -35, 65, -15), places (2, 4, 1, 2)
    assert rows["Carla"] == {
        "name": "Carla",
        "games": 2,
        "finished": 2,
        "wins": 2,
        "places": [2, 0, 0, 0],
        "points": 130,
        "average_place": 1.0,
        "place": 1,
    }
    assert rows["Bilal"]["places"] == [0, 0, 0, 2] and rows["Bilal"]["place"] == 4
    assert rows["Aya"]["place"] == 2 and rows["Dana"]["place"] == 3  # same counts: by name


# -- players of a club night: merged, deleted, a seat's name fixed --------------------------
def test_a_merge_moves_the_club_night_of_the_player_merged(db):
    from scorekeeper.store import players

    club_id = clubnights.create(
        db, title="Café", night="2026-11-24", names=EIGHT, rounds=2, rules=HouseRules(), seed=None
    )
    storage.create_game(
        db,
        title="x",
        played_on="2026-11-20",
        players=["Aya B", "Imad", "Jana", "Karim"],
        rules=HouseRules(),
        first_king=0,
    )
    [aya] = [r["id"] for r in db.query("select id from players where name = 'Aya'")]
    [other] = [r["id"] for r in db.query("select id from players where name = 'Aya B'")]
    players.merge_players(db, other, aya)  # the club night's Aya is the other game's Aya B
    club = clubnights.load(db, club_id)
    assert club.players[0] == "Aya B" and "Aya" not in club.players
    assert club.rounds[0].tables[0].players[0] == "Aya B"


def test_two_players_of_one_club_night_are_two_people(db):
    from scorekeeper.store import players

    club_id = clubnights.create(
        db,
        title="Café",
        night="2026-11-24",
        names=EIGHT + ["Imad"],
        rounds=2,
        rules=HouseRules(),
        seed=None,
    )
    ids = {r["name"]: r["id"] for r in db.query("select id, name from players")}
    out = clubnights.load(db, club_id).rounds[0].sitting_out[0]
    sitter = ids[out]
    seated = ids["Aya"]  # never at the same table as the one sitting out
    before = counts(db)
    with pytest.raises(Refused) as info:
        players.merge_players(db, seated, sitter)
    assert str(info.value) == (
        "They are both players of the club night Café, so they are two people and cannot be merged."
    )
    assert counts(db) == before
    with pytest.raises(Refused) as info:  # no game, but the night seats them
        players.delete_player(db, sitter)
    assert "A player of a club night cannot be deleted" in str(info.value)
    assert counts(db) == before


def test_a_seats_name_fixed_in_a_club_game_carries_the_nights_roster_along(db):
    from scorekeeper.store import players

    club_id = clubnights.create(
        db, title="Café", night="2026-11-24", names=EIGHT, rounds=2, rules=HouseRules(), seed=None
    )
    storage.create_game(
        db,
        title="x",
        played_on="2026-11-20",
        players=["Imad", "Jana", "Karim", "Lina"],
        rules=HouseRules(),
        first_king=0,
    )
    game_id = clubnights.load(db, club_id).rounds[0].tables[0].game_id
    # a new spelling: the record itself takes it, in the game and in the night
    assert players.fix_seat_name(db, game_id, 1, "Bilaal") == "Bilaal"
    assert clubnights.load(db, club_id).players[1] == "Bilaal"
    # a player known from another game: the misspelling goes, the night seats Imad
    assert players.fix_seat_name(db, game_id, 1, "Imad") == "Imad"
    club = clubnights.load(db, club_id)
    assert club.players[1] == "Imad" and "Bilaal" not in club.players
    # a player of this night at another table: refused, nothing changed
    before = counts(db)
    with pytest.raises(Refused) as info:
        players.fix_seat_name(db, game_id, 1, "Elias")
    assert str(info.value) == "Elias plays at another table of this club night."
    assert counts(db) == before and clubnights.load(db, club_id).players[1] == "Imad"
