"""The browser suite: Debian's Chromium driven by Playwright against the app under waitress.

Chromium is required. When it is missing these tests fail with the way to install it: they are
never skipped (``bash tests/run.sh``, which CI runs, installs it).

**Two kinds of box.** ``site``, ``seeded``, ``own_game``, ``new_phone`` and ``phone`` are the
app as ``scorekeeper serve`` runs it on a laptop. The tests of a night at the table (entry,
offline, confirmation, names, the waiting card, the first screen) take the same fixtures named
``table_site``, ``table_seeded``, ``table_own_game``, ``table_new_phone`` and ``table_phone``
instead, and so run twice: ``[laptop]``, on that same laptop server (and its seeded games), and
``[groups]``, on a box of many groups (``create_app`` configured as ``serve --groups``
configures it, under waitress) where one group is started and its join link opened. There the
site's ``url`` ends in the group's prefix ``/g/<id>``, so ``site.url + "/games/3"`` is that
game's page on either box. What the two share:

- ``site.url`` (the group's pages), ``site.origin`` (the scheme, host and port: the static
  files, the service worker, a cookie's ``url``), ``site.database`` (the group's database file:
  read what is stored), ``site.app`` (the app served);
- ``site.seed``: an app on the same database whose ``test_client()`` posts under the prefix;
  ``site.client()`` is such a client that is a member of the group (its join link opened):
  ``Table(site.client())`` seeds either box alike, ``site.cookie(client)`` is its cookie;
- ``own_game(...)`` and ``seeded.cookie(site)``: the session cookie of a phone that keeps the
  game's score (a member of the group);
- ``new_phone(...)``: on the box of many groups, a phone given no cookie gets that of a new
  phone that opened the group's join link (``site.member()``), a member as a player of the
  group is; ``member=False`` leaves it outside (a phone with a game's view link only).

``groups_site`` and ``groups_new_phone`` are that box of many groups alone (for what only it
has); ``groups_site.groups(name)`` starts another group there, as a site of its own.

Converting a test is renaming its fixture arguments (``site`` to ``table_site`` and so on, and
their uses), reading the database at ``site.database`` and building cookies from
``site.origin``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import pytest

from flask.testing import FlaskClient

from scorekeeper.web import create_app

from phone_helpers import (
    ARTIFACTS,
    BACK_ONLINE_REPORT,
    DEFAULT_FONT,
    FIT_REPORT,
    NAMES_REPORT,
    PHONE,
    TAP_REPORT,
    WEIGHT_REPORT,
    launch_chromium,
)
from samples import Seeded, seed
from web_helpers import PLAYERS, Table
from live_server import serve_in_thread, stop_in_thread


@dataclass
class Site:
    """The app served by waitress on a free port of 127.0.0.1: a laptop's, or one group's
    pages on a box of many groups (``url`` then ends in ``/g/<id>``)."""

    url: str
    app: Any
    seed: Any  # a Flask app on the same database, for seeding through the test client
    database: str = ""  # the database file the pages at url keep
    kind: str = "laptop"  # or "groups"
    join: str = ""  # the group's join link, a path under url (groups)
    groups: Callable[[str], "Site"] | None = None  # starts another group on the box (groups)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def local(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob", "about") or (
            parts.hostname == "127.0.0.1" and (url + "/").startswith(self.origin + "/")
        )

    def client(self) -> FlaskClient:
        """A test client of ``seed``: a new phone, a member of the group (its join link
        opened) on a box of many groups."""
        client = self.seed.test_client()
        if self.join:
            assert client.get(self.join).status_code == 303
        return client

    def cookie(self, client: FlaskClient) -> dict[str, str]:
        """The session cookie of *client*, for a browser's phone."""
        return {"name": "session", "value": client.get_cookie("session").value, "url": self.origin}

    def member(self) -> dict[str, str]:
        """The session cookie of a new phone that opened the group's join link."""
        return self.cookie(self.client())


def _serve(app) -> tuple[Any, threading.Thread]:
    return serve_in_thread(app)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("browser")
    config = {"DATABASE": str(tmp / "site.sqlite3"), "INSTANCE_PATH": str(tmp / "instance")}
    app = create_app(config)  # CSRF on, as in production
    seed = create_app({**config, "TESTING": True, "WTF_CSRF_ENABLED": False})
    server, thread = _serve(app)
    yield Site(f"http://127.0.0.1:{server.effective_port}", app, seed, config["DATABASE"])
    stop_in_thread(server, thread)


#: What belongs to no group on a box of many groups: a test client asks for it as it is.
OUTSIDE_GROUPS = ("/g/", "/static/", "/sw.js", "/favicon.ico", "/healthz")


def _under(group: str) -> type[FlaskClient]:
    """A test client whose requests for a path go to that path under the prefix of *group*
    (its ``prefix``, which may be set to another group's: one phone in two groups)."""

    class Prefixed(FlaskClient):
        prefix = f"/g/{group}"

        def open(self, *args: Any, **kwargs: Any):
            if args and isinstance(args[0], str) and args[0].startswith("/"):
                if not args[0].startswith(OUTSIDE_GROUPS):
                    args = (self.prefix + args[0], *args[1:])
            return super().open(*args, **kwargs)

    return Prefixed


