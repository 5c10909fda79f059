"""Every route of the app has a sample address (tests/samples.py), or says why it needs none,
and every sample answers as it is declared: so the every-page tests, which read that one list,
reach a new page the day it is added."""

from __future__ import annotations

import pytest
from flask import Blueprint
from werkzeug.exceptions import HTTPException

from scorekeeper.web import create_app

from group_helpers import groups_app
from samples import FILE, LINK, NO_SAMPLE, PAGE, SAMPLES, sample_site, samples


def make_app(path, **config):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(path / "samples.sqlite3"),
            "INSTANCE_PATH": str(path / "instance"),
            "WTF_CSRF_ENABLED": False,
            "METRICS": True,  # /metrics is a route too
            **config,
        }
    )


def without_sample(app) -> set[str]:
    """The endpoints of *app* that answer a GET and have neither a sample nor a why."""
    gets = {r.endpoint for r in app.url_map.iter_rules() if "GET" in r.methods}
    return gets - set(SAMPLES) - set(NO_SAMPLE)


@pytest.fixture(scope="module")
def world(tmp_path_factory, migrated_database):
    """The samples' world, seeded once: the app, the phone that keeps score, and the ids."""
    return sample_site(tmp_path_factory.mktemp("samples"), migrated_database, METRICS=True)


def test_issue42_2__every_route_of_the_app_has_a_sample_or_says_why_it_needs_none(tmp_path):
    laptop = make_app(tmp_path)
    box = groups_app(tmp_path / "box")
    assert without_sample(laptop) == set()
    assert without_sample(box) == set()
    # and nothing is declared for a route that is gone
    known = {r.endpoint for app in (laptop, box) for r in app.url_map.iter_rules()}
    assert (set(SAMPLES) | set(NO_SAMPLE)) - known == set()
    assert not set(SAMPLES) & set(NO_SAMPLE)
    assert all(why.strip() for why in NO_SAMPLE.values())


def test_issue42_2__a_new_page_without_a_sample_fails_the_check(tmp_path):
    app = make_app(tmp_path)
    extra = Blueprint("extra", __name__)
    extra.add_url_rule("/extra", "page", lambda: "a page nobody declared")
    app.register_blueprint(extra)
    assert without_sample(app) == {"extra.page"}


def test_issue42_2__sample_names_are_unique():
    names = [s.name for s in samples()]
    assert len(names) == len(set(names))
    assert {s.kind for s in samples()} == {PAGE, FILE, LINK}


def test_issue42_2__each_sample_is_an_address_of_its_endpoint(world):
    app, _, seeded = world
    adapter = app.url_map.bind("localhost")
    for endpoint, group in SAMPLES.items():
        assert group, endpoint
        for sample in group:
            path = sample.url(seeded).split("?")[0]
            try:
                found, _ = adapter.match(path, method="GET")
            except HTTPException as e:  # pragma: no cover - the assertion says which
                found = repr(e)
            assert found == endpoint, (sample.name, path)


@pytest.mark.slow
@pytest.mark.parametrize("sample", samples(), ids=[s.name for s in samples()])
def test_issue42_2__every_sample_answers_as_declared(world, sample):
    app, keeper, seeded = world
    phone = keeper if sample.keeps_score else app.test_client()
    # a link is followed from the app's own page (the switches ask a page from elsewhere
    # whether it is meant: test_browser_language_switch.py)
    own = {"Sec-Fetch-Site": "same-origin"} if sample.kind == LINK else {}
    response = phone.get(sample.url(seeded), headers=own)
    assert response.status_code == sample.status, (sample.name, response.status_code)
    html = response.mimetype == "text/html"
    if sample.kind == PAGE:
        assert html, (sample.name, response.mimetype)
    elif sample.kind == FILE:
        assert not html, (sample.name, response.mimetype)
    else:
        assert response.headers["Location"], sample.name
