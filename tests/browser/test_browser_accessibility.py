"""What a screen reader is told, read from Chromium's accessibility tree: the scoreboard that
refreshes itself is a polite live region (a deal saved on another phone is announced), and a
form's error is said with its field (the field is invalid and described by its error), in
English and in Arabic.
"""

from __future__ import annotations

import re

import pytest
from babel.support import Translations
from playwright.sync_api import expect

from scorekeeper.languages import TRANSLATIONS

from phone_helpers import shoot

_CATALOG = Translations.load(str(TRANSLATIONS), ["ar"])
LOCALES = {"en": "en-GB", "ar": "ar-JO"}


def say(lang: str, message: str, **params) -> str:
    """*message* as a page in *lang* says it; fails when Arabic has no translation for it."""
    text = message if lang == "en" else _CATALOG.gettext(message)
    assert lang == "en" or text != message, f"no Arabic for {message!r}"
    return text % params if params else text


def ax_node(page, selector: str) -> dict:
    """The accessibility node Chromium made for the element at *selector*: its role, name,
    description and properties (live, invalid...), as a screen reader reads them."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"nothing at {selector!r}"
    [first, *_] = cdp.send(
        "Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False}
    )["nodes"]
    cdp.detach()
    return first


def properties(node: dict) -> dict:
    return {p["name"]: p["value"].get("value") for p in node.get("properties", [])}


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_scoreboard_is_a_polite_live_region(new_phone, site, seeded, lang):
    page = new_phone(locale=LOCALES[lang], cookies=[seeded.cookie(site)])
    for url in (f"/games/{seeded.playing}", f"/games/{seeded.playing}/watch"):
        page.goto(site.url + url)
        assert page.locator("html").get_attribute("lang") == lang
        node = ax_node(page, "#live")
        assert properties(node).get("live") == "polite", node
        # What the region holds, as a screen reader's outline: the standings with every name.
        outline = page.locator("#live").aria_snapshot()
        for name in ("Aya", "Bilal", "Carla", "ليلى"):
            assert name in outline, outline


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_wrong_pin_is_said_with_the_pin_field(new_phone, site, own_game, lang):
    game_id, _ = own_game(pin="4321")
    page = new_phone(locale=LOCALES[lang])  # a phone with no right to keep score
    page.goto(f"{site.url}/games/{game_id}/unlock")
    field = page.locator("input[name=pin]")
    field.fill("1111")
    field.press("Enter")
    page.wait_for_url(f"{site.url}/games/{game_id}/unlock")
    page.locator("input[name=pin][aria-invalid]").wait_for()  # the page sent back
    message = say(lang, "That is not the table’s PIN.")
    node = ax_node(page, "input[name=pin]")
    assert message in node["description"]["value"], node
    assert properties(node).get("invalid") == "true", node
    expect(field).to_have_accessible_description(re.compile(re.escape(message)))
    assert message in page.locator("form").aria_snapshot()
    shoot(page, f"a11y-pin-error-{lang}")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_field_error_on_the_new_game_form_is_said_with_its_field(new_phone, site, lang):
    page = new_phone(locale=LOCALES[lang], js=False)
    page.goto(f"{site.url}/games/new")
    for seat, name in enumerate(("Aya", "Bilal", "Carla", "Dana")):
        page.fill(f"#player_{seat}", name)
    page.fill("#pin", "12")
    page.locator("form button[type=submit].primary").last.click()
    page.locator("#pin[aria-invalid]").wait_for()  # the form sent back with its problem
    message = say(
        lang, "A table PIN is %(low)s to %(high)s digits, or leave it empty.", low="4", high="12"
    )  # digits: the default, 0-9
    node = ax_node(page, "#pin")
    assert node["description"]["value"].endswith(message), node
    assert properties(node).get("invalid") == "true", node
    # The fields without an error are neither invalid nor described by one.
    other = ax_node(page, "#player_0")
    assert properties(other).get("invalid") in (None, "false"), other
    assert not other.get("description", {}).get("value"), other
    shoot(page, f"a11y-new-game-error-{lang}")
