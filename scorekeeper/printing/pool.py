"""Every sheet and image laid out in printing processes of their own, never in the server's.

Laying a full sheet out is about 0.2 s of Python (WeasyPrint), and drawing it as a PNG another
0.1 s, under one lock, Python's: in a thread of the server it kept every request waiting while
it ran. So every PDF and PNG the web wing makes (a game's sheet, made ahead or asked for, the
blank sheet, a club night's seating and standings, a night's image) is made here, by one of
a small pool of worker processes at a lower priority, from plain data: a game's document
(the game file's dict, which the worker reads with the engine as the server does), names,
tables and standings rows. The web wing puts a bounded queue in front (``web/keeping/printer.py``).

The pool (:data:`PRINTERS` processes: one on a machine of two cores, so that the other is the
table's) is started on first use with ``forkserver`` where the system has it (else
``spawn``), never by forking a threaded server, and kept for the next sheet. Under ``serve``
it is the box's one pool, in the job service (``engine/service.py``), shared by every server
process and fair across groups (*tenant*); elsewhere it is the process's own.
"""

from __future__ import annotations

from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Mapping, Sequence

from ..engine import service
from ..engine.processes import Workers, cores, pool

#: How much lower the workers' priority is than the server's (``os.nice``).
NICE = 5


#: The printing processes: half the cores, at least one.
PRINTERS = max(1, cores() // 2)

_workers = Workers(lambda: pool(PRINTERS, NICE))
#: The pool in the job service.
SPEC = service.Spec("printing", PRINTERS, NICE)


# -- the jobs, run in a worker: plain data in, bytes out ----------------------------------------
def _words(words: Sequence[tuple[str, str]]) -> dict:
    from ..engine.contracts import Contract

    return {Contract(c): w for c, w in words}


def game_pdf(
    document: Mapping[str, Any],
    paper: str,
    lang: str,
    digits: str,
    words: Sequence[tuple[str, str]],
) -> bytes:
    """The game of *document* read by the engine (leniently, as a stored game is read) and its
    sheet laid out in this way of reading it."""
    from ..engine import read_game
    from .render import render_game_pdf

    return render_game_pdf(
        read_game(dict(document), strict=False),
        paper=paper,
        lang=lang,
        digits=digits,
        contract_words=_words(words),
    )


def blank_pdf(
    names: Sequence[str], paper: str, lang: str, digits: str, words: Sequence[tuple[str, str]]
) -> bytes:
    from .render import render_blank_pdf

    return render_blank_pdf(
        list(names) or None, paper=paper, lang=lang, digits=digits, contract_words=_words(words)
    )


def seating_pdf(**kwargs: Any) -> bytes:
    from .clubnight import render_seating_pdf

    return render_seating_pdf(**kwargs)


def standings_pdf(**kwargs: Any) -> bytes:
    from .clubnight import render_standings_pdf

    return render_standings_pdf(**kwargs)


def season_pdf(**kwargs: Any) -> bytes:
    from .season import render_season_pdf

    return render_season_pdf(**kwargs)


def bracket_pdf(**kwargs: Any) -> bytes:
    from .tournament import render_bracket_pdf

    return render_bracket_pdf(**kwargs)


def png(pdf: bytes) -> bytes:
    """A PDF's first page as the PNG to share."""
    from .render import pdf_to_png

    return pdf_to_png(pdf)


def as_png(job: str, *args: Any, **kwargs: Any) -> tuple[bytes, bytes]:
    """The job's PDF and its first page as a PNG, both made in the worker."""
    pdf = JOBS[job](*args, **kwargs)
    return pdf, png(pdf)


def warm() -> None:
    """Load WeasyPrint, the templates and the fonts in this worker."""
    from .render import warm_up

    warm_up()


JOBS: dict[str, Callable[..., Any]] = {
    "game_pdf": game_pdf,
    "blank_pdf": blank_pdf,
    "seating_pdf": seating_pdf,
    "standings_pdf": standings_pdf,
    "season_pdf": season_pdf,
    "bracket_pdf": bracket_pdf,
    "png": png,
    "as_png": as_png,
    "warm": warm,
}


def run(job: str, *args: Any, **kwargs: Any) -> Any:
    """In a worker: the job named *job*."""
    return JOBS[job](*args, **kwargs)


def submit(job: str, *args: Any, tenant: str = "", **kwargs: Any) -> Future:
    """Hand *job* to the pool; its future. A pool that broke (a worker killed) is started
    again for the next job, and this one fails with ``BrokenProcessPool``. *tenant*: whose
    job it is (a group's database path): the job service takes its tenants' waiting jobs in
    turn."""
    if service.connected():
        return service.submit(SPEC, tenant, run, job, *args, **kwargs)
    try:
        return _workers.executor().submit(run, job, *args, **kwargs)
    except BrokenProcessPool:
        shutdown()
        raise


def warm_up() -> None:
    """Start the workers now and have them load WeasyPrint, without waiting for them."""
    for _ in range(PRINTERS):
        if service.connected():
            service.post(SPEC, "", run, "warm")
        else:
            submit("warm")


def shutdown() -> None:
    """Stop this process's workers (they start again for the next sheet); the job service
    starts its own again itself."""
    _workers.shutdown()
