"""The jobs the event loop hands off: every search of the computer players and the coach.

Each kind names one pure function of the domain (no store, no clock, no randomness it is not
given), so a job gives the same answer wherever it runs: in the caller (inline), in a compute
process beside the web worker (local.py) or in a compute worker fed through Redis (redis_queue.py).
`execute` runs one under a time limit and reports the CPU it took, and a refusal of the domain
(a DomainError) as a value, so that it crosses a process boundary with its code and params.
"""
from __future__ import annotations

import importlib
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from service.config import SettingsError
from service.errors import DomainError

# Priorities, lowest number first: a seated player waiting for a computer's move, then an
# analysis a person asked for, then background work nobody waits on.
MOVE, ANALYSIS, BACKGROUND = 0, 1, 2
PRIORITIES = (MOVE, ANALYSIS, BACKGROUND)
PRIORITY_NAMES = {MOVE: "move", ANALYSIS: "analysis", BACKGROUND: "background"}


class JobTimedOut(Exception):
    """A job ran past its time limit and was stopped."""


class _TimeLimit(BaseException):
    """What the alarm raises inside a running job: not an Exception, so that no `except
    Exception` in the search (the table shelf's, say) can swallow it and run on."""


# kind -> the function it runs, by name: resolved when a job of the kind first runs, so that
# a web worker that only queues jobs never loads the search code, and the service's layers
# that queue jobs (games, api) are not imported by this module.
KINDS: dict[str, str] = {
    "advance": "service.games.computers:advance",  # computer seats' moves, timed-out turns
    "pair": "service.games.seeks:pair_pool",       # a seek pool's pairing round's search
    "hint": "service.bots.hints:hint",             # the coach at a seat (options.hints)
    "discard_report": "service.bots.discard_report:discard_report",  # /v1/analysis/discard
    "analyse_play": "service.bots.pegging:analyse_play",             # /v1/analysis/play
    "position_value": "service.bots.side_race:layout_position_value",  # /v1/analysis/position
    "game_analysis": "service.compute.jobs:game_analysis",  # GET /v1/games/{id}/analysis
    "show_batch": "service.api.scoring.batches:show_batch",        # up to 10,000 shows
    "pegging_batch": "service.api.scoring.batches:pegging_batch",  # up to 10,000 piles
}
_HANDS: list = []  # this process's HandCache, made on first use


def game_analysis(game_id, seat, options, events, over):
    """A game's analysis; analysed hands are kept per compute process (a finished hand's
    analysis never changes)."""
    analysis = importlib.import_module("service.games.analysis")
    if not _HANDS:
        _HANDS.append(analysis.HandCache())
    return analysis.game_analysis(game_id, seat, options, events, over, _HANDS[0])


@cache
def function_of(kind: str) -> Callable[..., Any]:
    module, _, name = KINDS[kind].partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Refusal:
    """A DomainError as plain data: its class, message, code, field, index and params."""

    error_class: type[DomainError]
    message: str
    code: str
    field: str | None
    index: int | None
    params: dict

    @classmethod
    def of(cls, error: DomainError) -> Refusal:
        return cls(type(error), str(error), error.code, error.field, error.index,
                   dict(error.params))

    def error(self) -> DomainError:
        error = self.error_class.__new__(self.error_class)
        DomainError.__init__(error, self.message, code=self.code, field=self.field,
                             index=self.index, **self.params)
        return error


@dataclass(frozen=True)
class Outcome:
    """What running a job gave: its value, or the refusal it raised, or that it timed out; and
    the CPU and wall seconds it took."""

    value: Any = None
    refusal: Refusal | None = None
    timed_out: bool = False
    cpu_seconds: float = 0.0
    run_seconds: float = 0.0

    def result(self) -> Any:
        """The value, or raise what the job raised (JobTimedOut for a job stopped)."""
        if self.timed_out:
            raise JobTimedOut("the job ran past its time limit")
        if self.refusal is not None:
            raise self.refusal.error()
        return self.value


def execute(kind: str, args: tuple, time_limit: float | None = None) -> Outcome:
    """Run one job here. With `time_limit` (seconds of wall time), in the main thread of a
    process of its own, a job still running then is interrupted (SIGALRM) and reported as
    timed out."""
    function = function_of(kind)
    started, cpu_started = time.perf_counter(), time.process_time()
    limited = time_limit is not None and threading.current_thread() is threading.main_thread()
    if time_limit is not None and limited:
        signal.signal(signal.SIGALRM, _stop)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        value, refusal, timed_out = function(*args), None, False
    except DomainError as error:
        value, refusal, timed_out = None, Refusal.of(error), False
    except _TimeLimit:
        value, refusal, timed_out = None, None, True
    finally:
        if limited:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return Outcome(value, refusal, timed_out, time.process_time() - cpu_started,
                   time.perf_counter() - started)


def _stop(signum, frame):
    raise _TimeLimit()


IDLE = "idle"  # CRIBBAGE_COMPUTE_NICE's default: Linux's SCHED_IDLE policy
_NICENESS = re.compile(r"1?[0-9]")  # or a niceness, 0-19


def yield_the_cpu(env: Mapping[str, str]) -> None:
    """Lower this compute process's CPU priority, so that on a shared machine a web worker
    that has something to do (an answer, an event to push) runs before any search.

    By default (CRIBBAGE_COMPUTE_NICE=idle) the process takes Linux's SCHED_IDLE policy: a
    web worker that wakes takes the CPU from a search at once, and searches get what the
    rest of the machine leaves (a niceness only weighs them less, and a waking worker could
    wait a few milliseconds behind one). A number 0-19 is a niceness instead, for machines
    whose other work would leave the searches too little."""
    setting = env.get("CRIBBAGE_COMPUTE_NICE", "").strip().lower() or IDLE
    if setting != IDLE:
        if not _NICENESS.fullmatch(setting):
            raise SettingsError(f"CRIBBAGE_COMPUTE_NICE={setting!r}: expected idle or a "
                                "niceness from 0 to 19")
        os.nice(int(setting))
    elif hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:  # not Linux
        os.nice(19)


def warm_up() -> None:
    """Load the search code and its tables in a new compute process, before its first job."""
    for kind in KINDS:
        function_of(kind)
