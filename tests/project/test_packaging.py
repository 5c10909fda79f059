"""What an install carries: every package of the code and every folder of templates and static
files is named in ``pyproject.toml`` (its packages are listed by hand, so a new folder is easily
left out, and an installed app then fails to start or to find a page's template)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def declared() -> tuple[set[str], dict[str, list[str]]]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return set(setuptools["packages"]), setuptools["package-data"]


def test_every_package_of_the_code_is_installed():
    packages, _ = declared()
    code = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "scorekeeper").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert code - packages == set()


def test_every_folder_of_templates_and_static_files_is_installed_with_its_files():
    packages, data = declared()
    for folder, package in (
        ("templates", "scorekeeper.site.templates"),
        ("static", "scorekeeper.site.static"),
    ):
        for path in [ROOT / folder, *(p for p in (ROOT / folder).rglob("*") if p.is_dir())]:
            name = ".".join([package, *path.relative_to(ROOT / folder).parts])
            assert name in packages, f"{path.relative_to(ROOT)} is not installed: add {name}"
            assert data.get(name) == ["*"], f"{name} has no package data"
