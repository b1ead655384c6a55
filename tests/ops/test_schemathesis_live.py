"""schemathesis over real HTTP against gunicorn's gevent worker, as clients reach the service:
the stateless scoring and health operations, and the stateful games run."""

from __future__ import annotations

import hypothesis
import pytest
import requests
import schemathesis
from schemathesis import GenerationMode

from tests.games.test_schemathesis_games import (assert_reached_paired_games,
                                                 run_games_state_machine)
from tests.ops.gunicorn_server import GunicornServer
from tests.refusals import config


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # No cap on live games: see tests/games/test_schemathesis_games.py.
    gunicorn = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_STREAM_SECONDS": "1",
                               "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0"},
                              workers=1, threads=None,
                              log_dir=tmp_path_factory.mktemp("gunicorn")).start()
    yield gunicorn
    gunicorn.stop()


def test_scoring_and_health_over_http_match_the_document(server):
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json", config=config(10))
    for result in schema.include(tag=["scoring", "health"]).get_all_operations():
        operation = result.ok()
        # An operation with no input (the health checks) has no invalid request to make.
        modes = [GenerationMode.POSITIVE]
        if operation.body or operation.query:
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            @hypothesis.given(case=operation.as_strategy(generation_mode=mode))
            @hypothesis.settings(max_examples=10, deadline=None, database=None, derandomize=True,
                                 suppress_health_check=list(hypothesis.HealthCheck))
            def check(case):
                case.call_and_validate()

            check()


def test_games_over_http_follow_their_links(server):
    assert_reached_paired_games(run_games_state_machine(
        schemathesis.openapi.from_url(f"{server.url}/openapi.json", config=config()),
        max_examples=60,
        new_player=lambda: requests.post(f"{server.url}/v1/players", json={},
                                         timeout=10).json()["token"],
        cancel_seek=lambda seek_id, token: requests.delete(
            f"{server.url}/v1/seeks/{seek_id}", headers={"Authorization": f"Bearer {token}"},
            timeout=10)))
