"""deploy/gunicorn.conf.py under a real gunicorn: JSON log lines, metrics directory lifecycle."""

import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

GUNICORN_CONF = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"

WSGI_APP = '''
import os
import pathlib

# gunicorn imports the app after the worker installs its signal handlers: from here on a
# SIGTERM to the master stops this worker too (sent earlier, the worker would miss it).
pathlib.Path(f"worker-{os.getpid()}.ready").touch()

def app(environ, start_response):
    body = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("X-Request-ID", "req-1")])
    return [body]
'''


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url, process, app_dir, workers, deadline=15.0):
    """Until gunicorn answers and every worker has loaded the app."""
    stop = time.monotonic() + deadline
    while time.monotonic() < stop:
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                if len(list(app_dir.glob("worker-*.ready"))) == workers:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn did not start serving with every worker")


@pytest.fixture
def gunicorn(tmp_path):
    """Starts gunicorn with the deploy config on a trivial app; returns (url, stop).

    stop() sends SIGTERM, checks gunicorn exited with status 0 and returns (stdout, stderr).
    """
    (tmp_path / "trivial_app.py").write_text(WSGI_APP)
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PROMETHEUS_MULTIPROC_DIR", "CRIBBAGE_REDIS_URL")
    }
    env.update(CRIBBAGE_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2")
    stdout, stderr = tmp_path / "stdout.log", tmp_path / "stderr.log"
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "trivial_app:app"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=err,
        )
    url = f"http://127.0.0.1:{port}"

    def stop():
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)
        assert process.returncode == 0, stderr.read_text()
        return stdout.read_text(), stderr.read_text()

    try:
        wait_until_serving(url + "/", process, tmp_path, workers=2)
        yield url, stop
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


LINE_KEYS = ["time", "level", "logger", "pid", "message"]
ACCESS_KEYS = LINE_KEYS + ["log", "remote", "method", "path", "status", "bytes", "duration_ms",
                           "request_id"]
UTC_MILLISECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def test_access_log_is_json_without_query_string_or_request_headers(gunicorn):
    url, stop = gunicorn
    request = urllib.request.Request(
        url + "/v1/games/g1?invite=SECRET-INVITE",
        headers={"Authorization": "Bearer SECRET-TOKEN", "Cookie": "seat=SECRET-COOKIE"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200
        body = response.read()
    stdout, stderr = stop()

    access = [json.loads(line) for line in stdout.splitlines()]
    (line,) = [line for line in access if line["path"] != "/"]
    assert list(line) == ACCESS_KEYS
    assert UTC_MILLISECONDS.fullmatch(line.pop("time"))
    assert isinstance(line.pop("pid"), int) and line.pop("duration_ms") >= 0
    assert line == {
        "level": "info",
        "logger": "gunicorn.access",
        "message": "GET /v1/games/g1 200",
        "log": "access",
        "remote": "127.0.0.1",
        "method": "GET",
        "path": "/v1/games/g1",
        "status": 200,
        "bytes": len(body),
        "request_id": "req-1",
    }
    for secret in ("SECRET", "Authorization", "Bearer", "Cookie"):
        assert secret not in stdout + stderr


def test_error_log_is_one_json_object_per_line(gunicorn):
    _, stop = gunicorn
    _, stderr = stop()
    lines = [json.loads(line) for line in stderr.splitlines()]
    assert all(list(line) == LINE_KEYS for line in lines)
    assert all(UTC_MILLISECONDS.fullmatch(line["time"]) for line in lines)
    messages = [line["message"] for line in lines]
    assert messages[0].startswith("Starting gunicorn ")
    assert "Using worker: service.server.worker.CribbageWorker" in messages
    assert {line["logger"] for line in lines} == {"gunicorn.error"}
    warnings = [line["message"] for line in lines if line["level"] == "warning"]
    assert len(warnings) == 2
    assert warnings[0].startswith("2 workers with the embedded store")
    assert warnings[1] == ("the embedded store keeps games in this process's memory only: "
                           "nothing survives a restart or a crash of the service; set "
                           "CRIBBAGE_REDIS_URL to keep them")
    assert {line["level"] for line in lines} == {"info", "warning"}


def test_two_workers_share_a_metrics_directory_that_is_removed_at_exit(gunicorn):
    url, stop = gunicorn
    with urllib.request.urlopen(url + "/", timeout=5) as response:
        directory = response.read().decode()
    assert directory and os.path.isdir(directory)
    stop()
    assert not os.path.exists(directory)
