"""Rules at hand: a short page per contract, in both languages and both digit settings, with the
numbers of the engine's value table, the doubling rule and the house rules (a game's own), read
from the same summary the printed sheet prints; and every contract name on the entry form and
the game page links to it."""

from __future__ import annotations

import re

import pytest
from babel.support import Translations
from bs4 import BeautifulSoup

from scorekeeper.engine.contracts import (
    DIAMOND_VALUE,
    KING_OF_HEARTS_VALUE,
    QUEEN_VALUE,
    TREX_PLACES,
    TRICK_VALUE,
    Contract,
)
from scorekeeper.engine.rules import HouseRules
from scorekeeper.languages import TRANSLATIONS, digits_text
from scorekeeper.printing.language import words_for
from scorekeeper.printing.render import scoresheet_html
from scorekeeper.printing.sheet import contract_values
from web_helpers import PLAYERS, Table, soup

AR = Translations.load(str(TRANSLATIONS), ["ar"])
DOUBLING = (
    "×2: doubled by its holder (named); another player who takes it scores twice its "
    "value and the holder gains its value"
)


def say(lang: str, message: str) -> str:
    text = message if lang == "en" else AR.gettext(message)
    assert lang == "en" or text != message, f"no Arabic for {message!r}"
    return text


def engine_numbers(contract: Contract, swap: bool = False) -> list[str]:
    """The signed values the engine's table gives *contract*, as the page writes them."""
    values = {
        Contract.KING_OF_HEARTS: [KING_OF_HEARTS_VALUE],
        Contract.QUEENS: [QUEEN_VALUE],
        Contract.DIAMONDS: [DIAMOND_VALUE[swap]],
        Contract.COLLECTIONS: [TRICK_VALUE[swap]],
        Contract.TREX: list(TREX_PLACES),
    }[contract]
    return [f"+{v}" if v > 0 else f"−{-v}" for v in values]


def text_of(response) -> str:
    return soup(response).select_one("main").get_text(" ", strip=True)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("digits", ["western", "arabic"])
@pytest.mark.parametrize("contract", list(Contract))
def test_rules_page__the_engine_numbers_and_the_doubling_rule(client, lang, digits, contract):
    client.set_cookie("lang", lang)
    client.set_cookie("digits", digits)
    response = client.get(f"/rules/{contract.value}")
    assert response.status_code == 200
    page = soup(response)
    assert page.html["lang"] == lang
    costs = page.select_one(f"#rules-{contract.value} .costs").get_text()
    for number in engine_numbers(contract):
        assert digits_text(number, digits == "arabic") in costs, (number, costs)
    assert not re.search("[0-9]" if digits == "arabic" else "[٠-٩]", costs)
    doubling = page.select_one(f"#rules-{contract.value} .doubling").get_text()
    if contract in (Contract.KING_OF_HEARTS, Contract.QUEENS):
        assert doubling == digits_text(say(lang, DOUBLING), digits == "arabic")
    else:
        assert doubling == say(lang, "Only the K♥ and the queens can be doubled.")
    assert say(lang, "Standard rules") in page.select_one("#house-rules").get_text()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_game_rules_page__the_house_rules_this_game_plays_with(client, lang):
    game_id = Table(client).new_game(preset="custom", doubling="", swap_diamonds_collections="y")
    client.set_cookie("lang", lang)
    text = text_of(client.get(f"/games/{game_id}/rules/diamonds,queens"))
    assert "−15" in text  # diamonds are −15 in this game, not −10
    assert re.search("[−-]10", text)  # ... and collections −10, said in the house rules line
    assert say(lang, "This game plays with:") in text
    assert say(lang, "no doubling") in text and say(lang, DOUBLING) not in text
    usual = text_of(client.get("/rules/diamonds,queens"))
    assert "−10" in usual and "−15" not in usual.split(say(lang, "House rules"))[0]


def test_rules_page__reads_the_lines_the_printed_sheet_prints(client, app):
    """Nothing written twice: each value line on the page is the sheet footer's own."""
    from scorekeeper.engine import read_game

    game_id = Table(client).new_game(preset="custom", swap_diamonds_collections="y")
    export = client.get(f"/games/{game_id}/export.json").get_json()
    game = read_game(export)
    footer = BeautifulSoup(scoresheet_html(game), "html.parser").select_one(
        "footer"
    ) or BeautifulSoup(scoresheet_html(game), "html.parser")
    for contract, line in contract_values(game.rules).items():
        assert line in footer.get_text()
        page = soup(client.get(f"/games/{game_id}/rules/{contract.value}"))
        assert page.select_one(".costs").get_text() == line
    arabic = contract_values(HouseRules(), words_for("ar"))[Contract.QUEENS]
    client.set_cookie("lang", "ar")
    assert soup(client.get("/rules/queens")).select_one(".costs").get_text() == arabic


def test_rules_page__an_unknown_contract_or_game_is_a_404(client):
    assert client.get("/rules/poker").status_code == 404
    assert client.get("/rules/diamonds,diamonds").status_code == 404
    assert client.get("/games/999/rules/trex").status_code == 404


def rules_links(page) -> dict[str, str]:
    return {a["href"].rsplit("/", 1)[1]: a.get_text() for a in page.select(".rules-at-hand a")}


def test_links__the_next_deal_line_the_chooser_and_a_finished_game(client, app):
    table = Table(client)
    game_id = table.new_game()
    every = {c.value for c in Contract}
    for url in (f"/games/{game_id}", f"/games/{game_id}/deals/new"):
        page = soup(client.get(url))
        links = rules_links(page)
        assert set(links) == every, (url, links)
        for contract in links:
            assert client.get(f"/games/{game_id}/rules/{contract}").status_code == 200
    watcher = app.test_client()  # a phone that only watches: the rules under the sheet
    assert set(rules_links(soup(watcher.get(f"/games/{game_id}")))) == every
    client.set_cookie("lang", "ar")
    assert "القواعد:" in soup(client.get(f"/games/{game_id}")).select_one(".rules-at-hand").text


@pytest.mark.parametrize(
    "preset, contracts",
    [("standard", "diamonds"), ("complex", "king_of_hearts,diamonds,queens,collections")],
)
def test_links__the_entry_heading_names_its_contracts_with_a_link(client, preset, contracts):
    game_id = Table(client).new_game(PLAYERS, preset=preset)
    page = soup(client.get(f"/games/{game_id}/deals/new?contracts={contracts}"))
    link = page.select_one(".deal-head h1 a")
    assert link["href"] == f"/games/{game_id}/rules/{contracts}"
    rules = soup(client.get(link["href"]))
    assert len(rules.select("section[id^=rules-]")) == len(contracts.split(","))
