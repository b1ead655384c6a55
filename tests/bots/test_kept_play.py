"""The kept hand's play value (service.bots.kept_play): the shipped table, what its builder
makes, and the discard that adds it."""
import json
import random

import pytest

from service.bots.discard import analyse_discard
from service.bots.kept_play import DATA, best_with_play, play_value
from service.cards import parse_cards
from service.engine import GameOptions, LegalDiscard, apply, new_game, to_act, view
from service.simulation import kept_play
from service.simulation.selfplay import PLAYERS, play_game


def test_the_table_has_every_four_ranks_in_both_roles():
    values = json.loads(DATA.read_text())["values"]
    assert {role: len(table) for role, table in values.items()} == {"dealer": 1820, "pone": 1820}


@pytest.mark.parametrize("ranks, dealer, value", [
    ((5, 6, 5, 6), True, 3.7548),
    ((5, 5, 5, 5), False, -3.443),
    ((3, 2, 6, 3), False, 1.72),
    ((10, 10, 10, 10), True, -0.2317),
])
def test_play_values_in_any_order_of_the_ranks(ranks, dealer, value):
    assert play_value(ranks, dealer) == value


@pytest.mark.parametrize("role, ranks", [("pone", (1, 4, 4, 6)), ("dealer", (5, 5, 6, 6))])
def test_the_shipped_values_are_what_the_builder_makes(role, ranks):
    made = json.loads(DATA.read_text())["made_by"].split()
    deals, seed = int(made[made.index("--deals") + 1]), made[made.index("--seed") + 1]
    assert kept_play._job((role, ranks, deals, seed)) == (role, " ".join(map(str, ranks)),
                                                          play_value(ranks, role == "dealer"))


def test_the_kept_cards_take_the_first_suits_in_deck_order():
    assert kept_play.kept_cards((4, 4, 6, 4)) == [3, 16, 5, 29]


def test_the_play_value_can_change_the_discard():
    """As dealer, 7D 10H 8D 4H 4D 7S: by hand and crib alone 4H 4D go to the crib (keeping
    7 7 8 10); with the play value 10H 8D do (keeping 4 4 7 7, far better in the play)."""
    hand = parse_cards(["7D", "10H", "8D", "4H", "4D", "7S"])
    options = analyse_discard(hand, own_crib=True)
    assert [str(card) for card in options[0].discard] == ["4H", "4D"]
    chosen = best_with_play(options, dealer=True)
    assert [str(card) for card in chosen.discard] == ["10H", "8D"]
    assert round(options[0].net, 4) == 13.8364 and round(chosen.net, 4) == 12.7298
    assert (play_value((7, 7, 8, 10), True), play_value((4, 4, 7, 7), True)) == (0.8571, 2.0034)
    assert best_with_play(options, dealer=True, weight=0) is options[0]


def test_the_yardstick_discards_by_net_and_play_value_and_finishes_games():
    state = new_game(GameOptions(), b"kept-play")
    rng = random.Random(6)
    checked = 0
    while state.phase != "game_over" and checked < 6:
        seat = to_act(state)[0]
        seat_view = view(state, seat)
        action = PLAYERS["hard-peg1"].choose(seat_view, rng)
        if any(isinstance(option, LegalDiscard) for option in seat_view.legal_actions):
            dealer = seat_view.dealer == seat
            options = analyse_discard(seat_view.hand, own_crib=dealer)
            assert action.cards == best_with_play(options, dealer).discard
            checked += 1
        state, _ = apply(state, action, 0.0)
    assert checked == 6
    result = play_game(GameOptions(target=61), b"kept-play", ("hard-peg1", "hard"),
                       random.Random(7))
    assert max(result.scores) >= 61 and min(result.scores) < 61


@pytest.mark.parametrize("players", [3, 6])
def test_with_more_players_the_yardstick_discards_as_hard_does(players):
    levels = ("hard-peg1",) + ("hard",) * (players - 1)
    result = play_game(GameOptions(players=players, target=31), b"kp-multi", levels,
                       random.Random(1))
    assert result.scores == play_game(GameOptions(players=players, target=31), b"kp-multi",
                                      ("hard",) * players, random.Random(1)).scores
