"""The version changes with each release, taken from the changelog (issue 39, item 5): the
newest release's heading in CHANGELOG.md is ``scorekeeper.__version__``, every release has a
number and a date, newest first, and UPGRADING.md says what each one changes."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import scorekeeper
from scorekeeper.store.schema import migrations

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
UPGRADING = (ROOT / "UPGRADING.md").read_text(encoding="utf-8")
RELEASE = re.compile(r"\[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d\d-\d\d)")


def releases() -> list[tuple[tuple[int, int, int], date]]:
    """Each release's number and date, as the changelog's headings give them, in its order."""
    found = []
    for heading in re.findall(r"^## (.*)$", CHANGELOG, re.M):
        if heading == "Unreleased":
            continue
        match = RELEASE.fullmatch(heading)
        assert match, f"a release's heading is '## [X.Y.Z] - YYYY-MM-DD', not {heading!r}"
        found.append((tuple(map(int, match.groups()[:3])), date.fromisoformat(match[4])))
    return found


def test_issue39_5__the_version_is_the_newest_release_in_the_changelog():
    listed = releases()
    assert listed, "CHANGELOG.md names no release"
    newest, _ = listed[0]
    assert scorekeeper.__version__ == ".".join(map(str, newest))
    assert scorekeeper.__version__ != "0.1.0"  # the version of 80 commits and more, released


def test_issue39_5__the_releases_are_numbered_and_dated_newest_first():
    listed = releases()
    numbers = [number for number, _ in listed]
    dates = [when for _, when in listed]
    assert numbers == sorted(set(numbers), reverse=True), "each number once, newest first"
    assert dates == sorted(dates, reverse=True)
    assert len(listed) >= 2
    headings = re.findall(r"^## (.*)$", CHANGELOG, re.M)
    assert "Unreleased" not in headings[1:], "what is not released yet stands on top"


def test_issue39_5__scorekeeper_version_prints_the_changelogs_version():
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--version"], capture_output=True, text=True
    )
    newest, _ = releases()[0]
    assert out.stdout.strip() == f"scorekeeper {'.'.join(map(str, newest))}"


def test_issue39_5__upgrading_says_what_each_release_changes_and_names_every_migration():
    for number, _ in releases():
        assert re.search(rf"^### .*\b{re.escape('.'.join(map(str, number)))}\b", UPGRADING, re.M), (
            f"UPGRADING.md has no section for {number}"
        )
    for migration in migrations._migrations:
        assert f"`{migration.name}`" in UPGRADING, f"UPGRADING.md does not name {migration.name}"


def test_issue39_5__the_readme_and_its_hosting_part_link_upgrading():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(UPGRADING.md)" in readme
    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert guide.count("(../UPGRADING.md)") >= 2
    hosted = guide[guide.index("\n## Many groups on one box\n") :]
    assert "(../UPGRADING.md)" in hosted
    assert "UPGRADING.md" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
