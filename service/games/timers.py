"""What falls due in a game besides the engine's own deadlines: the abandon rule, the turn
timer's alarm and restart, and the time the store's deadline index holds for a game."""

from __future__ import annotations

from dataclasses import replace

from service import engine
from service.engine import Event, GameOptions, GameState
from service.engine.legal import whose_turn

from . import presence
from .record import GameRecord

ABANDONED_AFTER = 3 * 86400.0  # a game no human has moved in for this long ends, abandoned
# (or, with a turn timer longer than half that, two whole turns: abandoned_after)
KEPT_PAST_ABANDON = 86400  # a game's store lifetime outlasts its abandon time by this


def abandoned_after(options: GameOptions) -> float:
    """How long a game may go with no human move before it ends abandoned: 3 days, or two
    whole turns of a longer turn timer (correspondence: up to 14 days a move)."""
    return max(ABANDONED_AFTER, 2.0 * (options.turn_time_limit or 0))


def keep_seconds(options: GameOptions) -> int:
    """The least store lifetime a game in play needs since its last write (0: the store's own
    will do): a correspondence game, whose turns outlast the abandon rule's 3 days, is kept
    past the time it can be abandoned, so it is never forgotten before its end."""
    idle = abandoned_after(options)
    return 0 if idle <= ABANDONED_AFTER else int(idle) + KEPT_PAST_ABANDON


def abandoned(record: GameRecord, state: GameState, now: float
              ) -> tuple[GameRecord, GameState, list[Event]]:
    """At its abandon check: end the game if no human has moved for abandoned_after, else
    look again that long after the last human move."""
    if record.abandon_check is None or now < record.abandon_check or state.over:
        return record, state, []
    idle = abandoned_after(state.options)
    if now - record.human_moved < idle:
        return replace(record, abandon_check=record.human_moved + idle), state, []
    state, events = engine.abandon(state, now)
    return replace(record, abandon_check=None), state, events


def timer_started(record: GameRecord, seat: int, now: float) -> GameRecord:
    """A seat taken while its turn timer runs (it did not run out for a seat nobody held:
    Seat.on_the_clock) has the whole limit from now, and so has everyone in that decision."""
    state = record.state
    limit = state.options.turn_time_limit
    if state.turn_deadline is None or limit is None or seat not in whose_turn(state):
        return record
    return replace(record, state=replace(state, turn_deadline=max(state.turn_deadline,
                                                                  now + limit)))


def turn_alarm(record: GameRecord, state: GameState, now: float
               ) -> tuple[GameRecord, list[Event]]:
    """Once ALARM_AT of the turn timer has run (GameRecord.alarm_due): the record noting it
    was told, and a `turn_alarm` event naming the seats on the clock that are not at the table
    (none if every one is: they see their clock)."""
    current = replace(record, state=state)
    due = current.alarm_due
    if due is None or now < due:
        return record, []
    told = presence.connected(current)
    away = [seat for seat in whose_turn(state)
            if current.seats[seat].on_the_clock and not told[seat]]
    alarmed = replace(record, alarmed=state.turn_deadline)
    if not away:
        return alarmed, []
    return alarmed, [Event("turn_alarm", {"seats": away, "deadline": state.turn_deadline})]


def scheduled(record: GameRecord) -> GameRecord:
    """The record with the time the deadline index is to hold for it."""
    due = record.next_due
    return record if due == record.scheduled else replace(record, scheduled=due)


def earliest(*times: float | None) -> float | None:
    return min((at for at in times if at is not None), default=None)
