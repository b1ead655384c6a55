"""The bench-only yardsticks (service/simulation/baseline.py, search_effort.py, lead_side.py)
play whole games, the baseline discards by the uniform crib as `hard` did before issue 17,
hard-x1 is `hard`, and hard-lead knows only the leading other side's score."""
import random
from dataclasses import replace

from service.bots.discard import analyse_discard
from service.bots.pegging import analyse_play
from service.bots.players import play_position
from service.engine import GameOptions, LegalPlay, apply, new_game, to_act, view
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


def hard_choices(options: GameOptions, seed: bytes, rng: random.Random):
    """A game `hard` plays against itself: (the seat's view, hard's action) at each play with
    more than one card to choose from, the action applied once the caller is done with it."""
    state = new_game(options, seed)
    while state.phase != "game_over":
        seat_view = view(state, to_act(state)[0])
        action = PLAYERS["hard"].choose(seat_view, rng)
        legal = next((o for o in seat_view.legal_actions if isinstance(o, LegalPlay)), None)
        if legal is not None and len(legal.cards) > 1:
            yield seat_view, action
        state, _ = apply(state, action, 0.0)


def test_hard_x1_is_hard_and_more_effort_samples_more_deals():
    """hard-x1 plays every card `hard` plays; a larger effort searches more deals."""
    rng = random.Random(4)
    compared = 0
    for seat_view, action in hard_choices(GameOptions(target=61), b"efforts", rng):
        assert PLAYERS["hard-x1"].choose(seat_view, rng) == action
        position = play_position(seat_view)
        assert analyse_play(position, effort=4).sampled_deals > \
            analyse_play(position).sampled_deals
        compared += 1
    assert compared >= 10


def test_hard_lead_knows_only_the_leaders_score_and_plays_otherwise_near_the_end():
    """hard-lead plays what the search recommends with every other side at the leader's
    score; in a three-player game to 61 some of its cards near the end differ from hard's."""
    rng = random.Random(8)
    compared = differ = 0
    for seat_view, action in hard_choices(GameOptions(players=3, target=61), b"lead-only", rng):
        lead_only = replace(play_position(seat_view), other_scores=None)
        played = PLAYERS["hard-lead"].choose(seat_view, rng)
        assert played.card == analyse_play(lead_only).recommendation
        compared += 1
        differ += played != action
    assert compared >= 10 and differ >= 1
