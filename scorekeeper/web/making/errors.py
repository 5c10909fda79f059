"""Friendly pages for 400, 403, 404, 405, 413, 429, 500 and 503, each with a way back."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g, render_template, request, url_for
from flask.globals import request_ctx
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    SecurityError,
    ServiceUnavailable,
)
from ...store.closing import Closed

from ..access.deleted import OUTSIDER_TEXT, deleted_meanwhile
from .i18n import here

TITLES = {
    400: lazy_gettext("That did not work"),
    403: lazy_gettext("Only watching"),
    404: lazy_gettext("Not found"),
    405: lazy_gettext("Not here"),
    413: lazy_gettext("Too much"),
    429: lazy_gettext("Too many tries"),
    500: lazy_gettext("Something went wrong"),
    503: lazy_gettext("Busy"),
}
DEFAULT_TEXT = {
    400: lazy_gettext("The page was sent with something missing or out of range."),
    403: lazy_gettext("This phone can watch, but not change this."),
    404: lazy_gettext("There is no such page, game or deal."),
    405: lazy_gettext("This page cannot be used like that."),
    413: lazy_gettext("That was more than a scoresheet needs."),
    429: lazy_gettext("Too many tries in a short time. Wait a few minutes."),
    500: lazy_gettext("The scorekeeper hit a problem on its side. What was saved before is safe."),
    503: lazy_gettext(
        "The scorekeeper is busy saving other deals. Send the form again: nothing "
        "is recorded twice."
    ),
}


def _back_link() -> tuple[str, str]:
    from ..access.groupspace import in_group_space

    if not in_group_space():  # a phone outside the group, or the box's own pages
        return request.script_root + "/", _("Home")
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None:
        from ...store import storage
        from ..access.database import get_db

        try:
            if storage.load_game(get_db(), game_id) is not None:
                return url_for("games.show", game_id=game_id), _("Back to the game")
        except Exception:  # the error page must not fail in turn
            pass
    return url_for("home.index"), _("Home")


def render_error(code: int, text: str | None = None):
    back_url, back_label = _back_link()
    return render_template(
        "error.html",
        code=code,
        title=str(TITLES.get(code) or _("Error")),
        text=text or str(DEFAULT_TEXT.get(code, "")),
        back_url=back_url,
        back_label=back_label,
    ), code


def handle_http(error: HTTPException):
    code = error.code or 500
    retry_after = getattr(error, "retry_after", None)
    if code >= 500 and not (code == 503 and retry_after):
        return render_error(500)
    description = error.description
    default = type(error).description
    page, code = render_error(code, description if description != default else None)
    if retry_after:  # busy (503) or too many at once (429): when to ask again
        return page, code, {"Retry-After": str(retry_after)}
    return page, code


BEING_RESTORED_TITLE = lazy_gettext("Being restored")
BEING_RESTORED_TEXT = lazy_gettext(
    "This group's games are being restored from a backup. Its pages are back in a minute: "
    "try again then."
)


class BeingRestored(ServiceUnavailable):
    """The request's group is being restored (``store.restoring``): 503, ask again in
    *retry_after* seconds; nothing of the group is read. *home*: the group's first page."""

    def __init__(self, retry_after: int, home: str):
        super().__init__(str(BEING_RESTORED_TEXT), retry_after=retry_after)
        self.home = home


def handle_being_restored(error: BeingRestored):
    """The "being restored" page, drawn without the group's menu and without opening its
    file; its link asks for the same page again (after a form sent: the group's first page)."""
    g.outsider = True
    again = request.script_root + here() if request.method in ("GET", "HEAD") else error.home
    page = render_template(
        "error.html",
        code=503,
        title=str(BEING_RESTORED_TITLE),
        text=str(BEING_RESTORED_TEXT),
        back_url=again,
        back_label=_("Try again"),
    )
    return page, 503, {"Retry-After": str(error.retry_after), "Cache-Control": "no-store"}


def missing_group():
    """The answer to a request whose group was deleted while it ran: the 404 of a group that is
    not there, as a phone outside the group gets it, drawn without the group's menu."""
    g.outsider = True
    return render_error(404, str(OUTSIDER_TEXT))


def handle_csrf(error: CSRFError):
    return render_error(
        400,
        _(
            "This form has expired or was sent from elsewhere. Go back, "
            "reload the page and send it again."
        ),
    )


def handle_overflow(error: OverflowError):
    """A number too big for the database (a hand-made address or form): out of range."""
    return render_error(400, _("A number in that request is far out of range."))


def handle_database(error: sqlite3.DatabaseError):
    """The request's group was deleted while it ran: the 404 of a missing group. The database
    stayed locked longer than the busy timeout: ask to send again (the forms' one-time tokens
    make that safe). Any other database error is a 500."""
    if deleted_meanwhile():
        return missing_group()
    if isinstance(error, sqlite3.OperationalError) and (
        "locked" in str(error) or "busy" in str(error)
    ):
        return render_error(503)
    raise error


def handle_closed(error: Closed):
    """A deal written to a game the next round is seated on: 409, saying why."""
    from .messages import refusal

    return render_error(409, refusal(error))


def init_app(app: Flask) -> None:
    app.register_error_handler(Closed, handle_closed)
    app.register_error_handler(CSRFError, handle_csrf)
    app.register_error_handler(BeingRestored, handle_being_restored)
    app.register_error_handler(OverflowError, handle_overflow)
    app.register_error_handler(sqlite3.DatabaseError, handle_database)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(SecurityError, untrusted_host)
    # Flask turns any unhandled exception into an InternalServerError (outside tests, which
    # see the exception itself).
    app.register_error_handler(InternalServerError, lambda e: render_error(500))


def untrusted_host(error: SecurityError):
    """A request for a host this server is not: a 400 page, drawn with links to this site's
    own paths (no address could be built from that request)."""
    if request_ctx.url_adapter is None:
        request_ctx.url_adapter = current_app.url_map.bind("localhost")
    return render_error(400, _("This scorekeeper does not answer to that address."))
