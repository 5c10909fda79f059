"""Export and import in the game file format: pages, command line, refusals, round trip."""

from __future__ import annotations

import copy
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import cli
from scorekeeper.engine import PRESETS, HouseRules, game_to_dict, loads, read_game
from scorekeeper.engine.simulate import simulate_game
from scorekeeper.web import create_app
from scorekeeper.store import transfer
from scorekeeper.web.pages import transfer as transfer_pages
from scorekeeper.store.db import connect
from scorekeeper.store.schema import migrate

from gamebuilder import standard_game
from history_helpers import import_docs, query, simulated_games
from web_helpers import soup

TABLES = ("games", "game_players", "deals", "deal_history", "seat_contract_stats", "players")


def counts(app) -> dict[str, int]:
    return {t: query(app, f"select count(*) as n from {t}")[0]["n"] for t in TABLES}


def upload(client, data: bytes | str, name: str = "night.json"):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return client.post(
        "/import", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data"
    )


def good_game(**changes) -> dict:
    doc = standard_game(players=["Aya", "Bilal", "Carla", "ليلى"])
    doc.update(changes)
    return doc


def with_scores(doc: dict) -> dict:
    return game_to_dict(read_game(doc), with_scores=True)


# -- export --------------------------------------------------------------------------------
def test_export_game__the_file_format_with_scores_and_totals(app, client):
    doc = next(simulated_games(1, seed=3))
    [game_id] = import_docs(app, [doc])
    response = client.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    exported = response.get_json()
    want = with_scores(doc)
    assert exported["format"] == "trex-game/1"
    for key in ("players", "first_king", "played_on", "title", "deals", "totals"):
        assert exported[key] == want[key], key
    assert all("scores" in deal for deal in exported["deals"])
    assert HouseRules.from_dict(exported["rules"]) == HouseRules.from_dict(doc["rules"])
    assert loads(response.get_data())[0].score().totals == tuple(want["totals"])


def test_export_game__partnership_adds_team_totals_and_result(app, client):
    [game_id] = import_docs(app, [good_game(rules={"partnership": True})])
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert (
        exported["team_totals"]
        == with_scores(good_game(rules={"partnership": True}))["team_totals"]
    )
    assert exported["team_result"] in ("0+2", "1+3", "tie")


def test_export_game__download_names_the_file_and_unknown_game_is_404(app, client):
    [game_id] = import_docs(app, [good_game()])
    response = client.get(f"/games/{game_id}/export.json?download=1")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert f"trex-game-{game_id}-2026-11-20.json" in response.headers["Content-Disposition"]
    assert client.get("/games/999/export.json").status_code == 404


def test_export_night_and_everything__several_games_in_one_document(app, client):
    docs = list(simulated_games(7, seed=4, per_night=3))
    import_docs(app, docs)
    night = client.get("/history/nights/2026-11-20/export.json")
    assert night.status_code == 200
    games = loads(night.get_data())
    assert len(games) == 3 and {g.played_on for g in games} == {"2026-11-20"}
    everything = json.loads(client.get("/history/export.json").get_data())
    assert everything["format"] == "trex-games/1" and len(everything["games"]) == 7
    assert [g["deals"] for g in everything["games"]] == [with_scores(d)["deals"] for d in docs]
    assert client.get("/history/nights/2020-01-01/export.json").status_code == 404
    assert client.get("/history/nights/someday/export.json").status_code == 404


def test_export__keys_the_format_does_not_name_are_kept(app, client):
    doc = good_game(venue="Rami's", deals=[dict(d) for d in good_game()["deals"]])
    doc["deals"][0]["note"] = "first of the night"
    [game_id] = import_docs(app, [doc])
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["venue"] == "Rami's"
    assert exported["deals"][0]["note"] == "first of the night"


# -- import by upload ----------------------------------------------------------------------
def test_import_upload__stores_the_games_and_recomputes_the_scores(app, client):
    docs = list(simulated_games(3, seed=5))
    text = json.dumps({"format": "trex-games/1", "games": [with_scores(d) for d in docs]})
    response = upload(client, text)
    assert response.status_code == 303
    assert counts(app)["games"] == 3
    page = soup(client.get(response.headers["Location"]))
    assert "Imported 3 games." in page.get_text()
    stored = query(app, "select totals_json from games order by id")
    assert [json.loads(r["totals_json"]) for r in stored] == [
        with_scores(d)["totals"] for d in docs
    ]


def test_import_upload__one_game_opens_its_record_and_this_phone_may_correct_it(app, client):
    response = upload(client, json.dumps(good_game()))
    assert response.status_code == 303 and "/history/games/" in response.headers["Location"]
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"/games/{game_id}/deals/3/edit").status_code == 200
    watcher = app.test_client()
    assert watcher.get(f"/games/{game_id}/deals/3/edit").status_code == 403


