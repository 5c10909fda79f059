"""The web wing's rooms (ARCHITECTURE.md, "The web wing"): each imports only the rooms below it,
never one above, read with ``ast`` at any depth (a function's late import counts too).

``access`` (who may do what, where) ← ``making`` (what pages are made of) ← ``keeping`` (answers
kept or bounded) ← ``serving`` (the server's processes, stop, log, figures) ← ``pages`` (one
blueprint per feature) ← the app itself (``web/__init__.py``, ``serve.py``, ``groupsite.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "scorekeeper" / "web"

#: The rooms, lowest first: a room may import those before it.
ROOMS = ("access", "making", "keeping", "serving", "pages")
TOP = "top"


def room_of(path: Path) -> str:
    parts = path.relative_to(WEB).parts
    return parts[0] if len(parts) > 1 and parts[0] in ROOMS else TOP


def rank(room: str) -> int:
    return ROOMS.index(room) if room in ROOMS else len(ROOMS)


def imported_rooms(path: Path) -> set[tuple[str, int]]:
    """The rooms of the web wing *path* imports, with the line of each import."""
    package = path.parent.relative_to(WEB.parent.parent).parts
    if path.name == "__init__.py":
        package = path.relative_to(WEB.parent.parent).parent.parts
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[list[str]] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
            else:
                base = []
            module = base + (node.module.split(".") if node.module else [])
            if node.module is None:
                targets = [module + [alias.name] for alias in node.names]
            else:
                targets = [module]
        elif isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        for target in targets:
            if target[:2] != ["scorekeeper", "web"]:
                continue
            room = (
                target[2] if len(target) > 3 or (len(target) == 3 and target[2] in ROOMS) else TOP
            )
            if len(target) > 3 and target[2] not in ROOMS:
                room = TOP
            found.add((room, node.lineno))
    return found


MODULES = sorted(p for p in WEB.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_web_wing_has_its_rooms_and_only_a_few_modules_at_the_top():
    top = sorted(p.name for p in MODULES if room_of(p) == TOP)
    assert top == ["__init__.py", "groupsite.py", "serve.py"]
    for room in ROOMS:
        assert (WEB / room / "__init__.py").exists()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(WEB)))
def test_a_room_imports_only_the_rooms_below_it(path):
    here = room_of(path)
    upward = sorted(
        (room, line)
        for room, line in imported_rooms(path)
        if room != here and rank(room) > rank(here)
    )
    assert upward == [], f"{path.relative_to(WEB)} ({here}) imports a room above it: {upward}"


def test_the_room_check_sees_an_import_back_up(tmp_path):
    """The check can fail: a module of ``access`` that imports a page is caught."""
    fake = WEB / "access" / "_probe_for_the_test.py"
    try:
        fake.write_text("from ..pages import games\n")
        assert ("pages", 1) in imported_rooms(fake)
    finally:
        fake.unlink()
