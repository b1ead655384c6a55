"""Stacked decks: a hand dealt from a deck in a known order, for golden tests of the rules."""
from __future__ import annotations

from collections.abc import Sequence

from service.cards import Card
from service.engine.deal import deal
from service.engine.state import Draft, GameState


def deal_from(state: GameState, deck: Sequence[Card], dealer: int = 0,
              scores: Sequence[int] | None = None) -> GameState:
    """A state whose next hand is dealt from `deck` (52 cards in deal order) by `dealer`.

    For golden tests only: real games deal from the seed. The returned state has the same
    version as `state`; hands after this one are dealt from the seed again.
    """
    if sorted(card.index for card in deck) != list(range(52)):
        raise ValueError("deck must hold each of the 52 cards once")
    g = Draft(state, 0.0)
    if g.first_dealer is None:
        g.first_dealer = dealer
    if scores is not None:
        g.scores = tuple(scores)
    deal(g, dealer, deck)
    return g.freeze()
