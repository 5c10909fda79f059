"""The roster: renaming keeps a player's history; two spellings merge into one, once confirmed.
Both are the group's admin's to do (the admin link), not any phone that keeps score."""

from __future__ import annotations

from gamebuilder import standard_game
from history_helpers import import_docs, keep_score, query
from web_helpers import be_admin, soup


def player_id(app, name: str) -> int:
    [row] = query(app, "select id from players where name = ?", [name])
    return row["id"]


def games_figure(client, pid: int) -> int:
    return int(soup(client.get(f"/players/{pid}")).select_one("#games").get_text(strip=True))


def test_rename__every_game_shows_the_new_name_and_the_statistics_stay(app, client):
    [game_id] = import_docs(app, [standard_game(players=["Aya", "Bilal", "Carla", "Dana"])])
    be_admin(client, app)
    pid = player_id(app, "Bilal")
    before = soup(client.get(f"/players/{pid}")).select_one("main dl.tiles").get_text()
    form = soup(client.get(f"/players/{pid}/rename"))
    assert form.select_one("input[name=name]")["value"] == "Bilal"
    response = client.post(f"/players/{pid}/rename", data={"name": "  Bilal   Haddad "})
    assert response.status_code == 303 and response.headers["Location"] == f"/players/{pid}"
    assert soup(client.get(f"/players/{pid}")).h1.get_text(strip=True) == "Bilal Haddad"
    assert soup(client.get(f"/players/{pid}")).select_one("main dl.tiles").get_text() == before
    assert "Bilal Haddad" in soup(client.get(f"/games/{game_id}")).get_text()
    assert client.get(f"/games/{game_id}/export.json").get_json()["players"][1] == "Bilal Haddad"
    found = soup(client.get("/history/?player=haddad")).select("section.night li")
    assert len(found) == 1


def test_rename__to_another_players_name_is_refused_and_points_to_merge(app, client):
    import_docs(app, [standard_game(players=["Aya", "Bilal", "Carla", "Dana"])])
    be_admin(client, app)
    pid = player_id(app, "Bilal")
    response = client.post(f"/players/{pid}/rename", data={"name": "aya"})
    assert response.status_code == 400
    assert "merge" in soup(response).select_one(".error").get_text()
    assert client.post(f"/players/{pid}/rename", data={"name": "  "}).status_code == 400
    assert client.post(f"/players/{pid}/rename", data={"name": "x" * 41}).status_code == 400
    assert query(app, "select name from players where id = ?", [pid])[0]["name"] == "Bilal"


def test_rename__a_change_of_case_only_is_fine(app, client):
    import_docs(app, [standard_game(players=["Aya", "bilal", "Carla", "Dana"])])
    be_admin(client, app)
    pid = player_id(app, "bilal")
    assert client.post(f"/players/{pid}/rename", data={"name": "Bilal"}).status_code == 303
    assert query(app, "select name from players where id = ?", [pid])[0]["name"] == "Bilal"


def two_spellings(app, client):
    first = standard_game(players=["Aya", "Bilal", "Carla", "Dana"])
    second = standard_game(first_king=1, players=["Aya", "Bilal", "Carla", "Danah"])
    second["played_on"] = "2026-11-13"
    import_docs(app, [first, second])
    be_admin(client, app)
    return player_id(app, "Dana"), player_id(app, "Danah")


def test_merge__asks_first_then_the_two_spellings_are_one_player(app, client):
    keep, drop = two_spellings(app, client)
    choose = soup(client.get(f"/players/{keep}/merge"))
    assert f"/players/{keep}/merge?other={drop}" in [a["href"] for a in choose.select("ul a")]
    confirm = soup(client.get(f"/players/{keep}/merge?other={drop}"))
    assert "cannot be undone" in confirm.get_text()
    assert games_figure(client, keep) == 1 and games_figure(client, drop) == 1  # not yet
    hidden = {i["name"]: i.get("value", "") for i in confirm.select("form input")}
    response = client.post(f"/players/{keep}/merge", data=hidden)
    assert response.status_code == 303
    assert games_figure(client, keep) == 2
    assert client.get(f"/players/{drop}").status_code == 404
    names = [a.b.get_text() for a in soup(client.get("/players/")).select("ul.list a")]
    assert "Danah" not in names and "Dana" in names
    again = client.post(f"/players/{keep}/merge", data=hidden)
    assert (
        again.status_code == 303
        and "gone already" in soup(client.get(again.headers["Location"])).get_text()
    )


def test_merge__two_people_who_sat_at_one_table_cannot_be_merged(app, client):
    import_docs(app, [standard_game(players=["Aya", "Bilal", "Carla", "Dana"])])
    be_admin(client, app)
    aya, bilal = player_id(app, "Aya"), player_id(app, "Bilal")
    page = soup(client.get(f"/players/{aya}/merge?other={bilal}"))
    assert "played in the same game" in page.get_text()
    assert page.select("form[method=post]") == []
    response = client.post(f"/players/{aya}/merge", data={"other": str(bilal)})
    assert response.status_code == 400
    assert games_figure(client, bilal) == 1


def test_merge__with_oneself_or_nobody_is_refused(app, client):
    keep, _ = two_spellings(app, client)
    assert client.get(f"/players/{keep}/merge?other={keep}").status_code == 404
    assert client.get(f"/players/{keep}/merge?other=999").status_code == 404
    assert client.post(f"/players/{keep}/merge", data={"other": "x"}).status_code == 400
    assert client.get("/players/999").status_code == 404


def test_rename_and_merge__only_from_the_groups_admin_phone(app, client):
    """A phone that keeps score in all of a player's games still may not rename or merge them:
    the names belong to the group (the takeover of a player's record)."""
    first = standard_game(players=["Aya", "Bilal", "Carla", "Dana"])
    second = standard_game(first_king=1, players=["Aya", "Bilal", "Carla", "Danah"])
    first_id, second_id = import_docs(app, [first, second])
    dana, danah = player_id(app, "Dana"), player_id(app, "Danah")
    keep_score(client, app, first_id)
    keep_score(client, app, second_id)
    page = soup(client.get(f"/players/{dana}"))
    assert page.find("a", string="Rename") is None
    assert "admin link" in page.select_one("#players-belong").get_text()
    assert client.get(f"/players/{dana}/rename").status_code == 403
    assert client.post(f"/players/{dana}/rename", data={"name": "Dina"}).status_code == 403
    assert client.get(f"/players/{dana}/merge?other={danah}").status_code == 403
    assert client.post(f"/players/{dana}/merge", data={"other": str(danah)}).status_code == 403
    assert games_figure(client, danah) == 1
    be_admin(client, app)
    assert soup(client.get(f"/players/{dana}")).find("a", string="Rename") is not None
    offered = [a.b.get_text() for a in soup(client.get(f"/players/{dana}/merge")).select("ul a")]
    assert offered == ["Danah"]  # Aya, Bilal and Carla sat at Dana's table
    assert client.post(f"/players/{dana}/merge", data={"other": str(danah)}).status_code == 303
    assert games_figure(client, dana) == 2
