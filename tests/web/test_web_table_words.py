"""Issue 28, "words and colours that say the right thing": each test is named after its item.
(The colours and the local time, which a browser draws, are also checked in
tests/browser/test_browser_table_words.py.)"""

from __future__ import annotations

from scorekeeper.engine.contracts import Contract

from web_helpers import OWN_LINK, PLAYERS, hidden_fields, soup

TREX = {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]}


def arabic(client, digits: str = "western") -> None:
    client.get("/lang/ar?next=/", headers=OWN_LINK)
    client.get(f"/digits/{digits}?next=/", headers=OWN_LINK)


def test_favicon_ico_is_served_and_pages_have_a_meta_description(client, table):
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/vnd.microsoft.icon"
        assert icon.data[:4] == b"\x00\x00\x01\x00"  # an ICO file
    game_id = table.new_game()
    for url in ("/", "/history/", f"/games/{game_id}", "/games/new", "/players/"):
        meta = soup(client.get(url)).find("meta", attrs={"name": "description"})
        assert meta is not None and "Trex" in meta["content"], url
    arabic(client)
    meta = soup(client.get("/")).find("meta", attrs={"name": "description"})
    assert "التركس" in meta["content"]


def test_reverse_scores_colours_follow_who_is_winning(client, table):
    """Under reverse scores the lowest total wins: the page says so to its styles (main is
    .reverse, where app.css swaps the colours of + and −), and only then."""
    reverse = table.new_game(preset="custom", reverse_scores="y")
    table.enter(reverse, TREX)
    page = soup(client.get(f"/games/{reverse}"))
    assert "reverse" in page.main["class"]
    leader = page.select("#sheet thead tr.totals td")[0].span
    assert leader.get_text() == "−200" and leader["class"] == ["neg"]
    with client.get("/static/app.css") as answer:
        css = answer.get_data(as_text=True)
    assert ".neg, .reverse .pos { color: var(--neg); }" in css
    assert ".pos, .reverse .neg { color: var(--pos); }" in css
    standard = table.new_game()
    table.enter(standard, TREX)
    assert "reverse" not in (soup(client.get(f"/games/{standard}")).main.get("class") or [])


def finish(table, game_id: int) -> None:
    """A whole standard game that seats 0 and 2 win together (350 each): in every other
    kingdom they swap their results."""
    for king in range(4):
        counts = [3, 3, 4, 3] if king % 2 else [4, 3, 3, 3]
        order = [2, 0, 3, 1] if king % 2 else [0, 2, 3, 1]
        for deal in (
            {"king": king, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}},
            {"king": king, "contracts": ["diamonds"], "diamonds": counts},
            {
                "king": king,
                "contracts": ["queens"],
                "queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")},
            },
            {"king": king, "contracts": ["collections"], "tricks": counts},
            {"king": king, "contracts": ["trex"], "trex_order": order},
        ):
            table.enter(game_id, deal)


def test_names_inside_an_arabic_sentence_are_isolated(client, table):
    """The winners' headline: each name in its own <bdi>, the "و" between them outside."""
    game_id = table.new_game(["Aya", "Bilal", "Carla", "Dana"])
    finish(table, game_id)
    arabic(client)
    headline = soup(client.get(f"/games/{game_id}")).select_one("#game-over h2")
    assert [b.get_text() for b in headline.find_all("bdi")] == ["Aya", "Carla"]
    assert "Aya</bdi> و<bdi>Carla" in str(headline)


def test_times_two_is_written_in_the_pages_digits(client, table):
    game_id = table.new_game()
    arabic(client, "arabic")
    page = table.open_form(game_id, "queens", king=0)
    marks = [s.get_text() for s in page.select("fieldset.double legend .ltr")]
    assert marks and all(m.endswith("×٢") for m in marks), marks
    assert all("2" not in h.get_text() for h in page.select("p.hint")), page.select("p.hint")
    assert "×٢" in page.select_one("p.hint").get_text()


