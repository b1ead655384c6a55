"""Gunicorn settings: the one config the Dockerfile, scripts/serve and the benchmarks use.

Every value comes from the environment, read by service/config.py's parsers:

- CRIBBAGE_BIND       listen address (default 127.0.0.1:8000; the image sets 0.0.0.0:8000)
- GUNICORN_WORKER_CLASS  gunicorn worker class (default service.server.worker.CribbageWorker:
                      gevent, so a waiting client costs no thread)
- GUNICORN_WORKER_CONNECTIONS  connections one worker holds at once (default 10000)
- CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT  per client address and worker (default 64; 0: no cap)
- CRIBBAGE_READ_TIMEOUT  seconds a connection may make no progress once a request's head is in
                      (default 30)
- CRIBBAGE_BODY_SECONDS  seconds a request's body may take to arrive whole (default 60; else 408)
- CRIBBAGE_FULL_GC_SECONDS  seconds between a worker's full garbage collections (default 900;
                        each worker at its own phase, so they never collect together)
- WEB_CONCURRENCY     worker processes (default: 1 with the embedded in-memory store, whose
                      games live inside one process; with CRIBBAGE_REDIS_URL set, 2 x cores + 1,
                      at most 12)
- GUNICORN_THREADS    threads per worker with the gthread worker class (default 8)
- CRIBBAGE_LOG_LEVEL  gunicorn's log level too (default info)
- PROMETHEUS_MULTIPROC_DIR  where workers write their metrics so /metrics adds them up; when
                      it is unset and there is more than one worker, a temporary directory is
                      made at start-up and removed at exit (service/server/hooks.py)

Module-level names without a leading underscore are read by gunicorn as settings.
"""

import os as _os

from service import config as _config
# Server hooks, which gunicorn finds by name like the settings below.
from service.server.hooks import (child_exit, on_exit, on_starting, post_worker_init,
                                  worker_exit)

_ENV = _os.environ

bind = [_config.parse_text(_ENV, "CRIBBAGE_BIND", "127.0.0.1:8000")]
worker_class = _config.parse_text(_ENV, "GUNICORN_WORKER_CLASS",
                                  "service.server.worker.CribbageWorker")
worker_connections = _config.parse_positive_int(_ENV, "GUNICORN_WORKER_CONNECTIONS", 10000)
workers = _config.parse_positive_int(
    _ENV, "WEB_CONCURRENCY", _config.default_workers(_ENV, _config.usable_cpus()))
threads = _config.parse_positive_int(_ENV, "GUNICORN_THREADS", 8)

# A worker that does not report for this long is replaced (gevent: its loop is blocked).
timeout = 60
# On SIGTERM, requests in flight (a long-poll included) get this long to finish.
graceful_timeout = 30
# Also the time a request's head has to arrive (service/server/worker.py).
keepalive = 5

# Heartbeat files on a tmpfs: a read-only or slow root file system cannot stall workers.
worker_tmp_dir = "/dev/shm" if _os.path.isdir("/dev/shm") else None

accesslog = "-"
errorlog = "-"
loglevel = _config.parse_text(_ENV, "CRIBBAGE_LOG_LEVEL", "info").lower()
logger_class = "service.server.access_log.JsonLogger"
