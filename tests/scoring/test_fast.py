"""fastscore against the itemised reference scorer: every rank multiset, special hands, samples."""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

from service.scoring import fast
from service.cards import DECK, SUITS, Card
from service.scoring import score_show
from tests.golden import SHOWS, case_name


def indexes(texts: str) -> list[int]:
    return [Card.parse(text).index for text in texts.split()]


def reference_total(cards, crib: bool) -> int:
    return score_show([DECK[card] for card in cards[:-1]], DECK[cards[-1]], crib).total


@pytest.mark.parametrize("show_size", [5, 6])
def test_rank_table_matches_score_show_for_every_multiset_of_ranks(show_size):
    table = fast.rank_points_table(show_size)
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), show_size):
        if max(ranks.count(rank) for rank in ranks) > 4:
            continue
        # The n-th card of a rank gets the n-th suit; flush and nobs items are left out.
        cards = [Card(rank, SUITS[ranks[:position].count(rank)])
                 for position, rank in enumerate(ranks)]
        rank_items = sum(item.points for item in score_show(cards[:-1], cards[-1]).items
                         if item.kind in ("fifteen", "pair", "run"))
        assert table[fast.rank_key(ranks, show_size)] == rank_items, ranks
        checked += 1
    assert checked == {5: 6_175, 6: 18_395}[show_size]


@pytest.mark.parametrize("case", SHOWS, ids=case_name)
def test_a_golden_show_has_its_exact_total(case):
    hand, starter = [Card.parse(text).index for text in case.hand], Card.parse(case.starter).index
    assert fast.score_hands([hand], [starter], case.crib).tolist() == [case.total]
    assert fast.score_hands([hand], [[starter]], case.crib).tolist() == [[case.total]]


@pytest.mark.parametrize("crib", [False, True])
def test_random_four_card_hands_match_score_show(crib):
    rng = np.random.default_rng(20261121 + crib)
    shows = np.argsort(rng.random((100_000, 52)), axis=1)[:, :5]
    got = fast.score_hands(shows[:, :4], shows[:, 4], crib)
    expected = [reference_total(show, crib) for show in shows.tolist()]
    assert got.tolist() == expected


@pytest.mark.parametrize("crib", [False, True])
def test_random_five_card_hands_match_score_show(crib):
    rng = np.random.default_rng(61 + crib)
    shows = np.argsort(rng.random((10_000, 52)), axis=1)[:, :6]
    got = fast.score_hands(shows[:, :5], shows[:, 5], crib)
    expected = [reference_total(show, crib) for show in shows.tolist()]
    assert got.tolist() == expected


@pytest.mark.parametrize("hand_size", [4, 5])
def test_scoring_every_starter_equals_one_starter_at_a_time(hand_size):
    rng = np.random.default_rng(hand_size)
    hands = np.argsort(rng.random((500, 52)), axis=1)[:, :hand_size]
    starters = fast.starters_for(hands)
    for crib in (False, True):
        every = fast.score_hands(hands, starters, crib)
        one_by_one = fast.score_hands(np.repeat(hands, 52 - hand_size, axis=0),
                                           starters.ravel(), crib)
        assert every.shape == (500, 52 - hand_size)
        assert every.ravel().tolist() == one_by_one.tolist()


def test_rank_keys_are_additive():
    hand, starter = indexes("5H 5D 5C JS"), indexes("5S")[0]
    ranks = [DECK[card].rank for card in (*hand, starter)]
    assert fast.card_key(hand) + fast.card_key([starter]) == fast.rank_key(ranks)
    assert fast.rank_points_table()[fast.rank_key(ranks)] == 28
    assert fast.rank_key([[4, 4, 5, 5, 6, 6]], show_size=6).shape == (1,)


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        fast.rank_points_table()[0] = 1
    with pytest.raises(ValueError):
        fast.rank_weights()[1] = 1


def test_wrong_sizes_are_rejected():
    with pytest.raises(ValueError):
        fast.score_hands([[0, 1, 2]], [3])
    with pytest.raises(ValueError):
        fast.rank_points_table(4)


def test_all_hands_and_their_starters():
    hands = fast.all_hands()
    assert hands.shape == (270_725, 4)
    assert hands.tolist() == [list(hand) for hand in combinations(range(52), 4)]
    starters = fast.starters_for(hands[::997])
    for hand, free in zip(hands[::997].tolist(), starters.tolist()):
        assert free == sorted(set(range(52)) - set(hand))
    assert fast.starters_for([[51, 0, 13, 26, 39]]).tolist() == [
        [card for card in range(52) if card not in (0, 13, 26, 39, 51)]]
