"""No 500 anywhere: Hypothesis sends hostile values to every form field of every route.

The routes come from the app's URL map, so a route added later is covered too. The field names
are every field of every form the app's pages draw (read from the pages themselves and from
the form classes), and the values are what broke pages before: digits that ``str.isdigit``
accepts and ``int`` refuses (²) or reads (١), numbers of thousands of digits, control and
direction characters, line breaks, very long strings, and a field sent several times. Each
request is made by a phone that holds every right (it keeps score in the games and opened the
admin link), so that the values reach as deep as they can; with ``TESTING`` on, an exception in
a view is raised here rather than drawn as a 500 page, and fails the test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import pytest
from bs4 import BeautifulSoup
from flask_wtf import FlaskForm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms.fields.core import UnboundField

from scorekeeper.web import create_app

from samples import PAGES, seed
from web_helpers import Table, be_admin, soup

ANSWERS = {200, 303, 304, 400, 403, 404, 405, 409, 413, 429}
#: The pages that draw the app's forms: every sample page (tests/samples.py, over its own
#: seeded world), and these, in states only this site has (game 1 is in progress with two
#: deals, game 2 has a PIN, player 9 has no game, club night 1 seats games 1's and 2's players
#: apart, as entered, so that players 1 and 5 can still be merged; club night 2, of eight
#: others, has its second round seated, which can still be taken back; season 1 is the autumn
#: of those nights; tournaments 1 and 2, of eight more each, are this phone's to organise:
#: their wall links and new ones, the final seated on round 1, and round 1 of tournament 2
#: reopened).
FORM_PAGES = [
    "/tournaments/1",
    "/tournaments/2",
    "/games/1/deals/new",
    "/games/1/thrown-in",
    "/games/1/deals/1/edit",
    "/games/1/deals/1/undo",
    "/games/1/share",
    "/games/1/advise",
    "/games/2",
    "/games/1/seats/0/name",
    "/players/1",
    "/players/1/rename",
    "/players/1/merge",
    "/players/1/merge?other=5",
    "/players/9",
    "/clubs/1",
    "/clubs/2",
    "/seasons/1",
    "/seasons/1/remove",
    *(
        f"/games/1/deals/new?contracts={c}"
        for c in (
            "king_of_hearts",
            "diamonds",
            "queens",
            "collections",
            "trex",
            "king_of_hearts,diamonds,queens,collections",
        )
    ),
]
CONTROL = st.text(
    alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp", "Co"]),
    min_size=1,
    max_size=12,
)
#: The hostile values, by kind: each route gets each kind in turn, so that none is left to
#: chance. Values that look right are mixed in, to get past the first checks.
KINDS = {
    "unicode digits": st.sampled_from(
        ["²", "³", "١", "١٢", "߂", "𝟗", "Ⅻ", "½", "०", "٣٤", "¹⁰", "۴۸۲۱"]
    ),
    "huge integers": st.one_of(
        st.integers(min_value=10**18, max_value=10**4000).map(str),
        st.integers(max_value=-(10**18)).map(str),
        st.sampled_from(["9" * 5000, "9" * 19, str(2**63)]),
    ),
    "control characters": st.one_of(
        CONTROL,
        st.tuples(
            st.sampled_from(["/", "/games/1/", "/history/?x=", "Aya", "1"]),
            st.sampled_from(
                ["\x00", "\x85", "\u2028", "\t", "\x1b[2J", "\u202e", "\u200b", "\x7f"]
            ),
            st.text(max_size=6),
        ).map("".join),
    ),
    "line breaks": st.tuples(
        st.sampled_from(["/", "/games/1", "/history/?x=", "Aya"]),
        st.sampled_from(["\r\n", "\n", "\r"]),
        st.sampled_from(["x", "Set-Cookie: a=1", ""]),
    ).map("".join),
    "very long strings": st.integers(min_value=5_000, max_value=70_000).map(lambda n: "x" * n),
    "odd numbers and addresses": st.sampled_from(
        [
            " 1",
            "1 ",
            "1.5",
            "+1",
            "-1",
            "1e999",
            "NaN",
            "0x10",
            "0" * 40,
            "//evil.example",
            "/\\evil",
            "javascript:alert(1)",
            "https://evil.example/",
            "/%2e%2e/x",
        ]
    ),
    "text": st.one_of(st.text(max_size=40), st.sampled_from(["<i id=zz>w</i>", "\u202e"])),
}
PLAUSIBLE = st.sampled_from(
    [
        "",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "save",
        "preview",
        "edit",
        "y",
        "standard",
        "custom",
        "complex",
        "queens",
        "trex",
        "misdeal",
        "4821",
        "482193",
        "Aya",
    ]
)


pytestmark = pytest.mark.slow  # hostile values in every field of every form (about a minute)


def make_site(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "no500.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "WTF_CSRF_ENABLED": False,
            "METRICS": True,  # /metrics too, with every request counted
        }
    )
    client = app.test_client()
    table = Table(client)
    first = table.new_game(confirm="y")  # its deals wait for another phone's confirmation
    table.enter(first, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    table.enter(first, {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    table.new_game(
        ["Rami", "Nour", "Sami", "Hala"],
        pin="4821",
        preset="custom",
        doubling="y",
        self_capture="leader-credit",
        combining="complex",
    )
    from scorekeeper.store import seasons
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    with db.atomic():
        db.execute(
            "insert into players (id, name, name_key, created_at) values "
            "(9, 'Zed', 'zed', '2026-11-20')"
        )
    seasons.create(db, "Autumn", "2026-09-01", "2026-11-30")
    db.close()
    club = client.post(
        "/clubs/new",
        data={
            "title": "Café",
            "played_on": "2026-11-20",
            "rounds": "3",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(
                ["Aya", "Bilal", "Carla", "Dana", "Rami", "Nour", "Sami", "Hala", "Zoe"]
            ),
        },
    )
    assert club.headers["Location"].endswith("/clubs/1")
    second = client.post(
        "/clubs/new",
        data={
            "title": "Diwan",
            "played_on": "2026-11-21",
            "rounds": "2",
            "first_round": "entered",
            "preset": "standard",
            "players": "\n".join(["Omar", "Lina", "Karim", "Jana", "Imad", "Maya", "Tala", "Yara"]),
        },
    )
    assert second.headers["Location"].endswith("/clubs/2")
    assert client.post("/clubs/2/rounds", data={"anyway": "1"}).status_code == 303
    for number in (1, 2):  # the final seated on round 1 (its forms: reopen; seat it again)
        tournament_with_final(app, client, number)
    assert client.post("/tournaments/2/rounds/1/reopen").status_code == 303
    be_admin(client, app)
    return app, client


def tournament_with_final(app, client, number: int) -> None:
    """Tournament *number*, its first round over (each table's game marked finished, all
    level: the seeds go through) and its final seated."""
    from scorekeeper.store.db import connect

    entrants = [f"T{number} {n}" for n in "ABCDEFGH"]
    response = client.post(
        "/tournaments/new",
        data={
            "title": "Cup",
            "played_on": "2026-11-22",
            "entrants": "\n".join(entrants),
            "format": "top-two",
            "seeding": "entered",
            "preset": "standard",
        },
    )
    assert response.headers["Location"].endswith(f"/tournaments/{number}")
    db = connect(app.config["DATABASE"])
    with db.atomic():
        db.execute(
            "update games set finished = 1 where id in (select game_id from "
            "tournament_tables where tournament_id = ?)",
            [number],
        )
    db.close()
    assert client.post(f"/tournaments/{number}/rounds").status_code == 303  # seats the final
    assert client.get(f"/tournaments/{number}").status_code == 200


def form_classes(cls=FlaskForm):
    for sub in cls.__subclasses__():
        yield sub
        yield from form_classes(sub)


@dataclass
class Fields:
    """The names a route takes: every field of every form and query the pages send, in all
    (``every``), and by route (``posted``: a form's fields and values, laid under the hostile
    ones so that those get past the first checks, the entry form's for the live preview its
    script posts; ``queried``: the query keys of the links and the GET forms that lead to a
    page)."""

    every: list[str]
    posted: dict[str, dict[str, str]]
    queried: dict[str, set[str]]


def rule_of(app, url: str, method: str = "GET") -> str | None:
    from werkzeug.exceptions import HTTPException

    path = urlsplit(url).path
    try:
        rule, _ = app.url_map.bind("localhost").match(path, method=method, return_rule=True)
    except HTTPException:
        return None
    return rule.rule


def read_fields(app, client, keeper, seeded) -> Fields:
    every: set[str] = set()
    posted: dict[str, dict[str, str]] = {}
    queried: dict[str, set[str]] = {}
    watcher = app.test_client()
    pages = [(client, url) for url in FORM_PAGES] + [
        (watcher, "/games/2/unlock"),
        (watcher, "/games/1/watch"),  # "I am …" and Confirm, for another phone's deals
    ]
    # every page of the app, as its sample shows it
    pages += [(keeper if s.keeps_score else watcher, s.url(seeded)) for s in PAGES]
    for phone, url in pages:
        page: BeautifulSoup = soup(phone.get(url))
        every.update(e["name"] for e in page.select("form [name]"))
        for form in page.select("form"):
            method = (form.get("method") or "get").upper()
            rule = rule_of(app, form.get("action") or url, method)
            if rule is None:
                continue
            for script in [form["data-preview"]] if form.has_attr("data-preview") else []:
                posted.setdefault(rule_of(app, script, "POST"), {}).update(
                    {e["name"]: e.get("value", "") for e in form.select("input[type=hidden]")}
                )
            if method == "POST":
                posted.setdefault(
                    rule,
                    {
                        e["name"]: e.get("value", "")
                        for e in form.select("input[name]")
                        if e.get("type") not in ("radio", "checkbox") or e.has_attr("checked")
                    },
                )
                posted[rule].update(
                    {e["name"]: posted[rule].get(e["name"], "") for e in form.select("[name]")}
                )
            else:
                queried.setdefault(rule, set()).update(e["name"] for e in form.select("[name]"))
        for link in page.select("a[href]"):
            rule = rule_of(app, link["href"])
            if rule is not None:
                keys = {k for k, _ in parse_qsl(urlsplit(link["href"]).query)}
                queried.setdefault(rule, set()).update(keys)
                every.update(keys)
    for form in form_classes():
        every.update(k for k in dir(form) if isinstance(getattr(form, k, None), UnboundField))
    return Fields(sorted(every), posted, {k: v for k, v in queried.items() if v})


def fill(rule: str) -> str:
    values = {"game_id": "1", "number": "1", "seat": "0", "pid": "1", "player_id": "1"}
    url = re.sub(r"<int:(\w+)>", lambda m: values.get(m.group(1), "1"), rule)
    return re.sub(r"<(?:path:)?\w+>", "x", url)


def _rules_of(method: str) -> list[str]:
    """The app's routes that take *method* (the URL map is the same for every app)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": f"{tmp}/map.sqlite3",
                "INSTANCE_PATH": f"{tmp}/instance",
                "METRICS": True,
            }
        )
        return sorted(
            {
                r.rule
                for r in app.url_map.iter_rules()
                if method in r.methods and not r.rule.startswith("/static")
            }
        )


