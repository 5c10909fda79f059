"""Issue 38, items 3 and 6, through a real Caddy in front of ``serve --groups`` (the real
waitress, CSRF on): "End" ends every right a phone holds in the group, its own games included;
the last admin cannot be ended; the group's page makes a new admin link; and a phone's state
lives on the server, its cookie small. (The same in Chromium: ``tests/browser``; every route
for an ended phone: ``test_groups.py``.)"""

from __future__ import annotations

import re

import pytest

from hosted_box import NEW_GAME, hosted_box, query

pytestmark = pytest.mark.slow  # the real Caddy in front of the real waitress

ADDRESSES = iter(f"127.0.1.{n}" for n in range(1, 250))


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    with hosted_box(tmp_path_factory.mktemp("ended"), args=("--groups",)) as running:
        yield running


def csrf(body: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body)
    assert found, body[:2000]
    return found.group(1)


def send(phone, page: str, action: str, fields: dict[str, str] | None = None):
    """Open *page*, and send a form of it to *action* (with the page's CSRF token)."""
    shown = phone.request("form", "GET", page)
    assert shown.status == 200, (page, shown.status)
    return phone.request(
        "post",
        "POST",
        action,
        {"csrf_token": csrf(shown.body), **(fields or {})},
        {"Referer": phone.root + page},
    )


class Group:
    """A group on the box, started by its first phone (which holds the admin rights)."""

    def __init__(self, box, name: str = "Friday table"):
        self.box = box
        self.starter = box.phone(next(ADDRESSES))
        started = send(self.starter, "/", "/groups/new", {"name": name, "lang": "en"})
        assert started.status == 303, started.body[:1000]
        self.id = started.location.split("/g/")[1].split("/")[0]
        page = self.starter.request("page", "GET", self.path("/group")).body
        self.join = re.search(rf"/g/{self.id}/join/[0-9a-f]{{32}}", page).group(0)

    def path(self, url: str) -> str:
        return f"/g/{self.id}{url}"

    @property
    def file(self) -> str:
        return str(self.box.server.instance / "groups" / f"{self.id}.sqlite3")

    def query(self, sql: str, params: tuple = ()) -> list[dict]:
        return query(self.file, sql, params)

    def admin_link(self, phone=None) -> str:
        page = (phone or self.starter).request("page", "GET", self.path("/group")).body
        return re.search(rf"/g/{self.id}/admin/[0-9a-f]{{32}}", page).group(0)

    def phone(self, link: str | None = None):
        """A new phone; with *link*, it opened it."""
        phone = self.box.phone(next(ADDRESSES))
        if link is not None:
            assert phone.request("link", "GET", link).status == 303
        return phone

    def new_game(self, phone) -> int:
        made = send(phone, self.path("/games/new"), self.path("/games/new"), NEW_GAME)
        assert made.status == 303, made.body[:1000]
        return int(made.location.rstrip("/").rsplit("/", 1)[1])

    def keys(self, game: int) -> dict:
        [row] = self.query("select edit_key, view_key from games where id = ?", (game,))
        return row

    def member_id(self, phone) -> int:
        """The membership of *phone* (it holds the admin rights: its own is marked)."""
        page = phone.request("page", "GET", self.path("/group")).body
        ends = re.findall(rf"/g/{self.id}/group/members/(\d+)/end", page)
        ids = {r["id"] for r in self.query("select id from members where ended_at is null")}
        [own] = ids - {int(i) for i in ends}
        return own

    def end(self, admin, member: int):
        return send(admin, self.path("/group"), self.path(f"/group/members/{member}/end"))


def pages(group: Group, games: list[int]) -> list[str]:
    """What a member reads: the group's pages, and every page of these games."""
    urls = ["/", "/group", "/group/join.svg", "/players/", "/history/", "/history/export.json"]
    urls += ["/games/new", "/clubs/", "/tournaments/", "/seasons/"]
    for game in games:
        urls += [
            f"/games/{game}",
            f"/games/{game}/share",
            f"/games/{game}/watch",
            f"/games/{game}/state.json",
            f"/games/{game}/result",
            f"/games/{game}/history",
            f"/games/{game}/deals/new",
            f"/games/{game}/export.json",
            f"/games/{game}/qr.svg",
            f"/games/{game}/advise",
            f"/history/games/{game}",
            f"/charts/games/{game}/running.svg",
        ]
    return [group.path(u) for u in urls]


