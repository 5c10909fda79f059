"""``scorekeeper serve``: the app under waitress, a production WSGI server."""
from __future__ import annotations

import socket
import sys
from typing import Any, Callable

DEFAULT_HOST = "127.0.0.1"
LAN_HOST = "0.0.0.0"
THREADS = 8


def lan_address() -> str:
    """This machine's address on the local network.

    Connecting a UDP socket sends nothing; it only makes the system choose the interface it
    would route through. Falls back to the host name's address.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing is sent
        address = probe.getsockname()[0]
    except OSError:
        address = ""
    finally:
        probe.close()
    if address and not address.startswith("0."):
        return address
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return DEFAULT_HOST


def warm_printer() -> None:
    """Load WeasyPrint and the scoresheet's fonts now, so that the first PDF is quick."""
    try:
        from ..printing import warm_up

        warm_up()
    except Exception as exc:  # the table app works without printing
        print(f"Printing is not available: {exc}", file=sys.stderr)


def serve(host: str | None = None, port: int = 5000, lan: bool = False,
          db_path: str | None = None, *, run: Callable[..., Any] | None = None) -> int:
    """Serve the app; print where to open it. *run* replaces waitress.serve in tests."""
    from . import create_app

    from ..store.backup import BackupError, serving_lock

    config = {"DATABASE": db_path} if db_path else {}
    app = create_app(config)
    try:  # held while the server runs: `scorekeeper restore` waits for it to stop
        lock = serving_lock(app.config["DATABASE"])
    except BackupError as exc:
        print(exc, file=sys.stderr)
        return 1
    bind = host or (LAN_HOST if lan else DEFAULT_HOST)
    shown = lan_address() if bind == LAN_HOST else bind
    if bind == LAN_HOST:  # what the QR code on a page opened at localhost should point to
        app.config["LAN_URL"] = f"http://{shown}:{port}/"
    warm_printer()
    print(f"Trex Scorekeeper on http://{shown}:{port}/")
    if lan:
        print("Open that address on the phones at the table (same Wi-Fi).")
    print(f"Database: {app.config['DATABASE']}")
    print("Stop with Ctrl+C.", flush=True)
    if run is None:
        from waitress import serve as run
    try:
        run(app, host=bind, port=port, threads=THREADS, ident="trex-scorekeeper")
    except OSError as exc:
        print(f"Cannot listen on {bind}:{port}: {exc.strerror or exc}. Is another server "
              f"using that port? Try --port.", file=sys.stderr)
        return 1
    finally:
        if lock is not None:
            lock.close()
    return 0
