"""Every setting, declared once: the app's configuration (:data:`APP`, each key with its default
and what it means; ``web.create_app`` starts from it, and the app reads
``current_app.config[KEY]``), the options of ``scorekeeper serve`` (:data:`SERVE`: each with its
flag, its variable, how its text is read and the configuration key it fills; the command line
builds its options from them and the server takes what they give), and every environment
variable the package reads (:data:`ENVIRONMENT`, read only through :func:`environ`, nowhere else).

It sits beside the wings and imports nothing of the project, so that the store, the command line
and the web wing read their variables in this one place (the engine reads none: what it needs is
passed in). The hosting guide's "Configuration" (docs/hosting.md) names every variable and every
option of ``serve`` with its default; ``tests/project/test_settings_declared.py`` keeps the code,
this module and that guide together.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Setting:
    """One key of the app's configuration: its default and what it means."""

    default: Any
    meaning: str


#: The app's configuration: what ``create_app`` starts from, before the test's or the
#: command's own values (``serve`` fills most of them from its options and the variables).
APP: dict[str, Setting] = {
    "DATABASE": Setting(
        None, "the one group's database file; none: $SCOREKEEPER_DB, else the instance folder's"
    ),
    "SECRET_KEY": Setting(
        None, "signs the session; none: the instance folder's secret_key, made on the first run"
    ),
    "SECRET_KEY_FILE": Setting(
        None,
        "the file holding the secret key the boxes behind one address share "
        "(serve --secret-key-file); none: the instance folder's secret_key",
    ),
    "GROUPS": Setting(None, 'many groups on one box: None, "open" or "invite" (serve --groups)'),
    "PROXY_HOPS": Setting(0, "the reverse proxies in front (serve --proxy-hops): the hosted mode"),
    "PUBLIC_URL": Setting(None, "the address every link and QR code carries (serve --public-url)"),
    "LAN_URL": Setting(None, "the network address serve --lan found, for a page opened locally"),
    "TRUSTED_HOSTS": Setting(None, "the hosts answered (Flask's; serve sets it), None: any"),
    "MAX_GROUPS": Setting(None, "the most groups a box holds (serve --max-groups); None: no cap"),
    "MIN_FREE_DISK": Setting(
        0, "bytes of free disk below which no group is started (serve --min-free-disk)"
    ),
    "METRICS": Setting(False, "answer /metrics, for the operator's scraper (serve --metrics)"),
    "LOG_LEVEL": Setting("info", "what the server's log holds: debug, info, warning or error"),
    "LOG_FORMAT": Setting("text", "a line of text, or a JSON object, per request"),
    "REPLICATOR": Setting(
        None, "the Litestream running this server (replicate -exec), watched; None: none"
    ),
    "SHEETS_AHEAD": Setting(True, "make a game's printed sheet ready after each save"),
    "ADVISOR_DEALS": Setting(None, "samples dealt to each choice by the advisor; None: its own"),
    "PRINT_IN_PROCESS": Setting(
        True, "print in the printing processes; False (tests): in threads of the server"
    ),
    # Flask's and its extensions' own keys, as this app sets them
    "BABEL_DEFAULT_LOCALE": Setting("en", "a phone's language when it asks for none we have"),
    "WTF_CSRF_FIELD_NAME": Setting("csrf_token", "the form token's field (Flask-WTF's name)"),
    "WTF_CSRF_TIME_LIMIT": Setting(
        None, "a form opened at the start of a long deal is still accepted at its end"
    ),
    "SESSION_COOKIE_SAMESITE": Setting("Lax", "the session cookie goes with this site's links"),
    "SESSION_COOKIE_HTTPONLY": Setting(True, "no script reads the session cookie"),
    "SESSION_REFRESH_EACH_REQUEST": Setting(
        False, "the session is written when it changes (and daily, rights.renew_session) only"
    ),
    "MAX_CONTENT_LENGTH": Setting(64 * 1024, "the largest request body, in bytes"),
    "MAX_FORM_PARTS": Setting(200, "the most fields a form may send"),
    "JSON_AS_ASCII": Setting(False, "words in JSON as UTF-8: Arabic a third of its escapes"),
}


class Refused(ValueError):
    """An option's or a variable's text that cannot be read: the message says why, in words
    the command prints as they are."""


def switch(text: str) -> bool:
    """An on-or-off option's value: 1, yes or on; 0, no, off or nothing."""
    if text in ("", "0", "no", "off"):
        return False
    if text in ("1", "yes", "on"):
        return True
    raise Refused(f"give 1 or 0, not {text!r}")


