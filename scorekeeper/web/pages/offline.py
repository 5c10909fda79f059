"""``/sw.js``: the service worker that keeps a game's pages on the phone and holds a deal saved
while the network is gone until the server answers again (static/sw.js says how).

What the worker needs to know of a page it keeps (the entry forms the game page links to, the
number of the next deal, the words it shows, what each choice of an entry form is called) is
the page's data, never read from its markup. The game page carries it: one JSON value in the
attribute ``data-page`` of ``<div id="offline-data" hidden>``, that game.html emits with
:func:`offline_data` at its end and that sw.js finds by that one fixed opening (``tojson``
writes no quote ``'``, ``<``, ``>`` or ``&``, so the value is the JSON as it is and ends at the
first ``'``). An entry form's data is its own small JSON, the form's address with
``?offline=data`` (:func:`offline_form`, :func:`form_data_only`), which sw.js keeps beside the
form: in the page, the choices of a Complex form would take it past its 40 KB. The links are
marked with the ``kept_offline`` filter and the choices by the ``pick`` macro
(``offline_field``) as they are drawn; the element the worker fills with the deals waiting is
:func:`outbox`, named in the data as the exact string it is.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from typing import Any

from flask import Blueprint, Response, current_app, g, request, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

bp = Blueprint("offline", __name__)

#: The kinds of static file a page loads (its sheets, scripts and icons), kept at install.
KEPT = (".css", ".js", ".svg", ".webmanifest")
#: The query that asks an entry form for its data alone (``?offline=data``).
DATA_QUERY = "offline"
#: How static/sw.js finds the game page's data: this exact opening (and the quote that closes it).
DATA_OPENING = Markup('<div id="offline-data" hidden data-page=\'')
DATA_CLOSING = Markup("'></div>")
#: The element sw.js fills with the deals waiting on this phone: on the game page, which
#: reloads when they are sent, and on an entry form.
OUTBOX = {
    True: Markup('<div id="outbox" data-reload hidden></div>'),
    False: Markup('<div id="outbox" hidden></div>'),
}


@bp.app_template_global()
def outbox(reload: bool = False) -> Markup:
    """The outbox element, as sw.js finds it (the page's data names it)."""
    return OUTBOX[bool(reload)]


@bp.app_template_filter()
def kept_offline(url: str) -> str:
    """*url*, an entry form the game page links to, which sw.js keeps for offline use."""
    g.setdefault("offline_forms", []).append(url)
    return url


def _text(said: Any) -> str:
    return Markup(said).striptags() if isinstance(said, Markup) else str(said)


@bp.app_template_global()
def offline_field(name: str, legend: Any, choices: list[tuple[str, Any]]) -> str:
    """Note what a choice of an entry form is called and what each of its values is (the
    legend and the chips ``pick`` draws), for sw.js to say a deal waiting in the page's words."""
    g.setdefault("offline_fields", {})[name] = [
        _text(legend),
        {value: _text(label) for value, label in choices},
    ]
    return ""


def _index(known: list, one: Any) -> int:
    if one not in known:
        known.append(one)
    return known.index(one)


def _data(page: dict[str, Any]) -> dict[str, Any]:
    """*page*, with the outbox element, the links and the choices noted while it was drawn.
    Each choice is ``[l, c]``: its legend ``legends[l]``, its chips (value to words)
    ``chips[c]``, or None when each chip says its value as it is."""
    legends: list[str] = []  # each legend and each set of chips once: the names recur
    chips: list[dict[str, str]] = []
    fields = {}
    for name, (legend, said) in g.pop("offline_fields", {}).items():
        said = {value: words for value, words in said.items() if value}  # "" is no answer
        plain = all(value == words for value, words in said.items())  # a count's chips
        fields[name] = [_index(legends, legend), None if plain else _index(chips, said)]
    data = {
        **page,
        "box": str(outbox(page.get("reload", False))),
        "forms": g.pop("offline_forms", []),
        "fields": fields,
        "legends": legends,
        "chips": chips,
    }
    if page.get("reload"):  # the game page's data names its forms' outbox too: sw.js fills it
        data["form_box"] = str(outbox(False))  # in a form whose own data was not kept
    return {key: value for key, value in data.items() if value not in ([], {})}


@bp.app_template_global()
def offline_data(**page: Any) -> Markup:
    """The game page's data for sw.js, as one JSON value in the page: called at its end."""
    return (
        DATA_OPENING
        + htmlsafe_json_dumps(_data(page), ensure_ascii=False, separators=(",", ":"))
        + DATA_CLOSING
    )


@bp.app_template_global()
def offline_form(**page: Any) -> str:
    """An entry form's data for sw.js, kept for :func:`form_data_only` (called at the end of
    the form): not in the page, which the Complex form's 40 KB would not hold."""
    g.offline_form = _data(page)
    return ""


@bp.after_app_request
def form_data_only(response: Response) -> Response:
    """An entry form asked for with ``?offline=data`` (sw.js, when it keeps the form): its
    data, as JSON, instead of the page."""
    if request.args.get(DATA_QUERY) != "data" or "offline_form" not in g:
        return response
    if response.status_code != 200:
        return response
    return current_app.response_class(
        json.dumps(g.offline_form, ensure_ascii=False, separators=(",", ":")),
        mimetype="application/json",
    )


@lru_cache(maxsize=4)
def _worker(static: str) -> tuple[str, list[str]]:
    """The worker's script and the static files it keeps (their names), for folder *static*."""
    folder = Path(static)
    names = sorted(
        p.name for p in folder.iterdir() if p.is_file() and p.suffix in KEPT and p.name != "sw.js"
    )
    digest = hashlib.sha256()
    for name in names + ["sw.js"]:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    return (folder / "sw.js").read_text(encoding="utf-8"), [digest.hexdigest()[:12]] + names


@bp.get("/favicon.ico")
def favicon():
    """The icon a browser asks for at the root whatever the page names (the pages name
    favicon.svg): the same heart, 32 and 16 px, kept a day."""
    assert current_app.static_folder is not None
    response = Response(_icon(current_app.static_folder), mimetype="image/vnd.microsoft.icon")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@lru_cache(maxsize=4)
def _icon(static: str) -> bytes:
    return (Path(static) / "favicon.ico").read_bytes()


@bp.get("/sw.js")
def worker():
    assert current_app.static_folder is not None
    script, (version, *names) = _worker(current_app.static_folder)
    files = [url_for("static", filename=name) for name in names]
    head = f"var VERSION = {json.dumps(version)}, FILES = {json.dumps(files)};\n"
    response = Response(head + script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
