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
