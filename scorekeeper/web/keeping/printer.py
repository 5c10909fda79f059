"""The one queue in front of the printing processes: bounded, one render per question, answers kept.

Every PDF and PNG a page sends that is not kept already is made by the printing pool
(``printing/pool.py``), never in a server thread: laying a sheet out is 0.2 s of Python that
held every other request up while it ran. A request that needs one waits for it here, so the
queue also bounds the server's threads that wait:

- at most :data:`QUEUE` different renders are queued or being made, and at most
  :data:`WAITING` requests wait for them (of the server's eight threads: the others answer the
  cheap pages). Past either, the answer is 503 with ``Retry-After``, saying the sheet is being
  prepared;
- of those, each group (the request's database file) has a bounded share, and so has each
  client (the address the app sees, after ProxyFix): at most :data:`GROUP_QUEUE` renders and
  :data:`GROUP_WAITING` waiting requests for one group, :data:`CLIENT_QUEUE` and
  :data:`CLIENT_WAITING` for one client. Past its share, a group's or a client's request gets
  the same 503, and the rest of the queue stays free for the others: one group's flood, or one
  stranger's at a group's shared result, never takes another group's sheets. The pool is
  handed the group as its ``tenant`` too, and serves the groups' waiting jobs in turn;
- a request waits at most :data:`WAIT_SECONDS`; the render goes on and is kept, and the
  answer is the same 503, so that the phone asks again and finds it;
- identical requests share one render: a render is known by its key while it is made, and a
  second request with that key waits for the first one's;
- what depends only on its parameters (the blank sheet, a club night's seating and
  standings, a night's image, a season's poster) is kept in :data:`KEPT`, by a key made of
  every parameter and the database it was read from, so that it is never made twice while it
  is kept and two groups never share one.

The sheets made ahead after a save (``web/keeping/readysheets.py``) go through the same queue, outside
its bound: the worker that asks for them is one thread, one sheet at a time.

A render's key holds only what the server knows: the job's parameters read from the database
and the way of reading it offers (a language, digits, a paper). The table's own words, kept in
a cookie, are never printed (``web/making/words.py``), so no cookie can make a new render.
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
from collections import Counter, deque
from typing import Any, Callable, Hashable, NamedTuple

from flask import Response, current_app, has_app_context, has_request_context, request, send_file
from flask_babel import lazy_gettext
from werkzeug.exceptions import ServiceUnavailable

from ...settings import APP
from ...store.keys import client_of
from ...store.kept import Kept

log = logging.getLogger(__name__)


def _pool():
    """The printing wing's pool, imported when first used."""
    from ...printing import pool

    return pool


#: Different renders queued or being made at once, at most.
QUEUE = 8
#: Requests waiting for a render at once, at most (the server has eight threads).
WAITING = 4
#: One group's share: its renders queued or being made, and its requests waiting, at most.
GROUP_QUEUE = 3
GROUP_WAITING = 2
#: One client's share (an address, or an IPv6 phone's /64), whatever group it asks of.
CLIENT_QUEUE = 2
CLIENT_WAITING = 2
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


class Share(NamedTuple):
    """The most one group, and one client, may hold of the queue: renders queued or being
    made, and requests waiting for them."""

    group_queue: int = GROUP_QUEUE
    group_waiting: int = GROUP_WAITING
    client_queue: int = CLIENT_QUEUE
    client_waiting: int = CLIENT_WAITING


class Flight(NamedTuple):
    """A render under way: its future, the group it is for and the client that asked."""

    future: Future
    group: str
    client: str


def request_client() -> str:
    """Whom a request's share counts for: its address after ProxyFix (an IPv6 phone's /64);
    nobody outside a request (the sheet worker)."""
    return client_of(request.remote_addr) if has_request_context() else ""


