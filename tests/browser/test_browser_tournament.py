"""A knockout tournament of eight players, its first round played from four phones (issue 31):
the organiser draws the bracket on one phone, each of the two tables keeps its score on its
own phone while a second phone at each table follows the game through its watch link, and the
wall view on the TV follows the matches, marks who goes through and shows the final seated, by
itself. The wall holds a bracket of 32 on a 1280×720 screen.

The second phone of each table is the other side's: New tournament asks for confirmation by
default, so it confirms the deals with one tap each, and the wall shows a finished game waiting
for its last confirmation before the match ends and the final is seated."""

from __future__ import annotations

import re

import pytest

from phone_helpers import LAYOUT_SCRIPT, chip, keep_score, shoot
from played import GAME
from test_browser_club_night import FOLLOW_MS, TV, enter_on_phone, finish

#: Boxes of the bracket drawn over one another: a round's matches, the waiting lines of the rounds
#: to come, and the rounds' titles.
OVERLAPS = """() => {
  const boxes = Array.from(document.querySelectorAll('.match, .byes, .round > h2, .waiting'))
    .map(el => [el.id || el.textContent.trim().slice(0, 24), el.getBoundingClientRect()]);
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
                         a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const found = [];
  boxes.forEach(([n, a], i) => boxes.slice(i + 1).forEach(([m, b]) => {
    if (meet(a, b)) { found.push(n + ' / ' + m); }
  }));
  return found;
}"""
EIGHT = ["Aya", "Bilal", "Carla", "Dana", "ليلى", "Farah", "Ghassan", "Hala"]


def matches_of(site, tournament_id: int, number: int) -> list[tuple[int, tuple[int, ...]]]:
    with site.seed.app_context():
        from scorekeeper.store import tournaments
        from scorekeeper.web.access.database import get_db

        tournament = tournaments.load(get_db(), tournament_id)
        return [(m.game_id, m.table.entrants) for m in tournament.rounds[number - 1]]


def watch_link(site, game_id: int) -> str:
    with site.seed.app_context():
        from scorekeeper.store.keys import game_keys
        from scorekeeper.web.access.database import get_db

        return f"/v/{game_keys(get_db(), game_id)['view_key']}"


def confirm_all_but_the_last(site, game_id: int) -> int:
    """Another phone of the other side confirms the deals waiting but the last, whose number
    it returns (the test's follower confirms that one by a tap)."""
    with site.seed.app_context():
        from scorekeeper.store import confirmations, confirming
        from scorekeeper.web.access.database import get_db

        db = get_db()
        waiting = confirmations.unconfirmed_deals(db, game_id)
        for number in waiting[:-1]:
            row = db.execute(
                "select id, version from deals where game_id = ? and number = ?",
                [game_id, number],
            ).fetchone()
            confirming.confirm(
                db,
                game_id,
                number,
                version=row[1],
                deal_id=row[0],
                by=confirmations.Phone("c" * 32, None, False),
            )
        return waiting[-1]


