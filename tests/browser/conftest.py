"""The browser suite: Debian's Chromium driven by Playwright against the app under waitress.

Chromium is required. When it is missing these tests fail with the way to install it: they are
never skipped (``bash tests/run.sh``, which CI runs, installs it).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import pytest

from scorekeeper.web import create_app

from phone_helpers import (
    ARTIFACTS,
    DEFAULT_FONT,
    FIT_REPORT,
    NAMES_REPORT,
    PHONE,
    TAP_REPORT,
    WEIGHT_REPORT,
    launch_chromium,
)
from played import GAME, LONG_GAME
from web_helpers import PLAYERS, Table, be_admin


@dataclass
class Site:
    """The app served by waitress on a free port of 127.0.0.1."""

    url: str
    app: Any
    seed: Any  # a Flask app on the same database, for seeding through the test client

    def local(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob", "about") or (
            parts.hostname == "127.0.0.1" and url.startswith(self.url)
        )


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[Site]:
    from waitress import create_server

    tmp = tmp_path_factory.mktemp("browser")
    config = {"DATABASE": str(tmp / "site.sqlite3"), "INSTANCE_PATH": str(tmp / "instance")}
    app = create_app(config)  # CSRF on, as in production
    seed = create_app({**config, "TESTING": True, "WTF_CSRF_ENABLED": False})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield Site(f"http://127.0.0.1:{server.effective_port}", app, seed)
    server.close()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browsers(playwright) -> Iterator[Callable[[str], Any]]:
    """``browsers(font)``: a Chromium that draws every page in *font* (a key of ``FONTS``),
    launched once per run, whatever font the machine has for its default."""
    launched: dict[str, Any] = {}

    def get(font: str):
        if font not in launched:
            launched[font] = launch_chromium(playwright.chromium, font)
        return launched[font]

    yield get
    for chromium in launched.values():
        chromium.close()


@pytest.fixture(scope="session")
def browser(browsers):
    """The Chromium every test uses unless it asks for a font: drawing in ``DEFAULT_FONT``."""
    return browsers(DEFAULT_FONT)


@dataclass
class Seeded:
    """Games stored through the forms (no browser), for the tests that look at every page."""

    fresh: int  # standard rules, no deal yet
    playing: int  # standard rules, a few deals: one thrown in, one corrected
    over: int  # a whole game, finished
    long: int  # a whole game of twenty-five deals (five redeals), finished
    heavy: int  # Complex with leader credit and partnership: the largest entry form
    night: str
    player: int
    session: str  # a session cookie that may keep score in all three, and change players
    club: int = 0  # a club night of nine players (one sits out), its first round seated
    tournament: int = 0  # a knockout tournament of eight players, its first round seated
    season: int = 0  # a season of the nights above

    def cookie(self, site: Site) -> dict[str, str]:
        return {"name": "session", "value": self.session, "url": site.url}


@pytest.fixture(scope="session")
def seeded(site) -> Seeded:
    client = site.seed.test_client()  # the phone that starts the games may keep their score
    table = Table(client)
    fresh = table.new_game(["Aya", "Bilal", "Carla", "ليلى"], title="Just started")
    playing = table.new_game(["Aya", "Bilal", "Carla", "ليلى"])
    table.enter(playing, GAME[0])
    table.throw_in(playing, king=0, reason="misdeal", by=1)
    table.enter(playing, GAME[1])
    table.correct(
        playing, 1, {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 3}}
    )
    over = table.new_game(PLAYERS, title="A whole night")
    long = table.new_game(["Mohammed", "Abdulrahman", "Yasmine", "عبد الله"], title="A long night")
    for game_id, deals in ((over, GAME), (long, LONG_GAME)):
        table.play(game_id, deals)
    heavy = table.new_game(
        ["Rami", "Nour", "Sami", "Hala"],
        preset="custom",
        doubling="y",
        self_capture="leader-credit",
        combining="complex",
        partnership="y",
    )
    with site.seed.app_context():
        from scorekeeper.web.database import get_db

        player = next(get_db().query("select id from players where name = 'Aya'"))["id"]
    club = client.post(
        "/clubs/new",
        data={
            "title": "Café night",
            "played_on": "2026-11-21",
            "rounds": "3",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(
                ["Aya", "Bilal", "Carla", "ليلى", "Rami", "Nour", "Sami", "Hala", "Dana"]
            ),
        },
    )
    assert club.status_code == 303, club.get_data(as_text=True)[:2000]
    club = int(club.headers["Location"].rsplit("/", 1)[1])
    cup = client.post(
        "/tournaments/new",
        data={
            "title": "Majlis cup",
            "played_on": "2026-11-22",
            "entrants": "\n".join(
                ["Omar", "Lina", "Karim", "Jana", "Imad", "Maya", "عبد الرحمن", "Yara"]
            ),
            "format": "top-two",
            "seeding": "entered",
            "preset": "standard",
            "confirm": "y",
        },
    )
    assert cup.status_code == 303, cup.get_data(as_text=True)[:2000]
    tournament = int(cup.headers["Location"].rsplit("/", 1)[1])
    with site.seed.app_context():
        from scorekeeper.store import seasons
        from scorekeeper.web.database import get_db

        season = seasons.create(get_db(), "Autumn", "2026-11-01", "2026-11-30")
    be_admin(client, site.seed)  # the group's admin: the players' own pages
    client.get("/")  # shows (and so clears) the messages the saves left in the session
    return Seeded(
        fresh,
        playing,
        over,
        long,
        heavy,
        "2026-11-20",
        player,
        client.get_cookie("session").value,
        club,
        tournament,
        season,
    )


@pytest.fixture
def own_game(site) -> Callable[..., tuple[int, dict[str, str]]]:
    """``own_game(names, **settings)``: a new game, and the session cookie of the phone that
    started it (which may keep its score)."""

    def start(names=PLAYERS, **settings: Any) -> tuple[int, dict[str, str]]:
        client = site.seed.test_client()
        game_id = Table(client).new_game(names, **settings)
        client.get("/")  # clears the session's messages
        return game_id, {
            "name": "session",
            "value": client.get_cookie("session").value,
            "url": site.url,
        }

    return start


@pytest.fixture
def new_phone(browser, site) -> Iterator[Callable[..., Any]]:
    """Open a phone: ``new_phone(scheme="dark", js=False, size=NARROW)`` gives a page.
    ``cookies=[seeded.cookie(site)]`` lets it keep score in the seeded games.

    Every request each phone makes is recorded; none may leave the app on 127.0.0.1.
    """
    contexts, requests = [], []

    def make(
        scheme: str = "light",
        js: bool = True,
        size: dict = PHONE,
        cookies: list | None = None,
        **options: Any,
    ):
        context = browser.new_context(
            viewport=size,
            screen=size,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            color_scheme=scheme,
            java_script_enabled=js,
            accept_downloads=True,
            reduced_motion="reduce",
            **options,
        )
        context.set_default_timeout(10_000)
        if cookies:
            context.add_cookies(cookies)
        context.on("request", lambda request: requests.append(request.url))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    outside = [url for url in requests if not site.local(url)]
    assert not outside, f"requests that left the app: {outside}"


@pytest.fixture
def phone(new_phone):
    """A 390 x 844 touch phone in light mode, with JavaScript."""
    return new_phone()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def pytest_terminal_summary(terminalreporter):
    """Print the tap counts, the entry screen's and game page's measures and the page weights
    the browser tests measured."""
    if TAP_REPORT:
        terminalreporter.section("taps to record a deal, from the form the contract opens")
        for line in TAP_REPORT:
            terminalreporter.write_line(line)
    if FIT_REPORT:
        terminalreporter.section("the entry screen after the result is tapped, and the game page")
        for line in FIT_REPORT:
            terminalreporter.write_line(line)
    if NAMES_REPORT:
        terminalreporter.section("names drawn in each test font")
        for line in NAMES_REPORT:
            terminalreporter.write_line(line)
    if WEIGHT_REPORT:
        terminalreporter.section(
            "first load: HTML, CSS, JS, images and fetches, uncompressed (at most 40 KB)"
        )
        for name, weight in sorted(WEIGHT_REPORT.items(), key=lambda item: -item[1]):
            terminalreporter.write_line(f"{weight / 1024:5.1f} KB  {name}")
