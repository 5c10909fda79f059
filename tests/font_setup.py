"""The fonts the tests draw and print in, each forced on its own, whatever font the machine has
for its default (issue 37): ``tests/run.sh`` installs them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: The fonts the layout is tried in, as phones have different ones: each browser is forced to
#: one (``fonts_conf``), whatever the machine's default. A font: its Latin family, the family
#: that draws Arabic beside it, and the Debian package that has both (``tests/run.sh`` installs
#: them). Noto Sans is a Debian desktop's default sans-serif and close to many Android phones';
#: Roboto with Noto Naskh Arabic is Android's own pair; DejaVu Sans is wide, with Arabic of its own.
FONTS = {
    "noto": ("Noto Sans", "Noto Sans Arabic", "fonts-noto-core"),
    "dejavu": ("DejaVu Sans", "DejaVu Sans", "fonts-dejavu-core"),
    "roboto": ("Roboto", "Noto Naskh Arabic", "fonts-roboto-unhinted fonts-noto-core"),
}
#: The families drawn in the forced font: the generic ones, what Chromium asks for them, and
#: every one the pages' stylesheets and the charts name (static/app.css). A family a document brings itself (the printed sheet's
#: "Trex Sheet") is left to it.
FORCED_FAMILIES = [
    "sans-serif",
    "sans",
    "serif",
    "monospace",
    "system-ui",
    "-apple-system",
    "Segoe UI",
    "Roboto",
    "Noto Sans",
    "Noto Sans Arabic",
    "DejaVu Sans",
    # what Chromium on Linux asks for a generic family by default
    "Arial",
    "Helvetica",
    "Times New Roman",
    "Monospace",
]
#: The font of the browser every other test uses.
DEFAULT_FONT = "noto"


def fonts_conf(font: str) -> Path:
    """A fontconfig file that draws every family of ``FORCED_FAMILIES`` in *font*'s (Arabic in
    its Arabic family) and keeps the machine's other fonts only for what those lack, as a phone
    with that font would."""
    latin, arabic, _ = FONTS[font]
    families = "".join(f"<string>{f}</string>" for f in dict.fromkeys([latin, arabic]))
    folder = Path(tempfile.gettempdir()) / f"scorekeeper-fonts-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    path = folder / f"{font}.conf"
    rules = "".join(
        f'  <match target="pattern"><test name="family"><string>{asked}</string></test>'
        f'<edit name="family" mode="prepend" binding="strong">{families}</edit></match>\n'
        for asked in FORCED_FAMILIES
    )
    text = (
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        "<fontconfig>\n"
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"{rules}</fontconfig>\n"
    )
    if not path.exists() or path.read_text() != text:
        (written := folder / f"{font}.{os.getpid()}.tmp").write_text(text)
        written.replace(path)  # whole, for another worker reading it meanwhile
    return path


def font_env(font: str = DEFAULT_FONT) -> dict[str, str]:
    """The environment that makes a Chromium launched with it draw in *font*."""
    return {**os.environ, "FONTCONFIG_FILE": str(fonts_conf(font))}
