"""Show and pegging scoring with itemised breakdowns (pure functions)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Sequence

from service.cards import Card

SHOW_KINDS = ("fifteen", "pair", "run", "flush", "nobs")
PEGGING_KINDS = ("fifteen", "thirty_one", "pair", "three_of_a_kind", "four_of_a_kind", "run",
                 "go", "last_card")
_SAME_RANK_KINDS = {2: ("pair", 2), 3: ("three_of_a_kind", 6), 4: ("four_of_a_kind", 12)}


class CountExceededError(ValueError):
    """A pegging pile whose count passes 31."""

    code = "count_exceeds_31"

    def __init__(self, count: int, index: int):
        super().__init__(f"the count reaches {count} at pile[{index}], over 31")
        self.index = index
        self.params = {"count": count, "index": index}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ShowScore:
    total: int
    items: tuple[ScoreItem, ...]


@dataclass(frozen=True, slots=True)
class PeggingScore:
    count: int
    points: int
    items: tuple[ScoreItem, ...]


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Every scoring combination of a 4- or 5-card hand (or crib) with the starter, itemised."""
    cards = (*hand, starter)
    items = [*_fifteens(cards), *_pairs(cards), *_runs(cards)]
    flush = _flush(hand, starter, crib)
    if flush:
        items.append(flush)
    items.extend(ScoreItem("nobs", (card,), 1) for card in hand
                 if card.rank == 11 and card.suit == starter.suit)
    return ShowScore(sum(item.points for item in items), tuple(items))


def show_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The show total of `score_show`, without items: the rank-only part comes from a cache."""
    points = rank_points(tuple(sorted(card.rank for card in (*hand, starter))))
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    return points + sum(1 for card in hand if card.rank == 11 and card.suit == starter.suit)


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


def _fifteens(cards):
    # sums[mask]: the count value of the cards whose positions are the bits of mask
    sums = [0]
    for card in cards:
        value = card.value
        sums += [total + value for total in sums]
    for combo, mask in _subsets(len(cards)):
        if sums[mask] == 15:
            yield ScoreItem("fifteen", tuple(cards[i] for i in combo), 2)


@lru_cache(maxsize=None)
def _subsets(size: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(positions, bit mask) of every group of 2 or more of `size` cards, in combinations order."""
    return tuple((combo, sum(1 << i for i in combo))
                 for length in range(2, size + 1) for combo in combinations(range(size), length))


def _pairs(cards):
    for first, second in combinations(cards, 2):
        if first.rank == second.rank:
            yield ScoreItem("pair", (first, second), 2)


def _runs(cards):
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    rank = 1
    while rank <= 13:
        length = 0
        while rank + length in by_rank:
            length += 1
        if length >= 3:
            groups = [by_rank[rank + offset] for offset in range(length)]
            for combo in product(*groups):
                yield ScoreItem("run", combo, length)
        rank += length + 1


def _flush(hand, starter, crib):
    if len({card.suit for card in hand}) != 1:
        return None
    if hand[0].suit == starter.suit:
        return ScoreItem("flush", (*hand, starter), len(hand) + 1)
    if crib:
        return None
    return ScoreItem("flush", tuple(hand), len(hand))


def score_pegging(pile: Sequence[Card]) -> PeggingScore:
    """Points for the last card of `pile` (the cards played since the count was last reset)."""
    count = 0
    for index, card in enumerate(pile):
        count += card.value
        if count > 31:
            raise CountExceededError(count, index)
    if not pile:
        return PeggingScore(0, 0, ())
    pile = tuple(pile)
    items = []
    if count == 15:
        items.append(ScoreItem("fifteen", pile, 2))
    elif count == 31:
        items.append(ScoreItem("thirty_one", pile, 2))
    same_rank = 1
    while same_rank < len(pile) and pile[-same_rank - 1].rank == pile[-1].rank:
        same_rank += 1
    if same_rank >= 2:
        kind, points = _SAME_RANK_KINDS[same_rank]
        items.append(ScoreItem(kind, pile[-same_rank:], points))
    run = _pegging_run_length(pile)
    if run:
        items.append(ScoreItem("run", pile[-run:], run))
    return PeggingScore(count, sum(item.points for item in items), tuple(items))


def _pegging_run_length(pile: Sequence[Card]) -> int:
    """The longest tail of k >= 3 cards whose ranks are k distinct consecutive ranks, or 0."""
    best = 0
    for length in range(3, len(pile) + 1):
        ranks = {card.rank for card in pile[-length:]}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            best = length
    return best


def pile_count(pile: Sequence[Card]) -> int:
    return sum(card.value for card in pile)
