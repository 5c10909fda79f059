"""Groups: one box serves many groups, and each group's records stay its own (the groups
issue). A group is a database file of its own; a phone reads a group only as a member (its join
link, its admin link, or it started it); everyone else gets the same 404 as for an address that
leads nowhere, whatever the route, the id or the key."""

from __future__ import annotations

import itertools
import re
import secrets
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import HouseRules
from scorekeeper.store import clubnights, groups as store_groups, keys, seasons, tournaments
from scorekeeper.store.db import connect

from group_helpers import InGroup, group_file, groups_app, start_group
from web_helpers import Table, soup


@pytest.fixture
def app(tmp_path):
    return groups_app(tmp_path)


def count(app, group: str, sql: str) -> int:
    with sqlite3.connect(group_file(app, group)) as conn:
        return conn.execute(sql).fetchone()[0]


# -- a group is a private space ---------------------------------------------------------------
def test_a_group_is_a_database_file_of_its_own(app):
    a, _, phone_a = start_group(app, "Aya's table")
    b, _, phone_b = start_group(app, "Café Layali", address="127.0.0.2")
    Table(InGroup(phone_a, a)).new_game()
    assert count(app, a, "select count(*) from games") == 1
    assert count(app, b, "select count(*) from games") == 0
    assert group_file(app, a) != group_file(app, b)
    # the group's players are its own: B's player list does not name A's players
    assert "Aya" not in InGroup(phone_b, b).get("/players/").get_data(as_text=True)
    assert "Aya" in InGroup(phone_a, a).get("/players/").get_data(as_text=True)


def test_a_phone_joins_by_the_link_and_then_reads_and_keeps_score(app):
    group, join, starter = start_group(app)
    game = Table(InGroup(starter, group)).new_game()
    phone = app.test_client()
    assert InGroup(phone, group).get(f"/games/{game}").status_code == 404
    assert phone.get(join).status_code == 303
    assert InGroup(phone, group).get(f"/games/{game}").status_code == 200
    assert InGroup(phone, group).get("/games/new").status_code == 200
    # addresses inside the app carry the group's short id, never its join secret
    page = InGroup(phone, group).get(f"/games/{game}").get_data(as_text=True)
    secret = join.rsplit("/", 1)[1]
    assert secret not in page
    assert len(group) <= 12


def test_a_stranger_gets_the_same_404_for_everything(app):
    group, _, starter = start_group(app)
    game = Table(InGroup(starter, group)).new_game()
    stranger = app.test_client()
    answers = {
        (r.status_code, r.get_data())
        for r in (
            stranger.get(f"/g/{group}/games/{game}"),
            stranger.get(f"/g/{group}/games/999"),
            stranger.get(f"/g/{group}/"),
            stranger.get("/g/abcdefghjk/"),
            stranger.get(f"/g/{group}/history/export.json"),
            stranger.get(f"/g/{group}/games/{game}/sheet.pdf"),
        )
    }
    assert len(answers) == 1
    [(status, body)] = answers
    assert status == 404 and b"join link" in body
    assert group.encode() not in body  # nothing of the group, not even a link into it


def test_the_watch_link_follows_one_game_only(app):
    group, _, starter = start_group(app)
    table = Table(InGroup(starter, group))
    game, other = table.new_game(), table.new_game(names=("Eli", "Fay", "Gus", "Hana"))
    with sqlite3.connect(group_file(app, group)) as conn:
        view_key = conn.execute("select view_key from games where id = ?", [game]).fetchone()[0]
    watcher = InGroup(app.test_client(), group)
    assert watcher.get(f"/v/{view_key}").status_code == 303
    assert watcher.get(f"/games/{game}/watch").status_code == 200
    assert watcher.get(f"/games/{game}/state.json").status_code == 200
    for url in (
        f"/games/{other}/watch",
        f"/games/{game}/deals/new",
        "/players/",
        "/",
        f"/games/{game}/export.json",
    ):
        assert watcher.get(url).status_code == 404, url


