"""Issue 31, "Confirmation by the other side", on two phones: phone A keeps score and enters a
deal; phone B follows the game through its view link, sees the deal waiting without a reload,
says which player it is and confirms it with one tap; A's page shows it confirmed by itself."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from gamebuilder import standard_deal
from phone_helpers import LAYOUT_SCRIPT, NARROW, chip, shoot
from web_helpers import Table

#: The pages ask every 3 seconds; a change must show within this many.
FOLLOW_SECONDS = 8


def test_the_other_phone_confirms_and_the_scorer_sees_it_without_reloading(
    table_site, table_own_game, table_new_phone
):
    game_id, cookie = table_own_game(confirm="y")
    scorer = table_new_phone(cookies=[cookie])
    scorer.goto(f"{table_site.url}/games/{game_id}")
    scorer.locator("#follow summary").tap()
    link = scorer.get_attribute("#follow a.btn", "href")
    assert link.startswith(urlsplit(table_site.url).path + "/v/")

    other = table_new_phone(member=False)  # the view link is all it has
    other.goto(table_site.origin + link)
    assert other.url == f"{table_site.url}/games/{game_id}/watch"
    assert other.locator("#all-confirmed").count() == 1
    other.evaluate("window.stayed = true")

    scorer.evaluate("window.stayed = true")
    scorer.locator('#next .options a:text-is("King of Hearts")').tap()
    scorer.locator(chip("kh_taker", 1)).tap()
    scorer.locator("form[data-preview] button[name=step]").tap()
    scorer.locator(".flash").get_by_text("Deal 1 saved.").wait_for()
    assert scorer.locator("#waiting-1").count() == 1
    assert scorer.locator("#waiting-1 button").count() == 0  # not its own entry
    assert scorer.locator("#sheet tr.waiting").count() == 1
    scorer.evaluate("window.stayed = true")

    # the scoreboard on the other phone shows the deal waiting, by itself
    other.locator("#waiting-1 button").wait_for(timeout=FOLLOW_SECONDS * 1000)
    assert other.evaluate("window.stayed") is True
    assert other.locator("#sheet tr.waiting").count() == 1
    shoot(other, "confirmation-waiting")

    other.locator("#iam button", has_text="I am Bilal").tap()
    other.locator("#iam").get_by_text("This phone is Bilal.").wait_for()
    other.locator("#waiting-1 button").tap()  # the one tap
    other.locator(".flash").get_by_text("Deal 1 confirmed.").wait_for()
    assert other.locator("#all-confirmed").count() == 1

    scorer.locator("#all-confirmed").wait_for(timeout=FOLLOW_SECONDS * 1000)
    assert scorer.evaluate("window.stayed") is True  # updated in place, not reloaded
    assert scorer.locator("#sheet tr.waiting").count() == 0
    scorer.goto(f"{table_site.url}/games/{game_id}/history")
    assert "confirmed by Bilal" in scorer.locator("main").inner_text()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_stale_confirmation_shows_what_changed_and_fits_a_small_phone(
    table_site, table_own_game, table_new_phone, lang
):
    """The deal was corrected while the other phone had it on screen: its tap gets the
    "changed meanwhile" page (409), with the deal as it is now and its own Confirm, in both
    languages, within a 360 px screen."""
    game_id, cookie = table_own_game(confirm="y")
    scorer = table_site.seed.test_client()
    scorer.set_cookie("session", cookie["value"])
    deal = standard_deal(0, "king_of_hearts")
    Table(scorer).enter(game_id, deal)
    other = table_new_phone(size=NARROW, locale=lang)
    other.goto(f"{table_site.url}/games/{game_id}/watch")
    other.locator("#waiting-1 button").wait_for()
    Table(scorer).correct(game_id, 1, dict(deal, king_of_hearts={"taker": 3}))
    with other.expect_response(lambda r: r.request.method == "POST") as answer:
        other.locator("#waiting-1 button").tap()
    assert answer.value.status == 409
    other.locator("#stale").wait_for()
    assert other.locator("#meanwhile").count() == 1
    assert other.get_attribute("html", "lang") == lang
    layout = other.evaluate(LAYOUT_SCRIPT)
    assert layout["width"] <= layout["viewport"], layout
    shoot(other, f"confirmation-changed-meanwhile-{lang}")
    other.locator("#waiting-1 button").tap()  # confirms the deal as it is now
    other.locator("#all-confirmed").wait_for()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_issue37_6__confirm_all_on_the_other_sides_phone(
    table_site, table_own_game, table_new_phone, lang
):
    """Three deals wait; the other side's phone (the view link's scoreboard) lists them with
    their points under "Confirm all 3 waiting", within a 360 px screen, and one tap confirms
    all three; the scorer's own page offers no Confirm all for the deals it entered."""
    game_id, cookie = table_own_game(confirm="y")
    scorer = table_site.seed.test_client()
    scorer.set_cookie("session", cookie["value"])
    table = Table(scorer)
    for contract in ("king_of_hearts", "diamonds", "collections"):
        table.enter(game_id, standard_deal(0, contract))
    own = table_new_phone(cookies=[cookie])
    own.goto(f"{table_site.url}/games/{game_id}")
    assert own.locator("#waiting-3").count() == 1
    assert own.locator("#confirm-all").count() == 0  # its own entries: nothing to confirm
    other = table_new_phone(size=NARROW, locale=lang)
    other.goto(f"{table_site.url}/games/{game_id}/watch")
    form = other.locator("#confirm-all")
    form.wait_for()
    assert form.locator("#confirm-all-list li").count() == 3
    button = form.locator("button[type=submit]")
    if lang == "en":
        assert button.inner_text().strip() == "Confirm all 3 waiting"
        assert form.locator("#confirm-all-1").inner_text().startswith("Deal 1: King of Hearts")
    layout = other.evaluate(LAYOUT_SCRIPT)
    assert layout["width"] <= layout["viewport"], layout
    shoot(other, f"confirm-all-{lang}")
    with other.expect_response(lambda r: r.request.method == "POST") as answer:
        button.tap()
    assert answer.value.status == 303
    other.locator("#all-confirmed").wait_for()
    assert other.locator("#confirm-all").count() == 0
    assert other.locator("#sheet tr.waiting").count() == 0


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_issue38_1__a_kept_undo_after_undo_and_reentry_shows_the_deal_now(
    table_site, table_own_game, table_new_phone, lang
):
    """The undo page of deal 2 stays open on the scorer's phone while deal 2 is undone and
    another result entered in its place: its tap gets the "changed meanwhile" page (409), the
    new deal 2 stays, and the page fits a 360 px screen in both languages."""
    game_id, cookie = table_own_game()
    other = table_site.seed.test_client()
    other.set_cookie("session", cookie["value"])
    table = Table(other)
    table.enter(game_id, standard_deal(0, "king_of_hearts"))
    table.enter(game_id, standard_deal(0, "diamonds"))
    phone = table_new_phone(cookies=[cookie], size=NARROW, locale=lang)
    phone.goto(f"{table_site.url}/games/{game_id}/deals/2/undo")
    table.undo(game_id, 2)
    table.enter(game_id, dict(standard_deal(0, "diamonds"), diamonds=[1, 6, 3, 3]))
    with phone.expect_response(lambda r: r.request.method == "POST") as answer:
        phone.locator("form[method=post] button.danger").tap()
    assert answer.value.status == 409
    phone.locator("#stale").wait_for()
    assert phone.locator("#meanwhile").count() == 1
    layout = phone.evaluate(LAYOUT_SCRIPT)
    assert layout["width"] <= layout["viewport"], layout
    shoot(phone, f"undo-changed-meanwhile-{lang}")
    assert other.get(f"/games/{game_id}/deals/2").status_code == 200  # the new deal 2 stays
