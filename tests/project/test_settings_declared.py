"""Every setting is declared once (issue 30, "Declare every setting once, with its default, in
the app's configuration"): the environment is read only in ``scorekeeper/settings.py``, every
variable read is declared there and named in the hosting guide's "Configuration" section, and every
key of the app's configuration the code reads is declared with its default."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scorekeeper import settings
from scorekeeper.web import create_app

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
SETTINGS = PACKAGE / "settings.py"
#: os's ways to the environment
ENVIRONMENT_NAMES = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}
#: Flask's and Flask-Babel's own keys the code sets for them to read (the hosted mode, the
#: package's catalog), never reads itself
WRITTEN_FOR_FLASK = {
    "SESSION_COOKIE_SECURE",
    "PREFERRED_URL_SCHEME",
    "BABEL_TRANSLATION_DIRECTORIES",
}


def modules() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))}


def environment_touches(tree: ast.Module) -> list[int]:
    """The lines of *tree* that reach the environment through ``os``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT_NAMES:
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if {a.name for a in node.names} & ENVIRONMENT_NAMES:
                lines.append(node.lineno)
    return lines


def variables_read(tree: ast.Module) -> set[str]:
    """The names given to ``settings.environ`` and ``set_environ`` in *tree*: literals, or a
    module constant holding one."""
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name in ("environ", "set_environ"):
            arg = node.args[0]
            found.add(arg.value if isinstance(arg, ast.Constant) else constants[arg.id])
    return found


def config_keys_read(tree: ast.Module) -> set[str]:
    """The keys read as ``<something>.config["KEY"]``."""
    return {
        node.slice.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "config"
        and isinstance(node.slice, ast.Constant)
    }


def test_item_settings__the_environment_is_read_in_settings_alone():
    touches = {
        str(path.relative_to(ROOT)): lines
        for path, tree in modules().items()
        if path != SETTINGS and (lines := environment_touches(tree))
    }
    assert touches == {}
    assert environment_touches(ast.parse(SETTINGS.read_text(encoding="utf-8")))  # it does read


def test_item_settings__every_variable_read_is_declared_and_every_declared_one_read():
    read = set().union(*(variables_read(tree) for tree in modules().values()))
    assert read == set(settings.ENVIRONMENT)


def test_item_settings__an_undeclared_variable_is_refused():
    with pytest.raises(KeyError, match="SCOREKEEPER_NOTHING is not declared"):
        settings.environ("SCOREKEEPER_NOTHING")


def test_item_settings__every_variable_is_in_the_hosting_guides_configuration_section():
    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    section = guide.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`\$?%?([A-Z][A-Z0-9_]+)%?`", section))
    assert set(settings.ENVIRONMENT) - named == set()


def test_item_settings__every_config_key_the_code_reads_is_declared_with_its_default():
    read = set().union(*(config_keys_read(tree) for tree in modules().values()))
    assert read - set(settings.APP) == set()
    assert not read & WRITTEN_FOR_FLASK
    no_gets = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "setdefault")
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "config"
    ]
    assert no_gets == []  # a default said at the reader would be a second declaration


def test_item_settings__the_app_starts_from_the_declared_defaults(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "s.sqlite3"), "INSTANCE_PATH": str(tmp_path)})
    for key, setting in settings.APP.items():
        if key not in ("DATABASE", "SECRET_KEY"):  # filled from the instance folder
            assert app.config[key] == setting.default, key
    assert all(s.meaning for s in (*settings.APP.values(), *settings.ENVIRONMENT.values()))


def test_item_settings__settings_imports_only_the_standard_library():
    tree = ast.parse(SETTINGS.read_text(encoding="utf-8"))
    imported = {
        (node.module or "").split(".")[0] if isinstance(node, ast.ImportFrom) else a.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for a in node.names
    }
    assert imported <= {"__future__", "os", "dataclasses", "typing"}
