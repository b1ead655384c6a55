"""Jobs through Redis Streams: web workers queue, compute workers (`python -m service.compute`)
take them in a consumer group, and each outcome comes back on a list of the web process that
asked.

One stream per priority, all three under one hash tag so that a Cluster keeps them on one node
and a worker can block on the three at once. A web worker adds a job only while its
priority's stream holds fewer than its bound (a script checks and adds in one step); a
worker acknowledges and deletes each entry once its outcome is pushed, so a stream's length
is what is queued or running. Each web process has one reply list and one thread (a greenlet
under gevent) that waits on it and hands each outcome to the request waiting for it: a waiting
request holds no Redis connection.

A job is a pickle of the domain's values: only the service's processes write to this Redis,
which they trust as they trust the games in it.
"""
from __future__ import annotations

import logging
import os
import pickle
import secrets
import socket
import threading
import time
from collections.abc import Mapping

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script

from .errors import ComputeBusy, ComputeUnavailable
from .jobs import PRIORITIES, Outcome

log = logging.getLogger(__name__)

PREFIX = "cribbage-compute"
GROUP = "compute"
REPLY_WAIT = 5        # seconds a reply listener blocks on its list before asking again
REPLY_TTL = 120       # a reply list left by a web process that died expires after this
CONNECT_TIMEOUT = 2.0
ADD = """
if redis.call('XLEN', KEYS[1]) >= tonumber(ARGV[1]) then return false end
return redis.call('XADD', KEYS[1], '*', 'job', ARGV[2])
"""


def stream_key(priority: int) -> str:
    return f"{PREFIX}:{{jobs}}:{priority}"


def connect(url: str, cluster: bool, read_timeout: float | None) -> redis.Redis | RedisCluster:
    """A binary client (jobs are pickles); `read_timeout` must outlast any blocking read."""
    options = dict(socket_timeout=read_timeout, socket_connect_timeout=CONNECT_TIMEOUT)
    if cluster:
        return RedisCluster.from_url(url, **options)
    return redis.Redis.from_url(url, **options)


class _RemoteJob:
    def __init__(self, job_id: str, forget) -> None:
        self.job_id = job_id
        self.result: Outcome | None = None
        self.done = threading.Event()
        self._forget = forget

    def outcome(self, wait: float) -> Outcome:
        if not self.done.wait(wait) or self.result is None:
            self._forget(self)  # an outcome that comes later is dropped
            raise ComputeUnavailable(f"no compute worker answered within {wait:g} s")
        return self.result


class RedisJobQueue:
    """The web side: queue jobs, wait for their outcomes."""

    def __init__(self, url: str, cluster: bool, bounds: Mapping[int, int]) -> None:
        self.bounds = dict(bounds)
        self._url, self._cluster = url, cluster
        self._connection: redis.Redis | RedisCluster | None = None
        self._add: Script | None = None  # ADD, sent by its SHA once registered
        self._reply_key = (f"{PREFIX}:replies:{socket.gethostname()}:{os.getpid()}:"
                           f"{secrets.token_hex(4)}")
        self._waiting: dict[str, _RemoteJob] = {}
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self._closed = False

    @property
    def _client(self) -> redis.Redis | RedisCluster:
        if self._connection is None:  # on first use: nothing connects when the app is built
            self._connection = connect(self._url, self._cluster, read_timeout=REPLY_WAIT + 2)
        return self._connection

    def start(self) -> None:
        self._listen()

    def submit(self, kind: str, args: tuple, priority: int, time_limit: float) -> _RemoteJob:
        self._listen()
        job = _RemoteJob(secrets.token_hex(8), self._forget)
        expires = time.time() + time_limit
        payload = pickle.dumps((job.job_id, kind, args, time_limit, self._reply_key, expires),
                               protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            self._waiting[job.job_id] = job
        try:
            added = self._add_job(priority, payload)
        except redis.RedisError as error:
            self._forget(job)
            raise ComputeUnavailable(f"the compute queue is unreachable: {error}") from None
        if not added:
            self._forget(job)
            raise ComputeBusy(f"the compute queue holds {self.bounds[priority]} jobs of this "
                              "priority already", retry_after=1)
        return job

    def _add_job(self, priority: int, payload: bytes):
        """The new entry's id, or None when the priority's stream is full."""
        client = self._client
        if self._add is None:
            self._add = client.register_script(ADD)
        return self._add(keys=[stream_key(priority)], args=[self.bounds[priority], payload],
                         client=client)

    def depths(self) -> Mapping[int, int]:
        try:
            return {priority: self._client.xlen(stream_key(priority))
                    for priority in PRIORITIES}
        except redis.RedisError:
            return {}

    def close(self) -> None:
        self._closed = True

    def _give_up_waiting(self) -> None:
        """Redis went away: the replies of the jobs asked for so far may be lost with it, so
        their requests stop waiting now (they go on without them) rather than at their
        bound."""
        with self._lock:
            waiting, self._waiting = list(self._waiting.values()), {}
        for job in waiting:
            job.done.set()  # with no result: ComputeUnavailable

    def _forget(self, job: _RemoteJob) -> None:
        with self._lock:
            self._waiting.pop(job.job_id, None)

    def _listen(self) -> None:
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._receive, daemon=True,
                                                  name="compute-replies")
                self._listener.start()

    def _receive(self) -> None:
        while not self._closed:
            try:
                reply = self._client.blpop([self._reply_key], timeout=REPLY_WAIT)
            except Exception as error:  # Redis down, a Cluster's slots moving: never give up
                log.warning("compute replies unreadable, trying again: %s", error)
                self._give_up_waiting()
                time.sleep(0.5)
                continue
            if reply is None:
                continue
            payload = reply[1]
            assert isinstance(payload, bytes)  # a binary client: no decoding
            job_id, outcome = pickle.loads(payload)
            with self._lock:
                job = self._waiting.pop(job_id, None)
            if job is not None:
                job.result = outcome
                job.done.set()
