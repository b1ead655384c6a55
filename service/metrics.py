"""The service's Prometheus metrics, kept free of Flask so the games service can count games.

service/api/observability.py records the HTTP metrics and serves them all at /metrics.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from prometheus_client import Counter, Gauge, Histogram

if TYPE_CHECKING:
    from service.engine import Event

REQUESTS = Counter(
    "cribbage_http_requests_total", "HTTP requests answered, by route and status",
    ["method", "route", "status"])
LATENCY = Histogram(
    "cribbage_http_request_duration_seconds",
    "Time to answer an HTTP request that does not wait for a game to change, by route",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
WAIT_LATENCY = Histogram(
    "cribbage_http_wait_duration_seconds",
    "Time to answer a request that may wait for a game to change (a long poll with `wait`, "
    "the start of an event stream), by route: kept apart so waits do not swamp the latency",
    ["method", "route"], buckets=(0.01, 0.1, 0.5, 1.0, 5.0, 10.0, 20.0, 25.0, 30.0, 60.0))
IN_FLIGHT = Gauge(
    "cribbage_http_requests_in_flight",
    "Requests being answered now, waiting ones and open event streams included",
    multiprocess_mode="livesum")
WAITING_CLIENTS = Gauge(
    "cribbage_waiting_clients",
    "Requests waiting now for a game to change: long polls and open event streams",
    multiprocess_mode="livesum")
STORE_LATENCY = Histogram(
    "cribbage_store_operation_duration_seconds", "Time a game store operation takes",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0))
GAMES_CREATED = Counter("cribbage_games_created_total", "Games created")
GAMES_FINISHED = Counter("cribbage_games_finished_total",
                         "Games (or matches) that reached their end")
GAMES_ENDED = Counter("cribbage_games_ended_total",
                      "Games (or matches) over for good, by the reason of their game_over event",
                      ["reason"])
TIMEOUTS_APPLIED = Counter("cribbage_turn_timeouts_total",
                           "Turn timers that ran out, by what the game did", ["on_timeout"])
STORE_ERRORS = Counter(
    "cribbage_store_errors_total", "Requests answered 503 because the game store was unreachable",
    ["route"])
STORE_FULL = Counter(
    "cribbage_store_full_total", "Requests answered 503 because the game store was full",
    ["route"])

FINISHED_PHASES = frozenset({"game_over", "match_over"})


def record_game_created() -> None:
    """Count one new game, once it is stored."""
    GAMES_CREATED.inc()


def record_endings(events: Iterable[Event]) -> None:
    """Count the endings (game_over) and turn timeouts among events just stored."""
    for event in events:
        if event.type == "game_over":
            GAMES_ENDED.labels(reason=event.public["reason"]).inc()
        elif event.type == "turn_timeout":
            TIMEOUTS_APPLIED.labels(on_timeout=event.public["on_timeout"]).inc()


def record_game_finished(phase_before: str, phase_after: str) -> None:
    """Count a game that a stored change moved into a finished phase."""
    if phase_after in FINISHED_PHASES and phase_before not in FINISHED_PHASES:
        GAMES_FINISHED.inc()

WEBHOOK_DELIVERIES = Counter(
    "cribbage_webhook_deliveries_total",
    "Webhook and push delivery attempts, by outcome: delivered, retrying (failed, tried again "
    "later), given_up (failed its last attempt), gone (a push subscription its push service "
    "no longer knows: deleted)", ["outcome"])
WEBHOOK_QUEUE_DEPTH = Gauge(
    "cribbage_webhook_queue_depth",
    "Webhook entries queued, pending or waiting for a retry, as a delivery worker last saw",
    multiprocess_mode="max")

COMPUTE_QUEUE_DEPTH = Gauge(
    "cribbage_compute_queue_depth",
    "Compute jobs queued or running, by priority (move, analysis, background), as a web "
    "worker last saw: what the compute deployment scales on",
    ["priority"], multiprocess_mode="livemax")
_JOB_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                30.0)
COMPUTE_WAIT = Histogram(
    "cribbage_compute_job_wait_seconds",
    "Time a compute job waited for a compute process (queue and transport), by priority",
    ["priority"], buckets=_JOB_SECONDS)
COMPUTE_RUN = Histogram(
    "cribbage_compute_job_run_seconds", "Time a compute job ran, by kind", ["kind"],
    buckets=_JOB_SECONDS)
COMPUTE_CPU = Histogram(
    "cribbage_compute_job_cpu_seconds", "CPU a compute job took, by kind", ["kind"],
    buckets=_JOB_SECONDS)
COMPUTE_JOBS = Counter(
    "cribbage_compute_jobs_total",
    "Compute jobs answered, by kind and outcome: done, or timed_out (stopped at its time limit)",
    ["kind", "outcome"])
COMPUTE_REFUSALS = Counter(
    "cribbage_compute_refusals_total",
    "Compute jobs refused or unanswered, by priority and reason: queue_full (503), cpu_budget "
    "(429), no_answer (no compute process answered in time: 503, or a move left to the sweeper)",
    ["priority", "reason"])


def record_compute_job(kind: str, priority: str, total_seconds: float, run_seconds: float,
                       cpu_seconds: float, timed_out: bool) -> None:
    """Count one compute job answered: its wait, run time and CPU."""
    COMPUTE_WAIT.labels(priority=priority).observe(max(0.0, total_seconds - run_seconds))
    COMPUTE_RUN.labels(kind=kind).observe(run_seconds)
    COMPUTE_CPU.labels(kind=kind).observe(cpu_seconds)
    COMPUTE_JOBS.labels(kind=kind, outcome="timed_out" if timed_out else "done").inc()
