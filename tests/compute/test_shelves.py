"""Win-model tables built once per deployment: the shelves (a directory, real Redis and a real
Cluster) and the compute processes that use them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import redis
from redis.cluster import RedisCluster

from service.bots import shelf, side_race
from service.compute import ANALYSIS, BACKGROUND, MOVE, ComputeTier
from service.compute.local import LocalPool
from service.compute.shelves import (INDEX, SIZES, TABLE, DirectoryShelf, RedisShelf,
                                     shelf_for)
from service.config import Settings

ROOT = Path(__file__).resolve().parents[2]
MB = 2**20

# Prints the win chances of a two-player position to 200 and how many tables had to be built.
VALUE_IN_A_NEW_PROCESS = """
import json, sys
from service.bots import shelf, side_race, win_probability
from service.compute.shelves import shelf_for
from service.config import Settings
shelf.use(shelf_for(Settings.from_env()))
built = []
solve = win_probability.solve
win_probability.solve = lambda *args: built.append(1) or solve(*args)
value = side_race.layout_position_value((150, 20), 0, 2, None, 200)
print(json.dumps({"win": list(value.win), "built": len(built)}))
"""


def value_in_a_new_process(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-c", VALUE_IN_A_NEW_PROCESS], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def empty_redis_shelf(client) -> None:
    client.delete(INDEX, SIZES, *client.keys(TABLE + "*"))


@pytest.fixture
def no_shelf_after():
    yield
    shelf.use(None)


def test_a_table_built_by_one_process_is_read_by_the_next(tmp_path):
    env = {"CRIBBAGE_TABLE_SHELF_MB": "64", "CRIBBAGE_TABLE_DIR": str(tmp_path),
           "CRIBBAGE_REDIS_URL": ""}
    first = value_in_a_new_process(env)
    second = value_in_a_new_process(env)
    assert first["built"] == 3  # the win table and the two game-point tables
    assert second["built"] == 0
    assert second["win"] == first["win"]
    assert round(sum(first["win"]), 12) == 1
    assert sorted(path.name.replace(f"-{shelf.FINGERPRINT}", "")
                  for path in tmp_path.iterdir()) == ["points-2-200-standard.npz", "win-2-241.npz"]


def test_without_a_shelf_each_process_builds_its_own(tmp_path):
    env = {"CRIBBAGE_TABLE_SHELF_MB": "0", "CRIBBAGE_TABLE_DIR": str(tmp_path)}
    assert value_in_a_new_process(env)["built"] == 3
    assert value_in_a_new_process(env)["built"] == 3
    assert list(tmp_path.iterdir()) == []


def test_the_shelf_is_redis_when_the_store_is(redis_server):
    client = redis.Redis(port=redis_server.port)
    empty_redis_shelf(client)
    env = {"CRIBBAGE_TABLE_SHELF_MB": "64", "CRIBBAGE_REDIS_URL": redis_server.url}
    first = value_in_a_new_process(env)
    second = value_in_a_new_process(env)
    assert (first["built"], second["built"]) == (3, 0)
    assert second["win"] == first["win"]
    names = sorted(name.decode() for name in client.zrange(INDEX, 0, -1))
    assert names == [f"points-2-200-standard-{shelf.FINGERPRINT}",
                     f"win-2-241-{shelf.FINGERPRINT}"]
    sizes = {name.decode(): int(size) for name, size in client.hgetall(SIZES).items()}
    assert sizes == {name: client.strlen(TABLE + name) for name in names}


def test_shelves_keep_within_their_bound_dropping_the_least_recently_used(tmp_path, redis_server):
    client = redis.Redis(port=redis_server.port)
    empty_redis_shelf(client)
    (tmp_path / "tables").mkdir()
    for shelf_ in (DirectoryShelf(tmp_path / "tables", 3 * MB), RedisShelf(client, 3 * MB)):
        for name in ("a", "b", "c"):
            shelf_.put(name, bytes(MB))
        assert shelf_.get("a") == bytes(MB)  # a is now used later than b
        shelf_.put("d", bytes(MB))
        assert [shelf_.get(name) is not None for name in "abcd"] == [True, False, True, True]
        shelf_.put("e", bytes(2 * MB))
        assert [shelf_.get(name) is not None for name in "acde"] == [False, False, True, True]
        shelf_.put("too big", bytes(3 * MB + 1))  # never kept: it would empty the shelf
        assert shelf_.get("too big") is None and shelf_.get("e") is not None
    assert sorted(path.name for path in (tmp_path / "tables").iterdir()) == ["d.npz", "e.npz"]
    assert client.hlen(SIZES) == 2 and client.zcard(INDEX) == 2
    assert sorted(key.decode() for key in client.keys(TABLE + "*")) == [TABLE + "d", TABLE + "e"]


def test_a_redis_cluster_keeps_the_shelf_on_one_node(redis_cluster):
    client = RedisCluster.from_url(redis_cluster.url)
    shelf_ = RedisShelf(client, 3 * MB)
    for name in ("x", "y", "z", "w"):
        shelf_.put(name, bytes(MB))
    assert [shelf_.get(name) is not None for name in "xyzw"] == [False, True, True, True]
    assert {client.keyslot(key) for key in (INDEX, SIZES, TABLE + "x", TABLE + "y")} == {
        client.keyslot("{tables}")}  # so a put and an eviction are each one transaction
    empty_redis_shelf(client)


class FailingShelf:
    def get(self, name):
        raise redis.ConnectionError("the shelf is down")

    def put(self, name, data):
        raise redis.ConnectionError("the shelf is down")


def test_a_failing_shelf_is_passed_by(no_shelf_after, caplog):
    shelf.use(FailingShelf())
    built = shelf.shelved("test-table", lambda: (np.arange(3.0),))
    assert [array.tolist() for array in built] == [[0.0, 1.0, 2.0]]
    assert [record.getMessage() for record in caplog.records] == [
        f"table test-table-{shelf.FINGERPRINT} not read from the shelf: the shelf is down",
        f"table test-table-{shelf.FINGERPRINT} not put on the shelf: the shelf is down"]


def test_several_arrays_come_back_as_they_were_put(tmp_path, no_shelf_after):
    shelf.use(DirectoryShelf(tmp_path, 8 * MB))
    arrays = (np.arange(6.0).reshape(2, 3), np.array([0.25, 0.75]))
    put = shelf.shelved("pair", lambda: arrays)
    read = shelf.shelved("pair", lambda: pytest.fail("built again"))
    assert [array.tolist() for array in read] == [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
                                                   [0.25, 0.75]]
    assert put is arrays


def test_a_directory_others_may_write_in_is_no_shelf(tmp_path, caplog):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert shelf_for(Settings.from_env({"CRIBBAGE_TABLE_DIR": str(shared)})) is None
    assert caplog.messages == [f"no table shelf: {shared} is not this user's alone"]
    made = tmp_path / "made"
    assert isinstance(shelf_for(Settings.from_env({"CRIBBAGE_TABLE_DIR": str(made)})),
                      DirectoryShelf)
    assert made.stat().st_mode & 0o777 == 0o700


def test_settings_choose_the_shelf(tmp_path, redis_server):
    directory = shelf_for(Settings.from_env({"CRIBBAGE_TABLE_DIR": str(tmp_path)}))
    assert isinstance(directory, DirectoryShelf)
    assert (directory.directory, directory.max_bytes) == (tmp_path, 64 * MB)
    on_redis = shelf_for(Settings.from_env({"CRIBBAGE_REDIS_URL": redis_server.url,
                                            "CRIBBAGE_TABLE_SHELF_MB": "32"}))
    assert isinstance(on_redis, RedisShelf) and on_redis.max_bytes == 32 * MB
    assert shelf_for(Settings.from_env({"CRIBBAGE_TABLE_SHELF_MB": "0"})) is None


def test_compute_processes_put_their_tables_on_the_deployment_s_shelf(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIBBAGE_TABLE_SHELF_MB", "64")
    monkeypatch.setenv("CRIBBAGE_TABLE_DIR", str(tmp_path))
    monkeypatch.delenv("CRIBBAGE_REDIS_URL", raising=False)
    three_players = ((10, 20, 30), 0, 3, None, 300, "standard")
    pool = LocalPool(2, {MOVE: 10, ANALYSIS: 10, BACKGROUND: 10})
    try:
        value = ComputeTier(pool, time_limit=60).run("position_value", three_players, ANALYSIS)
    finally:
        pool.close()
    assert value == side_race.layout_position_value(*three_players)
    assert [path.name for path in tmp_path.iterdir()] == [
        f"cycle-3-300-standard-{shelf.FINGERPRINT}.npz"]
