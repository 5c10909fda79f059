"""Where the app is reached: the Host header kept out of links and QR codes (defect 7), and the
hosted mode behind a TLS proxy (``serve --proxy-hops``): HSTS, Secure cookies, the real client's
address for the PIN limits, the public https address in links, and a box that strangers on the
internet cannot start games on. Checked with the test client and X-Forwarded-* headers."""

from __future__ import annotations

import io
import json
import re

import pytest

from scorekeeper import cli
from scorekeeper.store import keys
from scorekeeper.web import create_app
from scorekeeper.web import serve as serve_module

from gamebuilder import standard_game
from history_helpers import query
from web_helpers import OWN_LINK, PLAYERS, Table, be_admin, soup

PUBLIC = "https://trex.example.org"
NEW_GAME = {
    **{f"player_{s}": n for s, n in enumerate(PLAYERS)},
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}
#: What the proxy in front adds to every request it passes on.
FORWARDED = {
    "X-Forwarded-For": "203.0.113.5",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "trex.example.org",
}


pytestmark = pytest.mark.slow  # the real waitress and Caddy, a server per test


def make(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path / "hosted.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "instance"),
            **config,
        }
    )


@pytest.fixture
def hosted(tmp_path):
    """The app as ``serve --proxy-hops 1 --public-url https://trex.example.org`` makes it."""
    return make(
        tmp_path,
        PROXY_HOPS=1,
        PUBLIC_URL=PUBLIC,
        TRUSTED_HOSTS=serve_module.trusted_hosts(
            "127.0.0.1", lan=None, public_url=PUBLIC, proxy_hops=1
        ),
    )


def via_proxy(app, client_address: str = "203.0.113.5"):
    """A phone on the internet, through the proxy on 127.0.0.1."""
    client = app.test_client()
    client.environ_base.update(
        {
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_X_FORWARDED_FOR": client_address,
            "HTTP_X_FORWARDED_PROTO": "https",
            "HTTP_X_FORWARDED_HOST": "trex.example.org",
        }
    )
    return client


def member(app, client_address: str = "203.0.113.5"):
    """A phone of the group: it opened the join link."""
    client = via_proxy(app, client_address)
    db_key = join_key(app)
    assert client.get(f"/join/{db_key}").status_code == 303
    return client


def join_key(app) -> str:
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return keys.install_key(db, "join")
    finally:
        db.close()


def start(client, **fields) -> int:
    response = client.post("/games/new", data={**NEW_GAME, **fields})
    assert response.status_code == 303, soup(response).get_text(" ", strip=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


# -- 7. the Host header ----------------------------------------------------------------------
def test_host_header__a_made_up_host_is_a_400_page_not_a_link(tmp_path):
    app = make(
        tmp_path,
        TRUSTED_HOSTS=serve_module.trusted_hosts(
            "127.0.0.1", lan=None, public_url=None, proxy_hops=0
        ),
    )
    client = app.test_client()
    game = Table(client).new_game()
    for url in (f"/games/{game}/share", f"/games/{game}/qr.svg", "/", f"/games/{game}"):
        response = client.get(url, headers={"Host": "evil.example"})
        assert response.status_code == 400, url
        page = soup(response)
        assert "does not answer to that address" in page.get_text()
        assert "evil.example" not in response.get_data(as_text=True)
    share = client.get(f"/games/{game}/share", headers={"Host": "localhost:5000"})
    assert share.status_code == 200 and "http://localhost:5000/e/" in soup(share).get_text()


def test_host_header__the_public_address_is_in_every_link_and_qr_code(tmp_path, monkeypatch):
    from scorekeeper.web.pages import live

    drawn = []
    monkeypatch.setattr(live, "qr_svg", lambda url, title: drawn.append(url) or b"<svg/>")
    app = make(
        tmp_path,
        PUBLIC_URL="https://scores.example.net",
        TRUSTED_HOSTS=["127.0.0.1", "localhost", "scores.example.net"],
    )
    client = app.test_client()
    game = Table(client).new_game()
    text = soup(client.get(f"/games/{game}/share")).get_text()
    [row] = query(app, "select edit_key, view_key from games")
    assert f"https://scores.example.net/e/{row['edit_key']}" in text
    assert f"https://scores.example.net/v/{row['view_key']}" in text
    assert "localhost" not in text
    client.get(f"/games/{game}/qr.svg")
    assert drawn == [f"https://scores.example.net/v/{row['view_key']}"]


def test_host_header__serve_answers_only_its_own_names(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped",
        lambda app, **kwargs: calls.append((app, kwargs)),
    )
    monkeypatch.setattr(serve_module, "lan_address", lambda: "192.168.1.23")
    db = str(tmp_path / "x.sqlite3")
    for argv in (
        ["serve"],
        ["serve", "--lan"],
        ["serve", "--proxy-hops", "1", "--public-url", PUBLIC],
        ["serve", "--proxy-hops", "2"],
    ):
        assert cli.main([*argv, "--db", db]) == 0
    hosts = [app.config["TRUSTED_HOSTS"] for app, _ in calls]
    assert hosts[0] == ["127.0.0.1", "localhost"]
    assert "192.168.1.23" in hosts[1] and "evil.example" not in hosts[1]
    assert hosts[2] == ["127.0.0.1", "localhost", "trex.example.org"]
    assert hosts[3] is None  # the proxy's forwarded host, trusted with the proxy
    assert [app.config["PROXY_HOPS"] for app, _ in calls] == [0, 0, 1, 2]
    # waitress passes the proxies' X-Forwarded-* headers on to the app only behind proxies
    # (issue 32; checked through Caddy in test_defects_proxy.py)
    assert [kw.get("clear_untrusted_proxy_headers", True) for _, kw in calls] == [
        True,
        True,
        False,
        False,
    ]
    assert not any("trusted_proxy" in kw for _, kw in calls)
    assert calls[2][0].config["PUBLIC_URL"] == PUBLIC


@pytest.mark.parametrize(
    "url",
    [
        "trex.example.org",
        "ftp://trex.example.org",
        "https://trex.example.org/scores",
        "https://x:99999",
    ],
)
def test_serve__a_public_url_that_is_not_one_is_refused(tmp_path, monkeypatch, capsys, url):
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **kwargs: pytest.fail("served")
    )
    assert cli.main(["serve", "--public-url", url, "--db", str(tmp_path / "x.db")]) == 2
    assert capsys.readouterr().err.startswith("--public-url: ")


