"""Vectorised show scoring over card indexes (numpy), for bulk work: bots, analysis, exhaustive tests.

Cards are `Card.index` values 0..51: `"SHDC".index(suit) * 13 + rank - 1`. Cards of one show must
be distinct; that is not checked.

Fifteens, pairs and runs depend only on the multiset of ranks, so they are read from a table built
once, on first use, from `service.scoring.rank_points`: the rules have a single definition. The
table is indexed by a *rank key*, the sum of one weight per card. The weights are a greedy B_h
sequence: every multiset of `show_size` ranks (at most four of a rank) has a sum of its own. So the
key needs no sorting and is additive: key(hand + starter) = key(hand) + key(starter), and a crib's
key is the sum of the keys of the discards and the starter. Totals are int16 so that sums over
many shows do not overflow.

API
- `score_hands(hands, starters, crib=False) -> ndarray[int16]`: `hands` is [..., 4] (or [..., 5]
  for the 6-player game) card indexes, `starters` is [...] (one starter per hand) or [..., S]
  (every hand scored with each of S starters); the result has the shape of `starters`. Totals
  as `service.scoring.show_points`: fifteens, pairs, runs, flush (crib: only with the starter)
  and nobs.
- `card_key(cards, show_size=5)` / `rank_key(ranks, show_size=5)`: the rank key of the cards
  (or ranks 1..13) along the last axis; `show_size` is the number of cards in the whole show
  (5: four cards and the starter; 6: five and the starter), not the number summed.
- `rank_points_table(show_size=5) -> ndarray[int8]`: fifteens + pairs + runs by rank key
  (-1 where a key belongs to no multiset). Read-only, built on first call and then cached
  (5: under 0.1 s, 6: a few tenths of a second); importing this module builds nothing.
  tests/test_fast.py checks every entry against `score_show`'s itemised count.
- `rank_weights(show_size=5)`: the key weight of each rank 1..13 (index 0 unused).
- `all_hands(size=4)` and `starters_for(hands)`: every hand of `size` distinct cards (in
  combination order) and, per hand, the 52 - size cards that may be its starter.
"""
from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

from service.scoring.show import rank_points

