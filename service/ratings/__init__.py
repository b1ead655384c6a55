"""Ratings: per player and per format, from the outcome of a game, as plain values.

Pure: fed ratings and an outcome, it returns the new ratings; it reads no clock and no store.
"""

from .formats import FORMATS, format_of
from .model import INITIAL, PROVISIONAL_GAMES, Rating, rate
from .stats import Stats, stats_of

__all__ = ["FORMATS", "INITIAL", "PROVISIONAL_GAMES", "Rating", "Stats", "format_of", "rate",
           "stats_of"]
