"""One set of worker processes for the whole box: the printing processes and the advisor's,
shared by every server process, however many ``serve --workers`` there are.

Before, each server process started its own pools (half the cores to print, every core to
advise), its own fork server and its own resource tracker: on 16 cores and 16 workers, 177
processes and 5.65 GB at rest. Now the process that runs ``serve`` starts one *service* (a
process of its own, ``python -m scorekeeper.engine.service``, started before any server
process is forked and before any thread) that owns the pools, each started as
:mod:`.processes` starts them (``forkserver``, a lower priority, ended with the service). The
server processes hand it jobs over a Unix socket in a folder of their own (mode 0700), with a
key only they know (``multiprocessing.connection``'s challenge), and get the results back.

- A job is a plain function and its arguments (pickled by reference, as a process pool takes
  them) and the pool it runs in, described by :class:`Spec`: the service starts that pool on
  its first job (the advisor's on the first question).
- Waiting jobs are served round-robin across *tenants* (a group's database path): a group
  that asks for one sheet while another has a hundred waiting waits for one of theirs, not for
  the hundred. A pool runs at most as many jobs as it has processes; the rest wait in the
  service. The service passes a job's bytes on to its pool without unpickling them.
- A job whose service is gone (killed, restarting) or whose process died fails with
  ``BrokenProcessPool``, as a job of a local pool does: the page answers "being prepared" and
  the advice is played in the server's process. The process that started the service starts
  it again (:class:`Keeper`).
- The service ends with the process that started it (``PR_SET_PDEATHSIG``, or a watch), and
  its pools' processes end with it: a ``kill -9`` of ``serve`` leaves nothing behind.

Where no service was started (the laptop's tests, the command line's ``advise``, a benchmark),
:func:`connected` is False and each pool is the process's own, as before.
"""

from __future__ import annotations

import logging
import os
import pickle
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.connection import Client, Listener
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .processes import die_with_parent, pool, stop, stop_all

log = logging.getLogger(__name__)

#: The socket's name in the service's folder, and how that folder's name starts.
SOCKET = "jobs.sock"
FOLDER = "scorekeeper-jobs-"
#: How long the process that starts the service waits for its socket.
START_SECONDS = 10.0
#: A service that dies within this many seconds of its start is not started again at once.
RESTART_PAUSE = 1.0
#: How long a stopping service is given before it is killed (its processes then end with it).
STOP_SECONDS = 0.5
KEY_BYTES = 32


class Spec(NamedTuple):
    """A pool of the service: its name, its processes, their priority and what the fork
    server imports once for them."""

    name: str
    workers: int
    nice: int
    preload: tuple[str, ...] = ()


# -- the client: in every server process ----------------------------------------------------
_address: str | None = None
_key: bytes = b""


def use(address: str | None, key: bytes = b"") -> None:
    """Hand jobs to the service at *address* from now on (None: to this process's own pools).
    Set before the server processes are forked, so that each of them has it."""
    global _address, _key
    _address, _key = address, key


def connected() -> bool:
    """Whether this process hands its jobs to a service."""
    return _address is not None


def _job(fn: Callable[..., Any], args: tuple, kwargs: dict) -> bytes:
    return pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)


