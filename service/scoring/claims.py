"""Checking a player's claimed show count against the true one (BSD `-e`, muggins)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from service.cards import Card
from service.scoring.items import ScoreItem
from service.scoring.show import score_show


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    claimed: int
    actual: int
    missed: int  # true points left out of the claim: what muggins takes
    overclaimed: int  # claimed points that are not there
    missed_items: tuple[ScoreItem, ...]  # empty when the claim is a bare number
    wrong_items: tuple[ScoreItem, ...]
    breakdown: tuple[ScoreItem, ...]


def nominal_points(kind: str, cards: Sequence[Card]) -> int:
    """What a combination of this kind and size would be worth if it were there."""
    return {"fifteen": 2, "pair": 2, "nobs": 1}.get(kind, len(cards))


def check_claim(hand: Sequence[Card], starter: Card, crib: bool,
                claimed: int | Sequence[tuple[str, Sequence[Card]]]) -> ClaimCheck:
    """Compare a claim (points, or (kind, cards) combinations) with the show's true count.

    A claimed combination matches a true one of the same kind with the same cards, in any
    order; each true combination matches once.
    """
    score = score_show(hand, starter, crib)
    if isinstance(claimed, int):
        return ClaimCheck(claimed, score.total, max(score.total - claimed, 0),
                          max(claimed - score.total, 0), (), (), score.items)
    unmatched = list(score.items)
    wrong = []
    for kind, cards in claimed:
        key = (kind, frozenset(cards))
        match = next((item for item in unmatched if (item.kind, frozenset(item.cards)) == key),
                     None)
        if match is None:
            wrong.append(ScoreItem(kind, tuple(cards), nominal_points(kind, cards)))
        else:
            unmatched.remove(match)
    matched = score.total - sum(item.points for item in unmatched)
    overclaimed = sum(item.points for item in wrong)
    return ClaimCheck(matched + overclaimed, score.total, score.total - matched, overclaimed,
                      tuple(unmatched), tuple(wrong), score.items)
