"""The Share button on a phone: with the Web Share API it shares the text and the sheet's PNG;
without it (the API missing, as on a desktop browser) it opens the text to copy and the image to
download, in English and Arabic."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from phone_helpers import shoot, wait_until

NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
STUB_SHARE = """
Navigator.prototype.canShare = function (data) { return true; };
Navigator.prototype.share = function (data) {
  window.__shared = {text: data.text, files: (data.files || []).map(function (f) {
    return {name: f.name, type: f.type, size: f.size}; })};
  return Promise.resolve();
};"""


@pytest.mark.parametrize("locale", ["en-GB", "ar-JO"])
def test_without_web_share_the_button_offers_the_text_and_the_image(
    new_phone, site, seeded, locale
):
    page = new_phone(locale=locale, permissions=["clipboard-read", "clipboard-write"])
    page.add_init_script(NO_SHARE)
    page.goto(f"{site.url}/games/{seeded.over}")
    button = page.locator("#share-result")
    text = button.get_attribute("data-share")
    assert text.count("\n") >= 5  # a heading, four players, the winner
    button.tap()
    page.wait_for_url(f"{site.url}/games/{seeded.over}/result")
    assert page.locator("#share-text").input_value() == text
    copy = page.locator("#copy-result")
    copy.tap()
    wait_until(
        page,
        "document.getElementById('copy-result').textContent !== ''"
        " && document.getElementById('copy-result').textContent"
        " === document.getElementById('copy-result').dataset.copied",
    )
    assert page.evaluate("navigator.clipboard.readText()") == text
    with page.expect_download() as download:
        page.locator("#share-image").tap()
    with open(download.value.path(), "rb") as handle:
        image = Image.open(io.BytesIO(handle.read()))
    assert image.format == "PNG" and image.size[0] == 1240
    shoot(page, f"share-fallback-{locale[:2]}")


def test_with_web_share_the_text_and_the_png_are_shared(new_phone, site, seeded):
    page = new_phone()
    page.add_init_script(STUB_SHARE)
    page.goto(f"{site.url}/games/{seeded.over}")
    button = page.locator("#share-result")
    text = button.get_attribute("data-share")
    button.tap()
    wait_until(page, "window.__shared !== undefined")
    shared = page.evaluate("window.__shared")
    assert page.url == f"{site.url}/games/{seeded.over}"  # it stayed: the phone shared
    assert shared["text"] == text
    [file] = shared["files"]
    assert file["type"] == "image/png" and file["name"].endswith(".png") and file["size"] > 10_000