def call(job: bytes) -> bytes:
    """In a worker of the service: run the pickled job, its pickled outcome. The service only
    passes the bytes on, so that it never imports what a job needs (WeasyPrint)."""
    try:
        fn, args, kwargs = pickle.loads(job)
        outcome: tuple[bool, Any] = (True, fn(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 (handed back to the asker)
        outcome = (False, exc)
    try:
        return pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 (an outcome that cannot be pickled)
        return _failure(RuntimeError(f"{type(exc).__name__}: {exc}"))


def _failure(exc: BaseException) -> bytes:
    return pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)


def submit(spec: Spec, tenant: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Hand ``fn(*args, **kwargs)`` to the service's pool *spec* for *tenant*; its future,
    which fails with ``BrokenProcessPool`` where the service is not there or its process
    died. Never raises itself: a thread talks to the service and waits for the answer."""
    future: Future = Future()
    future.set_running_or_notify_cancel()
    address, key = _address, _key

    def talk() -> None:
        try:
            if address is None:
                raise OSError("no job service")
            job = _job(fn, args, kwargs)
            with Client(address, family="AF_UNIX", authkey=key) as conn:
                conn.send((tuple(spec), tenant, job))
                ok, value = pickle.loads(conn.recv_bytes())
        except (OSError, EOFError) as exc:
            future.set_exception(BrokenProcessPool(f"the job service is not answering: {exc}"))
        except Exception as exc:  # noqa: BLE001 (a job that cannot be pickled, a bad key)
            future.set_exception(exc)
        else:
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    threading.Thread(target=talk, name="job-service-client", daemon=True).start()
    return future


def post(spec: Spec, tenant: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Hand the job to the service without waiting for its outcome (nor starting a thread:
    the process that runs ``serve`` warms the pools so, before it forks)."""
    if _address is None:
        return
    try:
        with Client(_address, family="AF_UNIX", authkey=_key) as conn:
            conn.send((tuple(spec), tenant, _job(fn, args, kwargs)))
    except (OSError, EOFError, TypeError) as exc:
        log.warning("The job service did not take a job: %s", exc)


# -- the service: a process of its own -------------------------------------------------------
class Fair:
    """The jobs waiting for one pool, served round-robin across their tenants."""

    def __init__(self) -> None:
        self.tenants: dict[str, list[Any]] = {}  # in the order of their next turn

    def put(self, tenant: str, job: Any) -> None:
        self.tenants.setdefault(tenant, []).append(job)

    def take(self) -> Any:
        """The next job: the first of the tenant whose turn it is, who then goes last."""
        tenant = next(iter(self.tenants))
        jobs = self.tenants.pop(tenant)
        job = jobs.pop(0)
        if jobs:
            self.tenants[tenant] = jobs
        return job

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self.tenants.values())


class _Job(NamedTuple):
    job: bytes
    answer: Future


class Service:
    """The pools, their waiting jobs and their running counts."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # a done callback may run inside submit()
        self._pools: dict[str, ProcessPoolExecutor] = {}
        self._waiting: dict[str, Fair] = {}
        self._running: dict[str, int] = {}
        self._specs: dict[str, Spec] = {}

    def put(self, spec: Spec, tenant: str, job: bytes) -> Future:
        """Queue the pickled *job*; the future of its pickled outcome."""
        answer: Future = Future()
        with self._lock:
            self._specs.setdefault(spec.name, spec)
            self._waiting.setdefault(spec.name, Fair()).put(tenant, _Job(job, answer))
            self._pump(spec.name)
        return answer

    def _pump(self, name: str) -> None:
        """Start waiting jobs while the pool has a process free (the lock held)."""
        spec, waiting = self._specs[name], self._waiting[name]
        while len(waiting) and self._running.get(name, 0) < spec.workers:
            job = waiting.take()
            self._running[name] = self._running.get(name, 0) + 1
            executor = None
            try:
                executor = self._pools.get(name)
                if executor is None:
                    executor = self._pools[name] = pool(spec.workers, spec.nice, spec.preload)
                running = executor.submit(call, job.job)
            except Exception as exc:  # noqa: BLE001 (broken, or no process could start)
                self._running[name] -= 1
                if isinstance(exc, BrokenProcessPool):
                    self._broken(name, executor)
                job.answer.set_result(_failure(exc))
                continue
            running.add_done_callback(partial(self._done, name, job, executor))

    def _done(self, name: str, job: _Job, executor: ProcessPoolExecutor, done: Future) -> None:
        with self._lock:
            self._running[name] -= 1
            error = (
                BrokenProcessPool("the pool was stopped") if done.cancelled() else done.exception()
            )
            if isinstance(error, BrokenProcessPool):
                self._broken(name, executor)
            self._pump(name)
        job.answer.set_result(_failure(error) if error is not None else done.result())

    def _broken(self, name: str, executor: ProcessPoolExecutor | None) -> None:
        """A process of pool *name*'s *executor* died: a new pool is started for the next job
        (once: the other jobs the broken one fails do not end its successor)."""
        if executor is not None and self._pools.get(name) is executor:
            del self._pools[name]
            threading.Thread(target=stop, args=(executor,), daemon=True).start()

    def take(self, conn: Any) -> None:
        """Answer one connection: its job, then the job's outcome."""
        try:
            with conn:
                spec, tenant, job = conn.recv()
                if not isinstance(job, bytes):
                    raise TypeError("a job is pickled bytes")
                answer = self.put(Spec(*spec), str(tenant), job)
                conn.send_bytes(answer.result())
        except (OSError, EOFError):
            pass  # the asker is gone (or only posted the job)
        except Exception:  # noqa: BLE001 (a malformed job: the asker sees its connection end)
            log.exception("a job could not be read")


def serve(address: str, key: bytes) -> None:
    """Take jobs at *address* until the process is ended."""
    service = Service()
    if os.path.exists(address):
        os.unlink(address)
    listener = Listener(address, family="AF_UNIX", backlog=128)
    os.chmod(address, 0o600)
    while True:
        try:
            conn = listener.accept()
        except OSError:
            continue
        threading.Thread(target=_greet, args=(service, conn, key), daemon=True).start()


def _greet(service: Service, conn: Any, key: bytes) -> None:
    """Check the asker knows the key (in its own thread: a silent asker holds up no one)."""
    from multiprocessing import AuthenticationError
    from multiprocessing.connection import answer_challenge, deliver_challenge

    try:
        deliver_challenge(conn, key)
        answer_challenge(conn, key)
    except (OSError, EOFError, AuthenticationError):
        conn.close()
        return
    service.take(conn)


_folder: str | None = None
#: The service ends its pools by ending their processes (work under way is dropped: a worker
#: writes nothing), and multiprocessing's resource tracker, which outlives it, then frees their
#: semaphores and says so in a plain-text warning on the server's stream, which breaks a JSON
#: log. Its warnings are left out in the service's processes only (``-W`` passes to the tracker).
QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


def _stop(signum: int, frame: Any = None) -> None:
    """SIGTERM (from the server, or from the kernel as the server died): the pools' processes
    ended, the socket's folder removed (a killed server cannot remove it)."""
    stop_all()
    if _folder is not None:
        shutil.rmtree(_folder, ignore_errors=True)
    os._exit(0)


def main(argv: list[str]) -> int:
    """``python -m scorekeeper.engine.service ADDRESS PARENT``, the key on standard input."""
    global _folder
    address, parent = argv[0], int(argv[1])
    if os.path.basename(os.path.dirname(address)).startswith(FOLDER):
        _folder = os.path.dirname(address)
    key = sys.stdin.buffer.read(KEY_BYTES)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when the service ends
    die_with_parent(parent)
    serve(address, key)
    return 0


# -- in the process that runs ``serve``: starting the service and keeping it -----------------
class Keeper:
    """Starts the service, starts it again when it dies (:meth:`watch`, or :meth:`ended` from
    a loop that waits for children itself), and stops it."""

    def __init__(self) -> None:
        if not hasattr(socket, "AF_UNIX"):
            raise RuntimeError("no Unix sockets on this system")
        self.folder = tempfile.mkdtemp(prefix=FOLDER)  # mode 0700
        self.address = str(Path(self.folder) / SOCKET)
        self.key = secrets.token_bytes(KEY_BYTES)
        self.process: subprocess.Popen | None = None
        self.started = 0.0
        self.stopping = False

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self, wait: float = START_SECONDS, strict: bool = True) -> Keeper:
        """Start the service; return once its socket is there. *strict*: raise
        ``RuntimeError`` if it is not there within *wait* seconds (the first start: the server
        then keeps its pools itself), else go on (a restart: its jobs fail until it is)."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)  # a service told to end removed it
        if os.path.exists(self.address):
            os.unlink(self.address)
        self.process = subprocess.Popen(
            [sys.executable, "-W", QUIET_TRACKER, "-m", __name__, self.address, str(os.getpid())],
            stdin=subprocess.PIPE,
            start_new_session=True,  # Ctrl+C reaches the server, which ends the service
            close_fds=True,
        )
        assert self.process.stdin is not None
        self.process.stdin.write(self.key)
        self.process.stdin.close()
        self.started = time.monotonic()
        deadline = time.monotonic() + wait
        while not os.path.exists(self.address) and time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        if strict and not os.path.exists(self.address):
            self.stop()
            raise RuntimeError("the job service did not start")
        use(self.address, self.key)
        return self

    def ended(self, status: int | None = None) -> None:
        """The service ended (*status*): start it again, unless the server is stopping."""
        if self.stopping:
            return
        log.error("The job service ended (status %s); starting it again", status)
        if time.monotonic() - self.started < RESTART_PAUSE:
            time.sleep(RESTART_PAUSE)
        if not self.stopping:
            self.start(strict=False)

    def watch(self) -> None:
        """Start it again whenever it dies, from a thread (where nothing else waits for this
        process's children)."""

        def keep() -> None:
            while not self.stopping:
                process = self.process
                if process is None:
                    return
                status = process.wait()
                self.ended(status)

        threading.Thread(target=keep, name="job-service-keeper", daemon=True).start()

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """End the service and its processes; remove its folder."""
        self.stopping = True
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
