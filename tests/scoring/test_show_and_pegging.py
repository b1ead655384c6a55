import random

import pytest

from service.cards import DECK, Card, parse_cards
from service.scoring import (CountExceededError, score_pegging, score_show, show_points)


def show(hand, starter, crib=False):
    return score_show(parse_cards(hand.split()), Card.parse(starter), crib)


def summary(score):
    return sorted((item.kind, " ".join(map(str, item.cards)), item.points) for item in score.items)


def test_seed_003_show_pone_9_dealer_12_crib_6():
    bob = show("6D JH 4H 7C", "5H")
    assert bob.total == 9
    assert summary(bob) == [
        ("fifteen", "4H 5H 6D", 2), ("fifteen", "5H JH", 2), ("nobs", "JH", 1),
        ("run", "4H 5H 6D 7C", 4)]
    alice = show("5S 4S 2S 6H", "5H")
    assert alice.total == 12
    assert summary(alice) == [
        ("fifteen", "4S 5H 6H", 2), ("fifteen", "4S 5S 6H", 2), ("pair", "5H 5S", 2),
        ("run", "4S 5H 6H", 3), ("run", "4S 5S 6H", 3)]
    crib = show("10S 8D KC 8C", "5H", crib=True)
    assert crib.total == 6
    assert summary(crib) == [("fifteen", "5H 10S", 2), ("fifteen", "5H KC", 2), ("pair", "8C 8D", 2)]


def test_seed_000_four_five_six_jack_with_a_four_turned_is_15():
    assert show("4C 5S 6D JH", "4H").total == 15


def test_seed_002_nine_six_five_four_four_is_14():
    assert show("9S 6D 5C 4H", "4S").total == 14


def test_the_29_hand():
    hand = show("5S 5D 5C JH", "5H")
    assert hand.total == 29
    assert sum(1 for item in hand.items if item.kind == "fifteen") == 8
    assert [item.points for item in hand.items if item.kind == "nobs"] == [1]


def test_jack_turned_is_not_nobs_and_flush_rules():
    assert show("5S 5D 5C 5H", "JH").total == 28
    assert show("2H 4H 6H 8H", "KS").total == 4
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True).total == 5
    assert show("2S 4S 6S 8S 10S", "KS").total == 6
    assert show("2S 4S 6S 8S 10S", "KH").total == 5
    assert show("2S 4S 6S 8S 10S", "KH", crib=True).total == 0
    assert show("2S 4S 6S 8S 10S", "KS", crib=True).total == 6


def test_runs_only_count_maximal():
    assert show("3S 4D 5C 6H", "KS").total == 8  # run of four 4, 4+5+6 and K+5
    assert show("AS 2D 3C 4H", "5S").total == 7  # run of five 5, A+2+3+4+5
    assert show("QS KD AC 2H", "9S").total == 0
    assert show("2S 3D 3C 4H", "4S").total == 16  # double-double run, no fifteen


def test_six_card_show_4_4_5_5_6_6_is_46():
    score = show("4S 4D 5C 5H 6S", "6D")
    assert score.total == 46
    by_kind = {}
    for item in score.items:
        by_kind[item.kind] = by_kind.get(item.kind, 0) + item.points
    assert by_kind == {"fifteen": 16, "pair": 6, "run": 24}
    assert sum(1 for item in score.items if item.kind == "run") == 8


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


def test_pegging_combinations():
    assert (peg("JH 5S").count, peg("JH 5S").points) == (15, 2)
    assert [(i.kind, i.points) for i in peg("5S 4D 6H").items] == [("fifteen", 2), ("run", 3)]
    assert [(i.kind, i.points) for i in peg("5S 4D 6H 6C").items] == [("pair", 2)]
    assert [(i.kind, i.points) for i in peg("7S 7D 7H").items] == [("three_of_a_kind", 6)]
    assert [(i.kind, i.points) for i in peg("2S 2D 2H 2C").items] == [("four_of_a_kind", 12)]
    assert [(i.kind, i.points) for i in peg("5S 2D 4H 3C").items] == [("run", 4)]
    assert [(i.kind, i.points) for i in peg("KS QD JH AC").items] == [("thirty_one", 2)]
    assert [(i.kind, i.points) for i in peg("10S 10D JH").items] == []
    assert [(i.kind, i.points) for i in peg("10S JH 10D").items] == []
    assert [(i.kind, i.points) for i in peg("QS KD AC").items] == []
    assert [(i.kind, i.points) for i in peg("JH 5S 7C 6H").items] == [("run", 3)]
    assert peg("JH 5S 7C 6H").count == 28
    assert [(i.kind, i.points) for i in peg("10S 10D 5H 6C").items] == [("thirty_one", 2)]
    assert peg("").points == 0


def test_pegging_count_past_31_is_refused_naming_the_card():
    with pytest.raises(CountExceededError) as error:
        peg("KS QD JH 2C")
    assert error.value.index == 3 and error.value.params == {"count": 32}
    assert error.value.where == "pile[3]"
