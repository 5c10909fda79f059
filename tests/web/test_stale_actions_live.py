"""Issue 38 items 1 and 8, and issue 37 item 6, through a real Caddy in front of the real
waitress (``hosted_box``): every action a page carries names the exact deal version it was made
for, by a key never given twice, so a kept Confirm, correction or undo after an undo and a
re-entry gets the "changed meanwhile" page (409) and changes nothing; a phone's "I am" is fixed
once it has entered or confirmed a deal there; "Confirm all N waiting" lists and confirms the
versions it names, all of them or none."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from hosted_box import NEW_GAME, hosted_box

pytestmark = pytest.mark.slow  # the real Caddy in front of the real waitress

#: What a table enters as deals 1, 2 and 3 (one King's contracts), and another result of each.
DEALS = [
    ("king_of_hearts", {"kh_taker": "1"}),
    ("diamonds", {"diamonds_0": "4", "diamonds_1": "3", "diamonds_2": "3", "diamonds_3": "3"}),
    ("collections", {"tricks_0": "4", "tricks_1": "3", "tricks_2": "3", "tricks_3": "3"}),
]
OTHER = {
    "king_of_hearts": {"kh_taker": "2"},
    "diamonds": {"diamonds_0": "1", "diamonds_1": "6", "diamonds_2": "3", "diamonds_3": "3"},
    "collections": {"tricks_0": "1", "tricks_1": "6", "tricks_2": "3", "tricks_3": "3"},
}


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    with hosted_box(tmp_path_factory.mktemp("stale")) as running:
        yield running


class Browser:
    """A phone on the internet that keeps the pages it opened, as a browser's tab does."""

    def __init__(self, phone):
        self.phone = phone

    def get(self, path: str) -> BeautifulSoup:
        reply = self.phone.request("get", "GET", path)
        assert reply.status == 200, (path, reply.status, reply.body[:300])
        return BeautifulSoup(reply.body, "html.parser")

    def send(self, page: str, form, extra: dict[str, str] | None = None):
        """Send *form* (kept from *page*) with its hidden fields and *extra*, as the tab would."""
        # in the page's order, every one: "Confirm all" names each deal in a field "deal"
        fields = [
            (i["name"], i.get("value", ""))
            for i in form.select("input[type=hidden]")
            if i.get("name") and i["name"] not in (extra or {})
        ]
        fields += list((extra or {}).items())
        return self.phone.request(
            "post", "POST", form["action"], fields, {"Referer": self.phone.root + page}
        )


_sources = iter(f"127.0.0.{n}" for n in range(20, 250))


def member(box) -> Browser:
    return Browser(box.member(next(_sources)))


def start(box, **settings: str) -> tuple[int, Browser]:
    """A game that asks for confirmations, started by a phone of the group."""
    keeper = member(box)
    page = "/games/new"
    reply = keeper.send(
        page,
        keeper.get(page).select_one("form[method=post]"),
        {**NEW_GAME, "confirm": "y", **settings},
    )
    assert reply.status == 303, reply.body[:500]
    return int(reply.location.rsplit("/", 1)[1]), keeper


def enter(phone: Browser, game: int, number: int, *, other: bool = False) -> None:
    """Enter deal *number* (its result in DEALS, or with *other*, another one)."""
    contract, result = DEALS[number - 1]
    page = f"/games/{game}/deals/new?contracts={contract}"
    form = phone.get(page).select_one("form[method=post]")
    reply = phone.send(page, form, {**(OTHER[contract] if other else result), "step": "save"})
    assert reply.status == 303, reply.body[:500]


def undo(phone: Browser, game: int, number: int) -> None:
    page = f"/games/{game}/deals/{number}/undo"
    reply = phone.send(page, phone.get(page).select_one("form[method=post]"))
    assert reply.status == 303, reply.body[:500]


def viewer(box, game: int) -> Browser:
    """A phone that only opened the game's view link (the other side's phone)."""
    [row] = box.query("select view_key from games where id = ?", (game,))
    phone = Browser(box.phone(next(_sources)))
    assert phone.phone.request("view", "GET", f"/v/{row['view_key']}").status == 303
    return phone


def say_i_am(phone: Browser, game: int, seat: int):
    page = f"/games/{game}/watch"
    return phone.send(page, phone.get(page).select_one("form#iam"), {"seat": str(seat)})


