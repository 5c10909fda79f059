"""Issue 29, "One declaration per house rule": every rule that ``engine/rules.py`` declares has
an input on New game, is saved from it, has a line on the sheet and a sentence on the rules
page in English and Arabic, and goes through a game file and back; a rule added by a
declaration alone gets its checkbox and is saved."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from babel.support import Translations
from bs4 import BeautifulSoup

from scorekeeper.engine import HouseRules, RulesError, read_game
from scorekeeper.engine.rules import RULE, RULES, RULES_TEXT
from scorekeeper.printing.render import scoresheet_html
from scorekeeper.web import create_app

from test_transfer import upload
from web_helpers import soup

ROOT = Path(__file__).resolve().parents[2]
ARABIC = Translations.load(str(ROOT / "scorekeeper" / "translations"), ["ar"])
PLAYERS = {
    "player_0": "Aya",
    "player_1": "Bilal",
    "player_2": "Carla",
    "player_3": "Dana",
    "first_king": "0",
    "title": "Friday",
    "played_on": "2026-11-20",
}
ORDER = ["trex", "queens", "king_of_hearts", "diamonds", "collections"]


def changed_values(rule) -> list:
    """Every value of *rule* but its default, as a file writes it (one for the fixed order
    and the sweeps)."""
    if rule.kind == "bool":
        return [not rule.default]
    if rule.kind == "choice":
        return [v for v in rule.values if v != rule.default]
    return [ORDER] if rule.kind == "order" else [{"collections_tricks": 10}]


CASES = [
    pytest.param(rule.name, value, id=f"{rule.name}={json.dumps(value)}")
    for rule in RULES
    for value in changed_values(rule)
]


def rules_with(name: str, value) -> dict:
    """The file format's rules with *name* set to *value*, and what it needs."""
    out = {other: RULE[other].dump(needed) for other, needed in RULE[name].needs}
    out[name] = value
    return out


def form_data(rules: HouseRules) -> dict[str, str]:
    """New game's "Custom" settings that ask for *rules*, written as a phone sends them."""
    data = {**PLAYERS, "preset": "custom"}
    for rule in RULES:
        value = getattr(rules, rule.name)
        if rule.kind == "bool" and value:
            data[rule.name] = "y"
        elif rule.kind == "choice":
            data[rule.name] = value
        elif rule.kind == "order" and value is not None:
            data["fixed_order_on"] = "y"
            data.update({f"fixed_{p + 1}": c.value for p, c in enumerate(value)})
        elif rule.kind == "sweep" and value is not None:
            data.update(sweep_on="y", sweep_tricks=str(value))
    return data


def english_part(name: str, value) -> str:
    rules = HouseRules.from_dict(rules_with(name, value))
    code, params = RULE[name].part(getattr(rules, name))
    params = {
        k: ", ".join(c.label for c in v) if k == "contracts" else v for k, v in params.items()
    }
    return RULES_TEXT[code].format(**params)


def arabic_words(name: str, value) -> str:
    """The Arabic of the rule's part, up to its first parameter (the words the catalog gives)."""
    rules = HouseRules.from_dict(rules_with(name, value))
    code, _params = RULE[name].part(getattr(rules, name))
    arabic = ARABIC.gettext(RULES_TEXT[code])
    assert arabic != RULES_TEXT[code], f"no Arabic for {RULES_TEXT[code]!r}"
    return arabic.split("{")[0].strip()


def text_of(html: str) -> str:
    return " ".join(BeautifulSoup(html, "html.parser").get_text().split())


@pytest.mark.slow
@pytest.mark.parametrize("form", ["/games/new", "/clubs/new"], ids=["new-game", "club-night"])
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_every_rule__has_an_input_on_new_game_and_new_club_night(client, rule, form):
    page = soup(client.get(form))
    if rule.kind == "bool":
        assert page.select(f'#settings input[type=checkbox][name="{rule.name}"]')
    elif rule.kind == "choice":
        shown = [
            i["value"] for i in page.select(f'#settings input[type=radio][name="{rule.name}"]')
        ]
        assert shown == list(rule.values)
    elif rule.kind == "order":
        assert page.select('#settings input[type=checkbox][name="fixed_order_on"]')
        assert len(page.select('#settings select[name^="fixed_"]')) == 5
    else:
        assert page.select('#settings input[type=checkbox][name="sweep_on"]')
        assert page.select('#settings select[name="sweep_tricks"]')


