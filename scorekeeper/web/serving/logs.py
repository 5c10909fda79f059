"""The log an operator reads: one line per request on standard output, and the warnings and
errors (with their tracebacks) beside them, never on a page, and never a key: anything that
looks like one (32 hex digits or more) is withheld from every message and traceback.

A request's line says when, the method, the route's pattern (``/games/<int:game_id>``, never
the path that was asked for: a path can hold a game's key, a wall link's, the admin or join
link's key), the status, how long it took in milliseconds, the group (its short id, set in
``flask.g.group_id`` by whoever reads the group from the address; ``-`` without one) and the
client's address as far as the trusted proxy hops allow (``request.remote_addr`` after
ProxyFix). Nothing from a form, a query or a cookie is written: no PIN, no key, no name.
Every request is timed from the moment the server hands it to the app, so a request refused
before any view (a group that is not there) has its duration too: a line never says ``None``.

``init_app`` only measures and writes the lines through the ``scorekeeper.requests`` logger;
``configure`` (called by ``serve``) decides where they go, how much is written (the level)
and in which shape (``text`` or ``json``, one JSON object per line); ``say`` writes what
``serve`` says as it starts in the same shape, so that a JSON log holds nothing but JSON lines.
A message from another logger that names a path (Flask's "Exception on /admin/…", waitress's
"while serving /e/…") has the path replaced by the route's pattern, or withheld.
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator, TextIO

from flask import Flask, Response, g, has_request_context, request

REQUESTS = "scorekeeper.requests"
FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")
#: Fields of a request's line, in the order the text line writes them.
FIELDS = ("method", "route", "status", "ms", "group", "client")
NO_ROUTE = "-"
#: Where in the WSGI environment the request's start is noted (``time.perf_counter``).
STARTED = "scorekeeper.started"
#: The logger of what ``serve`` says as it starts (its address, what to do next).
SERVE = "scorekeeper.serve"
#: Libraries whose notes below a warning are not an operator's business: WeasyPrint's steps of
#: each layout, and waitress's "client disconnected while serving" (which names the path).
QUIET = ("waitress", "weasyprint", "fontTools", "PIL")
#: A path in a message of a logger outside the app (waitress names the path it was serving).
_PATH = re.compile(r"(?<![\w/])/[^\s\"']*")
#: What a key looks like (a game's, a link's, the secret key: 32 hex digits or more), withheld
#: from every message and traceback, whoever wrote it and however it got there.
_KEY = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])")
KEY_WITHHELD = "(key withheld)"

log = logging.getLogger(REQUESTS)


def _timed(wsgi_app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """*wsgi_app*, with the start of each request noted in its environment."""

    def timed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        environ[STARTED] = time.perf_counter()
        return wsgi_app(environ, start_response)

    return timed


def route_pattern() -> str:
    """The route's pattern of this request, or ``-`` where no route matched (a 404)."""
    rule = request.url_rule
    return rule.rule if rule is not None else NO_ROUTE


def _written(response: Response) -> Response:
    if not log.isEnabledFor(logging.INFO):
        return response
    started = request.environ.get(STARTED, time.perf_counter())
    ms = round((time.perf_counter() - started) * 1000, 1)
    line = {
        "method": request.method,
        "route": route_pattern(),
        "status": response.status_code,
        "ms": ms,
        "group": str(g.get("group_id") or "-"),
        "client": request.remote_addr or "-",
    }
    log.info(
        "%(method)s %(route)s %(status)s %(ms)sms group=%(group)s %(client)s",
        line,
        extra={"request_line": line},
    )
    return response


class Withheld(logging.Filter):
    """Keeps a request's path out of any message: the route's pattern in its place while a
    request is being answered, else ``(path withheld)``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == REQUESTS:
            return True
        message = record.getMessage()
        if has_request_context():
            for path in {request.full_path, request.path, request.url}:
                if path and path in message:
                    message = message.replace(path, route_pattern())
        if record.name.startswith("waitress"):
            message = _PATH.sub("(path withheld)", message)
        record.msg, record.args = _KEY.sub(KEY_WITHHELD, message), None
        return True


def _moment(record: logging.LogRecord) -> str:
    return (
        datetime.fromtimestamp(record.created, timezone.utc)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


class _KeysWithheld(logging.Formatter):
    """A traceback without a key: an exception's words can hold the value that failed."""

    def formatException(self, ei: Any) -> str:  # noqa: N802 (logging's name)
        return _KEY.sub(KEY_WITHHELD, super().formatException(ei))


