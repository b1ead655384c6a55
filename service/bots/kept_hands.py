"""How much more often a strong player keeps a hand than a random discard would: the weight of a
sampled hand in the play's belief (service.bots.belief).

The kept hand is summarised by its points without a starter (fifteens, pairs, runs of its
ranks). For each player count and role (dealer or not) the table holds
P(points | the `hard` discard) / P(points | a uniformly random discard), both measured on the
same dealt hands by `scripts/kept_hands.py`, which writes `kept_hands_table.py`. A hand whose
kept cards are not all known to the belief (cards played but not attributed to a seat) weighs 1.
"""
from __future__ import annotations

from functools import lru_cache

from service.bots.kept_hands_table import LIKELIHOOD_RATIOS, TOP_BUCKET
from service.bots.playout import RANK
from service.scoring import rank_points


def kept_size(players: int) -> int:
    return 5 if players == 6 else 4


def kept_hand_weight(players: int, dealer: bool, played: tuple[int, ...],
                     held: list[int]) -> float:
    """The weight of a seat holding the deck indices `held` after playing the ranks `played`."""
    ratios = LIKELIHOOD_RATIOS.get((players, dealer))
    if ratios is None or len(played) + len(held) != kept_size(players):
        return 1.0
    return ratios[bucket(tuple(sorted((*played, *(RANK[card] for card in held)))))]


@lru_cache(maxsize=None)
def bucket(sorted_ranks: tuple[int, ...]) -> int:
    return min(rank_points(sorted_ranks), TOP_BUCKET)


def max_kept_hand_weight(players: int, dealer: bool) -> float:
    """The largest weight kept_hand_weight gives a hand of this player count and role."""
    ratios = LIKELIHOOD_RATIOS.get((players, dealer))
    return max(ratios) if ratios else 1.0