def _group(app: Any, config: dict[str, Any], origin: str, name: str) -> Site:
    """A new group on the box of many groups *app* serves at *origin*, as a site."""
    from scorekeeper.store import keys
    from scorekeeper.store.db import connect

    group = app.extensions["groups"].create(name)
    db = connect(group.path)
    try:
        join = f"/join/{keys.install_key(db, 'join')}"
    finally:
        db.close()
    # the seeding app reads the group's file outside a request too (its app context)
    seed = create_app(
        {**config, "TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(group.path)}
    )
    seed.test_client_class = _under(group.id)
    return Site(f"{origin}/g/{group.id}", app, seed, str(group.path), "groups", join)


@pytest.fixture(scope="session")
def groups_site(tmp_path_factory) -> Iterator[Site]:
    """A box of many groups with one group started: ``serve --groups`` on 127.0.0.1.
    ``groups_site.groups(name)`` starts another group there (a site of its own)."""
    from scorekeeper.web.serve import DEFAULT_HOST, trusted_hosts

    tmp = tmp_path_factory.mktemp("browser-groups")
    config = {
        "GROUPS": "open",
        "INSTANCE_PATH": str(tmp / "instance"),
        "PROXY_HOPS": 0,
        "TRUSTED_HOSTS": trusted_hosts(DEFAULT_HOST, lan=None, public_url=None, proxy_hops=0),
    }
    app = create_app(config)  # CSRF on, as in production
    server, thread = _serve(app)
    origin = f"http://127.0.0.1:{server.effective_port}"
    site = _group(app, config, origin, "Thursday table")
    site.groups = lambda name: _group(app, config, origin, name)
    yield site
    stop_in_thread(server, thread)


#: The two kinds of box the tests of a night at the table run on.
KINDS = ("laptop", "groups")


@pytest.fixture(scope="session", params=KINDS)
def table_site(request) -> Site:
    """``site``, on a laptop and then on a box of many groups (see the docstring above)."""
    return request.getfixturevalue("site" if request.param == "laptop" else "groups_site")


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


@pytest.fixture(scope="session")
def seeded(site) -> Seeded:
    return _seed(site)


@pytest.fixture(scope="session")
def table_seeded(table_site, request) -> Seeded:
    """``seeded``, on the box ``table_site`` is (the laptop's the same games)."""
    if table_site.kind == "laptop":
        return request.getfixturevalue("seeded")
    return _seed(table_site)


def _seed(site: Site) -> Seeded:
    """The samples' world (tests/samples.py), stored through a member's phone."""
    return seed(site.client(), site.seed)


def _own_game(site: Site) -> Callable[..., tuple[int, dict[str, str]]]:
    def start(names=PLAYERS, **settings: Any) -> tuple[int, dict[str, str]]:
        client = site.client()
        game_id = Table(client).new_game(names, **settings)
        client.get("/")  # clears the session's messages
        return game_id, site.cookie(client)

    return start


@pytest.fixture
def own_game(site) -> Callable[..., tuple[int, dict[str, str]]]:
    """``own_game(names, **settings)``: a new game, and the session cookie of the phone that
    started it (which may keep its score)."""
    return _own_game(site)


@pytest.fixture
def table_own_game(table_site) -> Callable[..., tuple[int, dict[str, str]]]:
    """``own_game``, on the box ``table_site`` is."""
    return _own_game(table_site)


@pytest.fixture
def new_phone(browser, site) -> Iterator[Callable[..., Any]]:
    """Open a phone: ``new_phone(scheme="dark", js=False, size=NARROW)`` gives a page.
    ``cookies=[seeded.cookie(site)]`` lets it keep score in the seeded games.

    Every request each phone makes is recorded; none may leave the app on 127.0.0.1.
    """
    yield from _phones(browser, site)


@pytest.fixture
def groups_new_phone(browser, groups_site) -> Iterator[Callable[..., Any]]:
    """``new_phone``, on the box of many groups (a tenant of any of its groups)."""
    yield from _phones(browser, groups_site)


@pytest.fixture
def table_new_phone(browser, table_site) -> Iterator[Callable[..., Any]]:
    """``new_phone``, on the box ``table_site`` is: there a phone given no cookie is a member
    of the group (its join link opened) unless ``member=False``."""
    yield from _phones(browser, table_site)


def _phones(browser, site: Site) -> Iterator[Callable[..., Any]]:
    contexts, requests = [], []

    def make(
        scheme: str = "light",
        js: bool = True,
        size: dict = PHONE,
        cookies: list | None = None,
        member: bool | None = None,
        **options: Any,
    ):
        if site.join and (not cookies if member is None else member):
            cookies = [*(cookies or []), site.member()]
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


@pytest.fixture
def table_phone(table_new_phone):
    """``phone``, on the box ``table_site`` is (a member of the group)."""
    return table_new_phone()


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
    if BACK_ONLINE_REPORT:
        terminalreporter.section("from the signal's return to the deal waiting stored")
        for line in BACK_ONLINE_REPORT:
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
