"""The compiled sampled deals against the Python reference: the same totals, the same records,
the generator left in the same state, and so the same analyses, on positions from real games
(2-6 players, teams, near the end, exact finish) drawn by hypothesis."""
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.bots import LEVELS, fast_playout, pegging
from service.bots.players import play_position
from service.engine import GameOptions, LegalPlay, apply, new_game, to_act, view

pytestmark = pytest.mark.skipif(not fast_playout.available,
                                reason="service.bots._playout was built without a C compiler")

LAYOUTS = {2: [None], 3: [None], 4: [None, "2x2"], 5: [None], 6: [None, "3x2", "2x3"]}


@st.composite
def positions(draw):
    """A play decision from a game between random players, its scores and rules redrawn."""
    players = draw(st.integers(2, 6))
    teams = draw(st.sampled_from(LAYOUTS[players]))
    seed = draw(st.integers(0, 2**32))
    skip = draw(st.integers(0, 12))
    rng = random.Random(seed)
    state = new_game(GameOptions(players=players, teams=teams), str(seed).encode())
    found = None
    while state.phase != "game_over":
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        if any(isinstance(option, LegalPlay) for option in seat_view.legal_actions):
            found = play_position(seat_view)
            if not skip:
                break
            skip -= 1
        state, _ = apply(state, LEVELS["easy"].choose(seat_view, rng), 0.0)
    assert found is not None
    target = draw(st.sampled_from([121, 61, 31]))
    own, other = draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1))
    return replace(found, own_score=own, opponent_score=other, target=target,
                   exact_finish=draw(st.booleans()))


def _arguments(position, rng, deals):
    belief = pegging.check_position(position)
    playable = [card.index for card in position.hand if position.count + card.value <= 31]
    side_of = position.side_of
    needs = [position.target - position.own_score] + \
        [position.target - position.opponent_score] * max(side_of)
    return (belief, rng, deals, [card.index for card in position.hand], playable,
            tuple(card.rank for card in position.pile), position.count, side_of, needs,
            position.exact_finish, True)


@settings(max_examples=500, deadline=None)
@given(positions(), st.integers(0, 2**32), st.integers(1, 30))
def test_the_compiled_deals_are_the_reference_deals(position, seed, deals):
    fast_rng, reference_rng = random.Random(seed), random.Random(seed)
    fast = fast_playout.play_outs(*_arguments(position, fast_rng, deals))
    reference = pegging.play_outs(*_arguments(position, reference_rng, deals))
    assert fast == reference
    assert fast_rng.getstate() == reference_rng.getstate()


@settings(max_examples=100, deadline=None)
@given(positions())
def test_the_analysis_is_the_same_either_way(position):
    fast = pegging.analyse_play(position)
    fast_playout.available = False
    try:
        reference = pegging.analyse_play(position)
    finally:
        fast_playout.available = True
    assert fast == reference


def test_a_generator_of_another_kind_gets_the_reference():
    class Drawn(random.Random):
        pass

    position = pegging.PlayPosition(hand=(), pile=())
    assert fast_playout.play_outs(*_arguments(position, Drawn(1), 1)) is None
