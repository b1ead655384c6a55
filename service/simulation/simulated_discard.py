"""A yardstick for benchmarks: `hard` whose two-player discard, before the endgame, adds to the
net of hand and crib the kept hand's pegging difference, simulated for the few best discards
by net on the same sampled deals (service.bots.play_difference), times a weight. Near the end
of a game, and with more players, it discards as `hard` does. Not public levels: bench/match.py
knows them as hard-sim-<shortlist>x<deals>[-w<weight>][-wary], e.g. hard-sim-4x200: the 4 best
discards by net (those within MARGIN points of the best), each played on 200 sampled deals;
-wary: the other player pegs by the wary policy alone in the simulation, not by the mix."""
from __future__ import annotations

import hashlib
import random
from functools import partial

from service.bots.discard_choice import rank_discards
from service.bots.play_difference import play_differences
from service.bots.players import LEVELS, ComputerPlayer
from service.bots.playout import POLICY_MIX, WARY
from service.bots.win_probability import is_endgame

MARGIN = 3.0  # points of net below the best beyond which no play can make up for a discard
MIXES = {"": POLICY_MIX, "-wary": (WARY,)}
VARIANTS = ((4, 200, 1.0, ""), (6, 200, 1.0, ""), (4, 500, 1.0, ""), (4, 200, 0.6, ""),
            (4, 200, 1.0, "-wary"))


def _discard(shortlist, deals, weight, mix, view, hand, count, rng):
    ranked = rank_discards(hand, view.options, view.seat, view.dealer, view.scores)
    if view.options.players != 2 or ranked.chances is not None \
            or is_endgame(view.scores, view.options.target):
        return ranked.best.discard
    best = ranked.options[0].net
    options = [option for option in ranked.options[:shortlist] if option.net >= best - MARGIN]
    if len(options) == 1:
        return options[0].discard
    dealer = view.dealer == view.seat
    pegging = play_differences(hand, [option.keep for option in options], dealer, deals,
                               _deal_rng(hand, dealer), mix)
    return max(zip(options, pegging),
               key=lambda pair: pair[0].net + weight * pair[1])[0].discard


def _deal_rng(hand, dealer: bool) -> random.Random:
    """A generator seeded from the cards dealt and the role: the same discard every time."""
    digest = hashlib.blake2b(repr((hand, dealer)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _name(shortlist: int, deals: int, weight: float, mix: str) -> str:
    return f"hard-sim-{shortlist}x{deals}" + (f"-w{weight:g}" if weight != 1 else "") + mix


HARD_BY_SIMULATED_DISCARD = {
    _name(shortlist, deals, weight, mix): ComputerPlayer(
        partial(_discard, shortlist, deals, weight, MIXES[mix]), LEVELS["hard"].play)
    for shortlist, deals, weight, mix in VARIANTS}
