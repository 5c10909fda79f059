"""With JavaScript off, whole deals are still entered: the form, the page that shows the scores,
save. The server fills in the fourth count."""

from __future__ import annotations

from scorekeeper.engine import HouseRules, read_deal, score_deal

from phone_helpers import (
    CONTRAST_SCRIPT,
    LAYOUT_SCRIPT,
    NARROW,
    PHONE,
    TAP_REPORT,
    Thumb,
    chip,
    engine_game,
    entry_taps,
    number,
    shoot,
    standings,
)
from played import deal, kh, queens
from web_helpers import PLAYERS

QUEENS = deal(0, "queens", queens=queens(kh(1, 3), kh(0), kh(2), kh(3)))
DIAMONDS = deal(0, "diamonds", diamonds=[2, 5, 4, 2])


def deal_scores(page) -> list[int]:
    """The "This deal" column of the page that shows a deal's scores."""
    rows = page.locator("main table.standings tbody tr").all()
    return [number(row.locator("td").nth(1).inner_text()) for row in rows]


def test_whole_deals_without_javascript(table_site, table_own_game, table_new_phone):
    game_id, cookie = table_own_game()
    page = table_new_phone(js=False, cookies=[cookie])
    thumb = Thumb(page)
    page.goto(f"{table_site.url}/games/{game_id}")
    for number_, entered in enumerate((QUEENS, DIAMONDS), start=1):
        label = "Queens" if "queens" in entered else "Diamonds"
        thumb.tap(f'#next .options a:text-is("{label}")')
        thumb.taken()
        assert page.locator("button[name=step]").inner_text() == "Check the scores"
        assert page.locator("#live-preview").is_hidden()
        for target in entry_taps(entered):
            thumb.tap(target)
        thumb.tap("button[name=step]")
        # the scores, from the server, before anything is saved
        page.get_by_role("heading", name=f"Check deal {number_}").wait_for()
        record, _ = read_deal(entered, number_, PLAYERS)
        assert deal_scores(page) == list(score_deal(record, HouseRules()))
        if number_ == 1:
            check_the_preview_page(page)
        thumb.tap(f'button:text-is("Save deal {number_}")')
        page.locator(".flash").get_by_text(f"Deal {number_} saved.").wait_for()
        TAP_REPORT.append(
            f"{label + ' (no JS)':<17} {thumb.taken():>2} taps "
            f"(the scores on a page of their own, then save)"
        )
    _, scored = engine_game(PLAYERS, [QUEENS, DIAMONDS])
    assert standings(page) == dict(zip(PLAYERS, scored.totals))
    shoot(page, "game-without-javascript")


def check_the_preview_page(page) -> None:
    """The page that shows the scores before saving: readable, in reach, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(CONTRAST_SCRIPT) == [], scheme
        shoot(page, f"preview-without-javascript-{scheme}")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(NARROW)
    found = page.evaluate(LAYOUT_SCRIPT)
    assert found["width"] <= NARROW["width"] and found["small"] == [] and found["tiny"] == []
    page.set_viewport_size(PHONE)


def test_a_fourth_count_left_out_is_filled_in_by_the_server(
    table_site, table_own_game, table_new_phone
):
    game_id, cookie = table_own_game()
    page = table_new_phone(js=False, cookies=[cookie])
    page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts=collections")
    for seat, count in enumerate((3, 4, 5)):
        page.locator(chip(f"tricks_{seat}", count)).tap()
    page.locator("button[name=step]").tap()
    page.get_by_role("heading", name="Check deal 1").wait_for()
    assert "Tricks: Aya 3, Bilal 4, Carla 5, Dana 1" in page.locator("main").inner_text()
