"""``/sw.js``: the service worker that keeps a game's pages on the phone and holds a deal saved
while the network is gone until the server answers again (static/sw.js says how).

It is served from the site's root so that its scope covers every game page, never kept by a
cache (a new release must reach the phones), and named by a version made of the files it keeps:
when one of them changes, the phones replace the whole kept set.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for

bp = Blueprint("offline", __name__)

#: The kinds of static file a page loads (its sheets, scripts and icons), kept at install.
KEPT = (".css", ".js", ".svg", ".webmanifest")


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
