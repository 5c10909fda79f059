"""The stylesheets and scripts are sent without their comments and indentation
(``web/making/assets.py``), line for line, so that a page's first load keeps within its 40 KB."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.site import STATIC
from scorekeeper.web.making.assets import trim

SOURCES = sorted(p for p in Path(STATIC).iterdir() if p.suffix in (".css", ".js"))


def test_trim_drops_comment_lines_and_indentation_and_keeps_every_other_line():
    text = (
        "/* a heading comment\n   over two lines */\n"
        '"use strict";\n'
        "  // a line comment\n"
        "  var a = 1; // kept: code before it\n"
        "    /* one line */ b {\n"
        '  url("http://x/*y*/")\n'
        "\n"
        "}\n"
    )
    assert trim(text) == (
        '"use strict";\nvar a = 1; // kept: code before it\nb {\nurl("http://x/*y*/")\n}\n'
    )


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_what_trimming_assumes_of_each_file_holds(path):
    """No template literal, no string continued on the next line, no comment opened after
    code on a line and closed on a later one: trimming then changes no statement."""
    text = path.read_text(encoding="utf-8")
    assert "`" not in text
    assert not any(line.rstrip().endswith("\\") for line in text.splitlines())
    for line in text.splitlines():
        stripped = line.strip()
        if "/*" in stripped and not stripped.startswith("/*"):
            assert "*/" in stripped.split("/*", 1)[1], line


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_each_stylesheet_and_script_is_sent_trimmed_and_answers_304(client, path):
    sent = client.get(f"/static/{path.name}")
    assert sent.status_code == 200
    body = sent.get_data(as_text=True)
    assert body == trim(path.read_text(encoding="utf-8"))
    assert len(body) < path.stat().st_size
    assert not any(line != line.strip() for line in body.splitlines())
    again = client.get(f"/static/{path.name}", headers={"If-None-Match": sent.headers["ETag"]})
    assert again.status_code == 304


def test_other_static_files_and_missing_ones_are_sent_as_before(client):
    for path, status in (
        ("favicon.svg", 200),
        ("nothing.js", 404),
        ("../pyproject.toml", 404),
    ):
        answer = client.get(f"/static/{path}")
        answer.close()
        assert answer.status_code == status, path
