"""Whole games between computer players, each seat seeing only its own view (tests, bench)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from service.bots import LEVELS
from service.engine import GameOptions, apply, new_game, to_act, view
from service.simulation.baseline import BASELINE, GREEDY
from service.simulation.lead_side import HARD_LEAD
from service.simulation.play_discard import HARD_BY_PLAY_WEIGHT
from service.simulation.search_effort import HARD_BY_EFFORT
from service.simulation.simulated_discard import HARD_BY_SIMULATED_DISCARD

# The public levels and, for benchmarks only, the frozen `hard` and greedy player of before
# issue 17.
PLAYERS = {**LEVELS, "baseline": BASELINE, "greedy": GREEDY, **HARD_BY_EFFORT,
           **HARD_BY_PLAY_WEIGHT, **HARD_BY_SIMULATED_DISCARD, "hard-lead": HARD_LEAD}


@dataclass(frozen=True)
class GameResult:
    winner: int                 # the winning side
    scores: tuple[int, ...]     # per side
    skunks: tuple[int, ...]     # per side: 0, or the skunk level of a losing side
    hands: int                  # hands dealt
    actions: int
    pegging: tuple[int, ...] = ()  # per side: points scored in the play (cards, goes, last card)


def play_game(options: GameOptions, seed: bytes, levels: tuple[str, ...],
              rng: random.Random, *, max_actions: int = 5000) -> GameResult:
    """Play one game (not a match) with the computer player `levels[seat]` (a name of
    PLAYERS) in every seat."""
    state = new_game(options, seed)
    actions = 0
    pegging = [0] * options.sides
    while state.phase != "game_over":
        if actions >= max_actions:
            raise RuntimeError(f"game not finished after {max_actions} actions")
        seat = to_act(state)[0]
        action = PLAYERS[levels[seat]].choose(view(state, seat), rng)
        if action is None:  # levels leave only match decisions to people, and this is one game
            raise RuntimeError(f"{levels[seat]} chose nothing in the {state.phase}")
        state, events = apply(state, action, 0.0)
        actions += 1
        for event in events:
            if event.type in _PEGGING_EVENTS:
                pegging[options.side_of(event.public["seat"])] += event.public["points"]
    result = state.results[-1]
    return GameResult(result["winner"], tuple(result["scores"]), tuple(result["skunks"]),
                      state.hand_number, actions, tuple(pegging))


_PEGGING_EVENTS = ("card_played", "last_card", "count_reset")