class TextLines(_KeysWithheld):
    """``2026-11-26T14:05:15.123Z GET /games/<int:game_id> 200 12.3ms group=- 127.0.0.1`` for a
    request; ``time LEVEL logger: message`` and the traceback below for the rest."""

    def format(self, record: logging.LogRecord) -> str:
        if hasattr(record, "request_line"):
            return f"{_moment(record)} {record.getMessage()}"
        line = f"{_moment(record)} {record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonLines(_KeysWithheld):
    """One JSON object per line: ``time``, ``level``, ``logger``, then a request's fields, or
    the ``message`` and its ``traceback``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": _moment(record),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        line = getattr(record, "request_line", None)
        if line is not None:
            out.update(line)
        else:
            out["message"] = record.getMessage()
            if record.exc_info:
                out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def level_problem(level: str) -> str | None:
    if level.lower() not in LEVELS:
        return f"the log level is one of {', '.join(LEVELS)}, not {level!r}"
    return None


def format_problem(shape: str) -> str | None:
    if shape.lower() not in FORMATS:
        return f"the log format is one of {', '.join(FORMATS)}, not {shape!r}"
    return None


def configure(level: str = "info", shape: str = "text", stream: TextIO | None = None) -> None:
    """Send every logger's records (the app's, Flask's, waitress's) at *level* and above to
    *stream* (standard output), one per line in *shape*. Called before the app is made, so
    that Flask adds no handler of its own."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(JsonLines() if shape.lower() == "json" else TextLines())
    handler.addFilter(Withheld())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "scorekeeper_log", False)]:
        root.removeHandler(old)
    handler.scorekeeper_log = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)  # Python's warnings too, as lines of the log
    for name in QUIET:
        logging.getLogger(name).setLevel(max(logging.WARNING, root.level))


def json_line(message: str, level: str = "info") -> str:
    """*message* as a line of a JSON log, from ``scorekeeper.serve``."""
    number = logging.getLevelName(level.upper())
    return JsonLines().format(logging.LogRecord(SERVE, number, __file__, 0, message, None, None))


def say(
    message: str, shape: str = "text", *, level: str = "info", stream: TextIO | None = None
) -> None:
    """Write *message* (a line of what ``serve`` says as it starts, or an error of it) to
    *stream* (standard output) as it is in a text log, or as one JSON line, as the log's
    others, in a JSON log (``--log-format json``). Nothing global is set up for it."""
    out = stream or sys.stdout
    print(json_line(message, level) if shape.lower() == "json" else message, file=out, flush=True)


class JsonStream(io.TextIOBase):
    """A standard stream of a JSON log: each line written to it that is not a JSON object
    already (a ``print`` of ``serve``, of a library) goes on to *stream* as one, at *level*."""

    def __init__(self, stream: TextIO, level: str):
        self.stream, self.level = stream, level
        self._pending = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._pending = (self._pending + text).split("\n")
            for line in lines:
                if line.startswith("{") and line.endswith("}"):
                    self.stream.write(line + "\n")
                elif line.strip():
                    self.stream.write(json_line(line.rstrip(), self.level) + "\n")
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")


@contextmanager
def shaped(shape: str) -> Iterator[None]:
    """While ``serve`` runs with a JSON log: standard output and error write nothing but JSON
    lines, whatever prints to them (a line of standard error is a warning)."""
    if shape.lower() != "json":
        yield
        return
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = JsonStream(out, "info"), JsonStream(err, "warning")
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def init_app(app: Flask) -> None:
    """Time every request from its start and write its line once its answer is made (an error
    page's too). Registered before every other infrastructure module's hooks."""
    app.wsgi_app = _timed(app.wsgi_app)  # type: ignore[method-assign]
    app.after_request(_written)
