"""CSRF on every POST, and headers that keep pages to their own scripts and styles, out of frames,
and their addresses to themselves."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    )
)
#: A page's address goes in the Referer header to this site only: a game's secret edit link is a
#: path, and no other site may learn it. The site itself must get it: over HTTPS (the hosted
#: box) Flask-WTF refuses a POST whose Referer is missing or another site's
#: (``WTF_CSRF_SSL_STRICT``, kept on besides the CSRF token and the ``SameSite`` cookie).
REFERRER_POLICY = "same-origin"


#: The longest address a page may send a phone back to.
PATH_LIMIT = 2048


def safe_path(target: object, *, within: str = "/") -> str | None:
    """*target* if it is an address on this site under *within*, fit for a ``Location``
    header; else None. The one check of every "go back to" address a page is given.

    Refused: another site (``https://...``, ``//host``, ``/\\host``), any character that is
    not printable (a line break would split the header), dot segments (``..``, also written
    ``%2e%2e``) and anything longer than PATH_LIMIT.
    """
    if not isinstance(target, str) or not target.startswith("/") or len(target) > PATH_LIMIT:
        return None
    if target.startswith("//") or "\\" in target or not target.isprintable():
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    segments = [unquote(segment) for segment in parts.path.split("/")]
    if "." in segments or ".." in segments:
        return None
    if (
        within != "/"
        and parts.path != within
        and not parts.path.startswith(within.rstrip("/") + "/")
    ):
        return None
    return target


def add_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    app.after_request(add_headers)
