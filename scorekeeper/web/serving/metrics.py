"""``/metrics``: the box's figures for the operator's scraper, in Prometheus's text format
(prometheus-client). Off unless ``serve --metrics`` (config ``METRICS``): without it the
address does not exist.

What it gives: requests answered (by method, the route's pattern as the log writes it, never
the path, and status) and how long they took; the render queue (renders queued or being made,
requests waiting for one, renders made); and the box (its groups, their bytes on disk, the
free disk, the operator's cap and floor), read when the scraper asks.

With ``--workers N`` every server process counts its own requests in files of a private folder
(prometheus-client's multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``, made by ``serve`` before
the app and removed when it stops), and whichever process the scraper reaches adds them all up.

It is the scraper's, on the box: a request that came through a proxy (it carries
``X-Forwarded-For``, as every phone's does behind the shipped Caddy, which also answers 404 for
the address itself) gets the 404 of an address that leads nowhere.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any, Iterator

from flask import Blueprint, Flask, Response, abort, current_app, g, request

from ...engine.processes import alive
from ...settings import environ, set_environ
from .logs import route_pattern

#: Where prometheus-client's processes write their figures (its own variable's name).
MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
#: How often each server process notes the render queue, in seconds.
SAMPLE_SECONDS = 1.0
#: The request's duration buckets, in seconds.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Headers a proxy adds: a request that carries one did not come from the scraper on the box.
PROXIED = ("X-Forwarded-For", "Forwarded")

bp = Blueprint("metrics", __name__)


def metrics_folder() -> str:
    """Made by ``serve --metrics`` before the app (and before prometheus-client is imported):
    a private folder (0700) where every server process writes its figures. Removed with
    :func:`remove_folder` when the server stops."""
    folder = tempfile.mkdtemp(prefix="scorekeeper-metrics-")
    set_environ(MULTIPROC, folder)
    return folder


def remove_folder(folder: str | None) -> None:
    """Remove *folder* (once the server has stopped) and let this process's figures be its
    own again."""
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        set_environ(MULTIPROC, "")


class Figures:
    """The app's metrics, made once per process, in a registry of their own."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        self.requests = Counter(
            "scorekeeper_requests",
            "Requests answered, by method, route pattern and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.seconds = Histogram(
            "scorekeeper_request_seconds",
            "How long a request took to answer, by route pattern.",
            ["route"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.queued = Gauge(
            "scorekeeper_render_queue",
            "Renders queued or being made (the printing queue).",
            multiprocess_mode="livesum",
            registry=self.registry,
        )
        self.waiting = Gauge(
            "scorekeeper_render_waiting",
            "Requests waiting for a render.",
            multiprocess_mode="livesum",
            registry=self.registry,
        )
        self.renders = Counter(
            "scorekeeper_renders",
            "Renders handed to the printing processes.",
            registry=self.registry,
        )
        self._made = 0
        self._sampler: int | None = None  # the process whose sampler runs
        self._lock = threading.Lock()

    def sample(self) -> None:
        """Note this process's render queue."""
        from ..keeping.printer import PRINTER

        self.queued.set(len(getattr(PRINTER, "_flying", ())))
        self.waiting.set(getattr(PRINTER, "_waiting", 0))
        with self._lock:
            made = getattr(PRINTER, "made", 0)
            if made > self._made:
                self.renders.inc(made - self._made)
            self._made = made

    def start_sampling(self) -> None:
        """Once in each server process (at its first request): note the render queue every
        :data:`SAMPLE_SECONDS`, so that the figure holds while no request comes."""
        if self._sampler == os.getpid():
            return
        with self._lock:
            if self._sampler == os.getpid():
                return
            self._sampler = os.getpid()

        def run() -> None:
            while True:
                try:
                    self.sample()
                except Exception:  # noqa: BLE001 (a figure is not worth a server thread)
                    pass
                time.sleep(SAMPLE_SECONDS)

        threading.Thread(target=run, name="metrics", daemon=True).start()

    def exposition(self, box: Any) -> bytes:
        """Every figure in Prometheus's text format: every process's, added up, where they
        write to a shared folder; this process's alone otherwise."""
        from prometheus_client import CollectorRegistry, generate_latest
        from prometheus_client.multiprocess import MultiProcessCollector

        self.sample()
        folder = environ(MULTIPROC)
        if folder and shared_values():
            forget_ended(Path(folder))
            registry = CollectorRegistry()
            MultiProcessCollector(registry, path=folder)
        else:
            registry = self.registry
        text = generate_latest(registry)
        box_registry = CollectorRegistry()
        box_registry.register(box)
        return text + generate_latest(box_registry)


@cache
def figures() -> Figures:
    return Figures()


def shared_values() -> bool:
    """Whether prometheus-client writes this process's figures to the shared folder (it
    decides when it is first imported, by ``PROMETHEUS_MULTIPROC_DIR``)."""
    from prometheus_client import values

    return values.ValueClass is not values.MutexValue


def forget_ended(folder: Path) -> None:
    """Drop the live gauges of server processes that ended (a worker started again): their
    last render queue is no longer there."""
    for path in folder.glob("gauge_live*_*.db"):
        pid = path.stem.rpartition("_")[2]
        if pid.isdigit() and not alive(int(pid)):
            path.unlink(missing_ok=True)


class Box:
    """The box's figures, read when the scraper asks: groups, bytes, free disk, bounds."""

    def __init__(self, app: Flask):
        self.app = app

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        from ...store.groups import size_on_disk

        def gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, text, value=value)

        config = self.app.config
        if config["GROUPS"]:
            host = self.app.extensions["groups"]
            yield gauge("scorekeeper_groups", "Groups on this box.", host.count())
            yield gauge(
                "scorekeeper_groups_bytes",
                "Bytes on disk of every group's database and the register.",
                host.bytes_on_disk(),
            )
            if config["MAX_GROUPS"] is not None:
                yield gauge(
                    "scorekeeper_groups_max",
                    "The most groups this box holds.",
                    config["MAX_GROUPS"],
                )
            where = host.folder if host.folder.exists() else host.instance
        else:
            yield gauge(
                "scorekeeper_database_bytes",
                "Bytes on disk of the database.",
                size_on_disk(config["DATABASE"]),
            )
            where = Path(config["DATABASE"]).parent
        yield gauge(
            "scorekeeper_disk_free_bytes",
            "Free bytes of the disk that holds the data.",
            shutil.disk_usage(where).free,
        )
        yield gauge(
            "scorekeeper_disk_free_floor_bytes",
            "Below this much free disk no group is started.",
            config["MIN_FREE_DISK"] or 0,
        )


def _started() -> None:
    g.metrics_started = time.perf_counter()


def _counted(response: Response) -> Response:
    started = g.pop("metrics_started", None)
    found = figures()
    route = route_pattern()
    found.requests.labels(request.method, route, str(response.status_code)).inc()
    if started is not None:
        found.seconds.labels(route).observe(time.perf_counter() - started)
    found.start_sampling()
    return response


@bp.get("/metrics")
def metrics():
    if any(request.headers.get(name) for name in PROXIED):
        abort(404)
    body = figures().exposition(current_app.extensions["metrics_box"])
    from prometheus_client import CONTENT_TYPE_LATEST

    response = Response(body, content_type=CONTENT_TYPE_LATEST)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """With ``METRICS`` on: count every request and answer ``/metrics``; else nothing."""
    if not app.config["METRICS"]:
        return
    figures()
    app.extensions["metrics_box"] = Box(app)
    app.before_request(_started)
    app.after_request(_counted)
    app.register_blueprint(bp)
