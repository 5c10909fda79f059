"""Every argument of every ``scorekeeper`` command says what it is in ``--help``: the parser is
walked, subcommands included, and an argument without a help text fails the test (issue 30's
"serve --port, simulate --games/--seed and the positional arguments have no help text")."""

from __future__ import annotations

import argparse

from scorekeeper.cli import build_parser


def walk(parser: argparse.ArgumentParser, path: str):
    """Every (command path, action) of *parser* and its subcommands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, f"{path} {name}")
        else:
            yield path, action


def test_every_argument_of_every_command_has_a_help_text():
    missing = [
        f"{path}: {'/'.join(action.option_strings) or action.dest}"
        for path, action in walk(build_parser(), "scorekeeper")
        if not action.help and not isinstance(action, argparse._HelpAction)
    ]
    assert missing == []


def test_the_walk_reaches_the_subcommands_named_in_the_issue():
    seen = {(path, action.dest) for path, action in walk(build_parser(), "scorekeeper")}
    for wanted in [
        ("scorekeeper serve", "port"),
        ("scorekeeper simulate", "games"),
        ("scorekeeper simulate", "seed"),
        ("scorekeeper score", "file"),
        ("scorekeeper import", "file"),
        ("scorekeeper links", "game"),
        ("scorekeeper season", "start"),
        ("scorekeeper season", "end"),
    ]:
        assert wanted in seen
