"""The service worker as the app serves it (the browser suite, tests/browser/
test_browser_offline.py, runs it): from the root, so that its scope covers the game pages,
never kept by a cache, named by a version of the files it keeps; and a page kept ahead for
offline use leaves the session's messages for the page the phone opens next."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bs4 import BeautifulSoup

from scorekeeper.site import STATIC
from scorekeeper.web.pages import offline

from group_helpers import InGroup, groups_app, start_group
from web_helpers import Table, soup


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


def page_data(response) -> dict:
    """The page's data for the worker, found as static/sw.js finds it: the JSON after its DATA
    opening (the same as the templates write), up to the first quote."""
    script = (STATIC / "sw.js").read_text()
    opening = json.loads(re.search(r'var DATA = ("(?:[^"\\]|\\.)*")', script).group(1))
    assert opening == offline.DATA_OPENING
    html = response.get_data(as_text=True)
    assert html.count(opening) == 1
    at = html.index(opening) + len(opening)
    return json.loads(html[at : html.index("'", at)])


def form_data(client, url: str) -> dict:
    """An entry form's data, asked for as static/sw.js asks (``?offline=data``, kept ahead)."""
    script = (STATIC / "sw.js").read_text()
    assert f'searchParams.set("{offline.DATA_QUERY}", "data")' in script
    answer = client.get(url + f"&{offline.DATA_QUERY}=data", headers={"Purpose": "prefetch"})
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    return answer.get_json()


def test_the_game_page_and_forms_carry_the_outbox(client, table):
    game_id = table.new_game()
    game = client.get(f"/games/{game_id}")
    page = soup(game)
    assert page.select_one("#outbox[hidden][data-reload]") is not None
    data = page_data(game)
    assert game.get_data(as_text=True).count(data["box"]) == 1  # the outbox, found as it is
    assert BeautifulSoup(data["box"], "html.parser").div == page.select_one("#outbox")
    assert data["words"] == {
        "waiting": "Deal {n} waiting to be sent",
        "digits": "0123456789",
        "unchecked": "Points not yet checked: they are scored when the deal is sent.",
        "offline": "Offline: Save keeps this deal on the phone. It is sent, checked "
        "and scored when the network is back.",
    }
    assert data["next"] == 1 and data["reload"] is True
    linked = {
        a["href"]
        for a in page.select("a[href]")
        if re.match(r"/games/\d+/(deals/new|thrown-in)", a["href"])
    }
    assert linked and set(data["forms"]) == linked  # every entry form it links to, kept
    arabic = client.get(f"/games/{game_id}", headers={"Accept-Language": "ar"})
    assert page_data(arabic)["words"]["waiting"] == "اليد {n} تنتظر الإرسال"
    url = f"/games/{game_id}/deals/new?king=0&contracts=queens"
    answer = client.get(url)  # the form borrows the game page's words: no weight on it
    form = soup(answer)
    assert form.select_one("#offline-data") is None  # its data is its own JSON
    data = form_data(client, url)
    assert "words" not in data
    assert form.select_one("#outbox[hidden]:not([data-reload])") is not None
    assert answer.get_data(as_text=True).count(data["box"]) == 1
    assert BeautifulSoup(data["box"], "html.parser").div == form.select_one("#outbox")
    assert data["title"] == "Queens" and data["number"] == 1
    assert form_data(client, f"/games/{game_id}/thrown-in?king=0")["title"] == "Thrown in"
    assert Path(STATIC / "sw.js").is_file()


def test_the_entry_forms_data_names_each_choice_as_the_page_shows_it(client, table):
    """A deal kept offline is shown waiting in the words of its form: each choice's legend (as
    a screen reader hears it) and each chip, as the page draws them."""
    game_id = table.new_game()
    for url in (
        f"/games/{game_id}/deals/new?king=0&contracts=queens",
        f"/games/{game_id}/deals/new?king=0&contracts=diamonds",
        f"/games/{game_id}/thrown-in?king=0",
    ):
        data, form = form_data(client, url), soup(client.get(url))
        fields = {}
        for name, (legend, chips) in data["fields"].items():
            fields[name] = [
                data["legends"][legend],
                data["chips"][chips] if chips is not None else None,
            ]
        drawn = {}
        for fieldset in form.select("fieldset.pick"):
            legend = fieldset.legend.select_one(".sr") or fieldset.legend
            chips = {  # a chip with no value ("No") is no answer to say
                label.input["value"]: label.get_text()
                for label in fieldset.select("label")
                if label.input["value"]
            }
            said = None if all(v == w for v, w in chips.items()) else chips  # a count's own
            drawn[fieldset["id"].removeprefix("f-")] = [legend.get_text(), said]
        assert drawn and fields == drawn, url


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


def worker_pattern(name: str) -> re.Pattern:
    """The regular expression static/sw.js names *name*, read as Python reads it."""
    script = (STATIC / "sw.js").read_text()
    found = re.search(rf"var {name} = /(.+?)/;\n", script)
    assert found, name
    return re.compile(found.group(1).replace("\\/", "/"))


def test_issue37_1__under_a_groups_prefix_the_worker_knows_a_games_pages(tmp_path):
    """On a box of many groups, the worker (at the root: its scope is every group) reads a
    game's pages and forms under ``/g/<id>/`` as their group's prefix and the page's path,
    the one it knows on a laptop; the game page's data names its forms under the prefix and
    the outbox the forms carry (filled in a form whose own data was not kept)."""
    app = groups_app(tmp_path)
    group, join, phone = start_group(app)
    member = InGroup(phone, group)
    assert phone.get("/sw.js").status_code == 200  # one worker, outside every group
    game_id = Table(member).new_game()
    game = member.get(f"/games/{game_id}")
    data = page_data(game)
    space, page, save = (worker_pattern(n) for n in ("SPACE", "PAGE", "SAVE"))
    assert data["forms"]
    for url in [f"/g/{group}/games/{game_id}", *data["forms"]]:
        path = url.split("?")[0]
        found = space.fullmatch(path)
        assert found and found.group(1) == f"/g/{group}", url
        assert page.fullmatch(found.group(2)), url
        assert save.fullmatch(found.group(2)) or "/deals/new" not in path
    for url in (f"/games/{game_id}", f"/games/{game_id}/deals/1/edit"):  # a laptop's: no prefix
        assert space.fullmatch(url).groups() == ("", url)
    form = member.get(data["forms"][0])
    assert form.get_data(as_text=True).count(data["form_box"]) == 1
    assert data["form_box"] == str(offline.outbox()) and data["box"] == str(offline.outbox(True))
