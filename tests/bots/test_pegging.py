from fractions import Fraction
from itertools import combinations

import pytest

from service.bots.pegging import (ATTACK, DEFEND, PlayPosition, PlayPositionError,
                                  analyse_play)
from service.cards import DECK, parse_cards
from service.scoring import score_pegging


def _cards(text):
    return parse_cards(text.split()) if text else ()


def _brute_force_reply(pile, unseen, held):
    """Average over every hand the next player may hold of their best reply's points, and the
    share of hands with no card that fits."""
    count = sum(card.value for card in pile)
    points = {card: score_pegging((*pile, card)).points for card in unseen
              if count + card.value <= 31}
    total = stuck = hands = 0
    for hand in combinations(unseen, held):
        replies = [points[card] for card in hand if card in points]
        total += max(replies, default=0)
        stuck += not replies
        hands += 1
    return Fraction(stuck, hands), Fraction(total, hands)


@pytest.mark.parametrize("hand, pile, seen, held", [
    ("5H 4S KD QC", "", "2C 5D 3S 9H", 4),
    ("5H 4S KD", "10C", "2C 5D 3S 9H AC", 3),
    ("7S 9H", "7H 7D 8C", "2C 5D 3S 9C JD 10H 10S QH KS", 2),
    ("AH", "10C 10D 9S", "2C 2D 3S AC", 1),
])
def test_expected_points_against_equal_brute_force(hand, pile, seen, held):
    position = PlayPosition(_cards(hand), _cards(pile), _cards(seen), next_cards=held)
    unseen = [card for card in DECK
              if card not in position.hand + position.pile + position.seen]
    for option in analyse_play(position).options:
        after = (*position.pile, option.card)
        stuck, against = _brute_force_reply(after, unseen, held)
        assert option.expected_against == against
        assert option.expected_for == option.points + (stuck if sum(
            card.value for card in after) < 31 else 0)


def test_leads_a_four_rather_than_a_five():
    analysis = analyse_play(PlayPosition(_cards("5H 4S KD QC"), seen=_cards("2C")))
    assert str(analysis.recommendation) == "4S"
    assert [str(option.card) for option in analysis.options][-1] == "5H"


def test_takes_the_fifteen():
    analysis = analyse_play(PlayPosition(_cards("5H 4S KD QC"), _cards("10C"), _cards("2C")))
    assert str(analysis.recommendation) == "5H"
    assert analysis.options[0].points == 2


def test_last_card_scores_one():
    analysis = analyse_play(PlayPosition(_cards("AH"), _cards("10C 10D"), next_cards=0))
    option = analysis.options[0]
    assert (option.points, option.expected_for, option.expected_against) == (1, 1, 0)


def test_no_card_fits_is_a_go():
    analysis = analyse_play(PlayPosition(_cards("KH"), _cards("10C 10D 5S")))
    assert analysis.options == () and analysis.recommendation is None


def test_a_pone_about_to_count_out_defends():
    position = dict(hand=_cards("7S 9H JD"), pile=_cards("7H"), seen=_cards("3D"),
                    next_cards=3, own_score=100, opponent_score=100)
    assert str(analyse_play(PlayPosition(**position)).recommendation) == "7S"   # pair for 2
    defending = analyse_play(PlayPosition(**position, show_points=25))
    assert defending.defence == DEFEND
    assert str(defending.recommendation) == "JD"   # no pair royal to give away


def test_a_dealer_facing_a_pone_near_the_target_attacks():
    analysis = analyse_play(PlayPosition(_cards("7S 9H JD"), dealer=True, opponent_score=115))
    assert analysis.defence == ATTACK


def test_a_card_that_reaches_the_target_comes_first():
    analysis = analyse_play(PlayPosition(_cards("7S 8H"), _cards("7H"), own_score=119,
                                         opponent_score=100, show_points=25))
    assert analysis.options[0].wins and str(analysis.recommendation) == "7S"


@pytest.mark.parametrize("position, code, field", [
    (PlayPosition(_cards("5H"), _cards("KC QC JC 2C")), "count_exceeds_31", "pile"),
    (PlayPosition(_cards("5H"), _cards("KC QC JC AC")), "count_is_31", "pile"),
    (PlayPosition(_cards("5H 6H"), _cards("KC"), _cards("6H")), "card_seen_twice", "seen"),
    (PlayPosition(_cards("5H 6H 7H 8H 9H 10H")), "too_many_cards", "hand"),
    (PlayPosition(_cards("5H"), next_cards=7), "invalid_next_cards", "next_cards"),
    (PlayPosition(_cards("5H"), own_score=121), "game_already_won", "target"),
])
def test_impossible_positions_raise_with_a_code(position, code, field):
    with pytest.raises(PlayPositionError) as error:
        analyse_play(position)
    assert error.value.code == code and error.value.field == field


def test_with_exact_finish_points_past_the_target_are_worth_nothing():
    position = dict(hand=_cards("5H 2S"), pile=_cards("10C"), own_score=120, opponent_score=100)
    assert str(analyse_play(PlayPosition(**position)).recommendation) == "5H"
    exact = analyse_play(PlayPosition(**position, exact_finish=True))
    assert [(str(o.card), o.points) for o in exact.options if o.card.rank == 5] == [("5H", 0)]
    assert not any(option.wins for option in exact.options)
