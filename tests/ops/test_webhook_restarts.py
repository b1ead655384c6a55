"""Webhook deliveries survive the server: a real gunicorn on Redis stopped with deliveries still
to make, or killed in the middle of one, and a new one started delivers them all, each under
the id its receiver saw first."""

from __future__ import annotations

import os
import signal

import pytest

from tests.ops.gunicorn_server import GunicornServer
from tests.webhooks.receiver import Receiver, verified

HUMAN = {"kind": "human"}
SECRET = "a-secret-of-thirty-two-characters"


@pytest.fixture
def start_server(dedicated_redis, tmp_path):
    servers = []

    def start(name: str) -> GunicornServer:
        (tmp_path / name).mkdir()
        server = GunicornServer({
            "CRIBBAGE_REDIS_URL": dedicated_redis.url, "CRIBBAGE_RATE_LIMIT_ENABLED": "0",
            "CRIBBAGE_WEBHOOKS_ALLOW_PRIVATE": "1", "CRIBBAGE_WEBHOOK_RETRY_BASE_MS": "200",
            "CRIBBAGE_WEBHOOK_ATTEMPTS": "50", "CRIBBAGE_WEBHOOK_IDLE_SECONDS": "1"},
            workers=2, threads=1, log_dir=tmp_path / name)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def game_with_webhook(server: GunicornServer, url: str) -> tuple[str, dict]:
    status, _, created = server.request("POST", "/v1/games",
                                        {"seats": [HUMAN, HUMAN], "options": {}})
    assert status == 201
    auth = {"Authorization": f"Bearer {created['token']}"}
    status, _, _ = server.request("POST", f"/v1/games/{created['game_id']}/webhooks",
                                  {"url": url, "secret": SECRET}, auth)
    assert status == 201
    return created["game_id"], auth


def test_deliveries_left_to_retry_are_made_by_the_next_server(start_server):
    with Receiver(statuses=[503] * 1000) as receiver:
        first = start_server("first")
        game_ids = [game_with_webhook(first, receiver.url())[0] for _ in range(3)]
        assert receiver.wait_for(lambda: {r.payload["data"]["game_id"]
                                          for r in receiver.received} == set(game_ids))
        assert first.stop() == 0
        refused = {received.delivery_id for received in receiver.received}
        receiver.statuses.clear()
        count = len(receiver.received)
        start_server("second")
        assert receiver.wait_for(
            lambda: {r.delivery_id for r in receiver.received[count:]} >= refused)
        assert all(verified(received, SECRET.encode()) for received in receiver.received)
        assert len(refused) == 3


def test_a_delivery_a_killed_server_left_pending_is_taken_over(start_server):
    with Receiver() as receiver:
        receiver.holding.set()
        first = start_server("first")
        game_id, _ = game_with_webhook(first, receiver.url())
        assert receiver.wait_for(lambda: receiver.held == 1)
        workers = first.worker_pids()
        os.kill(first.process.pid, signal.SIGKILL)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        first.process.wait()
        first.process = None
        receiver.holding.clear()
        start_server("second")
        assert receiver.wait_for(lambda: len(receiver.received) >= 1)
        [delivered] = receiver.received
        assert delivered.payload["data"]["game_id"] == game_id
        assert verified(delivered, SECRET.encode())
