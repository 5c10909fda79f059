"""A club night of eight players at two tables, as a café runs it: the organiser seats the night
on one phone, each table keeps its score on its own phone (two phones, the ordinary entry form),
and the night's page and the wall view on the TV follow the tables and the standings by
themselves, round after round. (Most deals are entered through the forms by the test client to
keep it quick; each table's phone enters deals of its own in both rounds.)"""

from __future__ import annotations

import re

from phone_helpers import chip, keep_score, shoot
from played import GAME
from web_helpers import Table, edit_link

EIGHT = ["Aya", "Bilal", "Carla", "Dana", "ليلى", "Farah", "Ghassan", "Hala"]
#: The night's page and the wall ask every 3 seconds; a save must show within this many.
FOLLOW_MS = 9_000
TV = {"width": 1280, "height": 720}


def enter_on_phone(page, site, game_id: int) -> None:
    """The table's phone enters the first deal of GAME (King of Hearts, doubled by its holder,
    who takes it) through the game page and the entry form, and saves it."""
    page.goto(f"{site.url}/games/{game_id}")
    page.locator('#next .options a:text-is("King of Hearts")').tap()
    page.locator(chip("kh_taker", 2)).tap()
    page.locator(chip("kh_doubled_by", 2)).tap()
    page.locator("form[data-preview] button[name=step]").tap()
    page.locator(".flash").get_by_text("Deal 1 saved.").wait_for()


def finish(site, game_id: int) -> None:
    """The rest of GAME, entered through the forms by another phone of the table."""
    client = site.seed.test_client()
    client.get(edit_link(site.seed, game_id))
    table = Table(client)
    for entered in GAME[1:]:
        if "thrown_in" in entered:
            info = entered["thrown_in"]
            table.throw_in(game_id, king=entered["king"], reason=info["reason"], by=info["by"])
        else:
            table.enter(game_id, entered)


def tables_of(site, club_id: int, number: int) -> list[tuple[int, tuple[str, ...]]]:
    with site.seed.app_context():
        from scorekeeper.store import clubnights
        from scorekeeper.web.access.database import get_db

        club = clubnights.load(get_db(), club_id)
        return [(t.game_id, t.players) for t in club.rounds[number - 1].tables]


def standings_names(page) -> list[str]:
    return page.locator("#night-standings tbody tr td:nth-child(2)").all_inner_texts()


def test_a_club_night_of_eight_at_two_tables_two_rounds_from_two_phones(site, new_phone):
    organiser = new_phone()
    organiser.goto(f"{site.url}/clubs/new")
    organiser.fill("#players", "\n".join(EIGHT))
    organiser.fill("#title", "Café Rawda")
    organiser.locator(
        "#f-first_round input[value=entered] + *, #f-first_round label:has(input[value=entered])"
    ).first.tap()
    organiser.select_option("#rounds", "2")
    organiser.locator("#new-game button[type=submit]").tap()
    organiser.wait_for_url(re.compile(r"/clubs/\d+$"))
    club_id = int(organiser.url.rsplit("/", 1)[1])
    assert organiser.locator(".club-table").count() == 2
    shoot(organiser, "club-night-round-1")

    wall = new_phone(scheme="dark", size=TV)  # a laptop or TV on the wall
    wall.goto(f"{site.url}/clubs/{club_id}/wall")
    assert wall.locator("main form, main button").count() == 0  # read-only
    wall.evaluate("window.stayed = true")

    first = tables_of(site, club_id, 1)
    assert [players for _, players in first] == [tuple(EIGHT[:4]), tuple(EIGHT[4:])]
    phones = [new_phone(), new_phone(scheme="dark")]
    for phone, (game_id, _) in zip(phones, first):
        keep_score(phone, site, game_id)  # the table's edit link, handed out by the organiser
        enter_on_phone(phone, site, game_id)
    # the wall follows the tables without a reload: deal 2 next at both
    wall.wait_for_function(
        "() => ['#table-1', '#table-2'].every(t => document.querySelector(t + ' .progress')"
        ".textContent.includes('Deal 2'))",
        timeout=FOLLOW_MS,
    )
    assert wall.evaluate("window.stayed") is True

    for game_id, _ in first:
        finish(site, game_id)
    wall.wait_for_function(
        "() => document.querySelectorAll('.club-table.done').length === 2"
        " && document.querySelector('#champion')",
        timeout=FOLLOW_MS,
    )
    assert wall.evaluate("window.stayed") is True
    ranked = standings_names(wall)
    assert sorted(ranked) == sorted(EIGHT)
    assert wall.locator("#champion").inner_text().endswith(ranked[0])
    shoot(wall, "club-night-wall-after-round-1-dark")

    # the organiser's page followed too; the next round is seated by the standings
    organiser.wait_for_function(
        "() => document.querySelectorAll('.club-table.done').length === 2", timeout=FOLLOW_MS
    )
    assert standings_names(organiser) == ranked
    organiser.locator("#next-round button").tap()
    organiser.locator("h2", has_text="Round 2 of 2").wait_for()
    second = tables_of(site, club_id, 2)
    assert set(second[0][1]) == set(ranked[:4])  # the top four at table 1
    wall.locator("h1", has_text="Round 2 of 2").wait_for(timeout=FOLLOW_MS)

    for phone, (game_id, _) in zip(phones, second):
        keep_score(phone, site, game_id)
        enter_on_phone(phone, site, game_id)
    for game_id, _ in second:
        finish(site, game_id)
    wall.wait_for_function(
        "() => document.querySelectorAll('.club-table.done').length === 2"
        " && document.querySelector('h1').textContent.includes('Round 2')",
        timeout=FOLLOW_MS,
    )
    assert wall.evaluate("window.stayed") is True
    games = wall.locator("#night-standings tbody tr td:nth-child(6)").all_inner_texts()
    assert games == ["2"] * 8  # every player played both rounds
    shoot(wall, "club-night-wall-over-dark")
    organiser.reload()
    assert "The night is over" in organiser.locator("main").inner_text()
    shoot(organiser, "club-night-over")

    # the same night in Arabic, on the phone and on the wall
    for page, name in ((organiser, "ar-club-night-over"), (wall, "ar-club-night-wall-dark")):
        page.context.add_cookies([{"name": "lang", "value": "ar", "url": site.url}])
        page.reload()
        assert page.locator("html").get_attribute("dir") == "rtl"
        assert "ترتيب السهرة" in page.locator("#night-standings").inner_text()
        shoot(page, name)
