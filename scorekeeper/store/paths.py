"""Where an install keeps its database and secret key: the instance folder.

``$SCOREKEEPER_INSTANCE`` names it. Otherwise, run from a checkout (or an editable install), it
is ``instance/`` beside the ``scorekeeper`` package; installed into an environment, it is
``var/scorekeeper.web-instance`` under that environment's prefix. These are the folders Flask
chooses for the web app by itself, so the app, the command line and a script all find the same
database without starting the web app.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

DATABASE_FILE = "scorekeeper.sqlite3"
SECRET_KEY_FILE = "secret_key"
#: The folder name an installed package's instance gets (Flask's ``<import name>-instance``).
INSTALLED_INSTANCE = "scorekeeper.web-instance"


def instance_folder() -> Path:
    """The instance folder (not created here)."""
    named = os.environ.get("SCOREKEEPER_INSTANCE")
    if named:
        return Path(named)
    checkout = Path(__file__).resolve().parents[2]  # the folder holding the package
    prefix = Path(sys.prefix).resolve()
    if checkout == prefix or prefix in checkout.parents:  # installed into this environment
        return prefix / "var" / INSTALLED_INSTANCE
    return checkout / "instance"


def database_file(given: str | os.PathLike[str] | None = None) -> Path:
    """The database file: *given*, else ``$SCOREKEEPER_DB``, else the instance folder's."""
    if given:
        return Path(given)
    return Path(os.environ.get("SCOREKEEPER_DB") or instance_folder() / DATABASE_FILE)
