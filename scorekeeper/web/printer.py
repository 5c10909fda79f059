"""The one queue in front of the printing processes: bounded, one render per question, answers kept.

Every PDF and PNG a page sends that is not kept already is made by the printing pool
(``printing/pool.py``), never in a server thread: laying a sheet out is 0.2 s of Python that
held every other request up while it ran. A request that needs one waits for it here, so the
queue also bounds the server's threads that wait:

- at most :data:`QUEUE` different renders are queued or being made, and at most
  :data:`WAITING` requests wait for them (of the server's eight threads: the others answer the
  cheap pages). Past either, the answer is 503 with ``Retry-After``, saying the sheet is being
  prepared;
- a request waits at most :data:`WAIT_SECONDS`; the render goes on and is kept, and the
  answer is the same 503, so that the phone asks again and finds it;
- identical requests share one render: a render is known by its key while it is made, and a
  second request with that key waits for the first one's;
- what depends only on its parameters (the blank sheet, a club night's seating and
  standings, a night's image, a season's poster) is kept in :data:`KEPT`, by a key made of
  every parameter and the database it was read from, so that it is never made twice while it
  is kept and two groups never share one.

The sheets made ahead after a save (``web/readysheets.py``) go through the same queue, outside
its bound: the worker that asks for them is one thread, one sheet at a time.
"""

from __future__ import annotations

import hashlib
import io
import logging
import math
import threading
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Callable, Hashable

from flask import Response, current_app, has_app_context, request, send_file
from flask_babel import lazy_gettext
from werkzeug.exceptions import ServiceUnavailable

from ..settings import APP
from ..store.kept import Kept

log = logging.getLogger(__name__)


def _pool():
    """The printing wing's pool, imported when first used."""
    from ..printing import pool

    return pool


#: Different renders queued or being made at once, at most.
QUEUE = 8
#: Requests waiting for a render at once, at most (the server has eight threads).
WAITING = 4
#: How long a request waits for its render before it is told to ask again.
WAIT_SECONDS = 10.0
#: A render's usual time, for the ``Retry-After`` a busy answer gives.
RENDER_SECONDS = 0.4
#: Answers kept by their parameters (each 25 KB to 200 KB).
KEPT: Kept[Any] = Kept(64)

BEING_PREPARED = lazy_gettext(
    "This sheet is being prepared, after others asked for just now. Try again in a few seconds."
)


class Busy(ServiceUnavailable):
    """The queue is full, or the render took longer than a request waits: 503, ask again in
    *retry_after* seconds."""

    def __init__(self, retry_after: int):
        super().__init__(str(BEING_PREPARED), retry_after=retry_after)


