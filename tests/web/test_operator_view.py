"""The operator's view of a box of many groups (issue 39, item 6): a cap on its groups and a
floor of free disk, past which starting a group gets a clear page with the form kept, and
``/metrics`` for the operator's scraper: off unless enabled, added up across ``--workers``,
never served to a phone through the shipped Caddyfile."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from scorekeeper.store import groups as store_groups
from scorekeeper.store.refused import Refused

from group_helpers import groups_app, start_group
from hosted_box import shipped_caddy
from live_server import free_port
from web_helpers import soup

ROOT = Path(__file__).resolve().parents[2]


def start_form(phone, name: str, address: str = "127.0.0.1"):
    return phone.post(
        "/groups/new", data={"name": name, "lang": "ar"}, environ_base={"REMOTE_ADDR": address}
    )


def test_issue39_6__past_the_cap_starting_a_group_gets_a_clear_page_with_the_form_kept(tmp_path):
    app = groups_app(tmp_path, MAX_GROUPS=2)
    start_group(app, "One", address="127.0.0.2")
    start_group(app, "Two", address="127.0.0.3")
    response = start_form(app.test_client(), "Third table", "127.0.0.4")
    assert response.status_code == 503
    page = soup(response)
    assert "holds as many as its operator allows" in page.select_one("#problems").get_text()
    assert page.select_one("input[name=name]")["value"] == "Third table"
    assert page.select_one("input[name=lang][value=ar]").has_attr("checked")
    assert app.extensions["groups"].count() == 2
    front = soup(app.test_client().get("/"))  # said before anyone types a name
    assert "holds as many as its operator allows" in front.select_one("#problems").get_text()
    assert len(list((tmp_path / "instance" / "groups").glob("*.sqlite3"))) == 2
    # the refused start is not counted against the address
    assert app.extensions["groups"].starts_left("127.0.0.4") == store_groups.STARTS_PER_HOUR


def test_issue39_6__below_the_disk_floor_starting_a_group_gets_a_clear_page(tmp_path):
    app = groups_app(tmp_path, MIN_FREE_DISK=1024**6)  # an exabyte: more than any disk
    response = start_form(app.test_client(), "Friday")
    assert response.status_code == 503
    page = soup(response)
    assert "its disk is nearly full" in page.select_one("#problems").get_text()
    assert page.select_one("input[name=name]")["value"] == "Friday"
    assert app.extensions["groups"].count() == 0
    roomy = groups_app(tmp_path / "roomy", MIN_FREE_DISK=1024)
    start_group(roomy, "Friday")


def test_issue39_6__the_refusal_is_in_arabic_for_an_arabic_phone(tmp_path):
    app = groups_app(tmp_path, MAX_GROUPS=0)
    response = app.test_client().post(
        "/groups/new", data={"name": "عائلة", "lang": "ar"}, headers={"Accept-Language": "ar"}
    )
    assert response.status_code == 503
    assert "المشغّل" in soup(response).select_one("#problems").get_text()


def test_issue39_6__starts_at_the_same_moment_cannot_pass_the_cap_together(tmp_path):
    host = store_groups.Host(tmp_path, max_groups=3)
    started, refused = [], []
    barrier = threading.Barrier(8)

    def start(n: int) -> None:
        barrier.wait()
        try:
            started.append(host.create(f"Table {n}"))
        except Refused as exc:
            refused.append(exc.message)

    threads = [threading.Thread(target=start, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(started) == 3 and refused == [store_groups.BOX_FULL] * 5
    assert host.count() == 3
    assert sorted(p.name for p in host.folder.iterdir()) == sorted(
        f"{g.id}.sqlite3" for g in started
    )


def test_issue39_6__a_server_process_that_ended_leaves_no_render_queue_behind(tmp_path):
    from scorekeeper.web.serving.metrics import forget_ended

    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    for pid in (ended.pid, os.getpid()):
        (tmp_path / f"gauge_livesum_{pid}.db").write_bytes(b"")
    (tmp_path / f"counter_{ended.pid}.db").write_bytes(b"")
    forget_ended(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"gauge_livesum_{os.getpid()}.db", f"counter_{ended.pid}.db"]
    )  # its requests still count


def test_issue39_6__metrics_are_off_unless_enabled(tmp_path):
    app = groups_app(tmp_path)
    assert app.test_client().get("/metrics").status_code == 404
    assert "metrics" not in app.blueprints


def test_issue39_6__metrics_count_requests_by_route_pattern_in_one_process(tmp_path):
    app = groups_app(tmp_path, METRICS=True)
    phone = app.test_client()
    before = healthz_count(samples(phone.get("/metrics").get_data(as_text=True)))
    for _ in range(3):
        phone.get("/healthz")
    response = phone.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=")
    assert response.headers["Cache-Control"] == "no-store"
    found = samples(response.get_data(as_text=True))
    assert healthz_count(found) - before == 3
    assert found[("scorekeeper_groups", ())] == 0
    start_group(app, "Friday")
    found = samples(phone.get("/metrics").get_data(as_text=True))
    assert found[("scorekeeper_groups", ())] == 1
    assert found[("scorekeeper_groups_bytes", ())] > 0


# -- through the real server ---------------------------------------------------------------
def serve(tmp_path: Path, *args: str, env: dict | None = None):
    """``scorekeeper serve --groups`` on a free port, its output in a file."""
    port = free_port()
    out = tmp_path / "serve.log"
    with out.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port), *args],
            env={
                **os.environ,
                "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
                "PROMETHEUS_MULTIPROC_DIR": "",
                **(env or {}),
            },
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, out.read_text()
        try:
            ask(port, "/healthz")
            return process, port, out
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not start: " + out.read_text())


def ask(port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def stop(process) -> None:
    if process.poll() is None:
        process.terminate()
    process.wait(timeout=15)


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """The scrape, parsed by prometheus-client's own parser: (sample name, labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def healthz_count(found: dict) -> float:
    return found.get(
        (
            "scorekeeper_requests_total",
            (("method", "GET"), ("route", "/healthz"), ("status", "200")),
        ),
        0.0,
    )


