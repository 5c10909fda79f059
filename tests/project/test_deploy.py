"""The three ways the app reaches a table, checked as they are shipped in ``deploy/``: the
systemd units of an always-on box (``systemd-analyze verify``), the reverse proxy's Caddyfile
(``caddy validate``) and the container's Dockerfile (what it promises: a user without rights, the
database on a volume, the health check). The image itself is built and run by
``deploy/check-image.sh`` where a container engine can run (see docs/hosting.md)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").iterdir())
INSTALLED = "/opt/trex-scorekeeper/venv/bin/scorekeeper"


def verify(tmp_path: Path, units: list[Path]) -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` on copies of *units* whose commands are this checkout's
    ``scorekeeper`` and ``litestream`` (the real paths exist only once installed on the box)."""
    here = Path(sys.executable).with_name("scorekeeper")
    copies = []
    for unit in units:
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text().replace(str(Path(INSTALLED).parent), str(here.parent)))
        copies.append(str(copy))
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *copies], capture_output=True, text=True
    )


def test_the_systemd_units_verify_without_a_warning(tmp_path):
    assert {u.name for u in UNITS} == {
        "trex-scorekeeper.service",
        "trex-scorekeeper-backup.service",
        "trex-scorekeeper-backup.timer",
        "trex-scorekeeper-replicate.service",
    }
    result = verify(tmp_path, UNITS)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_the_unit_check_sees_a_mistake(tmp_path):
    broken = tmp_path / "src" / "trex-scorekeeper.service"
    broken.parent.mkdir()
    broken.write_text(
        (DEPLOY / "systemd" / "trex-scorekeeper.service")
        .read_text()
        .replace("Restart=on-failure", "Restart=sometimes")
    )
    assert "restart specifier" in verify(tmp_path, [broken]).stderr


def unit(name: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (DEPLOY / "systemd" / name).read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def test_the_service_restarts_on_failure_with_its_data_in_a_fixed_place():
    service = unit("trex-scorekeeper.service")
    assert service["Restart"] == ["on-failure"] and service["User"] == ["trex"]
    assert "SCOREKEEPER_INSTANCE=/var/lib/trex-scorekeeper" in service["Environment"]
    assert service["StateDirectory"] == ["trex-scorekeeper"]
    backup = unit("trex-scorekeeper-backup.service")
    assert backup["ExecStart"] == [
        f"{INSTALLED} backup --into /var/lib/trex-scorekeeper/backups --keep 14"
    ]
    assert unit("trex-scorekeeper-backup.timer")["Persistent"] == ["true"]


def test_the_caddyfile_is_valid():
    result = subprocess.run(
        ["caddy", "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "reverse_proxy 127.0.0.1:5000" in (DEPLOY / "Caddyfile").read_text()


def test_the_dockerfile_runs_as_a_user_with_the_data_on_a_volume():
    text = (DEPLOY / "Dockerfile").read_text()
    instructions = [
        re.split(r"\s+", line.strip(), maxsplit=1)
        for line in re.sub(r"\\\n", " ", text).splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    by_name: dict[str, list[str]] = {}
    for name, *rest in instructions:
        by_name.setdefault(name.upper(), []).append(rest[0] if rest else "")
    assert by_name["USER"] == ["trex"]
    assert by_name["VOLUME"] == ['["/data"]']
    assert any("SCOREKEEPER_INSTANCE=/data" in env for env in by_name["ENV"])
    assert "/healthz" in by_name["HEALTHCHECK"][0]
    # issue 27, item 5: an init as PID 1 passes the stop signal on and reaps
    assert by_name["ENTRYPOINT"] == ['["/usr/bin/tini", "--", "scorekeeper"]']
    assert "tini" in by_name["RUN"][0].split()
    assert "serve" in by_name["CMD"][0]
    copied = " ".join(by_name["COPY"])
    for part in ("scorekeeper", "templates", "static", "pyproject.toml"):
        assert part in copied


@pytest.mark.parametrize("tool", ["systemd-analyze", "caddy"])
def test_the_tools_the_checks_need_are_installed_by_the_test_command(tool):
    assert shutil.which(tool), f"tests/run.sh installs {tool}"


def exposure(unit_file: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit_file)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    assert found, result.stdout[-1000:] + result.stderr[-1000:]
    return float(found.group(1))


def offline_security_check() -> bool:
    if not shutil.which("systemd-analyze"):
        return False
    result = subprocess.run(
        ["systemd-analyze", "security", "--help"], capture_output=True, text=True
    )
    return "--offline" in result.stdout


@pytest.mark.skipif(
    not offline_security_check(),
    reason="systemd-analyze security --offline needs systemd 250 or later",
)
@pytest.mark.parametrize("name", [u.name for u in UNITS if u.suffix == ".service"])
def test_issue39_4__every_shipped_service_scores_3_or_better_in_systemd_analyze_security(name):
    # issue 27 item 5 checked the server's and the backup's; the replicate unit rated 7.3
    assert exposure(DEPLOY / "systemd" / name) <= 3.0


def test_issue39_4__every_shipped_unit_that_is_no_service_starts_one_and_runs_nothing():
    """A timer runs no process of its own (``systemd-analyze security`` rates services): it
    starts the service of its name, which the check above rates."""
    others = [u for u in UNITS if u.suffix != ".service"]
    assert [u.suffix for u in others] == [".timer"]
    for timer in others:
        settings = unit(timer.name)
        assert not any(key.startswith("Exec") for key in settings)
        assert "Unit" not in settings and timer.with_suffix(".service") in UNITS


@pytest.mark.skipif(
    not offline_security_check(),
    reason="systemd-analyze security --offline needs systemd 250 or later",
)
def test_item5_the_security_check_sees_a_unit_without_its_hardening(tmp_path):
    bare = tmp_path / "trex-scorekeeper.service"
    bare.write_text(
        "\n".join(
            line
            for line in (DEPLOY / "systemd" / bare.name).read_text().splitlines()
            if not line.startswith(("Protect", "Private", "Restrict", "System"))
        )
    )
    assert exposure(bare) > 3.0


def test_item5_the_image_is_built_with_the_pinned_versions_within_the_bounds():
    from packaging.requirements import Requirement

    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {}
    for line in (DEPLOY / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    for text in [
        *project["dependencies"],
        *(r for extra in project["optional-dependencies"].values() for r in extra),
    ]:
        requirement = Requirement(text)
        assert any(spec.operator == "<" for spec in requirement.specifier), text
    for text in project["dependencies"]:
        requirement = Requirement(text)
        pinned = pins[re.sub(r"[-_.]+", "-", requirement.name).lower()]
        assert requirement.specifier.contains(pinned), (text, pinned)
    assert "--constraint /src/constraints.txt" in (DEPLOY / "Dockerfile").read_text()