def test_the_edit_link_keeps_score_at_that_game_without_joining(app):
    """A club night's table phone: the table's edit link, not the group's join link."""
    group, _, starter = start_group(app)
    game = Table(InGroup(starter, group)).new_game()
    with sqlite3.connect(group_file(app, group)) as conn:
        edit_key = conn.execute("select edit_key from games").fetchone()[0]
    phone = InGroup(app.test_client(), group)
    assert phone.get(f"/e/{edit_key}").status_code == 303
    assert phone.get(f"/games/{game}/deals/new?contracts=queens").status_code == 200
    assert phone.get("/history/").status_code == 404


# -- the admin --------------------------------------------------------------------------------
def test_admin_rotates_the_join_link_and_the_members_stay(app):
    group, join, admin = start_group(app)
    member = app.test_client()
    assert member.get(join).status_code == 303
    assert InGroup(admin, group).post("/group/join-link").status_code == 303
    latecomer = app.test_client()
    assert latecomer.get(join).status_code == 404  # the old link admits no one new
    assert InGroup(latecomer, group).get("/").status_code == 404
    assert InGroup(member, group).get("/").status_code == 200
    new_join = re.search(
        r"/g/\w+/join/\w+", InGroup(admin, group).get("/group").get_data(as_text=True)
    ).group(0)
    assert new_join != join and latecomer.get(new_join).status_code == 303


