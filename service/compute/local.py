"""Compute processes beside one web worker, fed from a priority queue in its memory.

For the embedded store (one web worker, no Redis): `processes` children run
`service.compute.child`, each one job at a time. The queue holds at most `bounds[priority]`
jobs of each priority (queued or running); a job is taken lowest priority number first, then
oldest first. A job that outlives its time limit by GRACE seconds has its process killed; a
process that dies mid-job is replaced and the job tried once more on the new one.

Under gevent the pipes and the threads here are cooperative (gunicorn's gevent worker patches
subprocess and threading), so a request waiting for a job costs a greenlet.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import select
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping

from .errors import ComputeBusy, ComputeUnavailable
from .framing import read_message, write_message
from .jobs import Outcome

log = logging.getLogger(__name__)

GRACE = 2.0  # seconds past its time limit before a job's process is killed
TRIES = 2    # a job whose process died is run once more


class _Job:
    def __init__(self, kind: str, args: tuple, priority: int, time_limit: float) -> None:
        self.kind, self.args, self.priority, self.time_limit = kind, args, priority, time_limit
        self.submitted = time.monotonic()
        self.result: Outcome | None = None
        self.abandoned = False  # its caller stopped waiting before it started
        self.done = threading.Event()

    def outcome(self, wait: float) -> Outcome:
        if not self.done.wait(wait):
            self.abandoned = True
            raise ComputeUnavailable(f"no compute process answered within {wait:g} s")
        if self.result is None:
            raise ComputeUnavailable("the compute process running the job died")
        return self.result


class LocalPool:
    def __init__(self, processes: int, bounds: Mapping[int, int]) -> None:
        self.bounds = dict(bounds)
        self._heap: list[tuple[int, int, _Job]] = []
        self._held: Counter[int] = Counter()  # jobs queued or running, by priority
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._closed = False
        self._processes = processes
        self._started = False

    def submit(self, kind: str, args: tuple, priority: int, time_limit: float) -> _Job:
        job = _Job(kind, args, priority, time_limit)
        with self._changed:
            if self._held[priority] >= self.bounds[priority]:
                raise ComputeBusy(f"the compute queue holds {self.bounds[priority]} jobs of "
                                  "this priority already", retry_after=1)
            if not self._started:  # on first use, if the server did not start it
                self._start_processes()
            self._held[priority] += 1
            heapq.heappush(self._heap, (priority, next(self._order), job))
            self._changed.notify()
        return job

    def start(self) -> None:
        """Start the compute processes (each with the thread that feeds it), so that the first
        job does not wait for their imports; nothing starts when the app is built."""
        with self._changed:
            if not self._started:
                self._start_processes()

    def _start_processes(self) -> None:
        self._started = True
        for number in range(self._processes):
            threading.Thread(target=self._serve, name=f"compute-{number}", daemon=True).start()

    def depths(self) -> Mapping[int, int]:
        with self._changed:
            return dict(self._held)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _take(self) -> _Job | None:
        with self._changed:
            while not self._heap and not self._closed:
                self._changed.wait()
            if self._closed:
                return None
            return heapq.heappop(self._heap)[2]

    def _serve(self) -> None:
        process = _start()
        try:
            while (job := self._take()) is not None:
                try:
                    for _ in range(TRIES):
                        if job.abandoned:
                            break
                        process = process if _alive(process) else _start()
                        job.result = _run(process, job)
                        if job.result is not None:
                            break
                finally:
                    with self._changed:
                        self._held[job.priority] -= 1
                    job.done.set()
        finally:
            process.kill()


def _start() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "service.compute.child"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _alive(process: subprocess.Popen | None) -> bool:
    return process is not None and process.poll() is None


def _run(process: subprocess.Popen, job: _Job) -> Outcome | None:
    """The job's outcome from `process`; None if the process died (try again), a timed-out
    outcome if it was killed for outliving the job's time limit."""
    assert process.stdin is not None and process.stdout is not None
    try:
        write_message(process.stdin, (job.kind, job.args, job.time_limit))
        # The child writes its whole outcome at once, when the job is done: waiting for its
        # first byte is waiting for the job, with no timer thread per job.
        answered, _, _ = select.select([process.stdout], [], [], job.time_limit + GRACE)
        if not answered:
            log.warning("compute process %s was stopped running a %s job", process.pid,
                        job.kind)
            _stop(process)
            return Outcome(timed_out=True, run_seconds=job.time_limit)
        return read_message(process.stdout)
    except (EOFError, OSError) as error:
        log.warning("compute process %s died running a %s job: %s", process.pid, job.kind,
                    error)
        _stop(process)
        return None


def _stop(process: subprocess.Popen) -> None:
    process.kill()
    process.wait()