def test_an_eight_player_tournament_first_round_from_four_phones_on_the_wall(site, new_phone):
    organiser = new_phone()
    organiser.goto(f"{site.url}/tournaments/new")
    organiser.fill("#players", "\n".join(EIGHT))
    organiser.fill("#title", "Majlis cup")
    organiser.locator(chip("seeding", "entered")).tap()
    organiser.locator("#new-game button[type=submit]").tap()
    organiser.wait_for_url(re.compile(r"/tournaments/\d+$"))
    tournament_id = int(organiser.url.rsplit("/", 1)[1])
    assert organiser.locator(".round").count() == 2  # round 1 and the final
    assert organiser.locator(".match .links a").count() == 2  # each table's phones, link, QR
    shoot(organiser, "tournament-round-1")

    wall = new_phone(scheme="dark", size=TV)
    wall.goto(f"{site.url}/tournaments/{tournament_id}/wall")
    assert wall.locator("main form, main button").count() == 0  # read-only
    wall.evaluate("window.stayed = true")

    first = matches_of(site, tournament_id, 1)
    assert [entrants for _, entrants in first] == [(0, 3, 4, 7), (1, 2, 5, 6)]
    keepers = [new_phone(), new_phone(scheme="dark")]
    followers = [new_phone(), new_phone()]
    for keeper, follower, (game_id, _) in zip(keepers, followers, first):
        keep_score(keeper, site, game_id)  # the table's edit link, from the organiser
        follower.goto(site.url + watch_link(site, game_id))  # the QR code's watch link
        follower.evaluate("window.before = document.getElementById('live').dataset.version")
        enter_on_phone(keeper, site, game_id)
    # the wall follows both tables without a reload
    wall.wait_for_function(
        "() => ['#match-1-1', '#match-1-2'].every(m => document.querySelector(m + ' .table')"
        ".textContent.includes('1 deal'))",
        timeout=FOLLOW_MS,
    )
    for follower in followers:  # the other phone of the table sees the deal saved, waiting
        follower.wait_for_function(
            "() => document.getElementById('live').dataset.version !== window.before",
            timeout=FOLLOW_MS,
        )
        follower.locator("#waiting-1 button").wait_for(timeout=FOLLOW_MS)
        follower.locator("#waiting-1 button").tap()  # the other side's one tap
        follower.locator(".flash").get_by_text("Deal 1 confirmed.").wait_for()

    for game_id, _ in first:
        finish(site, game_id)
    # both games have ended, but their deals wait: no match is over, the final is not seated
    wall.wait_for_function(
        "() => ['#match-1-1', '#match-1-2'].every(m => document.querySelector(m + ' .table')"
        ".textContent.includes('Waiting for confirmation'))",
        timeout=FOLLOW_MS,
    )
    assert wall.locator(".match.done").count() == 0 and wall.locator("#match-2-1").count() == 0
    shoot(wall, "tournament-wall-waiting-for-confirmation")
    for follower, (game_id, _) in zip(followers, first):
        last = confirm_all_but_the_last(site, game_id)
        follower.reload()
        follower.locator(f"#waiting-{last} button").tap()  # the match's last deal
        follower.locator(".flash").get_by_text(f"Deal {last} confirmed.").wait_for()
        assert follower.locator("#all-confirmed").count() == 1
    wall.wait_for_function(
        "() => document.querySelectorAll('#match-1-1.done, #match-1-2.done').length === 2"
        " && document.querySelectorAll('.through').length >= 4"
        " && document.querySelector('#match-2-1')",
        timeout=FOLLOW_MS,
    )
    assert wall.evaluate("window.stayed") is True
    final = matches_of(site, tournament_id, 2)
    assert len(final) == 1 and len(final[0][1]) == 4
    finalists = wall.locator("#match-2-1 bdi").all_inner_texts()
    through = wall.locator(".round:first-child .match .through bdi").all_inner_texts()
    assert sorted(finalists) == sorted(through)
    assert len(GAME) > 1
    shoot(wall, "tournament-wall-after-round-1-dark")

    organiser.wait_for_function(
        "() => document.querySelector('#match-2-1 .links')", timeout=FOLLOW_MS
    )  # the organiser holds the final's table too, to hand out its links
    wall.context.add_cookies([{"name": "lang", "value": "ar", "url": site.url}])
    wall.reload()
    assert wall.locator("html").get_attribute("dir") == "rtl"
    assert "النهائي" in wall.locator(".bracket").inner_text()
    shoot(wall, "ar-tournament-wall-dark")


