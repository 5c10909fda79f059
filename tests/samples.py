"""Every page's sample address, declared once: the one list the every-page tests read.

``SAMPLES`` maps each endpoint of the app (``app.url_map``) that answers a GET to the addresses
that show it, written over one seeded world (``seed``: games, a night, a player, a club night, a
tournament, a season, the wall links). ``NO_SAMPLE`` names the GET endpoints that have none, with
why; a POST-only endpoint needs none (its form is read off the sample pages by
``tests/web/test_web_no_500.py``). ``tests/web/test_samples.py`` fails when a route has neither
and when a sample answers other than declared, so a new page is one module, its template, its
sample here and its own tests.

Who reads it: the hostile values of ``test_web_no_500.py`` (the forms of every sample page), the
browser's every page (``test_browser_pages.py``: 360 px, targets, text size, contrast, first-load
weight, in English and Arabic), and the translation of every page (``test_i18n_pages.py``).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phone_helpers import chip
from played import GAME, LONG_GAME
from web_helpers import COMPLEX, PLAYERS, Table, be_admin

#: What a sample is: a page a phone reads (HTML, looked at by the browser and in both
#: languages), a file (JSON, SVG, PDF, PNG, a script: answered, not looked at), or a link handed
#: out (it gives rights and sends the phone on).
PAGE, FILE, LINK = "page", "file", "link"


@dataclass
class Seeded:
    """The world the samples are written over: games stored through the forms."""

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
    walls: tuple[str, str] = ("", "")  # the wall links' keys: the club night's, the tournament's
    view_key: str = ""  # the finished game's view link's key
    edit_key: str = ""  # the finished game's edit link's key

    def cookie(self, site: Any) -> dict[str, str]:
        """The session cookie, for a browser's phone on *site* (``tests/browser/conftest``)."""
        return {"name": "session", "value": self.session, "url": site.origin}

    def fill(self, path: str) -> str:
        club_wall, tournament_wall = self.walls
        return path.format(**vars(self), club_wall=club_wall, tournament_wall=tournament_wall)


def sample_site(path: Path, database: Path, **config: Any) -> tuple[Any, Any, Seeded]:
    """An app in *path* on a copy of *database* (the migrated one of ``tests/conftest.py``),
    the phone that seeded the samples' world in it (it keeps score, and is admin), and the
    world. A GET changes nothing but a phone's cookies, so a module seeds it once."""
    from scorekeeper.web import create_app

    shutil.copyfile(database, path / "scorekeeper.sqlite3")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(path / "scorekeeper.sqlite3"),
            "INSTANCE_PATH": str(path / "instance"),
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )
    keeper = app.test_client()
    return app, keeper, seed(keeper, app)


def seed(client: Any, app: Any) -> Seeded:
    """Store the samples' world through *client* (a phone that may then keep score in all of
    it, and is the group's admin), on *app*'s database."""
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
    with app.app_context():
        from scorekeeper.web.access.database import get_db

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
    with app.app_context():
        from scorekeeper.store import seasons
        from scorekeeper.store.keys import game_keys, wall_key
        from scorekeeper.web.access.database import get_db

        season = seasons.create(get_db(), "Autumn", "2026-11-01", "2026-11-30")
        walls = (wall_key(get_db(), "club", club), wall_key(get_db(), "tournament", tournament))
        keys = game_keys(get_db(), over)
    be_admin(client, app)  # the group's admin: the players' own pages
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
        walls,
        keys["view_key"],
        keys["edit_key"],
    )


@dataclass(frozen=True)
class Sample:
    """One address of an endpoint, over the seeded world."""

    name: str
    path: str  # with {fresh}, {playing}, {over}, {long}, {heavy}, {night}, {player}, {club},
    # {tournament}, {season}, {view_key}, {edit_key}, and the walls' {club_wall},
    # {tournament_wall}
    keeps_score: bool = False  # opened by a phone that may change the game (and is admin)
    taps: tuple[str, ...] = ()  # tapped before looking: chosen chips, the preview, errors
    status: int = 200
    kind: str = PAGE

    def url(self, seeded: Seeded) -> str:
        return seeded.fill(self.path)


def _page(name, path, keeps_score=False, taps=(), status=200):
    return Sample(name, path, keeps_score, tuple(taps), status)


def _file(name, path, keeps_score=False, status=200):
    return Sample(name, path, keeps_score, (), status, FILE)


def _link(name, path):
    return Sample(name, path, False, (), 303, LINK)


ENTRY = "/games/{fresh}/deals/new?contracts="

