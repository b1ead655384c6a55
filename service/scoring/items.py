"""ScoreItem: one scoring combination of a show or of a card played, with its points."""
from __future__ import annotations

from typing import NamedTuple

from service.cards import Card


class ScoreItem(NamedTuple):
    """A named tuple: a show makes several, and this is the cheapest immutable record to make."""

    kind: str
    cards: tuple[Card, ...]
    points: int
