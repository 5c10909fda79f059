"""Issue 31, "Confirmation by the other side": a game setting, off by default. With it on, a
saved deal waits until a phone of the other side confirms it with one tap: never the phone that
entered it; under partnership, a player of the other team. A correction of a confirmed deal
makes it wait again, unless the game's admin corrects it. The game page, the scoreboard and
the sheets mark the deals waiting; the history says who confirmed what."""

from __future__ import annotations

import io
import json
import time

import pytest
from pypdf import PdfReader

from scorekeeper.store import confirmations, confirming, storage, transfer
from scorekeeper.store.confirmations import Phone
from scorekeeper.store.confirming import AlreadyConfirmed
from scorekeeper.store.db import connect
from scorekeeper.store.refused import Refused
from scorekeeper.web import create_app
from scorekeeper.web.keeping import readysheets as sheets

from gamebuilder import standard_deal
from web_helpers import PLAYERS, Table, hidden_fields, keep_score, soup

KH = standard_deal(0, "king_of_hearts")  # Bilal takes the K♥
DIAMONDS = standard_deal(0, "diamonds")


def database(app):
    return connect(app.config["DATABASE"])


def waiting(app, game_id: int) -> list[int]:
    db = database(app)
    try:
        return confirmations.unconfirmed_deals(db, game_id)
    finally:
        db.close()


def confirm_form(client, game_id: int, number: int, page: str = "watch"):
    """The Confirm tap's form as *client* sees it on the game's scoreboard (or game page)."""
    url = f"/games/{game_id}/watch" if page == "watch" else f"/games/{game_id}"
    html = soup(client.get(url))
    return html.select_one(f"#waiting-{number} form"), html


def fields_of(form) -> dict[str, str]:
    return {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}


def tap_confirm(client, game_id: int, number: int, page: str = "watch"):
    form, html = confirm_form(client, game_id, number, page)
    assert form is not None, html.select_one("#confirmations")
    return client.post(form["action"], data=fields_of(form))


def say_i_am(client, game_id: int, seat: int | None):
    html = soup(client.get(f"/games/{game_id}/watch"))
    form = html.select_one("form#iam")
    data = {**hidden_fields(html, "form#iam"), "seat": "" if seat is None else str(seat)}
    response = client.post(form["action"], data=data)
    assert response.status_code == 303
    return response


def flashed(response_page) -> str:
    return soup(response_page).get_text(" ", strip=True)


@pytest.fixture
def phones(app, client):
    """Phone A (keeps score, starts the game) and phone B (only watches)."""
    return Table(client), app.test_client()


def start(table: Table, **settings) -> int:
    return table.new_game(**({"confirm": "y"} | settings))


# -- off by default --------------------------------------------------------------------------
def test_confirmation_is_off_by_default(app, phones):
    a, b = phones
    game = a.new_game()
    a.enter(game, KH)
    assert waiting(app, game) == []
    assert soup(a.client.get(f"/games/{game}")).select_one("#confirmations") is None
    assert soup(b.get(f"/games/{game}/watch")).select_one("#confirmations") is None
    assert soup(b.get(f"/games/{game}/watch")).select("tr.waiting") == []


def test_new_game_offers_the_setting_unchecked(client):
    box = soup(client.get("/games/new")).select_one("input[name=confirm]")
    assert box is not None and not box.has_attr("checked")


def test_store_create_game_takes_confirm_for_a_tournament(app):
    db = database(app)
    try:
        rules = storage.HouseRules()
        game = storage.create_game(
            db, title="", played_on=None, players=PLAYERS, rules=rules, first_king=0, confirm=True
        )
        storage.add_deal(db, game, KH, token=storage.new_form_token(), number=1)
        assert confirmations.unconfirmed_deals(db, game) == [1]
    finally:
        db.close()


