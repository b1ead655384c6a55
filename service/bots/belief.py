"""What the other players may hold in the play, sampled from everything the searching seat saw.

The pool is every card the seat has not seen: not in its hand, not played, not the starter, not
its own discards, nothing else it was shown. Each other player's hand is drawn from the pool
without replacement, with two kinds of evidence:
- a go said at count c proves that every card that player still holds counts more than 31 - c
  (the count only rises, so the proof holds for the rest of the hand): such players draw first,
  strictest first, from the cards that fit the proof;
- the discards a player of that role usually makes: a sampled deal is weighted by how much more
  often a strong player keeps such a hand than a random one (`service.bots.kept_hands`).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from service.bots.kept_hands import kept_hand_weight
from service.bots.playout import VALUE


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
        for seat in self._strictest_first():
            needed += self.sizes[seat]
            if needed > sum(VALUE[card] > self.above[seat] for card in self.pool):
                return False
        return True

    def sample(self, rng: random.Random) -> tuple[list[list[int]], float]:
        """Hands for seats 1.. (a list each) and the sample's weight."""
        pool = list(self.pool)
        hands: list[list[int]] = [[] for _ in self.sizes]
        for seat in self._strictest_first():
            fitting = [card for card in pool if VALUE[card] > self.above[seat]]
            hands[seat] = rng.sample(fitting, self.sizes[seat])
            for card in hands[seat]:
                pool.remove(card)
        weight = 1.0
        for seat, hand in enumerate(hands):
            weight *= kept_hand_weight(self.players, self.dealer[seat], self.played[seat], hand)
        return hands, weight

    def _strictest_first(self) -> list[int]:
        return sorted(range(len(self.sizes)), key=lambda seat: -self.above[seat])
