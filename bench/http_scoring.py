"""Requests/s of POST /v1/show/score against the trivial GET /v1/ping, same gunicorn, one run.

Starts gunicorn with deploy/gunicorn.conf.py on a free loopback port, runs wrk against each
endpoint in turn (alternating, `--rounds` times, `--duration` seconds each), prints the median
requests/s of both and the median of the per-round ratios (goal: scoring >= 85% of trivial),
then stops gunicorn. Many short alternating rounds keep load from elsewhere on the machine
from favouring one endpoint: on the same code, five runs of 20 rounds of 1 s gave ratios from
85% to 92%, nine runs of 3 rounds of 10 s from 78% to 101%. The server's CPU time per request
(from /proc) is printed too.

    python bench/http_scoring.py [--duration 1] [--rounds 20] [--connections 16]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.gunicorn_server import GunicornServer  # noqa: E402
SHOW_BODY = {"hand": ["5H", "5S", "6D", "4C"], "starter": "JH", "crib": False}
GOAL = 0.85


def check_endpoints(server: GunicornServer) -> None:
    status, _, body = server.request("POST", "/v1/show/score", SHOW_BODY)
    assert (status, body["total"]) == (200, 16), body
    assert server.request("GET", "/v1/ping")[2] == {"ok": True}


def server_cpu_seconds(server: GunicornServer) -> float:
    """CPU time used so far by gunicorn's master and workers (Linux /proc)."""
    ticks = 0
    for pid in (server.process.pid, *server.worker_pids()):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def wrk(url: str, args, server: GunicornServer, script: str | None = None):
    """(requests/s, server CPU microseconds per request) of one wrk run."""
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", url]
    if script:
        command[1:1] = ["-s", script]
    if args.pin:
        command = ["taskset", "-c", "0", *command]
    cpu_before = server_cpu_seconds(server)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    cpu = server_cpu_seconds(server) - cpu_before
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if bad or "Socket errors" in output:
        raise SystemExit(f"wrk saw errors against {url}:\n{output}")
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)), cpu / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=1, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=20, help="wrk runs per endpoint")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--pin", action="store_true",
                        help="run wrk on CPU 0 and gunicorn on CPU 1, so that the server's own "
                             "capacity, not the cores it shares with wrk, sets the pace")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")

    # The limiter would answer 429 long before the benchmark ends; workers and threads are the
    # config's defaults (one worker with the embedded store).
    server = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_REDIS_URL": None},
                            workers=None, threads=None,
                            wrapper=["taskset", "-c", "1"] if args.pin else None)
    base = server.url
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "show_score.lua"
        script.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {json.dumps(json.dumps(SHOW_BODY))}\n")
        server.start()
        try:
            check_endpoints(server)
            warm_up = argparse.Namespace(**{**vars(args), "duration": 2})
            wrk(f"{base}/v1/ping", warm_up, server)
            wrk(f"{base}/v1/show/score", warm_up, server, str(script))
            trivial, scoring = [], []
            for _ in range(args.rounds):
                trivial.append(wrk(f"{base}/v1/ping", args, server))
                scoring.append(wrk(f"{base}/v1/show/score", args, server, str(script)))
        finally:
            server.stop()

    trivial_rps, scoring_rps = (median(rps for rps, _ in runs) for runs in (trivial, scoring))
    ratio = median(score[0] / ping[0] for score, ping in zip(scoring, trivial))
    # The least CPU a request took over the rounds: what it costs when nothing else interferes.
    trivial_cpu, scoring_cpu = (min(cpu for _, cpu in runs) for runs in (trivial, scoring))
    print(f"wrk: {args.threads} thread(s), {args.connections} connections, {args.duration} s x "
          f"{args.rounds} rounds per endpoint, gunicorn -c deploy/gunicorn.conf.py"
          + (", wrk on CPU 0 and gunicorn on CPU 1" if args.pin else
             ", gunicorn and wrk where the kernel puts them"))
    for name, rps, cpu, runs in (("GET  /v1/ping       ", trivial_rps, trivial_cpu, trivial),
                                 ("POST /v1/show/score ", scoring_rps, scoring_cpu, scoring)):
        rounds = ", ".join(f"{run:.0f}" for run, _ in runs)
        print(f"{name} {rps:8.0f} requests/s ({rounds}); server CPU {cpu:5.0f} us/request (min)")
    print(f"ratio scoring/trivial {ratio:.1%} (median of the rounds; goal >= {GOAL:.0%}: "
          f"{'met' if ratio >= GOAL else 'NOT met'}); by server CPU per request "
          f"{trivial_cpu / scoring_cpu:.1%}")


if __name__ == "__main__":
    main()
