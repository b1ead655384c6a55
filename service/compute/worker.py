"""A compute worker: takes jobs from the Redis streams (redis_queue.py) and answers them.

`python -m service.compute` runs one, one job at a time, with the store's settings
(CRIBBAGE_REDIS_URL, CRIBBAGE_REDIS_CLUSTER). It takes the most urgent job first: a move
before an analysis before background work. Entries that another worker took and never
acknowledged (it died) are claimed after they have been idle for longer than any job may run,
and run again unless whoever asked has stopped waiting.
"""
from __future__ import annotations

import logging
import os
import pickle
import signal
import socket
import time

import redis

from service.bots import shelf

from .jobs import PRIORITIES, execute, warm_up, yield_the_cpu
from .redis_queue import GROUP, REPLY_TTL, connect, stream_key
from .shelves import shelf_for

log = logging.getLogger(__name__)

BLOCK_MS = 2000      # a worker with nothing to do asks again this often
CLAIM_EVERY = 5.0    # seconds between looks for entries a dead worker left
RETRY_PAUSE = 0.2    # seconds between tries while Redis cannot be reached


class ComputeWorker:
    def __init__(self, url: str, cluster: bool, max_time_limit: float,
                 name: str | None = None) -> None:
        self.client = connect(url, cluster, read_timeout=BLOCK_MS / 1000 + 5)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.claim_idle_ms = int((max_time_limit + 10) * 1000)
        self.streams = [stream_key(priority) for priority in PRIORITIES]
        self.stopped = False
        self._claimed_at = 0.0
        self._parent = os.getppid()

    def prepare(self) -> None:
        for stream in self.streams:
            try:
                self.client.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except redis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def run(self) -> None:
        """Answer jobs until stopped (SIGTERM finishes the job in hand first)."""
        self.prepare()
        warm_up()
        log.info("compute worker %s taking jobs", self.name)
        while not self.stopped:
            if os.getppid() != self._parent:  # its supervisor died: nobody would stop it
                log.warning("compute worker %s stops: the process that started it is gone",
                            self.name)
                return
            try:
                self.step()
            except redis.RedisError as error:
                log.warning("compute queue unreachable, trying again: %s", error)
                time.sleep(RETRY_PAUSE)
                try:
                    self.prepare()  # a Redis that restarted empty has no groups
                except redis.RedisError:
                    pass

    def step(self) -> bool:
        """Take and answer one job if there is one (waiting up to BLOCK_MS); True if one was."""
        if time.monotonic() - self._claimed_at > CLAIM_EVERY:
            self._claimed_at = time.monotonic()
            for stream in self.streams:
                _, entries, *_ = self.client.xautoclaim(stream, GROUP, self.name,
                                                        self.claim_idle_ms, count=10)
                for entry_id, fields in entries:
                    if self.stopped:  # the rest stay pending for the next worker to claim
                        return False
                    self.answer(stream, entry_id, fields)
        entry = self._take()
        if entry is None:
            return False
        self.answer(*entry)
        return True

    def _take(self):
        for stream in self.streams:  # most urgent first
            found = self.client.xreadgroup(GROUP, self.name, {stream: ">"}, count=1)
            if found and found[0][1]:
                entry_id, fields = found[0][1][0]
                return stream, entry_id, fields
        found = self.client.xreadgroup(GROUP, self.name, {s: ">" for s in self.streams},
                                       count=1, block=BLOCK_MS)
        for stream, entries in found or ():
            if entries:
                entry_id, fields = entries[0]
                return stream.decode() if isinstance(stream, bytes) else stream, entry_id, fields
        return None

    def answer(self, stream: str, entry_id, fields) -> None:
        job_id, kind, args, time_limit, reply_to, expires = pickle.loads(fields[b"job"])
        # One round trip for the reply and the acknowledgement: with appendfsync always, each
        # round trip of writes waits for a disk flush.
        pipeline = self.client.pipeline(transaction=False)
        if time.time() < expires:  # else nobody waits for it any more
            outcome = execute(kind, args, time_limit)
            pipeline.lpush(reply_to, pickle.dumps((job_id, outcome),
                                                  protocol=pickle.HIGHEST_PROTOCOL))
            pipeline.expire(reply_to, REPLY_TTL)
        pipeline.xack(stream, GROUP, entry_id)
        pipeline.xdel(stream, entry_id)
        pipeline.execute()

    def stop(self, *_) -> None:
        self.stopped = True


def main() -> None:
    from service.config import Settings
    from service.logs import JsonFormatter

    settings = Settings.from_env()
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    if not settings.redis_url:
        raise SystemExit("a compute worker takes its jobs from Redis: set CRIBBAGE_REDIS_URL")
    worker = ComputeWorker(settings.redis_url, settings.redis_cluster,
                           settings.compute_time_limit)
    signal.signal(signal.SIGTERM, worker.stop)
    signal.signal(signal.SIGINT, worker.stop)
    yield_the_cpu(os.environ)
    shelf.use(shelf_for(settings))
    worker.run()
