"""``scorekeeper serve``: the app under waitress, a production WSGI server.

Three ways to run it: on this machine (127.0.0.1, the default), on the local network (``--lan``),
and behind a reverse proxy that terminates HTTPS on the internet (``--proxy-hops N``, with
``--public-url``). In every case the ``Host`` headers it answers are this machine's own names
(or the public address), so that a link or QR code never carries a host someone made up; see
``hosting``. Waitress is set so that slow or idle connections cannot take the server: many
connections are accepted, and one that sends nothing for ``CHANNEL_TIMEOUT`` seconds while its
request is still incomplete is closed.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from typing import Any, Callable, Mapping, TextIO

from ..settings import serve_config
from ..store import replica

DEFAULT_HOST = "127.0.0.1"
LAN_HOST = "0.0.0.0"
THREADS = 8
#: The most server processes ``--workers`` may ask for.
MAX_WORKERS = 64
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
#: Waitress: how many connections it keeps open at once (its default is 100: a hundred slow
#: clients were enough to shut everyone else out), polled with poll() rather than select()
#: (which stops at file descriptor 1024).
CONNECTIONS = 1000
#: Seconds a connection may stay silent before its unfinished request is dropped (waitress's
#: default is 120), and how often that is checked (30 by default).
CHANNEL_TIMEOUT = 10
CLEANUP_INTERVAL = 2
#: The largest request head and body waitress reads: the app's own limits are far smaller (the
#: largest upload is a 10 MB game file), so nothing bigger is buffered to disk.
MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 16 * 1024 * 1024


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


def own_names() -> set[str]:
    """This machine's names and IPv4 addresses, by which phones on the network may reach it."""
    name = socket.gethostname().lower()
    names = {name, f"{name.split('.')[0]}.local"}
    try:
        names.update(info[4][0] for info in socket.getaddrinfo(name, None, socket.AF_INET))
    except OSError:
        pass
    return names


def print_qr(url: str, out: TextIO | None = None) -> None:
    """*url* as a QR code drawn with block characters, for the phones to scan off the screen
    (segno); left out, with a word, where the terminal cannot show those characters."""
    import io

    import segno

    out = out or sys.stdout
    drawn = io.StringIO()
    segno.make(url, error="m").terminal(out=drawn, compact=True)
    try:
        out.write(drawn.getvalue())
    except UnicodeEncodeError:
        print("(This terminal cannot draw the QR code; type the address instead.)", file=out)
    out.flush()


def trusted_hosts(
    bind: str, *, lan: str | None, public_url: str | None, proxy_hops: int
) -> list[str] | None:
    """The ``Host`` headers the app answers (Flask's ``TRUSTED_HOSTS``); None: any host, which
    only a proxy that forwards the host it serves may be trusted with."""
    from urllib.parse import urlsplit

    hosts = set(LOOPBACK_NAMES)
    if public_url:
        hosts.add(urlsplit(public_url).hostname or "")
    elif proxy_hops:
        return None
    if bind == LAN_HOST:
        hosts.add(lan or lan_address())
        hosts.update(own_names())
    elif bind != DEFAULT_HOST:
        hosts.add(bind)
    return sorted(h for h in hosts if h)


def connection_limit() -> int:
    """CONNECTIONS, or fewer when the process may not open that many files; the limit on open
    files is raised to its ceiling first where the system allows it."""
    try:
        import resource
    except ImportError:  # Windows
        return CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS + 100
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
            soft = ceiling
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(50, min(CONNECTIONS, soft - 100))


def waitress_options(proxy_hops: int = 0) -> dict[str, Any]:
    """What ``serve`` passes waitress besides the address (see the constants above). Behind
    proxies, waitress leaves their X-Forwarded-* headers in place (it would strip them all
    by default, and every client would then be the proxy): the app's ProxyFix takes as many
    hops of them as it was told to trust, and no more."""
    return {
        "clear_untrusted_proxy_headers": not proxy_hops,
        "threads": THREADS,
        "connection_limit": connection_limit(),
        "asyncore_use_poll": True,
        "channel_timeout": CHANNEL_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "max_request_header_size": MAX_HEADER_BYTES,
        "max_request_body_size": MAX_BODY_BYTES,
        "ident": "trex-scorekeeper",
    }