def test_issue38_3__an_ended_admin_and_an_ended_member_get_the_strangers_404_everywhere_including_their_own_games(
    box,
):
    group = Group(box)
    starters_game = group.new_game(group.starter)
    admin = group.phone(group.admin_link())  # the admin link: a member with admin rights
    member = group.phone(group.join)
    admins_game, members_game = group.new_game(admin), group.new_game(member)
    for phone in (admin, member):  # rights got through links while a member
        keys = group.keys(starters_game)
        phone.request("link", "GET", group.path(f"/e/{keys['edit_key']}"))
        phone.request("link", "GET", group.path(f"/v/{keys['view_key']}"))
    games = [starters_game, admins_game, members_game]
    urls = pages(group, games)
    for phone, own in ((admin, admins_game), (member, members_game)):
        before = {url: phone.request("page", "GET", url).status for url in urls}
        assert before[group.path(f"/games/{members_game}")] == 200
        assert before[group.path(f"/games/{own}/share")] == 200
        assert before[group.path(f"/games/{starters_game}/share")] == 200
    assert "Members" in admin.request("page", "GET", group.path("/group")).body

    members = [group.member_id(admin), group.query("select max(id) as id from members")[0]["id"]]
    for target in members:
        assert group.end(group.starter, target).status == 303

    stranger = group.phone()
    for name, phone in (("the ended admin", admin), ("the ended member", member)):
        wrong = []
        for url in urls:
            got, expected = phone.request("page", "GET", url), stranger.request("page", "GET", url)
            if (got.status, got.body) != (expected.status, expected.body) or got.status != 404:
                wrong.append(f"{url}: {got.status}, a stranger {expected.status}")
        assert not wrong, f"{name} still reads:\n" + "\n".join(wrong)
        # nor does it save a deal in a game it started
        own = admins_game if phone is admin else members_game
        deals = len(group.query("select id from deals where game_id = ?", (own,)))
        sent = phone.request(
            "post",
            "POST",
            group.path(f"/games/{own}/deals/new"),
            {"contracts": "diamonds", "diamonds_0": "4"},
            {"Referer": phone.root + group.path(f"/games/{own}")},
        )
        assert sent.status in (400, 404)
        assert len(group.query("select id from deals where game_id = ?", (own,))) == deals
    # the starter, who ended them, reads on; the ended phones hold nothing on the server
    assert group.starter.request("page", "GET", group.path(f"/games/{members_game}")).status == 200
    assert len(group.query("select phone from phone_states where member is not null")) == 1


def test_issue38_3__the_last_admin_cannot_be_ended(box):
    group = Group(box)
    second = group.phone(group.admin_link())
    starter_id, second_id = group.member_id(group.starter), group.member_id(second)
    assert group.end(second, starter_id).status == 303  # another admin: ended
    assert group.starter.request("page", "GET", group.path("/group")).status == 404
    refused = group.end(second, second_id)  # the last one: refused, and says why
    assert refused.status == 409 and "last one that holds the group’s admin rights" in (
        refused.body
    )
    page = second.request("page", "GET", group.path("/group")).body
    assert "holds the admin rights" in page and "Members" in page


def test_issue38_3__the_group_pages_new_admin_link_stops_the_old_one(box):
    group = Group(box)
    old = group.admin_link()
    other_admin = group.phone(old)
    renewed = send(group.starter, group.path("/group"), group.path("/group/admin-link"))
    assert renewed.status == 303
    new = group.admin_link()
    assert new != old
    stranger = group.phone()
    late = stranger.request("link", "GET", old)
    assert late.status == 404
    assert group.phone().request("link", "GET", new).status == 303
    # the phone that held the old link's rights stays a member, without them
    page = other_admin.request("page", "GET", group.path("/group")).body
    assert "/group/members/" not in page and "/admin/" not in page
    assert stranger.request("page", "GET", group.path("/group")).status == 404


def test_issue38_3__after_ending_a_phone_the_page_offers_new_links_for_its_games(box):
    group = Group(box)
    shared = group.new_game(group.starter)
    member = group.phone(group.join)
    own = group.new_game(member)
    old = group.keys(shared)
    member.request("link", "GET", group.path(f"/e/{old['edit_key']}"))
    target = group.query("select max(id) as id from members")[0]["id"]
    assert group.end(group.starter, target).status == 303
    page = group.starter.request("page", "GET", group.path("/group")).body
    assert 'id="ended"' in page and "New links for the 2 games it held" in page
    assert group.path("/group/join-link") in page
    owns = group.keys(own)
    renewed = send(group.starter, group.path("/group"), group.path("/group/ended/links"))
    assert renewed.status == 303
    assert group.keys(shared) != old and group.keys(own) != owns
    assert 'id="ended"' not in group.starter.request("page", "GET", group.path("/group")).body
    # the old links open nothing, for the ended phone or any other; the starter keeps score
    for link in (f"/e/{old['edit_key']}", f"/v/{owns['view_key']}"):
        assert group.phone().request("link", "GET", group.path(link)).status == 404
        assert member.request("link", "GET", group.path(link)).status == 404
    assert (
        group.starter.request("page", "GET", group.path(f"/games/{shared}/deals/new")).status == 200
    )


def test_issue38_6__a_phones_state_is_on_the_server_and_its_cookie_stays_small(box):
    group = Group(box)
    phone = group.phone(group.join)
    for _ in range(5):
        group.new_game(phone)
    [row] = group.query(
        "select state from phone_states where member is not null and state like '%edit%'"
    )
    assert len(re.findall(r"\[\d+, \"[0-9a-f]{12}\"\]", row["state"])) == 5
    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    assert len(cookie) < 400, cookie
    # a row is found by a digest of the cookie's key (the file hands out no phone)
    assert all(
        re.fullmatch("[0-9a-f]{64}", r["phone"])
        for r in group.query("select phone from phone_states")
    )
