"""Regression tests of what a hostile phone or file found, each through the route or the command
where it was found: four answers of 500, the table's words printed as markup, invisible names,
names unchecked on the blank sheet, players counted from 0, unknown keys kept at any size and
duplicate keys resolved silently."""

from __future__ import annotations

import io
import json

import pytest

from scorekeeper import cli
from scorekeeper.engine import Problem, loads
from scorekeeper.engine.gamefile import EXTRA_LIMIT, NAME_LIMIT
from scorekeeper.web.access.security import safe_path

from gamebuilder import standard_game
from history_helpers import import_docs, query
from web_helpers import OWN_LINK, PLAYERS, be_admin, soup

NEW_GAME = {
    **{f"player_{s}": n for s, n in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}
INVISIBLE = ["\u202e", "\u200b", "\u200b\u200b \u200e", "\u3164", "\u2066\u2069"]


def counts(app) -> dict[str, int]:
    return {
        t: query(app, f"select count(*) as n from {t}")[0]["n"]
        for t in ("games", "players", "deals")
    }


def upload(client, data: bytes | str):
    data = data.encode("utf-8") if isinstance(data, str) else data
    return client.post(
        "/import",
        data={"file": (io.BytesIO(data), "night.json")},
        content_type="multipart/form-data",
    )


# -- 2. four answers of 500 -----------------------------------------------------------------
@pytest.mark.parametrize("other", ["²", "9" * 5000, "١", " 2", "-2", "2.0"])
def test_500__merge_with_an_other_that_is_not_a_plain_number(app, client, table, other):
    table.new_game()
    be_admin(client, app)
    before = counts(app)
    assert client.post("/players/1/merge", data={"other": other}).status_code == 400
    assert client.get("/players/1/merge", query_string={"other": other}).status_code in (200, 404)
    assert counts(app) == before


@pytest.mark.parametrize("url", ["/lang/en", "/lang/ar", "/digits/arabic", "/digits/western"])
@pytest.mark.parametrize(
    "target",
    [
        "/%0D%0Ax",
        "/%0Ax",
        "/x%00",
        "/\u2028x",
        "/%2e%2e/%2e%2e/x",
        "//evil.example",
        "/\\evil.example",
    ],
)
@pytest.mark.slow
def test_500__language_and_digits_switch_with_a_next_that_is_no_place(client, url, target):
    response = client.get(f"{url}?next={target}", headers=OWN_LINK)
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_500__settings_with_a_next_that_is_no_place(client):
    response = client.get("/settings?next=/%0D%0Ax")
    assert response.status_code == 200
    assert "\r" not in response.get_data(as_text=True)
    assert (
        client.post("/settings/words", data={"next": "/\r\nx"})
        .headers["Location"]
        .endswith("next=/")
    )


def test_safe_path__the_one_check_of_a_go_back_address():
    assert safe_path("/games/3?x=1") == "/games/3?x=1"
    assert safe_path("/history/?player=ليلى") == "/history/?player=ليلى"
    assert safe_path("/games/3/deals/new", within="/games/3") == "/games/3/deals/new"
    for bad in (
        "https://evil.example/",
        "//evil",
        "/\\evil",
        "",
        None,
        "games",
        "/a\r\nb",
        "/a\tb",
        "/%2E%2E/x",
        "/x/../y",
        "/" + "a" * 3000,
        7,
    ):
        assert safe_path(bad) is None, bad
    for bad in ("/games/31", "/games/3x", "/players/", "/games/3/../4"):
        assert safe_path(bad, within="/games/3") is None, bad


# -- 3. the table's words printed as markup ---------------------------------------------------
def test_unescaped_word__a_contract_word_set_to_markup_is_text_on_new_game(client):
    page = soup(client.get("/settings?next=/"))
    form = page.select_one("#words form")
    data = {i["name"]: i.get("value", "") for i in form.select("input")}
    data["trex"] = "<i id=zz>w</i>"
    assert client.post(form["action"], data=data).status_code == 303
    response = client.get("/games/new")
    html = soup(response)
    assert html.find(id="zz") is None and html.find("i") is None
    assert "<i id=zz>w</i>" in [o.get_text() for o in html.select("option")]
    assert "&lt;i id=zz&gt;w&lt;/i&gt;" in response.get_data(as_text=True)


# -- 10. invisible names, the blank sheet's names, players counted from 1 ----------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_name__refused_by_the_new_game_form(app, client, name):
    response = client.post("/games/new", data={**NEW_GAME, "player_2": name})
    assert response.status_code == 400
    error = soup(response).find(id="player_2").find_previous("p", class_="error")
    assert error.get_text(strip=True) in (
        "The name of player 3 shows no letter or digit.",
        "Player 3 has no name.",
    )
    assert counts(app)["games"] == 0


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_name__refused_by_the_importer_page_and_command(
    app, client, tmp_path, capsys, name
):
    doc = standard_game(players=["Aya", name, "Carla", "Dana"])
    response = upload(client, json.dumps(doc))
    assert response.status_code == 400
    assert "player 2" in soup(response).select_one(".errors").get_text()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 2
    assert "player 2" in capsys.readouterr().err
    assert counts(app)["games"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_name__refused_by_a_rename_and_a_fix_in_one_game(app, client, table, name):
    game = table.new_game()
    be_admin(client, app)
    response = client.post("/players/1/rename", data={"name": name})
    assert response.status_code == 400
    assert client.post(f"/games/{game}/seats/0/name", data={"name": name}).status_code == 400
    assert query(app, "select name from players where id = 1")[0]["name"] == "Aya"


@pytest.mark.parametrize(
    "names, message",
    [
        ("Aya,B\x1bb,Carla,Dana", "--names: The name of player 2 holds a control character."),
        (
            "Aya,Bilal," + "x" * 10_000 + ",Dana",
            f"--names: The name of player 3 is longer than {NAME_LIMIT} characters.",
        ),
        ("Aya,Bilal,Carla,\u202e", "--names: The name of player 4 shows no letter or digit."),
        ("Aya,,Carla,Dana", "--names: Player 2 has no name."),
    ],
)
def test_blank_sheet__names_are_held_to_the_rules_of_every_name(tmp_path, capsys, names, message):
    out = tmp_path / "blank.pdf"
    assert cli.main(["blank-sheet", "-o", str(out), "--names", names]) == 2
    assert capsys.readouterr().err.strip() == message
    assert not out.exists()


def test_blank_sheet_page__names_are_held_to_the_same_rules(client):
    query_string = "&".join(f"names={n}" for n in ("Aya", "%E2%80%AE", "Carla", "Dana"))
    response = client.get(f"/sheet/blank.pdf?{query_string}")
    assert response.status_code == 400
    assert "player 2 shows no letter or digit" in soup(response).get_text()


def test_player_counted_from_1__pdf_file_import_and_score_say_the_same(app, tmp_path, capsys):
    doc = standard_game(players=["", "Bilal", "Carla", "x" * 41])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    said = {}
    for name, argv in (
        ("pdf", ["pdf", "--file", str(path), "-o", str(tmp_path / "g.pdf")]),
        ("score", ["score", str(path)]),
        ("import", ["import", str(path), "--db", app.config["DATABASE"]]),
    ):
        assert cli.main(argv) == 2
        said[name] = capsys.readouterr().err.lower()
    for text in said.values():
        assert "player 1 has no name" in text and "player 4 is longer" in text
        assert "player 0" not in text


def test_player_counted_from_1__in_the_engines_own_words():
    problems = []
    try:
        loads(json.dumps(standard_game(players=["Aya", "\u200b", "Carla", "Dana"])))
    except Exception as exc:  # InvalidResult
        problems = exc.problems
    assert [str(p) for p in problems] == ["The name of player 2 shows no letter or digit"]
    assert str(Problem("player_name_empty", {"seat": 1})) == "Player 1 has no name"


# -- 4. unknown keys at any size, duplicate keys -----------------------------------------------
def big_unknown_key(where: str = "game") -> str:
    doc = standard_game()
    blob = "x" * (EXTRA_LIMIT + 1)
    if where == "game":
        doc["notes"] = blob
    else:
        doc["deals"][2]["notes"] = blob
    return json.dumps(doc)


@pytest.mark.parametrize("where", ["game", "deal"])
def test_oversized_unknown_key__refused_by_the_import_page_naming_the_key(app, client, where):
    before = counts(app)
    response = upload(client, big_unknown_key(where))
    assert response.status_code == 400
    text = soup(response).select_one(".errors").get_text()
    assert "'notes'" in text and "64 KB" in text
    assert ("Deal 3" in text) == (where == "deal")
    assert counts(app) == before


def test_oversized_unknown_key__refused_by_the_import_and_score_commands(app, tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text(big_unknown_key(), encoding="utf-8")
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 2
    err = capsys.readouterr().err
    assert "'notes'" in err and "Nothing was imported." in err and "Traceback" not in err
    assert cli.main(["score", str(path)]) == 2
    assert "'notes'" in capsys.readouterr().err
    assert counts(app)["games"] == 0


def test_oversized_unknown_key__the_same_keys_under_the_limit_are_kept(app, client):
    doc = standard_game()
    doc["notes"] = "x" * (EXTRA_LIMIT - 100)
    doc["deals"][0]["seen_by"] = "Hala"
    assert upload(client, json.dumps(doc)).status_code == 303
    exported = client.get("/games/1/export.json").get_json()
    assert exported["notes"] == doc["notes"] and exported["deals"][0]["seen_by"] == "Hala"


DUPLICATED = (
    '{"format": "trex-game/1", "players": ["Aya", "Bilal", "Carla", "Dana"], '
    '"first_king": 0, "first_king": 2, "deals": [{"king": 2, "contracts": ["trex"], '
    '"trex_order": [0, 1, 2, 3], "king": 2}], "title": "a", "title": "b"}'
)


def test_duplicate_keys__refused_by_the_import_page_naming_them(app, client):
    response = upload(client, DUPLICATED)
    assert response.status_code == 400
    lines = [li.get_text(" ", strip=True) for li in soup(response).select(".errors li")]
    assert any("'first_king'" in line and "twice" in line for line in lines)
    assert any("'king'" in line for line in lines) and any("'title'" in line for line in lines)
    assert counts(app)["games"] == 0


def test_duplicate_keys__refused_by_the_import_and_score_commands(app, tmp_path, capsys):
    path = tmp_path / "twice.json"
    path.write_text(DUPLICATED, encoding="utf-8")
    assert cli.main(["import", str(path), "--db", app.config["DATABASE"]]) == 2
    err = capsys.readouterr().err
    assert "'first_king'" in err and "'title'" in err and "'king'" in err
    assert cli.main(["score", str(path)]) == 2
    assert "twice" in capsys.readouterr().err
    assert counts(app)["games"] == 0


def test_deeply_nested_file__one_line_from_score_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    assert cli.main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err


def test_import_docs_helper_still_imports_sound_games(app):
    assert import_docs(app, [standard_game()]) == [1]
