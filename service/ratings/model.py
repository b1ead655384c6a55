"""The rating of a player in one format, and how a game's outcome moves it.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation): each player is
a belief about its skill, a mean `mu` and an uncertainty `sigma`; a game ranks its sides, a
side's skill is the sum of its players', and one update moves every player of every side at
once. It rates any number of sides and teams, which Elo and Glicko-2 do not (they rate pairs).
What is shown is a cautious estimate, the ordinal mu - 3 sigma, scaled to an integer
(`display`): a new player (mu = 3 sigma) shows 1000, and it climbs as its uncertainty
shrinks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
SCALE = 20.0       # display points per unit of the ordinal
BASE = 1000        # what the ordinal 0 (a new player: mu = 3 sigma) shows
PROVISIONAL_GAMES = 5  # a player's first rated games in a format are placement games

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one format after `games` rated games in it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_dict(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_dict(cls, data: dict) -> Rating:
        return cls(data["mu"], data["sigma"], data["games"])

    def moved(self, before: Rating, after: Rating) -> Rating:
        """This rating moved as a game moved `before` to `after`. It is `after` itself when
        nothing changed this rating since `before` was read; a rated game of the same format
        that ended meanwhile keeps its own move too (the means add, the uncertainties shrink
        by both games' ratios)."""
        if self == before:
            return after
        return Rating(self.mu + after.mu - before.mu, self.sigma * after.sigma / before.sigma,
                      self.games + after.games - before.games)


INITIAL = Rating()


def rate(sides: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """The players' ratings after a game: `sides[s]` the ratings of side s's players (seat
    order), `ranks[s]` its place (1 the winner; equal places tie). Every rating counts one
    more game."""
    teams = [[_MODEL.create_rating([rating.mu, rating.sigma]) for rating in side]
             for side in sides]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    return [[replace(before, mu=after.mu, sigma=after.sigma, games=before.games + 1)
             for before, after in zip(side, new_side)]
            for side, new_side in zip(sides, rated)]


def ranks_of(winner: int, scores: Sequence[int]) -> list[int]:
    """Each side's place: the winner first, the others by their score (equal scores tie)."""
    others = sorted({score for side, score in enumerate(scores) if side != winner},
                    reverse=True)
    return [1 if side == winner else 2 + others.index(score)
            for side, score in enumerate(scores)]