@pytest.mark.slow
@pytest.mark.parametrize("name, value", CASES)
def test_every_rule__saved_said_on_the_sheet_and_rules_page_and_through_a_game_file(
    client, tmp_path, name, value
):
    rules = HouseRules.from_dict(rules_with(name, value))
    assert client.post("/games/new", data=form_data(rules)).status_code == 303
    english, arabic = english_part(name, value), arabic_words(name, value)

    assert english in text_of(client.get("/games/1/rules/queens").get_data(as_text=True))
    client.set_cookie("lang", "ar")
    assert arabic in text_of(client.get("/games/1/rules/queens").get_data(as_text=True))
    client.set_cookie("lang", "en")

    exported = client.get("/games/1/export.json").get_data(as_text=True)
    game = read_game(json.loads(exported))
    assert game.rules == rules
    assert english in text_of(scoresheet_html(game, lang="en"))
    assert arabic in text_of(scoresheet_html(game, lang="ar"))

    other = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "other.sqlite3"),
            "INSTANCE_PATH": str(tmp_path / "other"),
            "WTF_CSRF_ENABLED": False,
        }
    )
    elsewhere = other.test_client()
    assert upload(elsewhere, exported).status_code == 303
    again = elsewhere.get("/games/1/export.json").get_data(as_text=True)
    assert json.loads(again)["rules"] == json.loads(exported)["rules"] == rules.to_dict()


def test_a_rule_that_needs_another_is_refused_without_it_in_one_line():
    needing = [rule for rule in RULES if rule.needs]
    assert needing, "split_queens_replay needs partnership"
    for rule in needing:
        with pytest.raises(RulesError) as info:
            HouseRules.from_dict({rule.name: changed_values(rule)[0]})
        assert info.value.code == "rule_needs" and rule.name in str(info.value)


def test_a_rule_that_excludes_another_is_refused_with_it(monkeypatch):
    from dataclasses import replace
    import scorekeeper.engine.rules as module

    excluding = replace(RULE["no_redeal_requests"], excludes=(("kh_redeal_any_doubleton", True),))
    monkeypatch.setattr(
        module, "RULES", tuple(excluding if r.name == excluding.name else r for r in RULES)
    )
    with pytest.raises(RulesError) as info:
        HouseRules.from_dict({"no_redeal_requests": True, "kh_redeal_any_doubleton": True})
    assert info.value.code == "rule_excludes"
    assert str(info.value) == (
        "house rule 'no_redeal_requests' cannot be played with "
        "'kh_redeal_any_doubleton' set to true"
    )


#: A new yes-or-no house rule, written as ARCHITECTURE.md's recipe says: one field of
#: HouseRules. The app is then started in a fresh interpreter with the field in place.
NEW_RULE = """
    jokers_wild: bool = flag(False, N_("Jokers are wild"), N_("jokers wild"))
"""
ADD_A_RULE = textwrap.dedent("""
    import importlib.machinery, json, sys, tempfile

    class WithTheNewRule(importlib.machinery.SourceFileLoader):
        def get_code(self, fullname):
            source = self.get_data(self.path).decode("utf-8")
            anchor = "    @classmethod\\n    def from_dict"
            assert anchor in source
            return compile(source.replace(anchor, NEW_RULE + "\\n" + anchor, 1), self.path,
                           "exec")

    class Finder(importlib.machinery.PathFinder):
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            spec = super().find_spec(name, path, target)
            if name == "scorekeeper.engine.rules" and spec is not None:
                spec.loader = WithTheNewRule(name, spec.origin)
            return spec if name == "scorekeeper.engine.rules" else None

    sys.meta_path.insert(0, Finder)
    from bs4 import BeautifulSoup
    from scorekeeper.web import create_app
    folder = tempfile.mkdtemp()
    app = create_app({"TESTING": True, "DATABASE": folder + "/db.sqlite3",
                      "INSTANCE_PATH": folder + "/instance", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    page = BeautifulSoup(client.get("/games/new").get_data(as_text=True), "html.parser")
    boxes = [i["name"] for i in page.select("#settings input[type=checkbox]")]
    data = {"player_0": "Aya", "player_1": "Bilal", "player_2": "Carla", "player_3": "Dana",
            "first_king": "0", "preset": "custom", "doubling": "y", "jokers_wild": "y"}
    saved = client.post("/games/new", data=data).status_code
    exported = json.loads(client.get("/games/1/export.json").get_data(as_text=True))
    rules_page = client.get("/games/1/rules/queens").get_data(as_text=True)
    print(json.dumps({"boxes": boxes, "saved": saved, "rules": exported["rules"],
                      "line": "jokers wild" in rules_page}))
""")


@pytest.mark.slow
def test_a_boolean_rule_added_by_its_declaration_alone_gets_a_checkbox_and_saves():
    script = f"NEW_RULE = {NEW_RULE!r}\n" + ADD_A_RULE
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert "jokers_wild" in found["boxes"]
    assert found["saved"] == 303
    assert found["rules"]["jokers_wild"] is True
    assert found["line"]