def warm_printer() -> None:
    """Load WeasyPrint and the scoresheet's fonts now, so that the first PDF is quick."""
    try:
        from ..printing import warm_up

        warm_up()
    except Exception as exc:  # the table app works without printing
        print(f"Printing is not available: {exc}", file=sys.stderr)


def warm_printing_processes() -> None:
    """Start the printing processes, which lay out every sheet, so that the first is quick."""
    try:
        from ..printing import pool

        pool.warm_up()
    except Exception as exc:
        print(f"The printing processes did not start: {exc}", file=sys.stderr)


def start_job_service() -> Any:
    """The box's one job service (``engine/service.py``), which holds the printing and the
    advisor's processes for every server process, started (before any thread or server
    process) and its printers warmed; its keeper. None where it did not start: each server
    process then starts its own, as on the command line."""
    from ..engine import service

    try:
        keeper = service.Keeper().start()
    except Exception as exc:  # noqa: BLE001 (each server process then keeps its own)
        print(
            f"The shared printing processes did not start ({exc}): each server process "
            f"starts its own.",
            file=sys.stderr,
        )
        service.use(None)
        return None
    warm_printing_processes()
    return keeper


def on_a_screen() -> bool:
    """Does what ``serve`` says go to a terminal, where a person reads it, rather than to a
    log (the journal, a file, a pipe)?"""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def show_admin_link(
    app: Any, root: str, say: Callable[[str], None] = print, *, with_key: bool = True
) -> None:
    """The first time the server runs on a database, print the group's admin link once; where
    what ``serve`` says goes to a log (*with_key* false), only the command that prints it."""
    from ..store.db import connect
    from ..store.keys import admin_key_to_show

    db = connect(app.config["DATABASE"])
    try:
        key = admin_key_to_show(db)
    finally:
        db.close()
    if key and with_key:
        say(
            f"Admin link, shown this once (it lets a phone rename, merge and delete players; "
            f"keep it to yourself; `scorekeeper admin-link` prints it again): "
            f"{root}admin/{key}"
        )
    elif key:
        say(
            "Admin link: `scorekeeper admin-link` prints it (it lets a phone rename, merge and "
            "delete players; keep it to yourself)."
        )


def migrate_at_start(db_path: str | None, groups: str | None) -> str | None:
    """``scorekeeper migrate`` before the server starts: the databases it will open (the one
    database, or the register and every group) brought up to date now, so that an upgrade
    that cannot go through stops the start with a line that says why, never a phone's first
    visit. The summary line; None once each database that failed is said on stderr."""
    from .. import __version__
    from ..store.paths import database_file, instance_folder, named_database
    from ..store.upgrade import upgrade_install

    instance = instance_folder(db_path or named_database())
    if groups:
        done = upgrade_install(instance, groups=True)
    else:
        done = upgrade_install(instance, database=database_file(db_path))
    if done.ok:
        return done.line(__version__)
    for line in (*done.problems(), done.line(__version__)):
        print(line, file=sys.stderr)
    print("The server did not start: see UPGRADING.md.", file=sys.stderr)
    return None


def serve_until_stopped(app: Any, *, workers: int = 1, **options: Any) -> bool:
    """Waitress with *options*, until SIGTERM or SIGINT stops it cleanly (``stopping``);
    True once it has. The log (``logs``) is set up here, for the server alone. With
    *workers* above 1, that many server processes forked on one listening socket
    (``workers``). Whatever their number, they share one job service, which holds the
    printing and the advisor's processes (``start_job_service``)."""
    from flask.logging import default_handler
    from waitress import create_server

    from .serving import logs, stopping

    logs.configure(app.config["LOG_LEVEL"], app.config["LOG_FORMAT"])
    app.logger.removeHandler(default_handler)  # the log's own handler writes Flask's lines
    if workers > 1:
        from .serving import supervisor

        sock = supervisor.listening_socket(options.pop("host"), options.pop("port"))
        keeper = start_job_service()

        def one() -> None:
            if keeper is None:
                warm_printing_processes()
            stopping.run(create_server(app, sockets=[sock], **options))

        try:
            return supervisor.supervise(workers, one, service=keeper) == 0
        finally:
            sock.close()
            if keeper is not None:
                keeper.stop()
    server = create_server(app, **options)  # the port is taken before the service starts
    keeper = start_job_service()
    if keeper is None:
        warm_printing_processes()
    else:
        keeper.watch()
    try:
        stopping.run(server)
    finally:
        if keeper is not None:
            keeper.stop()
    return True