# Weight of each rank 1..13 (index 0 unused) per show size; found by a greedy search for the
# smallest next weight that keeps every multiset sum distinct. rank_points_table re-checks it.
_RANK_WEIGHTS = {
    5: (0, 0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
    6: (0, 0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437),
}
_RANKS = np.arange(52) % 13 + 1
_SUIT_BITS = (1 << (np.arange(52) // 13)).astype(np.uint8)
# The suit bit of a jack, 0 for any other card: OR-ed over a hand, the suits that give nobs.
_JACK_SUIT_BITS = np.where(_RANKS == 11, _SUIT_BITS, 0).astype(np.uint8)


def rank_weights(show_size: int = 5) -> np.ndarray:
    """Key weight of each rank 1..13 (index 0 unused) for shows of `show_size` cards."""
    return _weights(show_size)[0]


def rank_key(ranks, show_size: int = 5) -> np.ndarray:
    """The rank key of ranks 1..13 along the last axis (sum of their weights)."""
    return rank_weights(show_size)[np.asarray(ranks)].sum(axis=-1)


def card_key(cards, show_size: int = 5) -> np.ndarray:
    """The rank key of card indexes along the last axis (sum of their ranks' weights)."""
    return _weights(show_size)[1][np.asarray(cards)].sum(axis=-1)


@cache
def _weights(show_size: int) -> tuple[np.ndarray, np.ndarray]:
    if show_size not in _RANK_WEIGHTS:
        raise ValueError(f"show_size must be 5 or 6, not {show_size!r}")
    by_rank = np.array(_RANK_WEIGHTS[show_size], dtype=np.intp)
    by_rank.flags.writeable = False
    by_card = by_rank[_RANKS]
    by_card.flags.writeable = False
    return by_rank, by_card


@cache
def rank_points_table(show_size: int = 5) -> np.ndarray:
    """Fifteens + pairs + runs of every multiset of `show_size` ranks, indexed by rank key."""
    weights = rank_weights(show_size)
    multisets = [ranks for ranks in combinations_with_replacement(range(1, 14), show_size)
                 if all(ranks.count(rank) <= 4 for rank in set(ranks))]
    keys = weights[np.array(multisets)].sum(axis=1)
    if len(np.unique(keys)) != len(multisets):
        raise AssertionError(f"rank weights for {show_size}-card shows give equal keys")
    # Sized for any show_size ranks, so that scoring every rank of starter stays in bounds.
    table = np.full(show_size * weights.max() + 1, -1, dtype=np.int8)
    table[keys] = [rank_points(ranks) for ranks in multisets]
    table.flags.writeable = False
    return table


def score_hands(hands, starters, crib: bool = False) -> np.ndarray:
    """Show totals of `hands` [..., 4|5] with `starters` [...] or [..., S], as int16."""
    hands = np.asarray(hands)
    starters = np.asarray(starters)
    hand_size = hands.shape[-1]
    if hand_size not in (4, 5):
        raise ValueError(f"a hand has 4 or 5 cards, not {hand_size}")
    weight_of_rank, weight_of_card = _weights(hand_size + 1)
    table = rank_points_table(hand_size + 1)
    hand_key = weight_of_card[hands].sum(axis=-1)
    suits = np.bitwise_or.reduce(_SUIT_BITS[hands], axis=-1)
    jack_suits = np.bitwise_or.reduce(_JACK_SUIT_BITS[hands], axis=-1)
    if starters.ndim == hands.ndim:
        # S starters per hand: score the 13 starter ranks and the 4 starter suits of each hand
        # once, add them up into the 52 possible starters (index order), then pick.
        by_rank = table[hand_key[..., None] + weight_of_rank[1:]].astype(np.int16)
        by_suit = _suit_points(suits[..., None], jack_suits[..., None], _SUIT_BITS[::13],
                               hand_size, crib)
        by_card = by_suit[..., :, None] + by_rank[..., None, :]
        first_of_hand = np.arange(0, by_card.size, 52).reshape(*hands.shape[:-1], 1)
        return by_card.ravel().take(first_of_hand + starters)
    points = table[hand_key + weight_of_card[starters]].astype(np.int16)
    return points + _suit_points(suits, jack_suits, _SUIT_BITS[starters], hand_size, crib)


def _suit_points(suits, jack_suits, starter_suit, hand_size: int, crib: bool) -> np.ndarray:
    """Flush and nobs, from the suit bits of the hand, of its jacks, and of the starter."""
    matched = suits == starter_suit  # every hand card in the starter's suit
    if crib:
        points = matched * np.int16(hand_size + 1)
    else:
        points = ((suits & (suits - 1)) == 0) * np.int16(hand_size) + matched
    return points + ((jack_suits & starter_suit) != 0)


def all_hands(size: int = 4) -> np.ndarray:
    """Every set of `size` distinct card indexes, [C(52, size), size] int8, ascending rows in
    the order of itertools.combinations."""
    hands = np.arange(52, dtype=np.int8)[:, None]
    for _ in range(size - 1):
        last = hands[:, -1].astype(np.intp)
        extensions = 51 - last  # the cards above the last one
        starts = np.repeat(np.cumsum(extensions) - extensions, extensions)
        following = np.repeat(last + 1, extensions) + np.arange(extensions.sum()) - starts
        hands = np.column_stack([np.repeat(hands, extensions, axis=0), following.astype(np.int8)])
    return hands


def starters_for(hands) -> np.ndarray:
    """For each hand [..., k], the 52 - k cards not in it, ascending: [..., 52 - k] int8."""
    hands = np.sort(np.asarray(hands), axis=-1)
    free = 52 - hands.shape[-1]
    starters = np.broadcast_to(np.arange(free, dtype=np.int8), (*hands.shape[:-1], free)).copy()
    for column in range(hands.shape[-1]):  # skip over each hand card, lowest first
        starters += starters >= hands[..., column, None]
    return starters
