"""Every (4-card hand, starter) combination scored by fastscore, as a hand and as a crib.

The histograms must equal tests/data/show_score_histograms.json (the hand one is the published
distribution), and an independent count that never deals out suits must agree with both.
"""
from __future__ import annotations

import json
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path

import numpy as np
import pytest

from service.scoring import fast
from service.scoring import rank_points

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "show_score_histograms.json").read_text())
PUBLISHED_HAND = [GOLDEN["hand"]["counts"][str(score)] for score in range(30)]
DERIVED_CRIB = [GOLDEN["crib"]["counts"][str(score)] for score in range(30)]
COMBINATIONS = 270_725 * 48
JACK = 11


@pytest.fixture(scope="module")
def enumeration():
    """Histograms of every combination as hand and as crib, plus per-combination differences."""
    hand_counts = np.zeros(30, dtype=np.int64)
    crib_counts = np.zeros(30, dtype=np.int64)
    combinations = 0
    differences_outside_flushes = 0
    every_hand = fast.all_hands()
    for start in range(0, len(every_hand), 16_384):
        hands = every_hand[start:start + 16_384]
        starters = fast.starters_for(hands)
        as_hand = fast.score_hands(hands, starters)
        as_crib = fast.score_hands(hands, starters, crib=True)
        hand_counts += np.bincount(as_hand.ravel(), minlength=30)
        crib_counts += np.bincount(as_crib.ravel(), minlength=30)
        combinations += as_hand.size
        suits = hands // 13
        four_flush = (suits == suits[:, :1]).all(axis=1)[:, None] & (starters // 13 != suits[:, :1])
        differences_outside_flushes += np.count_nonzero(as_hand - as_crib != 4 * four_flush)
    return {"hand": hand_counts.tolist(), "crib": crib_counts.tolist(),
            "combinations": combinations, "differences": differences_outside_flushes}


def independent_count() -> tuple[list[int], list[int]]:
    """Hand and crib histograms counted per multiset of hand ranks and starter rank, in pure
    Python, never dealing out suits: suits of different ranks are chosen independently, so
    flushes and nobs are counted with a little combinatorics."""
    hand = [0] * 30
    crib = [0] * 30
    for ranks in combinations_with_replacement(range(1, 14), 4):
        held = [ranks.count(rank) for rank in range(14)]
        if max(held) > 4:
            continue
        ways = prod(comb(4, count) for count in held)  # suit choices for the hand
        distinct = len(set(ranks)) == 4
        for starter in range(1, 14):
            starters = 4 - held[starter]  # starter suits left for each hand
            if not starters:
                continue
            base = rank_points(tuple(sorted((*ranks, starter))))
            # A hand jack gives nobs with each starter of its suit not already in the hand: over
            # all hands, each jack suit is free of the starter's rank with chance starters / 4.
            nobs, remainder = divmod(ways * held[JACK] * starters, 4)
            assert remainder == 0
            if starter == JACK:
                nobs = 0
            for histogram in (hand, crib):
                histogram[base + 1] += nobs
                histogram[base] += ways * starters - nobs
            if not distinct:
                continue
            # The 4 one-suit hands: undo their count above, then score them with the flush.
            suited_nobs = int(held[JACK] == 1 and held[starter] == 0)
            for histogram in (hand, crib):
                histogram[base + 1] -= 4 * suited_nobs
                histogram[base] -= 4 * (starters - suited_nobs)
            if held[starter] == 0:  # one starter of the flush suit, three of other suits
                hand[base + 5 + suited_nobs] += 4
                crib[base + 5 + suited_nobs] += 4
                hand[base + 4] += 4 * 3
                crib[base] += 4 * 3
            else:  # the flush suit's card of the starter's rank is in the hand
                hand[base + 4] += 4 * starters
                crib[base] += 4 * starters
    return hand, crib


def test_golden_histograms_add_up():
    assert sum(PUBLISHED_HAND) == sum(DERIVED_CRIB) == COMBINATIONS == 12_994_800
    assert sum(score * count for score, count in enumerate(PUBLISHED_HAND)) == 61_974_180
    assert sum(score * count for score, count in enumerate(DERIVED_CRIB)) == 61_528_020
    # The crib loses 4 points on each 4-card flush with a starter of another suit.
    assert 61_974_180 - 61_528_020 == 4 * (4 * comb(13, 4) * 39)


def test_independent_count_gives_the_published_hand_and_derived_crib_histograms():
    hand, crib = independent_count()
    assert hand == PUBLISHED_HAND
    assert crib == DERIVED_CRIB


def test_every_combination_is_scored_once(enumeration):
    assert enumeration["combinations"] == COMBINATIONS


def test_hand_histogram_is_the_published_one(enumeration):
    assert enumeration["hand"] == PUBLISHED_HAND
    assert enumeration["hand"][0] == 1_009_008
    assert enumeration["hand"][29] == 4
    assert [enumeration["hand"][score] for score in (19, 25, 26, 27)] == [0, 0, 0, 0]
    total = sum(score * count for score, count in enumerate(enumeration["hand"]))
    assert total == 61_974_180
    assert round(total / COMBINATIONS, 4) == 4.7692


def test_crib_histogram_is_the_derived_one(enumeration):
    assert enumeration["crib"] == DERIVED_CRIB
    assert enumeration["crib"][0] == 1_022_208


def test_crib_differs_from_hand_only_by_four_card_flushes(enumeration):
    assert enumeration["differences"] == 0
