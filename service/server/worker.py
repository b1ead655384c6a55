"""The gunicorn worker: gevent, so that a client waiting for its turn costs a greenlet and a
socket, not a thread; plus what keeps slow or greedy clients from holding the server.

- A request's head must arrive within gunicorn's `keepalive` seconds (gunicorn's gevent worker
  already bounds every head read by it); every later read or write on the connection must make
  progress within CRIBBAGE_READ_TIMEOUT seconds (default 30: more than a stream's heartbeat
  interval, so a live stream never trips it), or the connection is closed.
- A request's body must arrive whole within CRIBBAGE_BODY_SECONDS (default 60) of the app's
  first read of it, even one that keeps trickling in; past that the read raises TimeoutError,
  which the app answers with a 408, and the connection closes. Only the reading of the body is
  bounded: a response, a stream's or a long poll's, takes as long as it takes.
- A body gunicorn cannot read (a malformed chunk) raises ValueError, not gunicorn's own parse
  error, so the app answers it as any WSGI server's unreadable body: a 400.
- One client address holds at most `max_connections_per_client` connections per worker
  process (CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT, 0 for no cap: behind a proxy every client
  shares its address); past that a new connection gets a 429 and is closed.
- A request gunicorn cannot read gets a problem+json like every other refusal, not gunicorn's
  HTML page: 414 for a request line over `limit_request_line`, 431 for too many or too long
  header fields, 400 for anything else malformed.
- Full garbage collections run every CRIBBAGE_FULL_GC_SECONDS (default 900), each worker at its
  own phase of the period, instead of when the interpreter decides (see
  `seconds_to_full_collection`).
"""
from __future__ import annotations

import functools
import gc
import json
import os
import resource
import time
from collections import Counter

import gevent
from gunicorn.http import errors as http_errors
from gunicorn.workers.ggevent import GeventWorker

from service.config import parse_positive_int, parse_whole_number

UNREADABLE = {  # gunicorn's parse errors -> (status, reason, code)
    http_errors.LimitRequestLine: (414, "URI Too Long", "uri_too_long"),
    http_errors.LimitRequestHeaders: (431, "Request Header Fields Too Large",
                                      "header_fields_too_large"),
}


# A full collection scans every object the waiting clients hold (0.15 s of CPU at 1,000 of them
# in a worker, up to three times that in wall time with more workers than cores) to free what
# reference counting cannot: a few hundred objects a minute (bench/live.py's GC log). Left to
# the interpreter, the workers, under the same load, collect within a second of each other, so
# one collection stalls every worker at once. On a schedule, staggered, at most one worker is
# collecting at a time; every 15 minutes, not every minute, a worker is stalled 0.05% of the time
# rather than 0.75% (which a p99 sees), for at most some 13,000 objects of garbage kept meanwhile.
FULL_COLLECTION_SECONDS = 900


def seconds_to_full_collection(now: float, age: int, workers: int, period: float) -> float:
    """Seconds from `now` (the wall clock, which every worker reads alike) to this worker's next
    full collection: the workers' phases spread evenly over the period by the order gunicorn
    started them in (`age`, from 1), whenever each of them started."""
    workers = max(workers, 1)
    phase = (age - 1) % workers * period / workers
    return (phase - now) % period or period


def problem_message(status: int, reason: str, code: str, headers: str = "") -> bytes:
    """A whole HTTP response carrying a problem+json, written before any request is read."""
    # Imported here, in a worker: gunicorn loads this class in the master before on_starting
    # sets PROMETHEUS_MULTIPROC_DIR, and importing service.api imports prometheus_client, which
    # reads that variable once, on import (a master that had would fork workers whose metrics
    # never reach the directory).
    from service.api.messages import DEFAULT_LANGUAGE, problem_text
    from service.api.problems import PROBLEM_MEDIA_TYPE, TYPE_PREFIX

    title, detail = problem_text(code, DEFAULT_LANGUAGE, {}, reason)
    body = json.dumps({"type": TYPE_PREFIX + code, "title": title, "status": status,
                       "detail": detail, "code": code}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"Connection: close\r\n{headers}Content-Length: {len(body)}\r\n\r\n"
            ).encode() + body


