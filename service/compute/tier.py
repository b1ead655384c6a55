"""The compute tier as the web worker sees it: run a job somewhere else and wait for it.

`ComputeTier.run` admits the job (the client's CPU budget, for analyses), queues it at its
priority on the transport, waits for the outcome (the caller's greenlet yields meanwhile),
charges the CPU it took, records the metrics and returns the job's value or raises what the
job raised. The transport decides where jobs run: inline (the library, the tests), compute
processes beside the web worker (local.py), or compute workers fed through Redis
(redis_queue.py).
"""
from __future__ import annotations

import threading
import time
from typing import Any

from service import metrics

from .budget import CpuBudget
from .errors import ComputeBusy, ComputeUnavailable, CpuBudgetExhausted
from .jobs import PRIORITY_NAMES, JobTimedOut
from .transport import Inline, Transport

DEFAULT_TIME_LIMIT = 30.0
QUEUE_MARGIN = 5.0  # seconds a job may wait for a compute process beyond its time limit
REPORT_EVERY = 5.0  # seconds between updates of the queue depth gauges


class ComputeTier:
    def __init__(self, transport: Transport | None = None, budget: CpuBudget | None = None,
                 time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        self.transport = transport or Inline()
        self.budget = budget
        self.time_limit = time_limit
        self._closed = threading.Event()

    def run(self, kind: str, args: tuple, priority: int, wait: float | None = None,
            client: str | None = None) -> Any:
        """The value of job `kind` on `args`, waiting up to `wait` seconds (when None, the
        time limit and a margin for the queue). A `client` is charged the CPU the job takes, and refused
        (CpuBudgetExhausted) once it has spent its budget."""
        name = PRIORITY_NAMES[priority]
        if client is not None and self.budget is not None:
            try:
                self.budget.admit(client)
            except CpuBudgetExhausted:
                metrics.COMPUTE_REFUSALS.labels(priority=name, reason="cpu_budget").inc()
                raise
        submitted = time.perf_counter()
        try:
            ticket = self.transport.submit(kind, args, priority, self.time_limit)
        except ComputeBusy:
            metrics.COMPUTE_REFUSALS.labels(priority=name, reason="queue_full").inc()
            raise
        try:
            outcome = ticket.outcome(self.time_limit + QUEUE_MARGIN if wait is None else wait)
        except ComputeUnavailable:
            metrics.COMPUTE_REFUSALS.labels(priority=name, reason="no_answer").inc()
            raise
        metrics.record_compute_job(kind, name, time.perf_counter() - submitted,
                                   outcome.run_seconds, outcome.cpu_seconds, outcome.timed_out)
        if client is not None and self.budget is not None:
            self.budget.charge(client, outcome.cpu_seconds)
        try:
            return outcome.result()
        except JobTimedOut:
            raise ComputeUnavailable(f"the job ran past its time limit of "
                                     f"{self.time_limit:g} s and was stopped",
                                     time_limit=self.time_limit) from None

    def depths(self) -> dict[str, int]:
        return {PRIORITY_NAMES[priority]: depth
                for priority, depth in self.transport.depths().items()}

    def start(self, period: float = REPORT_EVERY) -> None:
        """Start the transport (compute processes beside this worker) and set the queue depth
        gauges every `period` seconds, in a thread (a greenlet under gevent), until `close`."""
        self.transport.start()

        def report() -> None:
            while not self._closed.wait(period):
                for name, depth in self.depths().items():
                    metrics.COMPUTE_QUEUE_DEPTH.labels(priority=name).set(depth)

        threading.Thread(target=report, name="compute-depths", daemon=True).start()

    def close(self) -> None:
        self._closed.set()
        self.transport.close()
