"""200 concurrent seekers of one game, spread over 3 server processes on one Redis (standalone,
then a 3-master Cluster), and on one server with the embedded store as `scripts/serve` runs it:
each seek is paired exactly once, no player with themself. The pool's searches run in the
servers' compute processes (past service.games.seeks.INLINE_SEEKS open seeks)."""
from __future__ import annotations

import collections
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.ops.gunicorn_server import GunicornServer

pytestmark = pytest.mark.ops

SEEKERS = 200


@pytest.fixture(params=["embedded", "redis", "cluster"])
def servers(request, tmp_path):
    env = {"CRIBBAGE_RATE_LIMIT_ENABLED": "0"}
    if request.param != "embedded":
        redis = request.getfixturevalue("redis_server" if request.param == "redis"
                                        else "redis_cluster")
        env.update(CRIBBAGE_REDIS_URL=redis.url + ("/0" if request.param == "redis" else ""),
                   CRIBBAGE_REDIS_CLUSTER="1" if request.param == "cluster" else "0")
    started = []
    try:
        for number in range(1 if request.param == "embedded" else 3):
            (tmp_path / str(number)).mkdir()
            started.append(GunicornServer(env, workers=1, threads=None,
                                          log_dir=tmp_path / str(number)).start())
        yield started
    finally:
        for server in started:
            server.stop()


def test_200_concurrent_seekers_are_paired_exactly_once_each(servers):
    target = random.Random().randrange(31, 1000)   # a pool of this test's own
    tokens = []
    for number in range(SEEKERS):
        status, _, body = servers[number % len(servers)].request(
            "POST", "/v1/players", {"name": f"P{number}"})
        assert status == 201
        tokens.append((body["token"], body["player_id"]))

    def seek(number: int) -> dict:
        token, _ = tokens[number]
        status, _, body = servers[number % len(servers)].request(
            "POST", "/v1/seeks", {"players": 2, "options": {"target": target}},
            {"Authorization": "Bearer " + token})
        assert status == 201, body
        return body

    with ThreadPoolExecutor(50) as pool:
        made = list(pool.map(seek, range(SEEKERS)))

    def settled(number: int) -> dict:
        token, _ = tokens[number]
        status, _, body = servers[(number + 1) % len(servers)].request(
            "GET", f"/v1/seeks/{made[number]['seek_id']}?wait=20",
            headers={"Authorization": "Bearer " + token})
        assert status == 200, body
        return body

    with ThreadPoolExecutor(50) as pool:
        seen = list(pool.map(settled, range(SEEKERS)))
    assert collections.Counter(body["status"] for body in seen) == {"paired": SEEKERS}
    tables = collections.defaultdict(list)
    for number, body in enumerate(seen):
        assert body["token"] == tokens[number][0]
        tables[body["game_id"]].append((body["seat"], tokens[number][1]))
    assert len(tables) == SEEKERS // 2
    for game_id, seated in tables.items():
        assert sorted(seat for seat, _ in seated) == [0, 1]
        assert len({player for _, player in seated}) == 2
        status, _, game = servers[0].request("GET", f"/v1/games/{game_id}")
        assert status == 200
        assert len(game["seats"]) == 2
