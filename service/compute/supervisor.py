"""Compute workers beside a gunicorn server: `python -m service.compute.supervisor N`.

gunicorn's master starts this (service/server/hooks.py) when jobs go through Redis and
CRIBBAGE_COMPUTE_PROCESSES is above 0: it keeps N compute workers running, starting a new one
for each that dies, and stops them all when it is told to (SIGTERM) or when the process that
started it has gone. Where compute is a deployment of its own (deploy/), its orchestrator does
this instead and CRIBBAGE_COMPUTE_PROCESSES is 0 on the web tier.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

CHECK_EVERY = 0.5  # seconds


def _start() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "service.compute"])


def main() -> None:
    count = int(sys.argv[1])
    parent = os.getppid()
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    workers = [_start() for _ in range(count)]
    while not stopping and os.getppid() == parent:
        time.sleep(CHECK_EVERY)
        for number, worker in enumerate(workers):
            if worker.poll() is not None:
                print(f"compute worker {worker.pid} exited ({worker.returncode}); starting "
                      "another", file=sys.stderr, flush=True)
                workers[number] = _start()
    for worker in workers:
        worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()


if __name__ == "__main__":
    main()
