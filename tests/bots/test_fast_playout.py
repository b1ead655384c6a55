"""The compiled sampled deals against the Python reference: the same totals, the same records
(each side's points), the generator left in the same state, and so the same analyses, on
positions from real games (2-6 players, teams, every side's score, near the end, exact finish)
drawn by hypothesis."""
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.bots import LEVELS, fast_playout, pegging
from service.bots.players import play_position
from service.cards import DECK, parse_cards
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
    own, *others = draw(st.lists(st.integers(0, target - 1), min_size=max(found.side_of) + 1,
                                 max_size=max(found.side_of) + 1))
    return replace(found, own_score=own, opponent_score=max(others),
                   other_scores=draw(st.sampled_from([tuple(others), None])), target=target,
                   exact_finish=draw(st.booleans()))


def _arguments(position, rng, deals):
    belief = pegging.check_position(position)
    playable = [card.index for card in position.hand if position.count + card.value <= 31]
    side_of = position.side_of
    needs = [position.target - score for score in position.scores]
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


@pytest.mark.parametrize("search", [fast_playout.play_outs, pegging.play_outs])
def test_the_records_hold_every_sides_points_then_the_first_side_out(search):
    """Three players, the other hands forced (seat 1 said go at 24: 8C; seat 2: 2D): leading
    7S the 8C makes 15 for seat 1, leading 5H the 2D makes 15 for seat 2; you take the last
    card."""
    unseen = parse_cards(["7S", "5H", "8C", "2D"])
    position = pegging.PlayPosition(
        unseen[:2], seen=tuple(card for card in DECK if card not in unseen), players=3,
        hand_sizes=(1, 1), dealer_seat=1, goes=((1, 24),), own_score=110, opponent_score=116,
        other_scores=(116, 80))
    _, _, records = search(*_arguments(position, random.Random(1), 2))
    assert records == [1, 2, 0, -1, 1, 0, 2, -1] * 2