@functools.cache
def too_many_connections() -> bytes:
    return problem_message(429, "Too Many Requests", "too_many_connections", "Retry-After: 5\r\n")


class RequestBody:
    """A request's body as the app reads it (its `wsgi.input`): gunicorn's, but read within
    `seconds` of the first read or TimeoutError, and a malformed chunk is a ValueError. After a
    failed read the answer closes the connection: where a next request would start is unknown."""

    def __init__(self, body, request, seconds: int):
        self.body = body
        self.request = request
        self.seconds = seconds
        self.deadline: float | None = None

    def read(self, size=None) -> bytes:
        return self._read(self.body.read, size)

    def readline(self, size=None) -> bytes:
        return self._read(self.body.readline, size)

    def readlines(self, hint=None) -> list[bytes]:
        return list(self)

    def __iter__(self):
        return iter(self.readline, b"")

    def _read(self, read, size) -> bytes:
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.seconds
        late = TimeoutError(f"the request body took more than {self.seconds} s")
        try:
            if now >= self.deadline:
                raise late
            # One read may wait on many recv()s: the socket's timeout bounds each, this all.
            with gevent.Timeout(self.deadline - now, late):
                return read(size)
        except http_errors.ParseException as error:
            self.request.must_close = True
            raise ValueError(f"malformed request body: {error}") from error
        except Exception:
            self.request.must_close = True
            raise


class CribbageWorker(GeventWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_connections_per_client = parse_whole_number(
            os.environ, "CRIBBAGE_MAX_CONNECTIONS_PER_CLIENT", 64)
        self.read_timeout = parse_positive_int(os.environ, "CRIBBAGE_READ_TIMEOUT", 30)
        self.body_seconds = parse_positive_int(os.environ, "CRIBBAGE_BODY_SECONDS", 60)
        self.full_collection_seconds = parse_positive_int(os.environ, "CRIBBAGE_FULL_GC_SECONDS",
                                                          FULL_COLLECTION_SECONDS)
        self.connections_by_client: Counter[str] = Counter()

    def load_wsgi(self):
        super().load_wsgi()
        # The app's objects live as long as the worker: keep full collections, which grow with
        # the waiting clients' objects, from scanning them too (bench/live.py: with 5,000
        # waiters in one worker, full collections of 0.4 s set the ping's p99).
        gc.freeze()
        generation0, generation1, _ = gc.get_threshold()
        gc.set_threshold(generation0, generation1, 2**31 - 1)  # no full collection of its own
        gevent.spawn(self.collect_on_schedule)

    def collect_on_schedule(self):
        while True:
            gevent.sleep(seconds_to_full_collection(time.time(), self.age, self.cfg.workers,
                                                    self.full_collection_seconds))
            gc.collect()

    def init_process(self):
        # Thousands of waiting clients need as many file descriptors: take all the hard limit.
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        super().init_process()

    def handle(self, listener, client, addr):
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        cap = self.max_connections_per_client
        if cap and self.connections_by_client[host] >= cap:
            try:
                client.sendall(too_many_connections())
            finally:
                client.close()
            return
        self.connections_by_client[host] += 1
        try:
            client.settimeout(self.read_timeout)
            # GeventWorker.handle would make the socket blocking again: skip to its parent.
            super(GeventWorker, self).handle(listener, client, addr)
        finally:
            self.connections_by_client[host] -= 1
            if not self.connections_by_client[host]:
                del self.connections_by_client[host]

    def handle_request(self, listener_name, req, sock, addr):
        body = req.body
        req.body = RequestBody(body, req, self.body_seconds)  # the environ's wsgi.input
        try:
            super().handle_request(listener_name, req, sock, addr)
        finally:
            # gunicorn drains what the app left unread from its own reader, within `keepalive`
            # seconds: a parse error there is handle_error's.
            req.body = body

    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, http_errors.ParseException):
            return super().handle_error(req, client, addr, exc)
        status, reason, code = UNREADABLE.get(type(exc), (400, "Bad Request", "bad_request"))
        self.log.debug("unreadable request from %s: %s", addr, exc)
        try:
            client.sendall(problem_message(status, reason, code))
        except OSError:
            pass  # the client is gone: nothing more to tell it
