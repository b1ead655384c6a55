"""Discard analysis: every possible discard with its exact expected hand, crib and net points.

Two crib models (the OpenAPI description repeats them). Uniform: the starter and the cards the
other players put in the crib are drawn uniformly at random from the unseen cards, i.e. every
card not in the analysed hand, so every (other crib cards, starter) combination is equally
likely: with two players that is 1,035 opponent discards x 44 starters per discard. Its
expectations are exact (no sampling). Weighted (service.bots.crib_model): the other discards
follow the discard tables of good play for each seat's role; options are ranked by it.

Net expectation = hand + crib when the crib belongs to you (or to your partner: a team shares one
score), hand - crib / (sides - 1) when it belongs to another side. With two sides this is the
usual hand - crib; with three or more sides a point scored by one opponent costs you only a
share of the difference between you and the average opponent.

Speed: the rank part of the crib (fifteens, pairs, runs) depends only on the multiset of ranks,
so for a discard D the sum over every (others, starter) is s * sum_t W[t] * R[D + t], where t
runs over the rank multisets of the s = others + 1 unseen crib cards, W[t] counts the unseen
card sets with those ranks (a product of binomials of the unseen cards per rank) and R is
service.scoring.fast's rank-points table, read by additive rank key. Flushes and nobs are counted
separately by suit counting.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Sequence

import numpy as np

from service.bots.crib_model import CribTables, WeightedCrib, shipped_tables
from service.cards import DECK, SUITS, Card
from service.errors import InvalidInputError
from service.scoring.fast import rank_points_table, rank_weights

JACK = 11
# _COMB[n, k] = C(n, k) for n unseen cards of a rank (0..4) and k of them in a multiset (0..6).
_COMB = np.array([[comb(n, k) for k in range(7)] for n in range(5)], dtype=np.int64)


class DiscardPositionError(InvalidInputError):
    """A hand that cannot be analysed."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message, code=code, **params)


@dataclass(frozen=True, slots=True)
class DealShape:
    """What a seat's deal looks like: cards dealt, cards it discards, crib size."""

    dealt: int
    discards: int
    crib_size: int

    @property
    def others(self) -> int:
        """Crib cards that come from elsewhere (other players' discards, the deck card)."""
        return self.crib_size - self.discards


def deal_shape(players: int, dealer: bool) -> DealShape:
    """RULES.md's deal table for one seat."""
    if players == 2:
        return DealShape(6, 2, 4)
    if players in (3, 4):
        return DealShape(5, 1, 4)
    if players == 5:
        return DealShape(4, 0, 4) if dealer else DealShape(5, 1, 4)
    if players == 6:
        return DealShape(5, 0, 5) if dealer else DealShape(6, 1, 5)
    raise DiscardPositionError("invalid_players", f"players must be 2-6, got {players}",
                               field="players", players=players)


def sides(players: int, teams: str | None) -> int:
    return {None: players, "2x2": 2, "3x2": 3, "2x3": 2}[teams]


def crib_weight(own_crib: bool, players: int, teams: str | None = None) -> Fraction:
    """How much one crib point is worth to the analysed seat (see the module docstring)."""
    return Fraction(1) if own_crib else Fraction(-1, sides(players, teams) - 1)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: Fraction        # expected show points of the kept cards over every starter
    crib: float           # expected points of the crib, other discards weighted by role
    net: float            # hand + crib_weight * crib
    uniform_crib: Fraction  # expected points of the crib, every other discard equally likely
    uniform_net: Fraction   # hand + crib_weight * uniform_crib
    hand_min: int         # the kept cards' fewest points over every possible starter
    hand_max: int


@dataclass(frozen=True, slots=True)
class DiscardTotals:
    """Integer sums behind the expectations: hand over `starters`, crib over `crib_cases`."""

    hand: int
    starters: int
    crib: int
    crib_cases: int
    crib_rank_free: int   # the part of `crib` from flushes and nobs
    hand_min: int
    hand_max: int


