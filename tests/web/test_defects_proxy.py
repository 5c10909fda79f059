"""Issue 32: behind a real proxy, every phone was the proxy. Checked through a real Caddy
(``tls internal``) in front of the real waitress (``scorekeeper serve --proxy-hops 1
--public-url https://scores.test:PORT``), with phones on loopback addresses of their own, and
the server without ``--proxy-hops`` reached directly by a phone that forges the headers.

Waitress removed the ``X-Forwarded-*`` headers of a proxy it was not told to trust, so the app
counted every PIN try as 127.0.0.1: one stranger's wrong tries locked the table out of its own
game. Behind ``--proxy-hops`` waitress now passes them on to the app's ``ProxyFix``.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from scorekeeper.store import keys

from hosted_box import HOST, NEW_GAME, LoopbackPhone, hosted_box, query
from live_server import Server, hidden_fields

PIN, WRONG = "482193", "000000"
HSTS = "max-age=31536000"


pytestmark = pytest.mark.slow  # the real Caddy in front of the real waitress


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    with hosted_box(tmp_path_factory.mktemp("hosted")) as running:
        yield running


def start_game(box, pin: str = PIN) -> int:
    """A game with a table PIN, started by a phone of the group (at 127.0.0.10)."""
    reply = box.member("127.0.0.10").post_form("/games/new", {**NEW_GAME, "pin": pin})
    assert reply.status == 303, reply.body[:500]
    return int(reply.location.rsplit("/", 1)[1])


def tries(box, game: int) -> Counter:
    """The wrong PIN tries the app recorded, by the address it counted them for."""
    return Counter(
        row["client"]
        for row in box.query("select client from pin_attempts where game_id = ?", (game,))
    )


def unlock(phone, game: int, pin: str, **headers: str) -> int:
    return phone.post_form(f"/games/{game}/unlock", {"pin": pin}, headers=headers).status


# -- the PIN limits count each phone, not the proxy ------------------------------------------
def test_issue32__a_strangers_wrong_pins_do_not_lock_the_table_out(box):
    game = start_game(box)
    # reading a hosted group needs its join link: a phone without it cannot reach the PIN
    assert unlock(box.phone("127.0.0.67"), game, WRONG) == 404
    # a phone of the group that guesses, and the table's own phone
    stranger, table = box.member("127.0.0.66"), box.member("127.0.0.77")
    # the stranger also makes up an X-Forwarded-For of its own: only Caddy's entry counts
    statuses = [
        unlock(stranger, game, WRONG, **{"X-Forwarded-For": f"10.9.9.{n}"})
        for n in range(keys.PIN_TRIES)
    ]
    assert statuses == [400] * keys.PIN_TRIES
    assert unlock(stranger, game, PIN) == 429  # its own limit: even the right PIN now
    assert unlock(table, game, PIN) == 303
    assert table.request("entry", "GET", f"/games/{game}/deals/new").status == 200
    assert stranger.request("entry", "GET", f"/games/{game}/deals/new").status == 403
    assert tries(box, game) == {"127.0.0.66": keys.PIN_TRIES}
    assert {"127.0.0.66", "127.0.0.77"} <= box.caddy.seen()


def test_issue32__the_games_limit_waits_for_the_phones_that_failed_only(box):
    """Past PIN_TRIES_PER_GAME wrong tries from all phones, a phone that has failed waits, and
    one that has not may still try: which is which is the address the app records."""
    game = start_game(box)
    guessers = [f"127.0.0.{n}" for n in range(61, 61 + keys.PIN_TRIES_PER_GAME // keys.PIN_TRIES)]
    for address in guessers:
        phone = box.member(address)
        assert [unlock(phone, game, WRONG) for _ in range(keys.PIN_TRIES)] == [400] * 5
    late = box.member("127.0.0.65")
    assert unlock(late, game, WRONG) == 400  # it had not failed: it may try
    assert unlock(late, game, WRONG) == 429  # now it has, and the game is past its limit
    assert unlock(box.member("127.0.0.77"), game, PIN) == 303
    assert tries(box, game) == {**{a: keys.PIN_TRIES for a in guessers}, "127.0.0.65": 1}


# -- scheme and host: HSTS, Secure cookies, the public https address ---------------------------
def test_issue32__hsts_and_secure_cookies_through_caddy(box):
    phone = box.phone("127.0.0.88")
    joined = phone.request("join", "GET", box.join_link())
    for reply in (
        joined,
        phone.request("home", "GET", "/"),
        phone.request("lang", "GET", "/lang/en?next=/"),
    ):
        assert reply.headers["Strict-Transport-Security"] == HSTS
        assert reply.headers["Referrer-Policy"] == "same-origin"
        cookies = reply.headers.get_all("Set-Cookie") or []
        assert all("; Secure" in cookie for cookie in cookies), cookies
    session = next(c for c in joined.headers.get_all("Set-Cookie") if c.startswith("session="))
    assert "HttpOnly" in session and "SameSite=Lax" in session


def check_links(box, phone) -> None:
    """The Phones page's links and the QR code carry the public https address, Caddy's."""
    from scorekeeper.web.making.qrcodes import qr_svg

    started = phone.post_form("/games/new", {**NEW_GAME, "pin": PIN})
    game = int(started.location.rsplit("/", 1)[1])
    [row] = box.query("select edit_key, view_key from games where id = ?", (game,))
    share = phone.request("share", "GET", f"/games/{game}/share").body
    assert f"{box.url}/e/{row['edit_key']}" in share and f"{box.url}/v/{row['view_key']}" in share
    assert not re.search(r"http://|127\.0\.0\.1", share)
    qr = phone.request("qr", "GET", f"/games/{game}/qr.svg")
    assert qr.status == 200
    assert qr.body == qr_svg(f"{box.url}/v/{row['view_key']}", "Scan to follow this game").decode()


def test_issue32__links_and_qr_codes_carry_the_public_address(box):
    check_links(box, box.member("127.0.0.88"))


def test_issue32__without_a_public_url_links_carry_the_host_caddy_forwards(tmp_path):
    with hosted_box(tmp_path, public_url=False) as bare:
        check_links(bare, bare.member("127.0.0.88"))


def test_issue32__a_post_over_https_needs_this_sites_referer(box):
    """The strict referrer check stays on (with the CSRF token and the SameSite cookie): a form
    sent without a Referer, or from another site, is refused; the app's pages let a browser send
    their own address to the site itself (``same-origin``)."""
    game = start_game(box)
    phone = box.member("127.0.0.99")
    page = f"/games/{game}/unlock"
    for referer in (
        {},
        {"Referer": "https://evil.example/"},
        {"Referer": f"http://{HOST}:{box.caddy.port}{page}"},
    ):
        fields = {"pin": PIN, **hidden_fields(phone.request("form", "GET", page).body)}
        reply = phone.request("post", "POST", page, fields, referer)
        assert reply.status == 400, referer
        assert "sent from elsewhere" in reply.body
    assert tries(box, game) == {}
    assert unlock(phone, game, PIN) == 303


# -- without --proxy-hops: the forwarded headers are still ignored -----------------------------
def test_issue32__without_proxy_hops_waitress_and_the_app_ignore_forwarded_headers(tmp_path):
    server = Server(tmp_path / "lan.sqlite3", tmp_path / "instance").start()
    root = f"http://127.0.0.1:{server.port}"
    phone, other = (LoopbackPhone(server.port, a, root) for a in ("127.0.0.66", "127.0.0.77"))
    forged = {
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
    }
    try:
        started = phone.post_form("/games/new", {**NEW_GAME, "pin": "4821"}, headers=forged)
        assert started.status == 303
        game = int(started.location.rsplit("/", 1)[1])
        assert unlock(other, game, "0000", **forged) == 400
        clients = query(server.database, "select client from pin_attempts")
        assert clients == [{"client": "127.0.0.77"}]
        share = phone.request("share", "GET", f"/games/{game}/share", headers=forged)
        assert "Strict-Transport-Security" not in share.headers
        assert f"{root}/e/" in share.body and "evil.example" not in share.body
        assert HOST not in share.body and "https://" not in share.body
        assert all("Secure" not in c for c in share.headers.get_all("Set-Cookie") or [])
    finally:
        phone.close()
        other.close()
        server.stop()
