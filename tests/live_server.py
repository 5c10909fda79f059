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


def serve_in_thread(app, **options):
    """*app* under waitress on a free port of 127.0.0.1, in a thread of this process: (the
    server, its thread). Stop it with :func:`stop_in_thread`."""
    import threading

    from waitress import create_server

    server = create_server(app, host="127.0.0.1", port=0, **{"threads": 4, **options})
    server.stopped = False

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):
            # closing the sockets from another thread while the loop polls them: its poll then
            # sees a closed descriptor, which is the stop, not a fault
            if not server.stopped:
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return server, thread


def stop_in_thread(server, thread) -> None:
    """Stop a server of :func:`serve_in_thread` and wait for its thread."""
    server.stopped = True
    server.close()
    thread.join(timeout=5)
