"""The play (pegging): the points a card scores on the cards played since the count was reset."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from service.cards import Card
from service.errors import InvalidInputError
from service.scoring.items import ScoreItem

PEGGING_KINDS = ("fifteen", "thirty_one", "pair", "three_of_a_kind", "four_of_a_kind", "run",
                 "go", "last_card")
_SAME_RANK_KINDS = {2: ("pair", 2), 3: ("three_of_a_kind", 6), 4: ("four_of_a_kind", 12)}


class CountExceededError(InvalidInputError):
    """A pile whose count passes 31."""

    code = "count_exceeds_31"


@dataclass(frozen=True, slots=True)
class PeggingScore:
    count: int
    points: int
    items: tuple[ScoreItem, ...]


def score_pegging(pile: Sequence[Card]) -> PeggingScore:
    """Points for the last card of `pile` (the cards played since the count was last reset)."""
    count = 0
    for index, card in enumerate(pile):
        count += card.value
        if count > 31:
            raise CountExceededError(f"pile[{index}]: the count reaches {count}, over 31",
                                     field="pile", index=index, count=count)
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
