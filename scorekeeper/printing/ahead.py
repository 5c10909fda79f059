"""Sheets made ahead in a process of their own, so that laying one out never holds up the table.

Laying a full sheet out is about 0.2 s of Python (WeasyPrint) under one lock, Python's: in a
thread of the server it kept every request waiting while it ran. A sheet made ahead after a
save (the web wing's sheet worker) is laid out here instead, in one worker process at a lower
priority, from the game's document (the game file's dict), which the worker reads with the
engine as the server does. One process, one sheet at a time: printing takes at most one core,
and on a machine of two the other is the table's.

The worker is started on first use with ``forkserver`` where the system has it (else
``spawn``), never by forking a threaded server, and kept for the next sheet. A sheet a phone
asks for that is not ready is still laid out in the request itself: the phone waits for that
one, and handing it to another process would only add to the wait.
"""
from __future__ import annotations

import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Mapping, Sequence

from ..engine import processes

#: How much lower the worker's priority is than the server's (``os.nice``).
NICE = 5

_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None


def _executor_now() -> ProcessPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = processes.pool(1, NICE)
        return _executor


def lay_out(document: Mapping[str, Any], paper: str, lang: str, digits: str,
            words: Sequence[tuple[str, str]]) -> bytes:
    """In the worker: the game of *document* read by the engine (leniently, as a stored game
    is read) and its sheet laid out in this way of reading it."""
    from ..engine import read_game
    from ..engine.contracts import Contract
    from .render import render_game_pdf

    return render_game_pdf(read_game(dict(document), strict=False), paper=paper, lang=lang,
                           digits=digits, contract_words={Contract(c): w for c, w in words})


def render_in_worker(document: Mapping[str, Any], *, paper: str, lang: str, digits: str,
                     words: Sequence[tuple[str, str]]) -> bytes:
    """The PDF of the game of *document*, laid out in the worker process (waits for it)."""
    try:
        return _executor_now().submit(lay_out, dict(document), paper, lang, digits,
                                      tuple(words)).result()
    except BrokenProcessPool:
        shutdown()  # started again for the next sheet
        raise


def shutdown() -> None:
    """Stop the worker (it starts again for the next sheet)."""
    global _executor
    with _lock:
        pool, _executor = _executor, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
