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


PAGES = PACKAGE / "web" / "pages"


def page_names() -> set[str]:
    """The modules of ``web/pages/`` that are pages: each holds a blueprint, ``bp``. A module
    beside them without one is a helper the pages share, and lends nothing of a page."""
    import importlib

    from flask import Blueprint

    found = set()
    for path in PAGES.glob("*.py"):
        if path.name != "__init__.py":
            module = importlib.import_module(f"scorekeeper.web.pages.{path.stem}")
            if isinstance(getattr(module, "bp", None), Blueprint):
                found.add(path.stem)
    return found


def relative_imports(path: Path, folder: Path):
    """``(module, names)`` for each ``from .module import names`` of *path* whose module is in
    *folder* (``from . import module`` gives each module with ``*``)."""
    import ast

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:  # from . import page
                for alias in node.names:
                    yield alias.name, {"*"}
            elif (folder / f"{node.module}.py").is_file():
                yield node.module, {alias.name for alias in node.names}


def test_pages_import_of_other_pages_only_what_pages_init_says_they_share():
    """``pages/__init__.py`` says which names of a page other pages import (``SHARED``): every
    import between pages is one of them, and each of them is imported by a page."""
    from scorekeeper.web.pages import SHARED

    pages = page_names()
    imported: dict[str, set[str]] = {}
    for path in sorted(PAGES.glob("*.py")):
        if path.stem in pages:
            for module, names in relative_imports(path, PAGES):
                if module in pages:
                    imported.setdefault(module, set()).update(names)
    assert imported == {page: set(names) for page, names in SHARED.items()}


def test_issue42_1__what_pages_lent_each_other_is_defined_once_outside_the_pages():
    """A printed answer and its language, a QR code, the entrants' name check and the charts'
    sizes and keys are each defined once, in a module named for what it is, and in no page."""
    import ast

    lent = {
        "pdf_response": "printouts",
        "slug": "printouts",
        "print_language": "printouts",
        "sheet_name": "printouts",
        "sheet_png_response": "printouts",
        "qr_svg": "qrcodes",
        "name_refusal": "entrants",
        "RUNNING_HEIGHT": "svgcharts",
        "keys": "svgcharts",
        "COLOURS": "svgcharts",
        "running_totals_svg": "svgcharts",
    }
    defined: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in names:
                defined.setdefault(name, []).append(path.relative_to(PACKAGE / "web").stem)
    assert {name: defined.get(name) for name in lent} == {
        name: [module] for name, module in lent.items()
    }
    assert "poster_language" not in defined  # seasons' copy of print_language is gone


def test_issue42_1__the_modules_pages_share_import_no_page():
    """A module the pages share (in ``web/`` or beside them in ``web/pages/``) imports no page:
    else a page would lend through it. Only the app factory and ``web/groupsite.py`` import pages."""
    pages = page_names()
    web = PACKAGE / "web"
    helpers = [p for p in PAGES.glob("*.py") if p.stem not in pages and p.name != "__init__.py"]
    helpers += [
        p
        for p in web.rglob("*.py")
        if PAGES not in p.parents and p not in (web / "__init__.py", web / "groupsite.py")
    ]
    reaching = {}
    for path in sorted(helpers):
        folder = PAGES if path.parent == PAGES else path.parent
        for module, names in relative_imports(path, folder):
            if folder == PAGES and module in pages:
                reaching.setdefault(path.name, set()).add(module)
        text = path.read_text(encoding="utf-8")
        if folder != PAGES and (
            "pages import" in text or ".pages" in text or "import pages" in text
        ):
            reaching.setdefault(path.name, set()).add("pages")
    assert reaching == {}
