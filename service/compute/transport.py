"""How a job reaches a compute process and its outcome comes back: the interface the tier
uses, and the inline transport that runs a job in the caller (the library and the tests)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .jobs import Outcome, execute


class Ticket(Protocol):
    def outcome(self, wait: float) -> Outcome:
        """The job's outcome, waiting up to `wait` seconds (the caller's greenlet yields);
        ComputeUnavailable if there is none by then."""


class Transport(Protocol):
    def submit(self, kind: str, args: tuple, priority: int, time_limit: float) -> Ticket:
        """Queue a job; ComputeBusy if its priority's queue is full."""

    def start(self) -> None:
        """Get ready to take jobs (a server calls it once its worker is up)."""

    def depths(self) -> Mapping[int, int]:
        """Jobs queued or running, by priority."""

    def close(self) -> None:
        """Stop taking jobs and let the compute processes go."""


class _Done:
    def __init__(self, outcome: Outcome) -> None:
        self._outcome = outcome

    def outcome(self, wait: float) -> Outcome:
        return self._outcome


class Inline:
    """Runs each job at once in the caller: for the library and the tests, never a server's
    event loop."""

    def submit(self, kind: str, args: tuple, priority: int, time_limit: float) -> Ticket:
        return _Done(execute(kind, args))

    def start(self) -> None:
        pass

    def depths(self) -> Mapping[int, int]:
        return {}

    def close(self) -> None:
        pass
