"""What a maintainer expects of a Python package: one version, a license, ``--version`` and
``python -m scorekeeper``."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import metadata, version
from pathlib import Path

import scorekeeper

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_written_once_and_the_package_reports_it():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and '\nversion = "' not in pyproject
    assert version("trex-scorekeeper") == scorekeeper.__version__


def test_scorekeeper_version_and_python_m_scorekeeper():
    for command in (["-m", "scorekeeper", "--version"], ["-m", "scorekeeper.cli", "--version"]):
        out = subprocess.run([sys.executable, *command], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == f"scorekeeper {scorekeeper.__version__}"


def test_python_m_scorekeeper_runs_a_command(tmp_path):
    game = ROOT / "benchmarks" / "full_game.json"
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score", str(game)], capture_output=True, text=True
    )
    assert out.returncode == 0 and "total" in out.stdout


def test_the_license_is_shipped_and_declared():
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    # the code is MIT; the wheel also carries the DejaVu fonts (Bitstream Vera and Arev licences)
    assert (
        metadata("trex-scorekeeper")["License-Expression"]
        == "MIT AND Bitstream-Vera AND LicenseRef-Arev-Fonts"
    )


WINGS = {"engine", "store", "printing", "cli", "web", "browser", "project"}


def test_every_test_file_sits_in_the_folder_of_a_wing():
    """CONTRIBUTING.md "Where the tests are": no test module in tests/ itself, and no folder
    beyond the wings' (a new one must be added to pytest's pythonpath and to the table)."""
    tests = ROOT / "tests"
    loose = sorted(p.name for p in tests.glob("test_*.py"))
    assert loose == [], f"move these into a wing's folder: {loose}"
    folders = {p.parent.name for p in tests.rglob("test_*.py") if p.parent != tests}
    assert folders <= WINGS, f"folders that are not a wing's: {folders - WINGS}"


def test_the_names_of_test_files_are_unique_and_every_folder_is_on_the_import_path():
    """Test modules import each other by name (pytest's pythonpath), which finds one file only
    when no two folders hold a file of the same name."""
    import tomllib

    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert set(config["pythonpath"]) == {"tests"} | {f"tests/{wing}" for wing in WINGS}
