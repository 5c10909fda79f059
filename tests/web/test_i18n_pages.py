"""Every page in Arabic, with nothing left in English but names and data, and every page in
English still English: the complete translation the Arabic-first tables are promised.

The pages are every page's sample (tests/samples.py), over the samples' seeded world: a page
added with its sample is held to this the day it is added."""

from __future__ import annotations

import pytest

from history_helpers import query
from i18n_helpers import english_left, latin_words, without_isolated
from samples import PAGES, sample_site
from web_helpers import soup


@pytest.fixture(scope="module")
def world(tmp_path_factory, migrated_database):
    return sample_site(tmp_path_factory.mktemp("i18n"), migrated_database)


def _titles(app) -> tuple[str, ...]:
    """The words of the titles the tables typed (data, not the app's words): a tournament's
    games are titled in the words of the phone that seated them."""
    words: list[str] = []
    for row in query(app, "select title from games"):
        words.extend(latin_words(row["title"] or ""))
    return tuple(words)


def opened(world, sample, lang: str):
    app, keeper, seeded = world
    phone = keeper if sample.keeps_score else app.test_client()
    phone.set_cookie("lang", lang)
    response = phone.get(sample.url(seeded))
    assert response.status_code == sample.status, (sample.name, response.status_code)
    return soup(response)


@pytest.mark.slow
@pytest.mark.parametrize("sample", PAGES, ids=[s.name for s in PAGES])
def test_every_page_in_arabic__right_to_left_and_nothing_left_in_english(world, sample):
    html = opened(world, sample, "ar")
    assert (html.html["lang"], html.html["dir"]) == ("ar", "rtl")
    assert english_left(html, also_kept=_titles(world[0])) == []


@pytest.mark.slow
@pytest.mark.parametrize("sample", PAGES, ids=[s.name for s in PAGES])
def test_every_page_in_english__left_to_right_and_no_arabic_words_of_the_app(world, sample):
    html = opened(world, sample, "en")
    assert (html.html["lang"], html.html["dir"]) == ("en", "ltr")
    for bdi in html.select("bdi"):
        bdi.decompose()
    for switch in html.select("[lang=ar]"):
        switch.decompose()
    text = without_isolated(html.get_text(" "))  # names in a text to share are isolated
    assert not any("\u0600" <= ch <= "\u06ff" for ch in text), text[:400]
