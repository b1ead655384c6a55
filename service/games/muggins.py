"""Muggins "call" is fair to humans: a computer calls missed points only after every human who
could call them has had the chance.

A pending count (service.engine, `pending_muggins`) records the engine version of the first
state that held it. A human seat has had its chance at it once the seat acted (any action of
its own) on a state at that version or later: it saw the points open to a call and did
something else. Until every human seat of another side than the claimer's has had its chance,
computer seats leave the points alone; with no such human at the table they call at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.engine import GameState

from .record import Seat


def held_from_computers(state: GameState, seats: Sequence[Seat], acted_at: Sequence[int],
                        computer: int) -> bool:
    """Whether some pending count `computer` could call is still the humans' to call first."""
    side_of = state.options.side_of
    for pending in state.pending_muggins:
        if pending["side"] == side_of(computer):
            continue
        for number, seat in enumerate(seats):
            if seat.kind != "human" or side_of(number) == pending["side"]:
                continue
            last_acted = acted_at[number] if number < len(acted_at) else -1
            if last_acted < pending["version"]:
                return True
    return False
