"""The deadline sweeper under the real server: each gunicorn worker starts one, and a seat's
turn timer runs out with no request at all to the game (three worker processes sweeping one
Redis)."""

from __future__ import annotations

import json
import time

from service.store import RedisGameStore
from tests.ops.gunicorn_server import GunicornServer


def test_three_server_processes_apply_a_turn_timeout_once_with_no_client(tmp_path,
                                                                         redis_server):
    server = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0",
                             "CRIBBAGE_REDIS_URL": redis_server.url,
                             "CRIBBAGE_SWEEP_SECONDS": "1"},
                            workers=3, threads=None, log_dir=tmp_path).start()
    try:
        status, _, created = server.request("POST", "/v1/games", {
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "first"}],
            "options": {"turn_time_limit": 10}})
        assert status == 201
        store = RedisGameStore(redis_server.url, 3600)
        game_id = created["game_id"]
        for _ in range(60):  # the deadline is 10 s away; no request reads the game meanwhile
            time.sleep(0.5)
            if store.load(game_id).version > 1:
                break
        events = [json.loads(text)["type"] for text in store.events(game_id, 0)]
        assert events.count("turn_timeout") == 1
        assert store.load(game_id).version == 2  # one write: the sweeper's
        store.close()
    finally:
        server.stop()
