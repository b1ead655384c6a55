"""Requests/s of POST /v1/show/score against the trivial GET /v1/ping, same gunicorn, one run.

Starts gunicorn with deploy/gunicorn.conf.py on a free loopback port, runs wrk against each
endpoint in turn (alternating, `--rounds` times, `--duration` seconds each), prints the median
requests/s of both and the median of the per-round ratios (goal: scoring >= 85% of trivial),
then stops gunicorn. Alternating rounds keep load from elsewhere on the machine from favouring
one endpoint; the server's CPU time per request (from /proc) is printed too, as it depends far
less on what else the machine is doing.

    python bench/http_scoring.py [--duration 10] [--rounds 3] [--connections 16]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from statistics import median
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOW_BODY = {"hand": ["5H", "5S", "6D", "4C"], "starter": "JH", "crib": False}
GOAL = 0.85


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pinned(command: list[str], cpu: str | None) -> list[str]:
    """`command` run on one CPU (taskset) when `cpu` is given."""
    return command if cpu is None else ["taskset", "-c", cpu, *command]


def start_gunicorn(port: int, cpu: str | None) -> subprocess.Popen:
    env = {**os.environ, "CRIBBAGE_BIND": f"127.0.0.1:{port}",
           # The limiter would answer 429 long before the benchmark ends.
           "CRIBBAGE_RATE_LIMIT_ENABLED": "0"}
    env.pop("CRIBBAGE_REDIS_URL", None)
    return subprocess.Popen(
        pinned([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                "service.wsgi:app"], cpu),
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def wait_until_live(base: str, server: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/livez", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not come up")


def check_endpoints(base: str) -> None:
    request = urllib.request.Request(f"{base}/v1/show/score", data=json.dumps(SHOW_BODY).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert json.load(response)["total"] == 16
    with urllib.request.urlopen(f"{base}/v1/ping", timeout=5) as response:
        assert json.load(response) == {"ok": True}


def server_cpu_seconds(server: subprocess.Popen) -> float:
    """CPU time used so far by gunicorn's master and workers (Linux /proc)."""
    pids = [server.pid, *map(int, Path(f"/proc/{server.pid}/task/{server.pid}/children")
                             .read_text().split())]
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def wrk(url: str, args, server: subprocess.Popen, script: str | None = None):
    """(requests/s, server CPU microseconds per request) of one wrk run."""
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", url]
    if script:
        command[1:1] = ["-s", script]
    command = pinned(command, "0" if args.pin else None)
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
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="wrk runs per endpoint")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--pin", action="store_true",
                        help="run wrk on CPU 0 and gunicorn on CPU 1, so that the server's own "
                             "capacity, not the cores it shares with wrk, sets the pace")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "show_score.lua"
        script.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {json.dumps(json.dumps(SHOW_BODY))}\n")
        server = start_gunicorn(port, "1" if args.pin else None)
        try:
            wait_until_live(base, server)
            check_endpoints(base)
            warm_up = argparse.Namespace(**{**vars(args), "duration": 2})
            wrk(f"{base}/v1/ping", warm_up, server)
            wrk(f"{base}/v1/show/score", warm_up, server, str(script))
            trivial, scoring = [], []
            for _ in range(args.rounds):
                trivial.append(wrk(f"{base}/v1/ping", args, server))
                scoring.append(wrk(f"{base}/v1/show/score", args, server, str(script)))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()

    trivial_rps, scoring_rps = (median(rps for rps, _ in runs) for runs in (trivial, scoring))
    ratio = median(score[0] / ping[0] for score, ping in zip(scoring, trivial))
    # The least CPU a request took over the rounds: what it costs when nothing else interferes.
    trivial_cpu, scoring_cpu = (min(cpu for _, cpu in runs) for runs in (trivial, scoring))
    print(f"wrk: {args.threads} thread(s), {args.connections} connections, {args.duration} s x "
          f"{args.rounds} rounds per endpoint, gunicorn -c deploy/gunicorn.conf.py"
          + (", wrk on CPU 0 and gunicorn on CPU 1" if args.pin else ", both on both CPUs"))
    for name, rps, cpu, runs in (("GET  /v1/ping       ", trivial_rps, trivial_cpu, trivial),
                                 ("POST /v1/show/score ", scoring_rps, scoring_cpu, scoring)):
        rounds = ", ".join(f"{run:.0f}" for run, _ in runs)
        print(f"{name} {rps:8.0f} requests/s ({rounds}); server CPU {cpu:5.0f} us/request (min)")
    print(f"ratio scoring/trivial {ratio:.1%} (median of the rounds; goal >= {GOAL:.0%}: "
          f"{'met' if ratio >= GOAL else 'NOT met'}); by server CPU per request "
          f"{trivial_cpu / scoring_cpu:.1%}")


if __name__ == "__main__":
    main()