# -- the hosted mode: headers, cookies, the client's address --------------------------------------
def test_proxy__hsts_and_secure_cookies_on_every_answer(hosted):
    phone = member(hosted)
    game = start(phone)
    for response in (
        phone.get("/"),
        phone.get(f"/games/{game}"),
        phone.get("/games/999"),
        phone.get("/lang/ar?next=/", headers=OWN_LINK),
        phone.post("/games/new", data={}),
    ):
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
        for cookie in response.headers.getlist("Set-Cookie"):
            assert "; Secure" in cookie, cookie
    cookies = (
        via_proxy(hosted).get("/lang/ar?next=/", headers=OWN_LINK).headers.getlist("Set-Cookie")
    )
    assert cookies and all("; Secure" in c for c in cookies)
    session = next(
        c
        for c in phone.get(f"/join/{join_key(hosted)}").headers.getlist("Set-Cookie")
        if c.startswith("session=")
    )
    assert "; Secure" in session and "HttpOnly" in session and "SameSite=Lax" in session


def test_proxy__the_pin_limits_count_the_real_client_not_the_proxy(hosted):
    game = start(member(hosted), pin="482193")
    # reading the group needs its join link: a stranger cannot even reach the PIN page
    assert (
        via_proxy(hosted, "203.0.113.66")
        .post(f"/games/{game}/unlock", data={"pin": "000000"})
        .status_code
        == 404
    )
    guesser = member(hosted, "203.0.113.66")
    for _ in range(keys.PIN_TRIES):
        assert guesser.post(f"/games/{game}/unlock", data={"pin": "000000"}).status_code == 400
    assert guesser.post(f"/games/{game}/unlock", data={"pin": "482193"}).status_code == 429
    clients = {r["client"] for r in query(hosted, "select client from pin_attempts")}
    assert clients == {"203.0.113.66"}
    # another phone behind the same proxy is another client
    assert (
        member(hosted, "198.51.100.7")
        .post(f"/games/{game}/unlock", data={"pin": "482193"})
        .status_code
        == 303
    )


def test_proxy__only_the_proxys_own_entry_counts(hosted):
    """With one proxy, the client's own X-Forwarded-For entries (made up) are not trusted: the
    address the proxy appended is."""
    game = start(member(hosted), pin="482193")
    for n in range(keys.PIN_TRIES):
        liar = member(hosted, "203.0.113.66")
        liar.environ_base["HTTP_X_FORWARDED_FOR"] = f"10.9.9.{n}, 203.0.113.66"
        assert liar.post(f"/games/{game}/unlock", data={"pin": "000000"}).status_code == 400
    assert liar.post(f"/games/{game}/unlock", data={"pin": "482193"}).status_code == 429


def test_proxy__without_the_option_forwarded_headers_are_ignored(tmp_path):
    app = make(tmp_path)
    client = app.test_client()
    game = Table(client).new_game(pin="4821")
    keys_before = soup(client.get(f"/games/{game}/share")).get_text()
    for n in range(keys.PIN_TRIES):
        spoofer = app.test_client()
        spoofer.environ_base["HTTP_X_FORWARDED_FOR"] = f"203.0.113.{n}"
        spoofer.post(f"/games/{game}/unlock", data={"pin": "0000"})
    assert {r["client"] for r in query(app, "select client from pin_attempts")} == {"127.0.0.1"}
    response = client.get(f"/games/{game}/share", headers=FORWARDED)
    assert "Strict-Transport-Security" not in response.headers
    assert "trex.example.org" not in response.get_data(as_text=True)
    assert "http://localhost/e/" in keys_before
    assert all(
        "Secure" not in c
        for c in client.get("/lang/ar?next=/", headers=OWN_LINK).headers.getlist("Set-Cookie")
    )


