"""Where an install keeps its data: the instance folder (the database, the secret key, a box's
groups). One rule, docs/hosting.md's "Where the data lives", in this order:

1. ``$SCOREKEEPER_INSTANCE`` (``--instance DIR`` sets it for one command);
2. for the app, a database named by ``--db`` or ``$SCOREKEEPER_DB``: the folder that holds it,
   so that the secret key lives beside it (``web.create_app`` passes it);
3. run from a checkout (an editable install): ``instance/`` in the checkout;
4. installed into a virtual environment: ``<venv>/var/scorekeeper.web-instance`` (the folder
   Flask itself would choose);
5. otherwise (``pip install --user``, a system-wide install): the user's data folder,
   ``$XDG_DATA_HOME/trex-scorekeeper`` (``~/.local/share/trex-scorekeeper``), or
   ``%LOCALAPPDATA%\\trex-scorekeeper`` on Windows and
   ``~/Library/Application Support/trex-scorekeeper`` on macOS. Never ``site-packages``.

The app, the command line and a script all find the same database this way, without starting
the web app.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..settings import environ

DATABASE_FILE = "scorekeeper.sqlite3"
SECRET_KEY_FILE = "secret_key"
#: Beside a database: the lock a server holds on it while it serves it (a restore waits for it),
#: the mark of a restore of it under way while its box serves (``restoring``), and the database
#: a restore replaced, kept as ``<file>.before-restore-<moment>``.
LOCK_SUFFIX = ".serving"
BEING_RESTORED_SUFFIX = ".being-restored"
KEPT_INFIX = ".before-restore-"
#: The folder name an installed package's instance gets (Flask's ``<import name>-instance``).
INSTALLED_INSTANCE = "scorekeeper.web-instance"
#: The folder's name in the user's data folder.
USER_FOLDER = "trex-scorekeeper"
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]  # the folder holding the package


def instance_folder(database: str | os.PathLike[str] | None = None) -> Path:
    """The instance folder (not created here); *database*, when one was named, is rule 2."""
    named = environ("SCOREKEEPER_INSTANCE")
    if named:
        return Path(named).absolute()
    if database and str(database) != ":memory:":
        return Path(database).resolve().parent
    return default_folder(_PACKAGE_PARENT)


def default_folder(package_parent: Path) -> Path:
    """Rules 3 to 5, for a package installed in *package_parent*."""
    if (
        package_parent.name not in ("site-packages", "dist-packages")
        and (package_parent / "pyproject.toml").is_file()
    ):
        return package_parent / "instance"
    prefix = Path(sys.prefix).resolve()
    if sys.prefix != sys.base_prefix and prefix in package_parent.parents:
        return prefix / "var" / INSTALLED_INSTANCE
    return user_data_folder() / USER_FOLDER


def user_data_folder() -> Path:
    """Where the platform keeps a user's application data."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(environ("LOCALAPPDATA") or home / "AppData" / "Local")
    if sys.platform == "darwin":
        return home / "Library" / "Application Support"
    return Path(environ("XDG_DATA_HOME") or home / ".local" / "share")


def database_file(given: str | os.PathLike[str] | None = None) -> Path:
    """The database file: *given*, else ``$SCOREKEEPER_DB``, else the instance folder's."""
    if given:
        return Path(given)
    return Path(named_database() or instance_folder() / DATABASE_FILE)


def named_database() -> str | None:
    """The database ``$SCOREKEEPER_DB`` names, or None: the one reading of that variable, for
    the app, the command line and a script alike."""
    return environ("SCOREKEEPER_DB") or None
