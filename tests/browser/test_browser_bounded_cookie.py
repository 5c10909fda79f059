"""Issue 38, item 6 ("A bounded cookie"), in Chromium on a box of many groups under waitress
(CSRF on, as in production): a phone in 12 groups, holding the edit links of 40 games in each,
still joins a 13th, keeps its rights in the first, and its session cookie stays far below the
4 KB a browser keeps. (Before, the cookie held every right: about 610 bytes more per such group,
and from the 7th group Chromium dropped the cookie's change silently, so joining answered 404.)
"""

from __future__ import annotations


import pytest

from scorekeeper.engine import HouseRules
from scorekeeper.store import keys, storage
from scorekeeper.store.db import connect
from scorekeeper.web import create_app

from phone_helpers import PHONE
from live_server import serve_in_thread, stop_in_thread

GROUPS, GAMES = 13, 40
#: "Far below 4 KB": a quarter of it, whatever the phone holds.
COOKIE_LIMIT = 1024


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """The box, and its groups: each with 40 games, its join link and the games' edit links."""

    tmp = tmp_path_factory.mktemp("bounded-cookie")
    app = create_app({"GROUPS": "open", "INSTANCE_PATH": str(tmp / "instance")})
    host = app.extensions["groups"]
    groups = []
    for n in range(GROUPS):
        group = host.create(f"Table {n + 1}")
        db = connect(group.path)
        try:
            games = [
                storage.create_game(
                    db,
                    title=f"Night {g + 1}",
                    played_on="2026-11-20",
                    players=["Aya", "Bilal", "Carla", "Dana"],
                    rules=HouseRules(),
                    first_king=0,
                )
                for g in range(GAMES)
            ]
            edit = [keys.game_keys(db, game)["edit_key"] for game in games]
            groups.append((group.id, keys.install_key(db, "join"), list(zip(games, edit))))
        finally:
            db.close()
    server, thread = serve_in_thread(app)
    yield f"http://127.0.0.1:{server.effective_port}", groups
    stop_in_thread(server, thread)


def session_cookie(context) -> str:
    [cookie] = [c for c in context.cookies() if c["name"] == "session"]
    return cookie["value"]


def test_issue38_6__a_phone_in_12_groups_with_40_games_each_joins_a_13th(browser, box):
    url, groups = box
    context = browser.new_context(
        viewport=PHONE, screen=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        sizes = []
        for group, join, games in groups[:-1]:
            page.goto(f"{url}/g/{group}/join/{join}")
            assert page.url == f"{url}/g/{group}/", page.url
            for game, edit in games:  # the edit link: this phone keeps score there now
                response = context.request.get(f"{url}/g/{group}/e/{edit}", max_redirects=0)
                assert response.status == 303, (group, game, response.status)
            # a deal's form, not the page of a phone that only watches (403)
            assert page.goto(f"{url}/g/{group}/games/{games[-1][0]}/deals/new").status == 200
            sizes.append(len(session_cookie(context)))
        print(f"\nsession cookie after each of 12 groups with {GAMES} games: {sizes} bytes")
        assert max(sizes) < COOKIE_LIMIT, sizes

        group, join, games = groups[-1]
        response = page.goto(f"{url}/g/{group}/join/{join}")
        assert response.status == 200 and page.url == f"{url}/g/{group}/"
        assert "nothing here for this phone" not in page.locator("main").inner_text()
        assert len(session_cookie(context)) < COOKIE_LIMIT
        # the first group's rights are kept, and the front page lists all thirteen
        first, _, first_games = groups[0]
        assert page.goto(f"{url}/g/{first}/games/{first_games[0][0]}/deals/new").status == 200
        page.goto(url + "/")
        listed = page.locator("main").inner_text()
        assert all(f"Table {n + 1}" in listed for n in range(GROUPS)), listed
    finally:
        context.close()
