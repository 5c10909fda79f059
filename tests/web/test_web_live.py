"""Quick entry and following a game: the live preview the engine computes, the read-only
scoreboard, the state document it polls, the QR code, the home-screen manifest."""

from __future__ import annotations

import io
import json

import segno
from PIL import Image

from scorekeeper.engine import HouseRules, read_deal, score_deal
from scorekeeper.web import STATIC

from web_helpers import COMPLEX, PLAYERS, hidden_fields, soup

KH_DOUBLED = {
    "king": 0,
    "contracts": ["king_of_hearts"],
    "king_of_hearts": {"taker": 2, "doubled_by": 1},
}


def preview(client, game_id, contracts, fields, *, url=None):
    page = soup(client.get(url or f"/games/{game_id}/deals/new?contracts={contracts}"))
    return client.post(
        f"/games/{game_id}/deals/preview.json", data={**hidden_fields(page), **fields}
    )


# -- the entry form and its live preview -------------------------------------------------------
def test_entry_form__saves_at_once_with_javascript_and_previews_without(table):
    game_id = table.new_game()
    page = table.open_form(game_id, "king_of_hearts")
    form = page.select_one("form[data-preview]")
    assert form["data-preview"] == f"/games/{game_id}/deals/preview.json"
    button = form.select_one("button[name=step]")
    assert button["value"] == "preview" and button["data-save"] == "Save deal 1"
    assert page.select_one("#live-preview").has_attr("hidden")


def test_entry_form__doubling_is_one_tap_on_the_holder_not_doubled_at_first(table):
    game_id = table.new_game()
    page = table.open_form(game_id, "queens")
    assert page.select_one("main details") is None
    for suit in ("spades", "hearts", "diamonds", "clubs"):
        box = page.select_one(f"#f-q_{suit}_doubled_by")
        chips = [(i["value"], i.has_attr("checked")) for i in box.select("input")]
        assert chips == [("", True), ("0", False), ("1", False), ("2", False), ("3", False)]
        assert len(page.select(f"#f-q_{suit}_taker input")) == 4


def test_preview__the_engines_scores_and_totals(table, client):
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    answer = preview(
        client, game_id, "king_of_hearts", {"kh_taker": "2", "kh_doubled_by": "1"}
    ).json
    record, _ = read_deal(KH_DOUBLED, 2, PLAYERS)
    assert answer["ok"] is True
    assert [r["deal"] for r in answer["rows"]] == list(score_deal(record, HouseRules()))
    assert [r["total"] for r in answer["rows"]] == [-40, 45, -180, -30]
    assert answer["rows"][2] == {
        "seat": 2,
        "name": "Carla",
        "deal": -150,
        "deal_text": "−150",
        "total": -180,
        "total_text": "−180",
    }
    assert answer["lines"] == ["K♥: Carla (doubled by Bilal)"]


def test_preview__says_what_is_missing_and_saves_nothing(table, client):
    game_id = table.new_game()
    answer = preview(client, game_id, "diamonds", {"diamonds_0": "4"}).json
    assert answer == {"ok": False, "problems": ["Give four counts, one per player."]}
    answer = preview(
        client, game_id, "diamonds", {"diamonds_0": "9", "diamonds_1": "9", "diamonds_2": "0"}
    ).json
    assert answer["ok"] is False and "13" in answer["problems"][0]
    assert table.standings(game_id) == dict.fromkeys(PLAYERS, 0)
    assert client.get(f"/games/{game_id}/state.json").json["deals"] == 0


def test_preview__fills_in_the_fourth_count_as_the_save_does(table, client):
    game_id = table.new_game()
    answer = preview(
        client, game_id, "collections", {"tricks_0": "3", "tricks_1": "4", "tricks_2": "5"}
    ).json
    assert [r["deal"] for r in answer["rows"]] == [-45, -60, -75, -15]


def test_preview__of_a_correction_counts_the_game_with_it(table, client):
    game_id = table.new_game()
    table.enter(game_id, KH_DOUBLED)
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    answer = preview(
        client,
        game_id,
        None,
        {"kh_taker": "0", "kh_doubled_by": ""},
        url=f"/games/{game_id}/deals/1/edit",
    ).json
    assert [r["deal"] for r in answer["rows"]] == [-75, 0, 0, 0]
    assert [r["total"] for r in answer["rows"]] == [-115, -30, -30, -30]


def test_preview__of_a_sweep_says_it_is_replayed(table, client):
    game_id = table.new_game(preset="custom", doubling="y", sweep_on="y", sweep_tricks="13")
    answer = preview(
        client, game_id, "diamonds", {"diamonds_0": "13", "diamonds_1": "0", "diamonds_2": "0"}
    ).json
    assert answer["ok"] and "sweep" in answer["note"] and "not used up" in answer["note"]


def test_preview__only_for_a_phone_that_keeps_score(table, app):
    game_id = table.new_game()
    page = table.open_form(game_id, "trex")
    watcher = app.test_client()
    response = watcher.post(
        f"/games/{game_id}/deals/preview.json", data={**hidden_fields(page), "trex_1": "0"}
    )
    assert response.status_code == 403


def test_preview__a_malformed_form_is_a_400_not_a_500(table, client):
    game_id = table.new_game()
    response = client.post(f"/games/{game_id}/deals/preview.json", data={"king": "x"})
    assert response.status_code == 400
    assert client.post("/games/99/deals/preview.json", data={}).status_code in (403, 404)


