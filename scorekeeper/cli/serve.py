"""``scorekeeper serve``: the table app under waitress. The one command that imports the web
wing, and only when it runs.

Its options are built from their declarations (``settings.SERVE``): the flag, the help, the
variable read when the option is not given and the default are each written there once."""

from __future__ import annotations

import argparse
import functools
from typing import Any, Callable

from ..settings import SERVE, Option, Refused, environ
from .common import add_db_option


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web.serve import serve

    options = {name: getattr(args, name) for name in SERVE}
    options["workers"] = options["workers"] or default_workers()
    return serve(options, db_path=args.db, end_process=True)


def default_workers() -> int:
    """One server process per core (``--workers`` and $SCOREKEEPER_WORKERS not given)."""
    from ..engine.processes import cores

    return cores()


def reader(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """*read* for argparse: what it refuses is said in its own words (argparse's own for a
    plain number)."""

    @functools.wraps(read, updated=())
    def read_option(text: str) -> Any:
        try:
            return read(text)
        except Refused as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return read_option


def argument(option: Option) -> dict[str, Any]:
    """``add_argument``'s keywords for *option*: its default is its variable's text (read as
    the option's own, so a wrong one is refused as the option would be), else the declared one."""
    if option.read is None:  # a flag that takes no value
        return {
            "action": "store_const",
            "const": option.alone,
            "default": option.default,
            "help": option.help,
        }
    said = f"${option.variable}, else {option.said}" if option.variable else option.said
    keywords: dict[str, Any] = {
        "type": reader(option.read),
        "default": (environ(option.variable) if option.variable else "") or option.default,
        "metavar": option.metavar,
        "help": f"{option.help} (default: {said})",
    }
    if option.alone is not None:
        keywords.update(nargs="?", const=option.alone)
    if option.choices:
        keywords["choices"] = option.choices
    return keywords


def add_commands(sub: Any) -> None:
    serve = sub.add_parser("serve", help="start the table app with a production server")
    for name, option in SERVE.items():
        serve.add_argument(option.flag, dest=name, **argument(option))
    add_db_option(serve)
    serve.set_defaults(func=cmd_serve)
