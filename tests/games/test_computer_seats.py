"""Computer seats: a pluggable level gets exactly a seat's view and can never stall a game."""

from __future__ import annotations

import random

import pytest

from service import engine
from service.games import GamesService, computer
from service.games.computer import first_legal
from service.store import MemoryGameStore


def play_out(service: GamesService, created) -> dict:
    game_id, token = created.body["game_id"], created.body["token"]
    rng = random.Random(4)
    game = service.read(game_id, token).body
    while game["view"]["phase"] != "game_over":
        game = service.act(game_id, token, first_legal(game["view"], game["seat"], rng)).body
    return game


def test_a_level_is_called_with_the_seats_own_view_and_an_rng(monkeypatch):
    calls = []

    def spy(view, seat, rng):
        calls.append((view, seat, rng))
        return first_legal(view, seat, rng)

    monkeypatch.setitem(computer.LEVELS, "spy", spy)
    service = GamesService(MemoryGameStore(600))
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "spy"}], {})
    game = play_out(service, created)
    assert game["view"]["phase"] == "game_over"
    sample = engine.view(engine.new_game(engine.GameOptions(), b"seed"), 1)
    assert len(calls) > 20
    for view, seat, rng in calls:
        assert seat == 1
        assert isinstance(rng, random.Random)
        assert set(view) == set(sample)
        assert view["seat"] == 1 and view["legal_actions"]
        assert view["hand"] is not None


def test_a_level_that_chooses_badly_is_overruled_by_the_first_legal_action(monkeypatch, caplog):
    monkeypatch.setitem(computer.LEVELS, "rogue", lambda view, seat, rng: {"type": "resign"})
    service = GamesService(MemoryGameStore(600))
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "rogue"}],
                             {"target": 61})
    game = play_out(service, created)
    assert game["view"]["winner"] in (0, 1)
    assert max(game["view"]["scores"]) >= 61
    assert "computer level 'rogue' chose {'type': 'resign'}" in caplog.text


def test_levels_are_the_built_in_first_plus_the_bots_levels():
    assert set(computer.LEVELS) == {"first", "easy", "medium", "hard"}
    assert computer.DEFAULT_LEVEL == "medium"


@pytest.mark.parametrize("level", ["first", "easy", "medium", "hard"])
def test_every_level_finishes_a_six_player_game(level):
    service = GamesService(MemoryGameStore(600))
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * 5
    game = play_out(service, service.create(seats, {"target": 61, "teams": "3x2"}))
    assert max(game["view"]["scores"]) >= 61