#: Each GET endpoint's samples, by endpoint (``blueprint.view``).
SAMPLES: dict[str, tuple[Sample, ...]] = {
    "home.index": (_page("home", "/"),),
    "games.new": (
        _page("new-game", "/games/new"),
        _page("new-game-chances", "/games/new?from={over}"),  # the chances of known players
    ),
    "games.show": (
        _page("game-before-first-deal", "/games/{fresh}", True),  # the chances again
        _page("game", "/games/{playing}", True),
        _page("game-watching", "/games/{playing}"),
        _page("game-over", "/games/{over}", True),
        _page("game-over-25-deals", "/games/{long}", True),
        _page("not-found", "/games/9999", status=404),
    ),
    "live.watch": (
        _page("scoreboard", "/games/{playing}/watch"),
        _page("scoreboard-over", "/games/{over}/watch"),
    ),
    "deals.new": (
        _page("choose-contract", "/games/{playing}/deals/new", True),
        _page(
            "entry-king-of-hearts",
            ENTRY + "king_of_hearts",
            True,
            (chip("kh_taker", 1), chip("kh_doubled_by", 1)),
        ),
        _page(
            "entry-diamonds",
            ENTRY + "diamonds",
            True,
            (chip("diamonds_0", 4), chip("diamonds_1", 3), chip("diamonds_2", 5)),
        ),
        _page(
            "entry-queens",
            ENTRY + "queens",
            True,
            (chip("q_spades_taker", 0), chip("q_spades_doubled_by", 2), chip("q_hearts_taker", 1)),
        ),
        _page("entry-collections", ENTRY + "collections", True, (chip("tricks_0", 13),)),
        _page(
            "entry-trex",
            ENTRY + "trex",
            True,
            (chip("trex_1", 2), chip("trex_2", 0), chip("trex_3", 3)),
        ),
        _page(
            "entry-complex-leader-credit",
            f"/games/{{heavy}}/deals/new?contracts={COMPLEX}",
            True,
            (chip("kh_doubled_by", 2), chip("kh_taker", 2)),
        ),
        # impossible: Save is off, and the bar says why
        _page(
            "entry-with-problems",
            ENTRY + "diamonds",
            True,
            (chip("diamonds_0", 13), chip("diamonds_1", 3)),
        ),
        _page("watching-locked", ENTRY + "queens", status=403),
    ),
    "deals.thrown_in": (
        _page("thrown-in", "/games/{playing}/thrown-in", True, (chip("reason", "misdeal"),)),
    ),
    "deals.show": (_page("deal", "/games/{playing}/deals/1", True),),
    "deals.edit": (_page("correct-deal", "/games/{playing}/deals/1/edit", True),),
    "deals.undo": (_page("undo-deal", "/games/{playing}/deals/1/undo", True),),
    "games.history": (_page("game-history", "/games/{playing}/history"),),
    "access.share": (_page("share", "/games/{playing}/share", True),),
    "access.unlock": (_page("unlock", "/games/{playing}/unlock"),),
    "players.fix_name": (_page("fix-name", "/games/{playing}/seats/1/name", True),),
    "advise.show": (_page("advise", "/games/{playing}/advise", True),),
    "history.index": (
        _page("history", "/history/"),
        _page("history-search", "/history/?player=a"),  # links inside a sentence
        _page("history-search-nobody", "/history/?player=zzz"),
    ),
    "history.night": (_page("history-night", "/history/nights/{night}"),),
    "history.game": (
        _page("history-game", "/history/games/{over}"),
        _page("history-game-25-deals", "/history/games/{long}"),
    ),
    "history.correct": (_page("history-correct", "/history/games/{over}/correct", True),),
    "players.roster": (_page("players", "/players/"),),
    "players.show": (
        _page("player", "/players/{player}"),
        _page("player-admin", "/players/{player}", True),
    ),
    "players.rename": (_page("player-rename", "/players/{player}/rename", True),),
    "players.merge": (_page("player-merge", "/players/{player}/merge", True),),
    "players.leaderboard": (_page("leaderboard", "/leaderboard"),),
    "transfer.upload": (_page("import", "/import"),),
    "settings.show": (_page("settings", "/settings"),),
    "clubs.new": (_page("new-club-night", "/clubs/new"),),
    "clubs.show": (
        _page("club-night", "/clubs/{club}", True),
        _page("club-night-watching", "/clubs/{club}"),
    ),
    "clubs.wall": (_page("club-night-wall", "/clubs/{club}/wall"),),
    "walls.wall": (
        _page("club-night-wall-link", "/w/{club_wall}"),  # the TV's wall, opened by its link
        _page("tournament-wall-link", "/w/{tournament_wall}"),
    ),
    "tournaments.new": (_page("new-tournament", "/tournaments/new"),),
    "tournaments.show": (
        _page("tournament", "/tournaments/{tournament}", True),
        _page("tournament-watching", "/tournaments/{tournament}"),
    ),
    "tournaments.wall": (_page("tournament-wall", "/tournaments/{tournament}/wall"),),
    "seasons.show": (_page("season", "/seasons/{season}"),),
    "seasons.remove": (_page("season-remove", "/seasons/{season}/remove"),),
    "rules.show": (_page("rules", "/rules/queens"),),
    "rules.game": (_page("game-rules-complex", f"/games/{{heavy}}/rules/{COMPLEX}"),),
    "result.game": (_page("share-result", "/games/{over}/result"),),
    "result.night": (_page("share-night", "/history/nights/{night}/result"),),
    "result.shared_game": (_page("shared-result", "/r/games/{over}/{view_key}"),),
    "result.shared_night": (_page("shared-night", "/r/nights/{night}/{view_key}"),),
    # files: answered, not looked at
    "charts.running": (_file("running-chart", "/charts/games/{over}/running.svg"),),
    "charts.contracts": (_file("contracts-chart", "/charts/players/{player}/contracts.svg"),),
    "charts.rating": (_file("rating-chart", "/charts/players/{player}/rating.svg"),),
    "clubs.state": (_file("club-night-state", "/clubs/{club}/state.json"),),
    "clubs.seating_pdf": (_file("club-night-seating", "/clubs/{club}/rounds/1/seating.pdf"),),
    "clubs.standings_pdf": (_file("club-night-standings", "/clubs/{club}/standings.pdf"),),
    "tournaments.state": (_file("tournament-state", "/tournaments/{tournament}/state.json"),),
    "tournaments.bracket_pdf": (_file("bracket", "/tournaments/{tournament}/bracket.pdf"),),
    "walls.state": (_file("wall-state", "/w/{club_wall}/state.json"),),
    "walls.qr": (_file("wall-qr", "/w/{tournament_wall}/qr.svg"),),
    "live.state": (_file("game-state", "/games/{playing}/state.json"),),
    "live.qr": (_file("game-qr", "/games/{playing}/qr.svg"),),
    "transfer.export_game": (_file("game-export", "/games/{over}/export.json"),),
    "transfer.export_all": (_file("history-export", "/history/export.json"),),
    "transfer.export_night": (_file("night-export", "/history/nights/{night}/export.json"),),
    "sheets.game_sheet": (_file("game-sheet", "/games/{over}/sheet.pdf"),),
    "sheets.game_sheet_png": (_file("game-sheet-png", "/games/{over}/sheet.png"),),
    "sheets.blank_sheet": (_file("blank-sheet", "/sheet/blank.pdf"),),
    "result.night_png": (_file("night-png", "/history/nights/{night}/standings.png"),),
    "result.shared_game_png": (_file("shared-png", "/r/games/{over}/{view_key}/sheet.png"),),
    "result.shared_night_png": (
        _file("shared-night-png", "/r/nights/{night}/{view_key}/standings.png"),
    ),
    "seasons.poster_pdf": (_file("season-poster", "/seasons/{season}/poster.pdf"),),
    "seasons.poster_png": (_file("season-poster-png", "/seasons/{season}/poster.png"),),
    "players.chances": (_file("chances", "/players/chances.json?players={player}"),),
    "offline.favicon": (_file("favicon", "/favicon.ico"),),
    "offline.worker": (_file("service-worker", "/sw.js"),),
    "health.healthz": (_file("health", "/healthz"),),
    "metrics.metrics": (_file("metrics", "/metrics"),),
    # links handed out, and the switches a link or a form sends a phone through
    "access.view_link": (_link("view-link", "/v/{view_key}"),),
    "access.edit_link": (_link("edit-link", "/e/{edit_key}"),),
    "switches.switch": (_link("language", "/lang/ar?next=/players/"),),
    "switches.digits": (_link("digits", "/digits/arabic?next=/players/"),),
}