def test_another_contract_offers_only_the_open_ones(client, table):
    """Correcting deal 1 (Diamonds), after King of Hearts and Trex were played later in the
    kingdom: "it was another contract" offers Queens and Collections only."""
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    table.enter(
        game_id, {"king": 0, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 2}}
    )
    table.enter(game_id, TREX)
    page = soup(client.get(f"/games/{game_id}/deals/1/edit"))
    offered = [a["href"].rsplit("contracts=", 1)[1] for a in page.select("details .options a")]
    assert sorted(offered) == sorted([Contract.QUEENS.value, Contract.COLLECTIONS.value])


def test_without_javascript_the_hint_promises_only_what_happens(client, table):
    """The hint says the last count is worked out, which holds without JavaScript too: left
    out, it is filled in by the server when the scores are checked."""
    game_id = table.new_game()
    page = table.open_form(game_id, "diamonds")
    hint = page.select_one("#g-diamonds p.hint").get_text()
    assert "fills itself in" not in hint and "worked out for you" in hint
    preview = client.post(
        f"/games/{game_id}/deals/new",
        data={
            **hidden_fields(page),
            "diamonds_0": "4",
            "diamonds_1": "3",
            "diamonds_2": "3",
            "step": "preview",
        },
    )
    assert preview.status_code == 200
    assert hidden_fields(soup(preview))["diamonds_3"] == "3"


def test_history_and_record_are_named_apart_in_arabic(client, table):
    game_id = table.new_game(PLAYERS)
    arabic(client)
    links = {
        a["href"]: a.get_text(strip=True)
        for a in soup(client.get(f"/games/{game_id}")).select(".actions a.btn")
    }
    history = links[f"/games/{game_id}/history"]
    record = links[f"/history/games/{game_id}"]
    assert history.split()[0] != record.split()[0], (history, record)


def test_in_a_complex_deal_the_bar_asks_about_the_part_on_screen(client, table):
    """After K♥, the page shows Diamonds: the bar's first problem (the one it says) is about
    Diamonds, not the Q♠ of a tab further on."""
    game_id = table.new_game(preset="complex")
    contracts = "king_of_hearts,diamonds,queens,collections"
    page = table.open_form(game_id, contracts)
    answer = client.post(
        f"/games/{game_id}/deals/preview.json", data={**hidden_fields(page), "kh_taker": "1"}
    ).get_json()
    assert answer["ok"] is False
    assert answer["problems"][0] == "Give four counts, one per player.", answer["problems"]
    assert answer["problems"][1:5] == [f"Say who took the Q{s}." for s in "♠♥♦♣"]


def test_undo_sits_next_to_the_last_deal(client, table):
    """The game page offers to undo the last deal where the next one is chosen, at the top,
    not only behind "Last deal" under the sheet."""
    game_id = table.new_game()
    assert soup(client.get(f"/games/{game_id}")).select_one("#next a.danger") is None
    table.enter(game_id, TREX)
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    undo = soup(client.get(f"/games/{game_id}")).select_one("#next .actions a.danger")
    assert undo["href"] == f"/games/{game_id}/deals/2/undo"
    assert undo.get_text() == "Undo deal 2"


def test_a_deals_versions_carry_their_time_for_the_phone(client, table):
    """History shows times in UTC: each version's time carries its moment (datetime) for the
    phone to show in its own time zone (static/times.js; tests/browser checks it drawn)."""
    game_id = table.new_game()
    table.enter(game_id, TREX)
    table.correct(game_id, 1, {**TREX, "trex_order": [1, 0, 2, 3]})
    page = soup(client.get(f"/games/{game_id}/deals/1"))
    time = page.select_one("time[datetime][data-nu]")
    assert time is not None and time["datetime"].endswith("+00:00")
    assert page.find("script", src="/static/times.js") is not None