def test_proxy__links_use_the_forwarded_https_host_without_a_public_url(tmp_path):
    app = make(tmp_path, PROXY_HOPS=1)
    phone = member(app)
    game = start(phone)
    text = soup(phone.get(f"/games/{game}/share")).get_text()
    assert re.search(r"https://trex\.example\.org/e/[0-9a-f]{32}", text)
    assert re.search(r"https://trex\.example\.org/v/[0-9a-f]{32}", text)


# -- the hosted mode: the group's join link, longer PINs ------------------------------------------
def test_hosted__starting_and_importing_need_the_groups_join_link(hosted, tmp_path, capsys):
    stranger = via_proxy(hosted, "198.51.100.20")
    for response in (
        stranger.get("/games/new"),
        stranger.post("/games/new", data=NEW_GAME),
        stranger.get("/import"),
        stranger.post(
            "/import",
            data={"file": (io.BytesIO(json.dumps(standard_game()).encode()), "g.json")},
            content_type="multipart/form-data",
        ),
    ):
        assert response.status_code == 404  # reading needs the join link too (groups issue)
        assert "join link" in soup(response).get_text()
    assert query(hosted, "select count(*) as n from games")[0]["n"] == 0
    assert stranger.get("/join/" + "0" * 32).status_code == 404
    phone = member(hosted)
    assert phone.get("/games/new").status_code == 200
    start(phone)
    admin = via_proxy(hosted, "198.51.100.30")
    be_admin(admin, hosted)
    assert admin.get("/import").status_code == 200
    old_key = join_key(hosted)
    # a new join link: the old one admits no one new; the phones that joined stay members
    assert cli.main(["join-link", "--rotate", "--db", hosted.config["DATABASE"]]) == 0
    assert f"/join/{join_key(hosted)}" in capsys.readouterr().out
    assert via_proxy(hosted, "198.51.100.40").get(f"/join/{old_key}").status_code == 404
    assert phone.get("/games/new").status_code == 200
    assert admin.get("/games/new").status_code == 200


def test_hosted__watching_and_the_games_own_rights_are_as_everywhere(hosted):
    phone = member(hosted)
    game = start(phone)
    stranger = via_proxy(hosted, "198.51.100.20")
    assert stranger.get(f"/games/{game}").status_code == 404  # reading is the group's
    watcher = via_proxy(hosted, "198.51.100.21")
    view_key = query(hosted, "select view_key from games")[0]["view_key"]
    assert watcher.get(f"/v/{view_key}").status_code == 303
    assert watcher.get(f"/games/{game}/watch").status_code == 200
    assert watcher.get(f"/games/{game}/deals/new").status_code == 404
    assert phone.get(f"/games/{game}/deals/new").status_code == 200


@pytest.mark.parametrize(
    "pin, status", [("4821", 400), ("48213", 400), ("482193", 303), ("482193482193", 303)]
)
def test_hosted__a_table_pin_has_at_least_six_digits(hosted, pin, status):
    response = member(hosted).post("/games/new", data={**NEW_GAME, "pin": pin})
    assert response.status_code == status
    if status == 400:
        assert "6 to 12 digits" in soup(response).get_text()


def test_hosted__a_new_pin_from_the_phones_panel_has_six_digits_too(hosted):
    phone = member(hosted)
    game = start(phone)
    assert phone.post(f"/games/{game}/pin", data={"pin": "4821"}).status_code == 400
    assert phone.post(f"/games/{game}/pin", data={"pin": "482193"}).status_code == 303


def test_lan__as_open_as_before(tmp_path):
    app = make(tmp_path)
    phone = app.test_client()
    assert phone.get("/games/new").status_code == 200
    start(phone, pin="4821")


def test_serve__the_container_s_environment_sets_the_hosted_mode(tmp_path, monkeypatch):
    """deploy/Dockerfile sets SCOREKEEPER_PROXY_HOPS; the box's owner gives the public address
    as SCOREKEEPER_PUBLIC_URL. A flag still wins over the environment."""
    calls = []
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_PROXY_HOPS", "1")
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", PUBLIC)
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **kwargs: calls.append(app)
    )
    db = str(tmp_path / "x.sqlite3")
    assert cli.main(["serve", "--db", db]) == 0
    assert cli.main(["serve", "--proxy-hops", "0", "--db", db]) == 0
    assert [(a.config["PROXY_HOPS"], a.config["PUBLIC_URL"]) for a in calls] == [
        (1, PUBLIC),
        (0, PUBLIC),
    ]
    monkeypatch.setenv("SCOREKEEPER_PROXY_HOPS", "many")
    with pytest.raises(SystemExit):
        cli.main(["serve", "--db", db])