def analyse_discard(hand: Sequence[Card], *, players: int = 2, own_crib: bool,
                    teams: str | None = None,
                    tables: CribTables | None = None) -> list[DiscardOption]:
    """Every discard of `hand`, best weighted net expectation first (ties: the better uniform
    net, then the order of `hand`). `tables` default to the shipped discard tables.

    The hand size says whether the seat is the dealer where that matters (5-6 players: the
    dealer is dealt one card fewer and keeps everything). Raises DiscardPositionError.
    """
    hand = tuple(hand)
    shape = shape_for(hand, players, own_crib, teams)
    unseen = [card for card in DECK if card not in hand]
    weight = crib_weight(own_crib, players, teams)
    per_rank = [0] * 14
    for card in unseen:
        per_rank[card.rank] += 1
    weighted = WeightedCrib(tables or shipped_tables(), players, teams, own_crib,
                            shape.discards, per_rank, shape.crib_size + 1)
    options = []
    for discard, totals in discard_totals(hand, unseen, shape.discards, shape.others).items():
        expected_hand = Fraction(totals.hand, totals.starters)
        uniform_crib = Fraction(totals.crib, totals.crib_cases)
        crib = (totals.crib_rank_free / totals.crib_cases
                + weighted.rank_points(card.rank for card in discard))
        options.append(DiscardOption(
            discard=discard, keep=tuple(card for card in hand if card not in discard),
            hand=expected_hand, crib=crib, net=float(expected_hand) + float(weight) * crib,
            uniform_crib=uniform_crib, uniform_net=expected_hand + weight * uniform_crib,
            hand_min=totals.hand_min, hand_max=totals.hand_max))
    # sorted() is stable, so equal nets keep the deterministic combinations() order.
    return sorted(options, key=lambda option: (-option.net, -option.uniform_net))


def shape_for(hand: Sequence[Card], players: int, own_crib: bool,
              teams: str | None) -> DealShape:
    """The deal `hand` was dealt from; raises DiscardPositionError if it cannot be one."""
    if len(set(hand)) != len(hand):
        raise DiscardPositionError("duplicate_card", "a card appears twice in the hand",
                                   field="hand")
    if teams not in (None, "2x2", "3x2", "2x3") or (
            teams and players != {"2x2": 4, "3x2": 6, "2x3": 6}[teams]):
        raise DiscardPositionError("invalid_teams", f"teams {teams!r} do not fit {players} players",
                                   field="teams", teams=teams, players=players)
    shapes = {deal_shape(players, dealer) for dealer in (False, True)}
    for shape in shapes:
        if shape.dealt == len(hand):
            if shape.discards == 0 and not own_crib:
                raise DiscardPositionError(
                    "dealer_owns_crib", "a hand of this size is the dealer's, and the crib is "
                    "the dealer's", field="own_crib", players=players, cards=len(hand))
            return shape
    expected = " or ".join(str(shape.dealt) for shape in sorted(shapes, key=lambda s: s.dealt))
    raise DiscardPositionError(
        "wrong_hand_size", f"with {players} players a dealt hand has {expected} cards, "
        f"not {len(hand)}", field="hand", players=players, expected=expected, got=len(hand))


def discard_totals(hand: Sequence[Card], unseen: Sequence[Card], discards: int,
                   others: int) -> dict[tuple[Card, ...], DiscardTotals]:
    """For each way to discard `discards` cards of `hand`: the exact integer sums of the hand
    over every starter in `unseen`, and of the crib (the discards, `others` cards from `unseen`
    and a starter from the rest) over every such combination."""
    unseen = tuple(unseen)
    per_rank = [0] * 14
    per_suit = dict.fromkeys(SUITS, 0)
    for card in unseen:
        per_rank[card.rank] += 1
        per_suit[card.suit] += 1
    deal = _Deal(unseen, per_rank, per_suit, discards, others)
    result = {}
    for discard in combinations(hand, discards):
        keep = [card for card in hand if card not in discard]
        hand_sum, low, high = deal.hand_sum(keep)
        rank_sum, rank_free = deal.crib_sums(discard)
        result[discard] = DiscardTotals(hand_sum, len(unseen), rank_sum + rank_free,
                                        deal.crib_cases, rank_free, low, high)
    return result


