"""The rating model, the formats and the statistics of a game, as plain values."""

import random

import pytest

from service.engine import GameOptions, apply, start_game
from service.ratings import INITIAL, PROVISIONAL_GAMES, Rating, format_of, rate, stats_of
from service.ratings.model import ranks_of
from service.simulation.random_games import random_action


@pytest.mark.parametrize("players, teams, name", [
    (2, None, "2"), (3, None, "3"), (4, None, "4"), (5, None, "5"), (6, None, "6"),
    (4, "2x2", "2x2"), (6, "3x2", "3x2"), (6, "2x3", "2x3")])
def test_a_format_is_named_by_the_layout(players, teams, name):
    assert format_of(GameOptions(players=players, teams=teams)) == name


def test_a_new_player_shows_1000_and_is_provisional():
    assert (INITIAL.display, INITIAL.provisional, INITIAL.games) == (1000, True, 0)


def test_the_winner_of_two_new_players_gains_what_the_loser_loses():
    [[winner], [loser]] = rate([[INITIAL], [INITIAL]], [1, 2])
    assert (round(winner.mu, 6), round(loser.mu, 6)) == (27.635389, 22.364611)
    assert round(winner.sigma, 6) == round(loser.sigma, 6) == 8.065901
    assert (winner.display, loser.display) == (1069, 963)
    assert winner.games == loser.games == 1


def test_partners_move_together_and_ties_share_a_place():
    [[a, c], [b, d]] = rate([[INITIAL, INITIAL], [INITIAL, INITIAL]], [1, 2])
    assert a == c and b == d and a.mu > 25 > b.mu
    assert ranks_of(1, [100, 121, 100]) == [2, 1, 2]
    assert ranks_of(0, [121, 90, 100]) == [1, 3, 2]


def test_placement_games_end_after_five():
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional


def test_a_move_read_from_a_rating_that_changed_since_keeps_both_moves():
    before, after = Rating(25, 8, 1), Rating(27, 7, 2)
    assert before.moved(before, after) == after
    meanwhile = Rating(24, 4, 2)
    assert meanwhile.moved(before, after) == Rating(26, 3.5, 3)


def test_a_seats_points_in_its_stats_are_the_points_it_scored():
    rng = random.Random(7)
    options = GameOptions(players=3)
    state, events = start_game(options, bytes(32), now=0.0)
    log = [event.to_dict() for event in events]
    while (action := random_action(state, rng, miscount_rate=0.0)) is not None:
        state, events = apply(state, action, now=0.0)
        log += [event.to_dict() for event in events]
    heels = {seat: 0 for seat in range(3)}
    muggins = dict(heels)
    for event in log:
        if event["type"] == "heels":
            heels[event["public"]["seat"]] += event["public"]["points"]
        if event["type"] == "muggins":
            muggins[event["public"]["seat"]] += event["public"]["points"]
    for seat in range(3):
        stats = stats_of(log, options, seat)
        assert (stats.games, stats.deals) == (1, state.hand_number)
        scored = stats.hand_points + stats.crib_points + stats.pegging_points
        assert scored + heels[seat] + muggins[seat] == state.scores[seat]
    winner = state.results[-1]["winner"]
    assert [stats_of(log, options, seat).wins for seat in range(3)] == [
        int(seat == winner) for seat in range(3)]
