"""House rules in the player's language: a bad setting (RulesError) says why in Arabic, on the
web and in an imported file, while ``str()`` stays the English sentence; the one-line summary of
the rules is said in the page's language."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine import HouseRules, RulesError, read_game
from scorekeeper.engine.errors import InvalidResult, Problem
from scorekeeper.engine.messages import MESSAGES
from scorekeeper.engine.rules import RULES_TEXT
from scorekeeper.web.making.messages import problem_text
from scorekeeper.web.making.rulestext import rules_text

from test_transfer import good_game, upload
from web_helpers import soup

BAD = {
    "doubling": (
        {"doubling": "maybe"},
        "rule_not_bool",
        "house rule 'doubling' must be true or false, not 'maybe'",
        "قاعدة الطاولة 'doubling' قيمتها true أو false، لا 'maybe'",
    ),
    "choice": (
        {"combining": "all"},
        "rule_bad_choice",
        "house rule 'combining' cannot be 'all'; allowed: 'none', 'complex', 'combination'",
        "قاعدة الطاولة 'combining' لا تقبل 'all'؛ المسموح:",
    ),
    "unknown": (
        {"jokers": 2},
        "rule_unknown",
        "unknown house rule 'jokers'; known rules: ",
        "قاعدة طاولة غير معروفة 'jokers'",
    ),
    "sweep": (
        {"sweep_replay": 3},
        "rule_sweep",
        "house rule 'sweep_replay' must be null or {\"collections_tricks\": N} with N from 7 to 13",
        "حيث N من 7 إلى 13",
    ),
    "order": (
        {"fixed_order": ["trex"]},
        "rule_fixed_order",
        "house rule 'fixed_order' must be null or list each of the five contracts once "
        "(king_of_hearts, diamonds, queens, collections, trex)",
        "الألعاب الخمس",
    ),
}


@pytest.mark.parametrize("rules, code, english, arabic", BAD.values(), ids=BAD.keys())
def test_rules_error__a_code_and_the_same_english_sentence(app, rules, code, english, arabic):
    with pytest.raises(RulesError) as info:
        HouseRules.from_dict(rules)
    error = info.value
    assert error.code == code and error.code in MESSAGES
    assert str(error).startswith(english)
    problem = error.problem(field="rules")
    assert (problem.code, problem.field, problem.text) == (code, "rules", str(error))
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        text = problem_text(problem)
    assert arabic in text and "house rule" not in text


def test_rules_error__not_an_object():
    with pytest.raises(RulesError) as info:
        HouseRules.from_dict(["doubling"])
    assert str(info.value) == "the house rules must be an object of settings"


def test_read_game__a_bad_rule_is_a_problem_with_its_own_code():
    with pytest.raises(InvalidResult) as info:
        read_game(good_game(rules={"doubling": "maybe"}))
    problem = next(p for p in info.value.problems if p.field == "rules")
    assert problem.code == "rule_not_bool" and problem.params == {
        "key": "doubling",
        "value": "maybe",
    }
    assert str(problem) == "House rule 'doubling' must be true or false, not 'maybe'"


def test_import__a_bad_rule_said_in_arabic(client):
    client.set_cookie("lang", "ar")
    response = upload(client, json.dumps(good_game(rules={"doubling": True, "jokers": 2})))
    assert response.status_code == 400
    problems = [li.get_text(" ", strip=True) for li in soup(response).select("#problems li")]
    assert any("قاعدة طاولة غير معروفة 'jokers'" in p for p in problems), problems
    assert not any("unknown house rule" in p for p in problems)


def test_import__a_bad_rule_in_english_as_before(client):
    response = upload(client, json.dumps(good_game(rules={"doubling": True, "jokers": 2})))
    problems = [li.get_text(" ", strip=True) for li in soup(response).select("#problems li")]
    assert any("Unknown house rule 'jokers'" in p for p in problems), problems


# -- the summary ---------------------------------------------------------------------------------
SUMMARIES = [
    (HouseRules(), "Standard rules", "القواعد العادية"),
    (HouseRules(combining="complex", doubling=False), "no doubling; Complex", "بلا دبل؛ كومبلكس"),
    (
        HouseRules(partnership=True, team_result="worst-loses"),
        "partnership; worst score loses",
        "شراكة؛ يخسر فريق أسوأ نتيجة",
    ),
    (
        HouseRules(sweep_replay=10, kh_redeal_any_doubleton=True),
        "sweeps replayed (10+ tricks); K♥ redeal with any doubleton",
        "يُعاد الكبوت (اللمّات: 10 أو أكثر)؛ إعادة التوزيع لشيخ الكبة مع أي كبة ثانية",
    ),
]


@pytest.mark.parametrize("rules, english, arabic", SUMMARIES)
def test_summary__english_from_the_engine_and_arabic_on_the_web(app, rules, english, arabic):
    assert rules.summary() == english
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert rules_text(rules) == english
        assert rules_text(json.dumps(rules.to_dict())) == english
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        assert rules_text(rules) == arabic
        assert rules_text(json.dumps(rules.to_dict())) == arabic  # not the cached English


def test_summary__a_fixed_order_lists_the_contracts_in_the_language(app):
    order = ["trex", "queens", "diamonds", "collections", "king_of_hearts"]
    rules = HouseRules.from_dict({"fixed_order": order})
    assert rules.summary() == "fixed order: Trex, Queens, Diamonds, Collections, King of Hearts"
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        assert rules_text(rules) == "ترتيب ثابت: تركس، البنات، الديناري، اللطش، شيخ الكبة"


def test_summary__every_part_has_an_english_template():
    codes = {code for rules, _, _ in SUMMARIES for code, _ in rules.summary_parts()}
    assert codes <= set(RULES_TEXT)


def test_game_page__the_rules_line_in_arabic(table, client):
    game = table.new_game(preset="complex")
    assert "Complex" in soup(client.get(f"/games/{game}")).select_one("p.muted").get_text()
    client.set_cookie("lang", "ar")
    line = soup(client.get(f"/games/{game}")).select_one("p.muted").get_text()
    assert "كومبلكس" in line and "Complex" not in line


def test_history__the_rules_line_in_arabic(table, client):
    game = table.new_game(preset="complex")
    client.set_cookie("lang", "ar")
    text = soup(client.get(f"/history/games/{game}")).get_text(" ")
    assert "كومبلكس" in text and "Complex" not in text


def test_problem__engine_code_for_rules_still_renders_in_english():
    assert (
        str(Problem("rule_not_bool", {"key": "doubling", "value": 1}))
        == "House rule 'doubling' must be true or false, not 1"
    )
