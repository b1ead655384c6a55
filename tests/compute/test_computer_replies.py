"""Computer replies from real compute processes: waited for up to a bound, then left to the
sweeper, and applied exactly once either way."""
from __future__ import annotations

import json
import os
import random
import signal

import pytest

from service.compute import ANALYSIS, MOVE, ComputeTier
from service.compute.local import LocalPool
from service.games import Games, GameTable
from service.games.sweeper import Sweeper
from service.store import MemoryGameStore
from tests.compute.test_local import _child_pids
from tests.games.test_computer_seats import first_legal

BOUNDS = {MOVE: 10, ANALYSIS: 10, 2: 10}


@pytest.fixture
def service():
    pool = LocalPool(1, BOUNDS)
    tier = ComputeTier(pool, time_limit=30)
    tier.run("position_value", ((100, 90), 0, 2, None, 121, "standard"), ANALYSIS)  # started
    yield Games(GameTable(MemoryGameStore(600), compute=tier, reply_seconds=0.5))
    pool.close()


def _play(service, stall=lambda number: False, swept=None):
    """A two-player game against `hard` on a preset deck, the human always taking its first
    legal action; before each action for which `stall(number)` holds, the compute process is
    stopped until the action's response has come (without the computer's reply), and the
    sweeper then applies the reply. The game's events, without their times."""
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "hard"}],
                             {"deck_seed": "compute replies", "target": 61})
    game_id, token = created.game.game_id, created.token
    game, rng, number = service.read(game_id, token), random.Random(1), 0
    while game.view.phase != "game_over":
        number += 1
        if not stall(number):
            game = service.act(game_id, token, first_legal(game.view, rng))
            continue
        (child,) = _child_pids()
        os.kill(child, signal.SIGSTOP)
        try:
            game = service.act(game_id, token, first_legal(game.view, rng))
        finally:
            os.kill(child, signal.SIGCONT)
        if json.loads(service.table.store.load(game_id).data).get("computers_due") is not None:
            assert game.view.to_act == ()  # saved without the reply: nothing for the human
            assert Sweeper(service.table, period=0).sweep() == 1
            if swept is not None:
                swept.append(number)
            game = service.read(game_id, token)
            assert "computers_due" not in json.loads(service.table.store.load(game_id).data)
    return [event.data for event in service.events(game_id, None, 0).events]


def test_replies_within_the_bound_are_those_made_inline(service):
    inline = Games(GameTable(MemoryGameStore(600)))
    assert _play(service) == _play(inline)


def test_replies_past_the_bound_are_applied_by_the_sweeper_exactly_once(service):
    swept = []
    events = _play(service, lambda number: number % 3 == 0, swept)
    assert events == _play(Games(GameTable(MemoryGameStore(600))))
    assert len(swept) >= 5


def test_levels_that_do_not_search_move_without_the_compute_tier(service):
    """A game against `first` gets its replies with the compute process stopped: a move that
    takes microseconds is made where it is asked for."""
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "first"}],
                             {"timeout_level": "easy"})
    game_id, token = created.game.game_id, created.token
    game, rng = service.read(game_id, token), random.Random(1)
    (child,) = _child_pids()
    os.kill(child, signal.SIGSTOP)
    try:
        for _ in range(12):
            game = service.act(game_id, token, first_legal(game.view, rng))
            assert game.view.to_act == (0,)  # the computer has answered every time
    finally:
        os.kill(child, signal.SIGCONT)
    assert "computers_due" not in json.loads(service.table.store.load(game_id).data)
