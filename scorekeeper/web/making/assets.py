"""The stylesheets and scripts as the phones get them: without their comments and indentation.

A phone's first load is held to 40 KB, and a tenth of every ``static/*.css`` and ``*.js`` is
what a maintainer reads (comments, indentation) rather than what the browser runs. The files
stay as they are written; what the ``static`` endpoint sends of them is trimmed, line by line,
once per version of the file: a line that is only a comment (``/* ... */`` over one or more
lines, or ``// ...``) goes, and every other line loses its leading and trailing spaces. Lines
stay lines, so a script means what it meant (no statement is joined to the next; the scripts
have no template literals nor strings across lines, which ``tests/web/test_assets.py``
checks). Every other file is sent by Flask as before.
"""

from __future__ import annotations

import hashlib
import io
import os

from flask import Flask, current_app, send_file
from flask.typing import ResponseReturnValue

from ...store.kept import Kept

#: The kinds of file trimmed, and how they are sent.
TRIMMED = {".css": "text/css", ".js": "text/javascript"}

#: (path, modified, size) -> (the trimmed bytes, their ETag).
_kept: Kept[tuple[bytes, str]] = Kept(64)


def trim(text: str) -> str:
    """*text* (a stylesheet or a script) without its comment lines and its indentation."""
    lines, in_comment = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if in_comment:
            if "*/" not in stripped:
                continue
            in_comment, stripped = False, stripped.split("*/", 1)[1].strip()
        elif stripped.startswith("/*"):
            if "*/" not in stripped[2:]:
                in_comment = True
                continue
            stripped = stripped[2:].split("*/", 1)[1].strip()
        elif stripped.startswith("//"):
            continue
        if stripped:
            lines.append(stripped)
    return "\n".join(lines) + "\n"


def _trimmed(path: str) -> tuple[bytes, str]:
    stat = os.stat(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    found = _kept.get(key)
    if found is None:
        with open(path, encoding="utf-8") as file:
            data = trim(file.read()).encode()
        found = (data, hashlib.sha256(data).hexdigest()[:32])
        _kept.put(key, found)
    return found


def static(filename: str) -> ResponseReturnValue:
    """The ``static`` endpoint: a stylesheet or a script trimmed, any other file as Flask
    sends it (with the same caching headers and answers to a conditional request)."""
    app = current_app
    kind = TRIMMED.get(os.path.splitext(filename)[1])
    folder = app.static_folder
    if kind is None or folder is None:
        return app.send_static_file(filename)
    path = os.path.realpath(os.path.join(folder, filename))
    if not path.startswith(os.path.realpath(folder) + os.sep) or not os.path.isfile(path):
        return app.send_static_file(filename)  # its 404, as for any file that is not there
    data, etag = _trimmed(path)
    return send_file(
        io.BytesIO(data),
        mimetype=kind,
        etag=etag,
        last_modified=os.stat(path).st_mtime,
        max_age=app.get_send_file_max_age(filename),
        conditional=True,
        download_name=os.path.basename(filename),
    )


def init_app(app: Flask) -> None:
    app.view_functions["static"] = static