def says(page: BeautifulSoup, selector: str) -> str:
    return " ".join(page.select_one(selector).get_text(" ", strip=True).split()).replace(" .", ".")


def deals(box, game: int) -> list[dict]:
    return box.query(
        "select id, number, version, record_json, confirmed_at, confirmed_seat, entered_seat "
        "from deals where game_id = ? order by number",
        (game,),
    )


def confirms(box, game: int) -> int:
    [row] = box.query(
        "select count(*) as n from deal_history where game_id = ? and action = 'confirm'", (game,)
    )
    return row["n"]


# -- 38.1: a stale action never lands on another deal --------------------------------------
def test_issue38_1__a_kept_confirm_after_undo_and_reentry_gets_409(box):
    game, keeper = start(box)
    enter(keeper, game, 1)
    enter(keeper, game, 2)
    watcher = viewer(box, game)
    page = f"/games/{game}/watch"
    kept = watcher.get(page).select_one("#waiting-2 form")
    undo(keeper, game, 2)
    enter(keeper, game, 2, other=True)  # another result, entered as deal 2
    reply = watcher.send(page, kept)
    assert reply.status == 409, reply.body[:300]
    shown = BeautifulSoup(reply.body, "html.parser")
    assert shown.select_one("#stale") is not None and shown.select_one("#meanwhile") is not None
    assert [d["confirmed_at"] for d in deals(box, game)] == [None, None]
    assert confirms(box, game) == 0


def test_issue38_1__a_kept_correction_after_undo_and_reentry_gets_409(box):
    game, keeper = start(box)
    [row] = box.query("select edit_key from games where id = ?", (game,))
    second = member(box)  # a second scorekeeper, with the game's edit link
    assert second.phone.request("edit", "GET", f"/e/{row['edit_key']}").status == 303
    enter(keeper, game, 1)
    enter(keeper, game, 2)
    page = f"/games/{game}/deals/2/edit"
    kept = second.get(page).select_one("form[method=post]")
    undo(keeper, game, 2)
    enter(keeper, game, 2, other=True)
    before = deals(box, game)
    reply = second.send(page, kept, {**OTHER["diamonds"], "step": "save"})
    assert reply.status == 409, reply.body[:300]
    assert "#meanwhile" and BeautifulSoup(reply.body, "html.parser").select_one("#meanwhile")
    assert deals(box, game) == before  # the new deal 2 is as its phone entered it


def test_issue38_1__a_kept_undo_after_undo_and_reentry_gets_409(box):
    game, keeper = start(box)
    enter(keeper, game, 1)
    enter(keeper, game, 2)
    page = f"/games/{game}/deals/2/undo"
    kept = keeper.get(page).select_one("form[method=post]")
    undo(keeper, game, 2)
    enter(keeper, game, 2, other=True)
    before = deals(box, game)
    reply = keeper.send(page, kept)
    assert reply.status == 409, reply.body[:300]
    shown = BeautifulSoup(reply.body, "html.parser")
    assert shown.select_one("#stale") is not None and shown.select_one("#meanwhile") is not None
    assert deals(box, game) == before  # the new deal 2 stays
    # the same undo tap sent twice, with nothing entered since, still says it was done already
    undo(keeper, game, 2)
    assert keeper.send(page, kept).status in (303, 409)
    assert len(deals(box, game)) == 1


def test_issue38_1__a_new_deal_never_takes_an_undone_ones_id_or_key(box):
    game, keeper = start(box)
    enter(keeper, game, 1)
    enter(keeper, game, 2)
    [_, first] = box.query(
        "select id, version_key from deals where game_id = ? order by number", (game,)
    )
    undo(keeper, game, 2)
    enter(keeper, game, 2, other=True)
    [_, again] = box.query(
        "select id, version_key from deals where game_id = ? order by number", (game,)
    )
    assert again["id"] != first["id"] and again["version_key"] != first["version_key"]
    history = box.query(
        "select action from deal_history where game_id = ? and deal_id = ? order by id",
        (game, again["id"]),
    )
    assert [h["action"] for h in history] == ["create"]  # not the undone deal's versions


