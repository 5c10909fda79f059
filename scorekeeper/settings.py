"""Every setting, declared once: the app's configuration (:data:`APP`, each key with its default
and what it means; ``web.create_app`` starts from it, and the app reads
``current_app.config[KEY]``), and every environment variable the package reads
(:data:`ENVIRONMENT`, read only through :func:`environ`, nowhere else).

It sits beside the wings and imports nothing of the project, so that the engine, the store, the
command line and the web wing read their variables in this one place. The hosting
guide's "Configuration" (docs/hosting.md) names every variable too; ``tests/project/test_settings_declared.py`` keeps
the code, this module and that guide together.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any


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

#: Every environment variable the package reads, with its default in words and its meaning.
ENVIRONMENT: dict[str, Setting] = {
    "SCOREKEEPER_DB": Setting("<instance>/scorekeeper.sqlite3", "the one group's database"),
    "SCOREKEEPER_INSTANCE": Setting(
        'see "Where the data lives"', "the instance folder: secret key, database, groups"
    ),
    "SCOREKEEPER_PROXY_HOPS": Setting("0", "serve --proxy-hops: the proxies in front"),
    "SCOREKEEPER_PUBLIC_URL": Setting("none", "serve --public-url: the address links carry"),
    "SCOREKEEPER_GROUPS": Setting("off", "serve --groups: 1 or invite, many groups on one box"),
    "SCOREKEEPER_WORKERS": Setting("one per core", "serve --workers: server processes"),
    "SCOREKEEPER_MAX_GROUPS": Setting("none", "serve --max-groups: the most groups on the box"),
    "SCOREKEEPER_MIN_FREE_DISK": Setting("0", "serve --min-free-disk: free disk kept, e.g. 2G"),
    "SCOREKEEPER_METRICS": Setting("off", "serve --metrics: 1 answers /metrics"),
    "PROMETHEUS_MULTIPROC_DIR": Setting(
        "set by serve --metrics", "where prometheus-client's processes write their figures"
    ),
    "SCOREKEEPER_LOG_LEVEL": Setting("info", "serve --log-level"),
    "SCOREKEEPER_LOG_FORMAT": Setting("text", "serve --log-format"),
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
