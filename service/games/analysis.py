"""A game's analysis as one viewer may see it: which decisions it may be shown, the summaries,
and the cache of analysed hands.

What a viewer is shown (never a card before it may see it):
- a seat: its own decisions of each hand whose show is over (its hand was counted, so the hand's
  cards it held are no news to it); every seat's decisions once the game (or its match) is over
  for good, when the game seed is revealed and every deal is public;
- a spectator: nothing until then, everything after.
A hand still being played is never analysed. Summaries count only the decisions shown.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from service.bots.game_analysis import Decision, HandEvents, analyse_hand, split_hands
from service.engine import Event, GameOptions

WORST_SHOWN = 3      # decisions named as the worst of each seat
CACHED_HANDS = 512   # analysed hands kept in each process


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    side: int
    decisions: int
    points_lost: float
    win_chance_lost: float | None
    worst: tuple[int, ...]       # indices into GameAnalysis.decisions, worst first


@dataclass(frozen=True)
class SideSummary:
    side: int
    seats: tuple[int, ...]
    decisions: int
    points_lost: float
    win_chance_lost: float | None


@dataclass(frozen=True)
class GameAnalysis:
    game_id: str
    seat: int | None
    complete: bool               # the game is over: every seat's decisions are shown
    hands: tuple[int, ...]       # numbers of the hands whose decisions are shown
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    sides: tuple[SideSummary, ...]


Analyse = Callable[[GameOptions, HandEvents], tuple[Decision, ...]]


class HandCache:
    """Analysed hands by (game id, hand number, the hand's seed commitment): a finished hand's
    analysis never changes (its events do not, and the analyses sample from seeded rngs).

    The least recently used hand goes first. Threads share it (gunicorn's gthread workers): a
    lock makes each read or write of the order atomic, so no thread evicts a hand between
    another's lookup and its move to the end. A hand is analysed outside the lock, so two
    threads may both analyse one hand at first; they find the same decisions."""

    def __init__(self, size: int = CACHED_HANDS, analyse: Analyse = analyse_hand):
        self.size = size
        self.analyse = analyse
        self._hands: OrderedDict[tuple[str, int, str], tuple[Decision, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def decisions(self, game_id: str, options: GameOptions,
                  hand: HandEvents) -> tuple[Decision, ...]:
        key = (game_id, hand.hand_number, hand.seed_commitment)
        with self._lock:
            found = self._hands.get(key)
            if found is not None:
                self._hands.move_to_end(key)
                return found
        found = self.analyse(options, hand)
        with self._lock:
            self._hands[key] = found
            self._hands.move_to_end(key)
            while len(self._hands) > self.size:
                self._hands.popitem(last=False)
        return found


def game_analysis(game_id: str, viewer: int | None, options: GameOptions,
                  events: Sequence[Event], over: bool, cache: HandCache) -> GameAnalysis:
    """The analysis `viewer` (a seat, None for a spectator) may see of a game's `events`."""
    shown: list[Decision] = []
    hands: list[int] = []
    for hand in split_hands(options, events):
        if not hand.finished or not (over or viewer is not None):
            continue
        decisions = cache.decisions(game_id, options, hand)
        hands.append(hand.hand_number)
        shown += [d for d in decisions if over or d.seat == viewer]
    seats = tuple(_seat_summary(options, seat, shown) for seat in range(options.players)
                  if over or seat == viewer)
    sides = tuple(_side_summary(side, seats) for side in range(options.sides)
                  if any(summary.side == side for summary in seats))
    return GameAnalysis(game_id, viewer, over, tuple(hands), tuple(shown), seats, sides)


def _seat_summary(options: GameOptions, seat: int, decisions: list[Decision]) -> SeatSummary:
    own = [index for index, decision in enumerate(decisions) if decision.seat == seat]
    worst = sorted((index for index in own if decisions[index].points_lost > 0),
                   key=lambda index: -decisions[index].points_lost)[:WORST_SHOWN]
    return SeatSummary(seat, options.side_of(seat), len(own),
                       sum(decisions[index].points_lost for index in own),
                       _total(decisions[index].win_chance_lost for index in own),
                       tuple(worst))


def _side_summary(side: int, seats: Sequence[SeatSummary]) -> SideSummary:
    members = [summary for summary in seats if summary.side == side]
    return SideSummary(side, tuple(summary.seat for summary in members),
                       sum(summary.decisions for summary in members),
                       sum(summary.points_lost for summary in members),
                       _total(summary.win_chance_lost for summary in members))


def _total(values) -> float | None:
    """The sum of the chances known; None when some are asked for and none is known (games to
    more than the win tables' reach)."""
    values = list(values)
    known = [value for value in values if value is not None]
    if values and not known:
        return None
    return float(sum(known))
