"""The default rate limits let a fast client play game after game from one address."""

from __future__ import annotations

import re

from tests.ops.gunicorn_server import GunicornServer
from tests.ops.scripted_client import ScriptedClient

GAMES = 20
POLICY = re.compile(r'"address";q=300;w=60, "token";q=600;w=60')


def test_a_scripted_client_plays_20_games_back_to_back_with_the_default_limits(tmp_path):
    server = GunicornServer({"CRIBBAGE_REDIS_URL": None, "CRIBBAGE_RATE_LIMIT": None,
                             "CRIBBAGE_ACTION_RATE_LIMIT": None,
                             "CRIBBAGE_TOKEN_RATE_LIMIT": None,
                             "CRIBBAGE_RATE_LIMIT_ENABLED": None},
                            workers=None, threads=None, log_dir=tmp_path).start()
    client = ScriptedClient(server.port)
    try:
        per_game = [client.play_game() for _ in range(GAMES)]
        _, headers, _ = client.call("GET", "/v1/ping")
    finally:
        client.close()
        server.stop()
    assert set(client.statuses) == {200, 201}, client.statuses
    assert client.statuses[201] == GAMES
    assert min(per_game) > 60  # each game took more requests than the old limit allowed
    assert sum(per_game) > 300  # ... and all of them far more than a minute's address limit
    # The address paid only for what no seat token covered: 20 creates and this ping.
    assert headers["RateLimit-Policy"] == '"address";q=300;w=60'
    remaining = int(re.fullmatch(r'"address";r=(\d+);t=\d+', headers["RateLimit"]).group(1))
    assert remaining >= 300 - GAMES - 1