@pytest.mark.parametrize("pairs", [False, True])
def test_the_wall_holds_a_bracket_of_32_on_a_1280_by_720_screen(site, new_phone, pairs):
    """32 players (eight tables of four), or 32 pairs (sixteen matches), on the TV at once."""
    organiser = new_phone()
    organiser.goto(f"{site.url}/tournaments/new")
    if pairs:
        lines = [f"Pair player {n} & Partner {n}" for n in range(1, 33)]  # the others still play
        organiser.locator(chip("format", "pairs")).tap()
        organiser.locator('#presets label:has(input[value="partnership"])').tap()
        assert organiser.locator("input[name=format][value=pairs]").is_checked()
        assert organiser.locator("input[name=preset][value=partnership]").is_checked()
    else:
        lines = [f"Player number {n}" for n in range(1, 33)]
    organiser.fill("#players", "\n".join(lines))
    organiser.locator("#new-game button[type=submit]").tap()
    organiser.wait_for_url(re.compile(r"/tournaments/\d+$"))
    first_round, later = (16, 4) if pairs else (8, 3)
    for lang in ("en", "ar"):
        wall = new_phone(size=TV)
        wall.context.add_cookies([{"name": "lang", "value": lang, "url": site.url}])
        wall.goto(organiser.url + "/wall")
        size = wall.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert size[0] <= TV["width"] and size[1] <= TV["height"], (lang, size)
        assert wall.evaluate(LAYOUT_SCRIPT)["small"] == [], lang  # read from across the room
        overlaps = wall.evaluate(OVERLAPS)
        assert overlaps == [], (lang, overlaps)
        assert wall.locator(".match").count() == first_round
        assert wall.locator(".waiting").count() == later
        shoot(wall, f"tournament-wall-32-{'pairs' if pairs else 'players'}-{lang}")


#: Every box of the bracket, and every seed, score and mark inside it, drawn whole within the
#: page's width (nothing in a sideways scroll, nothing cut by its box). A long name ends in an
#: ellipsis, as it does at any width.
CUT = """() => {
  const width = document.documentElement.clientWidth, found = [];
  const bracket = document.querySelector('.bracket');
  if (bracket.scrollWidth > bracket.clientWidth + 1) {
    found.push('bracket ' + bracket.scrollWidth + ' > ' + bracket.clientWidth);
  }
  document.querySelectorAll('.match, .byes').forEach(box => {
    const b = box.getBoundingClientRect();
    if (b.left < -1 || b.right > width + 1) { found.push(box.id + ' past the screen'); }
    box.querySelectorAll('.mark, .num, .seed, .wins').forEach(el => {
      const r = el.getBoundingClientRect();
      if (el.textContent.trim() && (r.left < b.left - 1 || r.right > b.right + 1
          || el.scrollWidth > el.clientWidth + 1)) {
        found.push(box.id + ' cuts ' + el.textContent.trim());
      }
    });
  });
  return found;
}"""


#: Players of no other tournament of the suite (a player plays one match at a time).
OTHER_EIGHT = ["Sara", "Tariq", "Huda", "Ziad", "رنا", "Nabil", "Mona", "Mahmoud"]


def played_tournament(site) -> int:
    """A tournament of eight without confirmation, every match of it played to the end."""
    from web_helpers import Table

    client = site.seed.test_client()
    table = Table(client)
    response = client.post(
        "/tournaments/new",
        data={
            "title": "Majlis cup",
            "played_on": "2026-11-22",
            "entrants": "\n".join(OTHER_EIGHT),
            "format": "top-two",
            "seeding": "entered",
            "preset": "standard",
        },
    )
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    tournament_id = int(response.headers["Location"].rsplit("/", 1)[1])
    for number in (1, 2):
        client.get(f"/tournaments/{tournament_id}")  # the organiser's page hands it the tables
        for game_id, _ in matches_of(site, tournament_id, number):
            table.play(game_id, GAME)
    return tournament_id


@pytest.mark.parametrize("locale", ["en-GB", "ar-JO"])
def test_issue37_3__the_bracket_fits_a_360_px_phone(site, new_phone, locale):
    tournament_id = played_tournament(site)
    page = new_phone(size={"width": 360, "height": 740}, locale=locale)
    page.goto(f"{site.url}/tournaments/{tournament_id}")
    assert page.locator("#match-2-1 .mark").count() == 1  # the final, its winner marked
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate(CUT) == []
    shoot(page, f"tournament-bracket-360-{locale[:2]}")