def test_admin_sees_and_ends_memberships(app):
    group, join, admin = start_group(app)
    phones = [app.test_client() for _ in range(3)]
    for phone in phones:
        phone.get(join, headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/130"})
    page = soup(InGroup(admin, group).get("/group"))
    assert page.get_text().count("Android · Chrome") == 3
    first = page.select("#members li form")[0]["action"]  # the first joiner (the admin has none)
    assert admin.post(first).status_code == 303
    assert InGroup(phones[0], group).get("/").status_code == 404
    assert InGroup(phones[1], group).get("/").status_code == 200
    assert InGroup(admin, group).post("/group/members/end-all").status_code == 303
    assert all(InGroup(p, group).get("/").status_code == 404 for p in phones)
    assert InGroup(admin, group).get("/").status_code == 200  # the admin's own phone stays


def test_only_the_admin_changes_the_group(app):
    group, join, _ = start_group(app)
    member = app.test_client()
    member.get(join)
    inside = InGroup(member, group)
    for url in (
        "/group/join-link",
        "/group/members/end-all",
        "/group/name",
        "/group/delete",
        "/group/admin-link",
        "/group/ended/links",
    ):
        assert (
            inside.post(url, data={"name": "Mine", "confirm": "Friday table"}).status_code == 403
        ), url
    assert "Members" not in inside.get("/group").get_data(as_text=True)


def test_deleting_a_group_needs_its_name_typed_and_removes_its_file(app):
    group, join, admin = start_group(app)
    member = app.test_client()
    member.get(join)
    inside = InGroup(admin, group)
    Table(inside).new_game()
    wrong = inside.post("/group/delete", data={"confirm": "Friday"})
    assert wrong.status_code == 400 and "exactly" in soup(wrong).get_text()
    assert "Export every game" in soup(wrong).get_text()  # the export is offered first
    assert count(app, group, "select count(*) from games") == 1
    assert inside.post("/group/delete", data={"confirm": "friday TABLE"}).status_code == 303
    import os

    assert not os.path.exists(group_file(app, group))
    for phone in (admin, member):
        assert InGroup(phone, group).get("/").status_code == 404
        assert phone.get(join).status_code == 404
    assert "Friday table" not in admin.get("/").get_data(as_text=True)


# -- the front page: starting a group ---------------------------------------------------------
def test_the_front_page_says_what_the_app_is_in_both_languages(app):
    page = soup(app.test_client().get("/"))
    assert page.select_one("#about [lang=en]") and page.select_one("#about [lang=ar]")
    assert page.select_one("form[action='/groups/new']") is not None


@pytest.mark.parametrize(
    "name, says",
    [
        ("", "Give the group a name."),
        ("\u200b\u200b", "Give the group a name."),
        ("x" * 81, "at most 80 characters"),
        ("Aya\u202e 999", "invisible or direction"),
    ],
)
def test_a_bad_group_name_gets_the_form_back_and_nothing_is_made(app, tmp_path, name, says):
    phone = app.test_client()
    response = phone.post("/groups/new", data={"name": name, "lang": "ar"})
    assert response.status_code == 400
    page = soup(response)
    assert says in page.get_text()
    assert page.select_one("input[name=lang][value=ar]").has_attr("checked")  # input kept
    assert list(app.extensions["groups"].groups()) == []
    assert (
        not list((tmp_path / "instance" / "groups").glob("*"))
        if (tmp_path / "instance" / "groups").exists()
        else True
    )


def test_a_name_of_the_phones_other_group_is_refused(app):
    _, _, phone = start_group(app, "Friday table")
    response = phone.post("/groups/new", data={"name": "friday table", "lang": "en"})
    assert response.status_code == 400
    assert "already in a group called" in soup(response).get_text()
    assert soup(response).select_one("input[name=name]")["value"] == "friday table"
    assert len(list(app.extensions["groups"].groups())) == 1


def test_starting_groups_is_limited_per_address(app):
    phone = app.test_client()
    for n in range(store_groups.STARTS_PER_HOUR):
        start_group(app, f"Table {n}", phone=phone, address="198.51.100.9")
    response = phone.post(
        "/groups/new",
        data={"name": "One more", "lang": "en"},
        environ_base={"REMOTE_ADDR": "198.51.100.9"},
    )
    assert response.status_code == 429
    assert "as many groups" in soup(response).get_text()
    start_group(app, "Elsewhere", address="198.51.100.10")  # another address may
    assert len(list(app.extensions["groups"].groups())) == store_groups.STARTS_PER_HOUR + 1


def test_starting_by_invitation_needs_the_operators_link(tmp_path):
    app = groups_app(tmp_path, "invite")
    phone = app.test_client()
    assert "by invitation" in soup(phone.get("/")).get_text()
    assert phone.post("/groups/new", data={"name": "X", "lang": "en"}).status_code == 403
    assert phone.get("/invite/" + "0" * 32).status_code == 404
    key = app.extensions["groups"].invite_key()
    assert phone.get(f"/invite/{key}").status_code == 303
    start_group(app, phone=phone)


def test_a_group_at_its_size_cap_says_so_and_starts_nothing(app, monkeypatch):
    group, _, phone = start_group(app)
    monkeypatch.setattr(store_groups, "SIZE_CAP", 1024)
    monkeypatch.setattr("scorekeeper.web.access.rights.SIZE_CAP", 1024)
    response = InGroup(phone, group).get("/games/new")
    assert response.status_code == 403 and "reached the most" in soup(response).get_text()


def test_a_laptop_is_one_group_open_to_the_wifi_as_before(tmp_path):
    from scorekeeper.web import create_app

    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path / "one.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    phone = app.test_client()
    game = Table(phone).new_game()
    assert app.test_client().get(f"/games/{game}").status_code == 200
    assert app.test_client().get("/group").status_code == 404


# -- the property over the URL map ----------------------------------------------------------
SECRET_LINKS = {
    "access.join_link",
    "access.admin_link",
    "access.edit_link",
    "access.view_link",
    "result.shared_game",
    "result.shared_game_png",
    "result.shared_night",
    "result.shared_night_png",
    "walls.wall",
    "walls.state",
    "walls.qr",
}


@pytest.fixture
def two_groups(app):
    """Group A with a game (one deal), a club night, a player; group B with its own member."""
    a, _, phone_a = start_group(app, "A")
    b, _, phone_b = start_group(app, "B", address="127.0.0.2")
    table = Table(InGroup(phone_a, a))
    game = table.new_game()
    table.enter(game, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    db = connect(group_file(app, a))
    try:
        club = clubnights.create(
            db,
            title="Café",
            night="2026-11-20",
            names=[f"P{n}" for n in range(8)],
            rounds=2,
            rules=HouseRules(),
            seed=1,
        )
        season = seasons.create(db, "Autumn", "2026-09-01", "2026-11-30")
        cup = tournaments.create(
            db,
            title="Cup",
            played_on="2026-11-20",
            entrants=[(f"Q{n}",) for n in range(8)],
            fmt="top-two",
            seeding="entered",
            rules=HouseRules(),
        )
        ids = {
            "tournament_id": cup,
            "game_id": game,
            "pid": 1,
            "player_id": 1,
            "club_id": club,
            "number": 1,
            "member_id": 1,
            "seat": 0,
            "season_id": season,
        }
        real_keys = {
            "edit": keys.game_keys(db, game)["edit_key"],
            "view": keys.game_keys(db, game)["view_key"],
            "join": keys.install_key(db, "join"),
            "admin": keys.install_key(db, "admin"),
            "club wall": keys.wall_key(db, "club", club),
            "tournament wall": keys.wall_key(db, "tournament", cup),
        }
    finally:
        db.close()
    return app, a, ids, real_keys, phone_b, b


def _values(rule, group: str, ids: dict[str, int], key: str) -> dict[str, object]:
    values: dict[str, object] = {}
    for arg in rule.arguments:
        if arg == "group":
            values[arg] = group
        elif arg in ids:
            values[arg] = ids[arg]
        elif arg == "key":
            values[arg] = key
        elif arg == "night":
            values[arg] = "2026-11-20"
        elif arg == "contracts":
            values[arg] = "queens"
        else:
            values[arg] = {"code": "ar", "style": "arabic"}.get(arg, "x")
    return values


def _answer(client, rule, url: str):
    method = "GET" if "GET" in rule.methods else "POST"
    response = client.open(url, method=method, data={"name": "n", "confirm": "A"})
    return response.status_code, response.get_data()


def _group_rules(app):
    return [r for r in app.url_map.iter_rules() if "group" in r.arguments]


def test_property_outsiders_get_the_answer_of_an_address_that_leads_nowhere(two_groups):
    """For every route of a group: with group A's real ids and keys, a stranger and a member of
    group B get exactly what they get for ids and a group that do not exist."""
    app, a, ids, real_keys, member_b, _ = two_groups
    wrong = _told(app, a, ids, real_keys, {"stranger": app.test_client(), "member of B": member_b})
    assert not wrong, "\n".join(["Outsiders told something of group A:", *wrong])


def _told(app, a: str, ids: dict[str, int], real_keys: dict[str, str], phones: dict) -> list[str]:
    """For every route of group A but the secret links: where one of *phones* is answered
    otherwise than for ids and a group that do not exist."""
    made_up = {name: 987654 for name in ids}
    nowhere = "zzzzzzzzzz"
    wrong = []
    for rule in _group_rules(app):
        if rule.endpoint in SECRET_LINKS:
            continue  # the secret in the address is what opens them (next test)
        key = real_keys["edit"]
        with app.test_request_context():
            real = rule.build(_values(rule, a, ids, key), append_unknown=False)[1]
            fake = rule.build(
                _values(rule, nowhere, made_up, secrets.token_hex(16)), append_unknown=False
            )[1]
        for who, phone in phones.items():
            got, expected = _answer(phone, rule, real), _answer(phone, rule, fake)
            if got != expected or got[0] not in (404, 405):
                wrong.append(
                    f"{who}: {rule.rule} answered {got[0]} ({len(got[1])} bytes), "
                    f"an address leading nowhere {expected[0]} ({len(expected[1])})"
                )
    return wrong


def test_issue38_3__the_property_over_the_url_map_covers_ended_phones(two_groups):
    """An ended admin and an ended member of group A, each with a game it started and the
    edit and view links of another, get for every route what an address that leads nowhere
    gets, their own games included."""
    app, a, ids, real_keys, _, _ = two_groups
    admin = app.test_client()
    assert admin.get(f"/g/{a}/admin/{real_keys['admin']}").status_code == 303
    ended = {"ended admin": app.test_client(), "ended member": app.test_client()}
    ended["ended admin"].get(f"/g/{a}/admin/{real_keys['admin']}")
    ended["ended member"].get(f"/g/{a}/join/{real_keys['join']}")
    own = {}
    for who, phone in ended.items():
        own[who] = Table(InGroup(phone, a)).new_game()
        for link in (f"/g/{a}/e/{real_keys['edit']}", f"/g/{a}/v/{real_keys['view']}"):
            assert phone.get(link).status_code == 303
        assert phone.get(f"/g/{a}/games/{own[who]}/share").status_code == 200
        assert phone.get(f"/g/{a}/clubs/{ids['club_id']}").status_code == 200
    with sqlite3.connect(group_file(app, a)) as conn:
        ends = [r[0] for r in conn.execute("select id from members order by id desc limit 2")]
    for member in ends:
        assert admin.post(f"/g/{a}/group/members/{member}/end").status_code == 303
    wrong = _told(app, a, ids, real_keys, ended)
    for who, phone in ended.items():
        wrong += _told(app, a, {**ids, "game_id": own[who]}, real_keys, {who: phone})
    assert not wrong, "\n".join(["Ended phones told something of group A:", *wrong])


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(key=st.text("0123456789abcdef", min_size=32, max_size=32), number=st.integers(1, 2**63 - 1))
@pytest.mark.slow
def test_property_a_wrong_secret_is_an_address_that_leads_nowhere(two_groups, key, number):
    app, a, ids, real_keys, member_b, _ = two_groups
    if key in real_keys.values():
        return
    stranger = app.test_client()
    for rule in _group_rules(app):
        if rule.endpoint not in SECRET_LINKS:
            continue
        values = {**ids, "game_id": number}
        with app.test_request_context():
            url = rule.build(_values(rule, a, values, key), append_unknown=False)[1]
            nowhere = rule.build(_values(rule, "zzzzzzzzzz", values, key), append_unknown=False)[1]
        for phone in (stranger, member_b):
            assert _answer(phone, rule, url) == _answer(phone, rule, nowhere), rule.rule


def test_a_shared_result_link_opens_that_result_only(app):
    group, _, starter = start_group(app)
    table = Table(InGroup(starter, group))
    game = table.new_game()
    page = soup(InGroup(starter, group).get(f"/games/{game}/result"))
    link = page.select_one("#share-result")["href"]
    assert re.fullmatch(rf"/g/{group}/r/games/{game}/[0-9a-f]{{32}}", link)
    outsider = app.test_client()
    shared = outsider.get(link)
    assert shared.status_code == 200
    assert "Aya" in shared.get_data(as_text=True)
    assert "/players/" not in shared.get_data(as_text=True)  # no way further into the group
    other = table.new_game(names=("Eli", "Fay", "Gus", "Hana"))
    assert outsider.get(link.replace(f"/games/{game}/", f"/games/{other}/")).status_code == 404
    assert outsider.get(f"/g/{group}/games/{game}").status_code == 404


def test_a_phone_that_joins_reads_the_groups_language_unless_it_chose_one(app):
    group, join, _ = start_group(app, "عائلة", "ar")
    newcomer = app.test_client()
    newcomer.get(join)
    assert 'lang="ar"' in InGroup(newcomer, group).get("/").get_data(as_text=True)
    chosen = app.test_client()
    chosen.set_cookie("lang", "en")
    chosen.get(join)
    assert 'lang="en"' in InGroup(chosen, group).get("/").get_data(as_text=True)


ADDRESSES = itertools.count(1)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.one_of(
        st.text(max_size=100),
        st.sampled_from(["\x00", "\u202e", "x" * 6_000, "\r\nSet-Cookie: a=1", "١٢", "<i>w</i>"]),
    ),
    field=st.sampled_from(["name", "confirm", "lang"]),
)
@pytest.mark.slow
def test_group_forms_answer_hostile_values_without_a_500(app, text, field):
    n = next(ADDRESSES)
    address = f"198.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
    group, _, admin = start_group(app, "Hostile", address=address)
    inside = InGroup(admin, group)
    for url in (
        "/group/name",
        "/group/delete",
        "/group/members/end-all",
        "/group/join-link",
        "/group/admin-link",
        "/group/ended/links",
        "/group/members/1/end",
    ):
        assert inside.post(url, data={field: text, "keep": text}).status_code in (
            303,
            400,
            409,
            413,
        ), url
    assert app.test_client().post("/groups/new", data={field: text}).status_code in (
        303,
        400,
        413,
        429,
    )


def test_group_forms_need_the_csrf_token(tmp_path):
    app = groups_app(tmp_path, WTF_CSRF_ENABLED=True)
    phone = app.test_client()
    form = soup(phone.get("/"))
    token = form.select_one("input[name=csrf_token]")["value"]
    assert phone.post("/groups/new", data={"name": "X", "lang": "en"}).status_code == 400
    made = phone.post("/groups/new", data={"name": "X", "lang": "en", "csrf_token": token})
    assert made.status_code == 303
    group = made.headers["Location"].split("/")[2]
    before = count(app, group, "select group_concat(key) from install_keys order by name")
    for url in (
        "/group/join-link",
        "/group/members/end-all",
        "/group/delete",
        "/group/name",
        "/group/admin-link",
        "/group/ended/links",
        "/group/members/1/end",
    ):
        assert phone.post(f"/g/{group}{url}", data={"confirm": "X"}).status_code == 400, url
    assert app.extensions["groups"].file_of(group) is not None
    assert count(app, group, "select group_concat(key) from install_keys order by name") == before
    assert count(app, group, "select count(*) from members where ended_at is null") == 1


def test_issue37_8__two_groups_with_the_same_game_each_link_their_own_pages(app):
    """Two groups play the same game (the same players, title, date and deals: the engine's
    reading of it is kept once for both). Each group's game page links its deals under its
    own prefix, never under the other group's."""
    deal = {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 5, 1]}
    pages = {}
    for n, name in enumerate(("Sunday table", "Monday table")):
        group, _, phone = start_group(app, name, address=f"203.0.113.{n + 1}")
        member = InGroup(phone, group)
        table = Table(member)
        game_id = table.new_game()
        table.enter(game_id, deal)
        pages[group] = soup(member.get(f"/games/{game_id}"))
    for group, page in pages.items():
        links = [a["href"] for a in page.select("#sheet a[href*='/deals/']")]
        assert links and all(link.startswith(f"/g/{group}/") for link in links), links


