"""gunicorn server hooks: the life of the Prometheus multiprocess directory, a warning when
several workers would each keep their own games, what of the games survives a crash, and each
worker's deadline sweeper and webhook delivery worker.

deploy/gunicorn.conf.py takes on_starting, post_worker_init, worker_exit, child_exit and on_exit
from here. Nothing here imports
prometheus_client at module level: it reads PROMETHEUS_MULTIPROC_DIR once, on import, so it may
only be imported after on_starting has set that.
"""
from __future__ import annotations

import glob
import logging
import os
import shutil
import subprocess
import sys
import tempfile

from service.config import DURABILITY_MODES, parse_choice, parse_text

EMBEDDED_STORE = ("the embedded store keeps games in this process's memory only: nothing survives "
                  "a restart or a crash of the service; set CRIBBAGE_REDIS_URL to keep them")
# What an acknowledged action survives, by CRIBBAGE_DURABILITY (service/store/durability.py).
DURABILITY = {
    "none": (logging.WARNING, "CRIBBAGE_DURABILITY=none: an action is acknowledged once Redis "
                              "holds it in memory; a Redis crash keeps it only as far as Redis's "
                              "own persistence settings do"),
    "fsync": (logging.INFO, "CRIBBAGE_DURABILITY=fsync: an action is acknowledged only once it "
                            "is in Redis's append-only file on disk (appendfsync always, checked "
                            "on every connection)"),
    "replica": (logging.INFO, "CRIBBAGE_DURABILITY=replica: an action is acknowledged only once "
                              "a Redis replica has it (WAIT 1, at most 1 s)"),
}


def on_starting(server) -> None:
    """Prepares the metrics directory, then starts the compute workers that jobs through Redis
    need on this machine (they count into that directory too), before the first worker is
    forked."""
    if server.cfg.workers > 1 and not parse_text(os.environ, "CRIBBAGE_REDIS_URL", ""):
        server.log.warning(
            "%d workers with the embedded store: each worker keeps its own games; "
            "set CRIBBAGE_REDIS_URL or WEB_CONCURRENCY=1",
            server.cfg.workers,
        )
    say_what_survives(server.log, os.environ)
    prepare_metrics_directory(server)
    start_compute_workers(server)


def prepare_metrics_directory(server) -> None:
    """PROMETHEUS_MULTIPROC_DIR made (a temporary one with 2+ workers when unset) and emptied."""
    directory = parse_text(os.environ, "PROMETHEUS_MULTIPROC_DIR", "")
    if not directory:
        if server.cfg.workers < 2:
            return
        directory = tempfile.mkdtemp(prefix="cribbage-metrics-")
        # Set before any worker (and prometheus_client, which reads it on import) starts.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
        server.cribbage_metrics_tmp = directory
    os.makedirs(directory, exist_ok=True)
    # Files left by an earlier run would be added to this run's counters.
    for stale in glob.glob(os.path.join(directory, "*.db")):
        os.remove(stale)
    # Imported here, not in child_exit: that runs inside the SIGCHLD handler, where an import
    # can be interrupted by the next SIGCHLD and fail half-way.
    from prometheus_client import multiprocess

    server.cribbage_metrics_dir = directory
    server.cribbage_mark_process_dead = multiprocess.mark_process_dead


def say_what_survives(log, env) -> None:
    """Logs, once at start-up, what of an acknowledged action survives a crash."""
    if not parse_text(env, "CRIBBAGE_REDIS_URL", ""):
        log.warning(EMBEDDED_STORE)
        return
    level, message = DURABILITY[parse_choice(env, "CRIBBAGE_DURABILITY", "none",
                                             DURABILITY_MODES)]
    log.log(level, message)


def start_compute_workers(server) -> None:
    """With jobs through Redis (CRIBBAGE_COMPUTE=redis), CRIBBAGE_COMPUTE_PROCESSES compute
    workers under one supervisor (service/compute/supervisor.py), stopped by on_exit."""
    from service.config import Settings

    settings = Settings.from_env()
    if settings.compute != "redis" or settings.compute_processes == 0:
        return
    server.cribbage_compute = subprocess.Popen(
        [sys.executable, "-m", "service.compute.supervisor", str(settings.compute_processes)])
    server.log.info("started %d compute workers (supervisor pid %d)",
                    settings.compute_processes, server.cribbage_compute.pid)


SWEEPER = "cribbage.sweeper"  # the app's extension (service/api/games/views.py)
WEBHOOK_WORKER = "cribbage.webhook_worker"  # service.api.webhooks.views.WORKER
COMPUTE = "cribbage.compute"  # service.api.compute.EXTENSION


def post_worker_init(worker) -> None:
    """Start the worker's deadline sweeper (a greenlet under gevent: with
    CRIBBAGE_SWEEP_SECONDS=0 it sweeps no deadline, and only keeps the worker's presence), its
    webhook delivery worker (a greenlet too) and its compute tier (its compute processes, with
    the local transport)."""
    extensions = getattr(worker.wsgi, "extensions", {})
    sweeper = extensions.get(SWEEPER)
    if sweeper is not None:
        sweeper.start()
    delivery = extensions.get(WEBHOOK_WORKER)
    if delivery is not None:
        delivery.start()
    compute = extensions.get(COMPUTE)
    if compute is not None:
        compute.start()


def worker_exit(server, worker) -> None:
    """Stop the worker's sweeper once the game it is sweeping is saved, its delivery worker
    once the deliveries under way are made (what is left stays queued for the next), and its
    compute tier (its compute processes end with their pipes)."""
    extensions = getattr(worker.wsgi, "extensions", {})
    sweeper = extensions.get(SWEEPER)
    if sweeper is not None:
        sweeper.stop()
    delivery = extensions.get(WEBHOOK_WORKER)
    if delivery is not None:
        delivery.stop()
    compute = extensions.get(COMPUTE)
    if compute is not None:
        compute.close()


def child_exit(server, worker) -> None:
    """Drops a dead worker's live gauges from the metrics directory."""
    mark_process_dead = getattr(server, "cribbage_mark_process_dead", None)
    if mark_process_dead:
        mark_process_dead(worker.pid, server.cribbage_metrics_dir)


def on_exit(server) -> None:
    """Stops the compute workers and removes the metrics directory if on_starting made
    them."""
    compute = getattr(server, "cribbage_compute", None)
    if compute is not None:
        compute.terminate()
        compute.wait(timeout=15)
    directory = getattr(server, "cribbage_metrics_tmp", None)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