def groups_mode(text: str) -> str | None:
    """``--groups``: "open", "invite", or a switch (on: "open"; off: None, one group)."""
    if text in ("open", "invite"):
        return text
    try:
        return "open" if switch(text) else None
    except Refused:
        raise Refused(f"give --groups or --groups=invite, not {text!r}") from None


def group_count(text: str) -> int | None:
    """A number of groups; "none" (or nothing): no cap."""
    if text in ("", "none"):
        return None
    if not (text.isascii() and text.isdigit()):
        raise Refused(f"give a number of groups, not {text!r}")
    return int(text)


#: The units ``--min-free-disk`` takes after its number (none: bytes).
UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def size(text: str) -> int:
    """Bytes, or a number with K, M, G or T after it (``2G``)."""
    found = re.fullmatch(r"([0-9]+) ?([KMGT]?)B?", text.strip(), re.IGNORECASE)
    if not found:
        raise Refused(
            f"give a size in bytes, or with K, M, G or T after it (e.g. 2G), not {text!r}"
        )
    return int(found[1]) * UNITS[found[2].upper()]


def hops(text: str) -> int:
    """The number of reverse proxies in front, 0 to 10."""
    if not (text.isascii() and text.isdigit()) or int(text) > 10:
        raise Refused(f"the number of proxies is 0 to 10, not {text!r}")
    return int(text)


#: An option without a value of its own: its default is the app's (:data:`APP`, its key's).
FROM_APP: Any = object()


@dataclass(frozen=True)
class Option:
    """One option of ``scorekeeper serve``, declared once: the command line's flag, its help
    and its default are built from it, and its value goes to the server under its name (and
    into the app's configuration under *key*, where it has one).

    *default*: the value when neither the option nor its *variable* is given; an option with a
    *key* takes that key's default in :data:`APP` (never a second one here). *read*: its text
    (the option's or the variable's) to its value, raising :class:`Refused` (or ValueError) on
    text it cannot read; None: a flag that takes no value, *alone* when given. *alone*: the
    value of the flag given without one (``--groups``: "open"); None: a value must follow.
    *meaning*: what it sets, in a few words (its variable's meaning in :data:`ENVIRONMENT`);
    *help*: what ``--help`` says of it. *words*: the default as the help and the docs say it,
    where its value does not say it.
    """

    flag: str
    meaning: str
    help: str
    key: str | None = None
    default: Any = FROM_APP
    variable: str | None = None
    read: Callable[[str], Any] | None = None
    alone: Any = None
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    words: str = ""

    def __post_init__(self) -> None:
        if (self.default is FROM_APP) != bool(self.key):
            raise ValueError(
                f"{self.flag}: give it a default of its own or the app's key, one of them"
            )
        if self.key:
            object.__setattr__(self, "default", APP[self.key].default)

    @property
    def said(self) -> str:
        """The default in words: "off", "none", "0", or the words given."""
        if self.words:
            return self.words
        if self.default is None or self.default is False:
            return "none" if self.default is None else "off"
        return str(self.default)


