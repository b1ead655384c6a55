"""Seats held by this process: one presence lease per seat, whatever its streams and long polls.

A seat's open streams and long polls in this process share one lease in the store, named
`<holder>:<seat>` (the holder: this process, a random id). It is written when the seat's first
request opens ("held": no end time) and ended, at the time the last one closed, only LINGER
seconds after that close: a long poll that returns and is asked again at once (or a stream
reconnecting) writes nothing. An idle seat costs no command at all; instead the process beats
once every BEAT seconds (one command for all its seats) and registers each seat it holds, so
that once its beat has lapsed for LAPSE seconds (the process was killed) any other process ends
its leases at its last beat, and the table hears of those seats after the grace as of any seat
gone. A process that was taken for dead while it lived (stalled for LAPSE seconds) writes its
leases again at its next beat.

Every time here is the caller's clock (the games service's epoch seconds): the service gives
`now` with each call, and its sweeper calls `keep` every round (service.games.sweeper), which
beats, takes over lapsed holders and writes the releases whose LINGER is over.

This process's own reads see its seats as it knows them (`overlay`), so a release not yet
written reads as ended at once here; other processes see it when it is written, still well
within the grace (LINGER is far shorter than presence.GRACE).
"""

from __future__ import annotations

import logging
import math
import os
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .base import GameNotFound, StoreError

log = logging.getLogger(__name__)

BEAT = 5.0     # a process beats this often (its sweeper's rounds, at most once per BEAT)
LAPSE = 20.0   # a process not heard of for this long is taken for dead: its leases end
LINGER = 5.0   # a seat's lease is ended this long after its last request closed, if none came
LAPSED_TAKEN = 10  # lapsed holders one beat takes over at most


@dataclass
class _Seat:
    """One seat of one game as this process holds it."""

    holders: int = 0                     # its open streams and long polls here
    closed: tuple[float, float] | None = None  # (until, check at) of the release to write
    written: bool = False                # a held lease is in the store
    lock: threading.Lock = field(default_factory=threading.Lock)  # orders this seat's writes


@dataclass(frozen=True)
class Lapsed:
    """A holder whose beat lapsed, taken over by this process: its last beat and its seats,
    each "<game id>:<seat>"."""

    holder: str
    last_beat: float
    seats: tuple[str, ...]


