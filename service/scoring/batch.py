"""Many shows at once: their totals from the vectorised scorer (service.scoring.fast)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from service.cards import Card
from service.scoring.fast import score_hands

# A show: the hand (4 cards, or 5 in the 6-player game), the starter, and whether it is a crib.
Show = tuple[Sequence[Card], Card, bool]


def show_totals(shows: Sequence[Show]) -> list[int]:
    """The total of each show, in order, as `service.scoring.show_points` counts it.

    Shows of one hand size and kind (hand or crib) are scored together in one numpy call, so
    the cost per show falls as the batch grows."""
    totals = [0] * len(shows)
    groups: dict[tuple[int, bool], list[int]] = {}
    for position, (hand, _, crib) in enumerate(shows):
        groups.setdefault((len(hand), crib), []).append(position)
    for (_, crib), positions in groups.items():
        hands = np.array([[card.index for card in shows[p][0]] for p in positions])
        starters = np.array([shows[p][1].index for p in positions])
        for position, total in zip(positions, score_hands(hands, starters, crib).tolist()):
            totals[position] = total
    return totals