#: GET endpoints with no sample here, and why.
NO_SAMPLE: dict[str, str] = {
    "static": "the app's own files: tests/web/test_assets.py reads every one",
    "access.admin_link": "the install's admin link: its key is made at start "
    "(tests/web/test_web_access.py opens it)",
    "access.join_link": "a group's join link, on a box of many groups only (tests/web/test_groups.py)",
    "access.club_link": "a club night table's link, its key made as the round is seated "
    "(tests/web/test_web_clubnights.py opens it)",
    "access.tournament_link": "a tournament table's link, its key made as the round is seated "
    "(tests/web/test_tournaments.py opens it)",
    "group.show": "a group's own page, on a box of many groups only (tests/web/test_groups.py, "
    "tests/browser/test_browser_groups.py)",
    "group.join_qr": "a group's join code, on a box of many groups only (tests/web/test_groups.py)",
    "front.index": "the front door of a box of many groups, which has no group's pages "
    "(tests/web/test_groups.py, tests/browser/test_browser_groups.py)",
    "front.invite": "an invitation to start a group, on a box of many groups only "
    "(tests/web/test_groups.py)",
}


def samples(kind: str | None = None) -> list[Sample]:
    """Every sample (of *kind*, when given), in the order declared."""
    return [s for group in SAMPLES.values() for s in group if kind is None or s.kind == kind]


#: The pages a phone reads: what the browser and the translation look at.
PAGES = samples(PAGE)
