"""Issue 42: code written twice in the web wing is written once; what a phone sees stays the
same."""

from __future__ import annotations

import pytest

from scorekeeper.web.making import present
from scorekeeper.web.access.rights import device_of


@pytest.mark.parametrize(
    "agent, words",
    [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/604.1",
            "iPhone · Safari",
        ),
        ("Mozilla/5.0 (Linux; Android 14) Chrome/120.0 Mobile Safari/537.36", "Android · Chrome"),
        ("Mozilla/5.0 (Windows NT 10.0) Chrome/120.0 Safari/537.36 Edg/120.0", "Windows · Edge"),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
            "Linux · Firefox",
        ),
        ("curl/8.5.0", ""),
        ("", ""),
    ],
)
def test_issue42_dupes__a_member_s_phone_is_named_by_its_system_then_its_browser(agent, words):
    assert device_of(agent) == words


def test_issue42_dupes__a_capture_is_told_with_its_holder_and_leader_only_when_there_are(app):
    names = ["Aya", "Bilal", "Carla", "Dana"]
    with app.test_request_context("/"):
        assert present._capture_text("K♥", 1, None, None, names) == "K♥: Bilal"
        assert present._capture_text("Q♠", 2, 0, None, names) == "Q♠: Carla (doubled by Aya)"
        assert (
            present._capture_text("Q♦", 3, 3, 1, names) == "Q♦: Dana (doubled by Dana, Bilal led)"
        )
        page = present._capture_text("Q♦", 3, 0, 1, ["<b>", "B", "C", "D"], markup=True)
        assert "&lt;b&gt;" in page and '<span class="ltr">Q♦</span>' in page
