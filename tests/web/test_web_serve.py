"""`scorekeeper serve`: waitress on 127.0.0.1 by default, --lan on the local network."""

from __future__ import annotations

import ipaddress

import pytest

from scorekeeper import cli
from scorekeeper.web import serve as serve_module


class FakeWaitress:
    def __init__(self):
        self.calls = []

    def __call__(self, app, **kwargs):
        self.calls.append((app, kwargs))


@pytest.fixture(autouse=True)
def instance(tmp_path, monkeypatch):
    """Keep the secret key these runs create out of the repository's instance folder."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))


@pytest.fixture(autouse=True)
def warm_ups(monkeypatch):
    """Count the printer's warm-ups instead of loading WeasyPrint in every test."""
    calls = []
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: calls.append(1))
    return calls


@pytest.fixture
def fake(monkeypatch):
    fake = FakeWaitress()
    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", fake)
    return fake


def test_serve__defaults_to_localhost_and_the_given_database(tmp_path, fake, capsys):
    db = tmp_path / "night.sqlite3"
    assert cli.main(["serve", "--db", str(db), "--port", "5123"]) == 0
    app, kwargs = fake.calls[0]
    assert kwargs["host"] == "127.0.0.1" and kwargs["port"] == 5123
    assert app.config["DATABASE"] == str(db) and db.exists()
    out = capsys.readouterr().out
    assert "http://127.0.0.1:5123/" in out


def test_serve__honours_scorekeeper_db(tmp_path, fake, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "env.sqlite3"))
    assert cli.main(["serve"]) == 0
    assert fake.calls[0][0].config["DATABASE"] == str(tmp_path / "env.sqlite3")


def test_serve__lan_listens_everywhere_and_prints_the_address(tmp_path, fake, capsys, monkeypatch):
    monkeypatch.setattr(serve_module, "lan_address", lambda: "192.168.1.23")
    assert cli.main(["serve", "--lan", "--db", str(tmp_path / "x.db")]) == 0
    assert fake.calls[0][1]["host"] == "0.0.0.0"
    assert "http://192.168.1.23:5000/" in capsys.readouterr().out


def test_serve__host_given(tmp_path, fake):
    cli.main(["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "x.db")])
    assert fake.calls[0][1]["host"] == "0.0.0.0"


def test_lan_address__is_an_ip_address():
    ipaddress.ip_address(serve_module.lan_address())


def test_serve__port_in_use_is_a_clear_message(tmp_path, monkeypatch, capsys):
    def busy(app, **kwargs):
        raise OSError(98, "Address already in use")

    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", busy)
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 1
    assert "Cannot listen on 127.0.0.1:5000: Address already in use" in capsys.readouterr().err


def test_serve__warms_the_printer_once_before_listening(tmp_path, fake, warm_ups):
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 0
    assert warm_ups == [1] and len(fake.calls) == 1


def test_serve__a_printer_that_fails_to_load_does_not_stop_the_app(
    tmp_path, fake, monkeypatch, capsys
):
    def broken():
        raise OSError("no Pango")

    monkeypatch.setattr("scorekeeper.printing.warm_up", broken)
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 0
    assert "Printing is not available: no Pango" in capsys.readouterr().err


def test_serve__lan_tells_the_app_its_network_address_for_qr_codes(tmp_path, fake, monkeypatch):
    monkeypatch.setattr(serve_module, "lan_address", lambda: "192.168.1.23")
    cli.main(["serve", "--lan", "--port", "5050", "--db", str(tmp_path / "x.db")])
    assert fake.calls[0][0].config["LAN_URL"] == "http://192.168.1.23:5050/"


def test_serve__slow_clients_cannot_take_the_server(tmp_path, fake):
    """Many connections, each dropped after a few seconds of silence mid-request, heads and
    bodies bounded (benchmarks/bench_slow_clients.py measures what this gives)."""
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 0
    kwargs = fake.calls[0][1]
    assert kwargs["connection_limit"] >= 500 and kwargs["asyncore_use_poll"] is True
    assert kwargs["channel_timeout"] < 15 and kwargs["cleanup_interval"] <= 5
    assert kwargs["max_request_body_size"] <= 16 * 1024 * 1024
    assert kwargs["max_request_header_size"] <= 64 * 1024
    assert kwargs["threads"] == serve_module.THREADS


def drawn_modules(text: str) -> list[list[int]]:
    """The QR code's modules (1 dark) read back from its drawing in block characters: each
    character is two rows, a full block light over light, a space dark over dark."""
    halves = {"█": (0, 0), " ": (1, 1), "▀": (0, 1), "▄": (1, 0)}
    rows: list[list[int]] = []
    for line in text.splitlines():
        if not line or any(c not in halves for c in line):
            continue
        rows.append([halves[c][0] for c in line])
        rows.append([halves[c][1] for c in line])
    return rows


def test_serve__lan_prints_the_address_as_a_qr_code_to_scan(tmp_path, fake, capsys, monkeypatch):
    import segno

    monkeypatch.setattr(serve_module, "lan_address", lambda: "192.168.1.23")
    assert cli.main(["serve", "--lan", "--db", str(tmp_path / "x.db")]) == 0
    out = capsys.readouterr().out
    code = segno.make("http://192.168.1.23:5000/", error="m")
    want = [[int(bool(m)) for m in row] for row in code.matrix]
    drawn = drawn_modules(out)
    border = 4
    inner = [row[border : border + len(want)] for row in drawn[border : border + len(want)]]
    assert inner == want  # the very address, scannable


def test_serve__without_lan_no_qr_code(tmp_path, fake, capsys):
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 0
    assert drawn_modules(capsys.readouterr().out) == []


def test_print_qr__a_terminal_without_block_characters_gets_a_word(tmp_path):
    import io

    class Latin1(io.StringIO):
        def write(self, text):
            text.encode("latin-1")
            return super().write(text)

    out = Latin1()
    serve_module.print_qr("http://192.168.1.23:5000/", out)
    assert "cannot draw the QR code" in out.getvalue()
