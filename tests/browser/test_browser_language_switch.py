"""The language and digits switches in Chromium, which says where each navigation came from
(``Sec-Fetch-Site``): a link on another site changes nothing, the app's own change it in one
tap, with JavaScript or without (issue: any other site could switch a phone's language)."""

from __future__ import annotations

import pytest

from phone_helpers import CONTRAST_SCRIPT, LAYOUT_SCRIPT, NARROW, shoot


def cookie(page, name: str) -> str | None:
    return next((c["value"] for c in page.context.cookies() if c["name"] == name), None)


@pytest.mark.parametrize("target", ["/lang/ar", "/digits/arabic"])
def test_cross_site_switch__a_link_on_another_site_changes_nothing(site, new_phone, target):
    page = new_phone()
    page.set_content(f'<a id="bait" href="{site.url}{target}?next=/players/">Win a prize</a>')
    page.click("#bait")
    page.wait_for_url(f"**{target}?next=/players/")
    assert "A link asked to" in page.locator("main").inner_text()
    assert cookie(page, "lang") is None and cookie(page, "digits") is None
    assert page.locator("html").get_attribute("lang") == "en"
    # The page that asks is held to what every page is held to (test_browser_pages).
    page.set_viewport_size(NARROW)
    found = page.evaluate(LAYOUT_SCRIPT)
    assert found["width"] <= NARROW["width"] and not found["small"] and not found["tiny"]
    assert not page.evaluate(CONTRAST_SCRIPT)
    shoot(page, f"switch-asked{target.replace('/', '-')}")


@pytest.mark.parametrize("js", [True, False])
def test_cross_site_switch__the_apps_own_controls_take_one_tap(site, new_phone, js):
    page = new_phone(js=js)
    page.goto(f"{site.url}/players/")
    with page.expect_request(lambda r: "/lang/ar" in r.url) as tapped:
        page.click("header a.lang")
    page.wait_for_url("**/players/")
    # Where browsers send no Sec-Fetch-Site (plain HTTP on the local network), this is what
    # shows the tap came from the app's own page.
    assert tapped.value.headers.get("referer") == f"{site.url}/"
    assert page.locator("html").get_attribute("lang") == "ar" and cookie(page, "lang") == "ar"
    page.goto(f"{site.url}/settings")
    page.click("button[formaction^='/digits/arabic']")
    page.wait_for_url("**/settings")
    assert cookie(page, "digits") == "arabic"
    page.click("button[lang=en][formaction^='/lang/en']")
    page.wait_for_url("**/settings")
    assert page.locator("html").get_attribute("lang") == "en" and cookie(page, "lang") == "en"
