"""What a kept hand is worth in the play, with two players: the points its side pegs less the
points the other side pegs over the hand's play, on average, by the kept ranks and the role.

The show counts a hand's fifteens, pairs and runs; the play rewards other things too: low cards
for the end of a count, cards that make 15 from a ten, pairs that punish a pair. The table holds
E[own pegging - other's pegging] for each of the 1,820 multisets of four ranks, as dealer and as
pone, made by service/simulation/kept_play.py (its docstring has the method and the command;
the data are service/bots/data/kept_play_2.json). Suits are left out: they score nothing in
the play. Only differences between the hands of one deal and role matter to a discard.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from service.bots.discard import DiscardOption

DATA = Path(__file__).with_name("data") / "kept_play_2.json"
ROLES = ("pone", "dealer")


def rank_key(ranks: Iterable[int]) -> str:
    """The table's key of a kept hand: its ranks (1..13) in ascending order, space-separated."""
    return " ".join(map(str, sorted(ranks)))


@cache
def _table() -> dict[str, dict[str, float]]:
    with DATA.open() as data:
        return json.load(data)["values"]


def play_value(ranks: Iterable[int], dealer: bool) -> float:
    """The expected pegging difference of keeping these four ranks, as dealer or as pone."""
    return _table()[ROLES[dealer]][rank_key(ranks)]


def best_with_play(options: Sequence[DiscardOption], dealer: bool,
                   weight: float = 1.0) -> DiscardOption:
    """The option of two-player `options` with the best net plus `weight` times its kept
    hand's play value; ties keep the order of `options`."""
    return max(options, key=lambda option: option.net + weight * play_value(
        (card.rank for card in option.keep), dealer))