class Printer:
    """The bounded, single-flight queue in front of the printing pool."""

    def __init__(
        self, queue: int = QUEUE, waiting: int = WAITING, wait_seconds: float = WAIT_SECONDS
    ):
        self.queue, self.waiting, self.wait_seconds = queue, waiting, wait_seconds
        self._lock = threading.RLock()  # a done callback may run inside make()
        self._flying: dict[Hashable, Future] = {}
        self._waiting = 0
        self._threads: Executor | None = None
        self.made = 0  # renders handed to the pool (tests, benchmarks)

    def make(
        self,
        key: Hashable,
        job: str,
        *args: Any,
        ready: Callable[[], Any] | None = None,
        keep: Callable[[Any], None] | None = None,
        bounded: bool = True,
        **kwargs: Any,
    ) -> Any:
        """What the printing job *job* makes of *args*: ``ready()`` if that is not None, else
        the render of *key* under way, else a new one (given to ``keep`` once made, whoever
        waits for it). *bounded*: a request, which the queue's bounds apply to; else the
        sheet worker. Raises :class:`Busy` past the bounds or after :data:`WAIT_SECONDS`."""
        with self._lock:
            if ready is not None and (found := ready()) is not None:
                return found
            future = self._flying.get(key)
            if bounded and (
                self._waiting >= self.waiting
                or (future is None and len(self._flying) >= self.queue)
            ):
                raise Busy(self.retry_after())
            if future is None:
                future = self._submit(job, args, kwargs)
                self._flying[key] = future
                future.add_done_callback(partial(self._done, key, keep))
            if bounded:
                self._waiting += 1
        try:
            return future.result(timeout=self.wait_seconds if bounded else None)
        except FutureTimeout:
            raise Busy(self.retry_after()) from None
        except BrokenProcessPool:  # a printing process died: the next render starts afresh
            _pool().shutdown()
            raise Busy(1) from None
        finally:
            if bounded:
                with self._lock:
                    self._waiting -= 1

    def retry_after(self) -> int:
        """Seconds until the queue has likely drained."""
        with self._lock:
            queued = len(self._flying)
        return max(1, math.ceil(queued * RENDER_SECONDS / _pool().PRINTERS))

    def busy(self) -> bool:
        with self._lock:
            return bool(self._flying)

    def _submit(self, job: str, args: tuple, kwargs: dict) -> Future:
        self.made += 1
        pool = _pool()
        if in_process():
            try:
                return pool.submit(job, *args, **kwargs)
            except BrokenProcessPool:
                return pool.submit(job, *args, **kwargs)  # started again
        if self._threads is None:
            self._threads = ThreadPoolExecutor(pool.PRINTERS, thread_name_prefix="printer")
        return self._threads.submit(pool.run, job, *args, **kwargs)

    def _done(self, key: Hashable, keep: Callable[[Any], None] | None, future: Future) -> None:
        try:
            if keep is not None and not future.cancelled() and future.exception() is None:
                keep(future.result())
        except Exception:  # keeping failed: the next request makes it again
            log.exception("could not keep a printed answer")
        finally:
            with self._lock:
                if self._flying.get(key) is future:
                    del self._flying[key]


PRINTER = Printer()


def in_process() -> bool:
    """Whether renders run in the printing processes: the app's ``PRINT_IN_PROCESS`` (off in
    tests, which then count and hold them in the printer's threads); its default for the sheet
    worker asked outside any app (a benchmark)."""
    if has_app_context():
        return bool(current_app.config["PRINT_IN_PROCESS"])
    return bool(APP["PRINT_IN_PROCESS"].default)


def database_path() -> str:
    """The request's group's database file: what every kept answer is keyed by."""
    from .groupspace import database_path as group_database

    return group_database()


def answer_key(kind: str, **params: Any) -> tuple[str, str, str]:
    """The key of an answer that depends only on *params* (and the database read)."""
    digest = hashlib.sha256(repr(sorted(params.items())).encode()).hexdigest()
    return (database_path(), kind, digest)


def printed(kind: str, job: str, *, image: bool = False, **params: Any) -> bytes:
    """The PDF that printing job *job* makes of *params* (*image*: its first page as a PNG),
    kept by every parameter: made once while it is kept, whoever asks."""
    key = answer_key(kind, image=image, **params)
    if image:
        made = PRINTER.make(
            key,
            "as_png",
            job,
            ready=partial(KEPT.get, key),
            keep=lambda both: KEPT.put(key, both[1]),
            **params,
        )
        return made[1] if isinstance(made, tuple) else made
    return PRINTER.make(
        key, job, ready=partial(KEPT.get, key), keep=partial(KEPT.put, key), **params
    )


def printed_png(kind: str, job: str, filename: str, **params: Any) -> Response:
    """The answer of the PNG of what printing job *job* makes of *params* (its first page),
    validated by an ETag made of every parameter: a phone that has it gets 304."""
    tag = f"{kind}-" + answer_key(kind, **params)[2][:24]
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        image = printed(kind, job, image=True, **params)
        response = send_file(
            io.BytesIO(image), mimetype="image/png", download_name=filename, max_age=0
        )
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response