# -- the state document pages poll -------------------------------------------------------------
def test_state__standings_from_the_engine_and_a_version_that_moves_with_every_write(table, client):
    game_id = table.new_game()
    versions = [client.get(f"/games/{game_id}/state.json").json["version"]]
    table.enter(game_id, KH_DOUBLED)
    state = client.get(f"/games/{game_id}/state.json").json
    versions.append(state["version"])
    assert state["deals"] == 1 and state["next"] == {"number": 2, "king": 0}
    assert {r["name"]: r["total"] for r in state["standings"]} == {
        "Aya": 0,
        "Bilal": 75,
        "Carla": -150,
        "Dana": 0,
    }
    table.correct(
        game_id, 1, {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 3}}
    )
    versions.append(client.get(f"/games/{game_id}/state.json").json["version"])
    table.undo(game_id, 1)
    versions.append(client.get(f"/games/{game_id}/state.json").json["version"])
    # each write shows (a version equal to an earlier one means the same deals: no deal, here)
    assert all(before != after for before, after in zip(versions, versions[1:]))


def test_state__unchanged_is_a_304_without_a_body(table, client):
    game_id = table.new_game()
    first = client.get(f"/games/{game_id}/state.json")
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get(
        f"/games/{game_id}/state.json", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.data == b""
    table.enter(game_id, KH_DOUBLED)
    changed = client.get(
        f"/games/{game_id}/state.json", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200 and changed.json["deals"] == 1


def test_state__of_no_game_is_a_404(client):
    assert client.get("/games/404/state.json").status_code == 404


# -- the scoreboard other phones follow --------------------------------------------------------
def test_watch__standings_and_grid_and_nothing_to_change(table, client):
    game_id = table.new_game()
    table.enter(game_id, KH_DOUBLED)
    page = soup(client.get(f"/games/{game_id}/watch"))
    live = page.select_one("#live")
    assert live["data-poll"] == f"/games/{game_id}/state.json" and live.has_attr("data-wake")
    assert page.select("main form") == [] and page.select("main button") == []
    assert not [a["href"] for a in page.select("main a") if "/deals" in a["href"]]
    assert "Bilal" in page.select_one("table.sheet thead").get_text()
    assert page.select_one("#kingdom-1 th span b").get_text(strip=True) == "K♥"
    assert "Deal 2" in page.select_one("#now").get_text()


def test_watch__a_finished_game_says_who_won(table, client):
    game_id = table.new_game(preset="complex")
    deals = [
        {
            "king": k,
            "contracts": COMPLEX.split(","),
            "king_of_hearts": {"taker": k},
            "diamonds": [4, 3, 3, 3],
            "tricks": [4, 3, 3, 3],
            "queens": {
                s: {"taker": i} for i, s in enumerate(("spades", "hearts", "diamonds", "clubs"))
            },
        }
        for k in range(4)
    ]
    for k, entered in enumerate(deals):
        table.enter(game_id, entered)
        table.enter(game_id, {"king": k, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]})
    page = soup(client.get(f"/games/{game_id}/watch"))
    assert "Winner" in page.select_one("#game-over").get_text()
    assert page.select_one("#game-over a") is None  # no "new game" from a watching phone


def test_watch__of_no_game_is_a_404(client):
    assert client.get("/games/404/watch").status_code == 404


def test_game_page__refreshes_itself_keeps_the_screen_on_and_shows_the_qr_code(table, client):
    game_id = table.new_game()
    page = soup(client.get(f"/games/{game_id}"))
    live = page.select_one("#live")
    assert live.has_attr("data-wake") and live["data-every"] == "3"
    assert live["data-version"] == client.get(f"/games/{game_id}/state.json").json["version"]
    follow = page.select_one("#follow")
    assert follow.select_one("img.qr")["src"] == f"/games/{game_id}/qr.svg"
    link = follow.select_one("a")["href"]
    assert link.startswith("/v/")
    assert client.get(link).headers["Location"].endswith(f"/games/{game_id}/watch")


def qr_of(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        omitsize=True,
        title="Scan to follow this game",
    )
    return out.getvalue()


def test_qr__an_svg_drawn_here_of_the_full_view_link(table, client):
    game_id = table.new_game()
    link = soup(client.get(f"/games/{game_id}")).select_one("#follow a")["href"]
    response = client.get(f"/games/{game_id}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.data == qr_of("http://localhost" + link)
    assert b"<script" not in response.data


def test_qr__on_the_server_machine_under_lan_points_to_the_network_address(app, table, client):
    game_id = table.new_game()
    link = soup(client.get(f"/games/{game_id}")).select_one("#follow a")["href"]
    app.config["LAN_URL"] = "http://192.168.1.23:5000/"
    assert client.get(f"/games/{game_id}/qr.svg").data == qr_of("http://192.168.1.23:5000" + link)
    other = client.get(f"/games/{game_id}/qr.svg", base_url="http://192.168.1.23:5000")
    assert other.data == qr_of("http://192.168.1.23:5000" + link)


def test_qr__of_no_game_is_a_404(client):
    assert client.get("/games/404/qr.svg").status_code == 404


# -- the home screen ---------------------------------------------------------------------------
def test_manifest__served_as_a_manifest_with_its_icons(client):
    page = soup(client.get("/"))
    href = page.select_one("link[rel=manifest]")["href"]
    assert page.select("meta[name=theme-color]")
    with client.get(href) as response:
        assert response.mimetype == "application/manifest+json"
        manifest = json.loads(response.data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {}
    for icon in manifest["icons"]:
        with client.get("/static/" + icon["src"]) as served:
            assert served.status_code == 200 and served.mimetype == icon["type"]
        if icon["type"] == "image/png":
            with Image.open(STATIC / icon["src"]) as image:
                assert f"{image.width}x{image.height}" == icon["sizes"]
            sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert sizes == {"any": {"192x192", "512x512"}, "maskable": {"192x192", "512x512"}}
