"""The layout is the architecture: each wing imports in one direction only (ARCHITECTURE.md).

engine ← store ← web / cli, with printing beside the store. The imports are read with ``ast``
from every module of the package, at any depth (a function's late import counts too).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"

#: What each wing may import of the project (besides itself).
#: ``settings`` (every setting and environment variable, declared once) imports nothing of the
#: project, and every wing but the engine may read it: the engine imports nothing outside
#: itself (what the simulator needs of the settings, its caller passes in).
ALLOWED = {
    "engine": set(),
    "languages": {"engine"},
    "site": set(),
    "settings": set(),
    "store": {"engine", "settings"},
    "printing": {"engine", "languages", "site"},
    "web": {"engine", "store", "printing", "languages", "site", "settings"},
    "cli": {"engine", "store", "printing", "languages", "web", "settings"},
}
#: Third-party packages a wing must not import.
FORBIDDEN_PACKAGES = {
    "engine": {
        "flask",
        "flask_wtf",
        "flask_babel",
        "wtforms",
        "sqlite_utils",
        "weasyprint",
        "jinja2",
        "werkzeug",
        "babel",
        "markupsafe",
    },
    "store": {
        "flask",
        "flask_wtf",
        "flask_babel",
        "wtforms",
        "weasyprint",
        "jinja2",
        "babel",
        "markupsafe",
    },
    "printing": {"flask", "flask_wtf", "flask_babel", "wtforms", "sqlite_utils"},
    "languages": {"flask", "flask_babel", "sqlite_utils", "weasyprint"},
}
#: The one CLI module that may import the web wing (to run the server).
CLI_WEB_GATE = "scorekeeper.cli.serve"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """Every module *name* imports: absolute names, relative ones resolved, and for
    ``from package import name`` the submodule when there is one."""
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            for alias in node.names:
                if f"{target}.{alias.name}" in known:
                    found.add(f"{target}.{alias.name}")
    return found


#: The package itself and ``python -m scorekeeper``, which runs the command line.
ENTRY_POINTS = {"scorekeeper", "scorekeeper.__main__"}


def wing(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and name not in ENTRY_POINTS else ""


def project_graph() -> dict[str, set[str]]:
    known = modules()
    return {
        name: {i for i in imports_of(name, path) if i in known and i != name}
        for name, path in known.items()
    }


def test_every_module_belongs_to_a_wing():
    unknown = sorted({wing(name) for name in modules()} - set(ALLOWED) - {""})
    assert unknown == [], f"modules outside the wings of ARCHITECTURE.md: {unknown}"


@pytest.mark.parametrize("name", sorted(modules()))
def test_imports_follow_the_direction_of_the_wings(name):
    path = modules()[name]
    here = wing(name)
    if not here:  # the entry points
        assert name in ENTRY_POINTS
        return
    wrong = []
    for target in sorted(imports_of(name, path)):
        top = target.split(".")[0]
        if top == "scorekeeper":
            there = wing(target)
            if there and there != here and there not in ALLOWED[here]:
                wrong.append(target)
            if there == "web" and here == "cli" and name != CLI_WEB_GATE:
                wrong.append(f"{target} (only {CLI_WEB_GATE} may import the web wing)")
            if there == "cli" and here != "cli":
                wrong.append(f"{target} (nothing imports the command line)")
        elif top in FORBIDDEN_PACKAGES.get(here, ()):
            wrong.append(target)
    assert wrong == [], f"{name} imports against the direction of the wings: {wrong}"


def test_no_circular_imports():
    """No module reaches itself through the project's imports, at any depth."""
    graph = project_graph()
    # Importing a submodule imports its packages first; that is not a cycle of the code.
    edges = {
        name: {t for t in targets if not name.startswith(t + ".")}
        for name, targets in graph.items()
    }
    cycles, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = "open"
        stack.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append(stack[stack.index(target) :] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert cycles == [], "circular imports: " + "; ".join(" → ".join(c) for c in cycles)


def test_the_checker_sees_a_wrong_import(tmp_path, monkeypatch):
    """The direction check fails on a store module that imports Flask or the web wing."""
    store = tmp_path / "scorekeeper" / "store"
    store.mkdir(parents=True)
    (tmp_path / "scorekeeper" / "__init__.py").write_text("")
    (store / "__init__.py").write_text("")
    bad = store / "bad.py"
    bad.write_text("def f():\n    from flask import g\n    from ..web import rights\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "scorekeeper")
    assert {"flask", "scorekeeper.web"} <= imports_of("scorekeeper.store.bad", bad)
    with pytest.raises(AssertionError, match="against the direction"):
        test_imports_follow_the_direction_of_the_wings("scorekeeper.store.bad")


def test_the_cycle_finder_sees_a_cycle(tmp_path, monkeypatch):
    package = tmp_path / "scorekeeper"
    (package / "store").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "store" / "__init__.py").write_text("")
    (package / "store" / "a.py").write_text("from . import b\n")
    (package / "store" / "b.py").write_text("def f():\n    from .a import x\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    with pytest.raises(AssertionError, match="scorekeeper.store.a → scorekeeper.store.b"):
        test_no_circular_imports()


def run_python(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_a_script_reads_statistics_from_the_store_without_the_web_app(tmp_path):
    """The store alone opens a database and reads a player's statistics: Flask never loads."""
    database = tmp_path / "night.sqlite3"
    code = f"""
import json, sys
from scorekeeper import store
from scorekeeper.engine import HouseRules
db = store.open_database({str(database)!r})
game = store.storage.create_game(db, title="Tuesday", played_on="2026-11-24",
    players=["Aya", "Bilal", "Carla", "Dana"], rules=HouseRules(), first_king=0)
store.storage.add_deal(db, game, {{"king": 0, "contracts": ["diamonds"],
    "diamonds": [4, 3, 3, 3]}}, token="t" * 20, number=1)
roster = {{row["name"]: row["id"] for row in store.stats.roster(db)}}
summary = store.stats.player_summary(db, roster["Aya"], store.stats.Filters())
print(json.dumps([sorted(roster), summary["in_progress"], "flask" in sys.modules,
                  "scorekeeper.web" in sys.modules]))
"""
    names, in_progress, flask, web = json.loads(run_python(code))
    assert names == ["Aya", "Bilal", "Carla", "Dana"] and in_progress == 1
    assert flask is False and web is False


def test_the_command_line_loads_neither_flask_nor_weasyprint_to_start():
    code = (
        "import sys; from scorekeeper import cli; cli.build_parser(); "
        "print(sorted(m for m in ('flask', 'weasyprint', 'scorekeeper.web') "
        "if m in sys.modules))"
    )
    assert run_python(code) == "[]"
