"""The engine and the store type-check clean under mypy, with the options of pyproject.toml's
``[tool.mypy]`` (``bash tests/run.sh --lint`` runs the same check, and ruff's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_engine_and_the_store():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "scorekeeper/engine", "scorekeeper/store"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing_under_the_configured_rules():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