class SeatHolds:
    """The seats this process holds, over a store's lease primitives:

    - `write(game_id, lease, seat, until, check_at)`: the store's hold_presence (until may be
      math.inf: held);
    - `enroll(holder, game_id, seat, now)`: count the seat among the holder's, and the holder
      among the living if it is not (returns whether it was);
    - `unenroll(holder, game_id, seat)`;
    - `beat(holder, now, lapsed_before)`: the holder lives at `now` (returns whether it was
      known to), and the holders last heard of before `lapsed_before`, each taken by one caller.
    """

    def __init__(self, write: Callable[..., None], enroll: Callable[..., bool],
                 unenroll: Callable[..., None], beat: Callable[..., tuple[bool, list[Lapsed]]]):
        self._write = write
        self._enroll = enroll
        self._unenroll = unenroll
        self._beat = beat
        self._lock = threading.Lock()  # guards the fields below; never held while talking
        self._games: dict[str, dict[int, _Seat]] = {}
        self._closing: dict[tuple[str, int], _Seat] = {}  # seats with a release to write
        self._holder = secrets.token_hex(6)
        self._pid = os.getpid()
        self._beaten: float | None = None
        self._known = False  # the store knew this holder at its last beat or enrolment

    @property
    def holder(self) -> str:
        self._check_fork()
        return self._holder

    def lease(self, seat: int) -> str:
        return f"{self.holder}:{seat}"

    def hold(self, game_id: str, seat: int, now: float) -> None:
        """One more open request of the seat here; the first one writes the lease."""
        self._check_fork()
        with self._lock:
            held = self._games.setdefault(game_id, {}).setdefault(seat, _Seat())
            held.holders += 1
            held.closed = None  # a release not yet written is called off
            self._closing.pop((game_id, seat), None)
        with held.lock:
            if not held.written:
                self._write_held(game_id, seat, held, now)

    def release(self, game_id: str, seat: int, until: float, check_at: float) -> None:
        """One open request of the seat fewer; after the last, its lease ends at `until`
        (written LINGER seconds later unless the seat is held again)."""
        with self._lock:
            held = self._games.get(game_id, {}).get(seat)
            if held is None or held.holders <= 0:
                return
            held.holders -= 1
            if not held.holders:
                held.closed = (until, check_at)
                self._closing[game_id, seat] = held

    def overlay(self, game_id: str, leases: Sequence[tuple[str, int, float]]
                ) -> tuple[tuple[int, float], ...]:
        """The leases of a game as read, (name, seat, until) each, with this process's own as
        it knows them: (seat, until) each."""
        with self._lock:
            mine = [(seat, math.inf if held.holders else held.closed and held.closed[0])
                    for seat, held in self._games.get(game_id, {}).items()]
        if not mine:
            return tuple((seat, until) for _, seat, until in leases)
        known_here = {self.lease(seat) for seat, _ in mine}
        return tuple([(seat, until) for name, seat, until in leases if name not in known_here]
                     + [(seat, until) for seat, until in mine if until])

    def keep(self, now: float, grace: float) -> None:
        """A sweeper's round: beat (at most every BEAT seconds), end the leases of the holders
        that lapsed (their seats gone at their last beat, checked `grace` later), and write
        the releases whose LINGER is over."""
        if self._beaten is None or now - self._beaten >= BEAT:
            known, lapsed = self._beat(self.holder, now, now - LAPSE)
            self._beaten = now
            self._noticed(known, now)
            for holder in lapsed:
                self._end(holder, grace)
        self._write_releases(now)

    def _write_held(self, game_id: str, seat: int, held: _Seat, now: float) -> None:
        """Under the seat's lock: enrol the seat, then write its lease (in that order, so that
        a process dying in between leaves nothing held that no one can end)."""
        try:
            known = self._enroll(self.holder, game_id, seat, now)
            self._write(game_id, self.lease(seat), seat, math.inf, None)
            held.written = True
        except StoreError as error:  # the seat is told late, the game goes on
            log.warning("presence of seat %s in game %s not recorded: %s", seat, game_id, error)
            return
        self._noticed(known, now, but=(game_id, seat))

    def _noticed(self, known: bool, now: float, but: tuple[str, int] | None = None) -> None:
        """The store did not know this holder although it had: another process took it for
        dead and ended its leases. Write them again (all but `but`, just written)."""
        was_known, self._known = self._known, True
        if known or not was_known:
            return
        log.warning("presence holder %s was taken for dead: its seats are held again",
                    self.holder)
        with self._lock:
            seats = [(game_id, seat, held) for game_id, held_seats in self._games.items()
                     for seat, held in held_seats.items() if (game_id, seat) != but]
        for game_id, seat, held in seats:
            with held.lock:
                if held.written:
                    held.written = False
                    self._write_held(game_id, seat, held, now)

    def _write_releases(self, now: float) -> None:
        with self._lock:
            due = [(game_id, seat, held) for (game_id, seat), held in self._closing.items()
                   if held.closed is not None and held.closed[0] + LINGER <= now]
        for game_id, seat, held in due:
            self._write_release(game_id, seat, held)

    def _write_release(self, game_id: str, seat: int, held: _Seat) -> None:
        with held.lock:
            with self._lock:
                closed = held.closed
            if held.holders or closed is None:
                return  # held again meanwhile
            until, check_at = closed
            try:
                if held.written:
                    try:
                        self._write(game_id, self.lease(seat), seat, until, check_at)
                    except GameNotFound:
                        pass  # the game expired: nothing to end
                self._unenroll(self.holder, game_id, seat)
            except StoreError as error:
                log.warning("end of seat %s's presence in game %s not recorded (again next "
                            "round): %s", seat, game_id, error)
                return
            held.written = False
            with self._lock:
                if not held.holders and held.closed == closed:
                    del self._closing[game_id, seat]
                    seats = self._games[game_id]
                    del seats[seat]
                    if not seats:
                        del self._games[game_id]

    def _end(self, lapsed: Lapsed, grace: float) -> None:
        """End a lapsed holder's leases at its last beat."""
        for member in lapsed.seats:
            game_id, _, seat = member.rpartition(":")
            try:
                self._write(game_id, f"{lapsed.holder}:{seat}", int(seat), lapsed.last_beat,
                            lapsed.last_beat + grace)
            except GameNotFound:
                continue
            except StoreError as error:
                log.warning("seat %s of game %s left held by lapsed holder %s: %s", seat,
                            game_id, lapsed.holder, error)

    def _check_fork(self) -> None:
        """A forked process is another holder: the parent's seats are not its own."""
        if self._pid != os.getpid():
            with self._lock:
                if self._pid != os.getpid():
                    self._games, self._closing, self._holder = {}, {}, secrets.token_hex(6)
                    self._beaten, self._known, self._pid = None, False, os.getpid()
