"""The sweeper: applies what is due in games no client is looking at (turn timers, count time
limits, abandoned games), from the store's deadline index.

Every server process runs one. Each round it claims the due entries (the store moves each
claimed entry's time on by a lease, atomically, so two sweepers never take the same one) and
applies each game (up to CONCURRENT at once) with the same catch-up and compare-and-set save as
a request (GameTable.catch_up), so a deadline applies once even if a client or another sweeper
got there first. A
sweeper that dies mid-round leaves its entries to come due again when their lease ends.

Each round also runs the rounds others add (add_round: the seeks' pairing, for seeks whose
range widened or whose computers are due).

Each round first keeps this process's presence (GameStore.keep_presence: its beat, the seats of
processes taken for dead, the seat releases due), every KEEP_EVERY seconds even when deadlines
are not swept (period 0).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from service.errors import DomainError
from service.store import StoreError

from . import presence, timers
from .errors import GameNotFound
from .record import GameRecord
from .table import GameTable

log = logging.getLogger(__name__)

BATCH = 100    # entries claimed at once; a round claims again while it gets full batches
LEASE = 30.0   # seconds a claimed entry is left to its sweeper before it comes due again
# Games of a batch swept at once: one waiting for the compute tier (computers' moves, a timed-out
# turn played by a computer) does not hold up the deadlines of the others.
CONCURRENT = 16
KEEP_EVERY = 1.0  # presence is kept at least this often (service.store.presence.BEAT is 5 s)
REPLY_SECONDS = 25.0  # how long a sweep waits for the computers' replies: less than LEASE


class Sweeper:
    def __init__(self, table: GameTable, period: float, batch: int = BATCH,
                 lease: float = LEASE):
        self.table = table
        self.period = period
        self.batch = batch
        self.lease = lease
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._rounds: list[Callable[[], object]] = []

    def add_round(self, round_: Callable[[], object]) -> None:
        """Run `round_` in each sweep, after the deadlines."""
        self._rounds.append(round_)

    def sweep(self) -> int:
        """One round: keep presence, apply every game due now; returns how many were claimed."""
        self.keep_presence()
        swept = self._sweep_deadlines()
        self._run_rounds()
        return swept

    def _run_rounds(self) -> None:
        for round_ in self._rounds:
            try:
                round_()
            except StoreError as error:
                log.warning("a sweeper round skipped: %s", error)
            except Exception:  # one round's bug must not stop the others
                log.exception("a sweeper round failed")

    def keep_presence(self) -> None:
        """This process's part of presence (GameStore.keep_presence); the deadlines are swept
        even when the store cannot keep it (on a Cluster, presence has a shard of its own)."""
        try:
            self.table.store.keep_presence(self.table.clock(), presence.GRACE)
        except StoreError as error:
            log.warning("presence not kept this round: %s", error)

    def _sweep_deadlines(self) -> int:
        swept = 0
        while True:
            claimed = self.table.store.claim_due(self.table.clock(), self.batch, self.lease)
            if len(claimed) == 1:
                self._sweep_one(claimed[0])
            elif claimed:
                with ThreadPoolExecutor(min(CONCURRENT, len(claimed))) as pool:
                    list(pool.map(self._sweep_one, claimed))
            swept += len(claimed)
            if len(claimed) < self.batch or self._stopped.is_set():
                return swept

    def _sweep_one(self, entry: tuple[str, float]) -> None:
        game_id, until = entry
        try:
            self.sweep_game(game_id, until)
        except (StoreError, DomainError) as error:
            log.warning("game %s not swept (again after the lease): %s", game_id, error)
        except Exception:  # a bug in one game must not hold up the others claimed
            log.exception("game %s not swept (again after the lease)", game_id)

    def sweep_game(self, game_id: str, claimed: float) -> None:
        """Apply what is due in a game whose entry in the deadline index this sweeper claimed
        (its time moved on to `claimed`), then give the entry the game's next due time. The
        save's compare-and-set makes each deadline apply once, whoever gets there first."""
        table = self.table

        def attempt() -> None:
            stored = table.load(game_id)
            record = GameRecord.from_json(stored.data)
            _, caught_up = table.catch_up(game_id, stored, record, reschedule=True,
                                          wait=REPLY_SECONDS)
            if caught_up is record:  # nothing was due after all: put back the game's time
                table.store.release_due(game_id, claimed, timers.earliest(
                    record.next_due, presence.next_check(record, stored.presence)))

        try:
            table.retrying(attempt)
        except GameNotFound:
            table.store.release_due(game_id, claimed, None)

    def start(self) -> None:
        """Sweep every `period` seconds (never with 0) and keep presence every KEEP_EVERY, in
        a thread (a greenlet under gevent's patching)."""
        self._stopped.clear()
        self._thread = threading.Thread(target=self._run, name="cribbage-sweeper", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the game being swept; wait up to `timeout` seconds for that."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        swept_at = time.monotonic()
        while not self._stopped.wait(min(self.period or KEEP_EVERY, KEEP_EVERY)):
            try:
                self.keep_presence()
                if self.period and time.monotonic() - swept_at >= self.period:
                    swept_at = time.monotonic()
                    self._sweep_deadlines()
                    self._run_rounds()
            except StoreError as error:
                log.warning("deadline sweep skipped: %s", error)
            except Exception:  # a bug must not end the sweeping for the process's life
                log.exception("deadline sweep failed")
