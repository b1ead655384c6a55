from fractions import Fraction

import pytest

from service.bots.discard import (DiscardPositionError, analyse_discard, crib_weight,
                                  discard_totals)
from service.cards import DECK, parse_cards
from tests.bots.reference import brute_force_totals


def _as_tuples(totals):
    return {discard: (t.hand, t.starters, t.crib, t.crib_cases, t.hand_min, t.hand_max)
            for discard, t in totals.items()}


@pytest.mark.parametrize("hand", [
    "5H 5S JD 6C 4H KS",     # nobs, fives, a run
    "2C 3C 4C 5C JC 9D",     # flushes in hand and crib, a jack of the flush suit
    "AS AH 7D 8D 9D JS",     # pairs, a run, two jacks' suits
])
def test_two_player_fast_totals_equal_brute_force(hand):
    hand = parse_cards(hand.split())
    unseen = [card for card in DECK if card not in hand]
    assert _as_tuples(discard_totals(hand, unseen, 2, 2)) == brute_force_totals(hand, unseen, 2, 2)


@pytest.mark.parametrize("hand, unseen, discards, others", [
    # 3-5 players: one discard, three other crib cards
    ("5H JD 6C 4H KS", "5S 5C JH JC 10H 9H 2H QD AD 3S 4D 7H", 1, 3),
    # 6 players, not dealing: 6 cards, one discard, four other crib cards (5-card crib)
    ("5H JD 6C 4H KS 4C", "5S 5C JH JC 10H 9H 2H QD 3S 4D 7H", 1, 4),
    # 6 players, dealing: five kept, the crib is five unseen cards
    ("2H 3H 4H 5H 6H", "JH 7H 8H 9H 10S 5S AS AH JC QC", 0, 5),
    # 5 players, dealing: four kept, four unseen crib cards
    ("JS 5S 5C 5D", "5H 10S KS QS JD 4S 6S 7C 9C 2S 3S", 0, 4),
])
def test_fast_totals_equal_brute_force_for_more_players(hand, unseen, discards, others):
    hand, unseen = parse_cards(hand.split()), parse_cards(unseen.split())
    fast = _as_tuples(discard_totals(hand, unseen, discards, others))
    assert fast == brute_force_totals(hand, unseen, discards, others)


def test_two_player_analysis_ranks_every_discard():
    options = analyse_discard(parse_cards("5H 5S JD 6C 4H KS".split()), own_crib=False)
    assert len(options) == 15
    best = options[0]
    assert [str(card) for card in best.discard] == ["JD", "KS"]
    assert best.hand == Fraction(734, 46)
    assert best.uniform_net == best.hand - best.uniform_crib
    assert best.net == pytest.approx(float(best.hand) - best.crib, abs=1e-12)
    assert (best.hand_min, best.hand_max) == (12, 24)
    assert [option.net for option in options] == sorted((o.net for o in options), reverse=True)


def test_the_29_hand_keeps_everything_for_the_dealer_at_five_players():
    options = analyse_discard(parse_cards("JH 5S 5C 5D".split()), players=5, own_crib=True)
    assert len(options) == 1 and options[0].discard == () and options[0].hand_max == 29


def test_crib_weight_by_sides():
    assert crib_weight(True, 2) == 1
    assert crib_weight(False, 2) == -1
    assert crib_weight(False, 3) == Fraction(-1, 2)
    assert crib_weight(False, 4, "2x2") == -1
    assert crib_weight(False, 6, "3x2") == Fraction(-1, 2)


def test_analysis_is_deterministic():
    hand = parse_cards("2C 3C 4C 5C JC 9D".split())
    assert analyse_discard(hand, own_crib=True) == analyse_discard(hand, own_crib=True)


@pytest.mark.parametrize("hand, players, own_crib, teams, code", [
    ("5H 5S JD 6C 4H", 2, True, None, "wrong_hand_size"),
    ("5H 5S JD 6C", 3, True, None, "wrong_hand_size"),
    ("5H 5S JD 6C", 5, False, None, "dealer_owns_crib"),
    ("5H 5S JD 6C 4H", 4, True, "3x2", "invalid_teams"),
    ("5H 5S JD 6C 4H", 7, True, None, "invalid_players"),
])
def test_bad_positions_raise_with_a_code(hand, players, own_crib, teams, code):
    with pytest.raises(DiscardPositionError) as error:
        analyse_discard(parse_cards(hand.split()), players=players, own_crib=own_crib,
                        teams=teams)
    assert error.value.code == code