def test_issue38_6__an_older_cookies_rights_move_to_the_server(app):
    """A cookie written before a phone's state moved to the server keeps its rights: its first
    request in the group moves them into the group's row and out of the cookie. A cookie whose
    membership was ended meanwhile brings nothing."""
    from scorekeeper.store import members

    group, _, starter = start_group(app)
    game = Table(InGroup(starter, group)).new_game()
    db = connect(group_file(app, group))
    try:
        kept, ended = members.admit(db, "admin"), members.admit(db, "join")
        members.end(db, members.member_id(db, ended))
        edit, admin = keys.game_keys(db, game)["edit_key"], keys.install_key(db, "admin")
    finally:
        db.close()
    phones = {kept: app.test_client(), ended: app.test_client()}
    for token, phone in phones.items():
        with phone.session_transaction() as session:
            session[f"{group}:member"] = token
            session[f"{group}:edit"] = [[game, edit[:12]]]
            session[f"{group}:admin"] = admin[:12]
    upgraded = InGroup(phones[kept], group)
    assert upgraded.get(f"/games/{game}/deals/new").status_code == 200
    assert "/group/members/" in upgraded.get("/group").get_data(as_text=True)
    with phones[kept].session_transaction() as session:
        assert not [k for k in session if k.startswith(group + ":")]
        assert re.fullmatch("[0-9a-f]{32}", session["k"])
    assert count(app, group, "select count(*) from phone_states where member is not null") == 2
    for url in (f"/games/{game}/deals/new", f"/games/{game}", "/group"):
        assert InGroup(phones[ended], group).get(url).status_code == 404, url


# -- issue 37, other things a group hits: the group page ----------------------------------------
def test_issue37_other__the_group_pages_title_is_plain_text(app):
    group, _, admin = start_group(app, "Thursday club")
    page = soup(InGroup(admin, group).get("/group"))
    title = page.title.get_text()
    assert "<" not in title and "bdi" not in title
    assert title == "\u2068Thursday club\u2069 · Trex Scorekeeper"


def test_issue37_other__the_group_page_shows_the_join_link_to_copy_and_leads_to_a_new_game(app):
    group, join, starter = start_group(app, "Thursday club")
    member = app.test_client()
    assert member.get(join).status_code == 303
    page = soup(InGroup(member, group).get("/group"))
    shown = page.select_one("#join code#share-text")
    assert shown.get_text().endswith(join) and shown["dir"] == "ltr"
    copy = page.select_one("#join button#copy-result")
    assert copy["type"] == "button" and copy.has_attr("hidden")  # shown by share.js
    assert "share" in [s["src"].rsplit("/", 1)[1].split(".")[0] for s in page.select("script[src]")]
    new_game = page.select_one("main a#new-game")
    assert new_game["href"] == f"/g/{group}/games/new"
    assert InGroup(member, group).get("/games/new").status_code == 200
