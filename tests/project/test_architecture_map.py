"""ARCHITECTURE.md is a true map (issue 30): every module under scorekeeper/ is named in it,
and every module it names exists.

A module is named by its path in backticks, from its wing (``store/kept.py``) or, inside its
wing's section (``## `scorekeeper/<wing>/` ``), from the wing's folder (``kept.py``,
``pages/deals.py``); a package's ``__init__.py`` by its folder (``advisor/``) or as
``__init__.py`` in its section; the modules beside the wings by their names.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
MAP = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
WINGS = ("engine", "store", "printing", "web", "cli")


def sections() -> dict[str, str]:
    """Each wing's section of the map, by wing."""
    found = {}
    for wing in WINGS:
        match = re.search(rf"^## `scorekeeper/{wing}/`.*?(?=^## |\Z)", MAP, re.M | re.S)
        assert match is not None, f"ARCHITECTURE.md has no section for {wing}/"
        found[wing] = match.group(0)
    return found


def names_for(module: Path) -> tuple[list[str], str]:
    """The backticked names that name *module*, and the wing whose section may use the short
    ones ("" for the modules beside the wings)."""
    parts = module.relative_to(PACKAGE).parts
    if len(parts) == 1:
        return [f"`{parts[0]}`", f"`scorekeeper/{parts[0]}`"], ""
    wing, inner = parts[0], "/".join(parts[1:])
    if module.name == "__init__.py":
        folder = "/".join(parts[:-1])
        inner_folder = "/".join(parts[1:-1])
        short = (
            [f"`{inner_folder}/`", f"`{inner_folder}/__init__.py`"]
            if inner_folder
            else ["`__init__.py`"]
        )
        return [
            f"`{folder}/`",
            f"`{folder}/__init__.py`",
            f"`scorekeeper/{folder}/`",
            *[f"\0{wing}\0{name}" for name in short],
        ], wing
    return [f"`{wing}/{inner}`", f"`scorekeeper/{wing}/{inner}`", f"\0{wing}\0`{inner}`"], wing


def is_named(module: Path, wing_sections: dict[str, str]) -> bool:
    names, _wing = names_for(module)
    for name in names:
        if name.startswith("\0"):
            _, wing, short = name.split("\0")
            if short in wing_sections[wing]:
                return True
        elif name in MAP:
            return True
    return False


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_under_scorekeeper_is_named_in_architecture_md():
    wing_sections = sections()
    missing = [str(m.relative_to(PACKAGE)) for m in modules() if not is_named(m, wing_sections)]
    assert missing == [], f"name these in ARCHITECTURE.md: {missing}"


def test_every_module_architecture_md_names_exists():
    wing_sections = sections()
    gone = []
    for wing, text in wing_sections.items():
        for name in re.findall(r"`([\w/]+\.py)`", text):
            if name.startswith("tests/"):
                continue
            candidates = [PACKAGE / wing / name, PACKAGE / name]
            if not any(c.is_file() for c in candidates):
                gone.append(f"{wing}: {name}")
    for name in re.findall(r"`((?:engine|store|printing|web|cli)/[\w/]+\.py)`", MAP):
        if not (PACKAGE / name).is_file():
            gone.append(name)
    assert gone == [], f"ARCHITECTURE.md names modules that are gone: {gone}"


def test_pages_import_of_other_pages_only_what_pages_init_says_they_share():
    """``pages/__init__.py`` says which names of a page other pages import (``SHARED``): every
    import between pages is one of them, and each of them is imported by a page."""
    import ast

    from scorekeeper.web.pages import SHARED

    pages = PACKAGE / "web" / "pages"
    imported: dict[str, set[str]] = {}
    for path in sorted(p for p in pages.glob("*.py") if p.name != "__init__.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module is None:  # from . import page
                    for alias in node.names:
                        imported.setdefault(alias.name, set()).add("*")
                elif (pages / f"{node.module}.py").is_file():
                    names = {alias.name for alias in node.names}
                    imported.setdefault(node.module, set()).update(names)
    assert imported == {page: set(names) for page, names in SHARED.items()}
