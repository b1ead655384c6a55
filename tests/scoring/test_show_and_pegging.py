import random

import pytest

from service.cards import DECK, Card, parse_cards
from service.scoring import (CountExceededError, score_pegging, score_show, show_points)
from tests.golden import PEGGING, SHOWS, case_name, kinds


def breakdown(items):
    return [{"kind": item.kind, "cards": [str(card) for card in item.cards], "points": item.points}
            for item in items]


@pytest.mark.parametrize("case", SHOWS, ids=case_name)
def test_a_golden_show_scores_its_exact_total_and_items(case):
    score = score_show(parse_cards(case.hand), Card.parse(case.starter), case.crib)
    assert score.total == case.total
    assert sum(item.points for item in score.items) == case.total
    if case.breakdown is not None:
        assert breakdown(score.items) == case.breakdown
    if case.kinds is not None:
        assert kinds((item.kind, item.points) for item in score.items) == case.kinds


def test_items_add_up_and_fast_path_agrees_on_random_hands():
    rng = random.Random(1)
    for _ in range(3000):
        cards = rng.sample(DECK, 7)
        for size in (4, 5):
            hand, starter = cards[:size], cards[6]
            for crib in (False, True):
                score = score_show(hand, starter, crib)
                assert score.total == sum(item.points for item in score.items)
                assert score.total == show_points(hand, starter, crib)


def test_items_are_the_same_in_any_order_of_the_hand_and_list_cards_by_rank():
    rng = random.Random(3)
    for _ in range(500):
        cards = rng.sample(DECK, rng.choice((5, 6)))
        hand, starter = cards[:-1], cards[-1]
        items = score_show(hand, starter).items
        assert score_show(rng.sample(hand, len(hand)), starter).items == items
        for item in items:
            assert list(item.cards) == sorted(item.cards, key=lambda card: (card.rank, card.suit))


def test_impossible_totals_never_occur_in_a_sample():
    rng = random.Random(2)
    totals = {show_points(*(lambda c: (c[:4], c[4]))(rng.sample(DECK, 5))) for _ in range(20000)}
    assert not totals & {19, 25, 26, 27}


def peg(cards):
    return score_pegging(parse_cards(cards.split()))


@pytest.mark.parametrize("case", PEGGING, ids=case_name)
def test_a_golden_pile_scores_its_exact_count_points_and_items(case):
    score = score_pegging(parse_cards(case.pile))
    assert (score.count, score.points) == (case.count, case.points)
    assert breakdown(score.items) == case.breakdown


def test_an_empty_pile_scores_nothing():
    assert peg("").points == 0


def test_pegging_count_past_31_is_refused_naming_the_card():
    with pytest.raises(CountExceededError) as error:
        peg("KS QD JH 2C")
    assert error.value.index == 3 and error.value.params == {"count": 32}
    assert error.value.where == "pile[3]"
