"""The README's and the hosting guide's box of many groups as written: ``serve --groups`` and the shipped
``deploy/Caddyfile`` meet on one port, which the container and the systemd unit use too; the
banner names the command that exists on such a box; the container starts one with a single
variable; and ``serve --instance DIR`` takes a relative folder as every other command does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import cli

from test_web_serve import FakeWaitress

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.fixture(autouse=True)
def quiet(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_GROUPS", raising=False)
    monkeypatch.setattr("scorekeeper.printing.warm_up", lambda: None)


@pytest.fixture
def fake(monkeypatch):
    fake = FakeWaitress()
    monkeypatch.setattr("scorekeeper.web.serve.serve_until_stopped", fake)
    return fake


def dockerfile_instructions() -> dict[str, list[str]]:
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, rest = line.strip().partition(" ")
            found.setdefault(name.upper(), []).append(rest.strip())
    return found


def test_issue37_7__serve_groups_the_caddyfile_the_container_and_the_units_meet_on_one_port(
    fake,
):
    assert cli.main(["serve", "--groups", "--proxy-hops", "1"]) == 0
    port = fake.calls[0][1]["port"]
    caddy = re.findall(r"reverse_proxy 127\.0\.0\.1:(\d+)", (DEPLOY / "Caddyfile").read_text())
    assert caddy == [str(port)]
    docker = dockerfile_instructions()
    assert docker["EXPOSE"] == [str(port)]
    assert f"127.0.0.1:{port}/healthz" in docker["HEALTHCHECK"][0]
    assert "--port" not in docker["CMD"][0] or f'"{port}"' in docker["CMD"][0]
    service = (DEPLOY / "systemd" / "trex-scorekeeper.service").read_text()
    assert re.findall(r"--port (\d+)", service) == [str(port)]
    readme = "\n".join(p.read_text() for p in (ROOT / "README.md", *(ROOT / "docs").glob("*.md")))
    published = re.findall(r"-p 127\.0\.0\.1:(\d+):(\d+)", readme)
    assert published and set(published) == {(str(port), str(port))}
    assert not re.search(r"--port (?!P\b)(?!%s\b)\d+" % port, readme)
    assert not re.search(r"box-[ab]:(?!%s\b)\d+" % port, readme)


def test_issue37_7__the_banner_on_a_box_of_many_groups_names_groups_join_link(fake, capsys):
    assert cli.main(["serve", "--groups", "--proxy-hops", "1"]) == 0
    out = capsys.readouterr().out
    assert "`scorekeeper groups join-link ID`" in out
    assert "`scorekeeper join-link`" not in out


def test_issue37_7__the_banner_of_one_group_still_names_join_link(fake, capsys, tmp_path):
    assert cli.main(["serve", "--proxy-hops", "1", "--db", str(tmp_path / "one.db")]) == 0
    assert "`scorekeeper join-link`" in capsys.readouterr().out


def test_issue37_7__the_container_starts_a_box_of_many_groups_with_one_variable(fake, monkeypatch):
    """The image's own command, with SCOREKEEPER_GROUPS=1 and nothing else added, serves many
    groups; the Dockerfile and the README both name that variable."""
    monkeypatch.setenv("SCOREKEEPER_GROUPS", "1")
    command = re.findall(r'"([^"]+)"', dockerfile_instructions()["CMD"][0])
    assert cli.main(command) == 0
    app = fake.calls[0][0]
    assert app.config["GROUPS"] == "open"
    assert "SCOREKEEPER_GROUPS=1" in (DEPLOY / "Dockerfile").read_text()
    assert "-e SCOREKEEPER_GROUPS=1" in (ROOT / "README.md").read_text()


def test_issue37_7__serve_groups_takes_a_relative_instance_folder(
    fake, monkeypatch, tmp_path, capsys
):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["groups", "create", "Thursday club", "--instance", "box"]) == 0
    assert cli.main(["serve", "--groups", "--instance", "box"]) == 0
    app = fake.calls[0][0]
    assert Path(app.instance_path) == tmp_path / "box"
    assert "instance path must be absolute" not in capsys.readouterr().err
    assert len(list((tmp_path / "box" / "groups").glob("*.sqlite3"))) == 1