# -- with it on: waiting until the other side confirms ---------------------------------------
def test_a_saved_deal_waits_until_another_phone_confirms_it(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    assert waiting(app, game) == [1]
    page = soup(a.client.get(f"/games/{game}"))
    assert page.select_one("#waiting-1") is not None
    assert page.select_one("#sheet tr.waiting") is not None
    watch = soup(b.get(f"/games/{game}/watch"))
    assert watch.select_one("#waiting-1 button") is not None
    assert watch.select_one("#sheet tr.waiting") is not None
    done = tap_confirm(b, game, 1)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/games/{game}/watch")
    assert "Deal 1 confirmed." in flashed(b.get(done.headers["Location"]))
    assert waiting(app, game) == []
    page = soup(a.client.get(f"/games/{game}"))
    assert page.select_one("#all-confirmed") is not None
    assert page.select_one("#sheet tr.waiting") is None


def test_the_entering_phone_cannot_confirm_its_own_deal(app, phones):
    a, _ = phones
    game = start(a)
    a.enter(game, KH)
    page = soup(a.client.get(f"/games/{game}"))
    assert page.select_one("#waiting-1 form") is None  # no button for its own entry
    db = database(app)
    try:
        deal = next(
            db.query("select id, version, version_key from deals where game_id = ?", [game])
        )
    finally:
        db.close()
    response = a.client.post(
        f"/games/{game}/deals/1/confirm",
        data={
            "deal_id": deal["id"],
            "version": deal["version"],
            "version_key": deal["version_key"],
            "next": f"/games/{game}",
        },
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "This phone entered deal 1: a phone of the other side confirms it." in flashed(response)
    assert waiting(app, game) == [1]


def test_a_watching_phone_of_a_partnership_must_say_who_it_is(app, phones):
    a, b = phones
    game = start(a, preset="partnership")
    a.enter(game, KH)
    response = tap_confirm(b, game, 1)
    text = flashed(b.get(response.headers["Location"]))
    assert "Say which player you are first" in text
    assert waiting(app, game) == [1]


def test_partnership_the_entering_team_cannot_confirm_and_the_other_team_can(app, phones):
    a, b = phones
    game = start(a, preset="partnership")
    say_i_am(a.client, game, 0)  # Aya keeps score: her team is seats 0 and 2
    a.enter(game, KH)
    say_i_am(b, game, 2)  # Carla, Aya's partner
    response = tap_confirm(b, game, 1)
    assert "Your team entered deal 1" in flashed(b.get(response.headers["Location"]))
    assert waiting(app, game) == [1]
    say_i_am(b, game, 3)  # now Dana, of the other team
    watch = soup(b.get(f"/games/{game}/watch"))
    assert "This phone is Dana." in " ".join(watch.select_one("#iam").get_text().split())
    assert "entered by Aya" in watch.select_one("#waiting-1").get_text(" ", strip=True)
    tap_confirm(b, game, 1)
    assert waiting(app, game) == []


def test_the_same_confirmation_sent_twice_records_one(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    form, _ = confirm_form(b, game, 1)
    data = fields_of(form)
    assert b.post(form["action"], data=data).status_code == 303
    again = b.post(form["action"], data=data, follow_redirects=True)
    assert "Deal 1 was confirmed already: nothing was recorded twice." in flashed(again)
    db = database(app)
    try:
        rows = list(db.query("select * from deal_history where action = 'confirm'"))
    finally:
        db.close()
    assert len(rows) == 1


# -- corrections ------------------------------------------------------------------------------
def test_a_correction_of_a_confirmed_deal_waits_again(app, phones):
    a, b = phones
    game = start(a)
    keep_score(b, app, game)  # B keeps score too, and corrects
    a.enter(game, KH)
    tap_confirm(b, game, 1, page="game")
    assert waiting(app, game) == []
    corrected = dict(KH, king_of_hearts={"taker": 2})
    assert Table(b).correct(game, 1, corrected).status_code == 303
    assert waiting(app, game) == [1]
    # now B entered it: B cannot confirm, A (the other side of that correction) can
    assert confirm_form(b, game, 1, page="game")[0] is None
    tap_confirm(a.client, game, 1, page="game")
    assert waiting(app, game) == []


def test_the_game_admin_corrects_a_confirmed_deal_and_it_stays_confirmed(app, phones):
    a, b = phones
    game = start(a)  # A started it: the game's admin
    a.enter(game, KH)
    tap_confirm(b, game, 1)
    assert a.correct(game, 1, dict(KH, king_of_hearts={"taker": 3})).status_code == 303
    assert waiting(app, game) == []
    history = soup(a.client.get(f"/games/{game}/history")).get_text(" ", strip=True)
    assert "corrected by the game’s admin: it stays confirmed" in history


def test_the_admin_correcting_a_waiting_deal_leaves_it_waiting(app, phones):
    a, _ = phones
    game = start(a)
    a.enter(game, KH)
    a.correct(game, 1, dict(KH, king_of_hearts={"taker": 3}))
    assert waiting(app, game) == [1]


def test_a_stale_confirmation_gets_the_changed_meanwhile_page(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    form, _ = confirm_form(b, game, 1)  # B's page shows version 1
    a.correct(game, 1, dict(KH, king_of_hearts={"taker": 3}))
    response = b.post(form["action"], data=fields_of(form))
    assert response.status_code == 409
    page = soup(response)
    assert page.select_one("#stale") is not None and page.select_one("#meanwhile") is not None
    assert waiting(app, game) == [1]
    # the page offers the deal as it is now
    fresh = page.select_one("#waiting-1 form")
    again = b.post(fresh["action"], data=fields_of(fresh))
    assert again.status_code == 303  # and back to the page the phone came from
    assert again.headers["Location"].endswith(f"/games/{game}/watch")
    assert waiting(app, game) == []


def test_a_thrown_in_deal_needs_no_confirmation(app, phones):
    a, _ = phones
    game = start(a)
    a.throw_in(game, 0, "misdeal", 1)
    assert waiting(app, game) == []


# -- the history and the sheets ------------------------------------------------------------
def test_the_history_says_who_confirmed(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    say_i_am(b, game, 1)
    tap_confirm(b, game, 1)
    history = soup(a.client.get(f"/games/{game}/history"))
    text = history.get_text(" ", strip=True)
    assert "confirmed by Bilal" in text
    deal = soup(a.client.get(f"/games/{game}/deals/1")).get_text(" ", strip=True)
    assert "Confirmed" in deal


def test_the_printed_sheet_marks_unconfirmed_deals(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    a.enter(game, DIAMONDS)
    tap_confirm(b, game, 1)

    def pdf_text() -> str:
        for _ in range(20):  # a busy printer says so (503), as it would to a phone
            assert sheets.WORKER.wait_idle()
            response = a.client.get(f"/games/{game}/sheet.pdf")
            if response.status_code != 503:
                break
            time.sleep(0.5)
        assert response.status_code == 200, response.status_code
        return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)

    text = pdf_text()
    assert "Waiting for confirmation: deal 2" in text
    tap_confirm(b, game, 2)
    assert "Waiting for confirmation" not in pdf_text()


# -- the game file -----------------------------------------------------------------------------
def test_export_and_import_keep_the_setting_and_the_deals_waiting(app, phones):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    a.enter(game, DIAMONDS)
    tap_confirm(b, game, 1)
    db = database(app)
    try:
        text = transfer.game_json(transfer.stored_game(db, game))
        assert json.loads(text)["confirmation"] == {"waiting": [2]}
        doc = json.loads(text)
        doc["title"] = "Imported"
        [copy] = transfer.import_text(db, json.dumps(doc)).ids
        assert confirmations.unconfirmed_deals(db, copy) == [2]
        stored = storage.load_game(db, copy)
        assert stored is not None and "confirmation" not in (stored.row["extra_json"] or "")
    finally:
        db.close()


def test_a_file_without_the_key_imports_with_confirmation_off(app):
    from gamebuilder import standard_game

    db = database(app)
    try:
        [game] = transfer.import_text(db, json.dumps(standard_game())).ids
        assert confirmations.unconfirmed_deals(db, game) == []
        assert not storage.load_game(db, game).row["confirm"]
    finally:
        db.close()


# -- the store's own refusals ------------------------------------------------------------------
def test_store_refuses_the_entering_phone_and_records_nothing_twice(app):
    db = database(app)
    try:
        game = storage.create_game(
            db,
            title="",
            played_on=None,
            players=PLAYERS,
            rules=storage.HouseRules(),
            first_king=0,
            confirm=True,
        )
        me, other = Phone("a" * 32), Phone("b" * 32)
        storage.add_deal(db, game, KH, token=storage.new_form_token(), number=1, by=me)
        deal_id = next(db.query("select id from deals"))["id"]
        with pytest.raises(Refused):
            confirming.confirm(db, game, 1, version=1, deal_id=deal_id, by=me)
        with pytest.raises(Refused):
            confirming.confirm(db, game, 1, version=1, deal_id=deal_id, by=Phone(None))
        with pytest.raises(storage.Conflict):
            confirming.confirm(db, game, 1, version=2, deal_id=deal_id, by=other)
        confirming.confirm(db, game, 1, version=1, deal_id=deal_id, by=other)
        with pytest.raises(AlreadyConfirmed):
            confirming.confirm(db, game, 1, version=1, deal_id=deal_id, by=other)
        with pytest.raises(storage.NotFound):
            confirming.confirm(db, game + 99, 1, version=1, deal_id=deal_id, by=other)
    finally:
        db.close()


# -- no 500 on any bad post --------------------------------------------------------------------
BAD = [
    {},
    {"deal_id": "x", "version": "1"},
    {"deal_id": "1", "version": ""},
    {"deal_id": "-1", "version": "-5"},
    {"deal_id": "9" * 40, "version": "9" * 40},
    {"deal_id": "1", "version": "1", "next": "https://elsewhere.example/"},
    {"deal_id": "1\x00", "version": "1"},
    {"deal_id": "١", "version": "١"},
]


@pytest.mark.parametrize("data", BAD)
@pytest.mark.parametrize("number", [1, 2, 999])
def test_bad_confirm_posts_never_give_a_500(app, phones, data, number):
    a, b = phones
    game = start(a)
    a.enter(game, KH)
    response = b.post(f"/games/{game}/deals/{number}/confirm", data=data)
    assert response.status_code in (303, 400, 404, 409), response.status_code
    if response.status_code == 303:
        assert response.headers["Location"].startswith("/games/")
    assert waiting(app, game) in ([1], [])


@pytest.mark.parametrize("seat", ["", "0", "3", "4", "-1", "x", "0" * 30, "٣"])
def test_bad_i_am_posts_never_give_a_500(app, phones, seat):
    a, b = phones
    game = start(a)
    response = b.post(f"/games/{game}/iam", data={"seat": seat})
    assert response.status_code in (303, 400), response.status_code


def test_confirming_a_game_that_does_not_ask(app, phones):
    a, b = phones
    game = a.new_game()
    a.enter(game, KH)
    response = b.post(
        f"/games/{game}/deals/1/confirm",
        data={"deal_id": "1", "version": "1"},
        follow_redirects=True,
    )
    assert "This game does not ask for confirmations." in flashed(response)


def test_a_confirmation_needs_the_page_token(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "c.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )
    a, b = app.test_client(), app.test_client()
    fields = hidden_fields(soup(a.get("/games/new")))
    data = {f"player_{s}": n for s, n in enumerate(PLAYERS)}
    data.update(fields, first_king="0", preset="standard", confirm="y", played_on="2026-11-20")
    assert a.post("/games/new", data=data).status_code == 303
    entry = hidden_fields(soup(a.get("/games/1/deals/new?contracts=king_of_hearts")))
    saved = a.post("/games/1/deals/new", data={**entry, "kh_taker": "1", "step": "save"})
    assert saved.status_code == 303
    form, _ = confirm_form(b, 1, 1)
    data = fields_of(form)
    without = {k: v for k, v in data.items() if k != "csrf_token"}
    assert b.post(form["action"], data=without).status_code == 400
    db = connect(app.config["DATABASE"])
    try:
        assert confirmations.unconfirmed_deals(db, 1) == [1]
    finally:
        db.close()
    assert b.post(form["action"], data=data).status_code == 303


# -- a box of many groups: the view link lets a phone confirm, nothing else does -------------
def test_a_phone_with_only_the_view_link_says_who_it_is_and_confirms(tmp_path):
    from group_helpers import InGroup, group_file, groups_app, start_group

    app = groups_app(tmp_path)
    group, _, starter = start_group(app)
    a = Table(InGroup(starter, group))
    game = start(a)
    a.enter(game, KH)
    db = connect(group_file(app, group))
    try:
        [row] = db.query("select view_key from games where id = ?", [game])
    finally:
        db.close()
    stranger = InGroup(app.test_client(), group)
    assert stranger.get(f"/games/{game}/watch").status_code == 404
    refused = stranger.post(f"/games/{game}/deals/1/confirm", data={"deal_id": 1, "version": 1})
    assert refused.status_code == 404
    b = InGroup(app.test_client(), group)
    assert b.get(f"/v/{row['view_key']}").status_code == 303
    watch = soup(b.get(f"/games/{game}/watch"))
    assert b.post(watch.select_one("form#iam")["action"], data={"seat": "1"}).status_code == 303
    form = soup(b.get(f"/games/{game}/watch")).select_one("#waiting-1 form")
    assert b.post(form["action"], data=fields_of(form)).status_code == 303
    db = connect(group_file(app, group))
    try:
        assert confirmations.unconfirmed_deals(db, game) == []
        [confirmed] = db.query("select seat from deal_history where action = 'confirm'")
        assert confirmed["seat"] == 1
    finally:
        db.close()


def test_the_club_nights_organiser_is_the_admin_of_its_tables(app, client):
    """A table of a club night that asks for confirmations: the organiser's correction of a
    confirmed deal stays confirmed; a correction by the table's own phone waits again."""
    created = client.post(
        "/clubs/new",
        data={
            "title": "Café",
            "played_on": "2026-11-20",
            "rounds": "2",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join([*PLAYERS, "Rami", "Nour", "Sami", "Hala"]),
        },
    )
    assert created.status_code == 303, soup(created).get_text(" ", strip=True)[:500]
    db = database(app)
    try:
        with db.atomic():
            db.execute("update games set confirm = 1")
        game = db.execute("select min(game_id) from club_tables").fetchone()[0]
    finally:
        db.close()
    organiser, table_phone, watcher = Table(client), Table(app.test_client()), app.test_client()
    keep_score(table_phone.client, app, game)
    table_phone.enter(game, KH)
    tap_confirm(watcher, game, 1)
    assert organiser.correct(game, 1, dict(KH, king_of_hearts={"taker": 3})).status_code == 303
    assert waiting(app, game) == []
    assert table_phone.correct(game, 1, dict(KH, king_of_hearts={"taker": 2})).status_code == 303
    assert waiting(app, game) == [1]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Waiting for confirmation"), ("ar", "بانتظار التأكيد")]
)
def test_a_game_files_waiting_deals_are_marked_on_its_printed_sheet(lang, words):
    from scorekeeper.engine import loads
    from scorekeeper.printing import render_game_pdf

    doc = {
        "format": "trex-game/1",
        "players": list(PLAYERS),
        "rules": {},
        "first_king": 0,
        "deals": [KH, DIAMONDS],
        "confirmation": {"waiting": [2]},
    }
    [game] = loads(json.dumps(doc))
    text = PdfReader(io.BytesIO(render_game_pdf(game, lang=lang))).pages[0].extract_text()
    assert words in text and "2*" in text.replace(" ", "")
    [plain] = loads(json.dumps({**doc, "confirmation": {"waiting": []}}))
    assert (
        words
        not in PdfReader(io.BytesIO(render_game_pdf(plain, lang=lang))).pages[0].extract_text()
    )


def test_issue37_6__confirm_all_through_the_view_link_on_a_box_of_many_groups(tmp_path):
    """Under /g/<id>/, the phone with only the view link gets "Confirm all N waiting" on the
    scoreboard, and its tap confirms every deal it lists."""
    from werkzeug.datastructures import MultiDict

    from group_helpers import InGroup, group_file, groups_app, start_group

    app = groups_app(tmp_path)
    group, _, starter = start_group(app)
    a = Table(InGroup(starter, group))
    game = start(a)
    a.enter(game, KH)
    a.enter(game, DIAMONDS)
    db = connect(group_file(app, group))
    try:
        [row] = db.query("select view_key from games where id = ?", [game])
    finally:
        db.close()
    b = InGroup(app.test_client(), group)
    assert b.get(f"/v/{row['view_key']}").status_code == 303
    form = soup(b.get(f"/games/{game}/watch")).select_one("form#confirm-all")
    assert form is not None and form["action"] == f"/g/{group}/games/{game}/confirm-all"
    assert len(form.select("#confirm-all-list li")) == 2
    fields = MultiDict((i["name"], i.get("value", "")) for i in form.select("input[type=hidden]"))
    assert b.post(form["action"], data=fields).status_code == 303
    db = connect(group_file(app, group))
    try:
        assert confirmations.unconfirmed_deals(db, game) == []
    finally:
        db.close()
