"""Shared fixtures: real Redis servers (standalone and a 3-master cluster) for the whole session."""

from __future__ import annotations

import os

import pytest

from tests.redis_servers import RedisClusterServers, RedisServer, require_redis

# The `ops` tests start servers beyond the session's standalone Redis. Besides these, the store
# tests' cluster backend and the tests that start a Redis Cluster themselves are marked in place.
OPS_PATHS = ("tests/ops/", "tests/deploy/test_gunicorn_conf.py")
OPS_FIXTURES = frozenset({"redis_cluster", "dedicated_redis"})
# Apps built in the test process run searches inline, in the calling thread; a test of the
# compute tier builds its own (tests/compute/), and a server started by a test runs them as
# configured (tests/ops/gunicorn_server.py).
os.environ["CRIBBAGE_COMPUTE"] = "inline"
# No table shelf (service.compute.shelves) unless a test gives one: a table another run put on
# the machine's shelf would make a search meant to be slow (a time limit's test) fast.
os.environ["CRIBBAGE_TABLE_SHELF_MB"] = "0"


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.path.relative_to(config.rootpath).as_posix()
        if path.startswith(OPS_PATHS) or OPS_FIXTURES.intersection(item.fixturenames):
            item.add_marker(pytest.mark.ops)


def _require_redis() -> None:
    try:
        require_redis()
    except RuntimeError as missing:
        pytest.fail(str(missing), pytrace=False)


@pytest.fixture(scope="session")
def redis_server():
    """A standalone redis-server on a free loopback port, shared by the session."""
    _require_redis()
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture(scope="session")
def redis_cluster():
    """A 3-master Redis Cluster on free loopback ports, shared by the session."""
    _require_redis()
    cluster = RedisClusterServers().start()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def dedicated_redis():
    """A standalone redis-server of the test's own, free to stop and restart."""
    _require_redis()
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.remove()
