"""docs/rules.md and docs/game-format.md say what the engine does: every value, total and house
rule they state is checked here against the engine (by scoring deals, and against the rules'
declarations in engine/rules.py), and the format's example must pass its checks, so that
neither page can drift from the code."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from scorekeeper.cli import build_parser
from scorekeeper.engine import HouseRules, loads, read_deal, score_deal
from scorekeeper.engine.contracts import ALL_CONTRACTS, CONTRACT_LABELS, Contract
from scorekeeper.engine.gamefile import (
    _COMPUTED,
    _KNOWN,
    EXTRA_LIMIT,
    FORMAT,
    MULTI_FORMAT,
    NAME_LIMIT,
    TITLE_LIMIT,
)
from scorekeeper.engine.records import COMPUTED_KEYS, RESULT_FIELDS, SWEEP_KEPT, THROW_IN_REASONS
from scorekeeper.engine.rules import RULES, SWEEP_TRICKS
from scorekeeper.engine.scoring import contract_total

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULES_MD = (DOCS / "rules.md").read_text(encoding="utf-8")
FORMAT_MD = (DOCS / "game-format.md").read_text(encoding="utf-8")
SIGNED = re.compile(r"[−+-]\d+")


def tables(text: str) -> dict[str, list[list[str]]]:
    """Every Markdown table of *text*, keyed by its header row; a row is its cells."""
    found: dict[str, list[list[str]]] = {}
    header = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header is None:
            header = " | ".join(cells)
            key = header
            while key in found:
                key += "'"
            found[key] = []
            current = found[key]
        elif not set("".join(cells)) <= set("-: "):
            current.append(cells)
    return found


def table(text: str, header: str, nth: int = 0) -> list[list[str]]:
    return tables(text)[header + "'" * nth]


def numbers(cell: str) -> list[int]:
    return [int(n.replace("−", "-")) for n in SIGNED.findall(cell)]


def scored(raw: dict, rules: HouseRules = HouseRules()) -> tuple[int, ...]:
    record, problems = read_deal({"king": 0, **raw})
    assert not problems and record is not None, problems
    return score_deal(record, rules)


# One card (or one trick) taken by seat 1, of each contract; Trex with seat 1 out first.
ONE = {
    Contract.KING_OF_HEARTS: {"contracts": ["king_of_hearts"], "king_of_hearts": {"taker": 1}},
    Contract.DIAMONDS: {"contracts": ["diamonds"], "diamonds": [12, 1, 0, 0]},
    Contract.QUEENS: {
        "contracts": ["queens"],
        "queens": {
            "spades": {"taker": 1},
            "hearts": {"taker": 0},
            "diamonds": {"taker": 0},
            "clubs": {"taker": 0},
        },
    },
    Contract.COLLECTIONS: {"contracts": ["collections"], "tricks": [12, 1, 0, 0]},
    Contract.TREX: {"contracts": ["trex"], "trex_order": [1, 2, 3, 0]},
}
LABELS = {CONTRACT_LABELS[c]: c for c in ALL_CONTRACTS}
VALUES = "contract | what scores | each | total per deal"


def check_values(rows: list[list[str]], rules: HouseRules) -> list[int]:
    totals = []
    for label, _what, each, total in rows:
        contract = LABELS[label]
        scores = scored(ONE[contract], rules)
        if contract is Contract.TREX:
            assert numbers(each) == [scores[1], scores[2], scores[3], scores[0]], label
        else:
            assert numbers(each) == [scores[1]], label
        assert numbers(total) == [sum(scores)] == [contract_total(contract, rules)], label
        totals += numbers(total)
    return totals


def test_rules_md_states_each_contracts_value_and_total_as_the_engine_scores_them():
    rows = table(RULES_MD, VALUES)
    assert [LABELS[row[0]] for row in rows] == list(ALL_CONTRACTS)
    assert sum(check_values(rows, HouseRules())) == 0


def test_rules_md_states_the_swapped_values_of_swap_diamonds_collections():
    swapped = HouseRules(swap_diamonds_collections=True)
    rows = table(RULES_MD, VALUES, nth=1)
    assert {LABELS[row[0]] for row in rows} == {Contract.DIAMONDS, Contract.COLLECTIONS}
    others = [
        row
        for row in table(RULES_MD, VALUES)
        if LABELS[row[0]] not in (Contract.DIAMONDS, Contract.COLLECTIONS)
    ]
    assert sum(check_values(rows, swapped) + check_values(others, swapped)) == 0


def doubled(self_capture: str, taker: int, holder: int, led_by: int | None = None):
    """The K♥ and the Q♠ doubled by *holder* and taken by *taker*, King seat 0: the scores of
    each deal (the other queens go to seat 3, whose −75 is left out of the queens' figures)."""
    rules = HouseRules(self_capture=self_capture)
    capture = {
        "taker": taker,
        "doubled_by": holder,
        **({"led_by": led_by} if led_by is not None else {}),
    }
    koh = scored({"contracts": ["king_of_hearts"], "king_of_hearts": capture}, rules)
    queens = scored(
        {
            "contracts": ["queens"],
            "queens": {
                "spades": capture,
                "hearts": {"taker": 3},
                "diamonds": {"taker": 3},
                "clubs": {"taker": 3},
            },
        },
        rules,
    )
    return koh, queens


# Each row of rules.md's doubling table: the deal that makes it, and the seat it speaks of.
# Seat 0 is the King; seat 2 holds the doubled card; seat 1 leads where a leader is named.
DOUBLING = {
    "another player takes it: the taker": (doubled("single", 1, 2), 1),
    "another player takes it: the holder": (doubled("single", 1, 2), 2),
    "its holder takes it, `single`: the holder": (doubled("single", 2, 2), 2),
    "its holder takes it, `leader-credit`: the holder": (doubled("leader-credit", 2, 2, 1), 2),
    "its holder takes it, `leader-credit`: the player who led to that trick": (
        doubled("leader-credit", 2, 2, 1),
        1,
    ),
    "its holder takes it, `king-credit`: the holder": (doubled("king-credit", 2, 2), 2),
    "its holder takes it, `king-credit`: the King": (doubled("king-credit", 2, 2), 0),
}


def test_rules_md_states_the_points_of_a_doubled_card_as_the_engine_scores_them():
    rows = table(RULES_MD, "case | K♥ | each queen")
    assert [row[0] for row in rows] == list(DOUBLING)
    for case, koh, queen in rows:
        (koh_scores, queen_scores), seat = DOUBLING[case]
        assert numbers(koh) == [koh_scores[seat]], case
        assert numbers(queen) == [queen_scores[seat] - (-75 if seat == 3 else 0)], case
    for self_capture in ("single", "leader-credit", "king-credit"):  # "keeps the deal's total"
        koh_scores, queen_scores = doubled(self_capture, 2, 2, 1)
        assert sum(koh_scores) == -75 and sum(queen_scores) == -100


def test_every_signed_number_in_rules_md_is_one_the_engine_scores():
    checked = set()
    for header, rows in tables(RULES_MD).items():
        if header.startswith(VALUES) or header == "case | K♥ | each queen":
            checked |= {n for row in rows for cell in row for n in numbers(cell)}
    prose = "\n".join(line for line in RULES_MD.splitlines() if not line.startswith("|"))
    assert set(numbers(prose)) <= checked


def test_rules_md_lists_every_house_rule_with_its_default_and_values():
    rows = table(RULES_MD, "key | default | values")
    assert [row[0].strip("`") for row in rows] == [rule.name for rule in RULES]
    for (name, default, values), rule in zip(rows, RULES):
        assert default == f"`{json.dumps(rule.dump(rule.default))}`", name
        if rule.kind == "bool":
            assert values.startswith("`true`, `false`"), name
        elif rule.kind == "choice":
            assert values == ", ".join(f'`"{value}"`' for value in rule.values), name
        else:
            assert values.startswith("`null`, or "), name
        if rule.needs:
            assert all(f"only with `{other}`" in values for other, _ in rule.needs), name
    sweep = f"N from {SWEEP_TRICKS.start} to {SWEEP_TRICKS.stop - 1}"
    assert RULES_MD.count(sweep) == 2
    assert "`fixed_order` | `null` | `null`, or the five contract names" in RULES_MD


def test_rules_md_counts_the_deals_of_a_standard_game():
    match = re.search(r"(\d+) kingdoms of (\d+) contracts each, (\d+) scored deals", RULES_MD)
    assert match is not None
    kingdoms, contracts, deals = map(int, match.groups())
    assert (kingdoms, contracts, deals) == (4, len(ALL_CONTRACTS), 4 * len(ALL_CONTRACTS))


def json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, re.S)