def test_import_upload__the_same_game_twice_is_stored_once(app, client):
    upload(client, json.dumps(good_game()))
    again = upload(client, json.dumps(good_game()))
    assert counts(app)["games"] == 1
    assert "stored already" in soup(client.get(again.headers["Location"])).get_text()


def test_import_upload__no_file_chosen(app, client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose a game file" in soup(response).get_text()


def test_import_upload__a_file_over_the_limit_is_refused_kindly(app, client, monkeypatch):
    monkeypatch.setattr(transfer_pages, "UPLOAD_LIMIT", 2000)
    response = upload(client, json.dumps(good_game()) + " " * 3000)
    assert response.status_code == 413
    assert "scorekeeper import FILE" in soup(response).get_text()
    assert counts(app)["games"] == 0


def test_import_upload__bigger_than_a_form_with_the_csrf_check_on(tmp_path):
    """The app takes 64 KB a request; the import page takes more, and still checks CSRF."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    client = app.test_client()
    text = json.dumps(
        {"format": "trex-games/1", "games": list(simulated_games(20, seed=8))}, indent=2
    )
    assert len(text) > 64 * 1024
    refused = client.post(
        "/import",
        data={"file": (io.BytesIO(text.encode()), "all.json")},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 400 and "expired" in soup(refused).get_text()
    token = soup(client.get("/import")).select_one("input[name=csrf_token]")["value"]
    response = client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(text.encode()), "all.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert counts(app)["games"] == 20


# -- refusals: nothing stored ----------------------------------------------------------------
def bad_deal() -> str:
    doc = good_game()
    doc["deals"][2]["diamonds"] = [4, 3, 2, 3]  # 12 diamonds
    return json.dumps(doc)


def wrong_totals() -> str:
    doc = with_scores(good_game())
    doc["totals"][0] += 10
    return json.dumps(doc)


def wrong_scores() -> str:
    doc = with_scores(good_game())
    doc["deals"][6]["scores"] = [0, 0, 0, 0]
    return json.dumps(doc)


def one_bad_among_good() -> str:
    games = [with_scores(d) for d in simulated_games(3, seed=9)]
    games[1]["deals"][4] = {
        "king": games[1]["deals"][4]["king"],
        "contracts": ["collections"],
        "tricks": [13, 0, 0, 1],
    }
    return json.dumps({"format": "trex-games/1", "games": games})


REFUSED = {
    "not JSON": ("{this is not json", ["not JSON"]),
    "empty": ("   ", ["empty"]),
    "wrong format version": (json.dumps(good_game(format="trex-game/2")), ["trex-game/2"]),
    "invalid deal": (bad_deal(), ["Deal 3", "Diamonds"]),
    "unknown rule": (json.dumps(good_game(rules={"doubling": True, "jokers": 2})), ["jokers"]),
    "totals that disagree": (wrong_totals(), ["totals given"]),
    "a deal's scores that disagree": (wrong_scores(), ["Deal 7"]),
    "one bad game among good ones": (one_bad_among_good(), ["Game 2, Deal 5"]),
    "no game": (json.dumps({"format": "trex-games/1", "games": []}), ["no game"]),
    "names that become one": (
        json.dumps(good_game(players=["Aya", "Aya ", "Carla", "Dana"])),
        ["Aya"],
    ),
}


@pytest.mark.parametrize("text, expected", REFUSED.values(), ids=REFUSED.keys())
def test_import_upload__refused_files_store_nothing(app, client, text, expected):
    import_docs(app, [next(simulated_games(1, seed=11))])
    before = counts(app)
    response = upload(client, text)
    assert response.status_code == 400
    problems = [li.get_text(" ", strip=True) for li in soup(response).select("#problems li")]
    assert problems
    for fragment in expected:
        assert any(fragment in p for p in problems), (fragment, problems)
    assert counts(app) == before


@pytest.mark.parametrize("text, expected", REFUSED.values(), ids=REFUSED.keys())
def test_import_command__refused_files_print_each_problem_and_store_nothing(
    app, tmp_path, capsys, text, expected
):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    before = counts(app)
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    for fragment in expected:
        assert fragment in err, (fragment, err)
    assert err.strip().splitlines()[-1] == "Nothing was imported."
    assert counts(app) == before


def test_import_command__every_problem_named_with_its_deal(app, tmp_path, capsys):
    doc = good_game()
    doc["deals"][2]["diamonds"] = [4, 3, 2, 3]
    doc["deals"][4]["tricks"] = [3, 3, 3, 3]
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert cli.main(["import", str(tmp_path / "bad.json"), "--db", app.config["DATABASE"]]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "Deal 3, Diamonds",
        "Deal 5, Collections",
    ]


# -- the command line ----------------------------------------------------------------------
def test_import_command__prints_the_id_of_each_game(app, tmp_path, capsys):
    docs = list(simulated_games(3, seed=12))
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"format": "trex-games/1", "games": docs}), encoding="utf-8")
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 0
    ids = [int(line) for line in capsys.readouterr().out.split()]
    assert ids == [r["id"] for r in query(app, "select id from games order by id")]
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.count("stored already") == 3


def test_export_command__game_all_and_night(app, tmp_path, capsys, monkeypatch):
    docs = list(simulated_games(5, seed=13, per_night=2))
    ids = import_docs(app, docs)
    monkeypatch.setenv("SCOREKEEPER_DB", app.config["DATABASE"])  # found without --db
    one = tmp_path / "one.json"
    assert cli.main(["export", "--game", str(ids[1]), "-o", str(one)]) == 0
    assert json.loads(one.read_text())["deals"] == with_scores(docs[1])["deals"]
    everything = tmp_path / "all.json"
    assert cli.main(["export", "--all", "-o", str(everything)]) == 0
    assert len(loads(everything.read_text())) == 5
    night = tmp_path / "night.json"
    assert cli.main(["export", "--all", "--night", "2026-11-20", "-o", str(night)]) == 0
    assert [g.played_on for g in loads(night.read_text())] == ["2026-11-20"] * 2
    assert cli.main(["export", "--night", "2026-11-19"]) == 0
    capsys.readouterr()
    assert cli.main(["export", "--game", "999", "-o", str(tmp_path / "x.json")]) == 1
    assert "no game 999" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
    assert cli.main(["export", "-o", str(tmp_path / "x.json")]) == 2
    assert cli.main(["export", "--all", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite3").exists()


# -- the round trip ------------------------------------------------------------------------
def test_round_trip__everything_into_an_empty_install_gives_the_same_games_players_and_stats(
    app, client, table, tmp_path, capsys
):
    import_docs(app, list(simulated_games(12, seed=21, unfinished_every=5)))
    game_id = table.new_game(("Aya", "Bilal", "Carla", "Nour"), played_on="2026-11-21")
    for deal in standard_game(first_king=0)["deals"][:5]:
        table.enter(game_id, deal)
    fixed = copy.deepcopy(standard_game(first_king=0)["deals"][2])
    fixed["diamonds"] = [5, 2, 2, 4]
    assert table.correct(game_id, 3, fixed).status_code == 303
    backup = tmp_path / "backup.json"
    backup.write_bytes(client.get("/history/export.json").get_data())

    other = tmp_path / "other"
    fresh = create_app(
        {
            "TESTING": True,
            "DATABASE": str(other / "db.sqlite3"),
            "INSTANCE_PATH": str(other / "instance"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    assert cli.main(["import", str(backup), "--db", fresh.config["DATABASE"]]) == 0
    assert len(capsys.readouterr().out.split()) == 13
    again = fresh.test_client()

    def games(c):
        return [
            dict(g, id=None) for g in json.loads(c.get("/history/export.json").get_data())["games"]
        ]

    assert games(again) == games(client)
    assert soup(again.get("/players/")).select("ul.list")[0].get_text(" ", strip=True) == soup(
        client.get("/players/")
    ).select("ul.list")[0].get_text(" ", strip=True)
    assert soup(again.get("/leaderboard")).select_one("table.board").get_text(
        " ", strip=True
    ) == soup(client.get("/leaderboard")).select_one("table.board").get_text(" ", strip=True)
    facts = (
        "select contract, is_king, count(*) n, sum(points) p from seat_contract_stats "
        "group by contract, is_king"
    )
    assert query(fresh, facts) == query(app, facts)
    for name in ("Aya", "Nour"):
        [a] = query(app, "select id from players where name = ?", [name])
        [b] = query(fresh, "select id from players where name = ?", [name])
        mine = soup(client.get(f"/players/{a['id']}")).select_one("main")
        theirs = soup(again.get(f"/players/{b['id']}")).select_one("main")
        for part in ("dl.tiles", "#contract-table", "#doubles", "#trex-places"):
            if mine.select_one(part) is not None:
                assert theirs.select_one(part).get_text(" ", strip=True) == mine.select_one(
                    part
                ).get_text(" ", strip=True)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(sorted(PRESETS)), keep=st.integers(0, 40))
def test_round_trip__any_game_whole_or_in_progress_comes_back_as_it_went(
    tmp_path_factory, seed, preset, keep
):
    doc = simulate_game(seed, PRESETS[preset], "random", players=["Aya", "Bilal", "Carla", "ليلى"])
    doc["deals"] = doc["deals"][:keep]
    db = connect(tmp_path_factory.mktemp("roundtrip") / "db.sqlite3")
    try:
        migrate(db)
        [game_id] = transfer.import_text(db, json.dumps(doc)).ids
        exported = json.loads(transfer.game_json(transfer.stored_game(db, game_id)))
        want = with_scores(doc)
        assert {k: v for k, v in exported.items() if k != "rules"} == {
            k: v for k, v in want.items() if k != "rules"
        }
        assert HouseRules.from_dict(exported["rules"]) == PRESETS[preset]
        again = transfer.import_text(db, json.dumps(exported))
        assert again.ids == [] and again.skipped == [(1, game_id)]
    finally:
        db.close()
