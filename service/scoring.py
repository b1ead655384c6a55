"""Show and pegging scoring with itemised breakdowns (pure functions)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from operator import attrgetter
from typing import NamedTuple, Sequence

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


class ScoreItem(NamedTuple):
    """One scoring combination. A named tuple: a show makes several, and this is the cheapest
    immutable record to make."""

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


# One scoring combination of a show as (kind, positions, points); the positions index the
# show's cards in rank order (ShowCombinations.cards), so an item lists its cards low to high.
Combination = tuple[str, tuple[int, ...], int]


class ShowCombinations(NamedTuple):
    total: int
    cards: tuple[Card, ...]  # hand and starter by rank, then suit letter: the order of the items
    ranks: tuple[int, ...]  # the ranks of `cards`
    combos: tuple[Combination, ...]


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Every scoring combination of a 4- or 5-card hand (or crib) with the starter, itemised."""
    total, cards, _, combos = show_combinations(hand, starter, crib)
    return ShowScore(total, tuple([ScoreItem(kind, tuple([cards[i] for i in positions]), points)
                                   for kind, positions, points in combos]))


def show_combinations(hand: Sequence[Card], starter: Card,
                      crib: bool = False) -> ShowCombinations:
    """The show total and its combinations (see `Combination`), in `score_show`'s order: the
    fifteens, the pairs and the runs, then the flush and the nobs.

    Sorting the cards first makes the result the same however the hand is listed, and lets
    the fifteens, pairs and runs come from a cache by ranks.
    """
    cards = tuple(sorted((*hand, starter), key=_SORT_KEY))
    ranks = tuple([card.rank for card in cards])
    total, combos = _rank_combinations(ranks)
    suit = starter.suit
    flush = _flush_size(hand, suit, crib)
    if flush:
        flushed = _FIRST[len(cards)]
        if flush < len(cards):  # the hand's cards without the starter
            starter_at = _position(cards, starter)
            flushed = flushed[:starter_at] + flushed[starter_at + 1:]
        combos += (("flush", flushed, flush),)
        total += flush
    if 11 in ranks:  # a jack somewhere: nobs if the hand holds the one of the starter's suit
        jack = _nobs_jack(hand, suit)
        if jack is not None:
            combos += (("nobs", (_position(cards, jack),), 1),)
            total += 1
    return ShowCombinations(total, cards, ranks, combos)


_SORT_KEY = attrgetter("sort_key")


def _position(cards: tuple[Card, ...], card: Card) -> int:
    """Where `card`, the very object, is in `cards`: found by identity, because `cards.index`
    would compare it by value, in Python code, with every card before it."""
    return [*map(id, cards)].index(id(card))


@lru_cache(maxsize=None)
def _rank_combinations(sorted_ranks: tuple[int, ...]) -> tuple[int, tuple[Combination, ...]]:
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


def _fifteens(ranks) -> list[Combination]:
    # sums[mask]: the count value of the cards whose positions are the bits of mask
    sums = [0]
    for rank in ranks:
        value = _COUNT_VALUE[rank]
        sums += [total + value for total in sums]
    return [("fifteen", positions, 2) for mask, positions in _subsets(len(ranks))
            if sums[mask] == 15]


_COUNT_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # by rank, as Card.value
_FIRST = [tuple(range(size)) for size in range(7)]  # _FIRST[n]: the first n positions


@lru_cache(maxsize=None)
def _subsets(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(bit mask, positions) of every group of 2 or more of `size` cards, in combinations order."""
    return tuple((sum(1 << i for i in combo), combo)
                 for length in range(2, size + 1) for combo in combinations(range(size), length))


@lru_cache(maxsize=None)
def _two_of(size: int) -> tuple[tuple[int, int], ...]:
    return tuple(combinations(range(size), 2))


def _pairs(ranks) -> list[Combination]:
    return [("pair", pair, 2) for pair in _two_of(len(ranks)) if ranks[pair[0]] == ranks[pair[1]]]


def _runs(ranks) -> list[Combination]:
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
            combos += [("run", positions, length) for positions in product(*at[low:high + 1])]
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
