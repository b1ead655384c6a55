"""Presence: whether each human seat is at the table, and the `presence` events that say so.

A seat is connected while it holds a live lease or has acted in the last ACTED_WINDOW seconds.
A server process with an open event stream or long poll of the seat holds its lease, with no
end (until: math.inf), and ends it at the time its last one closed; should the process die, any
other ends it at the process's last beat (service.store.presence). The table is told at once
when a seat comes back; it is told a seat has gone only once it has been gone for GRACE
seconds, so a phone that drops its stream and opens another (a network change, a reload) makes
no noise. What the table was last told is in the game's record (`connected`), so each change is
told once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from service.engine import Event

from .record import GameRecord

ACTED_WINDOW = 5.0   # an action counts as presence for this long
GRACE = 30.0         # a seat gone this long is told to the table as gone


def connected_until(record: GameRecord, seat: int,
                    leases: Sequence[tuple[int, float]]) -> float:
    """When the seat stops (or stopped) being connected, unless it acts or a lease is
    taken or refreshed meanwhile."""
    acted = record.acted_times[seat] if record.acted_times else 0.0
    return max([acted + ACTED_WINDOW, *(until for owner, until in leases if owner == seat)])


def update(record: GameRecord, leases: Sequence[tuple[int, float]],
           now: float) -> tuple[GameRecord, list[Event]]:
    """The record with each human seat's presence as the table is to know it by `now`, and
    the `presence` events of what changed. Once the game is over no one is told any more."""
    if record.ended:
        return record, []
    told = list(connected(record))
    events = []
    for seat, holder in enumerate(record.seats):
        if holder.kind != "human" or not holder.taken:
            continue
        until = connected_until(record, seat, leases)
        if until > now and not told[seat]:
            told[seat] = True
        elif until <= now and told[seat] and now >= until + GRACE:
            told[seat] = False
        else:
            continue
        events.append(Event("presence", {"seat": seat, "connected": told[seat]}))
    if not events:
        return record, []
    return replace(record, connected=tuple(told)), events


def next_check(record: GameRecord, leases: Sequence[tuple[int, float]]) -> float | None:
    """When a seat the table believes connected will have been gone for GRACE seconds (None
    once the game is over, or while every such seat's lease is held)."""
    if record.ended:
        return None
    checks = (connected_until(record, seat, leases) + GRACE
              for seat, told in enumerate(connected(record))
              if told and record.seats[seat].kind == "human")
    return min((check for check in checks if math.isfinite(check)), default=None)


def joined(record: GameRecord, seat: int, now: float) -> GameRecord:
    """A seat just taken is at the table (its seat_joined event says so)."""
    times = record.acted_times or (0.0,) * len(record.seats)
    told = connected(record)
    return replace(record, acted_times=times[:seat] + (now,) + times[seat + 1:],
                   connected=told[:seat] + (True,) + told[seat + 1:])


def connected(record: GameRecord) -> tuple[bool, ...]:
    """What the table was last told of each seat (computers are always there)."""
    return record.connected or tuple(seat.kind == "computer" for seat in record.seats)
