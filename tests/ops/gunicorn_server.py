"""A real gunicorn serving the app with deploy/gunicorn.conf.py, for tests and benchmarks."""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from tests.redis_servers import free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "gunicorn.conf.py"
START_TIMEOUT = 30.0


class GunicornServer:
    """`gunicorn -c deploy/gunicorn.conf.py service.wsgi:app` on a free loopback port.

    `env` adds to (or, with None values, removes from) this process's environment; `workers`
    or `threads` None leaves them to the config's defaults; `wrapper` is a command the server
    runs under (e.g. `taskset -c 1` to pin it to a CPU, or valgrind); `root` is the checkout
    whose service and config it serves (by default this one: a benchmark may compare another
    commit's server, run by this environment, under the same load). Output goes to files in
    `log_dir` (by default a temporary directory, removed after a clean stop); `stop()` ends the
    server gracefully, killing it if it hangs.
    """

    def __init__(self, env: dict[str, str | None] | None = None, *, workers: int | None = 2,
                 threads: int | None = 8, wrapper: list[str] | None = None,
                 log_dir: str | os.PathLike | None = None,
                 root: str | os.PathLike = ROOT):
        self.port = free_port()
        self.root = pathlib.Path(root)
        self.wrapper = wrapper or []
        self.own_log_dir = log_dir is None
        self.log_dir = pathlib.Path(log_dir or tempfile.mkdtemp(prefix="gunicorn-test-"))
        # CRIBBAGE_COMPUTE: the tests' own apps run searches inline (tests/conftest.py); a
        # server runs them as it would anywhere, unless `env` says otherwise.
        self.env = {**os.environ, "CRIBBAGE_BIND": f"127.0.0.1:{self.port}",
                    "CRIBBAGE_COMPUTE": None,
                    "WEB_CONCURRENCY": None if workers is None else str(workers),
                    "GUNICORN_THREADS": None if threads is None else str(threads)}
        self.env.update(env or {})
        self.env = {name: value for name, value in self.env.items() if value is not None}
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def stdout_path(self) -> pathlib.Path:
        return self.log_dir / "stdout.log"

    @property
    def stderr_path(self) -> pathlib.Path:
        return self.log_dir / "stderr.log"

    def start(self, timeout: float = START_TIMEOUT) -> GunicornServer:
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            command = [*self.wrapper, sys.executable, "-m", "gunicorn", "-c",
                       str(self.root / CONFIG.relative_to(ROOT)), "service.wsgi:app"]
            self.process = subprocess.Popen(command, cwd=self.root, env=self.env, stdout=out,
                                            stderr=err)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}); "
                                   f"see {self.stderr_path}")
            try:
                if self.request("GET", "/livez")[0] == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn did not answer /livez; see {self.stderr_path}")
            time.sleep(0.1)

    def stop(self, timeout: float = 40.0) -> int | None:
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.own_log_dir and process.returncode == 0:
            shutil.rmtree(self.log_dir, ignore_errors=True)
        return process.returncode

    def worker_pids(self) -> list[int]:
        """The master's live children that are its web workers (not the compute workers'
        supervisor, which it also starts with CRIBBAGE_COMPUTE=redis)."""
        assert self.process is not None
        master = self.process.pid
        children = pathlib.Path(f"/proc/{master}/task/{master}/children").read_text().split()
        return sorted(int(pid) for pid in children if not _runs_compute(int(pid)))

    def request(self, method: str, path: str, body=None, headers=None, timeout: float = 30.0):
        """One request on a new connection: (status, headers dict, parsed JSON or text)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            payload = None if body is None else json.dumps(body)
            all_headers = {"Content-Type": "application/json"} if body is not None else {}
            all_headers.update(headers or {})
            connection.request(method, path, body=payload, headers=all_headers)
            response = connection.getresponse()
            raw = response.read()
            response_headers = {name.lower(): value for name, value in response.getheaders()}
            if "json" in response_headers.get("content-type", ""):
                return response.status, response_headers, json.loads(raw)
            return response.status, response_headers, raw.decode("utf-8", "replace")
        finally:
            connection.close()


def _runs_compute(pid: int) -> bool:
    try:
        command = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # it has just exited
        return False
    return b"service.compute" in command


def metric_value(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text; 0 when it is absent."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        metric, _, label_text = series.partition("{")
        if metric != name:
            continue
        found = ",".join(sorted(label_text.rstrip("}").split(","))) if label_text else ""
        if found == wanted:
            return float(value)
    return 0.0
