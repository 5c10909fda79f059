"""The catalog and the code agree: CONTRIBUTING.md's ``pybabel extract`` command, run through Babel's
Python API with the committed ``babel.cfg``, finds every message the Arabic catalog holds (so a
``pybabel update`` marks no live message obsolete), the catalog holds every message it finds,
and the committed ``messages.pot`` is what it makes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"


def documented_command(verb: str) -> list[str]:
    """CONTRIBUTING.md's ``pybabel <verb>`` command (its "Translations"), as its words."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith(f"pybabel {verb} ")]
    assert len(lines) == 1, f"CONTRIBUTING.md gives one `pybabel {verb}` command"
    return shlex.split(lines[0])


def extract(tmp_path: Path, command: list[str]) -> dict[str, object]:
    """Run *command* (``pybabel extract ...``) from the repository root, writing into
    *tmp_path*; the messages found, by msgid (a plural as its pair)."""
    out = tmp_path / "messages.pot"
    argv = [str(ROOT / word) if word in (".", "babel.cfg") else word for word in command]
    argv[argv.index("-o") + 1] = str(out)
    CommandLineInterface().run([argv[0], "--quiet", *argv[1:]])
    return messages(out)


def messages(path: Path, locale: str | None = None) -> dict[str, object]:
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=locale)
    return {key(m.id): m.id for m in catalog if m.id}


def key(msgid: object) -> str:
    return msgid[0] if isinstance(msgid, (tuple, list)) else msgid  # type: ignore[index,return-value]


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> dict[str, object]:
    return extract(tmp_path_factory.mktemp("pot"), documented_command("extract"))


@pytest.fixture(scope="module")
def catalog() -> dict[str, object]:
    return messages(TRANSLATIONS / "ar" / "LC_MESSAGES" / "messages.po", "ar")


def test_extraction__finds_every_message_the_catalog_holds(found, catalog):
    missing = sorted(set(catalog) - set(found))
    assert missing == [], (
        "live messages the extraction misses (mark them N_, or give "
        "their wrapper with -k):\n" + "\n".join(missing)
    )


def test_extraction__every_message_it_finds_is_in_the_catalog(found, catalog):
    new = sorted(set(found) - set(catalog))
    assert new == [], "messages without an Arabic entry:\n" + "\n".join(new)


def test_extraction__a_plural_in_the_code_is_a_plural_in_the_catalog(found, catalog):
    differ = sorted(
        k
        for k in set(found) & set(catalog)
        if isinstance(found[k], tuple) != isinstance(catalog[k], tuple)
        or (isinstance(found[k], tuple) and found[k] != catalog[k])
    )
    assert differ == []


def test_extraction__the_committed_template_is_what_it_makes(found):
    committed = messages(TRANSLATIONS / "messages.pot")
    assert committed == found, "run CONTRIBUTING.md's `pybabel extract` command again"


def test_extraction__reads_the_markers_and_the_project_wrappers(found):
    """Each way a message is marked outside ``_()`` reaches the template: the engine's and the
    store's ``N_``, ``lazy_gettext``, ``flash_message`` and both forms of ``flash_plural``,
    and the templates (new-style gettext, ``ngettext`` with its plural)."""
    assert "the counts add up to {total}, not {expected}" in found  # engine, N_
    assert "King of Hearts" in found  # CONTRACT_LABELS, N_
    assert "self-capture credits the leader" in found  # RULES_TEXT, N_
    assert "who doubled it" in found  # SEAT_QUESTIONS, N_
    assert "%(where)s: %(what)s" in found  # said through languages.py's say(N_(...))
    assert "There is no such club night." in found  # the store's Refused(N_(...))
    assert "The contracts’ names are kept on this phone." in found  # flash_message
    assert found["Imported %(num)s game."] == (
        "Imported %(num)s game.",
        "Imported %(num)s games.",
    )  # flash_plural:1,2
    assert found["Standings after %(num)s deal"] == (
        "Standings after %(num)s deal",
        "Standings after %(num)s deals",
    )  # Jinja
    assert "msgid" not in found  # the flash's own key is no message


def test_extraction__the_config_maps_the_code_and_the_templates():
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    assert re.search(r"^\[python: scorekeeper/\*\*\.py\]$", config, re.M)
    assert re.search(r"^\[jinja2: templates/\*\*\.html\]$", config, re.M)
    assert re.search(r"^newstyle_gettext = true$", config, re.M)
    command = documented_command("extract")
    assert command[command.index("-F") + 1] == "babel.cfg"
    assert command[command.index("-o") + 1] == "scorekeeper/translations/messages.pot"
    update = documented_command("update")
    assert update[update.index("-i") + 1] == "scorekeeper/translations/messages.pot"
