"""Gunicorn settings: the one config the Dockerfile, the README and the benchmarks use.

Every value comes from the environment:

- CRIBBAGE_BIND       listen address (default 127.0.0.1:8000; the image sets 0.0.0.0:8000)
- WEB_CONCURRENCY     worker processes (default: 1 with the embedded in-memory store, whose
                      games live inside one process; with CRIBBAGE_REDIS_URL set, 2 x cores + 1,
                      at most 12)
- GUNICORN_THREADS    threads per worker (default 8); a thread waiting on the events
                      long-poll (at most 25 s) holds one of them
- PROMETHEUS_MULTIPROC_DIR  where workers write their metrics so /metrics adds them up; when
                      it is unset and there is more than one worker, a temporary directory is
                      made at start-up and removed at exit

Module-level names without a leading underscore are read by gunicorn as settings.
"""

import glob as _glob
import os as _os
import shutil as _shutil
import tempfile as _tempfile

from service import config as _config

_ENV = _os.environ

bind = [_config.parse_text(_ENV, "CRIBBAGE_BIND", "127.0.0.1:8000")]
worker_class = "gthread"
workers = _config.parse_positive_int(
    _ENV, "WEB_CONCURRENCY", _config.default_workers(_ENV, _config.usable_cpus()))
threads = _config.parse_positive_int(_ENV, "GUNICORN_THREADS", 8)

# The events long-poll waits at most 25 s: a worker is only declared hung well past that.
timeout = 60
# On SIGTERM, requests in flight (a long-poll included) get this long to finish.
graceful_timeout = 30
keepalive = 5

# Heartbeat files on a tmpfs: a read-only or slow root file system cannot stall workers.
worker_tmp_dir = "/dev/shm" if _os.path.isdir("/dev/shm") else None

accesslog = "-"
errorlog = "-"
loglevel = _config.parse_text(_ENV, "CRIBBAGE_LOG_LEVEL", "info").lower()
logger_class = "service.gunicorn_logging.JsonLogger"


def on_starting(server):
    """Prepares the metrics directory before the first worker is forked."""
    if server.cfg.workers > 1 and not _os.environ.get("CRIBBAGE_REDIS_URL", "").strip():
        server.log.warning(
            "%d workers with the embedded store: each worker keeps its own games; "
            "set CRIBBAGE_REDIS_URL or WEB_CONCURRENCY=1",
            server.cfg.workers,
        )
    directory = _os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if not directory:
        if server.cfg.workers < 2:
            return
        directory = _tempfile.mkdtemp(prefix="cribbage-metrics-")
        # Set before any worker (and prometheus_client, which reads it on import) starts.
        _os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
        server.cribbage_metrics_tmp = directory
    _os.makedirs(directory, exist_ok=True)
    # Files left by an earlier run would be added to this run's counters.
    for stale in _glob.glob(_os.path.join(directory, "*.db")):
        _os.remove(stale)
    # Imported here, not in child_exit: that runs inside the SIGCHLD handler, where an import
    # can be interrupted by the next SIGCHLD and fail half-way.
    from prometheus_client import multiprocess

    server.cribbage_metrics_dir = directory
    server.cribbage_mark_process_dead = multiprocess.mark_process_dead


def child_exit(server, worker):
    """Drops a dead worker's live gauges from the metrics directory."""
    mark_process_dead = getattr(server, "cribbage_mark_process_dead", None)
    if mark_process_dead:
        mark_process_dead(worker.pid, server.cribbage_metrics_dir)


def on_exit(server):
    """Removes the metrics directory if on_starting made it."""
    directory = getattr(server, "cribbage_metrics_tmp", None)
    if directory:
        _shutil.rmtree(directory, ignore_errors=True)
