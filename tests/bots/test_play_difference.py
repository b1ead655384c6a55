"""The kept hands' simulated pegging differences (service.bots.play_difference) and the
yardsticks that discard by them (service/simulation/simulated_discard.py)."""
import random

import pytest

from service.bots import LEVELS
from service.bots.discard import analyse_discard
from service.bots.play_difference import play_differences
from service.cards import parse_cards
from service.engine import GameOptions, new_game, view
from service.simulation.selfplay import PLAYERS, play_game
from service.simulation.stacked import deal_from
from tests.engine.helpers import stacked_deck

HAND = parse_cards(["9D", "7S", "JD", "3H", "AS", "8C"])
KEEPS = [option.keep for option in analyse_discard(HAND, own_crib=True)[:4]]


@pytest.mark.parametrize("dealer", [False, True])
def test_every_kept_hand_is_played_on_the_same_deals(dealer):
    """A hand's value does not depend on the other hands measured with it, nor on their order:
    each is played on the deals the generator gives from the one state."""
    values = play_differences(HAND, KEEPS, dealer, 100, random.Random(3))
    reordered = play_differences(HAND, [KEEPS[3], KEEPS[0], KEEPS[3]], dealer, 100,
                                 random.Random(3))
    assert reordered == [values[3], values[0], values[3]]
    assert play_differences(HAND, KEEPS, dealer, 100, random.Random(4)) != values


def test_the_differences_as_dealer_and_as_pone():
    """9D 7S JD 3H AS 8C on 200 deals, the four best discards by net: as dealer keeping
    9 7 J 8 pegs 1.25 more than the pone, 9 7 3 8 (JD AS thrown) 2.395 more; as pone every
    kept hand pegs less than the dealer, 9 7 J 8 the most less."""
    assert play_differences(HAND, KEEPS, True, 200, random.Random(1)) == [1.25, 1.995, 2.395,
                                                                          1.935]
    assert play_differences(HAND, KEEPS, False, 200, random.Random(1)) == [-1.895, -0.81,
                                                                           -1.165, -1.04]


def _dealt(scores):
    """Seat 0 deals itself HAND, two players, at `scores`."""
    deck = stacked_deck(2, 0, {0: "9D 7S JD 3H AS 8C", 1: "2C 4C 6C 10C QC KC"}, starter="5D")
    return view(deal_from(new_game(GameOptions(), b"sim"), deck, dealer=0, scores=scores), 0)


def test_the_simulated_discard_keeps_the_hand_that_pegs_better():
    """As dealer at 0-0: by net (11.55) hard throws 3H AS; with the pegging difference JD AS go
    (net 10.92), keeping 9 7 3 8."""
    seat_view = _dealt((0, 0))
    assert [str(card) for card in LEVELS["hard"].choose(seat_view, random.Random(0)).cards] \
        == ["3H", "AS"]
    thrown = PLAYERS["hard-sim-4x200"].choose(seat_view, random.Random(0)).cards
    assert [str(card) for card in thrown] == ["JD", "AS"]


def test_in_the_endgame_the_simulated_discard_is_hards():
    seat_view = _dealt((100, 95))
    assert PLAYERS["hard-sim-4x200"].choose(seat_view, random.Random(0)) == \
        LEVELS["hard"].choose(seat_view, random.Random(0))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_with_more_players_the_simulated_discard_is_hards(players):
    levels = ("hard-sim-4x200",) + ("hard",) * (players - 1)
    options = GameOptions(players=players, target=31)
    assert play_game(options, b"sim-multi", levels, random.Random(1)).scores == play_game(
        options, b"sim-multi", ("hard",) * players, random.Random(1)).scores
