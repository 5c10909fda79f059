"""The production server in its own process and the phones that drive it over HTTP, for the
crash, backup and load tests: the same code as ``benchmarks/load_tables.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from load_tables import (  # noqa: E402
    Phone,
    Server,
    TableRun,
    enter_deal,
    free_port,
    hidden_fields,
    play_table,
    report,
    run_load,
    simulated,
    verify,
)

__all__ = [
    "Phone",
    "Server",
    "TableRun",
    "enter_deal",
    "free_port",
    "hidden_fields",
    "play_table",
    "report",
    "run_load",
    "simulated",
    "verify",
]