# -- 38.8: confirmation, honestly ----------------------------------------------------------
def test_issue38_8__i_am_is_fixed_once_the_phone_has_confirmed(box):
    game, keeper = start(box)
    enter(keeper, game, 1)
    enter(keeper, game, 2)
    watcher = viewer(box, game)
    assert say_i_am(watcher, game, 1).status == 303
    page = f"/games/{game}/watch"
    assert watcher.send(page, watcher.get(page).select_one("#waiting-1 form")).status == 303
    assert say_i_am(watcher, game, 2).status == 303  # refused, with a word on the page
    shown = watcher.get(page)
    assert "This phone is Bilal." in says(shown, "form#iam")
    assert shown.select_one("#iam-fixed") is not None
    assert shown.select_one("form#iam button[name=seat]") is None
    assert watcher.send(page, shown.select_one("#waiting-2 form")).status == 303
    assert [d["confirmed_seat"] for d in deals(box, game)] == [1, 1]


def test_issue38_8__a_teammate_that_entered_cannot_become_the_other_team(box):
    """The issue's case: under partnership, a teammate was refused, then accepted after saying
    "I am" a player of the other team. Once it has entered a deal, it stays who it was."""
    game, keeper = start(box, preset="partnership")
    [row] = box.query("select edit_key from games where id = ?", (game,))
    say_i_am(keeper, game, 0)
    enter(keeper, game, 1)  # deal 1, entered as Aya (team of Aya and Carla)
    mate = member(box)
    assert mate.phone.request("edit", "GET", f"/e/{row['edit_key']}").status == 303
    assert say_i_am(mate, game, 2).status == 303  # Carla, Aya's partner
    enter(mate, game, 2)  # deal 2, entered as Carla
    assert say_i_am(mate, game, 1).status == 303  # says Bilal now: refused
    page = f"/games/{game}/watch"
    form = mate.get(page).select_one("#waiting-1 form")
    assert mate.send(page, form).status == 303  # refused: its own team entered it
    assert [d["confirmed_at"] for d in deals(box, game)] == [None, None]
    assert confirms(box, game) == 0
    # the game's admin still says who its own phone is
    assert say_i_am(keeper, game, 1).status == 303
    assert "This phone is Bilal." in says(keeper.get(page), "form#iam")


# -- 37.6: Confirm all N waiting -----------------------------------------------------------
def test_issue37_6__confirm_all_with_a_deal_changed_meanwhile_gets_409_and_confirms_none(box):
    game, keeper = start(box)
    for number in (1, 2, 3):
        enter(keeper, game, number)
    watcher = viewer(box, game)
    page = f"/games/{game}/watch"
    kept = watcher.get(page).select_one("form#confirm-all")
    assert kept is not None
    listed = [li.get_text(" ", strip=True) for li in kept.select("#confirm-all-list li")]
    assert len(listed) == 3 and listed[0].startswith("Deal 1: King of Hearts")
    assert "Bilal -75" in listed[0].replace("−", "-")
    assert "Confirm all 3 waiting" in kept.get_text(" ", strip=True)
    edit = f"/games/{game}/deals/2/edit"
    fixed = keeper.send(
        edit,
        keeper.get(edit).select_one("form[method=post]"),
        {**OTHER["diamonds"], "step": "save"},
    )
    assert fixed.status == 303
    reply = watcher.send(page, kept)
    assert reply.status == 409, reply.body[:300]
    assert BeautifulSoup(reply.body, "html.parser").select_one("#stale") is not None
    assert [d["confirmed_at"] for d in deals(box, game)] == [None, None, None]
    assert confirms(box, game) == 0
    # opened again, it names the deals as they are now, and confirms all three, once
    fresh = watcher.get(page).select_one("form#confirm-all")
    assert watcher.send(page, fresh).status == 303
    assert watcher.send(page, fresh).status == 303  # the same tap twice
    assert all(d["confirmed_at"] for d in deals(box, game))
    assert confirms(box, game) == 3
    assert watcher.get(page).select_one("form#confirm-all") is None


def test_issue37_6__confirm_all_is_not_offered_for_deals_this_phone_entered(box):
    game, keeper = start(box)
    for number in (1, 2, 3):
        enter(keeper, game, number)
    assert keeper.get(f"/games/{game}").select_one("form#confirm-all") is None
    watcher = viewer(box, game)
    assert watcher.get(f"/games/{game}/watch").select_one("form#confirm-all") is not None
    other = member(box)  # a phone of the group that entered nothing, on the game page
    assert other.get(f"/games/{game}").select_one("form#confirm-all") is not None
