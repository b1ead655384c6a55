"""The workers' full garbage collections: on a schedule, each worker at its own phase."""

from __future__ import annotations

import time

from service.server.worker import seconds_to_full_collection
from tests.ops.gunicorn_server import GunicornServer

# Logs each full collection of a gunicorn process: "<pid> <monotonic time>".
GC_LOG = """
import gc, os, sys, time
if any("gunicorn" in argument for argument in sys.argv):
    def _collected(phase, info):
        if phase == "stop" and info["generation"] == 2:
            with open(%r, "a") as log:
                log.write(f"{os.getpid()} {time.monotonic()}\\n")
    gc.callbacks.append(_collected)
"""


def test_the_workers_phases_spread_evenly_over_the_period_of_the_wall_clock():
    # Five workers, 60 s: phases 0, 12, 24, 36, 48 s past each minute; the sixth shares the first's.
    assert [seconds_to_full_collection(6000.0, age, 5, 60.0) for age in range(1, 7)] == [
        60.0, 12.0, 24.0, 36.0, 48.0, 60.0]
    assert seconds_to_full_collection(6030.5, 2, 5, 60.0) == 41.5
    assert seconds_to_full_collection(6030.5, 3, 1, 60.0) == 29.5


def test_two_workers_collect_in_turn_never_together(tmp_path):
    log = tmp_path / "collections.log"
    (tmp_path / "sitecustomize.py").write_text(GC_LOG % str(log))
    server = GunicornServer({"CRIBBAGE_FULL_GC_SECONDS": "2", "PYTHONPATH": str(tmp_path)},
                            workers=2, threads=None, log_dir=tmp_path)
    server.start()
    try:
        time.sleep(3)  # both workers past their imports, whose own collections do not count
        started = time.monotonic()
        workers = server.worker_pids()
        time.sleep(7)
        stopping = time.monotonic()  # a worker's exit collects once more, off the schedule
    finally:
        server.stop()
    collections = {pid: [] for pid in workers}
    for line in log.read_text().splitlines():
        pid, at = line.split()
        if int(pid) in collections and started < float(at) < stopping:
            collections[int(pid)].append(float(at))
    first, second = collections.values()
    assert len(first) >= 3 and len(second) >= 3
    # Every 2 s, the second worker 1 s after the first: never within a quarter second.
    assert min(abs(a - b) for a in first for b in second) > 0.25
