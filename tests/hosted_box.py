"""A hosted box on this machine, as set-up 3 of the hosting guide (docs/hosting.md) runs it: ``scorekeeper serve
--proxy-hops 1 --public-url https://scores.test:PORT`` (the real waitress) behind a real Caddy
that terminates HTTPS (``tls internal``) and passes each request on.

Nothing here needs the network or a privileged port: Caddy listens on a free high port of
127.0.0.1, its admin endpoint is off, its certificates and state stay in the test's folder, and
``scores.test`` is never looked up: a phone connects to 127.0.0.1 and names the host itself, in
the TLS handshake (SNI) and the ``Host`` header. Each phone comes from a loopback address of its
own (127.0.0.66, 127.0.0.77, ...), as phones on the internet come from theirs. Caddy and the
server are stopped when the ``with`` block ends, whatever happened in it.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from scorekeeper.store import keys
from scorekeeper.store.db import connect

from live_server import Phone, Server, free_port, hidden_fields

HOST = "scores.test"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
NEW_GAME = {
    "player_0": "Aya",
    "player_1": "Bilal",
    "player_2": "Carla",
    "player_3": "Dana",
    "first_king": "0",
    "preset": "standard",
    "title": "Friday",
    "played_on": "2026-11-20",
}


def routed(upstream: int, routes: Mapping[str, int]) -> str:
    """The site's proxying: each group of *routes* (its id: the port of its box) to its box,
    everything else to *upstream*."""
    if not routes:
        return f"reverse_proxy 127.0.0.1:{upstream}"
    blocks = [
        f"@{group} path /g/{group} /g/{group}/*\n\thandle @{group} {{\n"
        f"\t\treverse_proxy 127.0.0.1:{port}\n\t}}"
        for group, port in routes.items()
    ]
    return "\n\t".join([*blocks, f"handle {{\n\t\treverse_proxy 127.0.0.1:{upstream}\n\t}}"])


def caddyfile(folder: Path, port: int, upstream: int, routes: Mapping[str, int] = {}) -> str:
    """Caddy as deploy/Caddyfile has it, on high ports, with a certificate of its own making
    (never installed in the system's trust), and an access log of the addresses it saw; with
    *routes*, each of those groups' addresses goes to the box on its port."""
    return f"""{{
	admin off
	http_port {free_port()}
	auto_https disable_redirects
	skip_install_trust
	servers {{
		protocols h1 h2
	}}
	storage file_system {folder / "data"}
}}
https://{HOST}:{port} {{
	bind 127.0.0.1
	tls internal
	encode zstd gzip
	{routed(upstream, routes)}
	log {{
		output file {folder / "access.log"}
		format json
	}}
}}
"""


class Caddy:
    """Caddy in its own process, in front of the server on *upstream*."""

    def __init__(
        self, folder: Path, port: int, upstream: int, routes: Mapping[str, int] | None = None
    ):
        self.folder, self.port, self.upstream = folder, port, upstream
        self.routes = dict(routes or {})
        self.process: subprocess.Popen | None = None
        self.log = folder / "caddy.log"

    def start(self, timeout: float = 30) -> "Caddy":
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "Caddyfile"
        config.write_text(caddyfile(self.folder, self.port, self.upstream, self.routes))
        env = {
            **os.environ,
            "HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CONFIG_HOME": str(self.folder / "config"),
        }
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("Caddy stopped: " + self.log.read_text(errors="replace"))
            phone = InternetPhone(self, "127.0.0.1")
            try:
                if phone.request("ping", "GET", "/healthz").status == 200:
                    return self
            except (OSError, ssl.SSLError, http.client.HTTPException):
                time.sleep(0.2)
            finally:
                phone.close()
        self.stop()
        raise RuntimeError("Caddy did not answer in time: " + self.log.read_text(errors="replace"))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def seen(self) -> set[str]:
        """The client addresses in Caddy's access log."""
        import json

        path = self.folder / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        return {json.loads(line)["request"]["remote_ip"] for line in lines if line.strip()}


class LoopbackPhone(Phone):
    """A phone without JavaScript that reaches the server at 127.0.0.1:*port* from a loopback
    *source* address of its own, and sends forms as a browser does: a POST names the page it
    came from in ``Referer`` (the app's ``Referrer-Policy: same-origin`` lets a browser do so)."""

    def __init__(self, port: int, source: str, root: str, timeout: float = 30):
        super().__init__(port, timeout)
        self.source, self.root = source, root

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=self.timeout, source_address=(self.source, 0)
        )

    def post_form(
        self, page: str, fields: dict[str, str], *, headers: dict[str, str] | None = None
    ):
        """Open *page*, and send its first form with *fields* besides its hidden ones (the
        CSRF token) back to it."""
        shown = self.request("form", "GET", page, headers=headers)
        return self.request(
            "post",
            "POST",
            page,
            {**hidden_fields(shown.body), **fields},
            {"Referer": self.root + page, **(headers or {})},
        )


