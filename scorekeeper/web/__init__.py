"""The web wing: the scorekeeper a phone opens beside the table.

``create_app`` follows the Flask tutorial's factory: defaults from a mapping (every setting is
declared once, in ``scorekeeper.settings``), the instance folder
for the database and the secret key (found by ``store.paths``' one rule, not by Flask's guess),
one ``init_app(app)`` per infrastructure module and one blueprint per feature.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from ..settings import app_defaults
from ..site import STATIC, TEMPLATES
from ..store.paths import DATABASE_FILE, SECRET_KEY_FILE, instance_folder, named_database


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; *test_config* overrides the configuration (tests, ``serve --db``)."""
    config = dict(test_config or {})
    named = config.get("DATABASE") or named_database()
    instance_path = config.pop("INSTANCE_PATH", None) or str(instance_folder(named))
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str(STATIC),
    )
    app.config.from_mapping(app_defaults())
    app.config.update(config)
    app.json.ensure_ascii = False  # words in JSON as UTF-8: Arabic a third of its escapes
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config["DATABASE"]:
        app.config["DATABASE"] = named or str(Path(app.instance_path) / DATABASE_FILE)
    if not app.config["SECRET_KEY"] and app.config["SECRET_KEY_FILE"]:
        app.config["SECRET_KEY"] = read_key_file(app.config["SECRET_KEY_FILE"])
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = load_secret_key(Path(app.instance_path) / SECRET_KEY_FILE)

    from .making import assets, errors, flashes, i18n, present, rulestext
    from .access import database, hosting, rights, security
    from .keeping import fragments, validators
    from . import groupsite
    from .serving import logs, metrics
    from .pages import BLUEPRINTS

    for infrastructure in (
        assets,
        logs,
        metrics,
        groupsite,
        database,
        hosting,
        security,
        rights,
        present,
        i18n,
        rulestext,
        fragments,
        validators,
        errors,
        flashes,
    ):
        infrastructure.init_app(app)
    groupsite.register(app, BLUEPRINTS)
    return app


def load_secret_key(path: Path) -> str:
    """Read the instance's secret key, creating it (mode 0600) on first run."""
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if key:
        if path.stat().st_mode & 0o077:  # copied in with looser permissions: owner only again
            path.chmod(0o600)
        return key
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process wrote it first: use theirs
        return path.read_text(encoding="ascii").strip() or key
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key


#: The shortest key a shared key file may hold (``secrets.token_hex(32)`` writes 64 characters),
#: and the most bytes such a file may have.
MIN_KEY_LENGTH = 32
MAX_KEY_FILE_BYTES = 4096


class KeyFileRefused(ValueError):
    """A shared key file that cannot serve (``serve --secret-key-file``); the message says why,
    in one line that never holds the key."""


def read_key_file(path: str | os.PathLike[str]) -> str:
    """The key of the file the boxes behind one address share: a file of the owner's alone
    holding one word of at least ``MIN_KEY_LENGTH`` printable ASCII characters. Raises
    ``KeyFileRefused`` for a missing or unreadable file, one others may read or write, or a
    key too short."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise KeyFileRefused(f"there is no file {path}") from None
    except OSError as exc:
        raise KeyFileRefused(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(found.st_mode):
        raise KeyFileRefused(f"{path} is not a file")
    if found.st_mode & 0o077:
        raise KeyFileRefused(
            f"{path} is open to others (mode {stat.S_IMODE(found.st_mode):04o}): make it "
            f"the owner's alone (chmod 600 {path})"
        )
    if found.st_size > MAX_KEY_FILE_BYTES:
        raise KeyFileRefused(f"{path} is not a key file (more than {MAX_KEY_FILE_BYTES} bytes)")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as exc:
        raise KeyFileRefused(f"cannot read {path}: {exc.strerror or exc}") from None
    key = data.strip()
    if not all(0x21 <= byte <= 0x7E for byte in key):
        raise KeyFileRefused(
            f"{path} does not hold one key of letters, digits and signs (ASCII, no spaces)"
        )
    if len(key) < MIN_KEY_LENGTH:
        raise KeyFileRefused(
            f"the key in {path} has {len(key)} characters; give one of at least "
            f"{MIN_KEY_LENGTH} (e.g. `openssl rand -hex 32`)"
        )
    return key.decode("ascii")
