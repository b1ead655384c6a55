"""gunicorn's server hooks: the metrics directory's life, the embedded-store warnings and what
survives a crash."""
import logging
import os
from types import SimpleNamespace

import pytest

from service.server.hooks import EMBEDDED_STORE, child_exit, on_exit, on_starting


class FakeLog:
    def __init__(self):
        self.lines = []

    def log(self, level, message, *args):
        self.lines.append((logging.getLevelName(level).lower(), message % args))

    def warning(self, message, *args):
        self.log(logging.WARNING, message, *args)

    @property
    def warnings(self):
        return [message for level, message in self.lines if level == "warning"]


def fake_server(workers):
    return SimpleNamespace(cfg=SimpleNamespace(workers=workers), log=FakeLog())


@pytest.fixture
def environment(monkeypatch):
    """No metrics directory and no Redis; whatever the hooks set is undone afterwards."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    monkeypatch.setenv("CRIBBAGE_REDIS_URL", "")
    monkeypatch.setenv("CRIBBAGE_DURABILITY", "")
    return monkeypatch


def test_one_worker_needs_no_metrics_directory(environment):
    server = fake_server(1)
    on_starting(server)
    assert not hasattr(server, "cribbage_metrics_dir")
    assert server.log.warnings == [EMBEDDED_STORE]


def test_two_workers_get_a_temporary_directory_removed_at_exit(environment):
    server = fake_server(2)
    environment.setenv("CRIBBAGE_REDIS_URL", "redis://127.0.0.1:6379/0")
    environment.setenv("CRIBBAGE_DURABILITY", "fsync")
    on_starting(server)
    directory = server.cribbage_metrics_dir
    assert directory == os.environ["PROMETHEUS_MULTIPROC_DIR"]
    assert server.log.warnings == []
    on_exit(server)
    assert not os.path.exists(directory)


def test_a_given_directory_is_emptied_of_an_earlier_runs_files_and_kept(environment, tmp_path):
    (tmp_path / "counter_1.db").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("kept")
    environment.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    server = fake_server(1)
    on_starting(server)
    on_exit(server)
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


def test_a_dead_workers_gauges_are_dropped_from_the_directory(environment, tmp_path):
    environment.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    server = fake_server(2)
    on_starting(server)
    dropped = []
    server.cribbage_mark_process_dead = lambda pid, directory: dropped.append((pid, directory))
    child_exit(server, SimpleNamespace(pid=4321))
    assert dropped == [(4321, str(tmp_path))]


def test_several_workers_on_the_embedded_store_are_warned_about(environment):
    server = fake_server(3)
    on_starting(server)
    on_exit(server)
    assert server.log.warnings == [
        "3 workers with the embedded store: each worker keeps its own games; "
        "set CRIBBAGE_REDIS_URL or WEB_CONCURRENCY=1",
        EMBEDDED_STORE]


def test_the_embedded_store_says_at_start_up_that_nothing_survives_a_restart(environment):
    server = fake_server(1)
    on_starting(server)
    assert server.log.lines == [(
        "warning", "the embedded store keeps games in this process's memory only: nothing "
        "survives a restart or a crash of the service; set CRIBBAGE_REDIS_URL to keep them")]


@pytest.mark.parametrize("mode, line", [
    ("", ("warning", "CRIBBAGE_DURABILITY=none: an action is acknowledged once Redis holds it in "
                     "memory; a Redis crash keeps it only as far as Redis's own persistence "
                     "settings do")),
    ("fsync", ("info", "CRIBBAGE_DURABILITY=fsync: an action is acknowledged only once it is in "
                       "Redis's append-only file on disk (appendfsync always, checked on every "
                       "connection)")),
    ("replica", ("info", "CRIBBAGE_DURABILITY=replica: an action is acknowledged only once a "
                         "Redis replica has it (WAIT 1, at most 1 s)")),
])
def test_with_redis_the_start_up_log_says_what_an_acknowledged_action_survives(
        environment, mode, line):
    environment.setenv("CRIBBAGE_REDIS_URL", "redis://127.0.0.1:6379/0")
    environment.setenv("CRIBBAGE_DURABILITY", mode)
    server = fake_server(1)
    on_starting(server)
    assert server.log.lines == [line]
