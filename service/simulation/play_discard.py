"""A yardstick for benchmarks: `hard` whose two-player discard adds the kept hand's play value
(service.bots.kept_play) to the net of hand and crib, that value weighted by 0.5, 1 or 1.5.
Near the end of a game, and with more players, it discards as `hard` does. Not public levels:
bench/match.py knows them as hard-peg0.5, hard-peg1, hard-peg1.5."""
from __future__ import annotations

from functools import partial

from service.bots.discard_choice import rank_discards
from service.bots.kept_play import best_with_play
from service.bots.players import LEVELS, ComputerPlayer

WEIGHTS = (0.5, 1, 1.5)


def _discard(weight, view, hand, count, rng):
    ranked = rank_discards(hand, view.options, view.seat, view.dealer, view.scores)
    if ranked.chances is not None or view.options.players != 2:
        return ranked.best.discard
    return best_with_play(ranked.options, view.dealer == view.seat, weight).discard


HARD_BY_PLAY_WEIGHT = {f"hard-peg{weight}": ComputerPlayer(partial(_discard, weight),
                                                           LEVELS["hard"].play)
                       for weight in WEIGHTS}