def test_game_format_md_example_passes_the_engines_checks_and_scores_to_zero():
    example, combined = json_blocks(FORMAT_MD)
    [game] = loads(example)
    assert len(game.deals) == 6
    assert sum(game.score().totals) == 0
    deal = json.loads(combined)
    document = {
        "format": FORMAT,
        "players": ["A", "B", "C", "D"],
        "rules": {"combining": "complex"},
        "deals": [deal],
    }
    [game] = loads(json.dumps(document))
    assert sum(game.score().totals) == sum(contract_total(c, game.rules) for c in ALL_CONTRACTS[:4])


def test_game_format_md_names_the_keys_the_engine_reads():
    assert [row[0].strip("`") for row in table(FORMAT_MD, "key | what it holds")] == list(_KNOWN)
    result = table(FORMAT_MD, "contract | key | value")
    assert {Contract(row[0].strip("`")): row[1].strip("`") for row in result} == RESULT_FIELDS
    assert f'`"{FORMAT}"`' in FORMAT_MD and f'"format": "{MULTI_FORMAT}"' in FORMAT_MD
    reasons = re.search(r"the reason one of\s+(.*?)\. A thrown-in", FORMAT_MD, re.S)
    assert reasons is not None
    assert tuple(re.findall(r'`"([a-z-]+)"`', reasons.group(1))) == THROW_IN_REASONS
    names = re.search(r"The names: (.*?)\.\n", FORMAT_MD)
    assert names is not None
    assert re.findall(r"`(\w+)`", names.group(1)) == [c.value for c in ALL_CONTRACTS]
    keys = re.search(r"## The house rules' keys\n\n(.*?): their values", FORMAT_MD, re.S)
    assert keys is not None
    assert re.findall(r"`(\w+)`", keys.group(1)) == [rule.name for rule in RULES]
    assert f"`{SWEEP_KEPT}`" in FORMAT_MD


