"""Random legal play for tests, benchmarks and bots: every choice comes from the rng given."""
from __future__ import annotations

import random
from typing import cast
from dataclasses import dataclass

from service.cards import Card
from service.engine import (Action, CallMuggins, ClaimCount, ClaimItem, CutForDeal, CutStarter,
                            Discard, EndMatch, GameOptions, GameState, NextGame, Play, Resign,
                            apply, expire, new_game, to_act)
from service.engine.rules import MIN_PACKET, MOST_A_SHOW_IS_WORTH, discard_count, playable
from service.scoring import score_show, show_points


def is_finished(state: GameState) -> bool:
    return state.phase == "match_over" or (state.phase == "game_over" and not state.options.match)


def random_action(state: GameState, rng: random.Random, *, miscount_rate: float = 0.3,
                  resign_rate: float = 0.0, games_per_match: int = 2):
    """A random legal action for a random seat of `to_act` (None when the game is finished).

    Manual counts are wrong with probability `miscount_rate`; muggins is called when possible.
    """
    seats = to_act(state)
    if not seats or is_finished(state):
        return None
    seat = seats[0] if len(seats) == 1 else rng.choice(seats)
    phase = state.phase
    if resign_rate and phase != "game_over" and rng.random() < resign_rate:
        return Resign(seat)
    if state.pending_muggins and any(p["side"] != state.options.side_of(seat)
                                     for p in state.pending_muggins) and rng.random() < 0.5:
        return CallMuggins(seat)
    if phase == "play":
        return Play(seat, rng.choice(playable(state.hands[seat], state.count)))
    if phase == "discard" and not state.discarded[seat]:
        count = discard_count(state.options.players, seat == state.dealer)
        return Discard(seat, tuple(rng.sample(state.hands[seat], count)))
    if phase == "cut_starter":
        return CutStarter(seat, _depth(rng, len(state.deck)))
    if phase == "cut_for_deal":
        return CutForDeal(seat, _depth(rng, len(state.cut_deck)))
    if phase == "show" and state.counting()[0] == seat:
        return _claim(state, seat, rng, miscount_rate)
    if phase == "game_over":
        return NextGame(seat) if len(state.results) < games_per_match else EndMatch(seat)
    return CallMuggins(seat)


def _depth(rng: random.Random, deck_size: int) -> int | None:
    return None if rng.random() < 0.5 else rng.randint(MIN_PACKET, deck_size - MIN_PACKET)


def _claim(state: GameState, seat: int, rng: random.Random, miscount_rate: float) -> ClaimCount:
    _, is_crib = state.counting()
    cards = state.crib if is_crib else state.kept[seat]
    if rng.random() < 0.2:
        items = score_show(cards, cast(Card, state.starter), crib=is_crib).items
        if items and rng.random() < miscount_rate:
            items = items[:-1]
        return ClaimCount(seat, None, tuple(ClaimItem(i.kind, i.cards) for i in items))
    points = show_points(cards, cast(Card, state.starter), crib=is_crib)
    if rng.random() < miscount_rate:
        points = min(max(0, points + rng.choice((-3, -2, -1, 1, 2))),
                     MOST_A_SHOW_IS_WORTH[len(cards) + 1])
    return ClaimCount(seat, points)


@dataclass
class RandomGame:
    state: GameState
    actions: list          # (action, now) in the order applied
    events: int
    end: float             # the time the game was seen finished (a timeout may have ended it)


def play_random_game(options: GameOptions, seed: bytes, rng: random.Random, *,
                     start: float = 0.0, timeout_rate: float = 0.02, **choices) -> RandomGame:
    """Play a whole game (or match) with random legal actions; `choices` go to random_action.

    Time advances a little per action; with a count time limit, a claim is sometimes made late
    (probability `timeout_rate`) so that timeouts happen too.
    """
    state = new_game(options, seed)
    now = start
    actions: list[tuple[Action, float]] = []
    events = 0
    while True:
        now += 1.0
        if state.deadline is not None and rng.random() < timeout_rate:
            now = state.deadline + 1.0
        state_now, _ = expire(state, now)
        action = random_action(state_now, rng, **choices)
        if action is None:
            return RandomGame(state_now, actions, events, now)
        state, produced = apply(state, action, now)
        actions.append((action, now))
        events += len(produced)


def replay(options: GameOptions, seed: bytes, actions, end: float | None = None) -> GameState:
    """The state reached by applying `actions` ((action, now) pairs) to a new game, then the
    timeouts due by `end`."""
    state = new_game(options, seed)
    for action, now in actions:
        state, _ = apply(state, action, now)
    if end is not None:
        state, _ = expire(state, end)
    return state
