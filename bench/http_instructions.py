"""Instructions per request of the gunicorn worker: GET /v1/ping against POST /v1/show/score.

Requests/s on a shared machine move with whatever else runs on it; the instructions a request
costs move much less (gthread's loop polls more or less often with the timing), and the scoring
endpoint's extra over the trivial one least. This runs gunicorn (deploy/gunicorn.conf.py, one
worker) under valgrind's cachegrind three times: warm-up only, warm-up then N pings, warm-up
then N scores, on one keep-alive connection. The worker's totals differ by N requests' worth.
Counted: user-space instructions of the worker (gunicorn, Flask, the app); not counted: the
kernel's socket work, nor how fast the CPU runs them (valgrind hides AVX-512 from the program,
so a library that slows the clock with it looks harmless here: see bench/json_parsers.py).

    python bench/http_instructions.py [--requests 1000]

It needs valgrind (apt-get install valgrind).
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.gunicorn_server import GunicornServer  # noqa: E402

SHOW_BODY = json.dumps({"hand": ["5H", "5S", "6D", "4C"], "starter": "JH", "crib": False})
WARM_UP = 200
ENDPOINTS = {"ping": ("GET", "/v1/ping", None), "score": ("POST", "/v1/show/score", SHOW_BODY)}


def worker_instructions(endpoint: str | None, requests: int) -> int:
    """The worker's instruction total over start, warm-up, `requests` calls and shutdown."""
    with tempfile.TemporaryDirectory() as scratch:
        server = GunicornServer(
            {"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_REDIS_URL": None,
             "PYTHONHASHSEED": "0",  # the same dict layouts in every run
             "GUNICORN_CMD_ARGS": "--timeout 600"},  # valgrind is ~50 times slower
            workers=1, threads=None,
            wrapper=["valgrind", "--tool=cachegrind", "--cache-sim=no",
                     f"--cachegrind-out-file={scratch}/cachegrind.%p"])
        server.start(timeout=300)
        try:
            worker = server.worker_pids()[0]
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
            calls = [*(["ping", "score"] * WARM_UP), *([endpoint] * requests if endpoint else [])]
            for name in calls:
                method, path, body = ENDPOINTS[name]
                headers = {"Content-Type": "application/json"} if body else {}
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    raise SystemExit(f"{method} {path}: {response.status}")
            connection.close()
        finally:
            server.stop(timeout=300)
        output = Path(scratch, f"cachegrind.{worker}").read_text()
        return int(re.search(r"^summary: (\d+)", output, re.MULTILINE).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests per endpoint")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    base = worker_instructions(None, 0)
    ping, score = ((worker_instructions(name, args.requests) - base) / args.requests
                   for name in ENDPOINTS)
    print(f"gunicorn -c deploy/gunicorn.conf.py, 1 worker, under valgrind; {args.requests} "
          f"requests per endpoint after {WARM_UP} of each")
    print(f"GET  /v1/ping        {ping:10,.0f} instructions/request")
    print(f"POST /v1/show/score  {score:10,.0f} instructions/request")
    print(f"scoring's extra  {score - ping:10,.0f} instructions/request")
    print(f"ratio ping/score {ping / score:.1%} (the requests/s ratio if every instruction cost "
          f"the same and the kernel's share were nothing)")


if __name__ == "__main__":
    main()