def test_game_format_md_states_the_engines_limits_and_export_keys():
    assert f"at most {TITLE_LIMIT} characters" in FORMAT_MD
    assert f"each at most {NAME_LIMIT} characters" in FORMAT_MD
    assert f"up to {EXTRA_LIMIT // 1024} KB" in FORMAT_MD
    export = FORMAT_MD.split("## What an export adds")[1]
    stated = re.findall(r'`"(\w+)"`', export)
    assert set(stated) == set(COMPUTED_KEYS) | set(_COMPUTED)


@pytest.mark.parametrize(
    "page", ["rules.md", "game-format.md", "players.md", "hosting.md", "commands.md"]
)
def test_the_readme_points_at_the_docs(page):
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert f"(docs/{page})" in readme


# The guides that name commands, and the README that points at them.
GUIDES = ("players.md", "hosting.md", "commands.md")
GENERAL = {  # options a sentence of the guides gives every command of a family
    "": {"--db", "--group", "--instance"},
    "groups": {"--instance", "--public-url"},
}


def guide(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its words: "serve", "groups create"."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, words: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    if not any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
                        found[f"{words} {name}".strip()] = sub
                    walk(sub, f"{words} {name}".strip())

    walk(build_parser(), "")
    return found


def options(parser: argparse.ArgumentParser) -> list[tuple[str, ...]]:
    """Each option of *parser* as its spellings (``-o``, ``--output``), help left out."""
    return [
        tuple(action.option_strings)
        for action in parser._actions
        if action.option_strings and not isinstance(action, argparse._HelpAction)
    ]


def code_in(text: str) -> list[str]:
    """The code of *text*: each line of a fenced block (a continued line joined), and each
    inline span, with a table's escaped ``\\|`` read as ``|``."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    lines = [line for block in fenced for line in block.replace("\\\n", " ").splitlines()]
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    spans = re.findall(r"`([^`]+)`", prose)
    return [piece.replace("\\|", "|") for piece in lines + spans]


INVOKED = re.compile(r"(?:^|[\s/])scorekeeper\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*))?")


def invocations(text: str) -> list[tuple[str, str]]:
    """Every ``scorekeeper COMMAND ...`` in the code of *text*: the command's words and what
    follows them, up to the end of that command (``&&``, ``;``, a comment)."""
    known = commands()
    found = []
    for code in code_in(text):
        for match in INVOKED.finditer(code):
            first, second = match.group(1), match.group(2)
            words = f"{first} {second}" if f"{first} {second}" in known else first
            rest = code[match.end(2 if words != first else 1) :]
            found.append((words, re.split(r"&&|;|\s#", rest)[0]))
    return found


@pytest.mark.parametrize("page", ["README.md", *GUIDES])
def test_issue42_docs__every_command_and_option_the_docs_name_exists(page):
    text = (DOCS.parent / page).read_text(encoding="utf-8") if page == "README.md" else guide(page)
    known = commands()
    seen = invocations(text)
    assert seen, f"{page} names no command"
    for words, rest in seen:
        family = any(name.startswith(f"{words} ") for name in known)
        assert words in known or family, f"{page} names `scorekeeper {words}`: no command"
        if family:
            continue
        spelled = {o for each in options(known[words]) for o in each}
        for option in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", rest):
            assert option in spelled, f"{page}: `scorekeeper {words}` has no option {option}"


def test_issue42_docs__every_command_has_its_row_naming_every_option():
    rows = {}
    for name in ("commands.md", "hosting.md"):
        for line in guide(name).splitlines():
            if line.startswith("| `scorekeeper "):
                head = line[3 : line.index("` |")].replace("\\|", "|")
                match = INVOKED.search(head)
                assert match, line
                words = " ".join(w for w in match.groups() if w)
                rows[words if words in commands() else match.group(1)] = head
    assert set(rows) == set(commands())
    for words, parser in commands().items():
        general = GENERAL["groups" if words.startswith("groups ") else ""]
        for spellings in options(parser):
            assert set(spellings) & general or any(
                re.search(rf"{re.escape(s)}(?![\w-])", rows[words]) for s in spellings
            ), f"the row of `scorekeeper {words}` does not name {spellings[-1]}"
    assert "also takes `--group ID`" in guide("commands.md")
    assert "`--instance DIR`" in guide("commands.md")
    assert "Each takes `--instance DIR`; those that print a link take `--public-url URL`" in guide(
        "hosting.md"
    )


def test_issue42_docs__the_configuration_table_names_every_option_of_serve():
    config = guide("hosting.md").split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    named = {
        re.match(r"`(--[a-z-]+)", cells[0]).group(1)
        for cells in table(config, "option | variable | default | what it sets")
    }
    serve = {spellings[-1] for spellings in options(commands()["serve"])}
    assert named == serve


def test_issue42_docs__the_readme_is_a_front_door():
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    sections = re.findall(r"^## (.+)$", readme, re.M)
    assert sections[:3] == ["Two commands", "Reaching the table", "Where to read on"]
    for setup in ("**1. A laptop", "**2. A Raspberry Pi", "**3. A hosted box"):
        assert setup in readme
    for name in GUIDES:
        assert guide(name).startswith("# "), name


def anchors(text: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings of *text* (GitHub's way)."""
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in re.findall(r"^#+ (.+)$", text, re.M)
    }


@pytest.mark.parametrize("page", ["README.md", *(f"docs/{name}" for name in GUIDES)])
def test_issue42_docs__every_link_between_the_docs_leads_somewhere(page):
    here = DOCS.parent / page
    for target in re.findall(r"\]\(([^)\s]+)\)", here.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        path, _, anchor = target.partition("#")
        linked = (here.parent / path).resolve() if path else here
        assert linked.exists(), f"{page} links {target}, which is not there"
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{page}: {target}"
