"""``scorekeeper serve``: the table app under waitress. The one command that imports the web
wing, and only when it runs."""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..settings import environ
from .common import add_db_option


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web.serve import serve

    return serve(
        host=args.host,
        port=args.port,
        lan=args.lan,
        db_path=args.db,
        proxy_hops=args.proxy_hops,
        public_url=args.public_url,
        groups=args.groups,
        log_level=args.log_level,
        log_format=args.log_format,
        workers=args.workers or default_workers(),
        max_groups=args.max_groups,
        min_free_disk=args.min_free_disk,
        metrics=args.metrics,
        end_process=True,
    )


def default_workers() -> int:
    """$SCOREKEEPER_WORKERS, else one server process per core."""
    from ..engine.processes import cores

    named = environ("SCOREKEEPER_WORKERS")
    return int(named) if named.isascii() and named.isdigit() else cores()


def _switch(text: str) -> bool:
    """An on-or-off option's value: 1, yes or on; 0, no, off or nothing."""
    if text in ("", "0", "no", "off"):
        return False
    if text in ("1", "yes", "on"):
        return True
    raise argparse.ArgumentTypeError(f"give 1 or 0, not {text!r}")


def _groups(text: str) -> str | None:
    if text in ("open", "invite"):
        return text
    try:
        return "open" if _switch(text) else None
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"give --groups or --groups=invite, not {text!r}"
        ) from None


def _count(text: str) -> int | None:
    if text in ("", "none"):
        return None
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"give a number of groups, not {text!r}")
    return int(text)


#: The units ``--min-free-disk`` takes after its number (none: bytes).
UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def _size(text: str) -> int:
    found = re.fullmatch(r"([0-9]+) ?([KMGT]?)B?", text.strip(), re.IGNORECASE)
    if not found:
        raise argparse.ArgumentTypeError(
            f"give a size in bytes, or with K, M, G or T after it (e.g. 2G), not {text!r}"
        )
    return int(found[1]) * UNITS[found[2].upper()]


def _hops(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 10:
        raise argparse.ArgumentTypeError(f"the number of proxies is 0 to 10, not {text!r}")
    return int(text)


def add_commands(sub: Any) -> None:
    serve = sub.add_parser("serve", help="start the table app with a production server")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    serve.add_argument(
        "--lan",
        action="store_true",
        help="listen on the local network and print the address for the phones",
    )
    serve.add_argument(
        "--proxy-hops",
        type=_hops,
        metavar="N",
        default=environ("SCOREKEEPER_PROXY_HOPS") or "0",
        help="hosted behind N reverse proxies that terminate HTTPS: trust their "
        "X-Forwarded-For/-Proto/-Host, send HSTS and secure cookies, and "
        "ask for the group's join link to start games (default: "
        "$SCOREKEEPER_PROXY_HOPS, else 0)",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        default=environ("SCOREKEEPER_PUBLIC_URL") or None,
        help="the address phones use (e.g. https://trex.example.org): every "
        "link and QR code carries it, and only its host is answered "
        "(default: $SCOREKEEPER_PUBLIC_URL)",
    )
    serve.add_argument(
        "--groups",
        nargs="?",
        const="open",
        type=_groups,
        metavar="invite",
        default=_groups(environ("SCOREKEEPER_GROUPS") or ""),
        help="host many groups, each with its own database and join link: the "
        'front page offers "Start a group" (limited per address); '
        "--groups=invite: starting a group needs the operator's invitation "
        "link, which serve prints (default: $SCOREKEEPER_GROUPS)",
    )
    serve.add_argument(
        "--log-level",
        metavar="LEVEL",
        choices=("debug", "info", "warning", "error"),
        type=str.lower,
        default=(environ("SCOREKEEPER_LOG_LEVEL") or "info").lower(),
        help="what the log on standard output holds: info (a line per request "
        "and the warnings), warning, error or debug (default: "
        "$SCOREKEEPER_LOG_LEVEL, else info)",
    )
    serve.add_argument(
        "--log-format",
        choices=("text", "json"),
        type=str.lower,
        default=(environ("SCOREKEEPER_LOG_FORMAT") or "text").lower(),
        help="a line of text per request, or a JSON object per line (default: "
        "$SCOREKEEPER_LOG_FORMAT, else text)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        metavar="N",
        default=None,
        help="server processes on the one port, each answering any group "
        "(default: $SCOREKEEPER_WORKERS, else one per core)",
    )
    serve.add_argument(
        "--max-groups",
        type=_count,
        metavar="N",
        default=environ("SCOREKEEPER_MAX_GROUPS") or "none",
        help="with --groups: the most groups this box holds; past it, starting a group "
        "is refused with a page that says so (default: $SCOREKEEPER_MAX_GROUPS, else no cap)",
    )
    serve.add_argument(
        "--min-free-disk",
        type=_size,
        metavar="SIZE",
        default=environ("SCOREKEEPER_MIN_FREE_DISK") or "0",
        help="with --groups: below this much free disk (bytes, or e.g. 500M, 2G), starting "
        "a group is refused with a page that says so (default: "
        "$SCOREKEEPER_MIN_FREE_DISK, else 0: no floor)",
    )
    serve.add_argument(
        "--metrics",
        nargs="?",
        const=True,
        type=_switch,
        metavar="1|0",
        default=environ("SCOREKEEPER_METRICS") or "0",
        help="answer /metrics (Prometheus's text format) for the operator's scraper, on "
        "this port, never through the proxy (default: $SCOREKEEPER_METRICS, else off)",
    )
    add_db_option(serve)
    serve.set_defaults(func=cmd_serve)