def serve(options: Mapping[str, Any], **keywords: Any) -> int:
    """Serve the app (``start``, which takes the same arguments). With ``--log-format json``,
    whatever is printed meanwhile on standard output and error (what ``serve`` says, a
    library's word) is written as a JSON line, as the log's own (``logs.shaped``)."""
    from .serving import logs

    with logs.shaped(options["log_format"]):
        return start(options, **keywords)


def start(
    options: Mapping[str, Any],
    *,
    db_path: str | None = None,
    end_process: bool = False,
    run: Callable[..., Any] | None = None,
) -> int:
    """Serve the app; print where to open it. *options*: every option of ``serve`` by its
    name, as ``settings.SERVE`` declares them (their keys of the app's configuration are filled
    from that declaration); *db_path*: ``--db``. *run* replaces the server in tests;
    *end_process*: once the server has stopped cleanly, end the process at once (``end``)."""
    from . import KeyFileRefused, create_app, read_key_file
    from .serving import logs
    from .access.hosting import public_url_problem
    from .serving.metrics import metrics_folder, remove_folder

    from ..store.backup import BackupError, serving_lock

    host, port, lan, workers = (options[name] for name in ("host", "port", "lan", "workers"))
    config: dict[str, Any] = serve_config(options)
    proxy_hops, public_url, groups = config["PROXY_HOPS"], config["PUBLIC_URL"], config["GROUPS"]
    log_format, metrics = config["LOG_FORMAT"], config["METRICS"]
    if logs.format_problem(log_format):
        print(f"--log-format: {logs.format_problem(log_format)}.", file=sys.stderr)
        return 2

    def say(message: str, level: str = "info", stream: TextIO | None = None) -> None:
        """A line of what ``serve`` says, in the log's shape (a JSON line with json)."""
        logs.say(message, log_format, level=level, stream=stream)

    problems = {
        "--public-url": public_url and public_url_problem(public_url),
        "--proxy-hops": proxy_hops < 0 and "the number of proxies in front, 1 or more",
        "--workers": not 1 <= workers <= MAX_WORKERS and f"1 to {MAX_WORKERS} server processes",
        "--log-level": logs.level_problem(config["LOG_LEVEL"]),
    }
    for option, problem in problems.items():
        if problem:
            say(f"{option}: {problem}.", "error", sys.stderr)
            return 2
    if config["SECRET_KEY_FILE"]:  # read once, here: never printed, never logged
        try:
            config["SECRET_KEY"] = read_key_file(config["SECRET_KEY_FILE"])
        except KeyFileRefused as exc:
            say(f"--secret-key-file: {exc}.", "error", sys.stderr)
            return 2

    # A key is printed only where a person reads it as the server starts: on a terminal, by a
    # server neither behind a proxy nor writing JSON. Else what is said goes to a log (the
    # journal, `podman logs`, a collector), which holds no secret: the command that prints it.
    keys_shown = not proxy_hops and log_format.lower() == "text" and on_a_screen()
    bind = host or (LAN_HOST if lan else DEFAULT_HOST)
    shown = lan_address() if bind == LAN_HOST else bind
    if db_path:
        config["DATABASE"] = db_path
    config.update(
        PUBLIC_URL=public_url.rstrip("/") if public_url else None,
        TRUSTED_HOSTS=trusted_hosts(
            bind,
            lan=shown if bind == LAN_HOST else None,
            public_url=public_url,
            proxy_hops=proxy_hops,
        ),
    )
    if bind == LAN_HOST:  # what the QR code on a page opened at localhost should point to
        config["LAN_URL"] = f"http://{shown}:{port}/"
    migrated = migrate_at_start(db_path, groups)
    if migrated is None:
        return 1
    config["REPLICATOR"] = replica.replicator()  # Litestream, when it runs this server
    # before the app: every server process writes its figures in that folder (``metrics``)
    figures = metrics_folder() if metrics else None
    app = create_app(config)
    try:  # held while the server runs: `scorekeeper restore` waits for it to stop
        lock = serving_lock(
            app.extensions["groups"].register_path if groups else app.config["DATABASE"]
        )
    except BackupError as exc:
        say(str(exc), "error", sys.stderr)
        remove_folder(figures)
        return 1
    warm_printer()
    root = (public_url.rstrip("/") + "/") if public_url else f"http://{shown}:{port}/"
    say(f"Trex Scorekeeper on {root}")
    say(migrated)
    if proxy_hops and not public_url:
        say(
            f"Behind {proxy_hops} proxy: without --public-url, links and QR codes use the "
            f"host the proxy forwards."
        )
    if lan:
        say("Open that address on the phones at the table (same Wi-Fi), or scan it:")
        if log_format.lower() == "text":
            print_qr(root)
    if proxy_hops:
        command = "scorekeeper groups join-link ID" if groups else "scorekeeper join-link"
        say(
            "Hosted: secure cookies and HSTS; starting or importing a game needs the group's "
            f"join link (`{command}`); table PINs have 6 digits or more."
        )
    if groups:
        say(f"Many groups: each with its own database under {app.instance_path}/groups/.")
        if groups == "invite" and keys_shown:
            key = app.extensions["groups"].invite_key()
            say(
                f"Starting a group is by invitation: give this link to whoever may start "
                f"one (keep it to yourself): {root}invite/{key}"
            )
        elif groups == "invite":
            say(
                "Starting a group is by invitation: `scorekeeper groups invite-link` prints "
                "the link to give whoever may start one (keep it to yourself)."
            )
    else:
        show_admin_link(app, root, say, with_key=keys_shown)
        say(f"Database: {app.config['DATABASE']}")
    if workers > 1:
        say(f"{workers} server processes on one port.")
    if metrics:
        say(f"Metrics for the scraper on this box: http://{shown}:{port}/metrics")
    say("Stop with Ctrl+C.")
    if run is None:
        run = serve_until_stopped
    lost = watch_replicator(config["REPLICATOR"])
    try:
        stopped = run(app, host=bind, port=port, workers=workers, **waitress_options(proxy_hops))
    except OSError as exc:
        say(
            f"Cannot listen on {bind}:{port}: {exc.strerror or exc}. Is another server "
            f"using that port? Try --port.",
            "error",
            sys.stderr,
        )
        return 1
    finally:
        if lock is not None:
            lock.close()
        remove_folder(figures)
    status = 0
    if lost.is_set():
        print(REPLICATOR_LOST.format(pid=config["REPLICATOR"]), file=sys.stderr)
        status = 1
    if end_process and stopped is True:
        end(status)
    return status


#: Why the server stopped by itself: the Litestream that ran it ended.
REPLICATOR_LOST = (
    "Litestream (process {pid}) ended: the databases were no longer replicated, so the server "
    "stopped too. Start both again (the service manager or the container does it by itself)."
)


def watch_replicator(pid: int | None) -> threading.Event:
    """When the server runs under Litestream (process *pid*), stop it as soon as Litestream
    ends, as SIGTERM would: a server left alone would go on acknowledging deals that no replica
    gets (``store.replica``). The event returned is set once that happened."""
    lost = threading.Event()
    if pid is None:
        return lost

    def stop() -> None:
        lost.set()
        logging.getLogger(__name__).error(REPLICATOR_LOST.format(pid=pid))
        os.kill(os.getpid(), signal.SIGTERM)

    replica.watch(pid, stop)
    return lost


def end(status: int) -> None:
    """End the process now that the server has stopped cleanly (the requests answered, the
    worker processes ended, every transaction committed or rolled back), without the
    interpreter's own teardown: freeing WeasyPrint's, the fonts' and the kept pages' objects
    one by one took 0.6 to 1 s more on a busy machine, past the 2 s a host gives a stopping
    service. The log and the standard streams are flushed first."""
    import logging
    import os

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
