"""Brute-force discard totals: every starter and every set of other crib cards, one by one."""
from __future__ import annotations

from itertools import combinations

from service.scoring import show_points


def brute_force_totals(hand, unseen, discards, others):
    result = {}
    for discard in combinations(hand, discards):
        keep = [card for card in hand if card not in discard]
        hand_points = [show_points(keep, starter) for starter in unseen]
        crib_total = crib_cases = 0
        for other_cards in combinations(unseen, others):
            crib = (*discard, *other_cards)
            for starter in unseen:
                if starter not in other_cards:
                    crib_total += show_points(crib, starter, crib=True)
                    crib_cases += 1
        result[discard] = (sum(hand_points), len(unseen), crib_total, crib_cases,
                           min(hand_points), max(hand_points))
    return result
