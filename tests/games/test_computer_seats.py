"""Computer seats: a pluggable level gets exactly a seat's view and can never stall a game."""

from __future__ import annotations

import random

import pytest

from service import bots, engine
from service.bots import LEVELS
from service.games import ActionRequest, GameSnapshot, Games, GameTable
from service.store import MemoryGameStore


def first_legal(view: engine.SeatView, rng: random.Random) -> ActionRequest:
    """The level "first"'s choice for the seat of `view`, as the request a player would send."""
    action = LEVELS["first"].choose(view, rng)
    if isinstance(action, engine.Play):
        return ActionRequest(action.type, card=action.card.text)
    if isinstance(action, engine.Discard):
        return ActionRequest(action.type, cards=tuple(card.text for card in action.cards))
    if isinstance(action, (engine.CutForDeal, engine.CutStarter)):
        return ActionRequest(action.type, depth=action.depth)
    if isinstance(action, engine.ClaimCount):
        return ActionRequest(action.type, points=action.points)
    return ActionRequest(action.type)


def play_out(service: Games, created) -> GameSnapshot:
    game_id, token = created.game.game_id, created.token
    rng = random.Random(4)
    game = service.read(game_id, token)
    while game.view.phase != "game_over":
        game = service.act(game_id, token, first_legal(game.view, rng))
    return game


class Spy(bots.ComputerPlayer):
    def __init__(self):
        self.calls = []

    def choose(self, view, rng):
        self.calls.append((view, rng))
        return LEVELS["first"].choose(view, rng)


class Rogue(bots.ComputerPlayer):
    """Always an illegal move: discarding nothing, whatever the phase."""

    def __init__(self):
        pass

    def choose(self, view, rng):
        return engine.Discard(view.seat, ())


def test_a_level_is_called_with_the_seats_own_view_and_an_rng(monkeypatch):
    spy = Spy()
    monkeypatch.setitem(LEVELS, "spy", spy)
    service = Games(GameTable(MemoryGameStore(600)))
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "spy"}], {})
    game = play_out(service, created)
    assert game.view.phase == "game_over"
    assert len(spy.calls) > 20
    for view, rng in spy.calls:
        assert isinstance(view, engine.SeatView)
        assert isinstance(rng, random.Random)
        assert view.seat == 1 and view.legal_actions
        assert view.hand is not None


def test_a_level_that_chooses_badly_is_overruled_by_the_first_legal_action(monkeypatch, caplog):
    monkeypatch.setitem(LEVELS, "rogue", Rogue())
    service = Games(GameTable(MemoryGameStore(600)))
    created = service.create([{"kind": "human"}, {"kind": "computer", "level": "rogue"}],
                             {"target": 61})
    game = play_out(service, created)
    assert game.view.winner in (0, 1)
    assert max(game.view.scores) >= 61
    assert "computer level 'rogue' chose Discard(seat=1, cards=())" in caplog.text


def test_levels_are_the_built_in_first_plus_the_bots_levels():
    assert set(bots.LEVELS) == {"first", "easy", "medium", "hard"}
    assert bots.DEFAULT_LEVEL == "medium"


@pytest.mark.parametrize("level", ["first", "easy", "medium", "hard"])
def test_every_level_finishes_a_six_player_game(level):
    service = Games(GameTable(MemoryGameStore(600)))
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * 5
    game = play_out(service, service.create(seats, {"target": 61, "teams": "3x2"}))
    assert max(game.view.scores) >= 61
