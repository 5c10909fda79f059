"""Where the pages' templates and static files are: the copies a built wheel carries inside the
package (``scorekeeper/site/``), else, run from a checkout (or an editable install), the
repository's own folders. The package's own copy comes first, so that a stray ``templates``
folder beside an installed package (an empty ``site-packages/templates``) changes nothing."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _folder(name: str) -> Path:
    carried = _PACKAGE / "site" / name
    if carried.is_dir():
        return carried
    return _CHECKOUT / name


TEMPLATES: Path = _folder("templates")
STATIC: Path = _folder("static")
