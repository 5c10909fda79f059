"""Issue 27, item 1, through the real server (``scorekeeper serve``, waitress): a burst of
different blank sheets is answered with whole PDFs or 503 with ``Retry-After``, never an error
or a hung connection, and the home page answers meanwhile. Not timed: the figures are
``benchmarks/bench_flood.py``'s."""

from __future__ import annotations

import http.client
import threading
from urllib.parse import urlencode

from live_server import Server


def get(port: int, path: str) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.headers.get("Retry-After", ""), response.read()
    finally:
        connection.close()


def test_item1__a_burst_of_blank_sheets_through_waitress_is_pdfs_or_503_with_retry_after(tmp_path):
    server = Server(tmp_path / "live.sqlite3", tmp_path / "instance").start()
    answers: list[tuple[int, str, bytes]] = []
    lock = threading.Lock()

    def ask(index: int) -> None:
        names = urlencode([("names", f"P{index} {seat}") for seat in range(4)])
        answer = get(server.port, f"/sheet/blank.pdf?{names}")
        with lock:
            answers.append(answer)

    try:
        threads = [threading.Thread(target=ask, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        home = get(server.port, "/")
        for thread in threads:
            thread.join(150)
        assert home[0] == 200
        assert len(answers) == 16
        statuses = sorted(status for status, _, _ in answers)
        assert set(statuses) <= {200, 503}, statuses
        assert statuses.count(503) >= 1, statuses  # sixteen at once are past the bound
        assert all(body.startswith(b"%PDF-") for status, _, body in answers if status == 200)
        assert all(int(retry) >= 1 for status, retry, _ in answers if status == 503)
        assert all(b"being prepared" in body for status, _, body in answers if status == 503)
    finally:
        server.stop()
