"""Where the app is reached, and what that asks of it: the address that links and QR codes
carry, which ``Host`` headers it answers, and the hosted mode behind a reverse proxy.

- On a laptop (loopback) or the local network (``--lan``), forwarded headers are ignored, as
  the phones talk to the server itself. ``serve`` sets ``TRUSTED_HOSTS`` to the machine's own
  names and addresses, so a link is never built from a ``Host`` header someone made up: a
  request naming another host is refused (400).
- Behind a TLS proxy (``serve --proxy-hops N``, config ``PROXY_HOPS``), Werkzeug's ProxyFix takes
  the client's address, the scheme and the host from the ``X-Forwarded-*`` headers of the N
  proxies in front (``serve`` has waitress pass them on: by default it removes them). Then
  every cookie is ``Secure``, HSTS is sent, and the PIN limits count the real client's address,
  not the proxy's.
- ``PUBLIC_URL`` (``--public-url``), when given, is the address every link and QR code carries,
  whatever the request said; otherwise the host the request came to (trusted as above).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, url_for
from werkzeug.middleware.proxy_fix import ProxyFix

#: A year: a phone that has seen the hosted box over HTTPS never tries it over HTTP again.
HSTS = "max-age=31536000"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def hosted() -> bool:
    """Does the app sit behind a reverse proxy on the internet (``serve --proxy-hops``)?"""
    return bool(current_app.config["PROXY_HOPS"])


def public_url_problem(url: str) -> str | None:
    """Why *url* cannot be the public address (in English, for the command line), or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "give the address as https://host (or http://host:port)"
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return "give only the scheme, the host and a port, without a path"
    try:
        parts.port
    except ValueError:
        return "the port is not a number from 1 to 65535"
    return None


def public_root() -> str:
    """Where other phones reach this server, ending in ``/``: the public address when one was
    given; for a page opened on the server machine itself (localhost), the network address
    that ``serve --lan`` found; else the (trusted) host the request came to."""
    public = current_app.config["PUBLIC_URL"]
    if public:
        return public.rstrip("/") + "/"
    lan = current_app.config["LAN_URL"]
    if lan and not hosted() and urlsplit(request.host_url).hostname in LOOPBACK:
        return lan.rstrip("/") + "/"
    return request.host_url


def external_url(endpoint: str, **values: Any) -> str:
    """The full address of a page, for a link to share or a QR code."""
    return public_root() + url_for(endpoint, **values).lstrip("/")


def secure_headers(response: Response) -> Response:
    """Hosted: HSTS, and ``Secure`` on every cookie the page sets (the session's own is set
    later, by Flask, under ``SESSION_COOKIE_SECURE``)."""
    response.headers.setdefault("Strict-Transport-Security", HSTS)
    cookies = response.headers.getlist("Set-Cookie")
    if cookies:
        response.headers.setlist(
            "Set-Cookie", [c if "; secure" in c.lower() else c + "; Secure" for c in cookies]
        )
    return response


def init_app(app: Flask) -> None:
    hops = int(app.config["PROXY_HOPS"] or 0)
    if hops:
        app.wsgi_app = ProxyFix(
            app.wsgi_app,
            x_for=hops,
            x_proto=hops,  # type: ignore[method-assign]
            x_host=hops,
        )
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["PREFERRED_URL_SCHEME"] = "https"
        app.after_request(secure_headers)