POST_RULES = _rules_of("POST")
GET_RULES = _rules_of("GET")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One site for the pages (a GET changes nothing but the phone's cookies): this module's
    games, and the samples' world beside them, seeded by a phone of its own."""
    app, client = make_site(tmp_path_factory.mktemp("site"))
    keeper = app.test_client()
    return app, client, keeper, seed(keeper, app)


@pytest.fixture(scope="module")
def fields(site) -> Fields:
    return read_fields(*site)


def names_for(own: list[str], every: list[str]):
    """A field name: mostly one of the route's own, sometimes any the app knows."""
    if not own:
        return st.sampled_from(every)
    return st.one_of(
        st.sampled_from(own), st.sampled_from(own), st.sampled_from(own), st.sampled_from(every)
    )


def answered(response, what) -> None:
    assert response.status_code in ANSWERS, (what, response.status_code)


@pytest.mark.parametrize("rule", POST_RULES)
def test_no_500__hostile_values_in_every_field_of_every_form(tmp_path, fields, rule):
    app, client = make_site(tmp_path)
    url = fill(rule)
    base = fields.posted.get(rule, {})
    name = names_for(sorted(base), fields.every)

    def post(kind):
        @settings(
            max_examples=6,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(
            keep_form=st.booleans(),
            pairs=st.lists(
                st.tuples(name, st.one_of(kind, kind, PLAUSIBLE)), min_size=1, max_size=6
            ),
            repeated=st.lists(name, max_size=2),
        )
        def run(keep_form, pairs, repeated):
            data = MultiDict(base.items() if keep_form else [])
            for key, value in pairs:
                if keep_form and key in data and len(data.getlist(key)) == 1:
                    data.setlist(key, [value])
                else:
                    data.add(key, value)
            for key in repeated:  # a field sent twice
                data.add(key, data.get(key, "1"))
            answered(client.post(url, data=data), (url, list(data.items(multi=True))[:8]))

        run()

    for kind in KINDS.values():
        post(kind)


@pytest.mark.parametrize("rule", GET_RULES)
def test_no_500__hostile_values_in_every_query_of_every_page(site, fields, rule):
    app, client, _, _ = site
    url = fill(rule)
    name = names_for(sorted(fields.queried.get(rule, ())), fields.every)

    def get(kind):
        @settings(
            max_examples=1 if rule.endswith(".pdf") else 4,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(
            pairs=st.lists(
                st.tuples(name, st.one_of(kind, kind, PLAUSIBLE)), min_size=1, max_size=4
            )
        )
        def run(pairs):
            answered(client.get(url, query_string=MultiDict(pairs)), (url, pairs[:6]))

        run()

    for kind in KINDS.values():
        get(kind)


def test_no_500__the_routes_and_fields_are_all_there(fields):
    """The enumeration itself: every POST route of the app, and the fields that broke pages."""
    assert {
        "/players/<int:pid>/merge",
        "/games/new",
        "/games/<int:game_id>/pin",
        "/games/<int:game_id>/seats/<int:seat>/name",
        "/settings/words",
        "/games/<int:game_id>/confirm-all",
    } <= set(POST_RULES)
    assert {"/lang/<code>", "/digits/<style>", "/metrics"} <= set(GET_RULES)
    assert {
        "other",
        "next",
        "pin",
        "name",
        "player_0",
        "trex",
        "diamonds_0",
        "token",
        "version",
        "deal_id",
        "version_key",
        "deal",
        "remove",
    } <= set(fields.every)
    assert "other" in fields.posted["/players/<int:pid>/merge"]
    # The header's language link is a GET; the settings page switches both by a POST form.
    assert (
        "next" in fields.queried["/lang/<code>"]
        and "next" in fields.posted["/digits/<style>"]
        and "next" in fields.posted["/lang/<code>"]
    )
    # every form found on a page; a group's own page exists only where reading is private
    # (a hosted box, a box of many groups): tests/web/test_groups.py sends it hostile values
    assert {r for r in POST_RULES if not r.startswith("/group/")} - set(fields.posted) == set()
