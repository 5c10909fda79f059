"""Where the samples are played: in this process, or spread over one worker process per core.

The workers are started on first use and kept for the next question. They are started with
``forkserver`` where the system has it (else ``spawn``), never by forking a threaded web server,
and they run at a lower priority, so that while they play, the server process still answers
the other phones at once. Which process plays a sample never changes its outcome
(:mod:`.playout`), so an answer is the same with or without them.

Under ``serve`` the workers are the box's, in the job service (``engine/service.py``), shared by
every server process; elsewhere they are the process's own.

As always with ``spawn`` and ``forkserver``, a script that has advice played on the workers
guards its own start with ``if __name__ == "__main__":`` (the ``scorekeeper`` command does).
"""

from __future__ import annotations

import math
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Sequence

from .. import service
from ..processes import Workers, cores, pool
from ..rules import HouseRules
from .playout import Choice, Outcome, Task, run_task, warm

#: How much lower the workers' priority is than the server's (``os.nice``).
NICE = 5
#: Below this many deals to play, one process answers sooner than handing the work out.
PARALLEL_MIN = 400
#: Each worker gets about this many slices of a run, so that none waits idle at the end.
SLICES_PER_WORKER = 3


def workers() -> int:
    """The cores this process may use."""
    return cores()


PRELOAD = (__name__.rpartition(".")[0] + ".playout",)


def _start() -> ProcessPoolExecutor:
    return pool(workers(), NICE, PRELOAD)


def spec() -> service.Spec:
    """The pool in the job service."""
    return service.Spec("advisor", workers(), NICE, PRELOAD)


_workers = Workers(_start)


def executor() -> ProcessPoolExecutor:
    """The worker pool, started on first use."""
    return _workers.executor()


def warm_up() -> None:
    """Start the workers now, without waiting for them (a page calls this when the King opens
    the card picker, so that the answer does not wait for processes to start)."""
    if workers() > 1 and service.connected():
        for _ in range(workers()):
            service.post(spec(), "", warm)
    elif workers() > 1:
        pool = executor()
        for _ in range(workers()):
            pool.submit(warm)


def shutdown() -> None:
    """Stop the workers (they start again on the next question)."""
    _workers.shutdown()


Group = tuple[tuple[Choice, ...], int, int]  # choices, first sample, sample after the last


def play(
    hand: int | None,
    groups: Sequence[Group],
    rules: HouseRules,
    seed: int,
    parallel: bool | None = None,
) -> dict[Choice, list[Outcome]]:
    """Play samples ``start..stop`` of each group's choices; the outcomes of each choice in
    sample order. *parallel*: use the workers (None: when there is enough to play)."""
    size = sum(len(choices) * (stop - start) for choices, start, stop in groups)
    if parallel is None:
        parallel = workers() > 1 and size >= PARALLEL_MIN
    pieces = workers() * SLICES_PER_WORKER if parallel else 1
    tasks: list[Task] = []
    for choices, start, stop in groups:
        step = max(1, math.ceil((stop - start) / pieces))
        tasks.extend(
            Task(hand, tuple(choices), rules, seed, first, min(first + step, stop))
            for first in range(start, stop, step)
        )
    results = _run(tasks) if parallel else [run_task(task) for task in tasks]
    out: dict[Choice, list[Outcome]] = {}
    for task, columns in zip(tasks, results):
        for choice, column in zip(task.choices, columns):
            out.setdefault(choice, []).extend(column)
    return out


def _run(tasks: list[Task]) -> list[list[list[Outcome]]]:
    try:
        futures: list[Future]
        if service.connected():
            futures = [service.submit(spec(), "", run_task, task) for task in tasks]
        else:
            futures = [executor().submit(run_task, task) for task in tasks]
        return [future.result() for future in futures]
    except BrokenProcessPool:  # a worker (or the service) died: start afresh, here
        shutdown()
        return [run_task(task) for task in tasks]
