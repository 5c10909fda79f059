"""What a maintainer expects of a Python package: one version, a license, ``--version`` and
``python -m scorekeeper``."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import metadata, version
from pathlib import Path

import scorekeeper

ROOT = Path(__file__).resolve().parents[1]


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
