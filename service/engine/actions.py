"""Player actions: frozen values, each naming its seat; `type` is the action's name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from service.cards import Card


@dataclass(frozen=True)
class ClaimItem:
    """One combination a player claims in the show: kind is fifteen, pair, run, flush or nobs."""

    kind: str
    cards: tuple[Card, ...]


class _Action:
    type = ""


@dataclass(frozen=True)
class CutForDeal(_Action):
    seat: int
    depth: int | None = None
    type = "cut_for_deal"


@dataclass(frozen=True)
class Discard(_Action):
    seat: int
    cards: tuple[Card, ...]
    type = "discard"


@dataclass(frozen=True)
class CutStarter(_Action):
    seat: int
    depth: int | None = None
    type = "cut_starter"


@dataclass(frozen=True)
class Play(_Action):
    seat: int
    card: Card
    type = "play"


@dataclass(frozen=True)
class ClaimCount(_Action):
    """A manual count of the hand (or crib) being shown: points, items, or both (agreeing)."""

    seat: int
    points: int | None = None
    items: tuple[ClaimItem, ...] | None = None
    type = "claim"


@dataclass(frozen=True)
class CallMuggins(_Action):
    seat: int
    type = "muggins"


@dataclass(frozen=True)
class NextGame(_Action):
    seat: int
    type = "next_game"


@dataclass(frozen=True)
class EndMatch(_Action):
    seat: int
    type = "end_match"


@dataclass(frozen=True)
class Resign(_Action):
    seat: int
    type = "resign"


@dataclass(frozen=True)
class Abort(_Action):
    """End the game with no winner: only before the first card of the first hand is played."""

    seat: int
    type = "abort"


Action = Union[CutForDeal, Discard, CutStarter, Play, ClaimCount, CallMuggins, NextGame,
               EndMatch, Resign, Abort]
ACTION_TYPES = {cls.type: cls for cls in (CutForDeal, Discard, CutStarter, Play, ClaimCount,
                                          CallMuggins, NextGame, EndMatch, Resign, Abort)}