class _Deal:
    """Everything that depends only on the unseen cards, shared by every discard."""

    def __init__(self, unseen, per_rank, per_suit, discards, others):
        self.unseen = unseen
        self.per_suit = per_suit
        self.others = others
        size = len(unseen)
        self.crib_cases = comb(size, others) * (size - others)
        self.starter_ranks = [rank for rank, count in enumerate(per_rank) if count]
        self.multiset_size = others + 1
        # The crib with its starter; in every layout the kept hand has as many cards as the crib.
        self.show_size = discards + self.multiset_size
        self.table = rank_points_table(self.show_size)
        self.weights = rank_weights(self.show_size)
        keys, counts = _multisets(self.multiset_size, self.show_size)
        # How many sets of unseen cards have each multiset of ranks: a product of binomials.
        weights = _COMB[np.array(per_rank[1:], dtype=np.int64)[None, :], counts].prod(axis=1)
        possible = weights > 0
        self.multiset_keys, self.multiset_weights = keys[possible], weights[possible]
        # Nobs from a jack among the other crib cards, with a starter of its suit: the same for
        # every discard.
        self.others_nobs = 0
        if others:
            self.others_nobs = sum((per_suit[card.suit] - 1) * comb(size - 2, others - 1)
                                   for card in unseen if card.rank == JACK)

    def hand_sum(self, keep: Sequence[Card]) -> tuple[int, int, int]:
        """Sum, min and max of the kept cards' show points over every unseen starter."""
        key = sum(int(self.weights[card.rank]) for card in keep)
        by_starter_rank = {rank: int(self.table[key + self.weights[rank]])
                           for rank in self.starter_ranks}
        suits = {card.suit for card in keep}
        flush_suit = next(iter(suits)) if len(suits) == 1 else None
        nobs_suits = [card.suit for card in keep if card.rank == JACK]
        total, low, high = 0, None, 0
        for starter in self.unseen:
            points = by_starter_rank[starter.rank] + nobs_suits.count(starter.suit)
            if flush_suit:
                points += len(keep) + (starter.suit == flush_suit)
            total += points
            low = points if low is None else min(low, points)
            high = max(high, points)
        return total, low or 0, high

    def crib_sums(self, discard: Sequence[Card]) -> tuple[int, int]:
        """The crib's points over every case: (fifteens, pairs and runs; flushes and nobs)."""
        size, others = len(self.unseen), self.others
        key = sum(int(self.weights[card.rank]) for card in discard)
        points = self.table[key + self.multiset_keys].astype(np.int64)
        # Each set of `multiset_size` unseen cards is `multiset_size` (others, starter) cases:
        # any one of its cards may be the starter.
        rank_sum = self.multiset_size * int(points @ self.multiset_weights)
        total = 0
        # A crib flush needs every crib card and the starter in one suit.
        suits = {card.suit for card in discard} or set(SUITS)
        if len(discard) == 0 or len(suits) == 1:
            for suit in suits:
                of_suit = self.per_suit[suit]
                total += (len(discard) + others + 1) * comb(of_suit, others) * (of_suit - others)
        for card in discard:
            if card.rank == JACK:  # nobs: any starter of the jack's suit, any other crib cards
                total += self.per_suit[card.suit] * comb(size - 1, others)
        return rank_sum, total + self.others_nobs


@cache
def _multisets(size: int, show_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of `size` ranks: its rank key for shows of `show_size` cards, and its
    per-rank counts (multisets x 13)."""
    multisets = list(combinations_with_replacement(range(1, 14), size))
    counts = np.zeros((len(multisets), 13), dtype=np.int64)
    for row, multiset in enumerate(multisets):
        for rank in multiset:
            counts[row, rank - 1] += 1
    return counts @ rank_weights(show_size)[1:].astype(np.int64), counts


def warm(players: int = 2) -> None:
    """Build the tables a deal with `players` players (no teams) needs (otherwise built on
    first use): the rank tables and the role-weighted crib's."""
    for dealer in (False, True):
        shape = deal_shape(players, dealer)
        _multisets(shape.others + 1, shape.crib_size + 1)
        rank_points_table(shape.crib_size + 1)
        analyse_discard(DECK[:shape.dealt], players=players, own_crib=dealer)
