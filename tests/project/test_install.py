"""Where an installed wheel keeps its data, and that its pages answer (docs/hosting.md "Where
the data lives", store/paths.py): the wheel is built from this checkout and installed, without the
network, into fresh virtual environments that borrow this one's dependencies.

- installed into a virtual environment: ``<venv>/var/scorekeeper.web-instance``, and ``/``
  answers even with an empty ``templates`` folder in ``site-packages`` (issue 30);
- ``pip install --user``: the user's data folder, never ``site-packages/instance``;
- ``--db`` alone: the secret key beside the database, not in ``<venv>/var``.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from scorekeeper.store.paths import INSTALLED_INSTANCE, USER_FOLDER

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
PURELIB = Path(sysconfig.get_paths()["purelib"])


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built as `python -m build` would, without the network."""
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "-v",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "would be ignored" not in done.stdout + done.stderr
    [built] = out.glob("*.whl")
    return built


def clean_env(home: Path, **more: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SCOREKEEPER_", "PYTHON", "XDG_", "VIRTUAL_ENV"))
    }
    return {**env, "HOME": str(home), **more}


def new_venv(where: Path) -> Path:
    """A virtual environment with its own site-packages (and the user's, as
    ``--system-site-packages`` allows) that finds this environment's dependencies after its
    own packages: a ``.pth`` line, which does not run this environment's editable finder."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(where)],
        check=True,
        timeout=120,
    )
    python = where / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (purelib / "zz_borrowed.pth").write_text(str(PURELIB) + "\n")
    return python


def pip_install(python: Path, wheel: Path, env: dict[str, str], *options: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-index",
            "--no-deps",
            "--ignore-installed",
            *options,
            str(wheel),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def ask(python: Path, env: dict[str, str], code: str) -> str:
    done = subprocess.run(
        [str(python), "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=env["HOME"],
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_and_get(python: Path, env: dict[str, str], *options: str) -> int:
    """Start ``scorekeeper serve`` from *python*, GET ``/`` and stop it: the status."""
    port = free_port()
    log_path = Path(env["HOME"]) / "serve.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(python), "-m", "scorekeeper", "serve", "--port", str(port), *options],
            env=env,
            cwd=env["HOME"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, log_path.read_text(errors="replace")
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            try:
                connection.request("GET", "/")
                return connection.getresponse().status
            except OSError:
                time.sleep(0.2)
            finally:
                connection.close()
        raise AssertionError("the server did not answer: " + log_path.read_text(errors="replace"))
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_wheel_carries_the_fonts_licence_once_and_declares_it(wheel):
    with zipfile.ZipFile(wheel) as built:
        names = built.namelist()
        [meta] = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = built.read(meta).decode()
    assert [n for n in names if n.endswith("LICENSE-DejaVu.txt")] == [
        n for n in names if n.endswith(".dist-info/licenses/static/fonts/LICENSE-DejaVu.txt")
    ]
    assert len([n for n in names if n.endswith("LICENSE-DejaVu.txt")]) == 1
    assert "License-Expression: MIT AND Bitstream-Vera AND LicenseRef-Arev-Fonts" in metadata
    assert any(n.endswith("site/static/fonts/DejaVuSans.ttf") for n in names)
    assert any(n.startswith("scorekeeper/site/templates/history/") for n in names)


def test_the_sdist_carries_the_tests_with_what_they_need(tmp_path):
    out = tmp_path / "sdist"
    out.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta; "
            "print(build_meta.build_sdist(sys.argv[1]))",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "would be ignored" not in done.stdout + done.stderr
    [sdist] = out.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tracked = subprocess.run(
        ["git", "ls-files", "tests", "docs", "deploy"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if tracked:  # in a git checkout: every tracked test file, helper and document
        assert set(tracked) <= names, sorted(set(tracked) - names)
    for needed in (
        "tests/conftest.py",
        "tests/web_helpers.py",
        "tests/browser/conftest.py",
        "tests/run.sh",
        "docs/rules.md",
        "babel.cfg",
        "ARCHITECTURE.md",
        "scorekeeper/translations/messages.pot",
    ):
        assert needed in names, needed


WHERE = "from scorekeeper.store.paths import instance_folder; print(instance_folder())"


def installed(wheel: Path, tmp_path: Path, *options: str, **env: str):
    """The wheel installed (with *options*) into a fresh environment under *tmp_path*, with a
    home of its own: its python, its environment variables and the package's folder."""
    home = tmp_path / "home"
    home.mkdir()
    python = new_venv(tmp_path / "venv")
    variables = clean_env(home, **env)
    pip_install(python, wheel, variables, *options)
    package = Path(ask(python, variables, "import scorekeeper; print(scorekeeper.__file__)"))
    return python, variables, package.resolve().parent


def check_served_from(python: Path, env: dict[str, str], package: Path, instance: Path):
    """The instance folder is *instance*, ``/`` answers, and the data went there only."""
    assert Path(ask(python, env, WHERE)).resolve() == instance
    assert serve_and_get(python, env) == 200
    assert (instance / "scorekeeper.sqlite3").is_file()
    assert (instance / "secret_key").is_file()
    assert not (package.parent / "instance").exists()


def test_installed_into_a_venv_the_data_goes_to_its_var_folder_and_slash_answers(wheel, tmp_path):
    python, env, package = installed(wheel, tmp_path)
    assert (tmp_path / "venv").resolve() in package.parents
    (package.parent / "templates").mkdir()  # an empty folder beside the package
    check_served_from(
        python, env, package, (tmp_path / "venv" / "var" / INSTALLED_INSTANCE).resolve()
    )


def test_with_db_the_secret_key_goes_beside_the_database_not_to_the_venv(wheel, tmp_path):
    python, env, _package = installed(wheel, tmp_path)
    data = tmp_path / "data"
    database = data / "night.sqlite3"
    made = f"create_app({{'DATABASE': {str(database)!r}}})"
    instance = ask(
        python, env, f"from scorekeeper.web import create_app; print({made}.instance_path)"
    )
    assert Path(instance).resolve() == data.resolve()
    assert (data / "secret_key").is_file()
    assert not (tmp_path / "venv" / "var").exists()


def test_a_user_install_keeps_its_data_in_the_users_data_folder(wheel, tmp_path):
    python, env, package = installed(
        wheel, tmp_path, "--user", PYTHONUSERBASE=str(tmp_path / "userbase")
    )
    assert (tmp_path / "userbase").resolve() in package.parents
    check_served_from(
        python, env, package, (tmp_path / "home" / ".local" / "share" / USER_FOLDER).resolve()
    )
