"""The show: every fifteen, pair, run, flush and nobs of a hand or crib with the starter."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Sequence, cast

from service.cards import Card
from service.scoring.items import ScoreItem

SHOW_KINDS = ("fifteen", "pair", "run", "flush", "nobs")


@dataclass(frozen=True, slots=True)
class ShowScore:
    total: int
    items: tuple[ScoreItem, ...]


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Every scoring combination of a 4- or 5-card hand (or crib) with the starter, itemised:
    the fifteens, the pairs and the runs, then the flush and the nobs.

    Each item lists its cards by rank, then suit letter, so the result is the same however the
    hand is listed; the fifteens, pairs and runs come from a cache by ranks.
    """
    cards = tuple(sorted((*hand, starter)))
    total, combinations_by_position = _rank_combinations(tuple([card.rank for card in cards]))
    items = [ScoreItem(kind, tuple([cards[i] for i in positions]), points)
             for kind, positions, points in combinations_by_position]
    flush = _flush_size(hand, starter.suit, crib)
    if flush:
        flushed = cards if flush == len(cards) else tuple(c for c in cards if c != starter)
        items.append(ScoreItem("flush", flushed, flush))
        total += flush
    jack = _nobs_jack(hand, starter.suit)
    if jack is not None:
        items.append(ScoreItem("nobs", (jack,), 1))
        total += 1
    return ShowScore(total, tuple(items))


# A combination of cards of given ranks as (kind, positions among those ranks, points).
_Combination = tuple[str, tuple[int, ...], int]


@lru_cache(maxsize=None)
def _rank_combinations(sorted_ranks: tuple[int, ...]) -> tuple[int, tuple[_Combination, ...]]:
    """The fifteens, pairs and runs of cards whose ranks are `sorted_ranks`, and their points.

    They depend on nothing else; there are 6,175 multisets of five ranks and 18,395 of six.
    """
    combos = _fifteens(sorted_ranks) + _pairs(sorted_ranks) + _runs(sorted_ranks)
    return sum([points for _, _, points in combos]), tuple(combos)


def show_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The show total of `score_show`, without items: the rank-only part comes from a cache."""
    points = rank_points(tuple(sorted(card.rank for card in (*hand, starter))))
    points += _flush_size(hand, starter.suit, crib)
    return points + (_nobs_jack(hand, starter.suit) is not None)


@lru_cache(maxsize=None)
def rank_points(sorted_ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of a multiset of ranks (they depend on nothing else)."""
    values = [min(rank, 10) for rank in sorted_ranks]
    ways = [1] + [0] * 15  # ways[s]: subsets summing to s
    for value in values:
        for total in range(15, value - 1, -1):
            ways[total] += ways[total - value]
    points = 2 * ways[15]
    counts = [sorted_ranks.count(rank) for rank in range(1, 14)] + [0]
    points += sum(count * (count - 1) for count in counts)
    run_length, run_ways = 0, 1
    for count in counts:
        if count:
            run_length, run_ways = run_length + 1, run_ways * count
            continue
        if run_length >= 3:
            points += run_length * run_ways
        run_length, run_ways = 0, 1
    return points


def _fifteens(ranks) -> list[_Combination]:
    # sums[mask]: the count value of the cards whose positions are the bits of mask
    sums = [0]
    for rank in ranks:
        value = _COUNT_VALUE[rank]
        sums += [total + value for total in sums]
    return [("fifteen", positions, 2) for mask, positions in _subsets(len(ranks))
            if sums[mask] == 15]


_COUNT_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # by rank, as Card.value


@lru_cache(maxsize=None)
def _subsets(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(bit mask, positions) of every group of 2 or more of `size` cards, in combinations order."""
    return tuple((sum(1 << i for i in combo), combo)
                 for length in range(2, size + 1) for combo in combinations(range(size), length))


@lru_cache(maxsize=None)
def _two_of(size: int) -> tuple[tuple[int, int], ...]:
    return tuple(combinations(range(size), 2))


def _pairs(ranks) -> list[_Combination]:
    return [("pair", pair, 2) for pair in _two_of(len(ranks)) if ranks[pair[0]] == ranks[pair[1]]]


def _runs(ranks) -> list[_Combination]:
    at: list[list[int] | None] = [None] * 15  # at[rank]: the positions of the cards of that rank
    for position, rank in enumerate(ranks):
        held = at[rank]
        if held is None:
            at[rank] = [position]
        else:
            held.append(position)
    combos = []
    low = 1
    while low <= 11:
        if at[low] is None:
            low += 1
            continue
        high = low
        while at[high + 1] is not None:
            high += 1
        length = high - low + 1
        if length >= 3:
            combos += [("run", positions, length) for positions in product(*cast(list[list[int]], at[low:high + 1]))]
        low = high + 2
    return combos


def _nobs_jack(hand, starter_suit) -> Card | None:
    """The hand's jack of the starter's suit (one point for his nob), or None."""
    for card in hand:
        if card.rank == 11 and card.suit == starter_suit:
            return card
    return None


def _flush_size(hand, starter_suit, crib) -> int:
    """How many cards the flush has (the hand alone, or with the starter), or 0."""
    suit = hand[0].suit
    for card in hand:
        if card.suit != suit:
            return 0
    if suit == starter_suit:
        return len(hand) + 1
    return 0 if crib else len(hand)
