"""What the other players may hold in the play, sampled from everything the searching seat saw.

The pool is every card the seat has not seen: not in its hand, not played, not the starter, not
its own discards, nothing else it was shown. Each other player's hand is drawn from the pool
without replacement, with two kinds of evidence:
- a go said at count c proves that every card that player still holds counts more than 31 - c
  (the count only rises, so the proof holds for the rest of the hand): such players draw first,
  strictest first, from the cards that fit the proof;
- the discards a player of that role usually makes: a hand is kept in the sample with a chance
  proportional to how much more often a strong player keeps such a hand than a random one
  (`service.bots.kept_hands`), and drawn again otherwise (rejection sampling). Every sampled
  deal then counts alike: weighting the deals by that ratio instead (it runs from about 0.1
  to 11) left a search of a few dozen deals resting on a handful of them, and measured 0.11
  pegging points a hand worse (bench/match.py, 300 duplicate deals).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from service.bots.kept_hands import kept_hand_weight, max_kept_hand_weight
from service.bots.playout import VALUE

# Draws for one seat's hand before the last one stands (see Belief._kept_hand).
MAX_DRAWS = 40


@dataclass(frozen=True, slots=True)
class Belief:
    """The evidence about the other players (seats 1.. clockwise from the searching seat)."""

    pool: tuple[int, ...]               # deck indices of the cards the seat has not seen
    sizes: tuple[int, ...]              # cards each other seat holds (index 0: seat 1)
    above: tuple[int, ...]              # every card of that seat counts more than this (0: any)
    played: tuple[tuple[int, ...], ...]  # ranks that seat has played this hand
    players: int
    dealer: tuple[bool, ...]            # that seat dealt this hand

    def feasible(self) -> bool:
        """Whether the pool can give every seat its cards, the goes' proofs included."""
        needed = 0
        for seat in self.strictest_first():
            needed += self.sizes[seat]
            if needed > sum(VALUE[card] > self.above[seat] for card in self.pool):
                return False
        return True

    def sample(self, rng: random.Random) -> list[list[int]]:
        """Hands for seats 1.. (a list each), seat by seat, strictest first."""
        pool = list(self.pool)
        hands: list[list[int]] = [[] for _ in self.sizes]
        for seat in self.strictest_first():
            fitting = [card for card in pool if VALUE[card] > self.above[seat]]
            hands[seat] = self._kept_hand(seat, fitting, rng)
            for card in hands[seat]:
                pool.remove(card)
        return hands

    def _kept_hand(self, seat: int, fitting: list[int], rng: random.Random) -> list[int]:
        """A hand for `seat` drawn from `fitting`, kept with a chance proportional to its
        kept-hand weight; after MAX_DRAWS refusals the last draw stands (about 2% of seats
        when nothing is known of the hand; a bound, so that a position where every hand is
        unlikely cannot stall the search)."""
        top = max_kept_hand_weight(self.players, self.dealer[seat])
        for _ in range(MAX_DRAWS):
            hand = rng.sample(fitting, self.sizes[seat])
            weight = kept_hand_weight(self.players, self.dealer[seat], self.played[seat], hand)
            if rng.random() * top < weight:
                break
        return hand

    def strictest_first(self) -> list[int]:
        return sorted(range(len(self.sizes)), key=lambda seat: -self.above[seat])
