"""Where the pages' templates and static files are: the repository's own folders when running
from a checkout (or an editable install), else the copies a built wheel carries."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _folder(name: str) -> Path:
    checkout = _CHECKOUT / name
    if checkout.is_dir():
        return checkout
    return _PACKAGE / "site" / name


TEMPLATES: Path = _folder("templates")
STATIC: Path = _folder("static")
