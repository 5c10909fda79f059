"""CSRF on every POST, with the protection switched on as in production: every route that takes
a POST, found in the app's URL map (a route added later is covered too), refuses a form without
the page's token and stores nothing; the same forms with their token go through."""

from __future__ import annotations

import re

import pytest

from scorekeeper.web import create_app
from scorekeeper.store.db import connect

from web_helpers import PLAYERS, be_admin, hidden_fields, soup

TABLES = (
    "games",
    "game_players",
    "players",
    "deals",
    "deal_history",
    "pin_attempts",
    "club_nights",
    "club_tables",
)
#: Example values for the variables of a route.
ARGUMENTS = {
    "game_id": 1,
    "number": 1,
    "pid": 1,
    "seat": 0,
    "club_id": 1,
    "member_id": 1,
    "season_id": 1,
    "tournament_id": 1,
}


def post_rules(app):
    rules = [r for r in app.url_map.iter_rules() if "POST" in r.methods]
    return sorted(((r.rule, r.endpoint) for r in rules), key=lambda r: r[0])


@pytest.fixture
def site(tmp_path):
    """An app with CSRF on, a game with a PIN and two deals, entered with the forms' tokens."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    assert app.config.get("WTF_CSRF_ENABLED", True)
    client = app.test_client()
    fields = hidden_fields(soup(client.get("/games/new")))
    data = {f"player_{s}": n for s, n in enumerate(PLAYERS)}
    data.update(
        fields, first_king="0", preset="standard", title="CSRF", played_on="2026-11-20", pin="1234"
    )
    assert client.post("/games/new", data=data).status_code == 303
    for contracts, result in (
        ("diamonds", {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "diamonds_3": "3"}),
        ("trex", {"trex_1": "0", "trex_2": "1", "trex_3": "2"}),
    ):
        entry = hidden_fields(soup(client.get(f"/games/1/deals/new?contracts={contracts}")))
        saved = client.post("/games/1/deals/new", data={**entry, **result, "step": "save"})
        assert saved.status_code == 303
    be_admin(client, app)  # the players' own forms
    return app, client


def snapshot(app):
    db = connect(app.config["DATABASE"])
    try:
        return {t: list(db.query(f"select * from {t} order by 1")) for t in TABLES}
    finally:
        db.close()


def test_every_post_route_is_listed(site):
    app, _ = site
    endpoints = {endpoint for _, endpoint in post_rules(app)}
    assert {
        "games.new",
        "deals.create",
        "deals.thrown_in",
        "deals.edit",
        "deals.undo",
        "access.unlock",
        "transfer.upload",
        "players.rename",
        "players.merge",
        "players.delete",
        "players.fix_name",
        "access.rotate",
        "access.change_pin",
        "walls.rotate_club",
        "walls.rotate_tournament",
        "confirm.confirm",
        "confirm.confirm_all",
    } <= endpoints


def test_csrf__every_post_without_the_token_is_refused_and_stores_nothing(site):
    app, client = site
    form_pages = {
        "/games/1/deals/1/edit": "/games/1/deals/1/edit",
        "/games/1/deals/1/undo": "/games/1/deals/1/undo",
        "/games/1/thrown-in": "/games/1/thrown-in",
        "/games/1/deals/new": "/games/1/deals/new?contracts=queens",
        "/players/1/rename": "/players/1/rename",
        "/games/1/seats/0/name": "/games/1/seats/0/name",
        "/games/1/edit-key": "/games/1/share",
    }
    before = snapshot(app)
    for rule, endpoint in post_rules(app):
        url = re.sub(r"<int:(\w+)>", lambda m: str(ARGUMENTS[m.group(1)]), rule)
        page = form_pages.get(url)
        fields = {}
        if page is not None:  # every field of the real form, only the CSRF token left out
            fields = hidden_fields(soup(client.get(page)))
            fields.pop("csrf_token")
        for data in (fields, {**fields, "csrf_token": "forged"}):
            response = client.post(
                url, data={**data, "name": "Mallory", "pin": "1234", "step": "save", "other": "2"}
            )
            assert response.status_code == 400, (endpoint, response.status_code)
            assert "expired or was sent from elsewhere" in soup(response).get_text(), endpoint
    assert snapshot(app) == before


def test_csrf__a_token_from_another_session_is_refused(site, tmp_path):
    app, client = site
    other = app.test_client()
    token = hidden_fields(soup(other.get("/games/new")))["csrf_token"]
    entry = hidden_fields(soup(client.get("/games/1/deals/new?contracts=queens")))
    before = snapshot(app)
    response = client.post(
        "/games/1/deals/new",
        data={
            **entry,
            "csrf_token": token,
            "step": "save",
            **{f"q_{s}_taker": "1" for s in ("spades", "hearts", "diamonds", "clubs")},
        },
    )
    assert response.status_code == 400
    assert snapshot(app) == before


def test_csrf__the_pin_form_carries_its_token(site):
    app, _ = site
    phone = app.test_client()
    page = soup(phone.get("/games/1/deals/new"))
    fields = hidden_fields(page, "form[action$=unlock]")
    assert fields["csrf_token"]
    assert phone.post("/games/1/unlock", data={"pin": "1234"}).status_code == 400
    response = phone.post("/games/1/unlock", data={**fields, "pin": "1234"})
    assert response.status_code == 303
    assert phone.get("/games/1/deals/new").status_code == 200


def test_csrf__the_edit_link_and_the_view_link_change_nothing_but_the_session(site):
    """They are GET requests: opening one from a hostile page grants rights to that game
    alone, to the phone that already holds its secret link."""
    app, _ = site
    before = snapshot(app)
    phone = app.test_client()
    [row] = snapshot(app)["games"]
    assert phone.get(f"/e/{row['edit_key']}").status_code == 303
    assert phone.get(f"/v/{row['view_key']}").status_code == 303
    assert snapshot(app) == before
