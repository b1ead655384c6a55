"""What the compute tier refuses: a full queue, a spent CPU budget, a job with no answer."""
from __future__ import annotations

from service.errors import DomainError


class ComputeRefused(DomainError):
    """The compute tier could not take or finish a job; nothing about the request was wrong."""


class ComputeBusy(ComputeRefused):
    """The queue of the job's priority holds its bound of jobs: come back later (503)."""

    code = "compute_busy"


class ComputeUnavailable(ComputeRefused):
    """The job got no answer in time: no compute process took it, it ran past its time limit,
    or its process died (503)."""

    code = "compute_unavailable"


class CpuBudgetExhausted(ComputeRefused):
    """The client spent its CPU budget of the current minute on analyses (429). `params` has
    `budget_ms`, `window` and `retry_after` seconds."""

    code = "cpu_budget_exhausted"
