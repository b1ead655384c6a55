"""legal_actions is the rule: an action is accepted if and only if it is listed for its seat.

Random games in every layout and counting option (service.simulation.random_games drives them); at every state, each
seat tries one action of every type with plausible arguments and `apply` must accept exactly the
ones `legal_actions` lists for that seat (a play of a listed card, a discard of the listed count
from the listed cards). Resign is not listed: it is accepted exactly while the game is live.

22 games per layout, 176 in all (about 10 s): every counting and muggins option, with and without
a count time limit and a match. Without the turn rule for muggins callers, each layout's games
find a claim out of turn (and with 5 or 6 players an empty discard by the dealer).
"""
from __future__ import annotations

import itertools
import random

import pytest

from service.engine import (CallMuggins, ClaimCount, CutForDeal, CutStarter, Discard, EndMatch,
                            GameOptions, NextGame, Play, Resign, apply, expire, legal_actions,
                            new_game, to_act)
from service.engine.rules import discard_count
from service.errors import DomainError
from service.simulation.random_games import is_finished, random_action
from service.scoring import show_points
from tests.engine.test_properties import LAYOUTS

# Muggins "call" is where seats outside the turn are in to_act (to call), so most games use it.
COUNTING = [{"counting": "auto"}] + [{"counting": "manual", "muggins": muggins}
                                     for muggins in ("off", "auto", "call", "call", "call")]
MISCOUNT_RATE = 0.5  # claims are often short: missed points keep muggins open


def candidates(state, seat):
    """One action of every type for `seat`, with arguments a client could plausibly send."""
    hand = state.hands[seat]
    dealer = state.dealer is not None and seat == state.dealer
    count = discard_count(state.options.players, dealer)
    actions = [CutForDeal(seat, None), CutStarter(seat, None), CallMuggins(seat),
               NextGame(seat), EndMatch(seat), Discard(seat, hand[:count])]
    if len(hand) > count:
        actions.append(Discard(seat, hand[:count + 1]))  # one card too many
    actions += [Play(seat, card) for card in hand]
    if state.phase == "show":
        counted, is_crib = state.claimer()
        shown = state.crib if is_crib else state.kept[counted]
        actions.append(ClaimCount(seat, show_points(shown, state.starter, crib=is_crib)))
    else:
        actions.append(ClaimCount(seat, 0))
    return actions


def listed(legal, action) -> bool:
    """Whether `legal` (legal_actions of the action's seat) offers `action` as it stands."""
    for offer in legal:
        if offer.type != action.type:
            continue
        if isinstance(action, Play):
            return action.card in offer.cards
        if isinstance(action, Discard):
            return (len(action.cards) == offer.count
                    and all(card in offer.cards for card in action.cards))
        return True
    return False


def accepted(state, action, now: float) -> bool:
    try:
        apply(state, action, now)
    except DomainError:
        return False
    return True


def check_every_seat(state, now: float) -> None:
    live = state.phase not in ("game_over", "match_over")
    for seat in range(state.options.players):
        legal = legal_actions(state, seat)
        for action in candidates(state, seat):
            assert accepted(state, action, now) == listed(legal, action), (
                action, state.phase, to_act(state), legal)
        assert accepted(state, Resign(seat), now) == live


def play_checked(options: GameOptions, seed: bytes, rng: random.Random) -> None:
    """One random game (or match), every seat checked at every state."""
    state, now = new_game(options, seed), 1000.0
    while True:
        now += rng.choice((0.5, 3.0))
        if state.deadline is not None and rng.random() < 0.05:
            now = state.deadline + 1.0
        state, _ = expire(state, now)
        check_every_seat(state, now)
        if is_finished(state):
            return
        state, _ = apply(state, random_action(state, rng, miscount_rate=MISCOUNT_RATE,
                                                resign_rate=0.002), now)


@pytest.mark.parametrize("players, teams", LAYOUTS, ids=[f"{p}{'-' + t if t else ''}"
                                                          for p, t in LAYOUTS])
def test_an_action_is_accepted_if_and_only_if_it_is_legal(players, teams):
    rng = random.Random(f"legal {players} {teams}")
    for counting, limit, match in itertools.product(COUNTING, (None, 30), (False, True)):
        if limit is not None and counting["counting"] == "auto":
            continue
        options = GameOptions(players=players, teams=teams, target=rng.choice((31, 61)),
                              count_time_limit=limit, match=match, **counting)
        play_checked(options, b"legal %d" % rng.getrandbits(32), rng)
