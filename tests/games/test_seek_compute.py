"""A seek pool's pairing search runs in a compute process (the job "pair"), not in the web
worker; a pool of INLINE_SEEKS or fewer is searched in the round itself. A compute tier that
does not answer leaves the seek open, and the sweeper's round pairs it."""
from __future__ import annotations

import os
import signal

import pytest
from prometheus_client import REGISTRY

from service.api import create_app
from service.compute import ANALYSIS, BACKGROUND, MOVE, ComputeTier
from service.compute.local import LocalPool
from service.config import Settings
from service.games import seeks as seeks_module
from service.games.seeks import INLINE_SEEKS
from service.store import MemoryGameStore
from tests.compute.test_local import _child_pids
from tests.games.test_seeks import new_player, seek

TARGET = 61


@pytest.fixture
def tier():
    pool = LocalPool(1, {MOVE: 10, ANALYSIS: 10, BACKGROUND: 10})
    tier = ComputeTier(pool, time_limit=30)
    tier.run("pair", ([], 0.0), MOVE)   # its compute process started and ready
    yield tier
    pool.close()


@pytest.fixture
def app(tier, clock):
    settings = Settings(rate_limit_enabled=False)
    return create_app({"TESTING": True, "GAME_STORE": MemoryGameStore(3600),
                       "SETTINGS": settings, "COMPUTE": tier}, clock=clock)


def pair_jobs() -> float:
    return REGISTRY.get_sample_value("cribbage_compute_jobs_total",
                                     {"kind": "pair", "outcome": "done"}) or 0.0


def waiting_pool(app, client, clock, size):
    """`size` open seeks whose ratings are 1,000 apart, within 0: none pairs with another."""
    ratings = {}
    app.extensions["cribbage.seeks"].rating = lambda player, fmt: ratings[player.name]
    for number in range(size):
        ratings[f"W{number}"] = 1000 * number
        player = new_player(client, f"W{number}")
        assert seek(client, player, TARGET, clock, rating_range=0).json["status"] == "open"
    return ratings


def test_a_pool_past_the_inline_size_is_searched_by_a_compute_process(app, client, clock):
    ratings = waiting_pool(app, client, clock, INLINE_SEEKS)
    before = pair_jobs()
    ratings["Newcomer"] = 5000
    newcomer = new_player(client, "Newcomer")
    paired = seek(client, newcomer, TARGET, clock, rating_range=0).json
    assert paired["status"] == "paired"
    assert pair_jobs() == before + 1    # the pool held INLINE_SEEKS + 1 open seeks
    game = client.get(f"/v1/games/{paired['game_id']}", headers=newcomer["auth"]).json
    assert [seat["name"] for seat in game["seats"]] == ["W5", "Newcomer"]


def test_a_pool_of_the_inline_size_is_searched_in_the_round(app, client, clock):
    before = pair_jobs()
    ratings = waiting_pool(app, client, clock, INLINE_SEEKS - 1)
    ratings["Newcomer"] = 3000
    assert seek(client, new_player(client, "Newcomer"), TARGET, clock,
                rating_range=0).json["status"] == "paired"
    assert pair_jobs() == before


def test_a_compute_tier_that_does_not_answer_leaves_the_seek_open_for_the_sweeper(
        app, client, clock, monkeypatch):
    monkeypatch.setattr(seeks_module, "SEARCH_SECONDS", 1.0)
    ratings = waiting_pool(app, client, clock, INLINE_SEEKS)
    ratings["Newcomer"] = 2000
    (child,) = _child_pids()
    os.kill(child, signal.SIGSTOP)
    try:
        waiting = seek(client, new_player(client, "Newcomer"), TARGET, clock, rating_range=0)
    finally:
        os.kill(child, signal.SIGCONT)
    assert (waiting.status_code, waiting.json["status"]) == (201, "open")
    app.extensions["cribbage.seeks"].sweep()
    assert client.get("/v1/seeks/" + waiting.json["seek_id"]).json["status"] == "paired"
