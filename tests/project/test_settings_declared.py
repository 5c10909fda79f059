"""Every setting is declared once (issue 30, "Declare every setting once, with its default, in
the app's configuration"): the environment is read only in ``scorekeeper/settings.py``, every
variable read is declared there and named in the hosting guide's "Configuration" section, and every
key of the app's configuration the code reads is declared with its default."""

from __future__ import annotations

import ast
import inspect
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
            if isinstance(arg, ast.Attribute) and arg.attr == "variable":
                continue  # serve's options' variables, read through their declarations
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
    read |= {option.variable for option in settings.SERVE.values() if option.variable}
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
    assert imported <= {"__future__", "os", "re", "dataclasses", "typing"}


# Issue 42, item 5: serve's options are built from their declarations in settings.py, and a
# default is written once.

#: A text for each option's variable, and what the option then holds.
VARIABLE_SAMPLES = {
    "proxy_hops": ("2", 2),
    "public_url": ("https://trex.example.org", "https://trex.example.org"),
    "groups": ("invite", "invite"),
    "log_level": ("WARNING", "warning"),
    "log_format": ("JSON", "json"),
    "workers": ("3", 3),
    "max_groups": ("7", 7),
    "min_free_disk": ("2G", 2 * 1024**3),
    "metrics": ("1", True),
    "secret_key_file": ("site.key", "site.key"),  # a file the fill test writes
}


def serve_parser():
    from scorekeeper.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sub.choices["serve"]


@pytest.fixture
def no_serve_variables(monkeypatch):
    for option in settings.SERVE.values():
        if option.variable:
            monkeypatch.delenv(option.variable, raising=False)


def test_issue42_5__serves_options_are_the_declared_ones_with_their_defaults(no_serve_variables):
    parser = serve_parser()
    own = {a.dest: a for a in parser._actions if a.dest not in ("help", "db", "group", "instance")}
    assert list(own) == list(settings.SERVE)  # every option declared, in the declared order
    given = parser.parse_args([])
    for name, option in settings.SERVE.items():
        assert own[name].option_strings == [option.flag]
        assert getattr(given, name) == option.default, name
        if option.key:  # its default is the app's, declared once
            assert option.default == settings.APP[option.key].default, name
        if option.variable:
            assert f"(default: ${option.variable}, else {option.said})" in own[name].help
    assert (given.host, given.port, given.lan, given.workers) == (None, 5000, False, None)
    assert (given.groups, given.max_groups, given.metrics) == (None, None, False)


def test_issue42_5__a_variable_sets_the_option_it_declares_and_a_flag_wins(monkeypatch):
    declared = {name for name, option in settings.SERVE.items() if option.variable}
    assert set(VARIABLE_SAMPLES) == declared
    for name, (text, _) in VARIABLE_SAMPLES.items():
        monkeypatch.setenv(settings.SERVE[name].variable, text)
    given = serve_parser().parse_args([])
    assert {name: getattr(given, name) for name in declared} == {
        name: value for name, (_, value) in VARIABLE_SAMPLES.items()
    }
    flags = serve_parser().parse_args(["--proxy-hops", "0", "--groups", "--metrics", "0"])
    assert (flags.proxy_hops, flags.groups, flags.metrics) == (0, "open", False)


@pytest.mark.parametrize(
    "variable, text, said",
    [
        ("SCOREKEEPER_GROUPS", "maybe", "give --groups or --groups=invite, not 'maybe'"),
        ("SCOREKEEPER_MIN_FREE_DISK", "lots", "give a size in bytes, or with K, M, G or T"),
        ("SCOREKEEPER_MAX_GROUPS", "-1", "give a number of groups, not '-1'"),
        ("SCOREKEEPER_WORKERS", "many", "invalid int value: 'many'"),
    ],
)
def test_issue42_5__a_wrong_variable_is_refused_in_a_line_as_its_option_is(
    tmp_path, monkeypatch, capsys, variable, text, said
):
    from scorekeeper import cli

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **kw: pytest.fail("served")
    )
    monkeypatch.setenv(variable, text)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and said in err
    flag = next(o.flag for o in settings.SERVE.values() if o.variable == variable)
    assert f"argument {flag}:" in err


def test_issue42_5__serve_fills_the_apps_configuration_from_the_declarations(tmp_path, monkeypatch):
    """Every option with a key of the app's configuration lands there, given by its variable,
    with no mapping written by hand (``settings.serve_config``)."""
    from scorekeeper import cli

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "site.key").write_text("5e" * 32 + "\n")
    (tmp_path / "site.key").chmod(0o600)
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)
    monkeypatch.setattr("scorekeeper.printing.pool.warm_up", lambda: None)
    for name, (text, _) in VARIABLE_SAMPLES.items():
        monkeypatch.setenv(settings.SERVE[name].variable, text)
    monkeypatch.setenv("SCOREKEEPER_WORKERS", "1")
    monkeypatch.setenv("SCOREKEEPER_METRICS", "0")  # no metrics folder made for this
    served = []
    monkeypatch.setattr(
        "scorekeeper.web.serve.serve_until_stopped", lambda app, **kw: served.append((app, kw))
    )
    assert cli.main(["serve", "--port", "5077"]) == 0
    app, kwargs = served[0]
    keyed = {o.key: VARIABLE_SAMPLES[n][1] for n, o in settings.SERVE.items() if o.key}
    keyed["METRICS"] = False
    assert {key: app.config[key] for key in keyed} == keyed
    assert (kwargs["port"], kwargs["workers"]) == (5077, 1)
    assert app.secret_key == "5e" * 32  # the key file's, never printed


def test_issue42_5__a_default_is_written_once(tmp_path):
    from scorekeeper.web import serve as serve_module

    with pytest.raises(ValueError, match="one of them"):
        settings.Option("--x", "m", "h", key="PROXY_HOPS", default=3)
    with pytest.raises(ValueError, match="one of them"):
        settings.Option("--x", "m", "h")
    for option in settings.SERVE.values():  # the variables' defaults are the options'
        if option.variable:
            assert settings.ENVIRONMENT[option.variable].default == option.said
    # the server takes the options' mapping, not a keyword (with its default) per option
    parameters = inspect.signature(serve_module.start).parameters
    assert not set(parameters) & set(settings.SERVE)
    # the command line writes no flag of its own: each comes from its declaration
    tree = ast.parse((PACKAGE / "cli" / "serve.py").read_text(encoding="utf-8"))
    literals = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)} & {
        option.flag for option in settings.SERVE.values()
    }
    assert literals == set()


def configuration_table() -> dict[str, list[str]]:
    """The docs' table of serve's options (README.md, or where the docs moved it): each row's
    cells, backticks left out, by its flag."""
    header = "| option | variable | default | what it sets |"
    for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        text = path.read_text(encoding="utf-8")
        if header in text:
            rows = text.split(header, 1)[1].strip().split("\n\n", 1)[0].splitlines()[1:]
            cells = [[c.strip().replace("`", "") for c in r.strip("|").split("|")] for r in rows]
            return {re.split(r"[ =\[]", row[0])[0]: row for row in cells}
    raise AssertionError(f"no table {header!r} in the README or docs/")


def test_issue42_5__the_docs_say_each_options_variable_and_default_as_declared():
    table = configuration_table()
    for option in settings.SERVE.values():
        _, variable, default, _ = table[option.flag]
        assert variable.split(" ")[0] == (option.variable or ""), option.flag
        assert default == option.said, option.flag