def test_issue39_6__metrics_add_up_every_server_process_and_name_no_path(tmp_path):
    process, port, out = serve(
        tmp_path,
        "--groups",
        "--workers",
        "2",
        "--proxy-hops",
        "1",
        "--max-groups",
        "50",
        env={"SCOREKEEPER_METRICS": "1", "SCOREKEEPER_MIN_FREE_DISK": "1M"},
    )
    try:
        before = healthz_count(samples(ask(port, "/metrics")[1]))
        for _ in range(40):  # new connections: the kernel hands them to both processes
            assert ask(port, "/healthz")[0] == 200
        assert ask(port, "/g/abcdefghjk/e/" + "7" * 32)[0] == 404
        assert ask(port, "/nowhere/" + "7" * 32 + "?pin=424242")[0] == 404
        scrapes = [samples(ask(port, "/metrics")[1]) for _ in range(6)]
        # whichever process answers the scrape adds up both processes' counts
        assert {healthz_count(s) - before for s in scrapes} == {40.0}
        found = scrapes[-1]
        assert found[("scorekeeper_groups", ())] == 0
        assert found[("scorekeeper_groups_max", ())] == 50
        assert found[("scorekeeper_disk_free_bytes", ())] > 1024**2
        assert found[("scorekeeper_disk_free_floor_bytes", ())] == 1024**2
        assert ("scorekeeper_render_queue", ()) in found
        assert ("scorekeeper_render_waiting", ()) in found
        assert ("scorekeeper_renders_total", ()) in found
        assert found[("scorekeeper_request_seconds_count", (("route", "/healthz"),))] >= 40
        text = ask(port, "/metrics")[1]
        assert "7" * 32 not in text and "abcdefghjk" not in text and "424242" not in text
        assert 'route="/g/<group>/e/<key>",status="404"' in text  # the pattern, not the key
        assert 'route="-",status="404"' in text  # an address that leads nowhere
        # a request that came through a proxy is a phone's, not the scraper's
        assert ask(port, "/metrics", {"X-Forwarded-For": "127.0.0.1"})[0] == 404
        assert "Metrics for the scraper on this box: http://127.0.0.1:" in out.read_text()
    finally:
        stop(process)
    assert process.returncode == 0


def test_issue39_6__through_the_shipped_caddy_a_phone_gets_404_for_metrics(tmp_path):
    process, port, out = serve(tmp_path, "--groups", "--proxy-hops", "1", "--metrics")
    try:
        assert ask(port, "/metrics")[0] == 200  # the scraper, on the box
        with shipped_caddy(tmp_path, port) as (caddy_port, _log):
            for path in ("/metrics", "/metrics/", "/METRICS", "/metrics?x=1", "//metrics"):
                status, body = ask(caddy_port, path)
                assert status == 404, path
                assert "scorekeeper_requests_total" not in body
            assert ask(caddy_port, "/healthz")[0] == 200  # the rest still passes
            time.sleep(0.3)
    finally:
        stop(process)
    # Caddy answered them itself: the app saw the scraper's request alone
    assert len(re.findall(r"GET /metrics ", out.read_text())) == 1, out.read_text()


def test_issue39_6__serve_refuses_a_bad_floor_or_cap_in_one_line(tmp_path):
    for option, value in (("--min-free-disk", "lots"), ("--max-groups", "-3")):
        result = subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", "serve", option, value],
            env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        assert result.returncode == 2
        assert option in result.stderr and "Traceback" not in result.stderr
