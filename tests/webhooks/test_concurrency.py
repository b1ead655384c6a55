"""Deliveries go out concurrently, within a bound per process and per destination: a receiver
that never answers holds up its own deliveries only (issue 26)."""

from __future__ import annotations

import time

import pytest

from service.webhooks.model import MAX_PER_GAME
from tests.games.conftest import make_app
from tests.webhooks.conftest import WORKER
from tests.webhooks.helpers import SECRET, register, two_humans
from tests.webhooks.receiver import SilentReceiver

CUT = {"type": "cut_for_deal", "depth": 10}   # a new turn: seat 1 alone is left to cut


@pytest.fixture
def silent():
    with SilentReceiver() as running:
        yield running


def test_a_receiver_that_never_answers_delays_only_its_own_deliveries(store, receiver, silent):
    app = make_app(store, webhooks_allow_private=True)   # the real clock: the worker runs
    client, worker = app.test_client(), app.extensions[WORKER]
    stalled, _ = two_humans(client)
    for _ in range(MAX_PER_GAME):
        assert register(stalled, silent.url(), secret=SECRET).status_code == 201
    other, _ = two_humans(client)
    assert register(other, receiver.url(), secret=SECRET, events=["turn"]).status_code == 201
    worker.start()
    try:
        assert receiver.wait_for(lambda: len(receiver.received) == 1)  # its first turn
        stalled.act(CUT)   # a turn for each of the 10 webhooks that never get an answer
        assert silent.wait_for(lambda: silent.open == 4)   # its destination's bound, saturated
        moved = time.perf_counter()
        version = other.act(CUT)["version"]
        assert receiver.wait_for(lambda: len(receiver.received) == 2, timeout=60)
        arrived, _ = receiver.arrivals[1]
        assert receiver.received[1].payload["data"]["version"] == version
        assert arrived - moved < 2.0
        assert silent.most_open == 4
    finally:
        silent.close()
        worker.stop()

