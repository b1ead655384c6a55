"""Property tests over random games: every player count, team layout and option, 10,000+ games.

Each hypothesis example draws options and a seed and plays several whole games with random
legal actions, checking after every action: the 52 cards are all accounted for, no score goes
down, the version grows, a wrong seat or phase is refused with its code and changes nothing;
at the end: exactly one winning side, the replay of seed + actions gives the same state, and
state_to_dict/state_from_dict round-trips (through JSON).
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from service.cards import DECK
from service.errors import DomainError
from service.engine import (CallMuggins, ClaimCount, CutForDeal, CutStarter, Discard, GameOptions,
                            GameState, NextGame, Play, apply, expire, new_game, to_act)
from service.games.state_json import state_from_dict, state_to_dict
from service.simulation.random_games import is_finished, random_action, replay
from tests.engine.helpers import all_cards

LAYOUTS = [(2, None), (3, None), (4, None), (4, "2x2"), (5, None), (6, None), (6, "3x2"),
           (6, "2x3")]
EXAMPLES = 50           # per layout
GAMES_PER_EXAMPLE = 19  # games or matches; a match counts each of its games
MIN_GAMES = 1300        # per layout: 8 x 1,300 = 10,400 games at least


def options_strategy(players, teams):
    manual = st.fixed_dictionaries({
        "counting": st.just("manual"), "muggins": st.sampled_from(["off", "auto", "call"]),
        "count_time_limit": st.sampled_from([None, 15, 60, 120])})
    auto = st.fixed_dictionaries({"counting": st.just("auto")})
    return st.builds(
        lambda counting, target, skunk, exact, match: GameOptions(
            players=players, teams=teams, target=target, skunk=skunk, exact_finish=exact,
            match=match, **counting),
        st.one_of(auto, manual),
        # Short targets keep 10,000 games fast; every target plays the same rules.
        st.one_of(st.integers(31, 61), st.integers(62, 121)),
        st.sampled_from(["standard", "acc"]), st.booleans(), st.booleans())


class GameCheck:
    """Plays one random game (or match), checking the per-action invariants."""

    def __init__(self, options: GameOptions, seed: bytes, rng: random.Random):
        self.options, self.seed, self.rng = options, seed, rng
        self.state = new_game(options, seed)
        self.actions = []
        self.now = 1000.0

    def play(self) -> GameState:
        self.check_cards(self.state)
        while True:
            self.now += self.rng.choice((0.5, 3.0))
            if self.state.deadline is not None and self.rng.random() < 0.05:
                self.now = self.state.deadline + self.rng.choice((0.001, 50.0, 500.0))
            current, _ = expire(self.state, self.now)
            action = random_action(current, self.rng, resign_rate=0.0005)
            if action is None:
                self.end, self.state = self.now, current
                return current
            if self.rng.random() < 0.03:
                self.check_refusals(current)
            self.step(action)

    def step(self, action) -> None:
        before = self.state
        after, events = apply(before, action, self.now)
        assert after.version in (before.version + 1, before.version + 2)
        assert events
        if after.game_number == before.game_number:
            assert all(new >= old for new, old in zip(after.scores, before.scores))
        assert all(new >= old for new, old in zip(after.match_points, before.match_points))
        self.check_cards(after)
        self.actions.append((action, self.now))
        self.state = after

    @staticmethod
    def check_cards(state: GameState) -> None:
        """52 distinct cards. The engine only uses the DECK's card objects (checked at the end of
        every game), so comparing identities is enough here and fast."""
        cards = all_cards(state)
        assert len(cards) == 52 and len(set(map(id, cards))) == 52

    def check_refusals(self, state: GameState) -> None:
        """A seat that may not act, and an action of another phase, are refused: no change."""
        before = state_to_dict(state)
        assert state_from_dict(before) == state
        players = self.options.players
        idle = [seat for seat in range(players) if seat not in to_act(state)]
        if idle:
            seat = self.rng.choice(idle)
            action = _same_phase_action(state, seat)
            if action is not None:
                self.expect_refused(state, action, "not_your_turn")
        seat = self.rng.randrange(players)
        for action, code in _other_phase_actions(state, seat):
            self.expect_refused(state, action, code)
        assert state_to_dict(state) == before

    def expect_refused(self, state, action, code) -> None:
        with pytest.raises(DomainError) as refused:
            apply(state, action, self.now)
        assert refused.value.code == code, (action, state.phase)


def _same_phase_action(state, seat):
    hand = state.hands[seat]
    return {"cut_for_deal": CutForDeal(seat, None),
            "discard": Discard(seat, hand[:1]) if hand else None,
            "cut_starter": CutStarter(seat, None),
            "play": Play(seat, hand[0]) if hand else None,
            "show": ClaimCount(seat, 0)}.get(state.phase)


def _other_phase_actions(state, seat):
    if state.phase in ("game_over", "match_over"):
        return [(Play(seat, state.deck[0] if state.deck else all_cards(state)[0]), "game_over")]
    actions = []
    if state.phase != "play":
        actions.append((Play(seat, all_cards(state)[0]), "wrong_phase"))
    if state.phase != "cut_starter":
        actions.append((CutStarter(seat, 4), "wrong_phase"))
    if state.phase != "show":
        actions.append((ClaimCount(seat, 3), "not_a_claim_phase"))
    if not state.pending_muggins:
        actions.append((CallMuggins(seat), "nothing_to_call"))
    actions.append((NextGame(seat), "wrong_phase"))
    return actions


def check_finished(check: GameCheck, state: GameState, replay_it: bool) -> int:
    """The end-of-game properties; returns the number of games the match held."""
    options = state.options
    assert is_finished(state)
    assert state.results and len(state.results) == state.game_number
    for result in state.results:
        winners = [side for side, score in enumerate(result["scores"])
                   if score >= options.target]
        if result["resigned"] is None:
            assert winners == [result["winner"]]  # exactly one side reached the target
            if options.exact_finish:
                assert result["scores"][result["winner"]] == options.target
        else:
            assert winners == [] and result["winner"] != options.side_of(result["resigned"])
    assert all(card is DECK[card.index] for card in all_cards(state))
    data = state_to_dict(state)
    assert state_from_dict(json.loads(json.dumps(data))) == state
    if replay_it:
        assert state_to_dict(replay(options, check.seed, check.actions, check.end)) == data
    return len(state.results)


@pytest.mark.parametrize("players, teams", LAYOUTS, ids=[f"{p}{'-' + t if t else ''}"
                                                          for p, t in LAYOUTS])
def test_random_games_keep_every_invariant(players, teams):
    played = []

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(options=options_strategy(players, teams), seed=st.integers(0, 2**32 - 1))
    def games(options, seed):
        rng = random.Random(seed)
        for number in range(GAMES_PER_EXAMPLE):
            check = GameCheck(options, b"%d:%d" % (seed, number), rng)
            state = check.play()
            played.append(check_finished(check, state, replay_it=number % 6 == 0))

    games()
    assert sum(played) >= MIN_GAMES
