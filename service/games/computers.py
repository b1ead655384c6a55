"""Computer seats and timed-out turns: what the games service hands to the compute tier.

`advance` is the search (a level choosing each computer seat's move, a computer moving for a
human whose turn timer ran out) and runs in a compute process (service.compute). `pending` is
the cheap test the event loop makes to know whether a game needs that job at all.
"""
from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Sequence
from dataclasses import replace

from service import engine
from service.bots import LEVELS
from service.engine import (Event, GameState, LegalClaim, LegalCut, LegalDiscard, LegalPlay,
                            SeatView)
from service.engine.legal import whose_turn
from service.errors import DomainError, IllegalActionError

from .muggins import held_from_computers
from .record import Seat

log = logging.getLogger(__name__)

COMPUTER_MOVES = 1000  # bound on computer moves in one job; a whole hand needs far fewer
# Levels whose every decision takes microseconds: their moves are made where they are asked
# for, not handed to the compute tier (whose round trip costs more than they do).
INSTANT_LEVELS = frozenset({"first", "easy"})
HUMAN_DECISIONS = frozenset({"resign", "abort", "next_game", "end_match"})  # never a computer's
_MOVES = (LegalClaim, LegalCut, LegalDiscard, LegalPlay)  # what a level chooses (and muggins)


def pending(seats: Sequence[Seat], state: GameState, now: float,
            acted_at: Sequence[int] = ()) -> bool:
    """Whether `advance` would change the game: a computer seat has a move to make, or a
    human's turn timer has run out. Cheap: no level is asked."""
    if state.turn_deadline is not None and now > state.turn_deadline and any(
            seats[seat].on_the_clock for seat in whose_turn(state)):
        return True
    for number in engine.to_act(state):
        if seats[number].kind != "computer":
            continue
        view = _computer_view(seats, state, number, acted_at)
        if any(option.type == "muggins" or isinstance(option, _MOVES)
               for option in view.legal_actions):
            return True
    return False


def searches(seats: Sequence[Seat], state: GameState, now: float) -> bool:
    """Whether `advance` may ask a level that searches (any but INSTANT_LEVELS): the game has
    a computer seat of such a level (one move leads to the next seat's), or a human's turn
    timer has run out and such a level would move for it."""
    if any(seat.kind == "computer" and seat.level not in INSTANT_LEVELS for seat in seats):
        return True
    late = (state.turn_deadline is not None and now > state.turn_deadline
            and state.options.on_timeout != "forfeit")
    return late and state.options.timeout_level not in INSTANT_LEVELS


def advance(seats: Sequence[Seat], state: GameState, now: float,
            acted_at: Sequence[int] = ()) -> tuple[GameState, list[Event]]:
    """Let computer seats move for as long as one has a move to make, and apply the turn
    timers that ran out by `now` (for each late human seat a computer moves, or the seat
    forfeits, and the computer seats answer)."""
    state, events = _computers_play(seats, state, now, acted_at)
    for _ in range(COMPUTER_MOVES):
        if state.turn_deadline is None or now <= state.turn_deadline:
            return state, events
        late = [seat for seat in whose_turn(state) if seats[seat].on_the_clock]
        if not late:
            return state, events
        state, produced = engine.time_out(state, late[0], now, _timeout_move(state, late[0]))
        state, moves = _computers_play(seats, state, now)
        events += produced + moves
    raise RuntimeError(f"{COMPUTER_MOVES} turn timeouts in one job")


def _computers_play(seats: Sequence[Seat], state: GameState, now: float,
                    acted_at: Sequence[int] = ()) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for _ in range(COMPUTER_MOVES):
        moved = _computer_move(seats, state, now, acted_at)
        if moved is None:
            return state, events
        state, produced = moved
        events += produced
    raise RuntimeError(f"computer seats made {COMPUTER_MOVES} moves in one job")


def _computer_move(seats: Sequence[Seat], state: GameState, now: float,
                   acted_at: Sequence[int]):
    """The next computer seat's move applied, or None if no computer seat has one to make.
    A computer calls muggins only once the humans have had their chance (games.muggins)."""
    for number in engine.to_act(state):
        seat = seats[number]
        if seat.kind != "computer" or seat.level is None:  # a computer seat has its level
            continue
        rng = seat_rng(state, b"computer", number)
        view = _computer_view(seats, state, number, acted_at)
        action = LEVELS[seat.level].choose(view, rng)
        if action is None:
            continue
        try:
            if action.type in HUMAN_DECISIONS:
                raise IllegalActionError("computers leave this to the humans",
                                         code="invalid_action")
            return engine.apply(state, action, now)
        except DomainError as refused:
            # A level that picks an illegal move must not stall the game: play the first legal one.
            log.error("computer level %r chose %r: %s", seat.level, action, refused)
            fallback = LEVELS["first"].choose(view, rng)
            if fallback is not None:
                return engine.apply(state, fallback, now)
    return None


def _computer_view(seats: Sequence[Seat], state: GameState, number: int,
                   acted_at: Sequence[int]) -> SeatView:
    view = engine.view(state, number)
    if held_from_computers(state, seats, acted_at, number):
        view = without_muggins(view)
    return view


def _timeout_move(state: GameState, seat: int) -> engine.Action | None:
    """What a computer at options.timeout_level does for a late seat: its turn's move (never
    a muggins call), or between the games of a match, end it. None: the seat forfeits."""
    options = state.options
    if options.on_timeout == "forfeit":
        return None
    if state.phase == "game_over":
        return engine.EndMatch(seat)
    view = without_muggins(engine.view(state, seat))
    rng = seat_rng(state, b"timeout", seat)
    action = LEVELS[options.timeout_level].choose(view, rng)
    if action is None or action.type == "muggins":
        action = LEVELS["first"].choose(view, rng)
    return action


def seat_rng(state: GameState, purpose: bytes, seat: int) -> random.Random:
    """The randomness of a computer's move for `seat`: drawn from the game's seed, so a
    replay of the game makes the same moves."""
    return random.Random(hashlib.sha256(
        state.seed + purpose + state.version.to_bytes(8, "big") + bytes([seat])).digest())


def without_muggins(view: SeatView) -> SeatView:
    return replace(view, legal_actions=tuple(
        option for option in view.legal_actions if option.type != "muggins"))