class InternetPhone(LoopbackPhone):
    """A phone on the internet: HTTPS to Caddy, which it reaches as ``scores.test``."""

    def __init__(self, caddy: "Caddy", source: str, timeout: float = 30):
        super().__init__(caddy.port, source, f"https://{HOST}:{caddy.port}", timeout)

    def connect(self) -> http.client.HTTPConnection:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # Caddy's own CA
        connection = http.client.HTTPSConnection(
            HOST, self.port, timeout=self.timeout, source_address=(self.source, 0), context=context
        )
        # scores.test is not looked up: the connection goes to 127.0.0.1, named scores.test
        connection._create_connection = lambda address, *args: socket.create_connection(
            ("127.0.0.1", address[1]), *args
        )
        return connection


def shipped_config(port: int, upstream: int) -> str:
    """deploy/Caddyfile as it ships (its global options and log filters included), on plain
    HTTP at *port* of 127.0.0.1, in front of the server on *upstream*, its admin endpoint off."""
    shipped = (Path(__file__).resolve().parents[1] / "deploy" / "Caddyfile").read_text()
    # the upstream first, and only the port 5000 itself: the site's own port may start with 5000
    upstream_set = re.sub(r"127\.0\.0\.1:5000\b", f"127.0.0.1:{upstream}", shipped)
    site = upstream_set.replace("scores.example.org {", f"http://127.0.0.1:{port} {{")
    if re.search(r"^\{$", site, re.M):  # its global options: admin off among them
        return re.sub(r"^\{$", "{\n\tadmin off", site, count=1, flags=re.M)
    return "{\n\tadmin off\n}\n" + site


@contextmanager
def shipped_caddy(folder: Path, upstream: int) -> Iterator[tuple[int, Path]]:
    """Caddy as deploy/Caddyfile ships (its log filters for secret paths included), on plain
    HTTP at a free port of 127.0.0.1, in front of the server on *upstream*: (its port, its
    access log: standard output). Its error log (standard error) is ``caddy-errors.log``
    beside it. Ready once its port accepts a connection, so that its logs hold no request but
    the test's."""
    port = free_port()
    config = folder / "Caddyfile"
    config.write_text(shipped_config(port, upstream))
    log_path = folder / "caddy.log"
    with log_path.open("ab") as log, (folder / "caddy-errors.log").open("ab") as errors:
        caddy = subprocess.Popen(
            [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=log,
            stderr=errors,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert caddy.poll() is None and time.monotonic() < deadline, (
                    folder / "caddy-errors.log"
                ).read_text()
                time.sleep(0.2)
        yield port, log_path
    finally:
        caddy.terminate()
        caddy.wait(timeout=15)


def query(database: str | Path, sql: str, params: tuple = ()) -> list[dict]:
    """Rows of the server's database, read beside it."""
    db = connect(str(database))
    try:
        return list(db.query(sql, params))
    finally:
        db.close()


@dataclass
class Box:
    """The hosted box: Caddy at ``url`` in front of the server, its database at ``database``."""

    caddy: Caddy
    server: Server
    phones: list[InternetPhone] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.caddy.port}"

    @property
    def database(self) -> str:
        return str(self.server.database)

    def phone(self, source: str) -> InternetPhone:
        """A phone at *source*; its connection is closed when the box stops."""
        self.phones.append(InternetPhone(self.caddy, source))
        return self.phones[-1]

    def join_link(self) -> str:
        db = connect(self.database)
        try:
            return f"/join/{keys.install_key(db, 'join')}"
        finally:
            db.close()

    def member(self, source: str) -> InternetPhone:
        """A phone of the group: it opened the join link."""
        phone = self.phone(source)
        assert phone.request("join", "GET", self.join_link()).status == 303
        return phone

    def query(self, sql: str, params: tuple = ()) -> list[dict]:
        return query(self.database, sql, params)


@contextmanager
def hosted_box(
    folder: Path, *, public_url: bool = True, args: tuple[str, ...] = ()
) -> Iterator[Box]:
    """The server (``serve --proxy-hops 1``, with Caddy's address as ``--public-url`` unless
    told otherwise, and *args*: ``--groups``, ``--workers N``) and Caddy, running."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    options = ("--proxy-hops", "1")
    if public_url:
        options += ("--public-url", f"https://{HOST}:{port}")
    server = Server(folder / "hosted.sqlite3", folder / "instance", options=options, args=args)
    caddy = Caddy(folder / "caddy", port, server.port)
    box = Box(caddy, server)
    try:
        server.start()
        caddy.start()
        yield box
    finally:
        for phone in box.phones:
            phone.close()
        caddy.stop()
        server.stop()