#: Every option of ``scorekeeper serve``, by the name its value goes under, in --help's order.
#: ``--db``, ``--group`` and ``--instance`` are every command's (``cli/common.py``).
SERVE: dict[str, Option] = {
    "host": Option(
        "--host",
        "the address to listen on",
        "address to listen on",
        default=None,
        read=str,
        words="127.0.0.1 (0.0.0.0 with --lan)",
    ),
    "port": Option("--port", "the port", "port to listen on", default=5000, read=int),
    "lan": Option(
        "--lan",
        "listen on the local network, print the address and its QR code",
        "listen on the local network and print the address for the phones",
        default=False,
        alone=True,
    ),
    "proxy_hops": Option(
        "--proxy-hops",
        "how many proxies in front: the hosted mode",
        "hosted behind N reverse proxies that terminate HTTPS: trust their "
        "X-Forwarded-For/-Proto/-Host, send HSTS and secure cookies, and "
        "ask for the group's join link to start games",
        key="PROXY_HOPS",
        variable="SCOREKEEPER_PROXY_HOPS",
        read=hops,
        metavar="N",
    ),
    "public_url": Option(
        "--public-url",
        "the address every link and QR code carries",
        "the address phones use (e.g. https://trex.example.org): every "
        "link and QR code carries it, and only its host is answered",
        key="PUBLIC_URL",
        variable="SCOREKEEPER_PUBLIC_URL",
        read=str,
        metavar="URL",
    ),
    "groups": Option(
        "--groups",
        "many groups on one box",
        "host many groups, each with its own database and join link: the "
        'front page offers "Start a group" (limited per address); '
        "--groups=invite: starting a group needs the operator's invitation "
        "link, which serve prints",
        key="GROUPS",
        variable="SCOREKEEPER_GROUPS",
        read=groups_mode,
        alone="open",
        metavar="invite",
        words="off",
    ),
    "secret_key_file": Option(
        "--secret-key-file",
        "the secret key's file, one for every box behind one address",
        "the file holding the key that signs the phones' cookies and result links, the same "
        "file on every box behind one address (owner-only, at least 32 characters); checked "
        "at start, never printed",
        key="SECRET_KEY_FILE",
        variable="SCOREKEEPER_SECRET_KEY_FILE",
        read=str,
        metavar="FILE",
        words="the instance folder's secret_key",
    ),
    "log_level": Option(
        "--log-level",
        "debug, info, warning or error",
        "what the log on standard output holds: info (a line per request "
        "and the warnings), warning, error or debug",
        key="LOG_LEVEL",
        variable="SCOREKEEPER_LOG_LEVEL",
        read=str.lower,
        metavar="LEVEL",
        choices=("debug", "info", "warning", "error"),
    ),
    "log_format": Option(
        "--log-format",
        "a line of text, or JSON, per request",
        "a line of text per request, or a JSON object per line",
        key="LOG_FORMAT",
        variable="SCOREKEEPER_LOG_FORMAT",
        read=str.lower,
        choices=("text", "json"),
    ),
    "workers": Option(
        "--workers",
        "server processes on the one port",
        "server processes on the one port, each answering any group",
        default=None,
        variable="SCOREKEEPER_WORKERS",
        read=int,
        metavar="N",
        words="one per core",
    ),
    "max_groups": Option(
        "--max-groups",
        "the most groups the box holds (with --groups)",
        "with --groups: the most groups this box holds; past it, starting a group "
        "is refused with a page that says so",
        key="MAX_GROUPS",
        variable="SCOREKEEPER_MAX_GROUPS",
        read=group_count,
        metavar="N",
        words="no cap",
    ),
    "min_free_disk": Option(
        "--min-free-disk",
        "free disk kept: below it no group is started",
        "with --groups: below this much free disk (bytes, or e.g. 500M, 2G), starting "
        "a group is refused with a page that says so",
        key="MIN_FREE_DISK",
        variable="SCOREKEEPER_MIN_FREE_DISK",
        read=size,
        metavar="SIZE",
    ),
    "metrics": Option(
        "--metrics",
        "answer /metrics for the operator's scraper",
        "answer /metrics (Prometheus's text format) for the operator's scraper, on "
        "this port, never through the proxy",
        key="METRICS",
        variable="SCOREKEEPER_METRICS",
        read=switch,
        alone=True,
        metavar="1|0",
    ),
}


def serve_config(values: Mapping[str, Any]) -> dict[str, Any]:
    """The app's configuration the options' *values* (by name, as :data:`SERVE`) fill."""
    return {option.key: values[name] for name, option in SERVE.items() if option.key}


#: Every environment variable the package reads, with its default in words and its meaning.
ENVIRONMENT: dict[str, Setting] = {
    "SCOREKEEPER_DB": Setting("<instance>/scorekeeper.sqlite3", "the one group's database"),
    "SCOREKEEPER_INSTANCE": Setting(
        'see "Where the data lives"', "the instance folder: secret key, database, groups"
    ),
    "PROMETHEUS_MULTIPROC_DIR": Setting(
        "set by serve --metrics", "where prometheus-client's processes write their figures"
    ),
    # serve's options' variables, as their options declare them
    **{
        option.variable: Setting(option.said, f"serve {option.flag}: {option.meaning}")
        for option in SERVE.values()
        if option.variable
    },
    "SCOREKEEPER_CHECK_SIMULATED": Setting(
        "0", "1: every simulated game is checked as a game file from outside is"
    ),
    "XDG_DATA_HOME": Setting("~/.local/share", "the user's data folder (Linux and the like)"),
    "LOCALAPPDATA": Setting("~/AppData/Local", "the user's data folder (Windows)"),
}


def app_defaults() -> dict[str, Any]:
    """The app's configuration before anything overrides it."""
    return {key: setting.default for key, setting in APP.items()}


def environ(name: str) -> str:
    """The environment variable *name* ("" when unset); it must be declared in
    :data:`ENVIRONMENT`."""
    if name not in ENVIRONMENT:
        raise KeyError(f"{name} is not declared in scorekeeper.settings.ENVIRONMENT")
    return os.environ.get(name, "")


def set_environ(name: str, value: str) -> None:
    """Set *name* for the rest of this process and the processes it starts (``--instance``)."""
    if name not in ENVIRONMENT:
        raise KeyError(f"{name} is not declared in scorekeeper.settings.ENVIRONMENT")
    os.environ[name] = value
