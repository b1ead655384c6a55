"""Hints: the analysis of the decision a seat faces now, from its own view, as `hard` makes it.

A discard: the DISCARDS_SHOWN best discards by the weighted net (near the end ordered by the
chance to win, as `hard` chooses: service.bots.discard_choice). A play: every card that fits
the count, as the play search ranks them. Nothing but the seat's own view goes in, so a hint tells the seat
nothing it could not work out itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from service.bots.discard_choice import rank_discards
from service.bots.pegging import analyse_play
from service.bots.players import play_position
from service.cards import Card
from service.engine import LegalDiscard, LegalPlay, SeatView

DISCARDS_SHOWN = 3


@dataclass(frozen=True, slots=True)
class HintOption:
    cards: tuple[Card, ...]        # the cards to discard, or the card to play
    expected: float                # discard: net of hand and crib; play: what the side pegs
                                   # less the others over the rest of the play
    win_chance: float | None       # near the end of a game


@dataclass(frozen=True, slots=True)
class Hint:
    kind: str                      # "discard" | "play"
    options: tuple[HintOption, ...]  # best first: the first is what `hard` does


def hint(view: SeatView) -> Hint | None:
    """The hint for the seat of `view`, or None when it has no discard or play to choose."""
    for option in view.legal_actions:
        if isinstance(option, LegalDiscard) and option.count:
            return _discard_hint(view, option.cards)
        if isinstance(option, LegalPlay):
            return _play_hint(view)
    return None


def _discard_hint(view: SeatView, hand: tuple[Card, ...]) -> Hint:
    if view.seat is None or view.dealer is None:
        raise ValueError("a discard hint needs a seat's view of a dealt hand")
    ranked = rank_discards(hand, view.options, view.seat, view.dealer, view.scores)
    if ranked.chances is None:
        options = [HintOption(option.discard, float(option.net), None)
                   for option in ranked.options]
    else:  # stable: the net breaks ties
        by_chance = sorted(zip(ranked.options, ranked.chances), key=lambda pair: -pair[1])
        options = [HintOption(option.discard, float(option.net), chance)
                   for option, chance in by_chance]
    return Hint("discard", tuple(options[:DISCARDS_SHOWN]))


def _play_hint(view: SeatView) -> Hint:
    analysis = analyse_play(play_position(view))
    return Hint("play", tuple(HintOption((option.card,), option.expected, option.win_chance)
                              for option in analysis.options))