class Printer:
    """The bounded, single-flight queue in front of the printing pool, fair to each group and
    each client."""

    def __init__(
        self,
        queue: int = QUEUE,
        waiting: int = WAITING,
        wait_seconds: float = WAIT_SECONDS,
        share: Share = Share(),
    ):
        self.queue, self.waiting, self.wait_seconds = queue, waiting, wait_seconds
        self.share = share
        self._lock = threading.RLock()  # a done callback may run inside make()
        self._flying: dict[Hashable, Flight] = {}
        self._waiting = 0
        #: the requests waiting, by group and by client
        self._waiting_for: Counter[tuple[str, str]] = Counter()
        self._threads: Executor | None = None
        #: renders not yet handed to the pool, by group
        self._pending: dict[str, deque[tuple[Callable[[], Future], Future]]] = {}
        self._handed = 0  # renders handed to the pool and not done
        self._handed_for: Counter[str] = Counter()  # the same, by group
        #: the turn each group with a render waiting or being made was last served in
        self._served: dict[str, int] = {}
        self._turn = 0
        self.made = 0  # renders handed to the pool (tests, benchmarks)
        self.refused: Counter[str] = Counter()  # 503s by the bound met (tests, benchmarks)

    def make(
        self,
        key: Hashable,
        job: str,
        *args: Any,
        ready: Callable[[], Any] | None = None,
        keep: Callable[[Any], None] | None = None,
        bounded: bool = True,
        tenant: str = "",
        **kwargs: Any,
    ) -> Any:
        """What the printing job *job* makes of *args*: ``ready()`` if that is not None, else
        the render of *key* under way, else a new one (given to ``keep`` once made, whoever
        waits for it), for the group *tenant* (its database file). *bounded*: a request,
        which the queue's bounds and the group's and the client's shares apply to; else the
        sheet worker. Raises :class:`Busy` past them or after :data:`WAIT_SECONDS`."""
        client = request_client() if bounded else ""
        with self._lock:
            if ready is not None and (found := ready()) is not None:
                return found
            flight = self._flying.get(key)
            if bounded:
                refused = self._refusal(flight is None, tenant, client)
                if refused:
                    self.refused[refused] += 1
                    raise Busy(self.retry_after())
            if flight is None:
                future = self._submit(job, args, kwargs, tenant)
                flight = Flight(future, tenant, client)
                self._flying[key] = flight
                future.add_done_callback(partial(self._done, key, keep))
            if bounded:
                self._waiting += 1
                self._waiting_for[("group", tenant)] += 1
                self._waiting_for[("client", client)] += 1
        try:
            return flight.future.result(timeout=self.wait_seconds if bounded else None)
        except FutureTimeout:
            raise Busy(self.retry_after()) from None
        except BrokenProcessPool:  # a printing process died: the next render starts afresh
            _pool().shutdown()
            raise Busy(1) from None
        finally:
            if bounded:
                with self._lock:
                    self._waiting -= 1
                    self._waiting_for -= Counter({("group", tenant): 1, ("client", client): 1})

    def _refusal(self, new: bool, group: str, client: str) -> str:
        """Which bound a request for *group* from *client* is past ("" if none): a new
        render counts against the queue's, a request against the waiting ones."""
        if self._waiting >= self.waiting:
            return "waiting"
        if self._waiting_for[("group", group)] >= self.share.group_waiting:
            return "group waiting"
        if self._waiting_for[("client", client)] >= self.share.client_waiting:
            return "client waiting"
        if not new:
            return ""
        if len(self._flying) >= self.queue:
            return "queue"
        flying = self._flying.values()
        if sum(f.group == group for f in flying) >= self.share.group_queue:
            return "group queue"
        if sum(f.client == client for f in flying) >= self.share.client_queue:
            return "client queue"
        return ""

    def retry_after(self) -> int:
        """Seconds until the queue has likely drained."""
        with self._lock:
            queued = len(self._flying)
        return max(1, math.ceil(queued * RENDER_SECONDS / _pool().PRINTERS))

    def busy(self) -> bool:
        with self._lock:
            return bool(self._flying)

    def _submit(self, job: str, args: tuple, kwargs: dict, tenant: str) -> Future:
        """The future of the job's answer: the job is handed to the pool at once while fewer
        of this queue's renders than the pool has printers (``pool.PRINTERS``) are there, else
        as soon as one is done, the groups' waiting jobs in turn, so that one group's renders
        never stand in line before another group's."""
        self.made += 1
        answer: Future = Future()
        with self._lock:
            jobs = self._pending.setdefault(tenant, deque())
            jobs.append((self._hand(job, args, kwargs, tenant), answer))
            self._dispatch()
        return answer

    def _hand(self, job: str, args: tuple, kwargs: dict, tenant: str) -> Callable[[], Future]:
        """What hands the job to the pool (decided now, under the request's app)."""
        pool = _pool()
        if in_process():

            def hand() -> Future:
                try:
                    return pool.submit(job, *args, tenant=tenant, **kwargs)
                except BrokenProcessPool:
                    return pool.submit(job, *args, tenant=tenant, **kwargs)  # started again

            return hand
        if self._threads is None:
            self._threads = ThreadPoolExecutor(pool.PRINTERS, thread_name_prefix="printer")
        return partial(self._threads.submit, pool.run, job, *args, **kwargs)

    def _dispatch(self) -> None:
        """Hand waiting jobs to the pool while it has a printer free, the groups in turn: the
        next job is the one of the group served longest ago (a group new to the queue first)."""
        with self._lock:
            while self._pending and self._handed < _pool().PRINTERS:
                tenant = min(self._pending, key=lambda t: self._served.get(t, -1))
                jobs = self._pending[tenant]
                hand, answer = jobs.popleft()
                if not jobs:
                    del self._pending[tenant]
                self._turn += 1
                self._served[tenant] = self._turn
                self._handed += 1
                self._handed_for[tenant] += 1
                try:
                    made = hand()
                except Exception as exc:  # a pool that cannot start: this render fails
                    self._handed_back(tenant, answer, None, exc)
                    continue
                made.add_done_callback(partial(self._handed_back, tenant, answer))

    def _handed_back(
        self, tenant: str, answer: Future, made: Future | None, failed: Exception | None = None
    ) -> None:
        with self._lock:
            self._handed -= 1
            self._handed_for[tenant] -= 1
            if self._handed_for[tenant] <= 0 and tenant not in self._pending:
                del self._handed_for[tenant], self._served[tenant]  # new again next time
        if made is None:
            answer.set_exception(failed or BrokenProcessPool("the printing pool did not start"))
            return
        if made.cancelled():  # the pool was stopped: as a pool that broke
            answer.set_exception(BrokenProcessPool("the printing pool was stopped"))
        elif made.exception() is not None:
            answer.set_exception(made.exception())
        else:
            answer.set_result(made.result())
        self._dispatch()

    def _done(self, key: Hashable, keep: Callable[[Any], None] | None, future: Future) -> None:
        try:
            if keep is not None and not future.cancelled() and future.exception() is None:
                keep(future.result())
        except Exception:  # keeping failed: the next request makes it again
            log.exception("could not keep a printed answer")
        finally:
            with self._lock:
                flight = self._flying.get(key)
                if flight is not None and flight.future is future:
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
    from ..access.groupspace import database_path as group_database

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
            tenant=key[0],
            **params,
        )
        return made[1] if isinstance(made, tuple) else made
    return PRINTER.make(
        key,
        job,
        ready=partial(KEPT.get, key),
        keep=partial(KEPT.put, key),
        tenant=key[0],
        **params,
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
