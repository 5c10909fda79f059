"""The service worker as the app serves it (the browser suite, tests/browser/
test_browser_offline.py, runs it): from the root, so that its scope covers the game pages,
never kept by a cache, named by a version of the files it keeps; and a page kept ahead for
offline use leaves the session's messages for the page the phone opens next."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scorekeeper.site import STATIC
from scorekeeper.web.pages import offline

from web_helpers import soup


def version(script: str) -> str:
    found = re.match(r'var VERSION = "([0-9a-f]{12})", FILES = (\[.*?\]);\n', script)
    assert found, script[:200]
    return found.group(1)


def test_the_worker_is_served_from_the_root_and_never_kept(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    version(script)
    assert script.endswith((STATIC / "sw.js").read_text(encoding="utf-8"))
    kept = re.search(r"FILES = (\[.*?\]);", script).group(1)
    for name in ("app.css", "app.js", "entry.css", "entry.js", "sheet.css", "live.js"):
        assert f'"/static/{name}"' in kept
    assert "sw.js" not in kept and ".ttf" not in kept
    for path in re.findall(r'"(/static/[^"]+)"', kept):  # every file it keeps is there
        with client.get(path) as answer:
            assert answer.status_code == 200, path


def test_a_changed_file_makes_a_new_version(tmp_path):
    for name in ("app.js", "app.css", "sw.js", "DejaVuSans.ttf"):
        (tmp_path / name).write_text(name)
    script, (first, *names) = offline._worker(str(tmp_path))
    assert names == ["app.css", "app.js"] and script == "sw.js"
    (tmp_path / "app.css").write_text("body { color: red }")
    assert offline._worker.__wrapped__(str(tmp_path))[1][0] != first
    (tmp_path / "DejaVuSans.ttf").write_text("not kept, not counted")
    assert (
        offline._worker.__wrapped__(str(tmp_path))[1][0]
        == offline._worker.__wrapped__(str(tmp_path / ".." / tmp_path.name))[1][0]
    )


def test_a_page_kept_ahead_leaves_the_messages_for_the_next(client, table):
    game_id = table.new_game()
    client.get(f"/games/{game_id}")  # the message the new game left is shown
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 5, 1]})
    ahead = client.get(
        f"/games/{game_id}/deals/new?king=0&contracts=queens", headers={"Purpose": "prefetch"}
    )
    assert ahead.status_code == 200 and soup(ahead).select(".flash") == []
    shown = soup(client.get(f"/games/{game_id}"))
    assert "Deal 1 saved." in shown.select_one(".flash").get_text()


def test_the_game_page_and_forms_carry_the_outbox(client, table):
    game_id = table.new_game()
    box = re.compile(re.search(r"var BOX = /(.*)/;", (STATIC / "sw.js").read_text()).group(1))
    game = client.get(f"/games/{game_id}")
    assert soup(game).select_one("#outbox[hidden][data-reload]") is not None
    words = json.loads(box.search(game.get_data(as_text=True)).group(1))  # as sw.js reads it
    assert words == {
        "waiting": "Deal {n} waiting to be sent",
        "digits": "0123456789",
        "unchecked": "Points not yet checked: they are scored when the deal is sent.",
        "offline": "Offline: Save keeps this deal on the phone. It is sent, checked "
        "and scored when the network is back.",
    }
    arabic = client.get(f"/games/{game_id}", headers={"Accept-Language": "ar"})
    said = json.loads(box.search(arabic.get_data(as_text=True)).group(1))
    assert said["waiting"] == "اليد {n} تنتظر الإرسال"
    url = f"/games/{game_id}/deals/new?king=0&contracts=queens"
    form = client.get(url)  # the form borrows the game page's words: no weight on it
    assert box.search(form.get_data(as_text=True)).group(1) is None
    form = soup(form)
    assert form.select_one("#outbox[hidden]:not([data-reload])") is not None
    assert form.select_one("form[data-title]")["data-title"] == "Queens"
    thrown = soup(client.get(f"/games/{game_id}/thrown-in?king=0"))
    assert thrown.select_one("form[data-title]")["data-title"] == "Thrown in"
    assert Path(STATIC / "sw.js").is_file()


def after_on(client, game_id: int) -> dict:
    return json.loads(soup(client.get(f"/games/{game_id}")).find(id="next")["data-after"])


def test_the_game_page_says_what_the_engine_leaves_open_after_waiting_deals(client, table):
    """Issue 28: the game page carries, for every set of contracts deals waiting on a phone
    could use up in this kingdom, the choices the engine leaves open (static/app.js only
    reads it); a set that completes the kingdom is not there."""
    game_id = table.new_game()
    table.enter(game_id, {"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]})
    after = after_on(client, game_id)
    code = {c: str(after["c"].index(c)) for c in after["c"]}
    assert after["n"] == 2
    assert sorted(after["o"][""]) == sorted(
        code[c] for c in ("king_of_hearts", "queens", "collections", "trex")
    )
    queens_trex = "".join(sorted(code["queens"] + code["trex"]))
    assert sorted(after["o"][queens_trex]) == sorted([code["king_of_hearts"], code["collections"]])
    assert (
        "".join(sorted(code[c] for c in ("king_of_hearts", "queens", "collections", "trex")))
        not in after["o"]
    )
    assert len(after["o"]) == 15  # every set of the four left but all four


def test_under_complex_rules_the_waiting_choices_are_the_engines(client, table):
    game_id = table.new_game(preset="complex")
    after = after_on(client, game_id)
    negatives = "0123"
    assert after["o"] == {"": [negatives, "4"], negatives: ["4"], "4": [negatives]}
