"""The bench-only yardsticks (service/simulation/baseline.py) play whole games, and the
baseline discards by the uniform crib as `hard` did before issue 17."""
import random

from service.bots.discard import analyse_discard
from service.engine import GameOptions, apply, new_game, to_act, view
from service.simulation.selfplay import PLAYERS, play_game


def test_the_yardsticks_finish_games_against_the_levels():
    for levels in (("baseline", "hard"), ("greedy", "medium")):
        result = play_game(GameOptions(target=61), b"yardsticks", levels, random.Random(3))
        assert max(result.scores) >= 61 and min(result.scores) < 61


def test_the_baseline_discards_by_the_uniform_crib_and_hard_by_the_weighted_one():
    state = new_game(GameOptions(), b"baseline")
    rng = random.Random(2)
    differ = 0
    while state.phase != "game_over":
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        action = PLAYERS["baseline"].choose(seat_view, rng)
        if action.type == "discard":
            options = analyse_discard(seat_view.hand, own_crib=seat_view.dealer == seat)
            assert action.cards == max(options, key=lambda o: o.uniform_net).discard
            differ += action.cards != options[0].discard
        state, _ = apply(state, action, 0.0)
    assert differ >= 1
